// An OSU-style ping-pong for bench/calibration_loop.sh: rank 0 and rank 1 bounce a message of
// each size 0, 1, 2, ... up to 4 MiB in steps of about 1/8 (117 sizes: osu_latency's powers of
// two miss protocol switches between them, as IMB -msglen does not), four times, and rank 0 prints the one-way time (half the
// round trip) in osu_latency's layout (to 0.1 ns: OSU prints 10 ns, too coarse for the smallest
// messages of a simulated machine). Built with smpicc and run under SMPI as "the machine".
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long max = 1L << 22;
  char* buf = malloc(max);
  if (rank == 0) printf("# OSU MPI Latency Test v7.3\n# Size          Latency (us)\n");
  for (long n = 0; n <= max; n = n ? (n * 9 + 7) / 8 : 1) {
    const int iters = 4;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (rank == 0) {
        MPI_Send(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
    }
    double t = (MPI_Wtime() - t0) / (2.0 * iters);
    if (rank == 0) printf("%-24ld%.4f\n", n, t * 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
