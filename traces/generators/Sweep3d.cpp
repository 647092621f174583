// Sweep3D 2.2b (LANL, the 1995 ASCI tarball) as written: its MPI calls, call for call, from an
// input deck (docs/workloads.md §10, from the developers' reading of the Fortran and a counted
// run of it: the 2 × 3 input.50 run prints the 560 messages per iteration formed below).
//
// Grid and decomposition (decomp.f): it_g × jt_g × kt cells over npe_i × npe_j ranks, K not
// split; rank = (mype_i − 1) + npe_i·(mype_j − 1), so east/west are ±1 and north/south ±npe_i.
// it = it_g / npe_i with the first it_g mod npe_i columns one larger; jt likewise (50 over 3:
// 17, 17, 16). mk = min(mk, kt) planes per k-block, kb = ⌈kt / mk⌉ blocks; mm angles per octant
// in mmo = mm / mmi blocks of mmi. With one rank the code sets mk = kt and mmi = mm.
//
// Per iteration (inner.f; 12 for the shipped decks' epsi = −12): the source (local), then the
// octants iq = 1 … 8 with signs (i, j, k) = (−,−,−) (−,−,+) (−,+,−) (−,+,+) (+,−,−) (+,−,+)
// (+,+,−) (+,+,+) (sweep.f), each over mo = 1 … mmo angle blocks × kk = 1 … kb k-blocks. A block:
//   Recv I-face from upstream in i (west if i > 0, else east), jt·mk·mmi doubles,
//   Recv J-face from upstream in j (south if j > 0, else north), it·mk·mmi doubles,
//   compute, Send the I-face downstream, Send the J-face downstream.
// Tags: I-face 1000·iq (i > 0) or 3000·iq, J-face 2000·iq (j > 0) or 4000·iq. The last k-block
// keeps mk planes in its message even when it holds fewer (the code says so). Then Allreduce SUM
// 4 B (fixups) and Allreduce MAX 8 B (flux error). All blocking, all on MPI_COMM_WORLD.
// Hence per rank and iteration, Ni / Nj = its E–W / N–S neighbours: 4·mmo·kb·(Ni + Nj) sends,
// 32·mm·kb·mk·(Ni·jt + Nj·it) bytes; over the grid 8·mmo·kb·E messages with
// E = npe_j(npe_i − 1) + npe_i(npe_j − 1) (the driver prints this: 560 for input.50 on 2 × 3).
//
// Start (read_input.f, msg_stuff): Bcast 4 B (numtasks), Bcast 4·N B (task ids), Barrier,
// Bcast 64 B (16 ints), Bcast 32 B (4 doubles), Barrier (inner.f, before the timed loop).
// End (iprint = 0): Barrier, 8 × Allreduce SUM 8 B (source, absorption, 6 leakages).
//
// Decks: input.50 and input.150 as shipped, `example` (the fact sheet's 2 × 2 8³ run, 2
// iterations), `ohtma` (weak scaling in j for the OHTMA study: npe_i = 16, 10 × 10 columns per
// rank, so jt_g = 10·npe_j; mapsim's reading, the paper's decks are not published), and, with no
// deck, mapsim's own class cubes n³ (n = 32 … 1024 for S … D, mk 10, mmi 3, mm 6, isct 0). Any
// deck value can be overridden by a parameter. The rank count: npe_i·npe_j from the parameters,
// else the deck's mesh if it has N ranks, else the most square npe_i ≤ npe_j (ohtma: npe_i 16).
//
// Compute model (mapsim's): 22 flops per cell and angle of a block (its actual planes), and for
// the source 10 flops per cell and moment (nm = 1, or 4 with isct = 1) per iteration.

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Suggest.hpp"
#include "traces/generators/Kernels.hpp"

