#pragma once
// Mapping files: what a launcher reads to place ranks, and what mapsim reads back as a mapping.
//
//   plain     mapsim's own: a header "# mapsim mapping: N ranks on SPEC" and "# key: value"
//             settings, then "rank node" per line, ranks in order; the node is its id, or its host
//             name on a machine with real names (a Slurm topology file, a hosts file). A mapping
//             that chooses cores (topologies/Mapping.hpp) adds each rank's core: "rank node
//             core"; a file names every rank's core or none.
//   rankfile  Open MPI (mpirun --rankfile): "rank R=HOST slot=S", S the rank's core on its node
//             (the mapping's cores; by default the node's ranks in rank order take slots 0, 1,
//             ...). Read back, a slot "C" or "S:C" (core C of socket S) is the rank's core when
//             every rank's slot names one core, each its own; otherwise (ranges, lists, slots
//             past the machine's cores) the ranks take the cores in rank order.
//   hostlist  one host name per line, line r for rank r (MPICH/Hydra machine files in rank order)
//   slurm     SLURM_HOSTFILE for `srun --distribution=arbitrary`: one host name per line, line r
//             for rank r (the same lines as hostlist, under the name Slurm users look for)
//   mpich     Cray MPICH's MPICH_RANK_ORDER (MPICH_RANK_REORDER_METHOD=3): the ranks, comma-
//             separated with ranges A-B, in the order the launcher deals them onto the job's
//             nodes, R per node (R = ranks per node the job is launched with, -N/--ntasks-per-
//             node). The nodes are the mapping's nodes in natural order; each but the last must
//             hold exactly R ranks (otherwise the file cannot say the mapping, and writing it
//             fails naming the node). Comment lines "# mapsim: nodes=HOSTLIST ranks-per-node=R"
//             record both for reading back.
// Host names are the machine's (Topology::host_name; topologies/HostNames.hpp): "node" + id by
// default, the file's names on a Slurm machine or with a hosts file.
//
// Reading: read_mapping detects the format from the file's first line that is not blank or a
// comment ("rank ..." a rankfile; two fields plain; one field of digits, commas and dashes
// mpich; one host name a host list) unless told. Every reader takes host names or node ids
// where a node is named, and throws InputError naming file:line for a malformed line, an unknown
// host, a rank out of range or mapped twice, a node over capacity or outside the machine's
// allocation; and naming the file for a missing rank or a plain header for another machine.

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

enum class MappingFormat : std::uint8_t { Plain, Rankfile, Hostlist, Slurm, Mpich };

/// "plain", "rankfile", "hostlist", "slurm" or "mpich"; throws InputError listing the valid names.
MappingFormat mapping_format_from_name(std::string_view name);
std::string_view name(MappingFormat format);
/// Every format's name, comma-separated, for help texts.
std::string_view mapping_format_names();

/// What made a mapping, for the header of a plain file: key and value pairs in order ("mapper",
/// "greedy"). Keys are words; values one line each.
using MappingSettings = std::vector<std::pair<std::string, std::string>>;

/// Reads a mapping in `format`, or the format its content shows (see the file comment). The rank
/// count is `ranks` if given, else the largest rank + 1.
topo::Mapping read_mapping(const std::filesystem::path& path, const topo::Topology& topology,
                           std::optional<Rank> ranks = {},
                           std::optional<MappingFormat> format = {});
/// The same from a stream; `name` stands for the file in error messages.
topo::Mapping read_mapping(std::istream& in, std::string_view name, const topo::Topology& topology,
                           std::optional<Rank> ranks = {},
                           std::optional<MappingFormat> format = {});

/// `settings` go into the header of the plain format (the others have none). Throws InputError if
/// the format cannot express the mapping (mpich: see the file comment).
void write_mapping(std::ostream& out, const topo::Mapping& mapping, const topo::Topology& topology,
                   MappingFormat format, const MappingSettings& settings = {});
/// Writes to a file, all or nothing ("-": standard output); throws InputError if it cannot be
/// written.
void write_mapping(const std::filesystem::path& path, const topo::Mapping& mapping,
                   const topo::Topology& topology, MappingFormat format,
                   const MappingSettings& settings = {});

}  // namespace mapsim::map
