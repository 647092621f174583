#pragma once
// Helpers of the spec parsers (TopologySpec.cpp and each kind's shape parser): errors that quote
// the spec, fields, positive integers. Internal to topologies/.

#include <cstdint>
#include <string_view>
#include <vector>

#include "support/Parse.hpp"  // split_fields, used by every kind's spec parser

namespace mapsim::topo {

/// Throws InputError "topology spec 'SPEC': WHAT".
[[noreturn]] void fail_spec(std::string_view spec, std::string_view what);

/// A positive integer of at most `max`; `what` names it in the messages (empty, not a positive
/// integer, 0, too large), which quote `spec`.
int parse_positive(std::string_view spec, std::string_view text, std::string_view what,
                   std::int64_t max);

}  // namespace mapsim::topo
