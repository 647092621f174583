/* A pipeline on any number of ranks P: rank i sends to rank i + 1 50 messages of 1000 bytes
 * (MPI_Send), then 20 of 500 bytes through a persistent request (MPI_Send_init, MPI_Start), then
 * 5 of 64 bytes with MPI_Ssend; the last rank sends nothing. Rank 0 finally broadcasts 10 ints. */
#include <mpi.h>

enum {
  kPlain = 50,
  kPlainBytes = 1000,
  kPersistent = 20,
  kPersistentBytes = 500,
  kSync = 5,
  kSyncBytes = 64
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char buffer[kPlainBytes] = {0};
  const int next = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  const int previous = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  for (int k = 0; k < kPlain; ++k) {
    MPI_Recv(buffer, kPlainBytes, MPI_CHAR, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buffer, kPlainBytes, MPI_CHAR, next, 0, MPI_COMM_WORLD);
  }
  MPI_Request request;
  MPI_Send_init(buffer, kPersistentBytes, MPI_CHAR, next, 1, MPI_COMM_WORLD, &request);
  for (int k = 0; k < kPersistent; ++k) {
    MPI_Recv(buffer, kPersistentBytes, MPI_CHAR, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&request);
  for (int k = 0; k < kSync; ++k) {
    MPI_Recv(buffer, kSyncBytes, MPI_CHAR, previous, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(buffer, kSyncBytes, MPI_CHAR, next, 2, MPI_COMM_WORLD);
  }
  int values[10] = {0};
  MPI_Bcast(values, 10, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
