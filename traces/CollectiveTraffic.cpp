#include "traces/CollectiveTraffic.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "support/Error.hpp"

namespace mapsim::traces {

void CollectiveTraffic::add(Rank rank, std::size_t position, const Event& event) {
  if (event.kind != EventKind::Collective && event.kind != EventKind::ICollective) return;
  by_member_[{event.comm, rank}].push_back(
      {position, event.bytes, event.received, event.peer, event.op});
  ++calls_;
}

void CollectiveTraffic::add_to(CommMatrixBuilder& builder,
                               const std::vector<Communicator>& communicators,
                               const CollectiveOptions& options) const {
  const std::vector<Call> none;
  auto it = by_member_.begin();
  while (it != by_member_.end()) {
    const std::uint16_t comm = it->first.first;
    MAPSIM_EXPECTS(comm < communicators.size(), "collective events name known communicators");
    const Communicator& communicator = communicators[comm];
    const auto size = static_cast<std::int32_t>(communicator.members.size());
    std::unordered_map<Rank, std::int32_t> local;
    std::vector<std::vector<Call>> calls(communicator.members.size());
    for (std::int32_t i = 0; i < size; ++i) {
      const Rank member = communicator.members[static_cast<std::size_t>(i)];
      local.emplace(member, i);
      const auto found = by_member_.find({comm, member});
      auto& mine = calls[static_cast<std::size_t>(i)];
      mine = found == by_member_.end() ? none : found->second;
      // Streams deliver a non-blocking collective when it completes: restore the call order.
      std::stable_sort(mine.begin(), mine.end(),
                       [](const Call& a, const Call& b) { return a.position < b.position; });
    }
    for (; it != by_member_.end() && it->first.first == comm; ++it) {
      if (!local.contains(it->first.second)) {
        throw InputError(
            fmt::format("rank {} calls a collective on communicator '{}', which it "
                        "is not a member of",
                        it->first.second, communicator.name));
      }
    }
    const std::size_t count = calls.front().size();
    for (std::int32_t i = 1; i < size; ++i) {
      if (calls[static_cast<std::size_t>(i)].size() != count) {
        throw InputError(fmt::format(
            "communicator '{}': rank {} made {} collective calls but rank {} made {}; the trace "
            "is incomplete, so its collectives cannot be matched",
            communicator.name, communicator.members[0], count,
            communicator.members[static_cast<std::size_t>(i)],
            calls[static_cast<std::size_t>(i)].size()));
      }
    }
    std::vector<CollectiveRecord> records(static_cast<std::size_t>(size));
    for (std::size_t k = 0; k < count; ++k) {
      const Call& first = calls.front()[k];
      for (std::int32_t i = 0; i < size; ++i) {
        const Call& call = calls[static_cast<std::size_t>(i)][k];
        if (call.op != first.op || call.root != first.root) {
          throw InputError(fmt::format(
              "communicator '{}', collective call {}: rank {} calls {} (root {}) but rank {} calls "
              "{} (root {})",
              communicator.name, k + 1, communicator.members[0], name(first.op), first.root,
              communicator.members[static_cast<std::size_t>(i)], name(call.op), call.root));
        }
        records[static_cast<std::size_t>(i)] = {call.sent, call.received};
      }
      std::int32_t root = -1;
      if (first.root >= 0) {
        const auto r = local.find(first.root);
        if (r == local.end()) {
          throw InputError(fmt::format("communicator '{}': {} with root {}, not a member",
                                       communicator.name, name(first.op), first.root));
        }
        root = r->second;
      }
      const CollectiveSchedule schedule(first.op, root, records, options);
      for (std::int32_t i = 0; i < size; ++i) {
        const Rank from = communicator.members[static_cast<std::size_t>(i)];
        const auto steps = schedule.step_count(i);
        for (std::int32_t s = 0; s < steps; ++s) {
          const auto step = schedule.step(i, s);
          if (step.send_to < 0) continue;
          builder.add_collective(
              from, communicator.members[static_cast<std::size_t>(step.send_to)], 1,
              static_cast<std::uint64_t>(std::max<std::int64_t>(step.send_bytes, 0)));
        }
      }
    }
  }
}

}  // namespace mapsim::traces
