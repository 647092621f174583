// SNAP 1.12 (LANL's SN Application Proxy; docs/workloads.md §10): discrete-ordinates transport
// swept with KBA over a 2-D process grid, one OpenMP thread per rank, call for call.
//
// Grid: npey × npez ranks split y and z (x is never split); world = zproc·npey + yproc; local
// sizes ny_l = ny/npey, nz_l = nz/npez; x is worked in nc = nx/ichunk chunks. Communicators:
// comm_snap (Comm_dup of WORLD), comm_space (SNAP's Cart_create, modelled as a Comm_dup of
// comm_snap: same members, same order, created collectively), ycomm per zproc (ordered by
// yproc) and zcomm per yproc (Cart_sub, modelled as splits of comm_space). Sweep messages travel
// on ycomm / zcomm, collectives on comm_snap, the output gather on comm_space.
//
// Sweep (one per inner, every group g = 1 … ng): 4 corners (jd, kd) ∈ {1,2}², each 2·nc chunk
// ops per group. A chunk op receives the y-face from upstream in y (nang·ichunk·nz_l doubles) and
// the z-face from upstream in z (nang·ichunk·ny_l doubles), computes, and sends both faces
// downstream; jd = 1 flows towards −y (upstream is yproc+1), jd = 2 towards +y, kd likewise.
// - multiswp = 0 (classic): corner (corner_sch order: (1,1),(2,1),(2,2),(1,2) if npey ≤ npez,
//   else (1,1),(1,2),(2,2),(2,1)) → group → iop = 1 … 2nc: Recv y, Recv z, Waitall (if the rank
//   has a downstream neighbour in this corner), compute, Isend y, Isend z; tag g·16384 +
//   2·nc·((jd−1) + 2(kd−1)) + iop.
// - multiswp = 1 (SNAP's default): corners c = 1 … 4 = (1,1),(2,1),(1,2),(2,2) advance together.
//   Irecvs for every corner's first op are posted at the start, and after each op those for the
//   corner's next one; tag g·16384 + 4096·(c−1) + ic_op, ic_op = 1 … 2nc within a group. The
//   order of ops is SNAP's priority rule in lock-step rounds over the whole grid: in a round every
//   rank issues one op of a ready corner, the one with the largest tcor = nstg − g_op − yzstg(c)
//   (nstg = 2·nc·ng + npey + npez − 2, g_op = the corner's ops done, yzstg its wavefront stage),
//   ties to the lower c. A corner is ready when its upstream ranks issued the same op in an earlier
//   round and its downstream ranks posted the receives of its previous op (they issued the op
//   before that), which is what SNAP's Testsome on the receives and Test on the sends wait for.
//   This order is deterministic, and replays without deadlock even under rendezvous.
//
// Iterations: per time step (nsteps, 1 unless timedep = 1): outers × [outer source; inners ×
// (inner source, sweep of all ng groups, convergence test, Allreduce MAX 8·ng B); Allreduce MAX
// 8 B], then SNAP's extra outer (angcpy = 1): one inner sweeping all groups and both Allreduces.
// SNAP stops inners and outers by convergence and skips converged groups; mapsim runs a fixed
// schedule instead (outers default 2, the fewest SNAP can run since its outer test needs
// otno ≠ 1; inners default iitm, every group every inner).
// Start: Init, Comm_dup, Barrier, 5 × Bcast 4 B, Bcast 120 B (ipak), Bcast 120 B (dpak), Barrier,
// Bcast 4 B, Allreduce 4 B (pinit_omp), Cart_create + 2 Cart_sub, 4 × Allreduce 4 B (setup),
// 2 × Allreduce 4 B (translv). End: with soloutp = 1 a Bcast 4 B and, for every group, a Send of
// the output plane (nx·ny_l doubles, tag g, comm_space) from each rank owning plane k = kplane
// (default nz/2+1) to rank 0, which receives them in yproc order; then Barrier, Bcast 4 B,
// Finalize.
//
// Deviations from SNAP, forced by the trace model: (1) SNAP never completes the last Isends of a
// sweep (multiswp = 0 resets them to MPI_REQUEST_NULL, multiswp = 1 leaves them); here a request
// stays pending until the next Waitall that SNAP would call on its slot, and one Waitall before the
// final Barrier completes what is left. (2) multiswp = 0: the Waitall lists the pending Isends
// only and is skipped when none are (SNAP's first one waits on null requests), so a rank makes
// one Waitall less there and one more at the end. (3) multiswp = 1: SNAP's polling (Testsome on
// the receives, Test on the previous sends of the corner) is one Waitall per op on the corner's
// receives and its previous op's sends (none if there are none).
//
// Compute model (flops, at kFlopsPerNs), cells = nx·ny_l·nz_l per rank: a chunk op 20 per cell
// and angle (ichunk·ny_l·nz_l·nang); outer source 2·ng·nmom per cell and group (scattering from
// every group); inner source 2·nmom per cell and group; convergence test 3 per cell and group.

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
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
constexpr double kCellAngleFlops = 20;
constexpr double kOuterSourceFlops = 2;
constexpr double kInnerSourceFlops = 2;
constexpr double kConvergenceFlops = 3;
constexpr std::int32_t kGroupTag = 16384;
constexpr std::int32_t kCornerTag = 4096;
// The multiswp = 1 schedule holds one byte per rank, corner and chunk op of a sweep.
constexpr std::int64_t kMaxScheduleBytes = std::int64_t{1} << 28;

