#!/usr/bin/env bash
# The overhead of libmapsim-record: the time per MPI call of small operations (bench/
# record_overhead.c) on 2 ranks without and with the recorder preloaded, side by side, each the
# best of ROUNDS alternating runs (a busy machine only ever slows a run down).
# Usage: bench/record_overhead.sh [CALLS] [ROUNDS]   (defaults 100000 and 3)
# Needs mpicc and mpirun, and libmapsim-record.so built (cmake --build --preset release);
# RECORDER=path overrides build/release/record/libmapsim-record.so.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-100000}
rounds=${2:-3}
recorder=${RECORDER:-$PWD/build/release/record/libmapsim-record.so}
[ -f "$recorder" ] || { echo "record_overhead: $recorder not found: build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/record_overhead" bench/record_overhead.c
mpirun=(mpirun --oversubscribe -np 2)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)

declare -A plain recorded
best() {  # best NAME VALUE ARRAY: keeps the smaller
  local -n table=$3
  if [ -z "${table[$1]:-}" ] || awk -v a="$2" -v b="${table[$1]}" 'BEGIN { exit !(a < b) }'; then
    table[$1]=$2
  fi
}
for ((round = 0; round < rounds; ++round)); do
  while read -r name ns; do best "$name" "$ns" plain; done \
    < <("${mpirun[@]}" "$work/record_overhead" "$calls")
  while read -r name ns; do best "$name" "$ns" recorded; done \
    < <("${mpirun[@]}" -x LD_PRELOAD="$recorder" -x MAPSIM_RECORD_OUT="$work/matrix.csv" \
          "$work/record_overhead" "$calls")
done

echo "MPI call time per call, $calls calls, best of $rounds runs, 2 ranks ($(mpirun --version | head -1))"
printf '%-10s %12s %12s %10s %8s\n' call "without ns" "recorded ns" "extra ns" ratio
for name in send isend proc-null allreduce; do
  awk -v n="$name" -v a="${plain[$name]}" -v b="${recorded[$name]}" \
    'BEGIN { printf "%-10s %12.1f %12.1f %10.1f %8.2f\n", n, a, b, b - a, b / a }'
done
echo "recorded matrix (rank 0 -> 1: $calls x 2 + messages):"
sed -n '/^src,dst/,$p' "$work/matrix.csv"
