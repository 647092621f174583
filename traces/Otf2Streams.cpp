#include "traces/Otf2Streams.hpp"

#include <algorithm>
#include <sys/resource.h>
#include <utility>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "traces/Otf2Definitions.hpp"

namespace mapsim::traces {
namespace {

// Records read per batch for each event wanted: Score-P writes Enter, the MPI record and Leave
// per call. Small batches cost a libotf2 call each; larger ones decode past the window.
constexpr std::uint64_t kRecordsPerEvent = 3;
constexpr std::uint64_t kMinBatch = 64;
constexpr std::uint64_t kMaxBatch = std::uint64_t{1} << 16;

}  // namespace

/// One rank's stream: its location's cursor (open from the first read to the last record) and
/// the reorder buffer the decoder streams into.
struct Otf2Streams::Stream final : EventSink {
  const Otf2Location* location = nullptr;  // null: the rank has no event file (no events)
  std::optional<LocationCursor> cursor;
  bool started = false;
  bool ended = false;
  std::int64_t final_gap = 0;
  std::exception_ptr error;  // what stopped the stream, thrown again by every later read

  // The events from position `base` on; `ready` of them, at the front, are filled (a held-back
  // Irecv or ICollective leaves a hole until it completes).
  struct Slot {
    Event event;
    bool filled = false;
  };
  std::deque<Slot> buffer;
  std::size_t base = 0;
  std::size_t ready = 0;

  void event(Rank /*rank*/, const Event& event, std::size_t position) override {
    MAPSIM_EXPECTS(position >= base, "Otf2Streams: an event behind the released ones");
    const auto index = position - base;
    if (index >= buffer.size()) buffer.resize(index + 1);
    buffer[index] = {event, true};
    while (ready < buffer.size() && buffer[ready].filled) ++ready;
  }
};

namespace {

/// Files a process keeps open besides the ranks' event files (definitions, outputs, libraries).
constexpr rlim_t kOtherFiles = 64;

// Each rank's event file stays open while its stream is read: raises the soft limit on open files
// towards the hard one if the ranks need more, and says so if even the hard limit is too low.
void ensure_open_files(Rank ranks, const std::filesystem::path& path) {
  const rlim_t needed = static_cast<rlim_t>(ranks) + kOtherFiles;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
      limit.rlim_cur >= needed)
    return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : std::min(limit.rlim_max, needed);
  if (setrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur >= needed) return;
  throw InputError(fmt::format(
      "{}: streaming its {} ranks keeps an event file open per rank, but this process may open "
      "only {} files (ulimit -n); raise the limit to at least {}, or read the archive into "
      "memory (simulate --read memory)",
      path.string(), ranks, limit.rlim_max, needed));
}

}  // namespace

Otf2Streams::Otf2Streams(const std::filesystem::path& path, SelfCommunicators numbering)
    : archive_(path),
      definitions_(std::make_unique<Otf2Definitions>(archive_)),
      files_(std::make_unique<Otf2LocationFiles>(archive_, *definitions_)),
      source_(archive_.anchor().string()),
      summary_(archive_summary(archive_, *definitions_)) {
  ensure_open_files(definitions_->ranks, archive_.anchor());
  streams_.reserve(static_cast<std::size_t>(definitions_->ranks));
  for (Rank r = 0; r < definitions_->ranks; ++r) streams_.push_back(std::make_unique<Stream>());
  const auto& locations = definitions_->locations;
  for (std::size_t i = 0; i < locations.size(); ++i) {
    if (locations[i].rank >= 0 && files_->present()[i]) {
      streams_[static_cast<std::size_t>(locations[i].rank)]->location = &locations[i];
    }
  }
  if (numbering == SelfCommunicators::AsStored && definitions_->has_self_like())
    scan_self_like_communicators();
}

Otf2Streams::~Otf2Streams() = default;

