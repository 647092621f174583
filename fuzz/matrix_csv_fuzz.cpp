// CSV communication matrices: read, and what was read writes back and reads the same.

#include <sstream>
#include <string>

#include "fuzz/FuzzTarget.hpp"
#include "traces/CommMatrix.hpp"

namespace {

void fuzz(std::string_view input) {
  std::istringstream in{std::string(input)};
  const auto matrix = mapsim::traces::read_matrix_csv(in, "<fuzz>");
  std::ostringstream out;
  out << "# ranks=" << matrix.rank_count() << "\nsrc,dst,messages,bytes\n";
  for (mapsim::Rank src = 0; src < matrix.rank_count(); ++src) {
    const auto dsts = matrix.destinations(src);
    const auto traffic = matrix.traffic(src);
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      out << src << ',' << dsts[k] << ',' << traffic[k].messages << ',' << traffic[k].bytes << '\n';
    }
  }
  std::istringstream again(out.str());
  MAPSIM_EXPECTS(mapsim::traces::read_matrix_csv(again, "<again>") == matrix,
                 "a matrix read back equals the matrix written");
}

}  // namespace

MAPSIM_FUZZ_TARGET(fuzz)
