#include "traces/MpiCallSink.hpp"

#include <algorithm>

#include "support/Error.hpp"

namespace mapsim::traces {

std::shared_ptr<const CommTable> make_comm_table(Rank ranks, std::vector<CommSpec> communicators) {
  MAPSIM_EXPECTS(ranks > 0, "a trace needs at least one rank");
  MAPSIM_EXPECTS(
      !communicators.empty() && communicators[0].members.size() == static_cast<std::size_t>(ranks),
      "communicator 0 must be MPI_COMM_WORLD with every rank");
  MAPSIM_EXPECTS(communicators.size() <= 65535, "too many communicators");
  for (Rank r = 0; r < ranks; ++r) {
    MAPSIM_EXPECTS(communicators[0].members[static_cast<std::size_t>(r)] == r,
                   "MPI_COMM_WORLD lists the ranks in order");
  }
  auto table = std::make_shared<CommTable>();
  table->ranks = ranks;
  table->comms = std::move(communicators);
  const auto& comms = table->comms;
  table->by_world.assign(comms.size(), {});
  for (std::size_t c = 0; c < comms.size(); ++c) {
    MAPSIM_EXPECTS(c == 0 ? comms[c].parent == -1
                          : comms[c].parent >= 0 && static_cast<std::size_t>(comms[c].parent) < c,
                   "a communicator's parent must be defined before it");
    auto& index = table->by_world[c];
    for (std::size_t local = 0; local < comms[c].members.size(); ++local) {
      const Rank member = comms[c].members[local];
      MAPSIM_EXPECTS(member >= 0 && member < ranks, "communicator member out of range");
      index.emplace_back(member, static_cast<Rank>(local));
    }
    std::sort(index.begin(), index.end());
    MAPSIM_EXPECTS(std::adjacent_find(index.begin(), index.end(),
                                      [](const auto& a, const auto& b) {
                                        return a.first == b.first;
                                      }) == index.end(),
                   "a rank is listed twice in a communicator");
  }
  return table;
}

Rank CommTable::local_rank(CommId comm, Rank world) const {
  MAPSIM_EXPECTS(comm < by_world.size(), "unknown communicator");
  if (comm == kWorld) return world >= 0 && world < ranks ? world : -1;
  const auto& index = by_world[comm];
  const auto it = std::lower_bound(index.begin(), index.end(), std::pair<Rank, Rank>(world, -1));
  return it != index.end() && it->first == world ? it->second : -1;
}

void MpiCallSink::begin_trace(Rank ranks, std::vector<CommSpec> communicators) {
  begin_trace(make_comm_table(ranks, std::move(communicators)));
}

void MpiCallSink::begin_trace(std::shared_ptr<const CommTable> table, RankOrder order) {
  MAPSIM_EXPECTS(!in_trace_ && next_rank_ == 0, "begin_trace called twice");
  MAPSIM_EXPECTS(table != nullptr, "begin_trace without communicators");
  table_ = std::move(table);
  order_ = order;
  if (order_ == RankOrder::Any) begun_.assign(static_cast<std::size_t>(table_->ranks), false);
  in_trace_ = true;
  on_begin_trace();
}

void MpiCallSink::begin_rank(Rank rank) {
  MAPSIM_EXPECTS(in_trace_ && rank_ < 0, "begin_rank outside a trace or inside another rank");
  if (order_ == RankOrder::All) {
    MAPSIM_EXPECTS(rank == next_rank_, "ranks must be generated in order 0, 1, 2, ...");
  } else {
    MAPSIM_EXPECTS(rank >= 0 && rank < table_->ranks, "begin_rank: rank out of range");
    MAPSIM_EXPECTS(!begun_[static_cast<std::size_t>(rank)], "a rank was generated twice");
    begun_[static_cast<std::size_t>(rank)] = true;
  }
  rank_ = rank;
  next_request_ = 0;
  on_begin_rank();
}

void MpiCallSink::end_rank() {
  check_in_rank("end_rank");
  MAPSIM_EXPECTS(pending_.empty(), "a rank ended with requests that were never completed");
  on_end_rank();
  rank_ = -1;
  ++next_rank_;
}

void MpiCallSink::end_trace() {
  MAPSIM_EXPECTS(
      in_trace_ && rank_ < 0 && (order_ == RankOrder::Any || next_rank_ == table_->ranks),
      "end_trace before every rank was generated");
  on_end_trace();
  in_trace_ = false;
}

void MpiCallSink::compute(std::int64_t ns) {
  check_in_rank("compute");
  MAPSIM_EXPECTS(ns >= 0, "negative compute time");
  if (ns > 0) on_compute(ns);
}

void MpiCallSink::init() {
  check_in_rank("init");
  on_handle(MpiFunction::Init, kWorld, kWorld);
}

void MpiCallSink::finalize() {
  check_in_rank("finalize");
  on_handle(MpiFunction::Finalize, kWorld, kWorld);
}

void MpiCallSink::comm_split(CommId parent, CommId created) {
  check_peer(rank_, parent);
  check_peer(rank_, created);
  MAPSIM_EXPECTS(communicators()[created].parent == parent,
                 "comm_split: wrong parent communicator");
  on_handle(MpiFunction::CommSplit, parent, created);
}

void MpiCallSink::comm_dup(CommId parent, CommId created) {
  check_peer(rank_, parent);
  check_peer(rank_, created);
  MAPSIM_EXPECTS(communicators()[created].parent == parent, "comm_dup: wrong parent communicator");
  MAPSIM_EXPECTS(communicators()[created].members == communicators()[parent].members,
                 "comm_dup: a duplicate has its parent's members");
  on_handle(MpiFunction::CommDup, parent, created);
}

void MpiCallSink::send(Rank to, std::int32_t tag, std::int64_t bytes, CommId comm) {
  check_peer(to, comm);
  MAPSIM_EXPECTS(bytes >= 0, "negative message size");
  on_send(true, to, tag, bytes, comm, 0);
}

void MpiCallSink::recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) {
  check_peer(from, comm);
  MAPSIM_EXPECTS(bytes >= 0, "negative message size");
  on_recv(from, tag, bytes, comm);
}

