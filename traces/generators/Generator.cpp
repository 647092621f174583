#include "traces/generators/Generator.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "traces/Otf2Writer.hpp"
#include "traces/TraceBuilder.hpp"
#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

using Factory = std::unique_ptr<Workload> (*)(const GeneratorOptions&);

struct Entry {
  GeneratorInfo info;
  Factory make;
};

constexpr std::string_view kClasses = "SWABCD";
// Far beyond any NPB run; keeps rank ids, communicator tables and the validity scan small.
constexpr Rank kMaxRanks = 1 << 20;
constexpr Rank kScanLimit = 1 << 16;

const std::array<Entry, 12> kGenerators{{
    {{"lu", "NPB LU: SSOR, pipelined 2-D wavefront (blocking Send/Recv) + halo exchanges",
      "N = xdim*ydim with ydim the largest divisor of N <= sqrt(N), xdim <= 2*ydim, and at "
      "least 3 grid points per rank in x and y",
      "itmax, the SSOR iterations (inorm stays the class's)"},
     make_lu},
    {{"bt", "NPB BT: block-tridiagonal ADI on a multipartition (Isend/Irecv, Wait, Waitall)",
      "any N: p = floor(sqrt(N)), p*p ranks work and N - p*p idle (as NPB 3.4 runs them); "
      "cells of at least 3 points (G/p >= 3)",
      "niter, the time steps"},
     make_bt},
    {{"sp", "NPB SP: scalar-pentadiagonal ADI on a multipartition (Isend/Irecv, Waitall)",
      "any N: p = floor(sqrt(N)), p*p ranks work and N - p*p idle (as NPB 3.4 runs them); "
      "cells of at least 3 points (G/p >= 3)",
      "niter, the time steps"},
     make_sp},
    {{"cg", "NPB CG: conjugate gradient, butterfly reductions in process rows + transpose",
      "N a power of two", "niter, the outer iterations"},
     make_cg},
    {{"mg", "NPB MG: V-cycle multigrid, periodic 3-D halo exchange on every level",
      "any N: 2^floor(log2 N) ranks work and the others idle (as NPB 3.4 runs them); at most "
      "one rank per finest-level grid point along each axis",
      "nit, the V-cycles"},
     make_mg},
    {{"ft", "NPB FT: 3-D FFT, transposes by MPI_Alltoall (no point-to-point)",
      "any N (NPB 3.4 verifies only powers of two): the layout uses 2^floor(log2 N) <= ny*nz",
      "niter, the inverse FFTs"},
     make_ft},
    {{"is", "NPB IS: bucket sort, Allreduce + Alltoall + Alltoallv per ranking",
      "N a power of two, at most 128 for class S and 1024 otherwise, at least 4 for class D",
      "the timed rankings (10)"},
     make_is},
    {{"ep", "NPB EP: embarrassingly parallel, a few collectives", "any N <= 2^(m-16)", ""},
     make_ep},
    {{"sweep3d",
      "Sweep3D 2.2b as written (decks input.50, input.150, example, ohtma); classes S-D are "
      "mapsim's own n^3 cubes",
      "N = npe_i*npe_j: from the npe_i/npe_j parameters, else the deck's mesh if it has N ranks, "
      "else the most square npe_i <= npe_j (ohtma keeps npe_i = 16); it_g >= npe_i and "
      "jt_g >= npe_j",
      "the source iterations (12; the example deck 2)"},
     make_sweep3d},
    {{"snap", "SNAP 1.12 from a deck (sample, benchmark, ohtma): KBA sweeps, 2-D grid",
      "N = npey*npez with npey | ny and npez | nz: from the npey/npez parameters, else the deck's "
      "grid if it has N ranks, else the most square one (ohtma: npey = 16, N a multiple of 16)",
      "the outers per time step (2; SNAP's extra outer comes on top)"},
     make_snap},
    {{"stencil2d", "5-point 2-D halo exchange (Irecv/Isend/Waitall) + residual Allreduce",
      "any N whose balanced 2-D grid leaves every rank a grid point", "the sweeps (100)"},
     make_stencil2d},
    {{"stencil3d", "7-point 3-D halo exchange (Irecv/Isend/Waitall) + residual Allreduce",
      "any N whose balanced 3-D grid leaves every rank a grid point", "the sweeps (100)"},
     make_stencil3d},
}};

