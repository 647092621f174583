#include "cli/TraceInput.hpp"

#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "cli/MatrixChoice.hpp"
#include "support/Error.hpp"
#include "support/Suggest.hpp"
#include "traces/Otf2Streams.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceSlice.hpp"
#include "traces/WorkloadMatrix.hpp"
#include "traces/WorkloadStreams.hpp"
#include "traces/generators/Generator.hpp"
#include "traces/generators/GeneratorSpec.hpp"

namespace mapsim::cli {

ReadMode read_mode_from_name(const std::string& name) {
  if (name == "auto") return ReadMode::Auto;
  if (name == "memory") return ReadMode::Memory;
  if (name == "stream") return ReadMode::Stream;
  const std::vector<std::string_view> names{"auto", "memory", "stream"};
  throw InputError(fmt::format("--read: unknown mode '{}'; valid: auto, memory, stream{}", name,
                               suggest_suffix(name, names)));
}

TraceInput::TraceInput(const std::string& text, ReadMode mode) : text_(text), mode_(mode) {
  if (traces::is_generator_spec(text)) {
    generator_ = traces::parse_generator_spec(text);
    streams_ = std::make_unique<traces::WorkloadStreams>(*generator_);
    ranks_ = streams_->rank_count();
    source_ = streams_->source();
    return;
  }
  reader_.emplace(text);  // the definitions: rank count, missing files
  ranks_ = reader_->rank_count();
  source_ = reader_->summary().anchor.string();
  stream_ =
      mode == ReadMode::Stream || (mode == ReadMode::Auto && !traces::archive_fits_in_memory(text));
}

std::string_view TraceInput::reading() const {
  if (generator_) return stored_ ? "generated in memory" : "generated";
  return stream_ ? "stream" : "memory";
}

void TraceInput::load(bool shared, const traces::MatrixOptions& options,
                      const traces::CommMatrix* known) {
  if (reader_ && !stream_) stored_ = reader_->read_trace();
  if (!generator_ || mode_ == ReadMode::Stream) return;
  if (mode_ == ReadMode::Auto) {
    if (!shared) return;
    if (known == nullptr) {
      generated_matrix_.emplace(options, traces::workload_matrix(*generator_, options));
      known = &generated_matrix_->second;
    }
    if (known->total().messages > traces::kStoredWorkloadMessages) return;
  }
  stored_ = traces::generate_trace(*generator_);
  const std::scoped_lock lock(mutex_);
  streams_.reset();  // the streams opened for the checks are not needed
}

traces::CommMatrix TraceInput::matrix(const traces::MatrixOptions& options) const {
  traces::CommMatrix matrix;
  std::optional<std::uint64_t> calls;
  if (generated_matrix_ && generated_matrix_->first == options) {
    matrix = generated_matrix_->second;
  } else if (generator_) {
    matrix = traces::workload_matrix(*generator_, options);
  } else if (stored_) {
    matrix = options.collectives ? traces::matrix_with_collectives(*stored_, options.algorithms)
                                 : traces::point_to_point_matrix(*stored_);
    calls = collective_calls(reader_->summary());
  } else {
    traces::TraceReader reader(text_);
    matrix = traces::read_matrix(reader, options);
    calls = collective_calls(reader.summary());
  }
  report_caveats(matrix, options, source_, calls);
  return matrix;
}

sim::Result TraceInput::simulate(const topo::Topology& topology, const topo::Mapping& mapping,
                                 const sim::SimConfig& config) {
  if (stored_) return sim::simulate(*stored_, topology, mapping, config);
  std::unique_ptr<traces::EventStreams> streams;
  {
    const std::scoped_lock lock(mutex_);
    streams = std::move(streams_);  // the first replay takes the one opened for the checks
  }
  if (!streams) {
    if (generator_) {
      streams = std::make_unique<traces::WorkloadStreams>(*generator_);
    } else {
      streams = std::make_unique<traces::Otf2Streams>(std::filesystem::path(text_));
    }
  }
  return sim::simulate(*streams, topology, mapping, config);
}

sim::Result TraceInput::simulate(const topo::Topology& topology, const topo::Mapping& mapping,
                                 const sim::SimConfig& config, const map::Slice& slice) {
  if (slice.whole()) return simulate(topology, mapping, config);
  if (slice.iterations == 0) {
    const auto cut = this->slice(slice.share);
    traces::TraceStreams streams(*cut);
    return sim::simulate(streams, topology, mapping, config);
  }
  if (!generator_) {
    throw InputError(fmt::format(
        "{}: only a generated workload can be replayed for its first {} iterations (train=); "
        "an OTF2 trace is cut by a share of its events (train-share=)",
        source_, slice.iterations));
  }
  auto options = *generator_;
  options.iterations = slice.iterations;
  traces::WorkloadStreams streams(options);
  return sim::simulate(streams, topology, mapping, config);
}

void TraceInput::check_slice(const map::Slice& slice) const {
  if (slice.iterations == 0) return;  // a share of the events cuts any trace
  if (!generator_) {
    throw InputError(fmt::format(
        "{} is an OTF2 trace, whose iterations are not marked; cut it by a share of each rank's "
        "events with train-share= (e.g. train-share=0.25)",
        source_));
  }
  const auto iterations = traces::make_workload(*generator_)->iterations();
  if (!iterations) {
    throw InputError(fmt::format(
        "{} has no iterations to cut ({} has no iteration count); train-share= cuts it by a "
        "share of each rank's events",
        text_, generator_->kernel));
  }
  if (slice.iterations >= *iterations) {
    throw InputError(fmt::format(
        "{} runs {} iteration{}, so its first {} are no slice of it; give train= below {} (0: "
        "search on the whole workload)",
        text_, *iterations, *iterations == 1 ? "" : "s", slice.iterations, *iterations));
  }
}

std::shared_ptr<const traces::Trace> TraceInput::slice(double share) {
  return slices_.get(share, stored_ ? &*stored_ : nullptr,
                     [this]() -> std::unique_ptr<traces::EventStreams> {
                       if (generator_)
                         return std::make_unique<traces::WorkloadStreams>(*generator_);
                       return std::make_unique<traces::Otf2Streams>(std::filesystem::path(text_));
                     });
}

}  // namespace mapsim::cli
