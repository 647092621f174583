#pragma once
// Checks of the trace model's invariants over a whole Trace, shared by the reader's tests. Each
// returns the violations found (empty when the trace is sound), so a failure says what broke.

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "traces/Trace.hpp"

namespace mapsim::testing {

using traces::Event;
using traces::EventKind;
using traces::Trace;

/// Requests: each Isend / Irecv / ICollective posts a request number not used before on its
/// rank; each Wait and Cancel refers to a request posted earlier on the same rank and not yet
/// completed; Irecvs that complete carry a peer; peers and roots are members of the event's
/// communicator, and so is the rank itself; gaps are non-negative.
inline std::vector<std::string> model_violations(const Trace& trace) {
  std::vector<std::string> violations;
  const auto fail = [&](Rank rank, std::size_t index, const std::string& what) {
    if (violations.size() < 20) {
      violations.push_back(fmt::format("rank {} event {}: {}", rank, index, what));
    }
  };
  for (Rank rank = 0; rank < trace.rank_count(); ++rank) {
    const auto& stream = trace.ranks[static_cast<std::size_t>(rank)];
    std::set<std::uint32_t> posted;
    std::map<std::uint32_t, std::size_t> live;  // request -> index of the posting event
    if (stream.final_gap < 0) fail(rank, stream.events.size(), "negative final gap");
    for (std::size_t i = 0; i < stream.events.size(); ++i) {
      const Event& e = stream.events[i];
      if (e.gap < 0) fail(rank, i, "negative gap");
      if (e.comm >= trace.communicators.size()) {
        fail(rank, i, fmt::format("communicator {} does not exist", e.comm));
        continue;
      }
      const auto& members = trace.communicators[e.comm].members;
      const auto member = [&](Rank r) {
        return std::find(members.begin(), members.end(), r) != members.end();
      };
      switch (e.kind) {
        case EventKind::Isend:
        case EventKind::Irecv:
        case EventKind::ICollective:
          if (!posted.insert(e.request).second) {
            fail(rank, i, fmt::format("request {} posted twice", e.request));
          }
          live[e.request] = i;
          break;
        case EventKind::Wait:
        case EventKind::Cancel:
          if (live.erase(e.request) == 0) {
            fail(rank, i,
                 fmt::format("{} of request {}, which is not live", traces::name(e.kind), e.request));
          }
          break;
        default:
          break;
      }
      const bool point_to_point = e.kind == EventKind::Send || e.kind == EventKind::Isend ||
                                  e.kind == EventKind::Recv || e.kind == EventKind::Irecv;
      if (point_to_point || e.kind == EventKind::Collective) {
        if (!member(rank)) fail(rank, i, "the rank is not a member of the event's communicator");
      }
      if (point_to_point && e.peer >= 0 && !member(e.peer)) {
        fail(rank, i,
             fmt::format("peer {} is not a member of '{}'", e.peer,
                         trace.communicators[e.comm].name));
      }
      if (e.kind == EventKind::Collective && e.peer >= 0 && !member(e.peer)) {
        fail(rank, i, fmt::format("root {} is not a member of the communicator", e.peer));
      }
      if (e.kind == EventKind::Irecv && e.peer < 0) {
        // Only an Irecv that never completed may lack its source.
        bool completed = false;
        for (std::size_t j = i + 1; j < stream.events.size(); ++j) {
          const Event& later = stream.events[j];
          if (later.kind == EventKind::Wait && later.request == e.request) completed = true;
        }
        if (completed) fail(rank, i, "a completed Irecv without its source");
      }
    }
  }
  return violations;
}

/// Every message (Send, Isend) has a receive (Recv, Irecv) on the destination with the same
/// communicator, tag and size, and vice versa: per channel (src, dst, comm, tag) the sizes sent,
/// in program order, equal the sizes received, in posting order.
inline std::vector<std::string> unmatched_messages(const Trace& trace) {
  using Channel = std::tuple<Rank, Rank, std::uint16_t, std::int32_t>;
  std::map<Channel, std::vector<std::int64_t>> sent;
  std::map<Channel, std::vector<std::int64_t>> received;
  for (Rank rank = 0; rank < trace.rank_count(); ++rank) {
    for (const Event& e : trace.ranks[static_cast<std::size_t>(rank)].events) {
      if (e.kind == EventKind::Send || e.kind == EventKind::Isend) {
        sent[{rank, e.peer, e.comm, e.tag}].push_back(e.bytes);
      } else if ((e.kind == EventKind::Recv || e.kind == EventKind::Irecv) && e.peer >= 0) {
        received[{e.peer, rank, e.comm, e.tag}].push_back(e.bytes);
      }
    }
  }
  std::vector<std::string> problems;
  const auto describe = [](const Channel& c) {
    return fmt::format("{} -> {} (comm {}, tag {})", std::get<0>(c), std::get<1>(c), std::get<2>(c),
                       std::get<3>(c));
  };
  for (const auto& [channel, sizes] : sent) {
    const auto it = received.find(channel);
    if (it == received.end()) {
      problems.push_back(
          fmt::format("{}: {} messages never received", describe(channel), sizes.size()));
    } else if (it->second != sizes) {
      problems.push_back(fmt::format("{}: {} sent, {} received, sizes differ", describe(channel),
                                     sizes.size(), it->second.size()));
    }
  }
  for (const auto& [channel, sizes] : received) {
    if (!sent.contains(channel)) {
      problems.push_back(
          fmt::format("{}: {} receives without a send", describe(channel), sizes.size()));
    }
  }
  return problems;
}

}  // namespace mapsim::testing
