#include "traces/CollectiveAlgorithm.hpp"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Suggest.hpp"

namespace mapsim::traces {
namespace {

using A = CollectiveAlgorithm;

constexpr std::array<std::string_view, 2> kSelectors{"mpich", "ompi"};
constexpr std::array<std::string_view, kCollectiveFamilies> kFamilies{
    "barrier",  "bcast",     "reduce", "allreduce", "allgather",     "allgatherv",
    "alltoall", "alltoallv", "gather", "scatter",   "reduce_scatter"};
constexpr std::array<std::string_view, 16> kAlgorithms{"default",
                                                       "linear",
                                                       "chain",
                                                       "binary",
                                                       "binomial",
                                                       "knomial",
                                                       "scatter_allgather",
                                                       "recursive_doubling",
                                                       "ring",
                                                       "rabenseifner",
                                                       "nonoverlapping",
                                                       "pairwise",
                                                       "bruck",
                                                       "neighbor_exchange",
                                                       "recursive_halving",
                                                       "tree"};

constexpr std::array kBarrier{A::Linear, A::RecursiveDoubling, A::Bruck, A::Tree};
constexpr std::array kBcast{A::Linear,   A::Chain,   A::Binary,
                            A::Binomial, A::Knomial, A::ScatterAllgather};
constexpr std::array kReduce{A::Linear, A::Chain, A::Binary, A::Binomial};
constexpr std::array kAllreduce{A::Linear, A::Nonoverlapping, A::RecursiveDoubling, A::Ring,
                                A::Rabenseifner};
constexpr std::array kAllgather{A::Linear, A::Bruck, A::RecursiveDoubling, A::Ring,
                                A::NeighborExchange};
constexpr std::array kAlltoall{A::Linear, A::Pairwise, A::Bruck};
constexpr std::array kRooted{A::Linear, A::Binomial};
constexpr std::array kReduceScatter{A::Nonoverlapping, A::RecursiveHalving, A::Ring};

std::vector<std::string_view> names_of(std::span<const CollectiveAlgorithm> algorithms) {
  std::vector<std::string_view> names;
  for (const auto a : algorithms) names.push_back(name(a));
  return names;
}

std::string quoted_list(std::span<const std::string_view> names) {
  std::string text;
  for (const auto n : names) text += fmt::format("{}'{}'", text.empty() ? "" : ", ", n);
  return text;
}

}  // namespace

std::string_view name(CollectiveSelector selector) {
  return kSelectors[static_cast<std::size_t>(selector)];
}

std::string_view name(CollectiveFamily family) {
  return kFamilies[static_cast<std::size_t>(family)];
}

std::string_view name(CollectiveAlgorithm algorithm) {
  return kAlgorithms[static_cast<std::size_t>(algorithm)];
}

bool family_of(CollectiveOp op, CollectiveFamily& family) {
  switch (op) {
    case CollectiveOp::Barrier:
    case CollectiveOp::CreateHandle:
      family = CollectiveFamily::Barrier;
      return true;
    case CollectiveOp::Bcast:
      family = CollectiveFamily::Bcast;
      return true;
    case CollectiveOp::Reduce:
      family = CollectiveFamily::Reduce;
      return true;
    case CollectiveOp::Allreduce:
      family = CollectiveFamily::Allreduce;
      return true;
    case CollectiveOp::Allgather:
      family = CollectiveFamily::Allgather;
      return true;
    case CollectiveOp::Allgatherv:
      family = CollectiveFamily::Allgatherv;
      return true;
    case CollectiveOp::Alltoall:
      family = CollectiveFamily::Alltoall;
      return true;
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
      family = CollectiveFamily::Alltoallv;
      return true;
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
      family = CollectiveFamily::Gather;
      return true;
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
      family = CollectiveFamily::Scatter;
      return true;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
      family = CollectiveFamily::ReduceScatter;
      return true;
    default:
      return false;
  }
}

std::span<const CollectiveAlgorithm> algorithms_of(CollectiveFamily family) {
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
    case CollectiveFamily::Allgatherv:
      return kAllgather;
    case CollectiveFamily::Alltoall:
    case CollectiveFamily::Alltoallv:
      return kAlltoall;
    case CollectiveFamily::Gather:
    case CollectiveFamily::Scatter:
      return kRooted;
    case CollectiveFamily::ReduceScatter:
      return kReduceScatter;
  }
  return {};
}

bool CollectiveOptions::is_default() const {
  return *this == CollectiveOptions{};
}

CollectiveOptions parse_collective_options(std::string_view spec, std::string_view option) {
  CollectiveOptions options;
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const auto comma = spec.find(',', start);
    parts.push_back(spec.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  const auto selector = parts.front();
  std::size_t s = 0;
  while (s < kSelectors.size() && kSelectors[s] != selector) ++s;
  if (s == kSelectors.size()) {
    throw InputError(fmt::format("{}: unknown collective selector '{}' in '{}' (valid: {}){}",
                                 option, selector, spec, quoted_list(kSelectors),
                                 suggest_suffix(selector, kSelectors)));
  }
  options.selector = static_cast<CollectiveSelector>(s);
  std::array<bool, kCollectiveFamilies> given{};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto part = parts[i];
    const auto equals = part.find('=');
    if (equals == std::string_view::npos) {
      throw InputError(
          fmt::format("{}: '{}' in '{}' is not OP=ALGORITHM (e.g. allreduce=ring); operations: {}",
                      option, part, spec, quoted_list(kFamilies)));
    }
    const auto op = part.substr(0, equals);
    const auto algorithm = part.substr(equals + 1);
    std::size_t f = 0;
    while (f < kFamilies.size() && kFamilies[f] != op) ++f;
    if (f == kFamilies.size()) {
      throw InputError(fmt::format("{}: unknown collective operation '{}' in '{}' (valid: {}){}",
                                   option, op, spec, quoted_list(kFamilies),
                                   suggest_suffix(op, kFamilies)));
    }
    if (given[f]) {
      throw InputError(
          fmt::format("{}: the operation '{}' is given twice in '{}'", option, op, spec));
    }
    given[f] = true;
    const auto family = static_cast<CollectiveFamily>(f);
    const auto valid = names_of(algorithms_of(family));
    std::size_t a = 0;
    while (a < valid.size() && valid[a] != algorithm) ++a;
    if (a == valid.size()) {
      throw InputError(fmt::format("{}: unknown {} algorithm '{}' in '{}' (valid: {}){}", option,
                                   op, algorithm, spec, quoted_list(valid),
                                   suggest_suffix(algorithm, valid)));
    }
    options.overrides[f] = algorithms_of(family)[a];
  }
  return options;
}

std::string to_string(const CollectiveOptions& options) {
  std::string text(name(options.selector));
  for (std::size_t f = 0; f < kCollectiveFamilies; ++f) {
    if (options.overrides[f] == CollectiveAlgorithm::Default) continue;
    text += fmt::format(",{}={}", kFamilies[f], name(options.overrides[f]));
  }
  return text;
}

}  // namespace mapsim::traces
