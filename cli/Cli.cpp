#include "cli/Cli.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Suggest.hpp"
#include "support/Version.hpp"

namespace mapsim::cli {

int run_topo(const std::vector<std::string>& args);
int run_list(const std::vector<std::string>& args);
int run_run(const std::vector<std::string>& args);
int run_results(const std::vector<std::string>& args);
int run_report(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);
int run_upgrade(const std::vector<std::string>& args);
int run_generate(const std::vector<std::string>& args);
int run_matrix(const std::vector<std::string>& args);
int run_map(const std::vector<std::string>& args);
int run_simulate(const std::vector<std::string>& args);
int run_advise(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);
int run_calibrate(const std::vector<std::string>& args);
int run_help(const std::vector<std::string>& args);

namespace {

constexpr std::array<Command, 15> kCommands{{
    {"run", "run an experiment sweep into a results database (default: the demo sweep)", run_run},
    {"results", "tables of a results database; export a stored mapping", run_results},
    {"report", "charts of a results database (gnuplot): bars, scaling, agreement, heat maps",
     run_report},
    {"merge", "merge results databases (the shards of a sweep)", run_merge},
    {"upgrade", "migrate a results database of an older schema", run_upgrade},
    {"topo", "describe a machine; answer hops, route and coordinate queries", run_topo},
    {"list",
     "list topology kinds, link classes, mappers, network models, collectives, columns and "
     "metrics",
     run_list},
    {"generate", "write a synthetic trace (NPB kernels, Sweep3D, stencils) as OTF2", run_generate},
    {"matrix",
     "communication matrix of an OTF2 trace, a generated workload or a CSV matrix, "
     "summarised",
     run_matrix},
    {"map", "map ranks onto a machine with one mapper or all; metrics, mapping files", run_map},
    {"simulate", "replay a trace on a machine under a mapping (network simulator)", run_simulate},
    {"advise", "which placement for a trace on a machine, and how much it matters", run_advise},
    {"export", "write a trace in SimGrid's time-independent format (for SMPI)", run_export},
    {"calibrate", "fit a replay calibration to OSU or IMB output or ping-pong OTF2 traces",
     run_calibrate},
    {"help", "a command's help: 'mapsim help COMMAND' (as 'mapsim COMMAND --help')", run_help},
}};

// No abbreviated long options (boost's allow_guessing would take '--map' for '--mapping'): a
// script's abbreviation would break, or change meaning, whenever an option is added.
constexpr int kStyle =
    po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

const Command* find_command(std::string_view name) {
  for (const auto& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string unknown_command(std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& c : kCommands) names.push_back(c.name);
  return fmt::format("unknown command '{}'{}", name, suggest_suffix(name, names));
}

/// "unknown option '--mappr'; did you mean '--mapper'?" (long options are compared without their
/// dashes, and short ones get no suggestion).
std::string unknown_option(const po::options_description& options, const std::string& given) {
  const std::string option = given.substr(0, given.find('='));  // '--mappr=greedy'
  std::string text = fmt::format("unknown option '{}'", option);
  if (!option.starts_with("--")) return text;
  const std::string bare = option.substr(2);
  std::vector<std::string> names;
  for (const auto& description : options.options()) {
    if (!description->long_name().empty()) names.push_back(description->long_name());
  }
  std::vector<std::string> close;
  for (const auto name : closest(bare, names)) close.push_back(fmt::format("--{}", name));
  const auto suggestion = format_suggestion(close);
  return suggestion.empty() ? text : fmt::format("{}; {}", text, suggestion);
}

void print_usage(std::ostream& out) {
  fmt::print(out,
             "Usage: mapsim [--quiet | --verbose] COMMAND [OPTIONS]\n\n"
             "mapsim places the ranks of an MPI application on a modelled machine and measures\n"
             "how much the placement matters.\n\nCommands:\n");
  for (const auto& command : kCommands)
    fmt::print(out, "  {:<11}{}\n", command.name, command.summary);
  fmt::print(out,
             "\nGlobal options:\n  -h, --help     this message\n  --version      print the "
             "version\n  -q, --quiet    only errors on stderr\n  -v, --verbose  debug messages on "
             "stderr\n\nRun 'mapsim help COMMAND' (or 'mapsim COMMAND --help') for a command's "
             "options.\n");
}

}  // namespace

std::span<const Command> commands() {
  return kCommands;
}

std::optional<po::variables_map> parse(CommandLine& line, const std::vector<std::string>& args) {
  line.options.add_options()("help,h", "print this help");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args)
                  .options(line.options)
                  .positional(line.positional)
                  .style(kStyle)
                  .run(),
              vm);
  } catch (const po::unknown_option& e) {
    throw po::error(unknown_option(line.options, e.get_option_name()));
  }
  if (vm.count("help") != 0) {
    fmt::print("Usage: mapsim {} {}\n\n{}\n\n", line.command, line.synopsis, line.about);
    std::cout << line.options << std::flush;
    return std::nullopt;
  }
  po::notify(vm);
  return vm;
}

int run_help(const std::vector<std::string>& args) {
  CommandLine line("help", "[COMMAND]",
                   "Prints a command's help, as 'mapsim COMMAND --help' does; without a command, "
                   "the\nlist of commands.");
  line.options.add_options()("command", po::value<std::string>(), "the command");
  line.positional.add("command", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  if (vm->count("command") == 0) {
    print_usage(std::cout);
    return 0;
  }
  const auto name = (*vm)["command"].as<std::string>();
  const Command* command = find_command(name);
  if (command == nullptr) throw po::error(unknown_command(name));
  return command->run({"--help"});
}

namespace {

/// Why a write to standard output failed, when a command stopped on it (fmt::print throws).
int stdout_error = 0;

/// Flushes standard output and turns a failed write (a full disk: `mapsim list > /dev/full`) into
/// exit status 1, so no command reports success for output that was lost.
int check_standard_output(int status) {
  errno = 0;
  std::cout.flush();  // through stdio: a failure sets errno
  const bool stream_failed = std::cout.fail();
  int error = errno;
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  if (flush_failed) error = errno;
  if (!flush_failed && !stream_failed && std::ferror(stdout) == 0) return status;
  if (error == 0) error = stdout_error;
  fmt::print(stderr, "mapsim: error: cannot write standard output: {}\n",
             error != 0 ? std::strerror(error) : "write failed");
  return status != 0 ? status : 1;
}

int run_command_line(int argc, char** argv) {
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
      const std::vector<std::string_view> global{"--help", "--version", "--quiet", "--verbose"};
      fmt::print(stderr, "mapsim: error: unknown option '{}'{} (see 'mapsim --help')\n", flag,
                 suggest_suffix(flag, global));
      return 2;
    }
  }
  if (at == args.size()) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = args[at];
  const Command* command = find_command(name);
  if (command == nullptr) {
    fmt::print(stderr, "mapsim: error: {} (see 'mapsim --help')\n", unknown_command(name));
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
  } catch (const std::system_error& e) {
    // fmt::print failed on standard output: reported once, by check_standard_output.
    if (std::ferror(stdout) != 0 &&
        dynamic_cast<const std::filesystem::filesystem_error*>(&e) == nullptr) {
      stdout_error = e.code().value();
      return 1;
    }
    fmt::print(stderr, "mapsim {}: error: {}\n", name, e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "mapsim {}: error: {}\n", name, e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) then fails a write with EFBIG, reported like a full disk,
  // instead of killing mapsim halfway through an output.
  std::signal(SIGXFSZ, SIG_IGN);
  return check_standard_output(run_command_line(argc, argv));
}

}  // namespace mapsim::cli
