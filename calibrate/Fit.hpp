#pragma once
// Fitting a calibration (sim/Calibration.hpp) to what benchmarks measured between two nodes of a
// machine, so that mapsim's replay of a lone message takes the time the benchmark measured:
//
//   T(n) = o_s + o_r + L * lat_factor(m) + m / (W * bw_factor(m)),   m = n + E
//
// n the payload, E the MPI library's envelope (bytes every message carries beyond its payload;
// 0 unless given: a ping-pong cannot tell it from latency, but it decides whether an empty
// message pays the small messages' factors and shares bandwidth, as SMPI's 16 bytes do),
// L and W the route latency and bottleneck bandwidth mapsim gives the two nodes (the machine's
// link classes). The fit is over the wire sizes m, and the calibration it writes carries E
// (`envelope:`), so that the replay looks the factors up where the fit found them:
// 1. Segments. The one-way times (osu_latency, IMB PingPong) are cut into at most kMaxSegments
//    runs of consecutive sizes — the protocol switches, found from the data — each run fitted by
//    a line a_k + b_k n minimising the squared relative error. The cuts minimise the total
//    squared relative error plus kSegmentPenalty per segment (dynamic programming over the
//    sizes): a segment must cut the error by more than it costs. A run has at least
//    kMinSegmentPoints sizes.
// 2. Overheads (Intercept::Overheads, the default). o_s = o_r = (a_0 - L) / 2 on the channel of
//    the two nodes (network, or intra-node when they are one node): what the smallest messages
//    take beyond the route's latency (0 when the route alone is slower than measured) is CPU
//    time on the ranks, as on real MPI libraries. With Intercept::Latency it stays latency
//    (o_s = o_r = 0, the latency factors carry it), as SimGrid's SMPI models it: the right
//    reading when the "machine" measured is SMPI itself (bench/calibration_loop.sh).
// 3. Factors per segment k. lat_factor = (a_k - o_s - o_r) / L (at least kMinFactor), and
//    bw_factor = 1 / (b_k W) — or, where a bandwidth series (osu_bw, osu_bibw, osu_mbw_mr, IMB
//    PingPing, Sendrecv) has sizes in the segment that are bandwidth-bound (n / B(n) at least
//    kBandwidthBound times max(a_k, L): a stream of small messages measures the message rate,
//    and IMB's Mbytes/sec includes the latency), the median of B(n) / W over them, the segment's
//    intercept then refitted to that per-byte time (a_k minimising the same error with b_k
//    fixed; o_s and o_r from segment 0's, refitted or not). In SimGrid's
//    notation a step "S:F" applies above S: segment k >= 1 starts above the last size of segment k
//    - 1, segment 0 above size 0 (sizes on the wire); without an envelope a zero-byte message
//    keeps factor 1 (its time is the intercept: o_s + o_r + L).
// Without a one-way time series, the bandwidth series alone give one bandwidth factor for every
// size > 0 (the median over the bandwidth-bound sizes, n / B(n) >= kBandwidthBound * L) and no
// overheads.

#include <cstdint>
#include <vector>

#include "calibrate/BenchmarkOutput.hpp"
#include "sim/Calibration.hpp"

namespace mapsim::calib {

/// Enough for SimGrid's SMPI default factors (nine steps, two pairs of them nearly equal).
inline constexpr int kMaxSegments = 10;
inline constexpr int kMinSegmentPoints = 3;
inline constexpr double kSegmentPenalty = 1e-3;
inline constexpr double kMinFactor = 0.01;
inline constexpr double kBandwidthBound = 10;

struct Segment {
  std::int64_t first = 0;  ///< smallest payload of the segment
  std::int64_t last = 0;   ///< largest
  double intercept = 0;    ///< a_k, seconds
  double per_byte = 0;     ///< b_k, seconds per byte
  double latency_factor = 1;
  double bandwidth_factor = 1;
  bool bandwidth_measured = false;    ///< bw_factor from a bandwidth series
  double slope_bandwidth_factor = 1;  ///< what the one-way times' slope alone gives
};

struct Fit {
  sim::Calibration calibration;
  std::vector<Segment> segments;
  sim::Channel channel = sim::Channel::Network;
  double route_latency = 0;    ///< L, seconds
  double route_bandwidth = 0;  ///< W, bytes per second
  /// Largest |modelled / measured - 1| over the one-way time points, but a zero-byte one
  /// without an envelope (it keeps factor 1 whatever the fit: zero_bytes_error).
  double max_relative_error = 0;
  std::int64_t worst_bytes = 0;  ///< the size where it is largest
  /// The same at 0 bytes without an envelope, if measured there (else negative).
  double zero_bytes_error = -1;
  std::size_t one_way_points = 0;  ///< one-way times fitted (0: bandwidth series only)
};

/// Fits `series` (see above); throws InputError if there is nothing to fit (no series with
/// points, or fewer one-way sizes than kMinSegmentPoints).
/// Where a segment's intercept beyond the route latency goes (see above).
enum class Intercept : std::uint8_t { Overheads, Latency };

/// `envelope`: E above, 0 to sim::kMaxEnvelope (InputError otherwise).
Fit fit_calibration(const std::vector<Series>& series, double route_latency, double route_bandwidth,
                    sim::Channel channel, Intercept intercept = Intercept::Overheads,
                    std::int64_t envelope = 0);

/// T(n) of the fit's calibration for the two nodes and a payload of n bytes, seconds.
double modelled_time(const Fit& fit, std::int64_t bytes);

}  // namespace mapsim::calib
