// What a replay that cannot complete reports: every blocked rank and the operation it waits for.

#include <limits>

#include <fmt/format.h>

#include "sim/Replay.hpp"

namespace mapsim::sim {
namespace {

constexpr std::size_t kRanksListed = 16;

}  // namespace

void Replay::add_bytes(std::uint64_t& sum, std::int64_t bytes, std::string_view what) {
  if (__builtin_add_overflow(sum, static_cast<std::uint64_t>(bytes), &sum)) {
    throw InputError(fmt::format("the trace's {} total more than {} bytes, the most mapsim counts",
                                 what, std::numeric_limits<std::uint64_t>::max()));
  }
}

std::string Replay::comm_name(std::uint16_t comm) const {
  if (comm >= communicators_->size()) return fmt::format("#{}", comm);
  const auto& name = (*communicators_)[comm].name;
  return name.empty() ? fmt::format("#{}", comm) : fmt::format("'{}'", name);
}

std::string Replay::describe(std::uint32_t id) const {
  const Request& request = requests_[id];
  const auto& event = request.started;
  if (request.kind == RequestKind::Collective) {
    const Member& member = members_[request.object];
    const auto it = instances_.find(member.instance_key);
    std::string where =
        fmt::format("{} #{} on communicator {}", traces::name(event.op),
                    (member.instance_key & 0xffffffffU) + 1, comm_name(member.comm));
    if (it == instances_.end()) return where;
    const auto& schedule = *it->second.schedule;
    const auto& world = (*communicators_)[member.comm].members;
    const auto step = schedule.step(member.me, member.step - 1);
    std::string parts;
    if (step.recv_from >= 0)
      parts +=
          fmt::format("a message from rank {}", world[static_cast<std::size_t>(step.recv_from)]);
    if (step.send_to >= 0) {
      parts += parts.empty() ? "" : " and ";
      parts += fmt::format("its message to rank {} to be received",
                           world[static_cast<std::size_t>(step.send_to)]);
    }
    return fmt::format("{} ({}), step {} of {}: waiting for {}", where, schedule.algorithm(),
                       member.step, schedule.step_count(member.me), parts);
  }
  const bool send = request.kind == RequestKind::Send;
  const std::string what = fmt::format("{} rank {}, tag {}, on communicator {}, {} bytes",
                                       send ? "send to" : "receive from", event.peer, event.tag,
                                       comm_name(event.comm), event.bytes);
  if (send) {
    const bool matched = request.object != kNone && messages_[request.object].matched;
    return what + (matched ? " (matched; data in flight)"
                           : " (rendezvous: no matching receive was ever posted)");
  }
  return what + (request.object == kNone ? " (no matching send)" : " (matched; data in flight)");
}

std::uint64_t Replay::stream_length(Rank rank) {
  RankState& state = ranks_[static_cast<std::size_t>(rank)];
  std::uint64_t length = state.base + state.window.size();
  std::vector<traces::Event> rest;
  while (!state.ended) {
    rest.clear();
    const auto read = streams_->read(rank, rest, window_);
    state.ended = read == 0;
    length += read;
  }
  return length;
}

void Replay::throw_deadlock() {
  std::vector<std::string> lines;
  std::size_t blocked = 0;
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    const auto& rank = ranks_[r];
    if (rank.finished) continue;
    ++blocked;
    if (lines.size() == kRanksListed) continue;
    std::string op = "no pending operation";
    if (rank.waiting != kNone) {
      const auto& request = requests_[rank.waiting];
      const auto& event = rank.last;
      op = fmt::format("{} {}", traces::name(event.kind), describe(rank.waiting));
      if (event.kind == traces::EventKind::Wait)
        op = fmt::format("Wait on request {} started at event {}: {}", event.request, request.event,
                         describe(rank.waiting));
    }
    lines.push_back(fmt::format("  rank {} (event {} of {}): {}", r, rank.base + rank.next - 1,
                                stream_length(static_cast<Rank>(r)), op));
  }
  std::string text = fmt::format(
      "the trace cannot complete: {} of {} ranks are blocked forever (a receive no send matches, "
      "a send no receive matches, or a deadlock):",
      blocked, ranks_.size());
  for (const auto& line : lines) text += "\n" + line;
  if (blocked > lines.size()) text += fmt::format("\n  ... and {} more", blocked - lines.size());
  throw InputError(text);
}

}  // namespace mapsim::sim
