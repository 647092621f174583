#pragma once
// Topology spec strings: KIND:SIZES[:KEY=VALUE]..., e.g. "torus:4x4x4", "mesh:9x8",
// "haec:4x4x4", "tianhe3:4x4:nodes=96", with ":cores=N" for N ranks per node on any kind.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::topo {

struct TopologySpec {
  std::string kind;         ///< mesh, torus, haec or tianhe3
  std::vector<int> sizes;   ///< grid extents; haec X, Y, Z; tianhe3 chip rows, columns
  int cores = 1;            ///< ranks per node
  int nodes_per_chip = 96;  ///< tianhe3 only
};

struct TopologyKind {
  std::string_view name;
  std::string_view summary;
  std::string_view example;
};

/// The kinds a spec may name, with a one-line description and an example spec each.
std::span<const TopologyKind> topology_kinds();

/// Limits that keep every id in 32 bits and every table in memory.
inline constexpr int kMaxGridDimensions = 16;
inline constexpr std::int64_t kMaxNodes = std::int64_t{1} << 21;
inline constexpr int kMaxCoresPerNode = 1024;

/// Parses and validates a spec; throws InputError quoting the spec and saying what is wrong.
TopologySpec parse_topology_spec(std::string_view text);

/// Canonical text of a spec (defaults omitted); parse_topology_spec(to_string(s)) == s.
std::string to_string(const TopologySpec& spec);

/// Builds the machine; throws InputError if the spec is invalid.
std::unique_ptr<Topology> make_topology(const TopologySpec& spec);
std::unique_ptr<Topology> make_topology(std::string_view spec);

}  // namespace mapsim::topo
