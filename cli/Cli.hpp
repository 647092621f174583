#pragma once
// The `mapsim` command line: one binary, one subcommand per task, `--help` on each.

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

namespace mapsim::cli {

namespace po = boost::program_options;

struct Command {
  std::string_view name;
  std::string_view summary;
  /// Runs the command on the arguments after its name; returns the exit status.
  int (*run)(const std::vector<std::string>& args);
};

/// Every subcommand, in the order `mapsim --help` lists them.
std::span<const Command> commands();

/// Entry point of the `mapsim` binary. Errors are printed as "mapsim CMD: error: ...": exit 1 for
/// bad input, 2 for a bad command line, 3 for an internal error.
int main(int argc, char** argv);

/// A command's command line: its options, positional arguments and help text.
struct CommandLine {
  /// `command` e.g. "topo"; `synopsis` e.g. "SPEC [--hops A B]"; `about` what it does.
  CommandLine(std::string_view command, std::string_view synopsis, std::string_view about)
      : command(command), synopsis(synopsis), about(about) {}

  std::string_view command;
  std::string_view synopsis;
  std::string_view about;
  po::options_description options{"Options"};
  po::positional_options_description positional;
};

/// Parses `args` against `line`. With --help, prints the usage to stdout and returns nullopt.
/// Throws po::error for an unknown or malformed option. Long options are never abbreviated
/// ('--map' is not '--mapping'); an unknown one's message suggests the closest ("did you mean").
std::optional<po::variables_map> parse(CommandLine& line, const std::vector<std::string>& args);

}  // namespace mapsim::cli