// Self-like communicators get their per-rank Communicator when an event first uses them, in
// read_trace's order (location after location): decoding every MPI location once, in that
// order, numbers them as read_trace does, so that communicators() is complete before any read.
void Otf2Streams::scan_self_like_communicators() {
  struct Discard final : EventSink {
    void event(Rank, const Event&, std::size_t) override {}
  } discard;
  TraceSummary scratch;
  RecordCounters counters;
  for (const auto& location : definitions_->locations) {
    if (location.rank < 0) continue;
    const Stream& stream = *streams_[static_cast<std::size_t>(location.rank)];
    if (stream.location == nullptr) continue;
    LocationCursor cursor(archive_, *definitions_, location, nullptr, &discard, scratch);
    cursor.read_all();
    (void)cursor.finish(counters);
  }
  scanned_ = true;
}

Rank Otf2Streams::rank_count() const {
  return definitions_->ranks;
}

const std::vector<Communicator>& Otf2Streams::communicators() const {
  return definitions_->communicators;
}

std::uint16_t Otf2Streams::world() const {
  return definitions_->world;
}

std::size_t Otf2Streams::read(Rank rank, std::vector<Event>& out, std::size_t max) {
  MAPSIM_EXPECTS(rank >= 0 && rank < rank_count(), "Otf2Streams::read: no such rank");
  Stream& stream = *streams_[static_cast<std::size_t>(rank)];
  if (stream.error) std::rethrow_exception(stream.error);
  max = std::max<std::size_t>(max, 1);
  try {
    while (stream.ready < max && !stream.ended) pull(stream, max - stream.ready);
  } catch (...) {
    stream.error = std::current_exception();
    stream.cursor.reset();
    throw;
  }
  const auto count = std::min(max, stream.ready);
  const auto first = stream.buffer.begin();
  const auto last = first + static_cast<std::ptrdiff_t>(count);
  for (auto slot = first; slot != last; ++slot) out.push_back(slot->event);
  stream.buffer.erase(first, last);
  stream.base += count;
  stream.ready -= count;
  return count;
}

std::int64_t Otf2Streams::final_gap(Rank rank) const {
  MAPSIM_EXPECTS(rank >= 0 && rank < rank_count(), "Otf2Streams::final_gap: no such rank");
  const Stream& stream = *streams_[static_cast<std::size_t>(rank)];
  MAPSIM_EXPECTS(stream.ended, "Otf2Streams::final_gap before the rank's stream has ended");
  return stream.final_gap;
}

// Decodes about `wanted` more events of `stream` into its buffer (fewer if requests hold them
// back), opening its location on the first call and ending it with its last record.
void Otf2Streams::pull(Stream& stream, std::size_t wanted) {
  if (!stream.started) {
    stream.started = true;
    if (stream.location == nullptr) return end(stream);
    stream.cursor.emplace(archive_, *definitions_, *stream.location, nullptr, &stream, summary_,
                          !scanned_);
  }
  const auto batch = std::clamp<std::uint64_t>(wanted * kRecordsPerEvent, kMinBatch, kMaxBatch);
  if (!stream.cursor->read(batch)) end(stream);
}

void Otf2Streams::end(Stream& stream) {
  if (stream.cursor) {
    stream.final_gap = stream.cursor->finish(counters_);  // delivers the held-back events
    stream.cursor.reset();
  }
  stream.ended = true;
  MAPSIM_EXPECTS(stream.ready == stream.buffer.size(), "Otf2Streams: a hole in an ended stream");
  if (++ended_ == rank_count()) read_other_locations();
}

// The locations without a rank's stream, counted and checked as read_trace does.
void Otf2Streams::read_other_locations() {
  const auto& locations = definitions_->locations;
  for (std::size_t i = 0; i < locations.size(); ++i) {
    if (locations[i].rank >= 0 || !files_->present()[i]) continue;
    read_location(archive_, *definitions_, locations[i], nullptr, nullptr, summary_, counters_);
  }
  add_record_counts(counters_, summary_);
  summary_.communicators = definitions_->communicators.size();
}

}  // namespace mapsim::traces