struct Parameter {
  std::string_view key;
  std::string_view description;
  std::int64_t min;
  std::int64_t max;
};

constexpr std::int64_t kBig = std::int64_t{1} << 20;

// Every key a deck or --set may give, with its range. Defaults live in the decks below.
constexpr std::array<Parameter, 17> kParameters{{
    {"npey", "ranks along y", 1, kBig},
    {"npez", "ranks along z", 1, kBig},
    {"nx", "cells along x (never split)", 1, kBig},
    {"ny", "cells along y", 1, kBig},
    {"nz", "cells along z", 1, kBig},
    {"ichunk", "x cells per chunk (divides nx)", 1, kBig},
    {"nang", "angles per octant", 1, 1 << 16},
    {"ng", "energy groups", 1, 4096},
    {"nmom", "scattering moments", 1, 4},
    {"iitm", "SNAP's inner iteration limit", 1, 1000},
    {"oitm", "SNAP's outer iteration limit", 1, 10000},
    {"outers", "outers run per time step (plus SNAP's extra outer)", 1, 10000},
    {"inners", "inners run per outer (at most iitm)", 1, 1000},
    {"multiswp", "sweep driver: 1 concurrent corners (SNAP's default), 0 classic KBA", 0, 1},
    {"soloutp", "1: gather the flux of one k-plane to rank 0 at the end", 0, 1},
    {"timedep", "1: time-dependent (nsteps time steps), 0: static (one step)", 0, 1},
    {"nsteps", "time steps (with timedep = 1)", 1, 10000},
}};
// kplane is checked against nz; it is listed apart so the table above keeps fixed ranges.
constexpr Parameter kKplane{"kplane", "output k-plane of soloutp (0: nz/2+1)", 0, kBig};

using Values = std::map<std::string, std::int64_t, std::less<>>;

struct Deck {
  std::string_view name;
  std::string_view about;
  Values values;
};

