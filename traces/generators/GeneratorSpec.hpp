#pragma once
// Generator specs: a generated workload named in one string, wherever a trace can be named
// (experiment configs today). The grammar:
//
//   npb:KERNEL:CLASS:RANKS[:key=value]...   KERNEL one of lu bt sp cg mg ft is ep
//   KERNEL:CLASS:RANKS[:key=value]...       mapsim's own generators: sweep3d stencil2d stencil3d
//
//   keys: iterations=N      overrides the class's iteration count (GeneratorOptions::iterations)
//         message-bytes=B   stencil2d/3d: bytes per halo message
//
// e.g. npb:lu:C:64, npb:cg:A:16:iterations=2, stencil3d:S:27:message-bytes=4096. The canonical
// form (format_generator_spec) writes the keys in the order above, so two specs of one workload
// compare equal as strings.

#include <string>
#include <string_view>

#include "traces/generators/Generator.hpp"

namespace mapsim::traces {

/// Parses and validates a spec (kernel, class, rank rule, option ranges, as make_workload does).
/// Throws InputError naming the spec and the part that is wrong, with the valid choices.
GeneratorOptions parse_generator_spec(std::string_view spec);

/// The canonical spec of `options`: parse_generator_spec(format_generator_spec(o)) gives o back.
std::string format_generator_spec(const GeneratorOptions& options);

/// The canonical spec with every default filled in: the iteration count the workload runs even
/// if `options` leaves it to the class ("npb:lu:S:4" -> "npb:lu:S:4:iterations=50"), so that
/// two specs of one workload give one string. Throws InputError as make_workload does.
std::string effective_generator_spec(const GeneratorOptions& options);

/// Whether `text` names a generator (starts with "npb:" or one of the own generators' names and
/// a colon), i.e. whether it should be parsed as a spec rather than taken as a path.
bool is_generator_spec(std::string_view text);

}  // namespace mapsim::traces
