// The MPI functions libmapsim-record intercepts: each calls its PMPI_ twin, and if that succeeds
// counts the call (Recorder.hpp). Collective sizes follow Score-P's accounting, which mapsim's
// CollectiveSchedule reads (b the payload, P the communicator size, me this rank):
//   Bcast            root sent P b, received b; others 0 / b
//   Reduce           each sent b; the root received P b
//   Allreduce        P b / P b
//   Gather(v)        each sent its block; the root received all blocks
//   Scatter(v)       the root sent all blocks; each received its block
//   Allgather(v)     sent P x own block / received all blocks
//   Alltoall(v,w)    sent / received the sums of the send and receive counts
//   Reduce_scatter(_block)  sent the whole vector, received its own block
//   Scan             sent (P - me) b, received (me + 1) b; Exscan (P - me - 1) b / me b
//   Barrier, create-handle  0 / 0 (MPI_Init on WORLD; communicator creation on the parent)
// MPI_IN_PLACE takes the size from the receive side. Non-blocking forms count as their blocking
// twins, when they are started.

#include <cstdint>
#include <mpi.h>

#include "record/Recorder.hpp"

namespace {

using mapsim::record::CommState;
using mapsim::record::Op;
using mapsim::record::Recorder;

std::int64_t bytes(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return std::int64_t{count} * size;
}

std::int64_t sum(const int counts[], int n, MPI_Datatype type) {
  if (counts == nullptr) return 0;
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) total += counts[i];
  return total * bytes(1, type);
}

std::int64_t sum(const int counts[], int n, const MPI_Datatype types[]) {
  if (counts == nullptr || types == nullptr) return 0;
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) total += bytes(counts[i], types[i]);
  return total;
}

bool in_place(const void* buffer) {
  return buffer == MPI_IN_PLACE;
}

// Runs `record(recorder, communicator state, P)` under the recorder's lock if it is recording.
template <class F>
void collective(int rc, MPI_Comm comm, F&& record) {
  if (rc != MPI_SUCCESS) return;
  Recorder& recorder = Recorder::instance();
  if (!recorder.active() || comm == MPI_COMM_NULL) return;
  const auto lock = recorder.lock();
  CommState& state = recorder.comm(comm);
  record(recorder, state, static_cast<std::int64_t>(state.members.size()));
}

void send(int rc, MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  if (rc != MPI_SUCCESS) return;
  Recorder& recorder = Recorder::instance();
  if (!recorder.active()) return;
  const auto lock = recorder.lock();
  recorder.send(comm, dest, count, type);
}

void persistent(int rc, MPI_Comm comm, int dest, int count, MPI_Datatype type,
                MPI_Request* request) {
  if (rc != MPI_SUCCESS) return;
  Recorder& recorder = Recorder::instance();
  if (!recorder.active()) return;
  const auto lock = recorder.lock();
  recorder.persistent(*request, comm, dest, count, type);
}

void create_handle(int rc, MPI_Comm parent) {
  collective(rc, parent, [&](Recorder& r, CommState& s, std::int64_t) {
    r.collective(s, Op::CreateHandle, -1, 0, 0);
  });
}

// The accounting of each collective, shared by its blocking and non-blocking forms.

void bcast(int rc, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto b = bytes(count, type);
    r.collective(s, Op::Bcast, root, s.me == root ? p * b : 0, b);
  });
}

void reduce(int rc, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto b = bytes(count, type);
    r.collective(s, Op::Reduce, root, b, s.me == root ? p * b : 0);
  });
}

void allreduce(int rc, int count, MPI_Datatype type, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto b = bytes(count, type);
    r.collective(s, Op::Allreduce, -1, p * b, p * b);
  });
}

void gather(int rc, Op op, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            const int recvcounts[], int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const bool is_root = s.me == root;
    std::int64_t sent = bytes(sendcount, sendtype);
    std::int64_t received = 0;
    if (is_root) {
      const bool v = op == Op::Gatherv;
      received =
          v ? sum(recvcounts, static_cast<int>(p), recvtype) : p * bytes(recvcount, recvtype);
      if (in_place(sendbuf)) {
        sent = v ? (recvcounts != nullptr ? bytes(recvcounts[s.me], recvtype) : 0)
                 : bytes(recvcount, recvtype);
      }
    }
    r.collective(s, op, root, sent, received);
  });
}