namespace mapsim::traces {
namespace {

constexpr std::int64_t kDouble = 8;
constexpr std::int64_t kInt = 4;
constexpr double kCellAngleFlops = 22;
constexpr double kSourceFlopsPerMoment = 10;
constexpr std::int64_t kMaxCells = 1 << 20;  // per axis; keeps products of sizes far from overflow

/// An input deck's lines 1 and 2 (the only ones that shape the communication) and its iteration
/// count. npe_j = 0: from the rank count, keeping npe_i (ohtma); both 0: from the rank count.
struct Deck {
  std::string name;
  std::int64_t npe_i = 0;
  std::int64_t npe_j = 0;
  std::int64_t it_g = 0;
  std::int64_t jt_g = 0;  ///< 0: jt_per_rank·npe_j
  std::int64_t kt = 0;
  std::int64_t mk = 0;
  std::int64_t mmi = 0;
  std::int64_t mm = 0;
  std::int64_t isct = 0;
  std::int64_t iterations = 0;
  std::int64_t jt_per_rank = 0;
};

const std::array<Deck, 4>& decks() {
  static const std::array<Deck, 4> list{{
      {"input.50", 2, 3, 50, 50, 50, 10, 3, 6, 1, 12, 0},
      {"input.150", 2, 3, 150, 150, 150, 30, 2, 6, 1, 12, 0},
      {"example", 2, 2, 8, 8, 8, 4, 3, 6, 1, 2, 0},
      {"ohtma", 16, 0, 160, 0, 150, 10, 3, 6, 1, 12, 10},
  }};
  return list;
}

/// mapsim's own: an n³ cube by problem class, the mesh from the rank count.
Deck class_deck(char problem_class) {
  const auto n = by_class<std::int64_t>(problem_class, {32, 64, 128, 256, 512, 1024});
  return {fmt::format("class {}", problem_class), 0, 0, n, n, n, 10, 3, 6, 0, 12, 0};
}

/// A deck value a parameter may override: key (as in the deck), field, accepted range, meaning.
struct Parameter {
  std::string_view key;
  std::int64_t Deck::*field;
  std::int64_t min;
  std::int64_t max;
  std::string_view description;
};

constexpr std::array<Parameter, 9> kParameters{{
    {"npe_i", &Deck::npe_i, 1, 1 << 20, "ranks in i, east-west"},
    {"npe_j", &Deck::npe_j, 1, 1 << 20, "ranks in j, north-south"},
    {"it_g", &Deck::it_g, 1, kMaxCells, "cells in i"},
    {"jt_g", &Deck::jt_g, 1, kMaxCells, "cells in j"},
    {"kt", &Deck::kt, 1, kMaxCells, "cells in k, not split"},
    {"mk", &Deck::mk, 1, kMaxCells, "k-planes per block, cut to kt"},
    {"mmi", &Deck::mmi, 1, 6, "angles per block, dividing mm"},
    {"mm", &Deck::mm, 3, 6, "angles per octant: 3 for S4, 6 for S6"},
    {"isct", &Deck::isct, 0, 1, "scattering order: 1 or 4 flux moments, computation only"},
}};

/// The run as the code sees it after read_input and decomp.
struct Config {
  Rank ranks = 1;
  std::int64_t npe_i = 1;
  std::int64_t npe_j = 1;
  std::int64_t it_g = 1;
  std::int64_t jt_g = 1;
  std::int64_t kt = 1;
  std::int64_t mk = 1;
  std::int64_t mmi = 1;
  std::int64_t mm = 1;
  std::int64_t isct = 0;
  std::int64_t iterations = 1;
};

class Sweep3d final : public Workload {
 public:
  explicit Sweep3d(const Config& config) : config_(config) {}

  [[nodiscard]] Rank rank_count() const override { return config_.ranks; }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override {
    return config_.iterations;
  }
  /// Every iteration makes the same sweep and the same two Allreduces.
  [[nodiscard]] bool affine_in_iterations(bool /*collectives*/) const override { return true; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    return {world_communicator(config_.ranks)};
  }

