// Matrices recorded by libmapsim-record: read with and without collectives; the point-to-point
// part is the CSV matrix, and the collectives only add messages to it.

#include <sstream>
#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "traces/RecordedMatrix.hpp"

namespace {

void fuzz(std::string_view input) {
  mapsim::traces::MatrixOptions options;
  options.collectives = false;
  std::istringstream plain{std::string(input)};
  const auto p2p = mapsim::traces::read_recorded_matrix(plain, "<fuzz>", options);
  std::istringstream csv{std::string(input)};
  MAPSIM_EXPECTS(mapsim::traces::read_matrix_csv(csv, "<csv>") == p2p,
                 "a recorded matrix without collectives is its CSV matrix");
  // An all-to-all on 2^20 ranks takes a line to declare and hours to expand: keep runs short.
  if (p2p.rank_count() > 256) return;
  options.collectives = true;
  std::istringstream in{std::string(input)};
  const auto all = mapsim::traces::read_recorded_matrix(in, "<fuzz>", options);
  MAPSIM_EXPECTS(all.rank_count() == p2p.rank_count(), "collectives keep the rank count");
  for (mapsim::Rank src = 0; src < p2p.rank_count(); ++src) {
    const auto dsts = p2p.destinations(src);
    const auto traffic = p2p.traffic(src);
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      const auto with = all.at(src, dsts[k]);
      MAPSIM_EXPECTS(with.messages >= traffic[k].messages && with.bytes >= traffic[k].bytes,
                     "collectives only add messages");
    }
  }
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
