#include "experiments/Workloads.hpp"

#include <cmath>

#include <fmt/format.h>

#include "experiments/Digest.hpp"
#include "support/Error.hpp"
#include "traces/Otf2Archive.hpp"
#include "traces/Otf2Streams.hpp"
#include "traces/RecordedMatrix.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"
#include "traces/TraceSlice.hpp"
#include "traces/WorkloadMatrix.hpp"
#include "traces/WorkloadStreams.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::exp {
namespace {

// OTF2 event files hold about 26 bytes per MPI event (three records of ~9 bytes: Enter, the
// MPI record, Leave), measured on Score-P's and mapsim's archives.
constexpr double kArchiveBytesPerEvent = 26;

double archive_event_bytes(const std::filesystem::path& path) {
  const auto anchor = traces::find_anchor(path);
  const auto locations = anchor.parent_path() / anchor.stem();
  double bytes = 0;
  std::error_code error;
  if (std::filesystem::is_directory(locations, error)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(locations)) {
      if (entry.is_regular_file() && entry.path().extension() == ".evt")
        bytes += static_cast<double>(entry.file_size());
    }
  }
  return bytes;
}

}  // namespace

WorkloadInfo inspect(const WorkloadValue& workload) {
  WorkloadInfo info;
  switch (workload.kind) {
    case WorkloadKind::Generated: {
      // Defaults filled in: a spec naming the class's own iteration count is the same workload.
      info.digest =
          sha256("mapsim generator " + traces::effective_generator_spec(workload.generator));
      info.ranks = workload.generator.ranks;
      info.kernel = workload.generator.kernel;
      info.problem_class = std::string(1, workload.generator.problem_class);
      // Events grow about fourfold from one class to the next, and with the iterations.
      const auto step = std::string_view("SWABCD").find(workload.generator.problem_class);
      info.size = 1000.0 * info.ranks * std::pow(4.0, static_cast<double>(step)) *
                  static_cast<double>(workload.generator.iterations.value_or(10)) / 10.0;
      return info;
    }
    case WorkloadKind::Trace: {
      info.digest = archive_digest(workload.path);
      info.size = archive_event_bytes(workload.path) / kArchiveBytesPerEvent;
      try {
        const traces::TraceReader reader(workload.path);
        info.ranks = reader.rank_count();
      } catch (const InputError& e) {
        info.error = e.what();
      }
      return info;
    }
    case WorkloadKind::Matrix: {
      info.digest = file_digest(workload.path);
      try {
        info.recorded = traces::is_recorded_matrix(workload.path);
        info.ranks = traces::read_matrix_csv(workload.path).rank_count();
        info.size = info.ranks;
      } catch (const InputError& e) {
        info.error = e.what();
      }
      return info;
    }
  }
  return info;
}

LoadedWorkload load(const WorkloadValue& workload, bool collectives, bool need_trace,
                    const traces::CollectiveOptions& algorithms) {
  LoadedWorkload loaded;
  loaded.source = workload;
  traces::MatrixOptions options;
  options.collectives = collectives;
  options.algorithms = algorithms;
  switch (workload.kind) {
    case WorkloadKind::Generated:
      loaded.matrix = traces::workload_matrix(workload.generator, options);
      if (need_trace) {
        loaded.streamed = loaded.matrix.total().messages > traces::kStoredWorkloadMessages;
        if (!loaded.streamed) loaded.trace = traces::generate_trace(workload.generator);
      }
      return loaded;
    case WorkloadKind::Trace:
      if (!need_trace || !traces::archive_fits_in_memory(workload.path)) {
        loaded.streamed = need_trace;
        loaded.matrix = traces::read_matrix(workload.path, options);
        return loaded;
      }
      loaded.trace = traces::read_trace(workload.path);
      loaded.matrix = collectives ? traces::matrix_with_collectives(*loaded.trace, algorithms)
                                  : traces::point_to_point_matrix(*loaded.trace);
      return loaded;
    case WorkloadKind::Matrix:
      loaded.matrix = traces::read_matrix_file(workload.path, collectives, algorithms);
      return loaded;
  }
  return loaded;
}

std::unique_ptr<traces::EventStreams> LoadedWorkload::streams() const {
  if (trace) return std::make_unique<traces::TraceStreams>(*trace);
  MAPSIM_EXPECTS(streamed, "a workload without a trace was replayed");
  if (source.kind == WorkloadKind::Generated)
    return std::make_unique<traces::WorkloadStreams>(source.generator);
  return std::make_unique<traces::Otf2Streams>(source.path);
}

std::unique_ptr<traces::EventStreams> LoadedWorkload::streams(const map::Slice& slice) const {
  if (slice.whole()) return streams();
  if (slice.iterations == 0) {
    return traces::shared_streams(
        slices_->get(slice.share, trace ? &*trace : nullptr, [this] { return streams(); }));
  }
  if (source.kind != WorkloadKind::Generated) {
    throw InputError(fmt::format(
        "only a generated workload can be replayed for its first {} iterations (train=); an "
        "OTF2 trace is cut by a share of its events (train-share=)",
        slice.iterations));
  }
  auto options = source.generator;
  options.iterations = slice.iterations;
  return std::make_unique<traces::WorkloadStreams>(options);
}

}  // namespace mapsim::exp