  void run(Mpi& mpi) const override {
    const Config& c = config_;
    const std::int64_t pi = mpi.rank() % c.npe_i;
    const std::int64_t pj = mpi.rank() / c.npe_i;
    const std::int64_t it = block_size(c.it_g, c.npe_i, pi);
    const std::int64_t jt = block_size(c.jt_g, c.npe_j, pj);
    const std::int64_t mmo = c.mm / c.mmi;
    const std::int64_t kb = (c.kt + c.mk - 1) / c.mk;
    const std::int64_t moments = c.isct == 1 ? 4 : 1;
    const std::int64_t i_face = jt * c.mk * c.mmi * kDouble;
    const std::int64_t j_face = it * c.mk * c.mmi * kDouble;
    auto at = [&](std::int64_t i, std::int64_t j) -> Rank {
      if (i < 0 || i >= c.npe_i || j < 0 || j >= c.npe_j) return -1;
      return static_cast<Rank>(i + c.npe_i * j);
    };

    mpi.init();
    mpi.bcast(kInt);
    mpi.bcast(kInt * c.ranks);
    mpi.barrier();
    mpi.bcast(16 * kInt);
    mpi.bcast(4 * kDouble);
    mpi.barrier();
    for (std::int64_t iteration = 0; iteration < c.iterations; ++iteration) {
      mpi.flops(kSourceFlopsPerMoment * static_cast<double>(moments * it * jt * c.kt));
      for (std::int32_t iq = 1; iq <= 8; ++iq) {
        const int i2 = iq <= 4 ? -1 : +1;
        const int j2 = (iq - 1) / 2 % 2 == 0 ? -1 : +1;
        const Rank up_i = at(pi - i2, pj);
        const Rank down_i = at(pi + i2, pj);
        const Rank up_j = at(pi, pj - j2);
        const Rank down_j = at(pi, pj + j2);
        const std::int32_t tag_i = (i2 > 0 ? 1000 : 3000) * iq;
        const std::int32_t tag_j = (j2 > 0 ? 2000 : 4000) * iq;
        for (std::int64_t mo = 0; mo < mmo; ++mo) {
          for (std::int64_t kk = 0; kk < kb; ++kk) {
            const std::int64_t planes = std::min(c.mk, c.kt - kk * c.mk);
            if (up_i >= 0) mpi.recv(up_i, tag_i, i_face);
            if (up_j >= 0) mpi.recv(up_j, tag_j, j_face);
            mpi.flops(kCellAngleFlops * static_cast<double>(it * jt * planes * c.mmi));
            if (down_i >= 0) mpi.send(down_i, tag_i, i_face);
            if (down_j >= 0) mpi.send(down_j, tag_j, j_face);
          }
        }
      }
      mpi.allreduce(kInt);
      mpi.allreduce(kDouble);
    }
    mpi.barrier();
    for (int sum = 0; sum < 8; ++sum) mpi.allreduce(kDouble);
    mpi.finalize();
  }

