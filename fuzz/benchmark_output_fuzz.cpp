// OSU and IMB output as `mapsim calibrate` reads it (calibrate/BenchmarkOutput.hpp), then the fit
// (calibrate/Fit.hpp): series ascend, and a fit's calibration reads back from its text and gives
// every measured size a finite, positive modelled time.

#include <cmath>

#include "calibrate/BenchmarkOutput.hpp"
#include "calibrate/Fit.hpp"
#include "fuzz/FuzzTarget.hpp"

namespace {

void fuzz(std::string_view input) {
  const auto series = mapsim::calib::read_benchmark_output(input, "<fuzz>");
  for (const auto& s : series) {
    MAPSIM_EXPECTS(!s.points.empty(), "a series has points");
    for (std::size_t k = 1; k < s.points.size(); ++k) {
      MAPSIM_EXPECTS(s.points[k - 1].bytes < s.points[k].bytes, "sizes ascend");
    }
  }
  const auto fit =
      mapsim::calib::fit_calibration(series, 1e-6, 12.5e9, mapsim::sim::Channel::Network);
  MAPSIM_EXPECTS(mapsim::sim::parse_calibration(mapsim::sim::to_text(fit.calibration), "<again>") ==
                     fit.calibration,
                 "a fitted calibration reads back from its text");
  for (const auto& s : series) {
    for (const auto& p : s.points) {
      const double t = mapsim::calib::modelled_time(fit, p.bytes);
      MAPSIM_EXPECTS(std::isfinite(t) && t > 0, "modelled times are finite and positive");
    }
  }
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
