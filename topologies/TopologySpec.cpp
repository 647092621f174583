#include "topologies/TopologySpec.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Hostlist.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"
#include "topologies/Cascade.hpp"
#include "topologies/Dragonfly.hpp"
#include "topologies/FatTree.hpp"
#include "topologies/GridTopology.hpp"
#include "topologies/HaecBox.hpp"
#include "topologies/SlurmTree.hpp"
#include "topologies/SpecText.hpp"
#include "topologies/Tianhe3.hpp"

namespace mapsim::topo {
namespace {

constexpr std::array<TopologyKind, 8> kKinds{{
    {"mesh", "n-dimensional mesh, dimension-order routing", "mesh:8x8x8"},
    {"torus", "n-dimensional torus, dimension-order routing the shorter way round", "torus:4x4x4"},
    {"haec", "HAEC Box: Z boards of XxY optical 2-D tori, adjacent boards fully linked by wireless",
     "haec:4x4x4"},
    {"tianhe3", "Tianhe-3 prototype: RxC chips of 96 nodes (:nodes=N), row and column switches",
     "tianhe3:4x4"},
    {"fattree",
     "fat-tree in SimGrid's notation H;M1,..;W1,..;P1,.. (or k-ary-n-tree:K,N, leaf-spine:...), "
     "D-mod-K or ECMP",
     "fattree:2;4,4;1,2;1,2"},
    {"dragonfly",
     "dragonfly (Kim et al.): G groups of A routers, P hosts and H global links per router",
     "dragonfly:9,4,2,2"},
    {"cascade", "Cray Cascade / XC dragonfly in SimGrid's notation G,GL;C,CL;R,RL;N",
     "cascade:2,1;3,1;6,1;4"},
    {"slurm", "a cluster read from Slurm's topology.conf (topology/tree), real host names",
     "slurm:topology.conf"},
}};

constexpr std::array<Routing, 1> kMinimal{Routing::Minimal};
constexpr std::array<Routing, 2> kTreeRoutings{Routing::Minimal, Routing::Ecmp};
constexpr std::array<Routing, 3> kDragonflyRoutings{Routing::Minimal, Routing::Valiant,
                                                    Routing::Ugal};

bool is_shaped(std::string_view kind) {
  return kind == "fattree" || kind == "dragonfly" || kind == "cascade" || kind == "slurm";
}

int parse_count(std::string_view spec, std::string_view text, std::string_view what,
                std::int64_t max) {
  if (text.empty()) fail_spec(spec, fmt::format("{} is empty", what));
  if (text.front() == '-' || text.front() == '+') {
    fail_spec(spec, fmt::format("{} is '{}'; it must be a positive integer", what, text));
  }
  std::int64_t value = 0;
  try {
    value = parse_integer(text, what, 0, std::numeric_limits<std::int64_t>::max());
  } catch (const InputError&) {
    // All digits: a number past 64 bits, too large rather than malformed.
    if (text.find_first_not_of("0123456789") == std::string_view::npos) {
      fail_spec(spec, fmt::format("{} is {}, which is too large (limit {})", what, text, max));
    }
    fail_spec(spec, fmt::format("{} is '{}', which is not a positive integer", what, text));
  }
  if (value == 0) fail_spec(spec, fmt::format("{} is 0; it must be a positive integer", what));
  if (value > max) {
    fail_spec(spec, fmt::format("{} is {}, which is too large (limit {})", what, value, max));
  }
  return static_cast<int>(value);
}

void validate(const TopologySpec& spec, std::string_view text) {
  if (spec.cores < 1 || spec.cores > kMaxCoresPerNode) {
    fail_spec(text, fmt::format("cores={} is out of range 1 to {}", spec.cores, kMaxCoresPerNode));
  }
  if (spec.sockets < 1 || spec.cores % spec.sockets != 0) {
    fail_spec(text, fmt::format("sockets={} does not divide cores={}: every socket of a node has "
                                "the same number of cores",
                                spec.sockets, spec.cores));
  }
  const auto offered = routings_of(spec.kind);
  if (std::find(offered.begin(), offered.end(), spec.routing) == offered.end()) {
    std::vector<std::string_view> names;
    for (const auto r : offered) names.push_back(name(r));
    fail_spec(text, fmt::format("routing={} is not one of {}'s: {}", name(spec.routing), spec.kind,
                                fmt::join(names, ", ")));
  }
  if (is_shaped(spec.kind)) {
    if (spec.shape.empty()) fail_spec(text, "the shape is missing");
    return;
  }
  const auto n = spec.sizes.size();
  if (n == 0) fail_spec(text, "the sizes are missing");
  if (spec.kind == "haec" && n != 3) {
    fail_spec(text, fmt::format("a HAEC Box has three sizes XxYxZ, got {}", n));
  }
  if (spec.kind == "tianhe3" && n != 2) {
    fail_spec(text,
              fmt::format("a Tianhe-3 machine has two sizes (chip rows x columns), got {}", n));
  }
  if (n > kMaxGridDimensions) {
    fail_spec(text, fmt::format("{} dimensions; at most {} are supported", n, kMaxGridDimensions));
  }
  for (std::size_t d = 0; d < n; ++d) {
    if (spec.sizes[d] < 1) {
      fail_spec(text,
                fmt::format("size {} is {}; it must be a positive integer", d + 1, spec.sizes[d]));
    }
  }
  if (spec.nodes_per_chip < 2 || spec.nodes_per_chip % 2 != 0) {
    fail_spec(text, fmt::format("nodes={} per chip must be even and at least 2 (a left and a right "
                                "half)",
                                spec.nodes_per_chip));
  }
  std::int64_t nodes = spec.kind == "tianhe3" ? spec.nodes_per_chip : 1;
  for (const int size : spec.sizes) {
    nodes *= size;
    if (nodes > kMaxNodes) {
      fail_spec(text, fmt::format("more than {} nodes; mapsim models machines up to that size",
                                  kMaxNodes));
    }
  }
  if (spec.kind == "haec") {
    const std::int64_t board = std::int64_t{spec.sizes[0]} * spec.sizes[1];
    const std::int64_t wireless = 2 * (spec.sizes[2] - 1) * board * board;
    if (wireless + 4 * nodes > std::numeric_limits<LinkId>::max()) {
      fail_spec(text,
                fmt::format("{} wireless links between boards of {} nodes are too many to model",
                            wireless, board));
    }
  }
  if (nodes * spec.cores > std::numeric_limits<std::int32_t>::max()) {
    fail_spec(text, "too many ranks (nodes x cores)");
  }
}

}  // namespace

std::span<const TopologyKind> topology_kinds() {
  return kKinds;
}

std::span<const Routing> routings_of(std::string_view kind) {
  if (kind == "fattree" || kind == "slurm") return kTreeRoutings;
  if (kind == "dragonfly" || kind == "cascade") return kDragonflyRoutings;
  for (const auto& k : kKinds)
    if (k.name == kind) return kMinimal;
  return {};
}

namespace {

Routing parse_routing(std::string_view spec, std::string_view kind, std::string_view value) {
  for (const auto r : {Routing::Minimal, Routing::Ecmp, Routing::Valiant, Routing::Ugal}) {
    if (name(r) == value) return r;
  }
  // D-mod-K is the minimal routing of trees; accepted under its own name.
  if (value == "dmodk" && (kind == "fattree" || kind == "slurm")) return Routing::Minimal;
  std::vector<std::string_view> names;
  for (const auto r : routings_of(kind)) names.push_back(name(r));
  fail_spec(spec, fmt::format("routing '{}' is unknown; {} offers: {}{}", value, kind,
                              fmt::join(names, ", "), suggest_suffix(value, names)));
}

/// The sizes of a grid kind ("4x4x4").
std::vector<int> parse_sizes(std::string_view text, std::string_view field) {
  std::vector<int> sizes;
  const auto parts = split_fields(field, 'x');
  for (std::size_t d = 0; d < parts.size(); ++d) {
    sizes.push_back(
        parse_count(text, parts[d], fmt::format("size {} of {}", d + 1, parts.size()), kMaxNodes));
  }
  return sizes;
}

ShapeText parse_shape(std::string_view text, std::string_view kind,
                      std::span<const std::string_view> positional,
                      std::span<const SpecOption> options) {
  if (kind == "fattree") return parse_fat_tree_shape(text, positional, options);
  if (kind == "dragonfly") return parse_dragonfly_shape(text, positional, options);
  if (kind == "cascade") return parse_cascade_shape(text, positional, options);
  return parse_slurm_shape(text, positional, options);
}

/// The top-level comma-separated items of an allocation list (commas in brackets stay).
std::vector<std::string_view> list_items(std::string_view text) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if ((c == ',' && depth == 0) || i == text.size()) {  // an unclosed '[' ends at the end
      items.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return items;
}

bool digits_only(std::string_view text) {
  return !text.empty() && text.size() <= 10 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Adds the nodes `expression` names (host names, node ids, id ranges A-B) to `nodes`.
void add_allocated(const Topology& machine, std::string_view expression, std::string_view where,
                   std::vector<NodeId>& nodes) {
  for (const auto item : list_items(expression)) {
    if (item.empty()) {
      throw InputError(fmt::format("{}: '{}' has an empty item", where, expression));
    }
    const auto dash = item.find('-');
    if (digits_only(item) ||
        (dash != std::string_view::npos && digits_only(item.substr(0, dash)) &&
         digits_only(item.substr(dash + 1)) && !machine.host_names().find(item))) {
      const auto first = std::stoll(std::string(item.substr(0, dash)));
      const auto last =
          dash == std::string_view::npos ? first : std::stoll(std::string(item.substr(dash + 1)));
      if (last < first) {
        throw InputError(fmt::format("{}: the node range '{}' ends below its start", where, item));
      }
      machine.check_node(first, where);
      machine.check_node(last, where);
      for (auto n = first; n <= last; ++n) nodes.push_back(static_cast<NodeId>(n));
      continue;
    }
    for (const auto& host : expand_hostlist(item, where)) {
      const auto node = machine.host_names().find(host);
      if (!node) {
        throw InputError(
            fmt::format("{}: '{}' is not a host of {} (hosts {} to {}; node ids 0 to "
                        "{})",
                        where, host, machine.machine_spec(), machine.host_name(0),
                        machine.host_name(machine.node_count() - 1), machine.node_count() - 1));
      }
      nodes.push_back(*node);
    }
  }
}

/// The allocation a spec names, sorted; throws InputError for an unknown host, a node listed
/// twice, an unreadable file.
std::vector<NodeId> resolve_allocation(const Topology& machine, std::string_view value,
                                       std::string_view spec) {
  std::vector<NodeId> nodes;
  const auto where = fmt::format("topology spec '{}': allocation", spec);
  if (value.starts_with('@')) {
    const std::string file(value.substr(1));
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
      throw InputError(fmt::format("{}: {} is a directory", where, file));
    }
    std::ifstream in(file);
    if (!in) throw InputError(fmt::format("{}: cannot open the file {}", where, file));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::string_view text = line;
      if (const auto hash = text.find('#'); hash != std::string_view::npos) {
        text = text.substr(0, hash);
      }
      while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
      }
      if (text.empty()) continue;
      add_allocated(machine, text, fmt::format("allocation file {}:{}", file, number), nodes);
    }
    if (in.bad()) throw InputError(fmt::format("{}: cannot read the file {}", where, file));
    if (nodes.empty()) throw InputError(fmt::format("{}: the file {} names no node", where, file));
  } else {
    add_allocated(machine, value, where, nodes);
  }
  std::sort(nodes.begin(), nodes.end());
  const auto twice = std::adjacent_find(nodes.begin(), nodes.end());
  if (twice != nodes.end()) {
    throw InputError(
        fmt::format("{}: node {} ({}) is listed twice", where, *twice, machine.host_name(*twice)));
  }
  return nodes;
}

}  // namespace

