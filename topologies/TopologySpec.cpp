#include "topologies/TopologySpec.hpp"

#include <array>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"
#include "topologies/GridTopology.hpp"
#include "topologies/HaecBox.hpp"
#include "topologies/Tianhe3.hpp"

namespace mapsim::topo {
namespace {

constexpr std::array<TopologyKind, 4> kKinds{{
    {"mesh", "n-dimensional mesh, dimension-order routing", "mesh:8x8x8"},
    {"torus", "n-dimensional torus, dimension-order routing the shorter way round", "torus:4x4x4"},
    {"haec", "HAEC Box: Z boards of XxY optical 2-D tori, adjacent boards fully linked by wireless",
     "haec:4x4x4"},
    {"tianhe3", "Tianhe-3 prototype: RxC chips of 96 nodes (:nodes=N), row and column switches",
     "tianhe3:4x4"},
}};

[[noreturn]] void fail(std::string_view spec, std::string_view what) {
  throw InputError(fmt::format("topology spec '{}': {}", spec, what));
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

int parse_count(std::string_view spec, std::string_view text, std::string_view what,
                std::int64_t max) {
  if (text.empty()) fail(spec, fmt::format("{} is empty", what));
  if (text.front() == '-' || text.front() == '+') {
    fail(spec, fmt::format("{} is '{}'; it must be a positive integer", what, text));
  }
  std::int64_t value = 0;
  try {
    value = parse_integer(text, what, 0, std::numeric_limits<std::int64_t>::max());
  } catch (const InputError&) {
    // All digits: a number past 64 bits, too large rather than malformed.
    if (text.find_first_not_of("0123456789") == std::string_view::npos) {
      fail(spec, fmt::format("{} is {}, which is too large (limit {})", what, text, max));
    }
    fail(spec, fmt::format("{} is '{}', which is not a positive integer", what, text));
  }
  if (value == 0) fail(spec, fmt::format("{} is 0; it must be a positive integer", what));
  if (value > max) {
    fail(spec, fmt::format("{} is {}, which is too large (limit {})", what, value, max));
  }
  return static_cast<int>(value);
}

void validate(const TopologySpec& spec, std::string_view text) {
  const auto n = spec.sizes.size();
  if (n == 0) fail(text, "the sizes are missing");
  if (spec.kind == "haec" && n != 3) {
    fail(text, fmt::format("a HAEC Box has three sizes XxYxZ, got {}", n));
  }
  if (spec.kind == "tianhe3" && n != 2) {
    fail(text, fmt::format("a Tianhe-3 machine has two sizes (chip rows x columns), got {}", n));
  }
  if (n > kMaxGridDimensions) {
    fail(text, fmt::format("{} dimensions; at most {} are supported", n, kMaxGridDimensions));
  }
  for (std::size_t d = 0; d < n; ++d) {
    if (spec.sizes[d] < 1) {
      fail(text, fmt::format("size {} is {}; it must be a positive integer", d + 1, spec.sizes[d]));
    }
  }
  if (spec.cores < 1 || spec.cores > kMaxCoresPerNode) {
    fail(text, fmt::format("cores={} is out of range 1 to {}", spec.cores, kMaxCoresPerNode));
  }
  if (spec.nodes_per_chip < 2 || spec.nodes_per_chip % 2 != 0) {
    fail(text, fmt::format("nodes={} per chip must be even and at least 2 (a left and a right "
                           "half)",
                           spec.nodes_per_chip));
  }
  std::int64_t nodes = spec.kind == "tianhe3" ? spec.nodes_per_chip : 1;
  for (const int size : spec.sizes) {
    nodes *= size;
    if (nodes > kMaxNodes) {
      fail(text,
           fmt::format("more than {} nodes; mapsim models machines up to that size", kMaxNodes));
    }
  }
  if (spec.kind == "haec") {
    const std::int64_t board = std::int64_t{spec.sizes[0]} * spec.sizes[1];
    const std::int64_t wireless = 2 * (spec.sizes[2] - 1) * board * board;
    if (wireless + 4 * nodes > std::numeric_limits<LinkId>::max()) {
      fail(text, fmt::format("{} wireless links between boards of {} nodes are too many to model",
                             wireless, board));
    }
  }
  if (nodes * spec.cores > std::numeric_limits<std::int32_t>::max()) {
    fail(text, "too many ranks (nodes x cores)");
  }
}

}  // namespace

std::span<const TopologyKind> topology_kinds() {
  return kKinds;
}

TopologySpec parse_topology_spec(std::string_view text) {
  if (text.empty()) {
    fail(text, "it is empty; expected KIND:SIZES such as torus:4x4x4");
  }
  const auto fields = split(text, ':');
  TopologySpec spec;
  spec.kind = std::string(fields[0]);
  bool known = false;
  for (const auto& kind : kKinds) known = known || kind.name == fields[0];
  if (!known) {
    std::vector<std::string_view> names;
    for (const auto& kind : kKinds) names.push_back(kind.name);
    fail(text, fmt::format("unknown kind '{}'; valid kinds: {}{}", fields[0],
                           fmt::join(names, ", "), suggest_suffix(fields[0], names)));
  }
  if (fields.size() < 2 || fields[1].empty()) {
    fail(text, fmt::format("the sizes are missing; expected e.g. {}", [&] {
           for (const auto& kind : kKinds)
             if (kind.name == fields[0]) return kind.example;
           return std::string_view{};
         }()));
  }
  const auto sizes = split(fields[1], 'x');
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    spec.sizes.push_back(
        parse_count(text, sizes[d], fmt::format("size {} of {}", d + 1, sizes.size()), kMaxNodes));
  }

