#!/usr/bin/env bash
# Replay without holding the trace, measured side by side in one run.
#
# 1. OTF2 archives of generated LU class B and C on 64 ranks (written to a scratch directory if
#    missing), each replayed twice on torus:4x4x4 with the flow model: `--read memory` (the
#    archive read into memory, then replayed) and `--read stream` (each rank's location read in
#    windows while it is replayed). Printed per class: trace events, replay wall time and trace
#    events/s of both, the whole command's wall time and peak RSS (target for streaming: under
#    200 MB, not growing from B to C), and two streamed/in-memory ratios of events/s: end to end
#    (reading the archive and replaying it, what a user waits for; target >= 0.9) and of the replay
#    loop alone (which, streamed, also decodes the archive; in memory it was decoded before).
# 2. A generator spec replayed as it is generated (no archive): LU class D on 4096 ranks
#    (torus:16x16x16) with a few iterations, its events/s and peak RSS, and the projection of a
#    full class-D run (300 iterations) from the per-iteration cost.
#
#   bench/streamed_replay.sh [BUILD_DIR] [SCRATCH_DIR] [D_ITERATIONS]
#       (defaults: build/release, /tmp/mapsim-streamed-replay, 2; run from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
scratch=${2:-/tmp/mapsim-streamed-replay}
d_iterations=${3:-2}
mapsim=$build/mapsim
[ -x "$mapsim" ] || { echo "streamed_replay: build mapsim first ($mapsim is missing)" >&2; exit 1; }
mkdir -p "$scratch"

# run LABEL ARGS...: prints "events wall events/s command_wall peak_kb" of one replay.
run() {
  local out
  out=$( { /usr/bin/time -f "TIME %e %M" "$mapsim" simulate "$@" --format json >"$scratch/out.json"; } 2>&1 ) || {
    echo "$out" >&2
    exit 1
  }
  local time_line events wall
  time_line=$(grep '^TIME' <<<"$out")
  events=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["trace_events"], r["sim_seconds"])' "$scratch/out.json")
  echo "$events ${time_line#TIME }"
}

printf '%-8s %-7s %12s %10s %12s %12s %10s\n' trace read events replay_s "M events/s" command_s peak_MB
for class in B C; do
  archive=$scratch/lu.$class.64
  [ -f "$archive/traces.otf2" ] || "$mapsim" generate lu --class "$class" --ranks 64 --out "$archive" >/dev/null
  declare -A rate whole
  for read in memory stream; do
    read -r events wall command peak < <(run --trace "$archive" --topology torus:4x4x4 --read "$read")
    rate[$read]=$(python3 -c "print($events / $wall / 1e6)")
    whole[$read]=$(python3 -c "print($events / $command / 1e6)")
    printf '%-8s %-7s %12s %10.3f %12.3f %12.2f %10.1f\n' "lu.$class.64" "$read" "$events" "$wall" \
      "${rate[$read]}" "$command" "$(python3 -c "print($peak / 1024)")"
  done
  printf '%-8s streamed / in-memory events/s: end to end %.3f (target >= 0.9), replay loop %.3f\n' \
    "lu.$class.64" "$(python3 -c "print(${whole[stream]} / ${whole[memory]})")" \
    "$(python3 -c "print(${rate[stream]} / ${rate[memory]})")"
done

spec=npb:lu:D:4096:iterations=$d_iterations
read -r events wall command peak < <(run --trace "$spec" --topology torus:16x16x16)
one=npb:lu:D:4096:iterations=1
read -r events1 wall1 command1 peak1 < <(run --trace "$one" --topology torus:16x16x16)
python3 - "$events" "$wall" "$peak" "$events1" "$wall1" "$d_iterations" <<'PY'
import sys
events, wall, peak, events1, wall1, k = map(float, sys.argv[1:])
per_iteration_events = (events - events1) / (k - 1)
per_iteration_wall = (wall - wall1) / (k - 1)
full_events = events1 + 299 * per_iteration_events
full_wall = wall1 + 299 * per_iteration_wall
print(f"npb:lu:D:4096 {int(k)} iterations: {int(events)} events in {wall:.1f} s "
      f"({events / wall / 1e6:.2f} M events/s), peak {peak / 1024:.0f} MB")
print(f"full class D (300 iterations): {full_events / 1e9:.2f} G events, projected "
      f"{full_wall / 3600:.2f} h at {per_iteration_events / per_iteration_wall / 1e6:.2f} M events/s "
      f"(target: under 1 h, under 4 GB)")
PY