// SNAP's namelist defaults (plib.F90, geom.f90, sn.f90, data.f90, control.f90) that a deck does
// not set, then the deck's own values. nthreads = 2 in both qasnap decks is modelled as 1.
const std::vector<Deck>& decks() {
  static const std::vector<Deck> all{
      {"sample",
       "qasnap/sample/inp: 2x2 ranks, 6x6x6 cells, 10 angles, 4 groups",
       {{"npey", 2},
        {"npez", 2},
        {"nx", 6},
        {"ny", 6},
        {"nz", 6},
        {"ichunk", 2},
        {"nang", 10},
        {"ng", 4},
        {"nmom", 1},
        {"iitm", 5},
        {"oitm", 30},
        {"multiswp", 1},
        {"soloutp", 1},
        {"timedep", 0},
        {"nsteps", 1},
        {"kplane", 0}}},
      {"benchmark",
       "qasnap/benchmark/inp: 4x4 ranks, 640x16x16 cells, 48 angles, 54 groups",
       {{"npey", 4},
        {"npez", 4},
        {"nx", 640},
        {"ny", 16},
        {"nz", 16},
        {"ichunk", 64},
        {"nang", 48},
        {"ng", 54},
        {"nmom", 4},
        {"iitm", 5},
        {"oitm", 100},
        {"multiswp", 1},
        {"soloutp", 0},
        {"timedep", 1},
        {"nsteps", 2},
        {"kplane", 0}}},
      // mapsim's reading of OHTMA's weak scaling: npey = 16, npez = ranks/16, 32x8x8 cells per
      // rank (2048, in the qasnap Readme's 2000-5000), 48 angles, 30 groups, 2 moments.
      {"ohtma",
       "weak scaling: 16 x N/16 ranks, 32x8x8 cells, 48 angles, 30 groups per rank",
       {{"npey", 16},
        {"nx", 32},
        {"ichunk", 8},
        {"nang", 48},
        {"ng", 30},
        {"nmom", 2},
        {"iitm", 5},
        {"oitm", 100},
        {"multiswp", 1},
        {"soloutp", 0},
        {"timedep", 0},
        {"nsteps", 1},
        {"kplane", 0}}},
  };
  return all;
}
constexpr std::int64_t kOhtmaLocal = 8;  // ny_l = nz_l of the ohtma deck
constexpr std::int64_t kDefaultOuters = 2;
constexpr std::string_view kDefaultDeck = "sample";

std::vector<std::string_view> deck_names() {
  std::vector<std::string_view> names;
  for (const auto& deck : decks()) names.push_back(deck.name);
  return names;
}

std::vector<std::string_view> parameter_keys() {
  std::vector<std::string_view> keys;
  for (const auto& p : kParameters) keys.push_back(p.key);
  keys.push_back(kKplane.key);
  return keys;
}

// The most nearly square npey × npez = ranks with npey | ny and npez | nz (npey ≤ npez on ties),
// or {0, 0} if there is none.
std::pair<std::int64_t, std::int64_t> balanced_grid(std::int64_t ranks, std::int64_t ny,
                                                    std::int64_t nz) {
  std::pair<std::int64_t, std::int64_t> best{0, 0};
  for (std::int64_t y = 1; y <= ranks; ++y) {
    if (ranks % y != 0 || ny % y != 0 || nz % (ranks / y) != 0) continue;
    const auto z = ranks / y;
    if (best.first == 0 || std::abs(y - z) < std::abs(best.first - best.second)) best = {y, z};
  }
  return best;
}

/// The deck's values with the overrides applied, checked as SNAP's input_check does.
struct Setup {
  std::int64_t npey, npez, nx, ny, nz, ichunk, nang, ng, nmom, iitm, oitm, outers, inners;
  std::int64_t multiswp, soloutp, steps, kplane;
  std::int64_t ny_l() const { return ny / npey; }
  std::int64_t nz_l() const { return nz / npez; }
  std::int64_t nc() const { return nx / ichunk; }
};

