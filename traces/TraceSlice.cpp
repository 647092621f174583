#include "traces/TraceSlice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

bool posts_request(EventKind kind) {
  return kind == EventKind::Isend || kind == EventKind::Irecv || kind == EventKind::ICollective;
}

/// How many of the sorted positions lie before `cut`.
std::size_t before(const std::vector<std::size_t>& positions, std::size_t cut) {
  return static_cast<std::size_t>(std::lower_bound(positions.begin(), positions.end(), cut) -
                                  positions.begin());
}

void check_share(double share) {
  if (!(share > 0 && share <= 1)) {
    throw InputError(
        fmt::format("a trace's share to replay must be in (0, 1], not {:g} (train-share=)", share));
  }
}

/// ⌈share · n⌉, at most n.
std::size_t share_of(double share, std::size_t n) {
  return std::min(n, static_cast<std::size_t>(std::ceil(share * static_cast<double>(n))));
}

/// The trace's first `cut[r]` events of each rank r; a rank cut short loses its final gap.
Trace truncated(const Trace& trace, const std::vector<std::size_t>& cut,
                const std::vector<std::size_t>& total, double share) {
  Trace slice;
  slice.communicators = trace.communicators;
  slice.world = trace.world;
  slice.source =
      fmt::format("{} (the consistent cut within its first {:g} % of each rank's events)",
                  trace.source, share * 100);
  slice.ranks.resize(trace.ranks.size());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    const auto& events = trace.ranks[r].events;
    slice.ranks[r].events.assign(events.begin(),
                                 events.begin() + static_cast<std::ptrdiff_t>(cut[r]));
    slice.ranks[r].final_gap = cut[r] == total[r] ? trace.ranks[r].final_gap : 0;
  }
  return slice;
}

}  // namespace

std::vector<std::size_t> consistent_cut(const Trace& trace, std::vector<std::size_t> keep) {
  const std::size_t ranks = trace.ranks.size();
  MAPSIM_EXPECTS(keep.size() == ranks, "consistent_cut: one prefix per rank");
  // Within the prefixes: the channels' sends and receives, the communicators' collectives per
  // member, and each rank's requests with where they complete.
  using Channel = std::tuple<Rank, Rank, std::uint16_t, std::int32_t>;  // src, dst, comm, tag
  struct Ends {
    std::vector<std::size_t> sends;  // positions at src
    std::vector<std::size_t> recvs;  // positions at dst
  };
  std::map<Channel, Ends> channels;
  // communicator -> member rank -> positions of its collectives on it
  std::map<std::uint16_t, std::map<Rank, std::vector<std::size_t>>> collectives;
  // per rank: (post, completion or kNever), by post
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> requests(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const auto& events = trace.ranks[r].events;
    keep[r] = std::min(keep[r], events.size());
    std::unordered_map<std::uint32_t, std::size_t> open;  // request -> index in requests[r]
    std::unordered_set<std::uint32_t> cancelled;
    for (std::size_t i = 0; i < keep[r]; ++i) {
      const Event& e = events[i];
      if (posts_request(e.kind)) {
        open[e.request] = requests[r].size();
        requests[r].emplace_back(i, kNever);
      } else if (e.kind == EventKind::Wait || e.kind == EventKind::Cancel) {
        const auto found = open.find(e.request);
        if (found != open.end()) {
          requests[r][found->second].second = i;
          open.erase(found);
        }
        if (e.kind == EventKind::Cancel) cancelled.insert(e.request);
      }
    }
    for (std::size_t i = 0; i < keep[r]; ++i) {
      const Event& e = events[i];
      const auto rank = static_cast<Rank>(r);
      switch (e.kind) {
        case EventKind::Send:
        case EventKind::Isend:
          if (e.kind == EventKind::Isend && cancelled.contains(e.request)) break;
          channels[Channel{rank, e.peer, e.comm, e.tag}].sends.push_back(i);
          break;
        case EventKind::Recv:
        case EventKind::Irecv:
          if (e.kind == EventKind::Irecv && cancelled.contains(e.request)) break;
          channels[Channel{e.peer, rank, e.comm, e.tag}].recvs.push_back(i);
          break;
        case EventKind::Collective:
        case EventKind::ICollective:
          collectives[e.comm][rank].push_back(i);
          break;
        case EventKind::Wait:
        case EventKind::Cancel:
          break;
      }
    }
  }
  // Members of a communicator that call nothing on it within their prefixes still bound it.
  for (auto& [comm, members] : collectives) {
    MAPSIM_EXPECTS(comm < trace.communicators.size(), "consistent_cut: unknown communicator");
    for (const auto member : trace.communicators[comm].members) (void)members[member];
  }
  const auto at = [&keep](Rank r) -> std::size_t& { return keep[static_cast<std::size_t>(r)]; };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [channel, ends] : channels) {
      const auto [src, dst, comm, tag] = channel;
      const std::size_t sent = before(ends.sends, at(src));
      const std::size_t received = before(ends.recvs, at(dst));
      if (sent > received) {
        at(src) = ends.sends[received];
        changed = true;
      } else if (received > sent) {
        at(dst) = ends.recvs[sent];
        changed = true;
      }
    }
    for (const auto& [comm, members] : collectives) {
      std::size_t calls = kNever;
      for (const auto& [member, positions] : members)
        calls = std::min(calls, before(positions, at(member)));
      for (const auto& [member, positions] : members) {
        if (before(positions, at(member)) > calls) {
          at(member) = positions[calls];
          changed = true;
        }
      }
    }
    for (std::size_t r = 0; r < ranks; ++r) {
      for (const auto& [post, done] : requests[r]) {
        if (post >= keep[r]) break;
        if (done >= keep[r]) {  // posted in the cut, completed after it (or never)
          keep[r] = post;
          changed = true;
          break;
        }
      }
    }
  }
  return keep;
}

