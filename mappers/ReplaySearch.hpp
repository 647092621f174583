#pragma once
// replay-search: a mapper that optimises the replayed time of the workload, not a static proxy
// for it. Cost of a mapping f, by `objective=`, from the replay of the trace under f with the
// model and compute scale of `model=` and `compute-scale=` (default: flow, communication only —
// the placement's own effect, which computation would hide; in `simulate`, those not given are
// its --model and --compute-scale, so that its row is never slower than its portfolio's members
// under the replay the table shows, and the report's first line says so: cli/MapperChoice.hpp;
// sweeps keep the defaults, their keys name the parameters):
//   time         T(f), the replay's makespan (the default)
//   energy       E(f), the network's energy over the replay (sim/Energy.hpp: traffic and links'
//                power, every link and channel)
//   time+energy  (1 - w) T(f)/T(f0) + w E(f)/E(f0), w = energy-weight (0.5), f0 the
//                portfolio's first mapping (in-order by default), judged under the same replay
//                (the screen's costs against f0's screen replay: one replay of the budget)
// It sees the simulator only through a TimeOracle (TimeOracle.hpp). Below, "faster" reads "of
// lower cost" under energy and time+energy.
//
// 1. Portfolio: every mapper of `portfolio=` maps the workload (default: the launcher's orders
//    in-order and round-robin, random, the curves hilbert and scan, the graph mappers greedy,
//    rcm, bisection, scotch and treematch, Bhatele's mxovlp and mht, the job placements
//    random-router and group-striped — advise's portfolio: one of each family that stays fast
//    at thousands of ranks — best under each objective: hop-bytes, congestion,
//    congestion-smooth, energy, latency, hybrid, and a halo grid's tiles, laid the same way and
//    mirrored: mxovlp:layers=tile and tile-fold with pattern=dominant, last so that they win
//    only when strictly faster);
//    those that refuse the machine are skipped and named in the report. Identical mappings are
//    merged; every distinct one is replayed under the model, and the fastest is the incumbent.
// 2. Improvement, in rounds: from the incumbent and what its replay measured, `batch` candidates,
//    each the incumbent with one rank moved (a swap with a rank on the target node, or a free core
//    there) or a block of nodes reflected, by four kinds of move in turn:
//      critical one end of a transfer on the replay's critical path (drawn uniformly among its
//               transfers, so a pair weighs by its messages there) moves next to the other
//               end: the chain of messages the makespan waits for, shortened link by link (if
//               the oracle does not follow the path: a rank among the last to finish moves next
//               to its heaviest partner);
//      link     one end of a message that crosses one of the busiest links (by replayed busy
//               time) moves next to the other end, taking that traffic off the link;
//      pair     one end of a pair drawn by bytes moves next to the other;
//      block    a random box of the grid is reflected along one of its dimensions: every rank
//               on it moves, with its core, to the mirrored node (a group of neighbours moved
//               at once, their pattern kept; machines with a grid only);
//    and in the first round, the incumbent reflected along each dimension of the grid and rotated
//    by one along each torus dimension (same hop-bytes, other routes under dimension order).
//    The candidates are screened under `screen=` (analytic by default: cheap, contention-free);
//    the `confirm` best are replayed under the model; the fastest replaces the incumbent if it
//    is faster. "Next to" a node: on it or on a node one hop away. The report counts the
//    confirmed candidates that cost exactly what the incumbent did (moves the model cannot tell
//    apart: a plateau). Plateau rule (`plateau=`, 8 by default, 0 to confirm every candidate):
//    once that many of an incumbent's candidates whose screen tied its own exactly were
//    confirmed without beating it, its further screen-tied candidates are not confirmed (a
//    round may then confirm fewer, or none); a new incumbent starts the count again. Measured on
//    static-vs-simulated's 40 contexts: the same choices in all 40, and SNAP on Tianhe-3, whose
//    moves land on a plateau of the flow time, 92.7 -> 58.8 s (docs/results/replay-search.md).
//    A candidate drawn again (rounds after a stall draw from the same incumbent) is looked up, not
//    replayed again: its screen always, its confirmation while the incumbent is the same.
// 3. Stop when the replays would pass `evaluations` (replays after the portfolio's and the
//    plateau rule's screen of the start, screened and confirmed alike; with train-start=whole,
//    below, counted in replays of the whole workload: a replay of the slice counts as its share
//    of the whole's trace events, so that the slice's cheaper replays buy more rounds; a
//    candidate looked up counts as replayed), after `stall` rounds without a gain, or once
//    `time-limit` seconds have passed since the mapping began (the portfolio's mapping and
//    replays included; a round under way finishes). The report's improvement line ends with
//    which stopped it (the budget, the stall rule — and the plateau rule's share in it — the
//    time limit, or a budget too small for one round, with the replays a round needs).
// 4. Choose on a slice, win on the whole: with `train=N` the search's replays run the first N
//    iterations of the workload only (a generated workload run with N iterations: its
//    iterations repeat the same messages, so N of them show the placement's effect at a fraction
//    of the cost). With train-start=whole (the default) the portfolio is replayed whole under the
//    model and step 2 starts from its fastest there (replayed on the slice too, with the
//    portfolio's first mapping as the reference); a round's winner on the slice is replayed whole
//    and replaces the incumbent only if it is faster there as well (one replay per round, counted
//    in `evaluations`; if it is not, the round's next fastest on the slice that beats the
//    incumbent there is tried, and so on, while the budget lasts): the slice proposes, the whole
//    workload disposes, so that the search does
//    not drift where the slice misleads (the first iterations of a wavefront code are mostly its
//    pipeline's fill). With train-start=slice the portfolio and every round replay the slice
//    only. Either way the choice and every distinct portfolio mapping are judged whole at the end
//    (the replays already made are reused) and the fastest is the result: so it is never slower
//    on the whole workload than any portfolio member. `train-share=F` cuts any trace, OTF2
//    archives included: the slice is the longest consistent cut within the first F of each
//    rank's events (traces/TraceSlice.hpp: every message and collective is kept at all its ends or
//    at none, every request kept is completed). train= on an OTF2 trace is an error (its
//    iterations are not marked); giving both is an error.
//
// The choice is never slower under the model than any portfolio member: each was replayed, and
// only faster mappings replace the incumbent (with train=, on the whole workload: step 4).
// Deterministic for a seed at any thread count: candidates are drawn from per-round streams of the
// seed before any replay, and ties go to the earlier candidate (unless time-limit strikes, which
// depends on the machine's speed).

#include <memory>
#include <span>

#include "mappers/Mapper.hpp"

namespace mapsim::map {

std::span<const ParamSpec> replay_search_params();
std::unique_ptr<Mapper> make_replay_search(const ParamValues& params);

}  // namespace mapsim::map
