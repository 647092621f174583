#!/usr/bin/env bash
# Fuzzes the parsers of user input (topology specs, CSV matrices, mapping files, mapper
# parameters, experiment configs, calibrations and overheads, benchmark output) with libFuzzer
# under ASan+UBSan, SECONDS each (default 60).
# New inputs go to build/fuzz/corpus/<target>, seeded from fuzz/corpus/<target>; a crash leaves
# its input in build/fuzz/ and makes the script fail. The ordinary test run replays fuzz/corpus
# as unit tests.
#
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/install-deps.sh
for p in clang-14 libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "$p"
  fi
done
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
status=0
for target in topology_spec matrix_csv recorded_matrix mapping_file mapper_params sweep_config \
  replay_costs benchmark_output; do
  corpus=build/fuzz/corpus/$target
  mkdir -p "$corpus"
  cp -n fuzz/corpus/$target/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $target for ${seconds}s"
  if ! (cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz/${target}_fuzz -max_total_time="$seconds" \
        -max_len=4096 -timeout=10 -print_final_stats=1 "corpus/$target" 2>&1 | tail -12); then
    status=1
  fi
done
exit $status