Setup resolve(const GeneratorOptions& options) {
  // No deck (GeneratorOptions built without one, e.g. by loops over every generator): sample.
  const std::string_view name = options.deck.empty() ? kDefaultDeck : options.deck;
  const auto where = [&] { return fmt::format("snap deck '{}'", name); };
  const auto names = deck_names();
  const auto deck =
      std::find_if(decks().begin(), decks().end(), [&](const Deck& d) { return d.name == name; });
  if (deck == decks().end()) {
    throw InputError(fmt::format("unknown snap deck '{}' (valid: {}){}", name,
                                 fmt::join(names, ", "), suggest_suffix(name, names)));
  }
  const auto keys = parameter_keys();
  for (const auto& [key, value] : options.parameters) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      throw InputError(fmt::format("{}: unknown parameter '{}' (valid: {}){}", where(), key,
                                   fmt::join(keys, ", "), suggest_suffix(key, keys)));
    }
  }
  for (const auto& p : kParameters) {
    const auto given = options.parameters.find(std::string(p.key));
    if (given != options.parameters.end() && (given->second < p.min || given->second > p.max)) {
      throw InputError(fmt::format("{}: {} = {} is out of range {} .. {} ({})", where(), p.key,
                                   given->second, p.min, p.max, p.description));
    }
  }
  Values v = deck->values;
  for (const auto& [key, value] : options.parameters) v[key] = value;
  const auto given = [&](std::string_view key) {
    return options.parameters.contains(std::string(key));
  };
  const auto ranks = static_cast<std::int64_t>(options.ranks);

  // The process grid: the deck's if it fits the rank count; else the one of npey / npez given,
  // the other from the rank count; else the most nearly square one the cells divide.
  const bool ohtma = deck->name == "ohtma";
  if (ohtma) {
    if (!given("npez")) {
      if (ranks % v["npey"] != 0) {
        throw InputError(
            fmt::format("{}: {} ranks is not a multiple of npey = {}", where(), ranks, v["npey"]));
      }
      v["npez"] = ranks / v["npey"];
    }
    if (!given("ny")) v["ny"] = v["npey"] * kOhtmaLocal;
    if (!given("nz")) v["nz"] = v["npez"] * kOhtmaLocal;
  } else if (!given("npey") && !given("npez") && v["npey"] * v["npez"] != ranks) {
    const auto [y, z] = balanced_grid(ranks, v["ny"], v["nz"]);
    if (y == 0) {
      throw InputError(fmt::format(
          "{}: no npey x npez grid of {} ranks divides ny = {} and nz = {}; set npey and npez",
          where(), ranks, v["ny"], v["nz"]));
    }
    v["npey"] = y;
    v["npez"] = z;
  } else if (given("npey") != given("npez")) {
    const std::string known = given("npey") ? "npey" : "npez";
    const std::string other = given("npey") ? "npez" : "npey";
    if (ranks % v[known] != 0) {
      throw InputError(fmt::format("{}: {} = {} does not divide the rank count {}", where(), known,
                                   v[known], ranks));
    }
    v[other] = ranks / v[known];
  }

  Setup s{};
  s.npey = v["npey"];
  s.npez = v["npez"];
  s.nx = v["nx"];
  s.ny = v["ny"];
  s.nz = v["nz"];
  s.ichunk = v["ichunk"];
  s.nang = v["nang"];
  s.ng = v["ng"];
  s.nmom = v["nmom"];
  s.iitm = v["iitm"];
  s.oitm = v["oitm"];
  s.multiswp = v["multiswp"];
  s.soloutp = v["soloutp"];
  s.steps = v["timedep"] == 1 ? v["nsteps"] : 1;
  s.kplane = v["kplane"];
  // --iterations, if given, overrides both the outers parameter and the default.
  s.outers =
      options.iterations.value_or(given("outers") ? v["outers"] : std::min(kDefaultOuters, s.oitm));
  s.inners = given("inners") ? v["inners"] : s.iitm;

  const auto fail = [&](const std::string& why) {
    return InputError(fmt::format("{} on {} ranks: {}", where(), ranks, why));
  };
  if (s.npey * s.npez != ranks) {
    throw fail(fmt::format("npey*npez = {}*{} = {} must equal the rank count", s.npey, s.npez,
                           s.npey * s.npez));
  }
  if (s.ny % s.npey != 0) throw fail(fmt::format("npey = {} must divide ny = {}", s.npey, s.ny));
  if (s.nz % s.npez != 0) throw fail(fmt::format("npez = {} must divide nz = {}", s.npez, s.nz));
  if (s.nx % s.ichunk != 0) {
    throw fail(fmt::format("ichunk = {} must divide nx = {}", s.ichunk, s.nx));
  }
  if (s.nc() > 2048) {
    throw fail(
        fmt::format("nx/ichunk = {} chunks: at most 2048, or the tags of groups overlap", s.nc()));
  }
  if (s.outers > s.oitm) {
    throw fail(fmt::format("outers = {} exceeds oitm = {}", s.outers, s.oitm));
  }
  if (s.inners > s.iitm) {
    throw fail(fmt::format("inners = {} exceeds iitm = {}", s.inners, s.iitm));
  }
  if (s.kplane < 0 || s.kplane > s.nz) {
    throw fail(fmt::format("kplane = {} is out of range 0 .. nz = {}", s.kplane, s.nz));
  }
  // SNAP's control.f90: one rank sweeps with the classic driver.
  if (ranks == 1) s.multiswp = 0;
  return s;
}