  bool have_cores = false;
  bool have_nodes = false;
  for (std::size_t i = 2; i < fields.size(); ++i) {
    const auto option = fields[i];
    const auto eq = option.find('=');
    if (option.empty()) fail(text, "empty option after ':'");
    if (eq == std::string_view::npos) {
      fail(text,
           fmt::format("option '{}' has no value; expected KEY=VALUE such as cores=4", option));
    }
    const auto key = option.substr(0, eq);
    const auto value = option.substr(eq + 1);
    if (key == "cores") {
      if (have_cores) fail(text, "option 'cores' is given twice");
      have_cores = true;
      spec.cores = parse_count(text, value, "cores", kMaxCoresPerNode);
    } else if (key == "nodes" && spec.kind == "tianhe3") {
      if (have_nodes) fail(text, "option 'nodes' is given twice");
      have_nodes = true;
      spec.nodes_per_chip = parse_count(text, value, "nodes", kMaxNodes);
    } else {
      fail(text, fmt::format("unknown option '{}'; valid options: {}", key,
                             spec.kind == "tianhe3" ? "cores, nodes" : "cores"));
    }
  }
  validate(spec, text);
  return spec;
}

std::string to_string(const TopologySpec& spec) {
  std::string text = fmt::format("{}:{}", spec.kind, fmt::join(spec.sizes, "x"));
  if (spec.kind == "tianhe3" && spec.nodes_per_chip != 96) {
    text += fmt::format(":nodes={}", spec.nodes_per_chip);
  }
  if (spec.cores != 1) text += fmt::format(":cores={}", spec.cores);
  return text;
}

std::unique_ptr<Topology> make_topology(const TopologySpec& spec) {
  validate(spec, to_string(spec));
  const auto& s = spec.sizes;
  if (spec.kind == "mesh" || spec.kind == "torus") {
    return std::make_unique<GridTopology>(s, spec.kind == "torus", spec.cores);
  }
  if (spec.kind == "haec") return std::make_unique<HaecBox>(s[0], s[1], s[2], spec.cores);
  if (spec.kind == "tianhe3") {
    return std::make_unique<Tianhe3>(s[0], s[1], spec.nodes_per_chip, spec.cores);
  }
  fail(to_string(spec), fmt::format("unknown kind '{}'", spec.kind));
}

std::unique_ptr<Topology> make_topology(std::string_view spec) {
  return make_topology(parse_topology_spec(spec));
}

}  // namespace mapsim::topo
