#!/usr/bin/env bash
# Builds mapsim (Release: the binary and its libraries; the tests and benchmarks are built by
# scripts/test.sh) and runs mapsim's main job on its embedded default: the demo sweep
# (experiments/configs/demo.yaml) into results.db, then its summary, then its charts (`mapsim
# report`) into report/ (open report/index.html). Arguments go to `mapsim run` (and then no report
# is drawn: the database may be another one).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target mapsim
# A results.db of an older mapsim is migrated first (it keeps results.db.bak).
if [ $# -eq 0 ] && [ -f results.db ]; then build/release/mapsim upgrade results.db; fi
build/release/mapsim run "$@"
if [ $# -eq 0 ]; then
  build/release/mapsim report results.db --out report
fi
