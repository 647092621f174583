#include <array>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/Cli.hpp"
#include "cli/MachineOptions.hpp"
#include "cli/TopologyReport.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::cli {
namespace {

std::string format_bandwidth(double bytes_per_second) {
  return fmt::format("{:g} GB/s", bytes_per_second / 1e9);
}

std::string format_latency(double seconds) {
  return fmt::format("{:g} ns", seconds * 1e9);
}

std::array<topo::NodeId, 2> node_pair(const topo::Topology& topology,
                                      const std::vector<std::string>& values,
                                      std::string_view option) {
  if (values.size() != 2) {
    throw po::error(fmt::format("--{} takes two nodes A B, got {} value(s) '{}'; give SPEC first",
                                option, values.size(), fmt::join(values, " ")));
  }
  return {parse_node(topology, values[0], fmt::format("--{} A", option)),
          parse_node(topology, values[1], fmt::format("--{} B", option))};
}

}  // namespace

topo::NodeId parse_node(const topo::Topology& topology, std::string_view text,
                        std::string_view what) {
  if (text.find(',') == std::string_view::npos) return topology.node_named(text, what);
  std::vector<int> coords;
  std::size_t start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    const auto part = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    coords.push_back(static_cast<int>(
        parse_integer(part, fmt::format("{} (coordinates '{}')", what, text), 0, INT32_MAX)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  try {
    return topology.node_at(coords);
  } catch (const InputError& e) {
    throw e.within(what);
  }
}

void print_topology(std::FILE* out, const topo::Topology& topology) {
  const auto dims = topology.dimensions();
  std::vector<std::string> described;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const int dim = static_cast<int>(d);
    described.push_back(fmt::format("{} {}{}", topology.dimension_name(dim), dims[d],
                                    topology.is_torus(dim) ? " (torus)" : ""));
  }
  fmt::print(out, "topology       {}\n", topology.spec());
  fmt::print(out, "dimensions     {}\n", fmt::join(described, ", "));
  fmt::print(out, "nodes          {}\n", topology.node_count());
  fmt::print(out, "cores/node     {} ({} ranks)\n", topology.cores_per_node(),
             static_cast<std::int64_t>(topology.node_count()) * topology.cores_per_node());
  if (topology.sockets_per_node() > 1) {
    fmt::print(out,
               "sockets/node   {} of {} cores (intra-node channel within one, inter-socket "
               "between two)\n",
               topology.sockets_per_node(), topology.cores_per_socket());
  }
  const auto routers = topology.nodes_are_routers()
                           ? topology.node_count()
                           : topology.vertex_count() - topology.node_count();
  fmt::print(out, "routers        {}{}\n", routers,
             topology.nodes_are_routers() ? " (every node routes)"
                                          : " (routers and switches apart from the nodes)");

  const auto per_class = topology.links_per_class();
  fmt::print(out, "links          {} directed\n", topology.link_count());
  const topo::LinkTable table;
  for (const auto& info : topo::link_classes()) {
    const auto count = per_class[static_cast<std::size_t>(info.id)];
    if (count == 0) continue;
    fmt::print(out, "  {:<13}{:>9}   {:>12} {:>9}  {}\n", info.name, count,
               format_bandwidth(table[info.id].bandwidth), format_latency(table[info.id].latency),
               info.description);
  }
  const auto stats = topo::distance_stats(topology.hop_histogram());
  fmt::print(out, "diameter       {} hops\n", stats.diameter);
  fmt::print(out, "avg distance   {:.4f} hops over {} ordered pairs of distinct nodes\n",
             stats.average, stats.pairs);
  const auto levels = topology.levels();
  if (!levels.empty()) {
    std::vector<std::string> described_levels;
    for (const auto& level : levels) {
      described_levels.push_back(fmt::format("{} {}", level.groups, level.name));
    }
    fmt::print(out, "hierarchy      {}\n", fmt::join(described_levels, ", "));
  }
  if (topology.routings().size() > 1) {
    std::vector<std::string_view> offered;
    for (const auto r : topology.routings()) offered.push_back(topo::name(r));
    fmt::print(out,
               "routing        {} in replays (offered: {}); static metrics use the minimal "
               "routes\n",
               topo::name(topology.routing()), fmt::join(offered, ", "));
  }
  const auto& names = topology.host_names();
  fmt::print(out, "hosts          {} .. {}{}\n", topology.host_name(0),
             topology.host_name(topology.node_count() - 1),
             names.is_default() ? " (default names)" : fmt::format(" ({})", names.source()));
  if (!topology.allocation().empty()) {
    fmt::print(out, "allocation     {} of {} nodes ({} ranks)\n", topology.allocation().size(),
               topology.node_count(),
               static_cast<std::int64_t>(topology.allocation().size()) * topology.cores_per_node());
  }
}

void print_route(std::FILE* out, const topo::Topology& topology, topo::NodeId a, topo::NodeId b) {
  const auto path = topology.route(a, b);
  fmt::print(out, "route from {} to {}: {} links, {} hops\n", topology.vertex_name(a),
             topology.vertex_name(b), path.size(), topology.route_hops(path));
  for (const auto id : path) {
    const auto link = topology.link(id);
    fmt::print(out, "  link {:<8} {} -> {}  [{}]\n", id, topology.vertex_name(link.from),
               topology.vertex_name(link.to), topo::name(link.link_class));
  }
}

int run_topo(const std::vector<std::string>& args) {
  CommandLine line("topo",
                   "SPEC [--hops A B] [--route A B] [--coords A] [--hosts FILE] [--allocation "
                   "LIST|@FILE]",
                   "Describes a modelled machine: nodes, links per class, diameter and "
                   "average distance,\nhierarchy, routing, host names and allocation. With a "
                   "query option, answers only that\nquery. Nodes are host names, ids or "
                   "coordinates (1,2,0).\nSPEC is KIND:SHAPE[:OPTION=VALUE...], e.g. "
                   "torus:4x4x4, mesh:9x8, haec:4x4x4, tianhe3:4x4,\n'fattree:2;4,4;1,2;1,2', "
                   "dragonfly:9,4,2,2:routing=ugal, slurm:topology.conf;\n'mapsim list "
                   "topologies' lists the kinds.");
  line.options.add_options()("spec", po::value<std::string>()->required(), "topology spec")(
      "hops", po::value<std::vector<std::string>>()->multitoken(), "print hops from node A to B")(
      "route", po::value<std::vector<std::string>>()->multitoken(),
      "print the (minimal) route from A to B")("coords", po::value<std::string>(),
                                               "print the coordinates of node A");
  add_machine_options(line.options);
  line.positional.add("spec", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;

  const auto topology = make_machine(*vm, (*vm)["spec"].as<std::string>(), "SPEC");
  bool queried = false;
  if (vm->count("coords") != 0) {
    const auto node = parse_node(*topology, (*vm)["coords"].as<std::string>(), "--coords");
    fmt::print("{}\n", topology->vertex_name(node));
    queried = true;
  }
  if (vm->count("hops") != 0) {
    const auto [a, b] = node_pair(*topology, (*vm)["hops"].as<std::vector<std::string>>(), "hops");
    fmt::print("{}\n", topology->hops(a, b));
    queried = true;
  }
  if (vm->count("route") != 0) {
    const auto [a, b] =
        node_pair(*topology, (*vm)["route"].as<std::vector<std::string>>(), "route");
    print_route(stdout, *topology, a, b);
    queried = true;
  }
  if (!queried) print_topology(stdout, *topology);
  return 0;
}

}  // namespace mapsim::cli
