#!/usr/bin/env bash
# The replay's speed with MPI's per-message overheads (--overheads typical) against without
# (none), measured side by side in one run: LU class B on 64 ranks (20 iterations, generated) on
# torus:4x4x4 and on torus:2x2x4:cores=4 under flow, whole run and communication only, each
# replayed REPEATS times alternately; printed per case: engine and trace events of both, the
# median replay wall time, trace and engine events/s, and the ratios typical/none of trace
# events/s and engine events/s (target in issue 24: within 10 %), with the range of the ratios
# of the alternate pairs (the machine's noise: a replay of 0.2 s moves by several percent from
# one run to the next, so ITERATIONS defaults to 100, replays of about a second each).
#
# Overheads add engine events of their own (an injection per message after its o_s, a rank's
# resumption after each send's o_s when it does not compute, drains no longer simultaneous):
# engine events/s measures the cost per event, trace events/s what a user waits for.
#
# WITH sets what is measured against none (default: --overheads typical); e.g.
# WITH="--calibration smpi" (SMPI's factors and overheads) or WITH="--bw-factor 0:0.9;65536:0.95".
# TRACE sets the workload (default npb:lu:B:64:iterations=ITERATIONS), e.g. TRACE=npb:cg:B:64.
#
#   bench/overheads_speed.sh [BUILD_DIR] [REPEATS] [ITERATIONS]
#                                  (defaults: build/release, 7, 100; from the root)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
repeats=${2:-7}
iterations=${3:-100}
mapsim=$build/mapsim
[ -x "$mapsim" ] || { echo "overheads_speed: build mapsim first ($mapsim is missing)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

read -r -a with <<<"${WITH:---overheads typical}"
workload=${TRACE:-npb:lu:B:64:iterations=$iterations}
echo "typical: ${with[*]}; workload: $workload"

# run none|typical ARGS...: prints "trace_events engine_events sim_seconds" of one replay, without
# overheads or with WITH.
run() {
  local setting=(--overheads none)
  [ "$1" = typical ] && setting=("${with[@]}")
  shift
  "$mapsim" simulate "$@" "${setting[@]}" --format json >"$scratch/out.json"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["trace_events"], r["engine_events"], r["sim_seconds"])' "$scratch/out.json"
}

median() { python3 -c 'import sys,statistics; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

printf '%-22s %-8s %-8s %10s %10s %10s %12s %12s\n' machine replay overheads trace_ev engine_ev \
  wall_s "M trace/s" "M engine/s"
for machine in torus:4x4x4 torus:2x2x4:cores=4; do
  for scale in 1 0; do
    replay=$([ "$scale" = 1 ] && echo whole || echo comm)
    declare -A walls=() trace=() engine=() last=()
    pairs=""
    for ((i = 0; i < repeats; ++i)); do
      for overheads in none typical; do
        read -r t e w < <(run "$overheads" --trace "$workload" \
          --topology "$machine" --compute-scale "$scale")
        trace[$overheads]=$t
        engine[$overheads]=$e
        walls[$overheads]="${walls[$overheads]:-} $w"
        last[$overheads]=$w
      done
      pairs="$pairs $(python3 -c "print(${last[none]} / ${last[typical]})")"
    done
    declare -A trace_rate=() engine_rate=()
    for overheads in none typical; do
      # shellcheck disable=SC2086
      wall=$(median ${walls[$overheads]})
      trace_rate[$overheads]=$(python3 -c "print(${trace[$overheads]} / $wall / 1e6)")
      engine_rate[$overheads]=$(python3 -c "print(${engine[$overheads]} / $wall / 1e6)")
      printf '%-22s %-8s %-8s %10s %10s %10.4f %12.2f %12.2f\n' "$machine" "$replay" "$overheads" \
        "${trace[$overheads]}" "${engine[$overheads]}" "$wall" "${trace_rate[$overheads]}" \
        "${engine_rate[$overheads]}"
    done
    # shellcheck disable=SC2086
    printf '%-22s %-8s typical/none: trace events/s %.3f (pairs %s), engine events/s %.3f\n' \
      "$machine" "$replay" "$(python3 -c "print(${trace_rate[typical]} / ${trace_rate[none]})")" \
      "$(python3 -c 'import sys; v=[float(x) for x in sys.argv[1:]]; print(f"{min(v):.3f}-{max(v):.3f}")' $pairs)" \
      "$(python3 -c "print(${engine_rate[typical]} / ${engine_rate[none]})")"
  done
done
