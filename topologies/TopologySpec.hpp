#pragma once
// Topology spec strings: KIND:SHAPE[:KEY=VALUE]..., e.g. "torus:4x4x4", "mesh:9x8",
// "haec:4x4x4", "tianhe3:4x4:nodes=96", "fattree:2;4,4;1,2;1,2", "fattree:k-ary-n-tree:4,3",
// "dragonfly:9,4,2,2", "cascade:2,1;3,1;6,1;4" (SimGrid's notation), "slurm:topology.conf".
// Options on every kind:
//   cores=N           ranks per node
//   sockets=S         processor sockets per node (S divides N; cores 0 .. N/S - 1 are socket
//                     0's, and so on): ranks on one socket talk over the intra-node channel,
//                     ranks on two sockets of a node over the inter-socket one (LinkClass.hpp)
//   routing=R         how a replay routes messages: minimal (the default: dimension order,
//                     D-mod-K, dragonfly minimal), ecmp (fat-trees, Slurm trees), valiant or ugal
//                     (dragonflies); static metrics always use the minimal route
//   allocation=LIST   the nodes a job may use: a Slurm hostlist of host names ("nid[0001-0064]")
//                     and node ids or id ranges ("0-15,32"), comma-separated; allocation=@FILE
//                     reads them from a file, one expression per line ('#' comments)
//   hosts=FILE        host names of the nodes, one name or hostlist expression per line, in node
//                     order (topologies/HostNames.hpp)
// Canonical text: the kind's shape and options, then cores, sockets, routing, the allocation as a
// compressed hostlist of host names, and the hosts file, each only if not the default.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topologies/Topology.hpp"

namespace mapsim::topo {

struct TopologySpec {
  std::string kind;         ///< mesh, torus, haec, tianhe3, fattree, dragonfly, cascade, slurm
  std::vector<int> sizes;   ///< grid extents; haec X, Y, Z; tianhe3 chip rows, columns
  std::string shape;        ///< fattree, dragonfly, cascade: canonical shape; slurm: the file
  int cores = 1;            ///< ranks per node
  int sockets = 1;          ///< sockets per node; divides cores
  int nodes_per_chip = 96;  ///< tianhe3 only
  Routing routing = Routing::Minimal;
  std::string allocation;  ///< as written (a list, or @FILE); "" = every node
  std::string hosts;       ///< hosts file; "" = the machine's own names

  friend bool operator==(const TopologySpec&, const TopologySpec&) = default;
};

/// A spec option KEY=VALUE that is not one of every kind's (cores, sockets, routing, allocation,
/// hosts).
struct SpecOption {
  std::string_view key;
  std::string_view value;
};

/// What a kind's shape parser returns: the canonical text of its shape and options.
struct ShapeText {
  std::string text;
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

/// The routings a kind offers (minimal first); empty for an unknown kind.
std::span<const Routing> routings_of(std::string_view kind);

/// Builds the machine, reading any file the spec names (Slurm topology, hosts, allocation);
/// throws InputError if the spec is invalid or a file cannot be read or is wrong.
std::unique_ptr<Topology> make_topology(const TopologySpec& spec);
std::unique_ptr<Topology> make_topology(std::string_view spec);

}  // namespace mapsim::topo
