// `mapsim generate`: writes a synthetic trace (NPB kernels, Sweep3D, SNAP, stencils) as an OTF2
// archive.

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "cli/Interrupt.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::cli {
namespace {

/// `first` followed by `text` wrapped at 96 columns, continuation lines indented by `indent`.
std::string wrap(std::string_view first, std::string_view text, std::size_t indent) {
  std::string out(first);
  std::size_t line_start = 0;
  bool words_on_line = false;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const auto word = text.substr(at, end - at);
    if (words_on_line && out.size() - line_start + 1 + word.size() > 96) {
      out.push_back('\n');
      line_start = out.size();
      out.append(indent, ' ');
    } else if (words_on_line) {
      out.push_back(' ');
    }
    out.append(word);
    words_on_line = true;
    at = end + 1;
  }
  out.push_back('\n');
  return out;
}

std::string kernels_help() {
  std::string text = "KERNEL is one of (valid rank counts; what --iterations overrides):\n";
  for (const auto& info : traces::generators()) {
    text += fmt::format("  {:<10}{}\n", info.name, info.summary);
    text += wrap("            ranks: ", info.ranks_rule, 19);
    if (!info.iterations.empty()) text += wrap("            --iterations: ", info.iterations, 26);
  }
  return text;
}

char parse_class(const std::string& text) {
  if (text.size() != 1) {
    throw InputError(fmt::format("--class '{}': expected one of S, W, A, B, C, D", text));
  }
  return static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
}

}  // namespace

int run_generate(const std::vector<std::string>& args) {
  const std::string about =
      "Writes the trace of a synthetic MPI program as an OTF2 archive (DIR/traces.otf2), as\n"
      "Score-P would record it. The NPB kernels reproduce NPB 3.4's messages, sizes and\n"
      "collectives exactly (docs/workloads.md); compute gaps model the class's work at 1 Gflop/s\n"
      "per rank. Rank counts follow NPB 3.4, which decides at run time: BT and SP run on any\n"
      "count (floor(sqrt(N))^2 ranks work, the others stay idle) and MG on any count (the\n"
      "largest power of two works); CG and IS need powers of two. (NPB 3.3 wanted squares for\n"
      "BT/SP and powers of two for CG, FT, MG and IS at build time.) SNAP and Sweep3D start\n"
      "from an input deck (--deck NAME) whose parameters --set KEY=VALUE overrides, e.g.\n"
      "  mapsim generate snap --deck sample --ranks 4 --set multiswp=0 --out DIR\n\n" +
      kernels_help();
  CommandLine line("generate",
                   "KERNEL (--class C | --deck NAME) --ranks N --out DIR [--iterations K] "
                   "[--set KEY=VALUE]...",
                   about);
  line.options.add_options()("kernel", po::value<std::string>()->required(), "what to generate")(
      "class", po::value<std::string>()->default_value("S"), "problem class: S, W, A, B, C, D")(
      "ranks", po::value<std::string>()->required(), "number of MPI ranks")(
      "out", po::value<std::string>()->required(), "output directory of the archive")(
      "iterations", po::value<std::string>(), "override the class's iteration count")(
      "message-bytes", po::value<std::string>(),
      "stencil2d/3d: bytes per halo message (default: from the class's grid)")(
      "deck", po::value<std::string>(),
      "snap, sweep3d: start from this input deck instead of a class (snap: sample, benchmark, "
      "ohtma; sweep3d: see its summary above)")(
      "set", po::value<std::vector<std::string>>(),
      "snap, sweep3d: override a deck parameter, KEY=INTEGER (repeatable; e.g. --set npey=4 "
      "--set multiswp=0); unknown keys are rejected with the valid ones")(
      "force", "replace an archive already in the output directory");
  line.positional.add("kernel", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;

  traces::GeneratorOptions options;
  options.kernel = (*vm)["kernel"].as<std::string>();
  options.problem_class = parse_class((*vm)["class"].as<std::string>());
  options.ranks =
      static_cast<Rank>(parse_integer((*vm)["ranks"].as<std::string>(), "--ranks", 1, 1 << 20));
  if (vm->count("iterations") != 0) {
    options.iterations =
        parse_integer((*vm)["iterations"].as<std::string>(), "--iterations", 1, 1'000'000);
  }
  if (vm->count("message-bytes") != 0) {
    options.message_bytes = parse_integer((*vm)["message-bytes"].as<std::string>(),
                                          "--message-bytes", 0, std::int64_t{1} << 40);
  }
  if (vm->count("deck") != 0) {
    if (!(*vm)["class"].defaulted()) {
      throw InputError("--class and --deck exclude each other: a deck sets the problem size");
    }
    options.deck = (*vm)["deck"].as<std::string>();
    if (options.deck.empty()) throw InputError("--deck: the deck name is empty");
  }
  if (vm->count("set") != 0) {
    for (const auto& setting : (*vm)["set"].as<std::vector<std::string>>()) {
      const auto equals = setting.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw InputError(fmt::format("--set '{}': expected KEY=VALUE, e.g. npey=4", setting));
      }
      const auto key = setting.substr(0, equals);
      if (options.parameters.contains(key)) {
        throw InputError(fmt::format("--set '{}': {} is set twice", setting, key));
      }
      options.parameters[key] = parse_integer(
          std::string_view(setting).substr(equals + 1), "--set " + key,
          std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
    }
  }
  const std::filesystem::path out = (*vm)["out"].as<std::string>();

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t records = 0;
  try {
    const InterruptGuard guard;
    records = traces::write_generated_trace(
        options, out, vm->count("force") != 0, [&](Rank done, Rank total) {
          if (terminal) fmt::print(stderr, "\rgenerating: rank {}/{}", done, total);
          if (interrupted().load()) throw Cancelled("interrupted");
        });
  } catch (const Cancelled&) {
    if (terminal) fmt::print(stderr, "\r\033[K");
    fmt::print(stderr, "mapsim generate: interrupted; nothing written to {}\n", out.string());
    return 130;
  }
  if (terminal) fmt::print(stderr, "\r\033[K");
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  fmt::print("wrote {}: {}, {} event records in {:.2f} s\n", (out / "traces.otf2").string(),
             traces::describe(options), records, took.count());
  return 0;
}

}  // namespace mapsim::cli
