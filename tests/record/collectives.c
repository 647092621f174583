/* Every collective the recorder knows, on 6 ranks, in this order (sizes in elements):
 *   on WORLD: Barrier; Bcast 100 doubles from 2; Reduce 10 ints to 1; 3 x Allreduce 1000 doubles
 *   (recursive doubling); Allreduce 2048 doubles (ring); Allgather 4 ints; Alltoall 8 ints per
 *   peer; Gather 5 ints to 0; Scatter 3 ints from 4; Reduce_scatter_block 2 doubles; Scan and
 *   Exscan 1 int; Ibcast 16 chars from 0; Iallreduce 8 doubles; Alltoallv (rank r sends j + 1
 *   ints to j); Gatherv to 3 (rank r sends r + 1 ints); Allgatherv (r + 1 ints); Scatterv from 0
 *   (j + 2 ints to j); Reduce_scatter (j + 1 doubles to j); Ibarrier;
 *   MPI_Comm_split(WORLD, rank % 2, -rank): two communicators of 3 ranks in reverse order
 *   ({4, 2, 0} and {5, 3, 1}); on each: Allreduce 4 doubles, Bcast 10 ints from its rank 0, and a
 *   ring where its rank i sends 7 ints to its rank i + 1 (MPI_Send, translated to world ranks);
 *   MPI_Comm_free.
 * tests/record/Record_test.cpp builds the same calls with TraceBuilder. */
#include <mpi.h>
#include <stdlib.h>

static void* zeros(size_t bytes) {
  return calloc(bytes > 0 ? bytes : 1, 1);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double* d = zeros(sizeof(double) * 4096);
  double* e = zeros(sizeof(double) * 4096);
  int* a = zeros(sizeof(int) * 1024);
  int* b = zeros(sizeof(int) * 1024);
  MPI_Request request;

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(d, 100, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  MPI_Reduce(a, b, 10, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
  for (int k = 0; k < 3; ++k) MPI_Allreduce(d, e, 1000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(d, e, 2048, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allgather(a, 4, MPI_INT, b, 4, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(a, 8, MPI_INT, b, 8, MPI_INT, MPI_COMM_WORLD);
  MPI_Gather(a, 5, MPI_INT, b, 5, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(a, 3, MPI_INT, b, 3, MPI_INT, 4, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(d, e, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Ibcast(a, 16, MPI_CHAR, 0, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Iallreduce(d, e, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);

  int* counts = zeros(sizeof(int) * (size_t)p);
  int* other = zeros(sizeof(int) * (size_t)p);
  int* displs = zeros(sizeof(int) * (size_t)p);
  int* rdispls = zeros(sizeof(int) * (size_t)p);
  for (int j = 0, at = 0, rat = 0; j < p; ++j) {
    counts[j] = j + 1;
    other[j] = rank + 1;
    displs[j] = at;
    rdispls[j] = rat;
    at += j + 2;
    rat += rank + 1;
  }
  MPI_Alltoallv(a, counts, displs, MPI_INT, b, other, rdispls, MPI_INT, MPI_COMM_WORLD);
  MPI_Gatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, 3, MPI_COMM_WORLD);
  MPI_Allgatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < p; ++j) other[j] = j + 2;
  MPI_Scatterv(a, other, displs, MPI_INT, b, rank + 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Reduce_scatter(d, e, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int me, n;
  MPI_Comm_rank(half, &me);
  MPI_Comm_size(half, &n);
  MPI_Allreduce(d, e, 4, MPI_DOUBLE, MPI_SUM, half);
  MPI_Bcast(a, 10, MPI_INT, 0, half);
  if (me == 0) {
    MPI_Send(a, 7, MPI_INT, 1, 9, half);
    MPI_Recv(b, 7, MPI_INT, n - 1, 9, half, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b, 7, MPI_INT, me - 1, 9, half, MPI_STATUS_IGNORE);
    MPI_Send(a, 7, MPI_INT, (me + 1) % n, 9, half);
  }
  MPI_Comm_free(&half);

  free(rdispls);
  free(displs);
  free(other);
  free(counts);
  free(b);
  free(a);
  free(e);
  free(d);
  MPI_Finalize();
  return 0;
}
