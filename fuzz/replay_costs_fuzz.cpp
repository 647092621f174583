// What a replay charges beyond the routes, as users write it: a calibration file
// (sim/Calibration.hpp), and the same text as an --overheads spec and as size factors. Whatever
// parses reads back from its canonical text unchanged.

#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "sim/Calibration.hpp"

namespace {

void fuzz(std::string_view input) {
  try {
    const auto calibration = mapsim::sim::parse_calibration(input, "<fuzz>");
    MAPSIM_EXPECTS(
        mapsim::sim::parse_calibration(mapsim::sim::to_text(calibration), "<again>") == calibration,
        "a calibration reads back from its text");
  } catch (const mapsim::InputError&) {
  }
  try {
    const auto overheads = mapsim::sim::parse_overheads(input, "<fuzz>");
    MAPSIM_EXPECTS(
        mapsim::sim::parse_overheads(mapsim::sim::to_string(overheads), "<again>") == overheads,
        "overheads read back from their spec");
  } catch (const mapsim::InputError&) {
  }
  const auto factors = mapsim::sim::SizeFactors::parse(input, "<fuzz>");
  MAPSIM_EXPECTS(mapsim::sim::SizeFactors::parse(factors.to_string(), "<again>") == factors,
                 "size factors read back from their text");
  for (const std::int64_t bytes :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{65536}, std::int64_t{1} << 40}) {
    const double f = factors(bytes);
    MAPSIM_EXPECTS(f > 0, "a factor is positive");
  }
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
