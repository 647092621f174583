#include "calibrate/Fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/NetworkModel.hpp"
#include "support/Error.hpp"

namespace mapsim::calib {
namespace {

/// The line a + b n through points [i, j] minimising sum ((a + b n - t) / t)^2, and that sum.
struct Line {
  double a = 0;
  double b = 0;
  double error = 0;
};

Line fit_line(const std::vector<Point>& p, std::size_t i, std::size_t j) {
  // Weighted least squares with weights 1 / t^2.
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = i; k <= j; ++k) {
    const double t = std::max(p[k].value, 1e-15);
    const double w = 1 / (t * t);
    const auto x = static_cast<double>(p[k].bytes);
    sw += w;
    sx += w * x;
    sy += w * t;
    sxx += w * x * x;
    sxy += w * x * t;
  }
  Line line;
  const double det = sw * sxx - sx * sx;
  if (std::abs(det) <= 1e-300 * sw * sxx || det == 0) {
    line.a = sy / sw;  // one distinct size: a constant
  } else {
    line.b = (sw * sxy - sx * sy) / det;
    line.a = (sy - line.b * sx) / sw;
  }
  for (std::size_t k = i; k <= j; ++k) {
    const double t = std::max(p[k].value, 1e-15);
    const double r = (line.a + line.b * static_cast<double>(p[k].bytes) - t) / t;
    line.error += r * r;
  }
  return line;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

Fit fit_calibration(const std::vector<Series>& series, double route_latency, double route_bandwidth,
                    sim::Channel channel, Intercept intercept, std::int64_t envelope) {
  if (envelope < 0 || envelope > sim::kMaxEnvelope) {
    throw InputError(
        fmt::format("--envelope {} is outside 0 to {} bytes", envelope, sim::kMaxEnvelope));
  }
  Fit fit;
  fit.calibration.envelope = envelope;
  fit.channel = channel;
  fit.route_latency = route_latency;
  fit.route_bandwidth = route_bandwidth;
  // The one-way times (osu_latency, PingPong or a ping-pong trace): one series.
  const Series* times = nullptr;
  std::vector<const Series*> streams;
  for (const auto& s : series) {
    if (s.measure == Measure::OneWayTime) {
      if (times != nullptr) {
        throw InputError(fmt::format(
            "calibrate: two series of one-way times, {} ({}) and {} ({}): each would fit the "
            "whole calibration; give one (bandwidth series may come with it)",
            times->benchmark, times->source, s.benchmark, s.source));
      }
      times = &s;
    }
    if (s.measure == Measure::Bandwidth) streams.push_back(&s);
  }
  // The bandwidth sizes in [first, last] whose time n / B(n) is at least kBandwidthBound times
  // `latency`: a stream of small messages measures the message rate, not the bandwidth.
  const auto stream_factor = [&](std::int64_t first, std::int64_t last,
                                 double latency) -> std::optional<double> {
    std::vector<double> ratios;
    for (const auto* s : streams) {
      for (const auto& p : s->points) {
        if (p.bytes >= first && p.bytes <= last && p.bytes > 0 && p.value > 0 &&
            static_cast<double>(p.bytes) / p.value >= kBandwidthBound * latency)
          ratios.push_back(p.value / route_bandwidth);
      }
    }
    if (ratios.empty()) return std::nullopt;
    return median(ratios);
  };
  if (times == nullptr) {
    if (streams.empty()) throw InputError("calibrate: no benchmark series to fit");
    const auto factor = stream_factor(1, std::numeric_limits<std::int64_t>::max(), route_latency);
    if (!factor) {
      throw InputError(fmt::format(
          "calibrate: no bandwidth size is large enough to measure bandwidth (n / B(n) at least "
          "{} times the route latency); give one-way times too (osu_latency, IMB PingPong)",
          kBandwidthBound));
    }
    fit.calibration.bandwidth_factor =
        sim::SizeFactors::parse(fmt::format("0:{}", *factor), "calibrate");
    Segment whole;
    whole.first = 1;
    whole.last = std::numeric_limits<std::int64_t>::max();
    whole.bandwidth_factor = *factor;
    whole.bandwidth_measured = true;
    fit.segments.push_back(whole);
    return fit;
  }
  // The one-way times by the bytes each message carries on the wire: payload + envelope.
  std::vector<Point> p = times->points;
  for (auto& point : p) point.bytes += envelope;
  const auto n = p.size();
  fit.one_way_points = n;
  if (n < static_cast<std::size_t>(kMinSegmentPoints)) {
    throw InputError(fmt::format("calibrate: {} ({}) has {} sizes; at least {} are needed",
                                 times->benchmark, times->source, n, kMinSegmentPoints));
  }
  // best[j][k]: least cost of cutting points [0, j) into k segments.
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  const auto m = static_cast<std::size_t>(kMinSegmentPoints);
  std::vector<std::vector<double>> best(n + 1, std::vector<double>(kMaxSegments + 1, kInfinity));
  std::vector<std::vector<std::size_t>> cut(n + 1, std::vector<std::size_t>(kMaxSegments + 1, 0));
  best[0][0] = 0;
  for (std::size_t j = m; j <= n; ++j) {
    for (int k = 1; k <= kMaxSegments; ++k) {
      for (std::size_t i = 0; i + m <= j; ++i) {
        if (best[i][k - 1] == kInfinity) continue;
        const double cost = best[i][k - 1] + fit_line(p, i, j - 1).error + kSegmentPenalty;
        if (cost < best[j][k]) {
          best[j][k] = cost;
          cut[j][k] = i;
        }
      }
    }
  }
  int segments = 1;
  for (int k = 1; k <= kMaxSegments; ++k) {
    if (best[n][k] < best[n][segments]) segments = k;
  }
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t j = n; segments > 0; --segments) {
    const auto i = cut[j][segments];
    runs.emplace_back(i, j - 1);
    j = i;
  }
  std::reverse(runs.begin(), runs.end());

