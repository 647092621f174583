/* The time per MPI call of a few small operations, for bench/record_overhead.sh to compare with
 * and without libmapsim-record preloaded. Run on 2 ranks; prints "name ns-per-call" on rank 0.
 *   send       MPI_Send of 8 B to rank 1 (which receives), ping-pong free: one way, a barrier
 *              every 1,000 messages keeps the eager queue short
 *   isend      MPI_Isend + MPI_Wait of 8 B to rank 1
 *   proc-null  MPI_Send to MPI_PROC_NULL: the call and its interception alone, no message
 *   allreduce  MPI_Allreduce of one double
 * Usage: record_overhead [CALLS] (default 100000). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double per_call(double seconds, long calls) {
  return seconds * 1e9 / (double)calls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long calls = argc > 1 ? atol(argv[1]) : 100000;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double value = 1, sum = 0;
  const int peer = 1 - rank;

  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (long k = 0; k < calls; ++k) {
    if (rank == 0) {
      MPI_Send(&value, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    } else {
      MPI_Recv(&sum, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (k % 1000 == 999) MPI_Barrier(MPI_COMM_WORLD);
  }
  const double send = MPI_Wtime() - start;

  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  for (long k = 0; k < calls; ++k) {
    MPI_Request request;
    if (rank == 0) {
      MPI_Isend(&value, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &request);
    } else {
      MPI_Irecv(&sum, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &request);
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (k % 1000 == 999) MPI_Barrier(MPI_COMM_WORLD);
  }
  const double isend = MPI_Wtime() - start;

  start = MPI_Wtime();
  for (long k = 0; k < calls; ++k)
    MPI_Send(&value, 1, MPI_DOUBLE, MPI_PROC_NULL, 2, MPI_COMM_WORLD);
  const double proc_null = MPI_Wtime() - start;

  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  for (long k = 0; k < calls; ++k)
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double allreduce = MPI_Wtime() - start;

  if (rank == 0) {
    printf("send %.1f\nisend %.1f\nproc-null %.1f\nallreduce %.1f\n", per_call(send, calls),
           per_call(isend, calls), per_call(proc_null, calls), per_call(allreduce, calls));
  }
  MPI_Finalize();
  return 0;
}
