#pragma once
// Synthetic traces: the NAS Parallel Benchmarks 3.4 (LU, BT, SP, CG, MG, FT, IS, EP) with the
// communication of docs/workloads.md message for message, a Sweep3D-style 2-D pipelined wavefront
// and 2-D / 3-D halo-exchange stencils. Each generator is a Workload; generate_trace() builds it
// in memory, write_generated_trace() streams it to an OTF2 archive (see Otf2Writer.hpp). Both
// give the same Trace (the archive read back equals the in-memory trace).
//
// Rank counts follow NPB 3.4's run-time rules (each generator's `ranks_rule`); an invalid count
// throws InputError naming the rule and the nearest valid counts.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "traces/Trace.hpp"
#include "traces/generators/Workload.hpp"

namespace mapsim::traces {

struct GeneratorOptions {
  std::string kernel;                         ///< lu, bt, sp, cg, mg, ft, is, ep, sweep3d, ...
  char problem_class = 'S';                   ///< S, W, A, B, C or D
  Rank ranks = 1;                             ///< MPI processes started
  std::optional<std::int64_t> iterations;     ///< overrides the class's iteration count
  std::optional<std::int64_t> message_bytes;  ///< stencil2d/3d: bytes per halo message
  /// snap, sweep3d: the input deck the run starts from, named in place of a class (e.g. "sample",
  /// "input.50", "ohtma"); empty for the class-based generators.
  std::string deck;
  /// snap, sweep3d: deck parameters that override the deck's (e.g. {"npey", 4}); the generator
  /// rejects keys it does not know.
  std::map<std::string, std::int64_t> parameters;
};

struct GeneratorInfo {
  std::string_view name;
  std::string_view summary;
  std::string_view ranks_rule;  ///< which rank counts are valid
  std::string_view iterations;  ///< what --iterations overrides ("" if it has no meaning)
};

/// Every generator, in the order `mapsim generate --help` lists them.
std::span<const GeneratorInfo> generators();

/// Checks the options (kernel, class, ranks, iterations, message size) and builds the workload.
/// Throws InputError naming the bad value and what would be valid.
std::unique_ptr<Workload> make_workload(const GeneratorOptions& options);

/// "lu class S, 8 ranks" (with the overrides, if any).
std::string describe(const GeneratorOptions& options);

/// The generated trace in memory (Trace::source is "generated: " + describe(options)).
Trace generate_trace(const GeneratorOptions& options);

/// Writes the generated trace as an OTF2 archive in `dir` (DIR/traces.otf2); returns the number
/// of event records written. `progress`, if set, is called after each rank. Throws InputError for
/// bad options or an unusable directory (and then leaves no partial archive behind).
std::uint64_t write_generated_trace(const GeneratorOptions& options,
                                    const std::filesystem::path& dir, bool overwrite = false,
                                    const WorkloadProgress& progress = {});

}  // namespace mapsim::traces