TopologySpec parse_topology_spec(std::string_view text) {
  if (text.empty()) {
    fail_spec(text, "it is empty; expected KIND:SIZES such as torus:4x4x4");
  }
  const auto fields = split_fields(text, ':');
  TopologySpec spec;
  spec.kind = std::string(fields[0]);
  bool known = false;
  for (const auto& kind : kKinds) known = known || kind.name == fields[0];
  if (!known) {
    std::vector<std::string_view> names;
    for (const auto& kind : kKinds) names.push_back(kind.name);
    fail_spec(text, fmt::format("unknown kind '{}'; valid kinds: {}{}", fields[0],
                                fmt::join(names, ", "), suggest_suffix(fields[0], names)));
  }
  if (fields.size() < 2 || fields[1].empty()) {
    fail_spec(text, fmt::format("the {} missing; expected e.g. {}",
                                is_shaped(spec.kind) ? "shape is" : "sizes are", [&] {
                                  for (const auto& kind : kKinds)
                                    if (kind.name == fields[0]) return kind.example;
                                  return std::string_view{};
                                }()));
  }

  // Fields after the kind: positional ones (the shape), then KEY=VALUE options. A Slurm file
  // path is one positional field whatever it holds.
  std::vector<std::string_view> positional;
  std::vector<SpecOption> kind_options;
  std::vector<std::string_view> seen;
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const auto field = fields[i];
    const auto eq = field.find('=');
    if (i == 1 ||
        (!field.empty() && eq == std::string_view::npos && kind_options.empty() && seen.empty())) {
      positional.push_back(field);
      continue;
    }
    if (field.empty()) fail_spec(text, "empty option after ':'");
    if (eq == std::string_view::npos) {
      fail_spec(text,
                fmt::format("option '{}' has no value; expected KEY=VALUE such as cores=4", field));
    }
    const auto key = field.substr(0, eq);
    const auto value = field.substr(eq + 1);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      fail_spec(text, fmt::format("option '{}' is given twice", key));
    }
    seen.push_back(key);
    if (value.empty()) fail_spec(text, fmt::format("option '{}' has an empty value", key));
    if (key == "cores") {
      spec.cores = parse_count(text, value, "cores", kMaxCoresPerNode);
    } else if (key == "sockets") {
      spec.sockets = parse_count(text, value, "sockets", kMaxCoresPerNode);
    } else if (key == "routing") {
      spec.routing = parse_routing(text, spec.kind, value);
    } else if (key == "allocation") {
      spec.allocation = std::string(value);
    } else if (key == "hosts") {
      if (spec.kind == "slurm") {
        fail_spec(text,
                  "a Slurm machine takes its host names from its topology file; hosts= is not "
                  "an option of it");
      }
      spec.hosts = std::string(value);
    } else if (key == "nodes" && spec.kind == "tianhe3") {
      spec.nodes_per_chip = parse_count(text, value, "nodes", kMaxNodes);
    } else if (is_shaped(spec.kind)) {
      kind_options.push_back({key, value});
    } else {
      fail_spec(text, fmt::format("unknown option '{}'; valid options: {}", key,
                                  spec.kind == "tianhe3"
                                      ? "cores, sockets, nodes, routing, allocation, hosts"
                                      : "cores, sockets, routing, allocation, hosts"));
    }
  }
  if (is_shaped(spec.kind)) {
    spec.shape = parse_shape(text, spec.kind, positional, kind_options).text;
  } else {
    if (positional.size() > 1) {
      fail_spec(text, fmt::format("option '{}' has no value; expected KEY=VALUE such as cores=4",
                                  positional[1]));
    }
    spec.sizes = parse_sizes(text, positional[0]);
  }
  validate(spec, text);
  return spec;
}

