#include "traces/TraceReader.hpp"

#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "traces/CollectiveTraffic.hpp"
#include "traces/Otf2Definitions.hpp"

namespace mapsim::traces {

std::uint64_t TraceSummary::mpi_events() const {
  return std::accumulate(events.begin(), events.end(), std::uint64_t{0});
}

TraceReader::TraceReader(const std::filesystem::path& path)
    : archive_(path), definitions_(std::make_unique<Otf2Definitions>(archive_)) {
  summary_.anchor = archive_.anchor();
  summary_.creator = archive_.creator();
  summary_.otf2_version = archive_.version();
  summary_.timer_resolution = definitions_->clock.resolution;
  summary_.trace_length = definitions_->clock.length;
  summary_.ranks = definitions_->ranks;
  summary_.locations = definitions_->locations.size();
  summary_.communicators = definitions_->communicators.size();
}

TraceReader::~TraceReader() = default;
TraceReader::TraceReader(TraceReader&&) noexcept = default;
TraceReader& TraceReader::operator=(TraceReader&&) noexcept = default;

std::vector<bool> TraceReader::check_event_files() const {
  std::vector<bool> present(definitions_->locations.size(), true);
  OTF2_FileSubstrate substrate = OTF2_SUBSTRATE_UNDEFINED;
  OTF2_Compression compression = OTF2_COMPRESSION_UNDEFINED;
  if (OTF2_Reader_GetFileSubstrate(archive_.get(), &substrate) != OTF2_SUCCESS ||
      OTF2_Reader_GetCompression(archive_.get(), &compression) != OTF2_SUCCESS ||
      substrate != OTF2_SUBSTRATE_POSIX || compression != OTF2_COMPRESSION_NONE) {
    take_otf2_messages();
    return present;  // other substrates name their files differently; libotf2 will complain
  }
  const auto directory = archive_.location_directory();
  std::size_t missing = 0;
  std::string first;
  for (std::size_t i = 0; i < present.size(); ++i) {
    const auto& location = definitions_->locations[i];
    const auto file = directory / fmt::format("{}.evt", location.ref);
    if (std::filesystem::exists(file)) continue;
    present[i] = false;  // fine for a location without events: tracers may not write its file
    if (location.events > 0 && missing++ == 0) first = file.string();
  }
  if (missing == 0) return present;
  if (!std::filesystem::is_directory(directory)) {
    throw InputError(fmt::format(
        "{}: the archive's event files are missing: the directory '{}' does not exist (the "
        "definitions list {} locations with events; only the definitions were copied?)",
        archive_.anchor().string(), directory.string(), definitions_->locations.size()));
  }
  throw InputError(fmt::format("{}: {} of {} event files are missing, e.g. '{}'",
                               archive_.anchor().string(), missing, definitions_->locations.size(),
                               first));
}

void TraceReader::read_events(std::vector<RankStream>* ranks, EventSink* sink) {
  MAPSIM_EXPECTS(!read_, "a TraceReader reads its events once");
  read_ = true;
  const auto present = check_event_files();
  OTF2_Reader* reader = archive_.get();
  for (const auto& location : definitions_->locations) {
    archive_.check(OTF2_Reader_SelectLocation(reader, location.ref), "selecting locations");
  }
  // Local definition files are optional (libotf2 reports an error if there are none).
  const bool local_definitions = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  take_otf2_messages();
  archive_.check(OTF2_Reader_OpenEvtFiles(reader), "opening the event files");

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
    if (location.rank < 0) continue;
    if (ranks != nullptr) {
      (*ranks)[rank].final_gap = final_gap;
      (*ranks)[rank].events.shrink_to_fit();
    } else {
      sink->end_rank(location.rank, final_gap);
    }
  }
  if (local_definitions) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  take_otf2_messages();

  for (std::size_t k = 0; k < kRecordKindCount; ++k) {
    if (counters.read[k] == 0) continue;
    summary_.records_by_kind.push_back(
        {name(static_cast<RecordKind>(k)), counters.read[k], counters.skipped[k]});
    summary_.records += counters.read[k];
    summary_.skipped += counters.skipped[k];
  }
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
