#!/usr/bin/env bash
# Issue 23's target for `mapsim advise`: under 30 s for a 64-rank trace on 2 cores. Times advise
# on NPB LU, CG and FT (class A, 64 ranks, generated with every iteration of the class) on a
# 4x4x4 torus and prints the wall time of each and its verdict.
# Usage: bench/advise_time.sh [MAPSIM] [MACHINE]
set -euo pipefail
cd "$(dirname "$0")/.."
mapsim=${1:-build/release/mapsim}
machine=${2:-torus:4x4x4}
printf '%-14s %-16s %9s  %s\n' workload machine seconds recommended
for workload in npb:lu:A:64 npb:cg:A:64 npb:ft:A:64; do
  start=$(date +%s.%N)
  verdict=$("$mapsim" advise "$workload" --topology "$machine" 2>/dev/null | sed -n 's/^recommended    //p')
  end=$(date +%s.%N)
  printf '%-14s %-16s %9.2f  %s\n' "$workload" "$machine" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$verdict"
done
