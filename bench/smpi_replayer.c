/* An MPI program that replays a trace exported by `mapsim export --format simgrid-ti
 * --native-collectives`, for bench/smpi_collectives.sh: compiled with smpicc and run by smpirun,
 * it makes SMPI run each collective as its own MPI collective, so that SMPI's collective selector
 * (e.g. --cfg=smpi/coll-selector:ompi) picks the algorithm, on the communicators the trace used.
 * SMPI's own trace replay (smpirun -replay) cannot: its collectives act only on MPI_COMM_WORLD.
 *
 *   smpirun ... smpi_replayer DIR
 *
 * DIR holds communicators.txt ("ID P m0 .. m(P-1)": every communicator of the trace, its world
 * ranks in communicator-rank order) and rank-R.txt, one action per line:
 *   R send|isend DST TAG BYTES      R recv|irecv SRC TAG BYTES      R wait SRC DST TAG
 *   R coll OP COMM ROOT B0 .. B(P-1)    (ROOT a communicator rank or -1; Bi member i's payload,
 *                                        as traces/CollectiveSchedule.hpp derives it)
 *   R init, R finalize, R compute F     (compute is ignored: the export is communication only)
 * Every count is passed as MPI_BYTE counts, as SMPI's own replay does; reductions use MPI_BOR.
 * All ranks start replaying at one simulated instant (after the communicators are made, they
 * sleep until a common time); rank 0 prints "smpi_replayer: makespan S" with S the simulated
 * seconds from that start to the last rank's last action. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void fail(const char* what, const char* where) {
  fprintf(stderr, "smpi_replayer: %s: %s\n", where, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

typedef struct {
  int src, dst;
  long tag;
  MPI_Request request;
} Pending;

typedef struct {
  MPI_Comm comm;
  int size;
} Comm;

static char* read_file(const char* path, long* length) {
  FILE* f = fopen(path, "rb");
  if (!f) fail("cannot open", path);
  fseek(f, 0, SEEK_END);
  *length = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t)*length + 1);
  if (fread(text, 1, (size_t)*length, f) != (size_t)*length) fail("cannot read", path);
  text[*length] = '\0';
  fclose(f);
  return text;
}

/* Makes every communicator of DIR/communicators.txt (all ranks call this in the same order). */
static Comm* make_communicators(const char* dir, int world_size, int* count) {
  char path[4096];
  snprintf(path, sizeof path, "%s/communicators.txt", dir);
  long length = 0;
  char* text = read_file(path, &length);
  int capacity = 16;
  Comm* comms = calloc((size_t)capacity, sizeof(Comm));
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  *count = 0;
  char* state = NULL;
  for (char* line = strtok_r(text, "\n", &state); line; line = strtok_r(NULL, "\n", &state)) {
    char* p = line;
    const long id = strtol(p, &p, 10);
    const long size = strtol(p, &p, 10);
    if (id != *count || size < 0)
      fail("communicators must be listed as ID P members, in order", path);
    if (*count == capacity) {
      capacity *= 2;
      comms = realloc(comms, (size_t)capacity * sizeof(Comm));
    }
    int position = -1, is_world = size == world_size;
    for (long i = 0; i < size; ++i) {
      const long member = strtol(p, &p, 10);
      if (member == me) position = (int)i;
      if (member != i) is_world = 0;
    }
    Comm* c = &comms[(*count)++];
    c->size = (int)size;
    if (is_world) {
      c->comm = MPI_COMM_WORLD;
    } else {
      MPI_Comm_split(MPI_COMM_WORLD, position >= 0 ? 0 : MPI_UNDEFINED, position, &c->comm);
    }
  }
  free(text);
  return comms;
}