class Snap final : public Workload {
 public:
  explicit Snap(const Setup& s) : s_(s) {}

  [[nodiscard]] Rank rank_count() const override { return static_cast<Rank>(s_.npey * s_.npez); }
  [[nodiscard]] std::optional<std::int64_t> iterations() const override { return s_.outers; }
  /// Every outer sends the same messages and calls the same collectives, whatever its index.
  [[nodiscard]] bool affine_in_iterations(bool /*collectives*/) const override { return true; }
  [[nodiscard]] std::vector<CommSpec> communicators() const override {
    std::vector<CommSpec> comms{world_communicator(rank_count())};
    CommSpec snap = comms[0];
    snap.name = "comm_snap";
    snap.parent = kWorld;
    comms.push_back(snap);
    CommSpec space = comms[0];
    space.name = "comm_space";
    space.parent = kSnap;
    comms.push_back(space);
    for (std::int64_t z = 0; z < s_.npez; ++z) {
      CommSpec y{fmt::format("ycomm[z={}]", z), {}, kSpace};
      for (std::int64_t p = 0; p < s_.npey; ++p) y.members.push_back(world(p, z));
      comms.push_back(std::move(y));
    }
    for (std::int64_t p = 0; p < s_.npey; ++p) {
      CommSpec z{fmt::format("zcomm[y={}]", p), {}, kSpace};
      for (std::int64_t q = 0; q < s_.npez; ++q) z.members.push_back(world(p, q));
      comms.push_back(std::move(z));
    }
    return comms;
  }

  void run(Mpi& mpi) const override {
    const Place r = place(mpi.rank());
    const double cells = static_cast<double>(s_.nx * s_.ny_l() * s_.nz_l());
    const double ng = static_cast<double>(s_.ng);
    const double nmom = static_cast<double>(s_.nmom);

    mpi.init();
    mpi.comm_dup(kWorld, kSnap);
    mpi.barrier(kSnap);
    for (int i = 0; i < 5; ++i) mpi.bcast(kInt, 0, kSnap);
    mpi.bcast(30 * kInt, 0, kSnap);
    mpi.bcast(15 * kDouble, 0, kSnap);
    mpi.barrier(kSnap);
    mpi.bcast(kInt, 0, kSnap);
    mpi.allreduce(kInt, kSnap);  // pinit_omp
    mpi.comm_dup(kSnap, kSpace);
    mpi.comm_split(kSpace, r.ycomm);
    mpi.comm_split(kSpace, r.zcomm);
    for (int i = 0; i < 6; ++i) mpi.allreduce(kInt, kSnap);  // setup (4), translv (2)

    Outstanding outstanding;
    const auto outer = [&](std::int64_t inners) {
      mpi.flops(kOuterSourceFlops * ng * ng * nmom * cells);
      for (std::int64_t inner = 0; inner < inners; ++inner) {
        mpi.flops(kInnerSourceFlops * nmom * ng * cells);
        if (s_.multiswp == 1) {
          sweep_concurrent(mpi, r, outstanding);
        } else {
          sweep_classic(mpi, r, outstanding);
        }
        mpi.flops(kConvergenceFlops * ng * cells);
        mpi.allreduce(s_.ng * kDouble, kSnap);
      }
      mpi.allreduce(kDouble, kSnap);
    };
    for (std::int64_t step = 0; step < s_.steps; ++step) {
      for (std::int64_t o = 0; o < s_.outers; ++o) outer(s_.inners);
      outer(1);  // angcpy = 1: the extra outer
    }

    if (s_.soloutp == 1) output_gather(mpi, r);
    std::vector<RequestId> left;
    for (auto& sends : outstanding.sends) left.insert(left.end(), sends.begin(), sends.end());
    if (!left.empty()) mpi.waitall(left);  // deviation (1): SNAP leaves them pending
    mpi.barrier(kSnap);
    mpi.bcast(kInt, 0, kSnap);
    mpi.finalize();
  }