  // Each segment's line; where bandwidth series measure the segment's bandwidth, the per-byte
  // time is theirs and the intercept is refitted to it (the same weights).
  for (const auto& [i, j] : runs) {
    const Line line = fit_line(p, i, j);
    Segment s;
    s.first = p[i].bytes - envelope;
    s.last = p[j].bytes - envelope;
    s.intercept = line.a;
    s.per_byte = line.b;
    s.slope_bandwidth_factor =
        line.b > 0 ? std::max(kMinFactor, 1 / (line.b * route_bandwidth)) : 1.0;
    s.bandwidth_factor = s.slope_bandwidth_factor;
    if (const auto measured = stream_factor(s.first, s.last, std::max(line.a, route_latency))) {
      s.bandwidth_factor = std::max(kMinFactor, *measured);
      s.bandwidth_measured = true;
      s.per_byte = 1 / (route_bandwidth * s.bandwidth_factor);
      double weights = 0, sum = 0;
      for (std::size_t k = i; k <= j; ++k) {
        const double t = std::max(p[k].value, 1e-15);
        weights += 1 / (t * t);
        sum += (t - s.per_byte * static_cast<double>(p[k].bytes)) / (t * t);
      }
      s.intercept = sum / weights;
    }
    fit.segments.push_back(s);
  }
  const double overhead = intercept == Intercept::Overheads
                              ? std::max(0.0, fit.segments.front().intercept - route_latency) / 2
                              : 0.0;
  const auto ps = [](double seconds) {
    return static_cast<sim::Time>(std::llround(seconds * 1e12));
  };
  fit.calibration.overheads.of(channel).send = ps(overhead);
  fit.calibration.overheads.of(channel).receive = ps(overhead);
  std::string lat_steps, bw_steps;
  for (std::size_t k = 0; k < fit.segments.size(); ++k) {
    auto& s = fit.segments[k];
    s.latency_factor = std::max(kMinFactor, (s.intercept - 2 * overhead) / route_latency);
    const std::int64_t above = k == 0 ? 0 : fit.segments[k - 1].last + envelope;
    lat_steps += fmt::format("{}{}:{:.6g}", lat_steps.empty() ? "" : ";", above, s.latency_factor);
    bw_steps += fmt::format("{}{}:{:.6g}", bw_steps.empty() ? "" : ";", above, s.bandwidth_factor);
  }
  fit.calibration.latency_factor = sim::SizeFactors::parse(lat_steps, "calibrate");
  fit.calibration.bandwidth_factor = sim::SizeFactors::parse(bw_steps, "calibrate");
  for (const auto& point : times->points) {
    const double t = std::max(point.value, 1e-15);
    const double error = std::abs(modelled_time(fit, point.bytes) / t - 1);
    if (point.bytes == 0 && envelope == 0) {
      fit.zero_bytes_error = error;
    } else if (error > fit.max_relative_error) {
      fit.max_relative_error = error;
      fit.worst_bytes = point.bytes;
    }
  }
  return fit;
}

double modelled_time(const Fit& fit, std::int64_t bytes) {
  const auto& c = fit.calibration;
  const double overheads = static_cast<double>(c.overheads.send(fit.channel, bytes) +
                                               c.overheads.receive(fit.channel, bytes)) *
                           1e-12;
  const std::int64_t wire = bytes + c.envelope;
  return overheads + fit.route_latency * c.latency_factor(wire) +
         static_cast<double>(wire) / (fit.route_bandwidth * c.bandwidth_factor(wire));
}

}  // namespace mapsim::calib