 private:
  Config config_;
};

const Deck& find_deck(std::string_view name) {
  for (const auto& deck : decks()) {
    if (deck.name == name) return deck;
  }
  std::vector<std::string_view> names;
  for (const auto& deck : decks()) names.emplace_back(deck.name);
  throw InputError(fmt::format("unknown sweep3d deck '{}' (valid: {}){}", name,
                               fmt::join(names, ", "), suggest_suffix(name, names)));
}

/// Overrides the deck's values by the parameters; unknown keys and values out of range throw.
Deck with_parameters(Deck deck, const std::map<std::string, std::int64_t>& parameters) {
  std::vector<std::string_view> keys;
  for (const auto& parameter : kParameters) keys.push_back(parameter.key);
  for (const auto& [key, value] : parameters) {
    // By name, not by capture: clang 14 (the fuzz build) cannot capture a structured binding.
    const std::string_view name = key;
    const auto* found = std::find_if(kParameters.begin(), kParameters.end(),
                                     [name](const Parameter& p) { return p.key == name; });
    if (found == kParameters.end()) {
      throw InputError(fmt::format("unknown sweep3d parameter '{}' (valid: {}){}", key,
                                   fmt::join(keys, ", "), suggest_suffix(key, keys)));
    }
    if (value < found->min || value > found->max) {
      throw InputError(fmt::format("sweep3d parameter {}={} out of range {} .. {} ({})", key, value,
                                   found->min, found->max, found->description));
    }
    deck.*(found->field) = value;
  }
  if (deck.mm != 3 && deck.mm != 6) {
    throw InputError(fmt::format(
        "sweep3d parameter mm={}: Sweep3D has the S4 and S6 sets, mm = 3 or 6", deck.mm));
  }
  if (deck.mm % deck.mmi != 0) {
    throw InputError(fmt::format(
        "sweep3d parameters mmi={} and mm={}: mm must be a multiple of mmi", deck.mmi, deck.mm));
  }
  return deck;
}

struct Mesh {
  std::int64_t npe_i = 1;
  std::int64_t npe_j = 1;
};

/// The most square npe_i × npe_j = ranks with npe_i ≤ npe_j.
Mesh square_mesh(std::int64_t ranks) {
  const std::int64_t npe_i = [&] {
    std::int64_t best = 1;
    for (std::int64_t d = 1; d * d <= ranks; ++d) {
      if (ranks % d == 0) best = d;
    }
    return best;
  }();
  return {npe_i, ranks / npe_i};
}

/// The mesh of `deck` (already overridden) for `ranks`; `given` says which of npe_i, npe_j the
/// parameters set.
Mesh choose_mesh(const Deck& deck, Rank ranks, bool given_i, bool given_j) {
  const std::string where = "sweep3d " + deck.name;
  if (given_i && given_j) {
    if (deck.npe_i * deck.npe_j != ranks) {
      throw InputError(fmt::format("{}: npe_i={} x npe_j={} = {} ranks, not the {} requested",
                                   where, deck.npe_i, deck.npe_j, deck.npe_i * deck.npe_j, ranks));
    }
    return {deck.npe_i, deck.npe_j};
  }
  if (given_i || given_j) {
    const auto& [key, value] =
        given_i ? std::pair{"npe_i", deck.npe_i} : std::pair{"npe_j", deck.npe_j};
    if (ranks % value != 0) {
      throw InputError(
          fmt::format("{}: {}={} does not divide the {} ranks", where, key, value, ranks));
    }
    return given_i ? Mesh{value, ranks / value} : Mesh{ranks / value, value};
  }
  if (deck.npe_i > 0 && deck.npe_j > 0 && deck.npe_i * deck.npe_j == ranks) {
    return {deck.npe_i, deck.npe_j};
  }
  if (deck.npe_i > 0 && deck.npe_j == 0) {
    if (ranks % deck.npe_i != 0) {
      throw InputError(fmt::format(
          "{}: the deck keeps npe_i={}, which does not divide the {} ranks (give npe_i)", where,
          deck.npe_i, ranks));
    }
    return {deck.npe_i, ranks / deck.npe_i};
  }
  return square_mesh(ranks);
}

Config configure(const GeneratorOptions& options) {
  const bool own = options.deck.empty();
  const Deck deck = with_parameters(
      own ? class_deck(options.problem_class) : find_deck(options.deck), options.parameters);
  const bool given_i = options.parameters.contains("npe_i");
  const bool given_j = options.parameters.contains("npe_j");
  const bool given_jt = options.parameters.contains("jt_g");
  if (own && !given_i && !given_j) {
    // Class cubes: say which rank counts fit, as the other generators do.
    check_ranks(options,
                "npe_i <= it_g and npe_j <= jt_g on the most square npe_i x npe_j = N with "
                "npe_i <= npe_j",
                [&](Rank ranks) {
                  const auto mesh = square_mesh(ranks);
                  return mesh.npe_i <= deck.it_g && mesh.npe_j <= deck.jt_g;
                });
  }
  const Mesh mesh = choose_mesh(deck, options.ranks, given_i, given_j);
  Config c;
  c.ranks = options.ranks;
  c.npe_i = mesh.npe_i;
  c.npe_j = mesh.npe_j;
  c.it_g = deck.it_g;
  c.jt_g = deck.jt_per_rank > 0 && !given_jt ? deck.jt_per_rank * mesh.npe_j : deck.jt_g;
  c.kt = deck.kt;
  c.mk = std::min(deck.mk, deck.kt);
  c.mmi = deck.mmi;
  c.mm = deck.mm;
  c.isct = deck.isct;
  c.iterations = iterations_or(options, deck.iterations);
  if (c.it_g < c.npe_i || c.jt_g < c.npe_j) {
    throw InputError(fmt::format(
        "sweep3d {}: it_g={} x jt_g={} cells cannot give each of npe_i={} x npe_j={} ranks a "
        "column (needs it_g >= npe_i and jt_g >= npe_j)",
        deck.name, c.it_g, c.jt_g, c.npe_i, c.npe_j));
  }
  if (c.ranks == 1) {  // decomp.f: one task sweeps whole octants at once
    c.mk = c.kt;
    c.mmi = c.mm;
  }
  return c;
}

}  // namespace

std::unique_ptr<Workload> make_sweep3d(const GeneratorOptions& options) {
  return std::make_unique<Sweep3d>(configure(options));
}

}  // namespace mapsim::traces
