#pragma once
// Typed mapper parameters, declared once per mapper: key, description, default and validation.
//
// A mapper lists its ParamSpecs in a constant table; the registry parses what the user gave
// (`--param key=value`, an INI section) against that table. The defaults are parsed by the same
// code, so they are validated too. Unknown keys, repeated keys and invalid values throw
// InputError naming the mapper, the key and the value.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mapsim::map {

enum class ParamType : std::uint8_t {
  Integer,  ///< a decimal integer in [min, max]
  Real,     ///< a finite decimal number in [min, max]
  Boolean,  ///< true/false, yes/no, on/off, 1/0
  Choice,   ///< one of the words of `choices`, separated by '|'
  Text,     ///< any text (e.g. a grid shape "9x8"; the mapper checks it)
};

struct ParamSpec {
  std::string_view key;
  ParamType type = ParamType::Integer;
  std::string_view default_value;
  std::string_view description;
  double min = 0;                 ///< Integer and Real only
  double max = 0;                 ///< Integer and Real only
  std::string_view choices = {};  ///< Choice only: "stack|fold|best"
  /// Real only: the value must be above `min`, not equal to it ("above 0, at most 1").
  bool above_min = false;
};

/// What the user gave: key=value pairs in order.
using ParamList = std::vector<std::pair<std::string, std::string>>;

/// Parsed parameter values of one mapper. Asking for an undeclared key or for the wrong type is a
/// bug in mapsim (InternalError), never a user error.
class ParamValues {
 public:
  using Value = std::variant<std::int64_t, double, bool, std::string>;

  ParamValues() = default;
  ParamValues(std::string owner, std::map<std::string, Value, std::less<>> values)
      : owner_(std::move(owner)), values_(std::move(values)) {}

  [[nodiscard]] std::int64_t integer(std::string_view key) const;
  [[nodiscard]] double real(std::string_view key) const;
  [[nodiscard]] bool flag(std::string_view key) const;
  /// Choice and Text values.
  [[nodiscard]] const std::string& text(std::string_view key) const;

  /// "key=value" for every parameter, in key order: the effective configuration of a run.
  [[nodiscard]] std::string describe() const;

 private:
  [[nodiscard]] const Value& at(std::string_view key) const;

  std::string owner_;
  std::map<std::string, Value, std::less<>> values_;
};

/// Parses `given` against `specs`; `owner` names the mapper in error messages ("mapper 'greedy'").
ParamValues parse_params(std::string_view owner, std::span<const ParamSpec> specs,
                         const ParamList& given);

/// Splits "key=value" at the first '='; throws InputError naming `what` if there is none or the
/// key is empty.
std::pair<std::string, std::string> split_param(std::string_view text, std::string_view what);

/// A mapper's name and parameter table, as the registry lists them.
struct ParamOwner {
  std::string_view name;
  std::span<const ParamSpec> specs;
};

/// The parameters of a command line (`given`, e.g. every --param) for the mappers `chosen`:
/// "key=value" when one mapper is chosen, "MAPPER.key=value" for any chosen mapper. Every value
/// is parsed against its mapper's table here, so that an unknown mapper (`known` lists them all),
/// a mapper not chosen, an unknown or repeated key and an invalid value are reported before any
/// mapping starts: InputError naming `what` ("--param"), the parameter and the mapper. A bare
/// "key=value" with several mappers chosen is an InputError too (callers that treat it as a
/// command-line error check first_bare_param() first). Returns one ParamList per chosen
/// mapper, in the order of `chosen`, with the "MAPPER." prefixes removed.
std::vector<ParamList> assign_params(std::span<const ParamOwner> chosen,
                                     std::span<const ParamOwner> known,
                                     std::span<const std::string> given, std::string_view what);

/// The first of `given` that names no mapper ("key=value" rather than "MAPPER.key=value"), or
/// nullptr.
const std::string* first_bare_param(std::span<const std::string> given);

/// One line per parameter for help texts: "key (type, default D): description".
std::string describe_params(std::span<const ParamSpec> specs);

}  // namespace mapsim::map