 private:
  static constexpr CommId kSnap = 1;
  static constexpr CommId kSpace = 2;

  /// A corner as one rank sees it: neighbours up- and downstream (world ranks, -1 if none) and
  /// the rank's stage in the corner's wavefront.
  struct Corner {
    Rank up_y = -1, down_y = -1, up_z = -1, down_z = -1;
    std::int64_t stage = 0;
  };
  struct Place {
    std::int64_t y = 0, z = 0;
    CommId ycomm = 0, zcomm = 0;
    std::array<Corner, 4> corners{};  // c = 0 … 3: (jd, kd) = (1,1), (2,1), (1,2), (2,2)
  };
  /// Isends not yet completed: per corner (multiswp = 1), or all in entry 0 (multiswp = 0).
  struct Outstanding {
    std::array<std::vector<RequestId>, 4> sends;
  };

  [[nodiscard]] Rank world(std::int64_t y, std::int64_t z) const {
    return static_cast<Rank>(z * s_.npey + y);
  }

  [[nodiscard]] Place place(Rank rank) const {
    Place r;
    r.y = rank % s_.npey;
    r.z = rank / s_.npey;
    r.ycomm = static_cast<CommId>(3 + r.z);
    r.zcomm = static_cast<CommId>(3 + s_.npez + r.y);
    const auto at = [&](std::int64_t y, std::int64_t z) -> Rank {
      if (y < 0 || y >= s_.npey || z < 0 || z >= s_.npez) return -1;
      return world(y, z);
    };
    for (int c = 0; c < 4; ++c) {
      const std::int64_t dy = c % 2 == 0 ? -1 : +1;  // jd = 1 flows towards −y
      const std::int64_t dz = c < 2 ? -1 : +1;
      Corner& corner = r.corners[static_cast<std::size_t>(c)];
      corner.up_y = at(r.y - dy, r.z);
      corner.down_y = at(r.y + dy, r.z);
      corner.up_z = at(r.y, r.z - dz);
      corner.down_z = at(r.y, r.z + dz);
      corner.stage = (dy < 0 ? s_.npey - 1 - r.y : r.y) + (dz < 0 ? s_.npez - 1 - r.z : r.z);
    }
    return r;
  }

  [[nodiscard]] std::int64_t y_face() const { return s_.nang * s_.ichunk * s_.nz_l() * kDouble; }
  [[nodiscard]] std::int64_t z_face() const { return s_.nang * s_.ichunk * s_.ny_l() * kDouble; }
  [[nodiscard]] double chunk_flops() const {
    return kCellAngleFlops * static_cast<double>(s_.ichunk * s_.ny_l() * s_.nz_l() * s_.nang);
  }

  // The chunk op's sends, downstream in y then in z.
  void send_faces(Mpi& mpi, const Place& r, const Corner& corner, std::int32_t tag,
                  std::vector<RequestId>& sends) const {
    if (corner.down_y >= 0) sends.push_back(mpi.isend(corner.down_y, tag, y_face(), r.ycomm));
    if (corner.down_z >= 0) sends.push_back(mpi.isend(corner.down_z, tag, z_face(), r.zcomm));
  }

