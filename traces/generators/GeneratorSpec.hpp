#pragma once
// Generator specs: a generated workload named in one string, wherever a trace can be named
// (experiment configs today). The grammar:
//
//   npb:KERNEL:CLASS:RANKS[:key=value]...   KERNEL one of lu bt sp cg mg ft is ep
//   KERNEL:CLASS:RANKS[:key=value]...       mapsim's own generators: sweep3d stencil2d stencil3d
//   snap:DECK:RANKS[:key=value]...          SNAP from an input deck (sample, benchmark, ohtma)
//   sweep3d:DECK:RANKS[:key=value]...       Sweep3D from an input deck; a single letter S, W, A,
//                                           B, C or D is a class (mapsim's own sizes) instead
//
//   keys: iterations=N      overrides the iteration count (GeneratorOptions::iterations)
//         message-bytes=B   stencil2d/3d: bytes per halo message
//         KEY=INTEGER       snap, sweep3d: any other key is a deck parameter
//                           (GeneratorOptions::parameters; the generator checks key and range)
//
// e.g. npb:lu:C:64, npb:cg:A:16:iterations=2, stencil3d:S:27:message-bytes=4096,
// snap:sample:4:multiswp=0, sweep3d:input.50:6. With a deck, GeneratorOptions::deck holds its
// name and problem_class keeps its default 'S' (snap options without a deck format as
// snap:sample:…, the deck snap then runs). The canonical form (format_generator_spec) writes
// iterations, then message-bytes, then the deck parameters sorted by key, so two specs of one
// workload compare equal as strings.

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

/// Whether `text` names a generator (starts with "npb:" or one of the own generators' names,
/// snap included, and a colon), i.e. whether it should be parsed as a spec rather than taken as a
/// path.
bool is_generator_spec(std::string_view text);

}  // namespace mapsim::traces
