// Collectives: each member runs its steps of the collective's CollectiveSchedule; a step posts
// its receive and its send together and ends when both have completed (MPI_Sendrecv). Messages of
// the k-th collective on a communicator carry tag -1 - k, outside the tags MPI programs may use,
// so they never match point-to-point traffic or another collective.

#include <fmt/format.h>

#include "sim/Replay.hpp"

namespace mapsim::sim {

void Replay::start_collective(Rank rank, const traces::Event& event, std::uint64_t index,
                              std::uint32_t request) {
  ++result_.collectives;
  const auto& comm = communicators_->at(event.comm);
  if (comm.members.size() <= 1) {  // MPI_COMM_SELF or a singleton: nothing to exchange
    requests_[request].path = ranks_[static_cast<std::size_t>(rank)].path;
    complete(request);
    return;
  }
  const std::int32_t me = rank_in(event.comm, rank);
  if (me < 0) {
    throw InputError(fmt::format(
        "the trace cannot be replayed: rank {}, event {}: {} on communicator {}, which rank {} "
        "is not a member of",
        rank, index, traces::name(event.op), comm_name(event.comm), rank));
  }
  const std::uint32_t k = ranks_[static_cast<std::size_t>(rank)].collectives_on[event.comm]++;
  instance(event.comm, k);
  std::uint32_t id;
  if (!free_members_.empty()) {
    id = free_members_.back();
    free_members_.pop_back();
  } else {
    id = static_cast<std::uint32_t>(members_.size());
    members_.emplace_back();
  }
  Member& member = members_[id];
  member = Member{};
  member.instance_key = (static_cast<std::uint64_t>(event.comm) << 32) | k;
  member.request = request;
  member.me = me;
  member.tag = -1 - static_cast<std::int32_t>(k % 0x7fffffffU);
  member.comm = event.comm;
  member.path = ranks_[static_cast<std::size_t>(rank)].path;
  requests_[request].object = id;
  advance_member(id);
}

const traces::CollectiveSchedule& Replay::instance(std::uint16_t comm, std::uint32_t k) {
  const auto key = (static_cast<std::uint64_t>(comm) << 32) | k;
  auto it = instances_.find(key);
  if (it != instances_.end()) return *it->second.schedule;
  // Instances of a communicator are created in order k = 0, 1, 2, ... (the first member to reach
  // call k creates it, after its own call k - 1), so each member's oldest unread call is call k.
  const auto& members = (*communicators_)[comm].members;
  std::vector<traces::CollectiveRecord> records(members.size());
  traces::CollectiveOp op = traces::CollectiveOp::None;
  std::int32_t root = -1;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Rank w = members[i];
    auto& calls = ranks_[static_cast<std::size_t>(w)].collectives_read[comm];
    while (calls.read <= k && read_more(w)) {
    }
    if (calls.read <= k) {
      throw InputError(fmt::format(
          "the trace cannot be replayed: collective #{} on communicator {} is never reached by "
          "member rank {}, which makes only {} collective call(s) on it",
          k + 1, comm_name(comm), w, calls.read));
    }
    MAPSIM_EXPECTS(calls.first == k && !calls.calls.empty(),
                   "collective instances are created in order");
    const CollectiveCall call = calls.calls.front();
    calls.calls.pop_front();
    ++calls.first;
    if (i == 0) {
      op = call.op;
      if (call.root >= 0) root = rank_in(comm, call.root);
    } else if (call.op != op) {
      throw InputError(fmt::format(
          "the trace cannot be replayed: collective #{} on communicator {} is {} on rank {} but "
          "{} on rank {}",
          k + 1, comm_name(comm), traces::name(op), members[0], traces::name(call.op), w));
    }
    records[i] = traces::CollectiveRecord{call.bytes, call.received};
  }
  CollectiveInstance created;
  created.schedule = std::make_unique<traces::CollectiveSchedule>(op, root, std::move(records),
                                                                  config_.collectives);
  created.members_left = static_cast<std::uint32_t>(members.size());
  return *instances_.emplace(key, std::move(created)).first->second.schedule;
}

void Replay::advance_member(std::uint32_t id) {
  for (;;) {
    Member& member = members_[id];
    auto it = instances_.find(member.instance_key);
    MAPSIM_EXPECTS(it != instances_.end(), "a collective member outlived its instance");
    const auto& schedule = *it->second.schedule;
    const auto& world = (*communicators_)[member.comm].members;
    const Rank rank = requests_[member.request].rank;
    const auto index = requests_[member.request].event;
    const auto event = requests_[member.request].started;
    if (overheads_) {
      // The last step's receive overheads and its send's o_s come before the next step.
      const Time at = occupy(rank, member.overhead);
      member.overhead = 0;
      if (at > engine_.now()) {
        engine_.schedule(at, kMemberResume, id);
        return;
      }
    }
    extend(member.path, engine_.now());
    if (member.step == schedule.step_count(member.me)) {
      if (member.pending > 0) {  // overlapping steps still in flight
        member.waiting = true;
        return;
      }
      if (--it->second.members_left == 0) instances_.erase(it);
      const auto request = member.request;
      requests_[request].path = member.path;
      free_members_.push_back(id);
      complete(request);
      return;
    }
    const auto step = schedule.step(member.me, member.step++);
    const auto comm = member.comm;
    const auto tag = member.tag;
    member.posting = true;
    std::uint32_t posted[2] = {kNone, kNone};
    if (step.recv_from >= 0) {
      posted[0] = new_request(rank, RequestKind::Recv, index, event, id);
      members_[id].posted[0] = posted[0];
      requests_[posted[0]].path = members_[id].path;
      post_recv(rank, world[static_cast<std::size_t>(step.recv_from)], comm, tag, posted[0]);
    }
    if (step.send_to >= 0) {
      posted[1] = new_request(rank, RequestKind::Send, index, event, id);
      members_[id].posted[1] = posted[1];
      ++result_.collective_messages;
      add_bytes(result_.collective_bytes, step.send_bytes, "collective messages");
      post_send(rank, world[static_cast<std::size_t>(step.send_to)], comm, tag, step.send_bytes,
                posted[1], true, members_[id].path);
    }
    std::uint32_t pending = 0;
    for (const auto r : posted) {
      if (r == kNone) continue;
      if (requests_[r].done) {
        free_requests_.push_back(r);
      } else {
        ++pending;
      }
    }
    Member& after = members_[id];
    after.posting = false;
    after.posted[0] = after.posted[1] = kNone;
    after.pending += pending;
    if (after.pending > 0 && !step.overlap) {
      after.waiting = true;
      return;
    }
  }
}

}  // namespace mapsim::sim