void scatter(int rc, Op op, const int sendcounts[], int sendcount, MPI_Datatype sendtype,
             const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const bool is_root = s.me == root;
    const bool v = op == Op::Scatterv;
    std::int64_t sent = 0;
    std::int64_t received = bytes(recvcount, recvtype);
    if (is_root) {
      sent = v ? sum(sendcounts, static_cast<int>(p), sendtype) : p * bytes(sendcount, sendtype);
      if (in_place(recvbuf)) {
        received = v ? (sendcounts != nullptr ? bytes(sendcounts[s.me], sendtype) : 0)
                     : bytes(sendcount, sendtype);
      }
    }
    r.collective(s, op, root, sent, received);
  });
}

void allgather(int rc, Op op, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               const int recvcounts[], int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const bool v = op == Op::Allgatherv;
    std::int64_t own = bytes(sendcount, sendtype);
    if (in_place(sendbuf)) {
      own = v ? (recvcounts != nullptr ? bytes(recvcounts[s.me], recvtype) : 0)
              : bytes(recvcount, recvtype);
    }
    const auto received =
        v ? sum(recvcounts, static_cast<int>(p), recvtype) : p * bytes(recvcount, recvtype);
    r.collective(s, op, -1, p * own, received);
  });
}

void alltoall(int rc, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto received = p * bytes(recvcount, recvtype);
    const auto sent = in_place(sendbuf) ? received : p * bytes(sendcount, sendtype);
    r.collective(s, Op::Alltoall, -1, sent, received);
  });
}

void alltoallv(int rc, const void* sendbuf, const int sendcounts[], MPI_Datatype sendtype,
               const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto received = sum(recvcounts, static_cast<int>(p), recvtype);
    const auto sent = in_place(sendbuf) ? received : sum(sendcounts, static_cast<int>(p), sendtype);
    r.collective(s, Op::Alltoallv, -1, sent, received);
  });
}

void alltoallw(int rc, const void* sendbuf, const int sendcounts[], const MPI_Datatype sendtypes[],
               const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto received = sum(recvcounts, static_cast<int>(p), recvtypes);
    const auto sent =
        in_place(sendbuf) ? received : sum(sendcounts, static_cast<int>(p), sendtypes);
    r.collective(s, Op::Alltoallw, -1, sent, received);
  });
}

void reduce_scatter(int rc, const int recvcounts[], MPI_Datatype type, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto received = recvcounts != nullptr ? bytes(recvcounts[s.me], type) : 0;
    r.collective(s, Op::ReduceScatter, -1, sum(recvcounts, static_cast<int>(p), type), received);
  });
}

void reduce_scatter_block(int rc, int recvcount, MPI_Datatype type, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto b = bytes(recvcount, type);
    r.collective(s, Op::ReduceScatterBlock, -1, p * b, b);
  });
}

void scan(int rc, Op op, int count, MPI_Datatype type, MPI_Comm comm) {
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t p) {
    const auto b = bytes(count, type);
    const std::int64_t me = s.me;
    if (op == Op::Scan) {
      r.collective(s, op, -1, (p - me) * b, (me + 1) * b);
    } else {
      r.collective(s, op, -1, (p - me - 1) * b, me * b);
    }
  });
}

}  // namespace

extern "C" {

// Start and end.

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    Recorder::instance().start(MPI_THREAD_SINGLE);
    create_handle(rc, MPI_COMM_WORLD);
  }
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) {
    Recorder::instance().start(*provided);
    create_handle(rc, MPI_COMM_WORLD);
  }
  return rc;
}

int MPI_Finalize() {
  {
    Recorder& recorder = Recorder::instance();
    const auto lock = recorder.lock();
    recorder.finish();
  }
  return PMPI_Finalize();
}

