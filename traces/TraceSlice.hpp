#pragma once
// The first part of a trace, cut so that it still replays: `train-share=` of replay-search
// searches on it (any trace; a generated workload can also be cut into iterations, `train=`).
//
// Each rank r of n_r events keeps a prefix of them: at first its first ⌈share · n_r⌉, then
// shortened until the cut is consistent —
//  - a point-to-point message is kept at both ends or at neither. The k-th send from s to d on
//    (communicator, tag) is the message of the k-th receive at d from s on (communicator, tag)
//    (MPI's non-overtaking order; a cancelled receive takes none), so on every such channel the
//    kept sends and the kept receives are equally many;
//  - a collective is kept at every member of its communicator or at none: the k-th collective
//    on a communicator is the same call at each member;
//  - a request that is kept (Isend, Irecv, ICollective) is completed (Wait, Cancel) in the cut.
// A prefix that holds one event too many of a channel, a communicator or a request ends just
// before it, and the checks run again until nothing changes. Cuts satisfying the three rules are
// closed under taking the longer prefix of each rank, so this finds the longest consistent cut
// within the first share of each rank: on an iterative code whose ranks run their iterations in
// step, about the share's fraction of its iterations. A rank keeps its final computation gap
// only when it keeps all its events.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "traces/EventStreams.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// How many of each rank's events the consistent cut keeps, within the first `keep[r]`
/// (each at most that rank's event count).
std::vector<std::size_t> consistent_cut(const Trace& trace, std::vector<std::size_t> keep);

/// The consistent cut of `trace` within the first `share` (0 < share <= 1) of each rank's events.
/// Throws InputError for a share outside (0, 1].
Trace first_share(const Trace& trace, double share);

/// The same, read from streams without holding the whole trace: `open` is called twice, for a
/// first pass that counts each rank's events and a second that reads the share of them.
Trace first_share(const std::function<std::unique_ptr<EventStreams>()>& open, double share);

/// Streams over a trace they share ownership of (TraceStreams over a slice kept by a cache).
std::unique_ptr<EventStreams> shared_streams(std::shared_ptr<const Trace> trace);

/// The slices of one workload, cut once per share and shared by the replays that ask for them
/// (from any thread: the first to ask cuts, the others wait for it).
class SliceCache {
 public:
  /// The consistent cut within `share`: of `stored` if given, else read from `open`'s streams.
  std::shared_ptr<const Trace> get(double share, const Trace* stored,
                                   const std::function<std::unique_ptr<EventStreams>()>& open);

 private:
  std::mutex mutex_;
  std::map<double, std::shared_ptr<const Trace>> by_share_;
};

}  // namespace mapsim::traces