RequestId MpiCallSink::isend(Rank to, std::int32_t tag, std::int64_t bytes, CommId comm) {
  const auto request = post(false, to, tag, bytes, comm);
  on_send(false, to, tag, bytes, comm, request);
  return request;
}

RequestId MpiCallSink::irecv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) {
  const auto request = post(true, from, tag, bytes, comm);
  on_irecv(pending_.back());
  return request;
}

RequestId MpiCallSink::post(bool receive, Rank peer, std::int32_t tag, std::int64_t bytes,
                            CommId comm) {
  check_peer(peer, comm);
  MAPSIM_EXPECTS(bytes >= 0, "negative message size");
  const RequestId request = next_request_++;
  pending_.push_back({request, receive, peer, tag, bytes, comm});
  return request;
}

void MpiCallSink::wait(RequestId request) {
  complete(MpiFunction::Wait, std::span<const RequestId>(&request, 1));
}

void MpiCallSink::waitall(std::span<const RequestId> requests) {
  complete(MpiFunction::Waitall, requests);
}

void MpiCallSink::complete(MpiFunction function, std::span<const RequestId> requests) {
  check_in_rank("wait");
  MAPSIM_EXPECTS(!requests.empty(), "waiting on no request");
  completed_.clear();
  for (const RequestId request : requests) {
    const auto it = std::find_if(pending_.begin(), pending_.end(),
                                 [&](const Completion& c) { return c.request == request; });
    MAPSIM_EXPECTS(it != pending_.end(), "waiting on a request that is not pending");
    completed_.push_back(*it);
    pending_.erase(it);
  }
  on_wait(function, completed_);
}

void MpiCallSink::collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                             std::int64_t received) {
  check_peer(rank_, comm);
  MAPSIM_EXPECTS(op != CollectiveOp::None && op != CollectiveOp::CreateHandle &&
                     op != CollectiveOp::DestroyHandle && op != CollectiveOp::Other,
                 "collective(): use init/finalize/comm_split/comm_dup for handle operations");
  if (root >= 0) check_peer(root, comm);
  MAPSIM_EXPECTS(sent >= 0 && received >= 0, "negative collective size");
  on_collective(op, comm, root, sent, received);
}

void MpiCallSink::check_in_rank(const char* call) const {
  MAPSIM_EXPECTS(in_trace_ && rank_ >= 0, call);
}

Rank MpiCallSink::local_rank(CommId comm, Rank world) const {
  return table_->local_rank(comm, world);
}

void MpiCallSink::check_peer(Rank peer, CommId comm) const {
  check_in_rank("an MPI call outside begin_rank/end_rank");
  MAPSIM_EXPECTS(comm < table_->comms.size(), "unknown communicator");
  MAPSIM_EXPECTS(peer >= 0 && peer < table_->ranks, "peer rank out of range");
  MAPSIM_EXPECTS(local_rank(comm, rank_) >= 0 && local_rank(comm, peer) >= 0,
                 "a rank used a communicator it or its peer is not a member of");
}

}  // namespace mapsim::traces
