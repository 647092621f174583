#include "traces/SimgridTi.hpp"

#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/OutputFile.hpp"

namespace mapsim::traces {
namespace {

namespace fs = std::filesystem;

bool communicates(CollectiveOp op) {
  return op != CollectiveOp::None && op != CollectiveOp::DestroyHandle && op != CollectiveOp::Other;
}

bool is_collective(const Event& e) {
  return (e.kind == EventKind::Collective || e.kind == EventKind::ICollective) &&
         communicates(e.op);
}

// A message on its way from the send pass to the receive pass.
struct Pending {
  std::int64_t tag = 0;  // the tag written for it
  std::int64_t bytes = 0;
  Rank sender = 0;
  std::size_t event = 0;  // the sender's event (point-to-point only)
};

// The matching key: (src, dst, comm, tag); collectives use tag -1 - k for their k-th instance.
struct Key {
  Rank src;
  Rank dst;
  std::uint16_t comm;
  std::int64_t tag;
  auto operator<=>(const Key&) const = default;
};

class Exporter {
 public:
  Exporter(const Trace& trace, const SimgridTiOptions& options)
      : trace_(trace),
        options_(options),
        ranks_(static_cast<std::size_t>(trace.rank_count())),
        comm_rank_(trace.communicators.size()) {
    for (Rank r = 0; r < trace.rank_count(); ++r) {
      auto& state = ranks_[static_cast<std::size_t>(r)];
      const auto& events = trace.ranks[static_cast<std::size_t>(r)].events;
      state.tag.assign(events.size(), -1);
      state.matched.assign(events.size(), false);
      for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (e.kind == EventKind::Cancel) state.cancelled.insert(e.request);
        if (is_collective(e)) state.collectives[e.comm].push_back(i);
      }
    }
  }

  SimgridTiStats run(const fs::path& dir) {
    for (Rank r = 0; r < trace_.rank_count(); ++r) match_sends(r);
    for (Rank r = 0; r < trace_.rank_count(); ++r) match_receives(r);
    // Written beside `dir` and moved into it when complete: a failure leaves `dir` as it was.
    OutputDirectory output(dir, "SimGrid trace");
    std::string index;
    for (Rank r = 0; r < trace_.rank_count(); ++r) {
      const auto name = fmt::format("rank-{}.txt", r);
      write_file(output.path() / name, output.target() / name, actions(r));
      index += fs::absolute(output.target() / name).string() + "\n";
    }
    write_file(output.path() / "index.txt", output.target() / "index.txt", index);
    if (options_.native_collectives) {
      std::string comms;
      for (std::size_t c = 0; c < trace_.communicators.size(); ++c) {
        const auto& members = trace_.communicators[c].members;
        comms += fmt::format("{} {} {}\n", c, members.size(), fmt::join(members, " "));
      }
      write_file(output.path() / "communicators.txt", output.target() / "communicators.txt", comms);
    }
    output.commit();
    return stats_;
  }

 private:
  struct RankState {
    std::vector<std::int64_t> tag;   // per event: the tag written for its message
    std::vector<std::int64_t> size;  // per receive event: the sender's bytes
    std::vector<bool> matched;       // per send event: a receive takes it
    std::unordered_set<std::uint32_t> cancelled;
    std::unordered_map<std::uint16_t, std::vector<std::size_t>> collectives;
  };

  // What the members of collective #k on `comm` recorded: its operation, root (a communicator
  // rank, -1 for none) and records, checking that every member reaches it.
  struct Instance {
    CollectiveOp op = CollectiveOp::None;
    std::int32_t root = -1;
    std::vector<CollectiveRecord> records;
  };
  Instance instance(std::uint16_t comm, std::size_t k) {
    const auto& members = trace_.communicators[comm].members;
    Instance found{CollectiveOp::None, -1, std::vector<CollectiveRecord>(members.size())};
    for (std::size_t i = 0; i < members.size(); ++i) {
      const Rank w = members[i];
      const auto& mine = ranks_[static_cast<std::size_t>(w)].collectives;
      const auto calls = mine.find(comm);
      const std::size_t count = calls == mine.end() ? 0 : calls->second.size();
      if (count <= k) {
        throw InputError(fmt::format(
            "the trace cannot be exported: collective #{} on communicator {} is never reached by "
            "member rank {}, which makes only {} collective call(s) on it",
            k + 1, trace_.communicators[comm].name, w, count));
      }
      const auto& event = trace_.ranks[static_cast<std::size_t>(w)].events[calls->second[k]];
      if (i == 0) {
        found.op = event.op;
        if (event.peer >= 0) found.root = rank_in(comm, event.peer);
      }
      found.records[i] = CollectiveRecord{event.bytes, event.received};
    }
    return found;
  }

