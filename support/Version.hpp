#pragma once
// mapsim's version and the git revision it was built from (provenance of stored results).

#include <string_view>

namespace mapsim {

/// The release version, e.g. "0.1.0".
std::string_view version();

/// `git describe --always --dirty` of the source tree at build time, or "unknown" outside a
/// git checkout.
std::string_view git_revision();

}  // namespace mapsim
