#include "traces/generators/GeneratorSpec.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::traces {
namespace {

constexpr std::array<std::string_view, 8> kNpb{"lu", "bt", "sp", "cg", "mg", "ft", "is", "ep"};
constexpr std::array<std::string_view, 4> kOwn{"sweep3d", "stencil2d", "stencil3d", "snap"};
// Generators started from an input deck: KERNEL:DECK:RANKS, with deck parameters as options.
constexpr std::array<std::string_view, 2> kDecked{"sweep3d", "snap"};
constexpr std::string_view kClasses = "SWABCD";

bool contains(std::span<const std::string_view> names, std::string_view name) {
  for (const auto n : names) {
    if (n == name) return true;
  }
  return false;
}

}  // namespace

bool is_generator_spec(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  const auto head = text.substr(0, colon);
  return head == "npb" || contains(kOwn, head);
}

GeneratorOptions parse_generator_spec(std::string_view spec) {
  const auto fail = [&](const std::string& why) {
    return InputError(fmt::format("generator spec '{}': {}", spec, why));
  };
  auto parts = split_fields(spec, ':');
  std::size_t at = 0;
  GeneratorOptions options;
  if (!parts.empty() && parts[0] == "npb") {
    if (parts.size() < 4) throw fail("expected npb:KERNEL:CLASS:RANKS, e.g. npb:lu:C:64");
    if (!contains(kNpb, parts[1])) {
      throw fail(
          fmt::format("unknown NPB kernel '{}' (valid: {})", parts[1], fmt::join(kNpb, ", ")));
    }
    at = 1;
  } else if (!parts.empty() && parts[0] == "snap") {
    if (parts.size() < 3) throw fail("expected snap:DECK:RANKS, e.g. snap:sample:4");
  } else if (!parts.empty() && parts[0] == "sweep3d") {
    if (parts.size() < 3) {
      throw fail("expected sweep3d:CLASS:RANKS or sweep3d:DECK:RANKS, e.g. sweep3d:S:16");
    }
  } else if (!parts.empty() && contains(kOwn, parts[0])) {
    if (parts.size() < 3)
      throw fail(fmt::format("expected {}:CLASS:RANKS, e.g. {}:S:16", parts[0], parts[0]));
  } else {
    throw fail(
        fmt::format("expected npb:KERNEL:CLASS:RANKS (KERNEL one of {}), "
                    "KERNEL:CLASS:RANKS for {} or KERNEL:DECK:RANKS for {}",
                    fmt::join(kNpb, ", "), fmt::join(kOwn, ", "), fmt::join(kDecked, ", ")));
  }
  options.kernel = std::string(parts[at]);
  const auto problem_class = parts[at + 1];
  const bool is_class =
      problem_class.size() == 1 && kClasses.find(problem_class[0]) != std::string_view::npos;
  const bool decked = contains(kDecked, options.kernel);
  if (decked && (options.kernel == "snap" || !is_class)) {
    if (problem_class.empty()) throw fail("the deck name is missing");
    options.deck = std::string(problem_class);
  } else if (!is_class) {
    throw fail(fmt::format("unknown problem class '{}' (valid: S, W, A, B, C, D)", problem_class));
  } else {
    options.problem_class = problem_class[0];
  }
  try {
    options.ranks = static_cast<Rank>(parse_integer(parts[at + 2], "rank count", 1, kMaxRanks));
    for (std::size_t i = at + 3; i < parts.size(); ++i) {
      const auto equals = parts[i].find('=');
      if (equals == std::string_view::npos) {
        throw InputError(
            fmt::format("option '{}' is not key=value (keys: iterations, "
                        "message-bytes{})",
                        parts[i], decked ? ", or a deck parameter" : ""));
      }
      const auto key = parts[i].substr(0, equals);
      const auto value = parts[i].substr(equals + 1);
      if (key == "iterations") {
        if (options.iterations) throw InputError("iterations given twice");
        options.iterations = parse_integer(value, "iterations", 1, 1'000'000);
      } else if (key == "message-bytes") {
        if (options.message_bytes) throw InputError("message-bytes given twice");
        options.message_bytes = parse_integer(value, "message-bytes", 0, std::int64_t{1} << 40);
      } else if (decked && !key.empty()) {
        // The generator checks the key and the value's range (make_workload below).
        const std::string name(key);
        if (options.parameters.contains(name)) {
          throw InputError(fmt::format("{} given twice", name));
        }
        options.parameters[name] =
            parse_integer(value, name, std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::max());
      } else {
        throw InputError(
            fmt::format("unknown option '{}' (valid: iterations, message-bytes)", key));
      }
    }
    (void)make_workload(options);  // the kernel's own rules: rank count, options that apply
  } catch (const InputError& e) {
    throw fail(e.what());
  }
  return options;
}

std::string format_generator_spec(const GeneratorOptions& options) {
  std::string text = contains(kNpb, options.kernel) ? "npb:" : "";
  if (options.deck.empty() && options.kernel == "snap") {
    text += fmt::format("snap:sample:{}", options.ranks);  // snap's deck when none is named
  } else if (options.deck.empty()) {
    text += fmt::format("{}:{}:{}", options.kernel, options.problem_class, options.ranks);
  } else {
    text += fmt::format("{}:{}:{}", options.kernel, options.deck, options.ranks);
  }
  if (options.iterations) text += fmt::format(":iterations={}", *options.iterations);
  if (options.message_bytes) text += fmt::format(":message-bytes={}", *options.message_bytes);
  for (const auto& [key, value] : options.parameters) text += fmt::format(":{}={}", key, value);
  return text;
}

std::string effective_generator_spec(const GeneratorOptions& options) {
  auto filled = options;
  if (!filled.iterations) filled.iterations = make_workload(options)->iterations();
  return format_generator_spec(filled);
}

}  // namespace mapsim::traces
