/* An all-to-all, by hand and by the library, on any number of ranks P: 3 rounds in which every
 * rank sends (rank + 1) x 8 bytes to every other rank (MPI_Isend / MPI_Irecv, MPI_Waitall), then
 * 2 MPI_Alltoall calls of 16 ints per peer. */
#include <mpi.h>
#include <stdlib.h>

enum { kRounds = 3, kAlltoalls = 2, kPerPeer = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* out = calloc((size_t)(rank + 1) * 8, 1);
  char* in = calloc((size_t)size * 8, (size_t)size);
  MPI_Request* requests = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
  for (int round = 0; round < kRounds; ++round) {
    int n = 0;
    for (int peer = 0; peer < size; ++peer) {
      if (peer == rank) continue;
      MPI_Irecv(in + (size_t)peer * 8 * (size_t)size, (peer + 1) * 8, MPI_BYTE, peer, round,
                MPI_COMM_WORLD, &requests[n++]);
      MPI_Isend(out, (rank + 1) * 8, MPI_BYTE, peer, round, MPI_COMM_WORLD, &requests[n++]);
    }
    MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  }
  int* send = calloc((size_t)kPerPeer * (size_t)size, sizeof(int));
  int* recv = calloc((size_t)kPerPeer * (size_t)size, sizeof(int));
  for (int k = 0; k < kAlltoalls; ++k) {
    MPI_Alltoall(send, kPerPeer, MPI_INT, recv, kPerPeer, MPI_INT, MPI_COMM_WORLD);
  }
  free(send);
  free(recv);
  free(requests);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
