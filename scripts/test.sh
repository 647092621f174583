#!/usr/bin/env bash
# Builds mapsim and its tests twice (Release, and ASan+UBSan), warnings as errors, and runs the
# default test suite: every test but those labelled `slow` in Release, the `unit` tests under
# the sanitizers. `scripts/test.sh slow` runs the slow tests instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

if [ "${1:-}" = slow ]; then
  cmake --preset release -DMAPSIM_WERROR=ON >/dev/null
  cmake --build --preset release -j "$jobs"
  ctest --preset release -L slow -j "$jobs"
  exit 0
fi

cmake --preset release -DMAPSIM_WERROR=ON >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release -LE slow -j "$jobs"

cmake --preset sanitize -DMAPSIM_WERROR=ON >/dev/null
cmake --build --preset sanitize -j "$jobs"
ctest --preset sanitize -L unit -LE slow -j "$jobs"