std::string to_string(const TopologySpec& spec) {
  std::string text = is_shaped(spec.kind)
                         ? fmt::format("{}:{}", spec.kind, spec.shape)
                         : fmt::format("{}:{}", spec.kind, fmt::join(spec.sizes, "x"));
  if (spec.kind == "tianhe3" && spec.nodes_per_chip != 96) {
    text += fmt::format(":nodes={}", spec.nodes_per_chip);
  }
  if (spec.cores != 1) text += fmt::format(":cores={}", spec.cores);
  if (spec.sockets != 1) text += fmt::format(":sockets={}", spec.sockets);
  if (spec.routing != Routing::Minimal) text += fmt::format(":routing={}", name(spec.routing));
  if (!spec.allocation.empty()) text += fmt::format(":allocation={}", spec.allocation);
  if (!spec.hosts.empty()) text += fmt::format(":hosts={}", spec.hosts);
  return text;
}

namespace {

std::unique_ptr<Topology> make_machine(const TopologySpec& spec) {
  const auto& s = spec.sizes;
  if (spec.kind == "mesh" || spec.kind == "torus") {
    return std::make_unique<GridTopology>(s, spec.kind == "torus", spec.cores);
  }
  if (spec.kind == "haec") return std::make_unique<HaecBox>(s[0], s[1], s[2], spec.cores);
  if (spec.kind == "tianhe3") {
    return std::make_unique<Tianhe3>(s[0], s[1], spec.nodes_per_chip, spec.cores);
  }
  if (spec.kind == "fattree") return make_fat_tree(spec.shape, spec.cores);
  if (spec.kind == "dragonfly") return make_dragonfly(spec.shape, spec.cores);
  if (spec.kind == "cascade") return make_cascade(spec.shape, spec.cores);
  if (spec.kind == "slurm") return make_slurm_tree(spec.shape, spec.cores);
  fail_spec(to_string(spec), fmt::format("unknown kind '{}'", spec.kind));
}

}  // namespace

std::unique_ptr<Topology> make_topology(const TopologySpec& spec) {
  const auto text = to_string(spec);
  validate(spec, text);
  auto machine = make_machine(spec);
  MachineSetup setup;
  setup.routing = spec.routing;
  setup.sockets = spec.sockets;
  if (!spec.hosts.empty()) {
    try {
      setup.names =
          std::make_shared<const HostNames>(read_host_names(spec.hosts, machine->node_count()));
    } catch (const InputError& e) {
      throw e.within(fmt::format("topology spec '{}'", text));
    }
    setup.hosts_file = spec.hosts;
    setup.apply(*machine);  // the names, before the allocation is read in them
  }
  if (!spec.allocation.empty())
    setup.allocation = resolve_allocation(*machine, spec.allocation, text);
  setup.apply(*machine);
  return machine;
}

std::unique_ptr<Topology> make_topology(std::string_view spec) {
  return make_topology(parse_topology_spec(spec));
}

}  // namespace mapsim::topo
