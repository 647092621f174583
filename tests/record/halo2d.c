/* A 2-D halo exchange on a 2 x 3 grid of ranks (row-major: rank = 3 row + col), not periodic:
 * each of 10 iterations sends 100 doubles to the west and east neighbours and 200 doubles to
 * the north and south ones (MPI_Sendrecv, MPI_PROC_NULL at the edges), then an MPI_Allreduce of
 * one double. Run with 6 ranks (tests/record/Record_test.cpp knows the pattern). */
#include <mpi.h>
#include <stdio.h>

enum { kRows = 2, kCols = 3, kIterations = 10, kEastWest = 100, kNorthSouth = 200 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != kRows * kCols) {
    if (rank == 0) fprintf(stderr, "halo2d: run with %d ranks\n", kRows * kCols);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int row = rank / kCols, col = rank % kCols;
  const int west = col > 0 ? rank - 1 : MPI_PROC_NULL;
  const int east = col < kCols - 1 ? rank + 1 : MPI_PROC_NULL;
  const int north = row > 0 ? rank - kCols : MPI_PROC_NULL;
  const int south = row < kRows - 1 ? rank + kCols : MPI_PROC_NULL;
  double out[kNorthSouth], in[kNorthSouth];
  for (int i = 0; i < kNorthSouth; ++i) out[i] = rank + i;
  double residual = 0;
  for (int it = 0; it < kIterations; ++it) {
    MPI_Sendrecv(out, kEastWest, MPI_DOUBLE, east, 0, in, kEastWest, MPI_DOUBLE, west, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(out, kEastWest, MPI_DOUBLE, west, 1, in, kEastWest, MPI_DOUBLE, east, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(out, kNorthSouth, MPI_DOUBLE, south, 2, in, kNorthSouth, MPI_DOUBLE, north, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(out, kNorthSouth, MPI_DOUBLE, north, 3, in, kNorthSouth, MPI_DOUBLE, south, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double local = in[0], global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    residual += global;
  }
  if (rank == 0) printf("halo2d: residual %g\n", residual);
  MPI_Finalize();
  return 0;
}
