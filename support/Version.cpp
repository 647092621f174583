#include "support/Version.hpp"

namespace mapsim {

std::string_view version() {
  return MAPSIM_VERSION;
}

}  // namespace mapsim
