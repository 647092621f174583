#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "experiments/Config.hpp"
#include "experiments/Schema.hpp"
#include "mappers/Mapper.hpp"
#include "sim/NetworkModel.hpp"
#include "support/Error.hpp"
#include "support/Suggest.hpp"
#include "topologies/LinkClass.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/CollectiveAlgorithm.hpp"

namespace mapsim::cli {
namespace {

void list_topologies() {
  fmt::print(
      "Topology kinds (spec KIND:SHAPE[:cores=N[:sockets=S]][:routing=R][:allocation=LIST]"
      "[:hosts=FILE]):\n");
  std::size_t width = 0;
  for (const auto& kind : topo::topology_kinds()) width = std::max(width, kind.example.size() + 2);
  for (const auto& kind : topo::topology_kinds()) {
    fmt::print("  {:<10}{:<{}}{}\n", kind.name, kind.example, width, kind.summary);
  }
}

void list_link_classes() {
  fmt::print(
      "Link classes (defaults; override with --link CLASS:GBPS:NS and --link-energy "
      "CLASS:PJ:IDLE_W:BUSY_W, or a config's machine links):\n");
  for (const auto& info : topo::link_classes()) {
    const auto energy = topo::default_energy(info.id);
    fmt::print("  {:<15}{:>7g} GB/s {:>6g} ns {:>4g} pJ/bit {:>4g}-{:g} W  {}\n", info.name,
               info.defaults.bandwidth / 1e9, info.defaults.latency * 1e9, energy.pj_per_bit,
               energy.idle_watts, energy.busy_watts, info.description);
  }
}

void list_models() {
  fmt::print("Network models (mapsim simulate --model NAME):\n");
  for (const auto& model : sim::network_models()) {
    fmt::print("  {:<10}{}\n", model.name, model.description);
  }
  fmt::print("  {:<10}{}\n", exp::kStaticModel,
             "no replay: static metrics only (experiment configs' models)");
}

void list_columns() {
  fmt::print(
      "Columns of the results database's runs table and results view (mapsim results "
      "--where, sqlite3):\n");
  for (const auto& [title, columns] :
       {std::pair{"configuration", exp::schema::config_columns()},
        std::pair{"static metrics", exp::schema::static_columns()},
        std::pair{"simulation (NULL without replay; *_ps columns also as *_s in seconds)",
                  exp::schema::simulation_columns()},
        std::pair{"provenance", exp::schema::provenance_columns()}}) {
    fmt::print("  {}:\n", title);
    for (const auto& c : columns) {
      fmt::print("    {:<22}{:<8} {}\n", c.name, exp::schema::sql_type(c.type), c.doc);
    }
  }
}

void list_metrics() {
  fmt::print("Metrics of mapsim results --metric (and of the normalized view):\n  {}\n",
             fmt::join(exp::schema::normalized_metrics(), "\n  "));
  fmt::print(
      "Metrics of mapsim results --metric (not in the normalized view):\n  {}\n",
      fmt::join(exp::schema::metrics().subspan(exp::schema::normalized_metrics().size()), "\n  "));
}

void list_collectives() {
  fmt::print(
      "Collective algorithms (--collectives SELECTOR[,OP=ALGORITHM...], a config's "
      "mpi.collectives):\n"
      "  selectors: mpich (MPICH's classic algorithms, the default), ompi (Open MPI 4.1's "
      "tuned rules)\n");
  for (std::size_t f = 0; f < traces::kCollectiveFamilies; ++f) {
    const auto family = static_cast<traces::CollectiveFamily>(f);
    std::vector<std::string_view> names;
    for (const auto a : traces::algorithms_of(family)) names.push_back(traces::name(a));
    fmt::print("  {:<16}{}\n", traces::name(family), fmt::join(names, ", "));
  }
}

void list_mappers() {
  fmt::print("Mappers (mapsim map --mapper NAME [--param key=value]):\n");
  std::size_t width = 0;
  for (const auto& info : map::mapper_infos()) width = std::max(width, info.name.size() + 1);
  for (const auto& info : map::mapper_infos()) {
    fmt::print("  {:<{}}{}\n", info.name, width, info.description);
    const auto params = map::describe_params(info.params);
    std::string_view rest = params;
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      fmt::print("  {:<{}}  {}\n", "", width, rest.substr(0, end));
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
  }
}

}  // namespace

int run_list(const std::vector<std::string>& args) {
  CommandLine line("list", "[WHAT]",
                   "Lists what mapsim knows. WHAT is one of: topologies, link-classes, "
                   "mappers, models,\ncollectives, columns (of the results database), metrics "
                   "(default: all of them).");
  line.options.add_options()("what", po::value<std::string>()->default_value("all"),
                             "what to list");
  line.positional.add("what", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;

  const auto what = (*vm)["what"].as<std::string>();
  if (what == "topologies") {
    list_topologies();
  } else if (what == "link-classes") {
    list_link_classes();
  } else if (what == "mappers") {
    list_mappers();
  } else if (what == "models") {
    list_models();
  } else if (what == "collectives") {
    list_collectives();
  } else if (what == "columns") {
    list_columns();
  } else if (what == "metrics") {
    list_metrics();
  } else if (what == "all") {
    list_topologies();
    fmt::print("\n");
    list_link_classes();
    fmt::print("\n");
    list_mappers();
    fmt::print("\n");
    list_models();
    fmt::print("\n");
    list_collectives();
    fmt::print("\n");
    list_columns();
    fmt::print("\n");
    list_metrics();
  } else {
    const std::vector<std::string_view> valid{"topologies",  "link-classes", "mappers", "models",
                                              "collectives", "columns",      "metrics", "all"};
    throw InputError(fmt::format("cannot list '{}'; valid: {}{}", what, fmt::join(valid, ", "),
                                 suggest_suffix(what, valid)));
  }
  return 0;
}

}  // namespace mapsim::cli