const Entry& find_entry(std::string_view kernel) {
  for (const auto& entry : kGenerators) {
    if (entry.info.name == kernel) return entry;
  }
  std::vector<std::string_view> names;
  for (const auto& entry : kGenerators) names.push_back(entry.info.name);
  throw InputError(fmt::format("unknown kernel '{}' (valid: {})", kernel, fmt::join(names, ", ")));
}

}  // namespace

std::span<const GeneratorInfo> generators() {
  static const auto infos = [] {
    std::vector<GeneratorInfo> list;
    for (const auto& entry : kGenerators) list.push_back(entry.info);
    return list;
  }();
  return infos;
}

int class_index(char problem_class) {
  const auto at = kClasses.find(problem_class);
  MAPSIM_EXPECTS(at != std::string_view::npos, "problem class not validated");
  return static_cast<int>(at);
}

std::int64_t iterations_or(const GeneratorOptions& options, std::int64_t class_default) {
  return options.iterations.value_or(class_default);
}

void check_ranks(const GeneratorOptions& options, std::string_view rule,
                 const std::function<bool(Rank)>& valid) {
  if (valid(options.ranks)) return;
  std::vector<Rank> counts;
  for (Rank n = 1; n <= kScanLimit; ++n) {
    if (valid(n)) counts.push_back(n);
  }
  std::string listed;
  if (counts.empty()) {
    listed = "no rank count up to 65536 is valid for this class";
  } else if (counts.size() <= 24) {
    // Counts beyond the scan may be valid too when the last ones found are near its end.
    listed =
        fmt::format("valid counts{}: {}", counts.back() > kScanLimit / 2 ? " (up to 65536)" : "",
                    fmt::join(counts, ", "));
  } else {
    const auto above = std::upper_bound(counts.begin(), counts.end(), options.ranks);
    std::vector<Rank> nearest;
    if (above != counts.begin()) nearest.push_back(*(above - 1));
    if (above != counts.end()) nearest.push_back(*above);
    listed = fmt::format("nearest valid counts: {}; smallest: {}", fmt::join(nearest, " and "),
                         fmt::join(std::vector<Rank>(counts.begin(), counts.begin() + 12), ", "));
  }
  throw InputError(fmt::format("{} class {} cannot run on {} ranks: needs {}; {}", options.kernel,
                               options.problem_class, options.ranks, rule, listed));
}

std::int64_t floor_pow2(std::int64_t n) {
  return std::int64_t{1} << floor_log2(n);
}

int floor_log2(std::int64_t n) {
  MAPSIM_EXPECTS(n >= 1, "log2 of a non-positive number");
  int log = 0;
  while ((n >> 1) > 0) {
    n >>= 1;
    ++log;
  }
  return log;
}

std::int64_t isqrt(std::int64_t n) {
  std::int64_t root = 0;
  while ((root + 1) * (root + 1) <= n) ++root;
  return root;
}

