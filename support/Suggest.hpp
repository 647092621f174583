#pragma once
// "Did you mean ...?" for misspelt names: commands, options, mappers, models, topology kinds.
//
//   throw InputError(fmt::format("unknown mapper '{}'{}", name, suggest_suffix(name, names)));
//
// A candidate is close when its edit distance (optimal string alignment: insertions, deletions,
// substitutions and transpositions of neighbours, each 1; case ignored) to the given name is at
// most max(1, (length + 1) / 3) — 'simulte' (1) and 'hilbrt' (1) are close, 'fluid' to 'flow'
// (3) is not. Without a close one, the candidates the given name begins are offered ('--map' for
// '--mapper', '--mapping'), so abbreviations get an answer too.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mapsim {

/// Optimal string alignment distance of `a` and `b`, ignoring ASCII case.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidates close to `given` (all at the smallest distance), else those starting with it
/// (at most four), in the candidates' order; empty if none or if `given` is a candidate.
std::vector<std::string_view> closest(std::string_view given,
                                      std::span<const std::string_view> candidates);
std::vector<std::string_view> closest(std::string_view given,
                                      std::span<const std::string> candidates);

/// "did you mean 'x'?", "did you mean one of 'x', 'y'?" or "" (nothing close).
std::string did_you_mean(std::string_view given, std::span<const std::string_view> candidates);
std::string did_you_mean(std::string_view given, std::span<const std::string> candidates);

/// "did you mean 'x'?" or "did you mean one of 'x', 'y'?" for names already chosen (e.g. by
/// closest() and then decorated); "" if there are none.
std::string format_suggestion(std::span<const std::string> names);

/// "; did you mean 'x'?" or "": to append to an error message.
std::string suggest_suffix(std::string_view given, std::span<const std::string_view> candidates);
std::string suggest_suffix(std::string_view given, std::span<const std::string> candidates);

}  // namespace mapsim
