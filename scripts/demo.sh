#!/usr/bin/env bash
# Builds everything (Release) and runs mapsim's main job on its embedded default: the demo sweep
# (experiments/configs/demo.yaml) into results.db, then its summary. Arguments go to `mapsim run`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/mapsim run "$@"