static void collective(const char* op, const Comm* c, int root, const long* b, char* send,
                       char* recv, const char* where) {
  MPI_Comm comm = c->comm;
  if (comm == MPI_COMM_NULL) fail("a collective on a communicator the rank is not in", where);
  int me = 0, p = c->size;
  MPI_Comm_rank(comm, &me);
  int* counts = malloc(sizeof(int) * (size_t)p * 2);
  int* displs = counts + p;
  const int mine = (int)b[me];
  if (!strcmp(op, "barrier")) {
    MPI_Barrier(comm);
  } else if (!strcmp(op, "bcast")) {
    MPI_Bcast(send, (int)b[root], MPI_BYTE, root, comm);
  } else if (!strcmp(op, "reduce")) {
    MPI_Reduce(send, recv, mine, MPI_BYTE, MPI_BOR, root, comm);
  } else if (!strcmp(op, "allreduce")) {
    MPI_Allreduce(send, recv, mine, MPI_BYTE, MPI_BOR, comm);
  } else if (!strcmp(op, "scan")) {
    MPI_Scan(send, recv, mine, MPI_BYTE, MPI_BOR, comm);
  } else if (!strcmp(op, "exscan")) {
    MPI_Exscan(send, recv, mine, MPI_BYTE, MPI_BOR, comm);
  } else if (!strcmp(op, "allgather")) {
    MPI_Allgather(send, mine, MPI_BYTE, recv, mine, MPI_BYTE, comm);
  } else if (!strcmp(op, "alltoall")) {
    MPI_Alltoall(send, mine, MPI_BYTE, recv, mine, MPI_BYTE, comm);
  } else if (!strcmp(op, "gather")) {
    MPI_Gather(send, mine, MPI_BYTE, recv, mine, MPI_BYTE, root, comm);
  } else if (!strcmp(op, "scatter")) {
    MPI_Scatter(send, (int)b[root], MPI_BYTE, recv, (int)b[root], MPI_BYTE, root, comm);
  } else {
    long offset = 0;
    for (int i = 0; i < p; ++i) {
      counts[i] = (int)b[i];
      displs[i] = (int)offset;
      offset += b[i];
    }
    if (!strcmp(op, "allgatherv")) {
      MPI_Allgatherv(send, mine, MPI_BYTE, recv, counts, displs, MPI_BYTE, comm);
    } else if (!strcmp(op, "gatherv")) {
      MPI_Gatherv(send, mine, MPI_BYTE, recv, counts, displs, MPI_BYTE, root, comm);
    } else if (!strcmp(op, "scatterv")) {
      MPI_Scatterv(send, counts, displs, MPI_BYTE, recv, mine, MPI_BYTE, root, comm);
    } else if (!strcmp(op, "alltoallv")) {
      /* a member's total spread evenly over its peers: it sends b[me] to each, receives b[i] */
      int* sends = malloc(sizeof(int) * (size_t)p * 2);
      int* sdispls = sends + p;
      for (int i = 0; i < p; ++i) {
        sends[i] = mine;
        sdispls[i] = i * mine;
      }
      MPI_Alltoallv(send, sends, sdispls, MPI_BYTE, recv, counts, displs, MPI_BYTE, comm);
      free(sends);
    } else if (!strcmp(op, "reduce_scatter")) {
      /* b[i]: the whole vector; member i keeps its block of it, as Open MPI splits counts */
      for (int i = 0; i < p; ++i) counts[i] = (int)(b[me] / p + (i < b[me] % p));
      MPI_Reduce_scatter(send, recv, counts, MPI_BYTE, MPI_BOR, comm);
    } else {
      fail("unknown collective", where);
    }
  }
  free(counts);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 2) fail("usage: smpi_replayer DIR", "arguments");
  int comm_count = 0;
  Comm* comms = make_communicators(argv[1], n, &comm_count);

  char path[4096];
  snprintf(path, sizeof path, "%s/rank-%d.txt", argv[1], me);
  long length = 0;
  char* text = read_file(path, &length);
  /* The largest buffer any action needs: a message, or P times a collective's largest payload. */
  long largest = 1;
  long* payload = malloc(sizeof(long) * (size_t)(n + 1));
  for (char* line = text; line < text + length;) {
    char* end = strchr(line, '\n');
    if (!end) end = text + length;
    char action[32], op[32];
    long a = 0, b = 0, c = 0;
    int comm = 0, root = 0, consumed = 0;
    if (sscanf(line, "%*d %31s %ld %ld %ld", action, &a, &b, &c) == 4 &&
        (strstr(action, "send") || strstr(action, "recv"))) {
      if (c > largest) largest = c;
    } else if (sscanf(line, "%*d coll %31s %d %d%n", op, &comm, &root, &consumed) == 3) {
      if (comm < 0 || comm >= comm_count) fail("a collective on an unknown communicator", path);
      {
        const long size = comms[comm].size;
        char* p = line + consumed;
        long total = 0, most = 0;
        for (long i = 0; i < size; ++i) {
          const long v = strtol(p, &p, 10);
          total += v;
          if (v > most) most = v;
        }
        if (total > largest) largest = total;
        if (most * size > largest) largest = most * size;
      }
    }
    line = end + 1;
  }
  char* send = calloc((size_t)largest, 1);
  char* recv = calloc((size_t)largest, 1);

  /* Start together: the latest clock after making the communicators, plus a millisecond. */
  double now = MPI_Wtime(), start = 0;
  MPI_Allreduce(&now, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  start += 1e-3;
  const double pause = start - MPI_Wtime();
  struct timespec ts = {(time_t)floor(pause), (long)((pause - floor(pause)) * 1e9)};
  nanosleep(&ts, NULL);
  start = MPI_Wtime();

  int pending_count = 0, pending_capacity = 64;
  Pending* pending = malloc(sizeof(Pending) * (size_t)pending_capacity);
  long line_number = 0;
  char* state = NULL; /* strtok_r: the ranks are threads of one process */
  for (char* line = strtok_r(text, "\n", &state); line; line = strtok_r(NULL, "\n", &state)) {
    ++line_number;
    char where[4200];
    snprintf(where, sizeof where, "%s:%ld", path, line_number);
    char action[32];
    long a = 0, b = 0, c = 0;
    const int fields = sscanf(line, "%*d %31s %ld %ld %ld", action, &a, &b, &c);
    if (fields < 1) fail("not an action", where);
    if (!strcmp(action, "send")) {
      MPI_Send(send, (int)c, MPI_BYTE, (int)a, (int)b, MPI_COMM_WORLD);
    } else if (!strcmp(action, "recv")) {
      MPI_Recv(recv, (int)c, MPI_BYTE, (int)a, (int)b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(action, "isend") || !strcmp(action, "irecv")) {
      if (pending_count == pending_capacity) {
        pending_capacity *= 2;
        pending = realloc(pending, sizeof(Pending) * (size_t)pending_capacity);
      }
      Pending* q = &pending[pending_count++];
      q->tag = b;
      if (action[1] == 's') {
        q->src = me;
        q->dst = (int)a;
        MPI_Isend(send, (int)c, MPI_BYTE, (int)a, (int)b, MPI_COMM_WORLD, &q->request);
      } else {
        q->src = (int)a;
        q->dst = me;
        MPI_Irecv(recv, (int)c, MPI_BYTE, (int)a, (int)b, MPI_COMM_WORLD, &q->request);
      }
    } else if (!strcmp(action, "wait")) {
      int found = -1;
      for (int i = 0; i < pending_count && found < 0; ++i)
        if (pending[i].src == a && pending[i].dst == b && pending[i].tag == c) found = i;
      if (found < 0) fail("a wait for no pending request", where);
      MPI_Wait(&pending[found].request, MPI_STATUS_IGNORE);
      pending[found] = pending[--pending_count];
    } else if (!strcmp(action, "coll")) {
      char op[32];
      int comm = 0, root = 0, consumed = 0;
      if (sscanf(line, "%*d coll %31s %d %d%n", op, &comm, &root, &consumed) != 3 || comm < 0 ||
          comm >= comm_count)
        fail("a collective needs OP COMM ROOT payloads", where);
      char* p = line + consumed;
      for (int i = 0; i < comms[comm].size; ++i) payload[i] = strtol(p, &p, 10);
      collective(op, &comms[comm], root, payload, send, recv, where);
    } else if (strcmp(action, "init") && strcmp(action, "finalize") && strcmp(action, "compute")) {
      fail("unknown action", where);
    }
  }
  const double end = MPI_Wtime();
  double last = 0;
  MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me == 0) printf("smpi_replayer: makespan %.12g s\n", last - start);
  free(send);
  free(recv);
  free(pending);
  free(payload);
  free(text);
  free(comms);
  MPI_Finalize();
  return 0;
}
