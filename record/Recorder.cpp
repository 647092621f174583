#include "record/Recorder.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace mapsim::record {

namespace {

constexpr int kTag = 23;
// Gathered in messages of at most this many values, so that a count fits MPI's int.
constexpr std::int64_t kChunk = std::int64_t{1} << 26;

// [first, last] runs of consecutive world ranks: MPI_COMM_WORLD is one pair however large.
std::vector<std::pair<std::int32_t, std::int32_t>> ranges(const std::vector<std::int32_t>& ranks) {
  std::vector<std::pair<std::int32_t, std::int32_t>> out;
  for (const auto r : ranks) {
    if (!out.empty() && out.back().second + 1 == r) {
      out.back().second = r;
    } else {
      out.emplace_back(r, r);
    }
  }
  return out;
}

void warn(const std::string& message) {
  std::fprintf(stderr, "mapsim-record: %s\n", message.c_str());
}

}  // namespace

const char* name(Op op) {
  static constexpr std::array<const char*, 18> kNames{
      "Barrier",   "Bcast",     "Gather",       "Gatherv",        "Scatter",
      "Scatterv",  "Allgather", "Allgatherv",   "Alltoall",       "Alltoallv",
      "Alltoallw", "Allreduce", "Reduce",       "Reduce_scatter", "Reduce_scatter_block",
      "Scan",      "Exscan",    "create-handle"};
  return kNames[static_cast<std::size_t>(op)];
}

Recorder& Recorder::instance() {
  static Recorder recorder;
  return recorder;
}

void Recorder::start(int thread_level) {
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size_);
  multithreaded_ = thread_level == MPI_THREAD_MULTIPLE;
  active_ = true;
}

CommState& Recorder::comm(MPI_Comm comm) {
  const auto found = by_handle_.find(comm);
  if (found != by_handle_.end()) return *found->second;

  auto state = std::make_unique<CommState>();
  MPI_Group world_group;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  const auto translate = [&](MPI_Group group) {
    int size = 0;
    PMPI_Group_size(group, &size);
    std::vector<int> local(static_cast<std::size_t>(size));
    std::vector<int> world(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) local[static_cast<std::size_t>(i)] = i;
    PMPI_Group_translate_ranks(group, size, local.data(), world_group, world.data());
    std::vector<std::int32_t> out(world.size());
    for (std::size_t i = 0; i < world.size(); ++i)
      out[i] = world[i] == MPI_UNDEFINED ? -1 : world[i];
    return out;
  };
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  state->inter = inter != 0;
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  state->members = translate(group);
  PMPI_Group_free(&group);
  if (state->inter) {
    PMPI_Comm_remote_group(comm, &group);
    state->remote = translate(group);
    PMPI_Group_free(&group);
  }
  PMPI_Group_free(&world_group);
  PMPI_Comm_rank(comm, &state->me);

  CommState& result = *state;
  comms_.push_back(std::move(state));
  by_handle_.emplace(comm, &result);
  return result;
}

void Recorder::forget(MPI_Comm comm) {
  by_handle_.erase(comm);
}

void Recorder::add(std::int32_t dest_world, std::int64_t bytes, std::int64_t times) {
  if (dest_world != last_peer_) {
    last_traffic_ = &peers_[dest_world];
    last_peer_ = dest_world;
  }
  last_traffic_->messages += times;
  last_traffic_->bytes += bytes * times;
}

void Recorder::send(MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL || dest < 0) return;
  const CommState& state = this->comm(comm);
  const auto& peers = state.inter ? state.remote : state.members;
  if (static_cast<std::size_t>(dest) >= peers.size()) return;
  const std::int32_t world = peers[static_cast<std::size_t>(dest)];
  if (world < 0) return;
  int size = 0;
  PMPI_Type_size(type, &size);
  add(world, std::int64_t{count} * size, 1);
}

void Recorder::collective(CommState& state, Op op, int root, std::int64_t sent,
                          std::int64_t received) {
  if (state.inter) return;
  if (state.ordinal < 0) state.ordinal = ordinals_[state.members]++;
  const std::int32_t root_world = root >= 0 && static_cast<std::size_t>(root) < state.members.size()
                                      ? state.members[static_cast<std::size_t>(root)]
                                      : -1;
  if (!state.runs.empty()) {
    Run& last = state.runs.back();
    if (last.op == op && last.root == root_world && last.sent == sent &&
        last.received == received) {
      ++last.times;
      return;
    }
  }
  state.runs.push_back({op, root_world, sent, received, 1});
}

void Recorder::persistent(MPI_Request request, MPI_Comm comm, int dest, int count,
                          MPI_Datatype type) {
  Persistent entry;
  if (dest != MPI_PROC_NULL && dest >= 0) {
    const CommState& state = this->comm(comm);
    const auto& peers = state.inter ? state.remote : state.members;
    if (static_cast<std::size_t>(dest) < peers.size()) {
      entry.dest = peers[static_cast<std::size_t>(dest)];
    }
  }
  int size = 0;
  PMPI_Type_size(type, &size);
  entry.bytes = std::int64_t{count} * size;
  persistent_[request] = entry;
}

void Recorder::started(MPI_Request request) {
  const auto found = persistent_.find(request);
  if (found == persistent_.end() || found->second.dest < 0) return;
  add(found->second.dest, found->second.bytes, 1);
}

void Recorder::freed(MPI_Request request) {
  persistent_.erase(request);
}