// Point to point.

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  const int rc = PMPI_Send(buf, count, datatype, dest, tag, comm);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  const int rc = PMPI_Ssend(buf, count, datatype, dest, tag, comm);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  const int rc = PMPI_Bsend(buf, count, datatype, dest, tag, comm);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  const int rc = PMPI_Rsend(buf, count, datatype, dest, tag, comm);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  const int rc = PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  const int rc = PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  const int rc = PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  const int rc = PMPI_Irsend(buf, count, datatype, dest, tag, comm, request);
  send(rc, comm, dest, count, datatype);
  return rc;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  const int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                               recvtype, source, recvtag, comm, status);
  send(rc, comm, dest, sendcount, sendtype);
  return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const int rc =
      PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  send(rc, comm, dest, count, datatype);
  return rc;
}

// Persistent sends: counted at each start.

int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Send_init(buf, count, datatype, dest, tag, comm, request);
  persistent(rc, comm, dest, count, datatype, request);
  return rc;
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request);
  persistent(rc, comm, dest, count, datatype, request);
  return rc;
}

int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Bsend_init(buf, count, datatype, dest, tag, comm, request);
  persistent(rc, comm, dest, count, datatype, request);
  return rc;
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request);
  persistent(rc, comm, dest, count, datatype, request);
  return rc;
}

int MPI_Start(MPI_Request* request) {
  const MPI_Request started = *request;
  const int rc = PMPI_Start(request);
  Recorder& recorder = Recorder::instance();
  if (rc == MPI_SUCCESS && recorder.active()) {
    const auto lock = recorder.lock();
    recorder.started(started);
  }
  return rc;
}

int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  const int rc = PMPI_Startall(count, array_of_requests);
  Recorder& recorder = Recorder::instance();
  if (rc == MPI_SUCCESS && recorder.active()) {
    const auto lock = recorder.lock();
    for (int i = 0; i < count; ++i) recorder.started(array_of_requests[i]);
  }
  return rc;
}

int MPI_Request_free(MPI_Request* request) {
  const MPI_Request freed = *request;
  const int rc = PMPI_Request_free(request);
  Recorder& recorder = Recorder::instance();
  if (rc == MPI_SUCCESS && recorder.active()) {
    const auto lock = recorder.lock();
    recorder.freed(freed);
  }
  return rc;
}

// Communicators: creation is a create-handle call on the parent; freeing drops the cache entry.

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  const int rc = PMPI_Comm_dup(comm, newcomm);
  create_handle(rc, comm);
  return rc;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  const int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
  create_handle(rc, comm);
  return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  const int rc = PMPI_Comm_split(comm, color, key, newcomm);
  create_handle(rc, comm);
  return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  const int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  create_handle(rc, comm);
  return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  const int rc = PMPI_Comm_create(comm, group, newcomm);
  create_handle(rc, comm);
  return rc;
}

int MPI_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm* comm_cart) {
  const int rc = PMPI_Cart_create(old_comm, ndims, dims, periods, reorder, comm_cart);
  create_handle(rc, old_comm);
  return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* new_comm) {
  const int rc = PMPI_Cart_sub(comm, remain_dims, new_comm);
  create_handle(rc, comm);
  return rc;
}

int MPI_Comm_free(MPI_Comm* comm) {
  const MPI_Comm freed = *comm;
  const int rc = PMPI_Comm_free(comm);
  Recorder& recorder = Recorder::instance();
  if (rc == MPI_SUCCESS && recorder.active()) {
    const auto lock = recorder.lock();
    recorder.forget(freed);
  }
  return rc;
}

int MPI_Comm_disconnect(MPI_Comm* comm) {
  const MPI_Comm freed = *comm;
  const int rc = PMPI_Comm_disconnect(comm);
  Recorder& recorder = Recorder::instance();
  if (rc == MPI_SUCCESS && recorder.active()) {
    const auto lock = recorder.lock();
    recorder.forget(freed);
  }
  return rc;
}

// Collectives, blocking then non-blocking.