Trace first_share(const Trace& trace, double share) {
  check_share(share);
  std::vector<std::size_t> total;
  std::vector<std::size_t> keep;
  for (const auto& rank : trace.ranks) {
    total.push_back(rank.events.size());
    keep.push_back(share_of(share, rank.events.size()));
  }
  return truncated(trace, consistent_cut(trace, keep), total, share);
}

Trace first_share(const std::function<std::unique_ptr<EventStreams>()>& open, double share) {
  check_share(share);
  constexpr std::size_t kWindow = 4096;
  std::vector<std::size_t> total;
  {
    const auto counting = open();
    std::vector<Event> scratch;
    for (Rank r = 0; r < counting->rank_count(); ++r) {
      std::size_t n = 0;
      for (;;) {
        scratch.clear();
        const auto read = counting->read(r, scratch, kWindow);
        if (read == 0) break;
        n += read;
      }
      total.push_back(n);
    }
  }
  const auto reading = open();
  Trace prefix;
  prefix.world = reading->world();
  prefix.source = reading->source();
  prefix.ranks.resize(total.size());
  MAPSIM_EXPECTS(static_cast<std::size_t>(reading->rank_count()) == total.size(),
                 "first_share: the two passes see different ranks");
  for (std::size_t r = 0; r < total.size(); ++r) {
    auto& stream = prefix.ranks[r];
    const std::size_t want = share_of(share, total[r]);
    const auto rank = static_cast<Rank>(r);
    while (stream.events.size() < want && reading->read(rank, stream.events, kWindow) > 0) {
    }
    if (want == total[r]) {  // kept whole: its final gap, once the stream has ended
      std::vector<Event> rest;
      while (reading->read(rank, rest, kWindow) > 0) rest.clear();
      stream.final_gap = reading->final_gap(rank);
    }
    stream.events.resize(std::min(stream.events.size(), want));
  }
  prefix.communicators = reading->communicators();
  std::vector<std::size_t> keep;
  for (const auto& rank : prefix.ranks) keep.push_back(rank.events.size());
  return truncated(prefix, consistent_cut(prefix, keep), total, share);
}

namespace {

class SharedTraceStreams final : public EventStreams {
 public:
  explicit SharedTraceStreams(std::shared_ptr<const Trace> trace)
      : trace_(std::move(trace)), streams_(*trace_) {}

  [[nodiscard]] Rank rank_count() const override { return streams_.rank_count(); }
  [[nodiscard]] const std::vector<Communicator>& communicators() const override {
    return streams_.communicators();
  }
  [[nodiscard]] std::uint16_t world() const override { return streams_.world(); }
  [[nodiscard]] const std::string& source() const override { return streams_.source(); }
  [[nodiscard]] std::optional<std::uint64_t> event_count() const override {
    return streams_.event_count();
  }
  std::size_t read(Rank rank, std::vector<Event>& out, std::size_t max) override {
    return streams_.read(rank, out, max);
  }
  [[nodiscard]] std::int64_t final_gap(Rank rank) const override {
    return streams_.final_gap(rank);
  }

 private:
  std::shared_ptr<const Trace> trace_;
  TraceStreams streams_;
};

}  // namespace

std::unique_ptr<EventStreams> shared_streams(std::shared_ptr<const Trace> trace) {
  return std::make_unique<SharedTraceStreams>(std::move(trace));
}

std::shared_ptr<const Trace> SliceCache::get(
    double share, const Trace* stored, const std::function<std::unique_ptr<EventStreams>()>& open) {
  const std::scoped_lock lock(mutex_);
  auto& cut = by_share_[share];
  if (!cut) {
    cut = std::make_shared<const Trace>(stored != nullptr ? first_share(*stored, share)
                                                          : first_share(open, share));
  }
  return cut;
}

}  // namespace mapsim::traces