  void sweep_classic(Mpi& mpi, const Place& r, Outstanding& outstanding) const {
    static constexpr std::array<int, 4> kSquareOrder{0, 1, 3, 2};  // (1,1),(2,1),(2,2),(1,2)
    static constexpr std::array<int, 4> kWideOrder{0, 2, 3, 1};    // (1,1),(1,2),(2,2),(2,1)
    const auto& order = s_.npey <= s_.npez ? kSquareOrder : kWideOrder;
    auto& pending = outstanding.sends[0];
    const std::int64_t ops = 2 * s_.nc();
    for (const int c : order) {
      const Corner& corner = r.corners[static_cast<std::size_t>(c)];
      const bool downstream = corner.down_y >= 0 || corner.down_z >= 0;
      for (std::int64_t g = 1; g <= s_.ng; ++g) {
        for (std::int64_t iop = 1; iop <= ops; ++iop) {
          const auto tag = static_cast<std::int32_t>(g * kGroupTag + ops * c + iop);
          if (corner.up_y >= 0) mpi.recv(corner.up_y, tag, y_face(), r.ycomm);
          if (corner.up_z >= 0) mpi.recv(corner.up_z, tag, z_face(), r.zcomm);
          if (downstream && !pending.empty()) {  // deviation (2): no Waitall on nothing
            mpi.waitall(pending);
            pending.clear();
          }
          mpi.flops(chunk_flops());
          send_faces(mpi, r, corner, tag, pending);
        }
      }
    }
  }

  void sweep_concurrent(Mpi& mpi, const Place& r, Outstanding& outstanding) const {
    const std::int64_t ops = 2 * s_.nc();
    const std::int64_t total = ops * s_.ng;
    const auto tag = [&](int c, std::int64_t k) {
      return static_cast<std::int32_t>((k / ops + 1) * kGroupTag + kCornerTag * c + k % ops + 1);
    };
    std::array<std::vector<RequestId>, 4> receives;
    std::array<std::int64_t, 4> done{};
    const auto post = [&](int c) {
      const Corner& corner = r.corners[static_cast<std::size_t>(c)];
      const auto k = done[static_cast<std::size_t>(c)];
      if (k == total) return;
      auto& posted = receives[static_cast<std::size_t>(c)];
      if (corner.up_y >= 0) posted.push_back(mpi.irecv(corner.up_y, tag(c, k), y_face(), r.ycomm));
      if (corner.up_z >= 0) posted.push_back(mpi.irecv(corner.up_z, tag(c, k), z_face(), r.zcomm));
    };
    for (int c = 0; c < 4; ++c) post(c);
    for (const std::uint8_t corner_index : schedule()[static_cast<std::size_t>(mpi.rank())]) {
      const int c = corner_index;
      const auto slot = static_cast<std::size_t>(c);
      auto& waited = receives[slot];
      auto& sends = outstanding.sends[slot];
      waited.insert(waited.end(), sends.begin(), sends.end());  // deviation (3)
      sends.clear();
      if (!waited.empty()) mpi.waitall(waited);
      waited.clear();
      mpi.flops(chunk_flops());
      send_faces(mpi, r, r.corners[slot], tag(c, done[slot]), sends);
      ++done[slot];
      post(c);
    }
  }

  // For every rank, the corner of each chunk op of one multiswp = 1 sweep, in issue order: the
  // lock-step rounds of the header. Computed once, on first use (run() may run on many threads).
  [[nodiscard]] const std::vector<std::vector<std::uint8_t>>& schedule() const {
    std::call_once(schedule_once_, [&] { schedule_ = make_schedule(); });
    return schedule_;
  }

