#include "mappers/Parameters.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"

namespace mapsim::map {
namespace {

std::vector<std::string_view> words(std::string_view choices) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto bar = choices.find('|');
    out.push_back(choices.substr(0, bar));
    if (bar == std::string_view::npos) return out;
    choices.remove_prefix(bar + 1);
  }
}

std::string_view type_name(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Integer:
      return "integer";
    case ParamType::Real:
      return "number";
    case ParamType::Boolean:
      return "boolean";
    case ParamType::Choice:
      return "choice";
    case ParamType::Text:
      return "text";
  }
  return "?";
}

ParamValues::Value parse_value(std::string_view owner, const ParamSpec& spec,
                               std::string_view text) {
  const auto what = fmt::format("{}: parameter '{}'", owner, spec.key);
  switch (spec.type) {
    case ParamType::Integer:
      return parse_integer(text, what, static_cast<std::int64_t>(spec.min),
                           static_cast<std::int64_t>(spec.max));
    case ParamType::Real: {
      if (!spec.above_min) return parse_real(text, what, spec.min, spec.max);
      // One wording on both sides of a range open at its bottom.
      const double value = parse_real(text, what);
      if (!(value > spec.min && value <= spec.max)) {
        throw InputError(fmt::format("{}: {} is out of range (above {}, at most {})", what, text,
                                     spec.min, spec.max));
      }
      return value;
    }
    case ParamType::Boolean:
      if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
      if (text == "false" || text == "no" || text == "off" || text == "0") return false;
      throw InputError(
          fmt::format("{}: '{}' is not a boolean (true/false, yes/no, on/off, 1/0)", what, text));
    case ParamType::Choice: {
      const auto valid = words(spec.choices);
      for (const auto word : valid) {
        if (word == text) return std::string(text);
      }
      throw InputError(fmt::format("{}: '{}' is not one of {}{}", what, text,
                                   fmt::join(valid, ", "), suggest_suffix(text, valid)));
    }
    case ParamType::Text:
      return std::string(text);
  }
  MAPSIM_EXPECTS(false, "unknown parameter type");
  return std::int64_t{0};
}

}  // namespace

const ParamValues::Value& ParamValues::at(std::string_view key) const {
  const auto it = values_.find(key);
  MAPSIM_EXPECTS(it != values_.end(), "a mapper asked for a parameter it did not declare");
  return it->second;
}

std::int64_t ParamValues::integer(std::string_view key) const {
  const auto* value = std::get_if<std::int64_t>(&at(key));
  MAPSIM_EXPECTS(value != nullptr, "parameter is not an integer");
  return *value;
}

double ParamValues::real(std::string_view key) const {
  const auto* value = std::get_if<double>(&at(key));
  MAPSIM_EXPECTS(value != nullptr, "parameter is not a number");
  return *value;
}

bool ParamValues::flag(std::string_view key) const {
  const auto* value = std::get_if<bool>(&at(key));
  MAPSIM_EXPECTS(value != nullptr, "parameter is not a boolean");
  return *value;
}

const std::string& ParamValues::text(std::string_view key) const {
  const auto* value = std::get_if<std::string>(&at(key));
  MAPSIM_EXPECTS(value != nullptr, "parameter is not a choice or text");
  return *value;
}

std::string ParamValues::describe() const {
  std::vector<std::string> parts;
  for (const auto& entry : values_) {
    const std::string& key = entry.first;  // lambdas cannot capture structured bindings in clang 14
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, bool>) {
            parts.push_back(fmt::format("{}={}", key, v ? "true" : "false"));
          } else {
            parts.push_back(fmt::format("{}={}", key, v));
          }
        },
        entry.second);
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

