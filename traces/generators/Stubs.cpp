#include "support/Error.hpp"
#include "traces/generators/Kernels.hpp"
namespace mapsim::traces {
#define STUB(k)                                                 \
  std::unique_ptr<Workload> make_##k(const GeneratorOptions&) { \
    throw InputError("todo");                                   \
  }
STUB(sweep3d) STUB(stencil2d) STUB(stencil3d)
}  // namespace mapsim::traces
