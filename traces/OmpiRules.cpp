#include "traces/OmpiRules.hpp"

#include <limits>
#include <span>

namespace mapsim::traces {
namespace {

using A = CollectiveAlgorithm;

constexpr std::int32_t kAnySize = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kAnyBytes = std::numeric_limits<std::int64_t>::max();

/// One cell of a decision table: communicators of fewer than `size_below` members (and not
/// matched by an earlier band) with messages of fewer than `bytes_below` bytes run `algorithm`.
/// Bands come in increasing size, cells of a band in increasing bytes, each band ending with
/// kAnyBytes; adjacent cells of one algorithm are merged (Open MPI's linear and linear_sync,
/// say, are one algorithm here).
struct Cell {
  std::int32_t size_below;
  std::int64_t bytes_below;
  CollectiveAlgorithm algorithm;
};

constexpr Cell kAllreduce[] = {
    {4, 8, A::Ring},
    {4, 4096, A::RecursiveDoubling},
    {4, 8192, A::Ring},
    {4, 16384, A::RecursiveDoubling},
    {4, 262144, A::Ring},
    {4, kAnyBytes, A::Rabenseifner},
    {8, 16, A::Ring},
    {8, 8192, A::RecursiveDoubling},
    {8, kAnyBytes, A::Rabenseifner},
    {16, 8192, A::RecursiveDoubling},
    {16, kAnyBytes, A::Rabenseifner},
    {32, 64, A::Ring},
    {32, 4096, A::RecursiveDoubling},
    {32, kAnyBytes, A::Rabenseifner},
    {64, 128, A::Ring},
    {64, kAnyBytes, A::Rabenseifner},
    {128, 262144, A::RecursiveDoubling},
    {128, kAnyBytes, A::Rabenseifner},
    {256, 131072, A::Nonoverlapping},
    {256, 262144, A::RecursiveDoubling},
    {256, kAnyBytes, A::Rabenseifner},
    {512, 4096, A::Nonoverlapping},
    {512, kAnyBytes, A::Rabenseifner},
    {2048, 2048, A::Nonoverlapping},
    {2048, 16384, A::RecursiveDoubling},
    {2048, kAnyBytes, A::Rabenseifner},
    {4096, 2048, A::Nonoverlapping},
    {4096, 4096, A::Ring},
    {4096, 16384, A::RecursiveDoubling},
    {4096, kAnyBytes, A::Rabenseifner},
    {kAnySize, 2048, A::Nonoverlapping},
    {kAnySize, 16384, A::Ring},
    {kAnySize, 32768, A::RecursiveDoubling},
    {kAnySize, kAnyBytes, A::Rabenseifner},
};

constexpr Cell kAlltoall[] = {
    {3, 32768, A::Pairwise},      {3, 262144, A::Linear},       {3, kAnyBytes, A::Pairwise},
    {8, 524288, A::Linear},       {8, 1048576, A::Pairwise},    {8, kAnyBytes, A::Linear},
    {16, kAnyBytes, A::Linear},   {32, 4, A::Linear},           {32, 512, A::Bruck},
    {32, kAnyBytes, A::Linear},   {64, 512, A::Bruck},          {64, kAnyBytes, A::Linear},
    {128, 1024, A::Bruck},        {128, 262144, A::Linear},     {128, kAnyBytes, A::Pairwise},
    {256, 1024, A::Bruck},        {256, 262144, A::Linear},     {256, kAnyBytes, A::Pairwise},
    {512, 1024, A::Bruck},        {512, 32768, A::Linear},      {512, kAnyBytes, A::Pairwise},
    {1024, 512, A::Bruck},        {1024, 262144, A::Linear},    {1024, kAnyBytes, A::Pairwise},
    {2048, 512, A::Bruck},        {2048, kAnyBytes, A::Linear}, {4096, 1024, A::Bruck},
    {4096, kAnyBytes, A::Linear}, {kAnySize, 2048, A::Bruck},   {kAnySize, kAnyBytes, A::Linear},
};

constexpr Cell kAlltoallv[] = {
    {4, kAnyBytes, A::Pairwise}, {64, kAnyBytes, A::Linear},     {128, kAnyBytes, A::Pairwise},
    {256, kAnyBytes, A::Linear}, {1024, kAnyBytes, A::Pairwise}, {kAnySize, kAnyBytes, A::Linear},
};

constexpr Cell kBarrier[] = {
    {4, kAnyBytes, A::RecursiveDoubling},
    {8, kAnyBytes, A::Linear},
    {64, kAnyBytes, A::RecursiveDoubling},
    {256, kAnyBytes, A::Bruck},
    {512, kAnyBytes, A::Tree},
    {1024, kAnyBytes, A::Bruck},
    {4096, kAnyBytes, A::Tree},
    {kAnySize, kAnyBytes, A::Bruck},
};

constexpr Cell kBcast[] = {
    {4, 32, A::Chain},
    {4, 256, A::Binary},
    {4, 512, A::Chain},
    {4, 1024, A::Knomial},
    {4, 32768, A::Linear},
    {4, 131072, A::Binary},
    {4, 262144, A::Chain},
    {4, 524288, A::Linear},
    {4, 1048576, A::Binomial},
    {4, kAnyBytes, A::Binary},
    {8, 64, A::Binary},
    {8, 128, A::Binomial},
    {8, 2048, A::Binary},
    {8, 8192, A::Binomial},
    {8, 1048576, A::Linear},
    {8, kAnyBytes, A::Chain},
    {16, 8, A::Knomial},
    {16, 64, A::Binary},
    {16, 4096, A::Knomial},
    {16, 16384, A::Binary},
    {16, 32768, A::Binomial},
    {16, kAnyBytes, A::Linear},
    {32, 4096, A::Knomial},
    {32, 1048576, A::Binomial},
    {32, kAnyBytes, A::ScatterAllgather},
    {64, 2048, A::Binomial},
    {64, kAnyBytes, A::Knomial},
    {128, kAnyBytes, A::Knomial},
    {256, 2, A::Binomial},
    {256, 16384, A::Binary},
    {256, 32768, A::Linear},
    {256, 65536, A::Binary},
    {256, kAnyBytes, A::Knomial},
    {1024, 16384, A::Knomial},
    {1024, 32768, A::Binary},
    {1024, kAnyBytes, A::Knomial},
    {2048, 524288, A::Knomial},
    {2048, kAnyBytes, A::ScatterAllgather},
    {4096, 262144, A::Knomial},
    {4096, kAnyBytes, A::ScatterAllgather},
    {kAnySize, 8192, A::Knomial},
    {kAnySize, 16384, A::Binary},
    {kAnySize, 262144, A::Knomial},
    {kAnySize, kAnyBytes, A::ScatterAllgather},
};

constexpr Cell kReduce[] = {
    {4, 8, A::Linear},
    {4, 16, A::Binary},
    {4, 32, A::Chain},
    {4, 262144, A::Linear},
    {4, kAnyBytes, A::Chain},
    {8, 4096, A::Binary},
    {8, 65536, A::Chain},
    {8, 262144, A::Binomial},
    {8, 524288, A::Linear},
    {8, 1048576, A::Binomial},
    {8, kAnyBytes, A::Linear},
    {16, 8192, A::Binary},
    {16, kAnyBytes, A::Binomial},
    {32, 4096, A::Binary},
    {32, kAnyBytes, A::Binomial},
    {256, kAnyBytes, A::Binomial},
    {512, 8192, A::Binomial},
    {512, 16384, A::Binary},
    {512, kAnyBytes, A::Binomial},
    {2048, kAnyBytes, A::Binomial},
    {4096, 512, A::Binomial},
    {4096, 1024, A::Binary},
    {4096, 8192, A::Binomial},
    {4096, 16384, A::Binary},
    {4096, kAnyBytes, A::Binomial},
    {kAnySize, 16, A::Binomial},
    {kAnySize, 32, A::Binary},
    {kAnySize, 1024, A::Binomial},
    {kAnySize, 2048, A::Binary},
    {kAnySize, 8192, A::Binomial},
    {kAnySize, 16384, A::Binary},
    {kAnySize, kAnyBytes, A::Binomial},
};

constexpr Cell kReduceScatter[] = {
    {4, 65536, A::Ring},
    {4, 131072, A::RecursiveHalving},
    {4, kAnyBytes, A::Ring},
    {8, 8, A::Nonoverlapping},
    {8, 262144, A::RecursiveHalving},
    {8, kAnyBytes, A::Ring},
    {32, 262144, A::RecursiveHalving},
    {32, kAnyBytes, A::Ring},
    {64, 64, A::Nonoverlapping},
    {64, 524288, A::RecursiveHalving},
    {64, kAnyBytes, A::Ring},
    {512, 256, A::Nonoverlapping},
    {512, kAnyBytes, A::RecursiveHalving},
    {4096, 512, A::Nonoverlapping},
    {4096, kAnyBytes, A::RecursiveHalving},
    {kAnySize, 1024, A::Nonoverlapping},
    {kAnySize, kAnyBytes, A::RecursiveHalving},
};

constexpr Cell kAllgather[] = {
    {32, kAnyBytes, A::RecursiveDoubling},
    {64, 1024, A::RecursiveDoubling},
    {64, 65536, A::NeighborExchange},
    {64, kAnyBytes, A::Ring},
    {128, 512, A::RecursiveDoubling},
    {128, 65536, A::NeighborExchange},
    {128, kAnyBytes, A::Ring},
    {256, 512, A::RecursiveDoubling},
    {256, 131072, A::NeighborExchange},
    {256, 524288, A::Ring},
    {256, 1048576, A::NeighborExchange},
    {256, kAnyBytes, A::Ring},
    {512, 32, A::RecursiveDoubling},
    {512, 128, A::Bruck},
    {512, 1024, A::RecursiveDoubling},
    {512, 131072, A::NeighborExchange},
    {512, 524288, A::Ring},
    {512, 1048576, A::NeighborExchange},
    {512, kAnyBytes, A::Ring},
    {1024, 64, A::RecursiveDoubling},
    {1024, 256, A::Bruck},
    {1024, 2048, A::RecursiveDoubling},
    {1024, kAnyBytes, A::NeighborExchange},
    {2048, 4, A::RecursiveDoubling},
    {2048, 8, A::Bruck},
    {2048, 16, A::RecursiveDoubling},
    {2048, 32, A::Bruck},
    {2048, 256, A::RecursiveDoubling},
    {2048, 512, A::Bruck},
    {2048, 4096, A::RecursiveDoubling},
    {2048, kAnyBytes, A::NeighborExchange},
    {4096, 32, A::Bruck},
    {4096, 128, A::RecursiveDoubling},
    {4096, 512, A::Bruck},
    {4096, 4096, A::RecursiveDoubling},
    {4096, kAnyBytes, A::NeighborExchange},
    {kAnySize, 2, A::RecursiveDoubling},
    {kAnySize, 8, A::Bruck},
    {kAnySize, 16, A::RecursiveDoubling},
    {kAnySize, 512, A::Bruck},
    {kAnySize, 4096, A::RecursiveDoubling},
    {kAnySize, kAnyBytes, A::NeighborExchange},
};

constexpr Cell kAllgatherv[] = {
    {3, 2048, A::Ring},
    {3, 4096, A::RecursiveDoubling},
    {3, 8192, A::Ring},
    {3, kAnyBytes, A::RecursiveDoubling},
    {8, 256, A::Linear},
    {8, 4096, A::NeighborExchange},
    {8, 8192, A::Ring},
    {8, 16384, A::NeighborExchange},
    {8, 262144, A::Bruck},
    {8, kAnyBytes, A::NeighborExchange},
    {16, 1024, A::Linear},
    {16, kAnyBytes, A::Bruck},
    {32, 128, A::Linear},
    {32, 262144, A::Bruck},
    {32, kAnyBytes, A::Ring},
    {64, 256, A::Linear},
    {64, 8192, A::Bruck},
    {64, kAnyBytes, A::Ring},
    {128, 256, A::Linear},
    {128, 4096, A::Bruck},
    {128, kAnyBytes, A::Ring},
    {256, 1024, A::Bruck},
    {256, 65536, A::NeighborExchange},
    {256, kAnyBytes, A::Ring},
    {512, 1024, A::Bruck},
    {512, kAnyBytes, A::Ring},
    {1024, 512, A::Bruck},
    {1024, 1024, A::Linear},
    {1024, 4096, A::Bruck},
    {1024, 1048576, A::NeighborExchange},
    {1024, kAnyBytes, A::Ring},
    {kAnySize, 4096, A::Bruck},
    {kAnySize, kAnyBytes, A::NeighborExchange},
};

constexpr Cell kGather[] = {
    {4, 4, A::Linear},
    {4, 32768, A::Binomial},
    {4, 65536, A::Linear},
    {4, 131072, A::Binomial},
    {4, kAnyBytes, A::Linear},
    {8, 1024, A::Binomial},
    {8, 8192, A::Linear},
    {8, 32768, A::Binomial},
    {8, kAnyBytes, A::Linear},
    {256, kAnyBytes, A::Binomial},
    {512, 2048, A::Binomial},
    {512, 8192, A::Linear},
    {512, kAnyBytes, A::Binomial},
    {kAnySize, kAnyBytes, A::Binomial},
};

constexpr Cell kScatter[] = {
    {4, kAnyBytes, A::Linear},        {8, 2048, A::Binomial},     {8, 4096, A::Linear},
    {8, 8192, A::Binomial},           {8, kAnyBytes, A::Linear},  {32, 16384, A::Binomial},
    {32, kAnyBytes, A::Linear},       {64, 512, A::Binomial},     {64, 8192, A::Linear},
    {64, 16384, A::Binomial},         {64, kAnyBytes, A::Linear}, {kAnySize, 512, A::Binomial},
    {kAnySize, kAnyBytes, A::Linear},
};

std::span<const Cell> table(CollectiveFamily family) {
  switch (family) {
    case CollectiveFamily::Barrier:
      return kBarrier;
    case CollectiveFamily::Bcast:
      return kBcast;
    case CollectiveFamily::Reduce:
      return kReduce;
    case CollectiveFamily::Allreduce:
      return kAllreduce;
    case CollectiveFamily::Allgather:
      return kAllgather;
    case CollectiveFamily::Allgatherv:
      return kAllgatherv;
    case CollectiveFamily::Alltoall:
      return kAlltoall;
    case CollectiveFamily::Alltoallv:
      return kAlltoallv;
    case CollectiveFamily::Gather:
      return kGather;
    case CollectiveFamily::Scatter:
      return kScatter;
    case CollectiveFamily::ReduceScatter:
      return kReduceScatter;
  }
  return {};
}

}  // namespace

CollectiveAlgorithm ompi_algorithm(CollectiveFamily family, std::int32_t p, std::int64_t bytes) {
  for (const auto& cell : table(family)) {
    if (p < cell.size_below && bytes < cell.bytes_below) return cell.algorithm;
  }
  return CollectiveAlgorithm::Linear;  // unreachable: every table ends with kAnySize, kAnyBytes
}

}  // namespace mapsim::traces
