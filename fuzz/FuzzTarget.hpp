#pragma once
// The contract every fuzz target checks: whatever the input, a parser either succeeds or throws
// InputError (a clear message for the user). Any other exception — an internal error, a standard
// library error, running out of memory on a short input — escapes the target and aborts, which
// libFuzzer (or the corpus replay under ctest) reports as a finding.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "support/Error.hpp"

#define MAPSIM_FUZZ_TARGET(body)                                                      \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    const std::string_view input(reinterpret_cast<const char*>(data), size);          \
    try {                                                                             \
      body(input);                                                                    \
    } catch (const ::mapsim::InputError&) {                                           \
    }                                                                                 \
    return 0;                                                                         \
  }