// Layout: peers, then (dst, messages, bytes) per peer; communicators with calls, then per
// communicator: ordinal, range count, (first, last) per range, run count, (op, root, sent,
// received, times) per run.
std::vector<std::int64_t> Recorder::serialise() const {
  std::vector<std::int64_t> out;
  std::vector<std::pair<std::int32_t, PeerTraffic>> peers(peers_.begin(), peers_.end());
  std::sort(peers.begin(), peers.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  out.push_back(static_cast<std::int64_t>(peers.size()));
  for (const auto& [dst, traffic] : peers) {
    out.insert(out.end(), {dst, traffic.messages, traffic.bytes});
  }
  std::int64_t with_calls = 0;
  for (const auto& c : comms_) with_calls += c->runs.empty() ? 0 : 1;
  out.push_back(with_calls);
  for (const auto& c : comms_) {
    if (c->runs.empty()) continue;
    out.push_back(c->ordinal);
    const auto spans = ranges(c->members);
    out.push_back(static_cast<std::int64_t>(spans.size()));
    for (const auto& [first, last] : spans) out.insert(out.end(), {first, last});
    out.push_back(static_cast<std::int64_t>(c->runs.size()));
    for (const auto& run : c->runs) {
      out.insert(out.end(),
                 {static_cast<std::int64_t>(run.op), run.root, run.sent, run.received, run.times});
    }
  }
  return out;
}

void Recorder::finish() {
  if (!active_) return;
  active_ = false;
  MPI_Comm gather;
  PMPI_Comm_dup(MPI_COMM_WORLD, &gather);
  if (world_rank_ != 0) {
    const auto data = serialise();
    std::int64_t size = static_cast<std::int64_t>(data.size());
    PMPI_Send(&size, 1, MPI_INT64_T, 0, kTag, gather);
    for (std::int64_t first = 0; first < size; first += kChunk) {
      PMPI_Send(data.data() + first, static_cast<int>(std::min(kChunk, size - first)), MPI_INT64_T,
                0, kTag, gather);
    }
  } else {
    write(gather);
  }
  PMPI_Comm_free(&gather);
}

void Recorder::write(MPI_Comm gather) const {
  const char* env = std::getenv("MAPSIM_RECORD_OUT");
  const std::string path = env != nullptr && *env != '\0' ? env : "mapsim-matrix.csv";
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::FILE* out = std::fopen(temporary.c_str(), "w");
  if (out == nullptr) {
    warn("cannot write '" + temporary + "': " + std::strerror(errno));
  } else {
    std::fprintf(out, "# mapsim-record 1\n# ranks=%d\n", world_size_);
  }

  // Communicators by (ranges of members, ordinal), numbered as first met.
  std::map<std::pair<std::vector<std::int64_t>, std::int64_t>, int> ids;
  std::string rows;
  char line[128];
  for (int rank = 0; rank < world_size_; ++rank) {
    std::vector<std::int64_t> data;
    if (rank == 0) {
      data = serialise();
    } else {
      std::int64_t size = 0;
      PMPI_Recv(&size, 1, MPI_INT64_T, rank, kTag, gather, MPI_STATUS_IGNORE);
      data.resize(static_cast<std::size_t>(size));
      for (std::int64_t first = 0; first < size; first += kChunk) {
        PMPI_Recv(data.data() + first, static_cast<int>(std::min(kChunk, size - first)),
                  MPI_INT64_T, rank, kTag, gather, MPI_STATUS_IGNORE);
      }
    }
    if (out == nullptr) continue;  // still drain the messages
    std::size_t at = 0;
    const auto next = [&] { return data[at++]; };
    for (auto peers = next(); peers > 0; --peers) {
      const auto dst = next();
      const auto messages = next();
      const auto bytes = next();
      std::snprintf(line, sizeof line, "%d,%lld,%lld,%lld\n", rank, static_cast<long long>(dst),
                    static_cast<long long>(messages), static_cast<long long>(bytes));
      rows += line;
    }
    for (auto comms = next(); comms > 0; --comms) {
      const auto ordinal = next();
      std::vector<std::int64_t> spans(static_cast<std::size_t>(2 * next()));
      for (auto& v : spans) v = next();
      const auto [it, fresh] = ids.emplace(std::pair{spans, ordinal}, static_cast<int>(ids.size()));
      if (fresh) {
        std::fprintf(out, "# comm %d", it->second);
        for (std::size_t k = 0; k < spans.size(); k += 2) {
          if (spans[k] == spans[k + 1]) {
            std::fprintf(out, " %lld", static_cast<long long>(spans[k]));
          } else {
            std::fprintf(out, " %lld-%lld", static_cast<long long>(spans[k]),
                         static_cast<long long>(spans[k + 1]));
          }
        }
        std::fputc('\n', out);
      }
      std::fprintf(out, "# calls %d %d", it->second, rank);
      for (auto runs = next(); runs > 0; --runs) {
        const auto op = next();
        const auto root = next();
        const auto sent = next();
        const auto received = next();
        const auto times = next();
        std::fprintf(out, " %s:%lld:%lld:%lld", name(static_cast<Op>(op)),
                     static_cast<long long>(root), static_cast<long long>(sent),
                     static_cast<long long>(received));
        if (times != 1) std::fprintf(out, "*%lld", static_cast<long long>(times));
      }
      std::fputc('\n', out);
    }
  }
  if (out == nullptr) return;
  std::fprintf(out, "src,dst,messages,bytes\n");
  std::fputs(rows.c_str(), out);
  const bool failed = std::ferror(out) != 0;
  if (std::fclose(out) != 0 || failed) {
    warn("cannot write '" + temporary + "': " + std::strerror(errno));
    std::remove(temporary.c_str());
    return;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    warn("cannot rename '" + temporary + "' to '" + path + "': " + std::strerror(errno));
    std::remove(temporary.c_str());
  }
}

}  // namespace mapsim::record
