#!/usr/bin/env bash
# Builds everything (Release) and runs mapsim's main job on its embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/mapsim demo "$@"