ParamValues parse_params(std::string_view owner, std::span<const ParamSpec> specs,
                         const ParamList& given) {
  std::map<std::string, ParamValues::Value, std::less<>> values;
  for (const auto& spec : specs) {
    values.emplace(std::string(spec.key), parse_value(owner, spec, spec.default_value));
  }
  std::set<std::string, std::less<>> seen;
  for (const auto& [key, text] : given) {
    const ParamSpec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.key == key) spec = &s;
    }
    if (spec == nullptr) {
      std::vector<std::string_view> keys;
      for (const auto& s : specs) keys.push_back(s.key);
      throw InputError(fmt::format("{}: unknown parameter '{}'; {}", owner, key,
                                   keys.empty() ? std::string("it takes no parameters")
                                                : fmt::format("valid: {}{}", fmt::join(keys, ", "),
                                                              suggest_suffix(key, keys))));
    }
    if (!seen.insert(key).second) {
      throw InputError(fmt::format("{}: parameter '{}' is given twice", owner, key));
    }
    values[key] = parse_value(owner, *spec, text);
  }
  return ParamValues(std::string(owner), std::move(values));
}

std::pair<std::string, std::string> split_param(std::string_view text, std::string_view what) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    throw InputError(fmt::format("{}: '{}' is not of the form key=value", what, text));
  }
  return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

const std::string* first_bare_param(std::span<const std::string> given) {
  for (const auto& text : given) {
    const auto eq = text.find('=');
    if (text.substr(0, eq).find('.') == std::string::npos) return &text;
  }
  return nullptr;
}

std::vector<ParamList> assign_params(std::span<const ParamOwner> chosen,
                                     std::span<const ParamOwner> known,
                                     std::span<const std::string> given, std::string_view what) {
  MAPSIM_EXPECTS(!chosen.empty(), "parameters assigned to no mapper");
  std::vector<ParamList> lists(chosen.size());
  const auto names_of = [](std::span<const ParamOwner> owners) {
    std::vector<std::string_view> names;
    for (const auto& o : owners) names.push_back(o.name);
    return fmt::format("{}", fmt::join(names, ", "));
  };
  for (const auto& text : given) {
    auto [key, value] = split_param(text, what);
    const auto dot = key.find('.');
    if (dot == std::string::npos) {
      if (chosen.size() != 1) {
        throw InputError(fmt::format("{} {}: with several mappers, name the mapper: MAPPER.{}",
                                     what, text, text));
      }
      lists[0].emplace_back(std::move(key), std::move(value));
      continue;
    }
    const auto owner = std::string_view(key).substr(0, dot);
    const auto is = [&](const ParamOwner& o) { return o.name == owner; };
    if (std::find_if(known.begin(), known.end(), is) == known.end()) {
      throw InputError(
          fmt::format("{} {}: unknown mapper '{}'; valid: {}", what, text, owner, names_of(known)));
    }
    const auto at = std::find_if(chosen.begin(), chosen.end(), is);
    if (at == chosen.end()) {
      if (chosen.size() == 1) {
        throw InputError(
            fmt::format("{} {} is for mapper '{}', not '{}'", what, text, owner, chosen[0].name));
      }
      throw InputError(fmt::format("{} {} is for mapper '{}', which is not among those chosen: {}",
                                   what, text, owner, names_of(chosen)));
    }
    lists[static_cast<std::size_t>(at - chosen.begin())].emplace_back(key.substr(dot + 1),
                                                                      std::move(value));
  }
  // Parse every share now: the first invalid parameter of any mapper stops everything.
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    (void)parse_params(fmt::format("mapper '{}'", chosen[i].name), chosen[i].specs, lists[i]);
  }
  return lists;
}

std::string describe_params(std::span<const ParamSpec> specs) {
  std::string out;
  for (const auto& spec : specs) {
    std::string range;
    if (spec.type == ParamType::Integer || spec.type == ParamType::Real) {
      range = spec.above_min ? fmt::format(", above {}, at most {}", spec.min, spec.max)
                             : fmt::format(", {} to {}", spec.min, spec.max);
    } else if (spec.type == ParamType::Choice) {
      range = fmt::format(": {}", spec.choices);
    }
    out += fmt::format("{} ({}{}, default {}): {}\n", spec.key, type_name(spec), range,
                       spec.default_value.empty() ? "none" : spec.default_value, spec.description);
  }
  return out;
}

}  // namespace mapsim::map
