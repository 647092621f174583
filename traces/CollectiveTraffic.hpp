#pragma once
// The point-to-point messages of a trace's collectives, as the simulator sends them: every call
// is expanded by CollectiveSchedule (the same algorithms, sizes from what each member recorded).
//
// A collective is one call by every member of its communicator: MPI has the members call the
// collectives of a communicator (blocking and non-blocking alike) in the same order, so the k-th
// call of each member on a communicator belongs to the k-th collective. The calls are collected
// rank by rank (in any order of ranks), then matched; only their operation, root and sizes are
// kept (32 bytes per call), not the events around them.

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "support/Ids.hpp"
#include "traces/CollectiveSchedule.hpp"
#include "traces/CommMatrix.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

class CollectiveTraffic {
 public:
  /// Records `event` of `rank` if it is a Collective or ICollective; `position` orders the calls
  /// of a rank (its index in the rank's stream).
  void add(Rank rank, std::size_t position, const Event& event);

  /// Matches the calls and adds every collective's messages to `builder` (1 message of
  /// step.send_bytes per step that sends). Throws InputError naming the communicator if its
  /// members made different numbers of calls, or different operations or roots in one call.
  void add_to(CommMatrixBuilder& builder, const std::vector<Communicator>& communicators,
              const CollectiveOptions& options = {}) const;

  /// Collective calls recorded (one per member and collective).
  [[nodiscard]] std::size_t call_count() const { return calls_; }

 private:
  struct Call {
    std::size_t position = 0;
    std::int64_t sent = 0;
    std::int64_t received = 0;
    Rank root = -1;  // world rank
    CollectiveOp op = CollectiveOp::None;
  };
  std::map<std::pair<std::uint16_t, Rank>, std::vector<Call>> by_member_;  // (comm, rank)
  std::size_t calls_ = 0;
};

}  // namespace mapsim::traces
