#include "traces/TraceReader.hpp"

#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Progress.hpp"
#include "traces/CollectiveTraffic.hpp"
#include "traces/Otf2Definitions.hpp"

namespace mapsim::traces {

std::uint64_t TraceSummary::mpi_events() const {
  return std::accumulate(events.begin(), events.end(), std::uint64_t{0});
}

TraceReader::TraceReader(const std::filesystem::path& path)
    : archive_(path),
      definitions_(std::make_unique<Otf2Definitions>(archive_)),
      summary_(archive_summary(archive_, *definitions_)) {}

TraceReader::~TraceReader() = default;
TraceReader::TraceReader(TraceReader&&) noexcept = default;
TraceReader& TraceReader::operator=(TraceReader&&) noexcept = default;

void TraceReader::read_events(std::vector<RankStream>* ranks, EventSink* sink) {
  MAPSIM_EXPECTS(!read_, "a TraceReader reads its events once");
  read_ = true;
  const Otf2LocationFiles files(archive_, *definitions_);
  const auto& present = files.present();

  std::uint64_t declared = 0;
  for (const auto& location : definitions_->locations) declared += location.events;
  Progress progress("reading trace", declared, "events");
  RecordCounters counters;
  for (std::size_t i = 0; i < definitions_->locations.size(); ++i) {
    const auto& location = definitions_->locations[i];
    const auto rank = static_cast<std::size_t>(location.rank);
    if (!present[i]) {  // no events, no file
      if (location.rank >= 0 && sink != nullptr) sink->end_rank(location.rank, 0);
      continue;
    }
    std::vector<Event>* store = nullptr;
    if (location.rank >= 0 && ranks != nullptr) {
      store = &(*ranks)[rank].events;
      store->reserve(location.events / 3);  // Score-P: Enter, MPI record, Leave per call
    }
    const auto final_gap = read_location(archive_, *definitions_, location, store,
                                         location.rank >= 0 ? sink : nullptr, summary_, counters);
    progress.advance(location.events);
    if (location.rank < 0) continue;
    if (ranks != nullptr) {
      (*ranks)[rank].final_gap = final_gap;
      (*ranks)[rank].events.shrink_to_fit();
    } else {
      sink->end_rank(location.rank, final_gap);
    }
  }

  add_record_counts(counters, summary_);
  summary_.communicators = definitions_->communicators.size();
}

Trace TraceReader::read_trace() {
  Trace trace;
  trace.ranks.resize(static_cast<std::size_t>(definitions_->ranks));
  read_events(&trace.ranks, nullptr);
  trace.communicators = definitions_->communicators;
  trace.world = definitions_->world;
  trace.source = archive_.anchor().string();
  return trace;
}

std::vector<Communicator> TraceReader::stream(EventSink& sink) {
  read_events(nullptr, &sink);
  return definitions_->communicators;
}

Trace read_trace(const std::filesystem::path& path) {
  TraceReader reader(path);
  return reader.read_trace();
}

namespace {

class MatrixSink final : public EventSink {
 public:
  MatrixSink(Rank ranks, bool collectives) : builder_(ranks), collectives_(collectives) {}
  void event(Rank rank, const Event& event, std::size_t position) override {
    if (event.kind == EventKind::Send || event.kind == EventKind::Isend) {
      builder_.add(rank, event.peer, 1, static_cast<std::uint64_t>(event.bytes));
    } else if (collectives_) {
      traffic_.add(rank, position, event);
    }
  }
  CommMatrix build(const std::vector<Communicator>& communicators,
                   const CollectiveOptions& options) {
    if (collectives_) traffic_.add_to(builder_, communicators, options);
    return builder_.build();
  }

 private:
  CommMatrixBuilder builder_;
  bool collectives_;
  CollectiveTraffic traffic_;
};

}  // namespace

CommMatrix read_matrix(TraceReader& reader, const MatrixOptions& options) {
  MatrixSink sink(reader.rank_count(), options.collectives);
  const auto communicators = reader.stream(sink);
  return sink.build(communicators, options.algorithms);
}

CommMatrix read_matrix(const std::filesystem::path& path, const MatrixOptions& options) {
  TraceReader reader(path);
  return read_matrix(reader, options);
}

}  // namespace mapsim::traces
