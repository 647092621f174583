#include "traces/EventStreams.hpp"

#include <algorithm>

#include "support/Error.hpp"

namespace mapsim::traces {

TraceStreams::TraceStreams(const Trace& trace)
    : trace_(&trace), next_(static_cast<std::size_t>(trace.rank_count()), 0) {}

std::size_t TraceStreams::read(Rank rank, std::vector<Event>& out, std::size_t max) {
  MAPSIM_EXPECTS(rank >= 0 && rank < trace_->rank_count(), "TraceStreams::read: no such rank");
  const auto& events = trace_->ranks[static_cast<std::size_t>(rank)].events;
  auto& next = next_[static_cast<std::size_t>(rank)];
  const std::size_t count = std::min(std::max<std::size_t>(max, 1), events.size() - next);
  const auto first = events.begin() + static_cast<std::ptrdiff_t>(next);
  out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(count));
  next += count;
  return count;
}

std::int64_t TraceStreams::final_gap(Rank rank) const {
  MAPSIM_EXPECTS(rank >= 0 && rank < trace_->rank_count(), "TraceStreams::final_gap: no such rank");
  return trace_->ranks[static_cast<std::size_t>(rank)].final_gap;
}

bool archive_fits_in_memory(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  constexpr std::uintmax_t kMaxBytes = std::uintmax_t{256} << 20;
  const fs::path dir = fs::is_directory(path) ? path : path.parent_path();
  std::uintmax_t bytes = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file(error) && it->path().extension() == ".evt")
      bytes += it->file_size(error);
  }
  return bytes <= kMaxBytes;
}

Trace collect(EventStreams& streams, std::size_t window) {
  Trace trace;
  trace.world = streams.world();
  trace.source = streams.source();
  trace.ranks.resize(static_cast<std::size_t>(streams.rank_count()));
  for (Rank r = 0; r < streams.rank_count(); ++r) {
    auto& stream = trace.ranks[static_cast<std::size_t>(r)];
    while (streams.read(r, stream.events, window) > 0) {
    }
    stream.final_gap = streams.final_gap(r);
  }
  trace.communicators = streams.communicators();  // complete once every stream has ended
  return trace;
}

}  // namespace mapsim::traces
