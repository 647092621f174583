#pragma once
// Internal to the generators: each kernel's factory and the helpers they share.

#include <array>
#include <functional>
#include <memory>
#include <string_view>

#include "traces/generators/Generator.hpp"

namespace mapsim::traces {

std::unique_ptr<Workload> make_lu(const GeneratorOptions& options);
std::unique_ptr<Workload> make_bt(const GeneratorOptions& options);
std::unique_ptr<Workload> make_sp(const GeneratorOptions& options);
std::unique_ptr<Workload> make_cg(const GeneratorOptions& options);
std::unique_ptr<Workload> make_mg(const GeneratorOptions& options);
std::unique_ptr<Workload> make_ft(const GeneratorOptions& options);
std::unique_ptr<Workload> make_is(const GeneratorOptions& options);
std::unique_ptr<Workload> make_ep(const GeneratorOptions& options);
std::unique_ptr<Workload> make_sweep3d(const GeneratorOptions& options);
std::unique_ptr<Workload> make_snap(const GeneratorOptions& options);
std::unique_ptr<Workload> make_stencil2d(const GeneratorOptions& options);
std::unique_ptr<Workload> make_stencil3d(const GeneratorOptions& options);

/// Problem classes S, W, A, B, C, D as 0 … 5 (validated by make_workload).
int class_index(char problem_class);

/// The value of a per-class table (S, W, A, B, C, D).
template <typename T>
T by_class(char problem_class, const std::array<T, 6>& values) {
  return values[static_cast<std::size_t>(class_index(problem_class))];
}

/// The iteration count: --iterations if given, else the class's.
std::int64_t iterations_or(const GeneratorOptions& options, std::int64_t class_default);

/// Throws InputError unless `valid(options.ranks)`: the message names the kernel, class and rank
/// count, the rule, and the valid counts (all of them if few, else the nearest ones).
void check_ranks(const GeneratorOptions& options, std::string_view rule,
                 const std::function<bool(Rank)>& valid);

/// 2^⌊log2 n⌋ and ⌊log2 n⌋ for n ≥ 1.
std::int64_t floor_pow2(std::int64_t n);
int floor_log2(std::int64_t n);
inline bool is_pow2(std::int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}
/// ⌊√n⌋.
std::int64_t isqrt(std::int64_t n);

/// Size of block `index` of `total` split into `parts` nearly equal blocks, the first
/// `total mod parts` one larger.
inline std::int64_t block_size(std::int64_t total, std::int64_t parts, std::int64_t index) {
  return total / parts + (index < total % parts ? 1 : 0);
}

}  // namespace mapsim::traces
