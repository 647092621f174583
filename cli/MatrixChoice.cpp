#include "cli/MatrixChoice.hpp"

#include <fmt/format.h>

#include "support/Log.hpp"
#include "traces/MatrixStatistics.hpp"

namespace mapsim::cli {

void add_matrix_options(po::options_description& options) {
  options.add_options()("p2p-only",
                        "leave collectives out of the mappers' matrix (by default it counts "
                        "them as the messages the replay sends for them, as sweeps do)");
}

traces::MatrixOptions matrix_options(const po::variables_map& vm) {
  traces::MatrixOptions options;
  options.collectives = vm.count("p2p-only") == 0;
  return options;
}

std::uint64_t collective_calls(const traces::TraceSummary& summary) {
  std::uint64_t calls = 0;
  for (const auto count : summary.collectives) calls += count;
  return calls;
}

void report_caveats(const traces::CommMatrix& matrix, const traces::MatrixOptions& options,
                    std::string_view source, std::optional<std::uint64_t> collective_calls) {
  for (const auto& caveat :
       traces::matrix_caveats(matrix, options.collectives, collective_calls, "--p2p-only")) {
    if (caveat.warning) {
      log::warning("{}: {}", source, caveat.text);
    } else {
      log::info("{}: {}", source, caveat.text);
    }
  }
}

std::string_view counted(const traces::MatrixOptions& options) {
  return options.collectives ? "point-to-point and collectives" : "point-to-point only";
}

}  // namespace mapsim::cli