int MPI_Barrier(MPI_Comm comm) {
  const int rc = PMPI_Barrier(comm);
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t) {
    r.collective(s, Op::Barrier, -1, 0, 0);
  });
  return rc;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Ibarrier(comm, request);
  collective(rc, comm, [&](Recorder& r, CommState& s, std::int64_t) {
    r.collective(s, Op::Barrier, -1, 0, 0);
  });
  return rc;
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const int rc = PMPI_Bcast(buffer, count, datatype, root, comm);
  bcast(rc, count, datatype, root, comm);
  return rc;
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request* request) {
  const int rc = PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  bcast(rc, count, datatype, root, comm);
  return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  const int rc = PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  reduce(rc, count, datatype, root, comm);
  return rc;
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
  reduce(rc, count, datatype, root, comm);
  return rc;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  const int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  allreduce(rc, count, datatype, comm);
  return rc;
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
  allreduce(rc, count, datatype, comm);
  return rc;
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const int rc =
      PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  gather(rc, Op::Gather, sendbuf, sendcount, sendtype, nullptr, recvcount, recvtype, root, comm);
  return rc;
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request) {
  const int rc =
      PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  gather(rc, Op::Gather, sendbuf, sendcount, sendtype, nullptr, recvcount, recvtype, root, comm);
  return rc;
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  const int rc =
      PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  gather(rc, Op::Gatherv, sendbuf, sendcount, sendtype, recvcounts, 0, recvtype, root, comm);
  return rc;
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               root, comm, request);
  gather(rc, Op::Gatherv, sendbuf, sendcount, sendtype, recvcounts, 0, recvtype, root, comm);
  return rc;
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const int rc =
      PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  scatter(rc, Op::Scatter, nullptr, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return rc;
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  const int rc = PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, request);
  scatter(rc, Op::Scatter, nullptr, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return rc;
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  const int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                               root, comm);
  scatter(rc, Op::Scatterv, sendcounts, 0, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return rc;
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                                root, comm, request);
  scatter(rc, Op::Scatterv, sendcounts, 0, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return rc;
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  allgather(rc, Op::Allgather, sendbuf, sendcount, sendtype, nullptr, recvcount, recvtype, comm);
  return rc;
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const int rc =
      PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  allgather(rc, Op::Allgather, sendbuf, sendcount, sendtype, nullptr, recvcount, recvtype, comm);
  return rc;
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  const int rc =
      PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  allgather(rc, Op::Allgatherv, sendbuf, sendcount, sendtype, recvcounts, 0, recvtype, comm);
  return rc;
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm, request);
  allgather(rc, Op::Allgatherv, sendbuf, sendcount, sendtype, recvcounts, 0, recvtype, comm);
  return rc;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  alltoall(rc, sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
  return rc;
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const int rc =
      PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  alltoall(rc, sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
  return rc;
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                rdispls, recvtype, comm);
  alltoallv(rc, sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm);
  return rc;
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  const int rc = PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm, request);
  alltoallv(rc, sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm);
  return rc;
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const int rc = PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                rdispls, recvtypes, comm);
  alltoallw(rc, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm);
  return rc;
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* request) {
  const int rc = PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, comm, request);
  alltoallw(rc, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm);
  return rc;
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  reduce_scatter(rc, recvcounts, datatype, comm);
  return rc;
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
  reduce_scatter(rc, recvcounts, datatype, comm);
  return rc;
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  reduce_scatter_block(rc, recvcount, datatype, comm);
  return rc;
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  const int rc =
      PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
  reduce_scatter_block(rc, recvcount, datatype, comm);
  return rc;
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  const int rc = PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  scan(rc, Op::Scan, count, datatype, comm);
  return rc;
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  scan(rc, Op::Scan, count, datatype, comm);
  return rc;
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  const int rc = PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
  scan(rc, Op::Exscan, count, datatype, comm);
  return rc;
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* request) {
  const int rc = PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  scan(rc, Op::Exscan, count, datatype, comm);
  return rc;
}

}  // extern "C"
