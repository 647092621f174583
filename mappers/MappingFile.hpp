#pragma once
// Mapping files: read `rank node` lines; write them back, or as an Open MPI rankfile, or as a
// host list in rank order (Slurm's arbitrary distribution, MPICH/Hydra machine files).
//
// Host names are derived from the node id alone, so that every tool agrees on them: node n is
// host "node" followed by n in decimal, zero-padded to the number of digits of the machine's
// largest node id (torus:4x4x4 has hosts node00 .. node63; a 4096-node machine node0000 ..
// node4095). A launcher on a real machine maps these names to its own with a sed script.

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/Ids.hpp"
#include "topologies/Mapping.hpp"
#include "topologies/Topology.hpp"

namespace mapsim::map {

enum class MappingFormat : std::uint8_t {
  Plain,     ///< "# comment" header, then "rank node" per line, ranks in order
  Rankfile,  ///< Open MPI: "rank R=HOST slot=S", S the core of the node, by rank order on it
  Hostlist,  ///< one host name per line, line r for rank r
};

/// "plain", "rankfile" or "hostlist"; throws InputError listing the valid names.
MappingFormat mapping_format_from_name(std::string_view name);
std::string_view name(MappingFormat format);

/// The host name of `node` on `topology` (see the file comment).
std::string host_name(const topo::Topology& topology, topo::NodeId node);

/// What made a mapping, for the header of a plain file: key and value pairs in order ("mapper",
/// "greedy"). Keys are words; values one line each.
using MappingSettings = std::vector<std::pair<std::string, std::string>>;

/// Reads `rank node` lines: blank lines and text after '#' are ignored; fields are separated by
/// spaces or tabs. The rank count is `ranks` if given, else the largest rank + 1. Throws
/// InputError naming file:line for: a missing file, a header "# mapsim mapping: N ranks on SPEC"
/// whose spec is not the topology's or whose N is not `ranks`, a malformed line, a rank out of
/// range, a duplicate rank, a node the topology does not have, a node over capacity; and naming
/// the file for a missing rank.
topo::Mapping read_mapping(const std::filesystem::path& path, const topo::Topology& topology,
                           std::optional<Rank> ranks = {});
/// The same from a stream; `name` stands for the file in error messages.
topo::Mapping read_mapping(std::istream& in, std::string_view name, const topo::Topology& topology,
                           std::optional<Rank> ranks = {});

/// `settings` go into the header of the plain format (rankfiles and host lists have none).
void write_mapping(std::ostream& out, const topo::Mapping& mapping, const topo::Topology& topology,
                   MappingFormat format, const MappingSettings& settings = {});
/// Writes to a file, all or nothing ("-": standard output); throws InputError if it cannot be
/// written.
void write_mapping(const std::filesystem::path& path, const topo::Mapping& mapping,
                   const topo::Topology& topology, MappingFormat format,
                   const MappingSettings& settings = {});

}  // namespace mapsim::map