  [[nodiscard]] std::vector<std::vector<std::uint8_t>> make_schedule() const {
    const auto ranks = static_cast<std::size_t>(rank_count());
    const std::int64_t total = 2 * s_.nc() * s_.ng;
    const std::int64_t nstg = total + s_.npey + s_.npez - 2;
    std::vector<Place> places(ranks);
    for (std::size_t i = 0; i < ranks; ++i) places[i] = place(static_cast<Rank>(i));
    std::vector<std::array<std::int64_t, 4>> done(ranks);
    std::vector<std::vector<std::uint8_t>> order(ranks);
    for (auto& o : order) o.reserve(static_cast<std::size_t>(4 * total));
    std::vector<int> chosen(ranks, -1);
    const auto count = [&](Rank rank, int c) {
      return done[static_cast<std::size_t>(rank)][static_cast<std::size_t>(c)];
    };
    std::int64_t left = static_cast<std::int64_t>(ranks) * 4 * total;
    while (left > 0) {
      for (std::size_t i = 0; i < ranks; ++i) {
        chosen[i] = -1;
        std::int64_t best = 0;
        for (int c = 0; c < 4; ++c) {
          const Corner& corner = places[i].corners[static_cast<std::size_t>(c)];
          const auto k = done[i][static_cast<std::size_t>(c)];
          if (k == total) continue;
          const bool received = (corner.up_y < 0 || count(corner.up_y, c) > k) &&
                                (corner.up_z < 0 || count(corner.up_z, c) > k);
          const bool sent = k == 0 || ((corner.down_y < 0 || count(corner.down_y, c) >= k - 1) &&
                                       (corner.down_z < 0 || count(corner.down_z, c) >= k - 1));
          const auto tcor = nstg - k - corner.stage;
          if (received && sent && (chosen[i] < 0 || tcor > best)) {
            chosen[i] = c;
            best = tcor;
          }
        }
      }
      bool progressed = false;
      for (std::size_t i = 0; i < ranks; ++i) {
        if (chosen[i] < 0) continue;
        ++done[i][static_cast<std::size_t>(chosen[i])];
        order[i].push_back(static_cast<std::uint8_t>(chosen[i]));
        --left;
        progressed = true;
      }
      MAPSIM_EXPECTS(progressed, "snap: the multiswp=1 schedule stalled");
    }
    return order;
  }

  // soloutp = 1: every rank on the output plane sends it to rank 0, group by group.
  void output_gather(Mpi& mpi, const Place& r) const {
    mpi.bcast(kInt, 0, kSnap);
    const std::int64_t k = s_.kplane > 0 ? s_.kplane : s_.nz / 2 + 1;
    const std::int64_t owner = (k - 1) / s_.nz_l();
    const std::int64_t bytes = s_.nx * s_.ny_l() * kDouble;
    for (std::int64_t g = 1; g <= s_.ng; ++g) {
      const auto tag = static_cast<std::int32_t>(g);
      if (mpi.rank() == 0) {
        for (std::int64_t y = 0; y < s_.npey; ++y) {
          if (world(y, owner) != 0) mpi.recv(world(y, owner), tag, bytes, kSpace);
        }
      } else if (r.z == owner) {
        mpi.send(0, tag, bytes, kSpace);
      }
    }
  }

  Setup s_;
  mutable std::once_flag schedule_once_;
  mutable std::vector<std::vector<std::uint8_t>> schedule_;
};

}  // namespace

std::unique_ptr<Workload> make_snap(const GeneratorOptions& options) {
  const Setup s = resolve(options);
  if (s.multiswp == 1 && s.npey * s.npez * 8 * s.nc() * s.ng > kMaxScheduleBytes) {
    throw InputError(fmt::format(
        "snap deck '{}': the multiswp=1 order of {} ranks x {} chunk ops would take more than "
        "256 MiB; use multiswp=0 or fewer groups",
        options.deck.empty() ? kDefaultDeck : std::string_view(options.deck), s.npey * s.npez,
        8 * s.nc() * s.ng));
  }
  return std::make_unique<Snap>(s);
}

}  // namespace mapsim::traces
