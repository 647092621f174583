#include "cli/Cli.hpp"

#include <array>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Version.hpp"

namespace mapsim::cli {

int run_topo(const std::vector<std::string>& args);
int run_list(const std::vector<std::string>& args);
int run_run(const std::vector<std::string>& args);
int run_results(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);
int run_upgrade(const std::vector<std::string>& args);
int run_generate(const std::vector<std::string>& args);
int run_matrix(const std::vector<std::string>& args);
int run_map(const std::vector<std::string>& args);
int run_simulate(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);

namespace {

constexpr std::array<Command, 11> kCommands{{
    {"run", "run an experiment sweep into a results database (default: the demo sweep)", run_run},
    {"results", "tables of a results database; export a stored mapping", run_results},
    {"merge", "merge results databases (the shards of a sweep)", run_merge},
    {"upgrade", "migrate a results database of an older schema", run_upgrade},
    {"topo", "describe a machine; answer hops, route and coordinate queries", run_topo},
    {"list", "list topology kinds, link classes, mappers and network models", run_list},
    {"generate", "write a synthetic trace (NPB kernels, Sweep3D, stencils) as OTF2", run_generate},
    {"matrix", "communication matrix of an OTF2 trace or CSV matrix, summarised", run_matrix},
    {"map", "map ranks onto a machine with one mapper or all; metrics, mapping files", run_map},
    {"simulate", "replay a trace on a machine under a mapping (network simulator)", run_simulate},
    {"export", "write a trace in SimGrid's time-independent format (for SMPI)", run_export},
}};

void print_usage(std::ostream& out) {
  fmt::print(out,
             "Usage: mapsim [--quiet | --verbose] COMMAND [OPTIONS]\n\n"
             "mapsim places the ranks of an MPI application on a modelled machine and measures\n"
             "how much the placement matters.\n\nCommands:\n");
  for (const auto& command : kCommands)
    fmt::print(out, "  {:<10}{}\n", command.name, command.summary);
  fmt::print(out,
             "\nGlobal options:\n  -h, --help     this message\n  --version      print the "
             "version\n  -q, --quiet    only errors on stderr\n  -v, --verbose  debug messages on "
             "stderr\n\nRun 'mapsim COMMAND --help' for a command's options.\n");
}

}  // namespace

std::span<const Command> commands() {
  return kCommands;
}

std::optional<po::variables_map> parse(CommandLine& line, const std::vector<std::string>& args) {
  line.options.add_options()("help,h", "print this help");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(line.options).positional(line.positional).run(),
            vm);
  if (vm.count("help") != 0) {
    fmt::print("Usage: mapsim {} {}\n\n{}\n\n", line.command, line.synopsis, line.about);
    std::cout << line.options << std::flush;
    return std::nullopt;
  }
  po::notify(vm);
  return vm;
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::size_t at = 0;
  for (; at < args.size() && args[at].starts_with('-'); ++at) {
    const auto& flag = args[at];
    if (flag == "-h" || flag == "--help") {
      print_usage(std::cout);
      return 0;
    }
    if (flag == "--version") {
      fmt::print("mapsim {} ({})\n", version(), git_revision());
      return 0;
    }
    if (flag == "-q" || flag == "--quiet") {
      log::set_level(log::Level::Error);
    } else if (flag == "-v" || flag == "--verbose") {
      log::set_level(log::Level::Debug);
    } else {
      fmt::print(stderr, "mapsim: error: unknown option '{}' (see 'mapsim --help')\n", flag);
      return 2;
    }
  }
  if (at == args.size()) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = args[at];
  const Command* command = nullptr;
  for (const auto& c : kCommands) {
    if (c.name == name) command = &c;
  }
  if (command == nullptr) {
    fmt::print(stderr, "mapsim: error: unknown command '{}' (see 'mapsim --help')\n", name);
    return 2;
  }
  const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                                      args.end());
  try {
    return command->run(rest);
  } catch (const po::error& e) {
    fmt::print(stderr, "mapsim {}: error: {} (see 'mapsim {} --help')\n", name, e.what(), name);
    return 2;
  } catch (const InputError& e) {
    fmt::print(stderr, "mapsim {}: error: {}\n", name, e.what());
    return 1;
  } catch (const InternalError& e) {
    fmt::print(stderr, "mapsim {}: {}\n", name, e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "mapsim {}: error: out of memory\n", name);
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "mapsim {}: error: {}\n", name, e.what());
    return 1;
  }
}

}  // namespace mapsim::cli