std::unique_ptr<Workload> make_workload(const GeneratorOptions& options) {
  const Entry& entry = find_entry(options.kernel);
  if (options.problem_class == '\0' ||
      kClasses.find(options.problem_class) == std::string_view::npos) {
    throw InputError(
        fmt::format("unknown problem class '{}' (valid: S, W, A, B, C, D)", options.problem_class));
  }
  if (options.ranks < 1 || options.ranks > kMaxRanks) {
    throw InputError(fmt::format("rank count {} out of range 1 .. {}", options.ranks, kMaxRanks));
  }
  if (options.iterations && entry.info.iterations.empty()) {
    throw InputError(fmt::format("{} has no iteration count to override", options.kernel));
  }
  if (options.iterations && (*options.iterations < 1 || *options.iterations > 1'000'000)) {
    throw InputError(
        fmt::format("iteration count {} out of range 1 .. 1000000", *options.iterations));
  }
  const bool decked = options.kernel == "snap" || options.kernel == "sweep3d";
  if (!decked && (!options.deck.empty() || !options.parameters.empty())) {
    throw InputError(fmt::format(
        "decks and deck parameters apply to snap and sweep3d only, not to {}", options.kernel));
  }
  const bool stencil = options.kernel == "stencil2d" || options.kernel == "stencil3d";
  if (options.message_bytes && !stencil) {
    throw InputError(fmt::format(
        "a halo message size applies to stencil2d and stencil3d only, not to {}", options.kernel));
  }
  if (options.message_bytes &&
      (*options.message_bytes < 0 || *options.message_bytes > (1LL << 40))) {
    throw InputError(
        fmt::format("halo message size {} out of range 0 .. 2^40 bytes", *options.message_bytes));
  }
  auto workload = entry.make(options);
  workload->description = describe(options);
  return workload;
}

std::string describe(const GeneratorOptions& options) {
  std::string text = options.deck.empty() ? fmt::format("{} class {}, {} ranks", options.kernel,
                                                        options.problem_class, options.ranks)
                                          : fmt::format("{} deck {}, {} ranks", options.kernel,
                                                        options.deck, options.ranks);
  if (options.iterations) text += fmt::format(", {} iterations", *options.iterations);
  if (options.message_bytes) text += fmt::format(", {}-byte halo messages", *options.message_bytes);
  for (const auto& [key, value] : options.parameters) text += fmt::format(", {}={}", key, value);
  return text;
}

Trace generate_trace(const GeneratorOptions& options) {
  const auto workload = make_workload(options);
  TraceBuilder builder("generated: " + describe(options));
  run_workload(*workload, builder);
  return builder.take();
}

std::uint64_t write_generated_trace(const GeneratorOptions& options,
                                    const std::filesystem::path& dir, bool overwrite,
                                    const WorkloadProgress& progress) {
  const auto workload = make_workload(options);
  Otf2WriterOptions writer_options;
  writer_options.overwrite = overwrite;
  writer_options.program =
      options.kernel + "." +
      (options.deck.empty() ? std::string(1, options.problem_class) : options.deck);
  writer_options.description = "generated by mapsim: " + describe(options);
  Otf2Writer writer(dir, writer_options);
  run_workload(*workload, writer, progress);
  return writer.record_count();
}

CommSpec world_communicator(Rank ranks) {
  CommSpec world{"MPI_COMM_WORLD", {}, -1};
  world.members.resize(static_cast<std::size_t>(ranks));
  for (Rank r = 0; r < ranks; ++r) world.members[static_cast<std::size_t>(r)] = r;
  return world;
}

void Mpi::throw_too_long(double flops) const {
  throw InputError(fmt::format(
      "{}: rank {} would compute {:.6g} flops between two MPI calls, {:.4g} s at {:g} "
      "Gflop/s: beyond the 2^63 ns (292 years) a trace records; the workload's sizes are too "
      "large",
      workload_.empty() ? "a generated workload" : workload_, rank_, flops,
      flops / kFlopsPerNs * 1e-9, kFlopsPerNs));
}

void run_workload(const Workload& workload, MpiCallSink& sink, const WorkloadProgress& progress) {
  sink.begin_trace(workload.rank_count(), workload.communicators());
  for (Rank rank = 0; rank < workload.rank_count(); ++rank) {
    run_workload_rank(workload, sink, rank);
    if (progress) progress(rank + 1, workload.rank_count());
  }
  sink.end_trace();
}

void run_workload_rank(const Workload& workload, MpiCallSink& sink, Rank rank) {
  sink.begin_rank(rank);
  Mpi mpi(sink, rank, workload.description);
  workload.run(mpi);
  sink.end_rank();
}

}  // namespace mapsim::traces