  const CollectiveSchedule& schedule(std::uint16_t comm, std::size_t k) {
    const auto key = (static_cast<std::uint64_t>(comm) << 32) | k;
    auto& slot = schedules_[key];
    if (slot) return *slot;
    auto found = instance(comm, k);
    slot = std::make_unique<CollectiveSchedule>(found.op, found.root, std::move(found.records),
                                                options_.collectives);
    return *slot;
  }

  std::int32_t rank_in(std::uint16_t comm, Rank world) {
    auto& table = comm_rank_[comm];
    if (table.empty()) {
      table.assign(static_cast<std::size_t>(trace_.rank_count()), -1);
      const auto& members = trace_.communicators[comm].members;
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i] >= 0 && members[i] < trace_.rank_count())
          table[static_cast<std::size_t>(members[i])] = static_cast<std::int32_t>(i);
      }
    }
    return table[static_cast<std::size_t>(world)];
  }

  std::int64_t next_tag(Rank src, Rank dst) {
    return pair_messages_[(static_cast<std::uint64_t>(src) << 32) |
                          static_cast<std::uint32_t>(dst)]++;
  }

  // Visits the collective instances of `rank`'s events in order: f(event index, comm, k).
  template <typename F>
  void for_each_collective(Rank rank, F&& f) {
    std::unordered_map<std::uint16_t, std::size_t> seen;
    const auto& events = trace_.ranks[static_cast<std::size_t>(rank)].events;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto& e = events[i];
      if (!is_collective(e) || trace_.communicators.at(e.comm).members.size() <= 1) continue;
      f(i, e.comm, seen[e.comm]++);
    }
  }

  // Draws the tags of the rank's messages in program order: point-to-point sends and the sends of
  // its collective schedules, as they come.
  void match_sends(Rank r) {
    auto& state = ranks_[static_cast<std::size_t>(r)];
    const auto& events = trace_.ranks[static_cast<std::size_t>(r)].events;
    std::unordered_map<std::uint16_t, std::size_t> instances;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto& e = events[i];
      if (e.kind == EventKind::Send || e.kind == EventKind::Isend) {
        if (e.kind == EventKind::Isend && state.cancelled.contains(e.request)) continue;
        state.tag[i] = next_tag(r, e.peer);
        queues_[Key{r, e.peer, e.comm, e.tag}].push_back(Pending{state.tag[i], e.bytes, r, i});
        continue;
      }
      if (!is_collective(e) || trace_.communicators.at(e.comm).members.size() <= 1) continue;
      if (options_.native_collectives) continue;
      const std::size_t k = instances[e.comm]++;
      const auto& plan = schedule(e.comm, k);
      const auto& members = trace_.communicators[e.comm].members;
      const std::int32_t me = rank_in(e.comm, r);
      if (me < 0) {
        throw InputError(fmt::format(
            "the trace cannot be exported: rank {}, event {}: {} on communicator {}, which rank {} "
            "is not a member of",
            r, i, name(e.op), trace_.communicators[e.comm].name, r));
      }
      for (std::int32_t s = 0; s < plan.step_count(me); ++s) {
        const auto step = plan.step(me, s);
        if (step.send_to < 0) continue;
        const Rank to = members[static_cast<std::size_t>(step.send_to)];
        const Key key{r, to, e.comm, -1 - static_cast<std::int64_t>(k)};
        const auto tag = next_tag(r, to);
        queues_[key].push_back(Pending{tag, step.send_bytes, r, 0});
        sent_tags_[key].push_back(tag);
      }
    }
  }

  Pending take(Rank src, Rank dst, std::uint16_t comm, std::int64_t tag, std::size_t event) {
    auto it = queues_.find(Key{src, dst, comm, tag});
    if (it == queues_.end() || it->second.empty()) {
      throw InputError(fmt::format(
          "the trace cannot be exported: rank {}, event {}: a receive from rank {} (tag {}, "
          "communicator {}) that no send matches",
          dst, event, src, tag, trace_.communicators[comm].name));
    }
    const Pending p = it->second.front();
    it->second.pop_front();
    return p;
  }

  void match_receives(Rank r) {
    auto& state = ranks_[static_cast<std::size_t>(r)];
    const auto& events = trace_.ranks[static_cast<std::size_t>(r)].events;
    state.size.assign(events.size(), 0);
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto& e = events[i];
      if (e.kind != EventKind::Recv && e.kind != EventKind::Irecv) continue;
      if (e.kind == EventKind::Irecv && state.cancelled.contains(e.request)) continue;
      const Pending p = take(e.peer, r, e.comm, e.tag, i);
      state.tag[i] = p.tag;
      state.size[i] = p.bytes;
      ranks_[static_cast<std::size_t>(p.sender)].matched[p.event] = true;
    }
    if (options_.native_collectives) return;
    for_each_collective(r, [&](std::size_t i, std::uint16_t comm, std::size_t k) {
      const auto& plan = schedule(comm, k);
      const auto& members = trace_.communicators[comm].members;
      const std::int32_t me = rank_in(comm, r);
      auto& received = collective_receives_[(static_cast<std::uint64_t>(r) << 32) | i];
      for (std::int32_t s = 0; s < plan.step_count(me); ++s) {
        const auto step = plan.step(me, s);
        if (step.recv_from < 0) continue;
        const Rank from = members[static_cast<std::size_t>(step.recv_from)];
        received.push_back(take(from, r, comm, -1 - static_cast<std::int64_t>(k), i));
      }
    });
  }

  std::string actions(Rank r) {
    auto& state = ranks_[static_cast<std::size_t>(r)];
    const auto& stream = trace_.ranks[static_cast<std::size_t>(r)];
    const auto& events = stream.events;
    std::string out = fmt::format("{} init\n", r);
    std::unordered_map<std::uint32_t, std::string> waits;  // request -> its wait action
    auto line = [&](std::string text) {
      out += text;
      out += '\n';
      ++stats_.actions;
    };
    auto compute = [&](std::int64_t gap) {
      if (!options_.compute || gap <= 0) return;
      line(fmt::format("{} compute {}", r,
                       static_cast<double>(gap) * 1e-12 * options_.flops_per_second));
    };
    std::unordered_map<std::uint16_t, std::size_t> instance;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto& e = events[i];
      const bool before_init = i == 0 && e.op == CollectiveOp::CreateHandle;
      if (!before_init) compute(e.gap);
      const auto tag = state.tag[i];
      switch (e.kind) {
        case EventKind::Send:
        case EventKind::Isend: {
          if (tag < 0) {
            ++stats_.dropped_cancelled;
            break;
          }
          ++stats_.messages;
          const bool matched = state.matched[i];
          const bool blocking = e.kind == EventKind::Send && matched;
          line(fmt::format("{} {} {} {} {}", r, blocking ? "send" : "isend", e.peer, tag, e.bytes));
          if (e.kind == EventKind::Isend && matched)
            waits[e.request] = fmt::format("{} wait {} {} {}", r, r, e.peer, tag);
          break;
        }
        case EventKind::Recv:
        case EventKind::Irecv: {
          if (tag < 0) break;
          const bool blocking = e.kind == EventKind::Recv;
          line(fmt::format("{} {} {} {} {}", r, blocking ? "recv" : "irecv", e.peer, tag,
                           state.size[i]));
          if (!blocking) waits[e.request] = fmt::format("{} wait {} {} {}", r, e.peer, r, tag);
          break;
        }
        case EventKind::Wait: {
          const auto it = waits.find(e.request);
          if (it == waits.end()) break;  // a cancelled or unmatched request, or a collective
          line(std::move(it->second));
          waits.erase(it);
          break;
        }
        case EventKind::Cancel:
          break;
        case EventKind::Collective:
        case EventKind::ICollective: {
          if (!is_collective(e) || trace_.communicators.at(e.comm).members.size() <= 1) break;
          if (options_.native_collectives) {
            line(native_collective(r, e.comm, instance[e.comm]++));
          } else {
            write_collective(r, i, e.comm, instance[e.comm]++, line);
          }
          break;
        }
      }
    }
    const bool after_finalize = !events.empty() && events.back().op == CollectiveOp::DestroyHandle;
    if (!after_finalize) compute(stream.final_gap);
    out += fmt::format("{} finalize\n", r);
    return out;
  }

  // The collective's `coll` line (native_collectives).
  std::string native_collective(Rank r, std::uint16_t comm, std::size_t k) {
    schedule(comm, k);  // checks the root, as the replay does
    const auto found = instance(comm, k);
    const std::int32_t root = rooted(found.op) ? found.root : -1;
    return fmt::format("{} coll {} {} {} {}", r, native_name(found.op), comm, root,
                       fmt::join(collective_payload(found.op, root, found.records), " "));
  }

  static std::string_view native_name(CollectiveOp op) {
    switch (op) {
      case CollectiveOp::Bcast:
        return "bcast";
      case CollectiveOp::Gather:
        return "gather";
      case CollectiveOp::Gatherv:
        return "gatherv";
      case CollectiveOp::Scatter:
        return "scatter";
      case CollectiveOp::Scatterv:
        return "scatterv";
      case CollectiveOp::Allgather:
        return "allgather";
      case CollectiveOp::Allgatherv:
        return "allgatherv";
      case CollectiveOp::Alltoall:
        return "alltoall";
      case CollectiveOp::Alltoallv:
      case CollectiveOp::Alltoallw:
        return "alltoallv";
      case CollectiveOp::Allreduce:
        return "allreduce";
      case CollectiveOp::Reduce:
        return "reduce";
      case CollectiveOp::ReduceScatter:
      case CollectiveOp::ReduceScatterBlock:
        return "reduce_scatter";
      case CollectiveOp::Scan:
        return "scan";
      case CollectiveOp::Exscan:
        return "exscan";
      case CollectiveOp::None:
      case CollectiveOp::Barrier:
      case CollectiveOp::CreateHandle:
      case CollectiveOp::DestroyHandle:
      case CollectiveOp::Other:
        return "barrier";
    }
    return "barrier";
  }

  template <typename Line>
  void write_collective(Rank r, std::size_t event, std::uint16_t comm, std::size_t k, Line& line) {
    const auto& plan = schedule(comm, k);
    const auto& members = trace_.communicators[comm].members;
    const std::int32_t me = rank_in(comm, r);
    const auto& received = collective_receives_.at((static_cast<std::uint64_t>(r) << 32) | event);
    std::size_t next_receive = 0;
    // A step's waits: its send's, then its receive's; overlapping steps' wait with the next step
    // that does not overlap, or at the end.
    std::vector<std::string> waits;
    for (std::int32_t s = 0; s < plan.step_count(me); ++s) {
      const auto step = plan.step(me, s);
      std::string recv_wait;
      if (step.recv_from >= 0) {
        const Rank from = members[static_cast<std::size_t>(step.recv_from)];
        const auto& p = received[next_receive++];
        line(fmt::format("{} irecv {} {} {}", r, from, p.tag, p.bytes));
        recv_wait = fmt::format("{} wait {} {} {}", r, from, r, p.tag);
      }
      if (step.send_to >= 0) {
        const Rank to = members[static_cast<std::size_t>(step.send_to)];
        auto& tags = sent_tags_.at(Key{r, to, comm, -1 - static_cast<std::int64_t>(k)});
        const auto tag = tags.front();
        tags.pop_front();
        ++stats_.messages;
        line(fmt::format("{} isend {} {} {}", r, to, tag, step.send_bytes));
        waits.push_back(fmt::format("{} wait {} {} {}", r, r, to, tag));
      }
      if (!recv_wait.empty()) waits.push_back(std::move(recv_wait));
      if (step.overlap && s + 1 < plan.step_count(me)) continue;
      for (auto& wait : waits) line(std::move(wait));
      waits.clear();
    }
  }

  /// Writes `text` to `file`; errors name `shown` (where the file goes).
  static void write_file(const fs::path& file, const fs::path& shown, const std::string& text) {
    errno = 0;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (out) out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (out) out.close();
    if (!out) {
      throw InputError(fmt::format("cannot write {}: {}", shown.string(),
                                   errno != 0 ? std::strerror(errno) : "write failed"));
    }
  }

  const Trace& trace_;
  SimgridTiOptions options_;
  std::vector<RankState> ranks_;
  std::vector<std::vector<std::int32_t>> comm_rank_;
  std::map<std::uint64_t, std::unique_ptr<CollectiveSchedule>> schedules_;
  std::unordered_map<std::uint64_t, std::int64_t> pair_messages_;
  std::map<Key, std::deque<Pending>> queues_;
  std::map<Key, std::deque<std::int64_t>> sent_tags_;
  std::unordered_map<std::uint64_t, std::vector<Pending>> collective_receives_;
  SimgridTiStats stats_;
};

}  // namespace

SimgridTiStats write_simgrid_ti(const Trace& trace, const std::filesystem::path& dir,
                                const SimgridTiOptions& options) {
  if (!(options.flops_per_second >= 1 && options.flops_per_second <= kMaxFlopsPerSecond)) {
    throw InputError(
        fmt::format("flops-per-second: the host speed is {:g} flops/s, out of range [1, {:g}]",
                    options.flops_per_second, kMaxFlopsPerSecond));
  }
  return Exporter(trace, options).run(dir);
}

}  // namespace mapsim::traces
