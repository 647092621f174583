#!/usr/bin/env bash
# Calibration, closed loop (issue 24): SimGrid SMPI's default (calibrated) network model plays
# "the machine". An OSU-style ping-pong (bench/smpi_pingpong.c, built with smpicc) runs under
# SMPI between nodes 0 and 1 of torus:4x2 (links 25 GB/s, 100 ns, as bench/smpi_compare.sh sets
# them), at 117 sizes from 0 to 4 MiB; `mapsim calibrate --intercept latency --envelope 16` fits
# a calibration to what it printed (SMPI models small-message time as latency, not CPU
# overheads, and sends 16 bytes of envelope with every message: SMPI's own documented figure, as
# a user gives their MPI library's; a ping-pong cannot measure it); then bench/smpi_compare.sh replays
# every NPB trace in both, SMPI with its default model and mapsim with the fitted calibration
# (and, for reference, with reverse traffic and weight-S 8775 added: what a ping-pong cannot
# reveal, as they act only under contention). Target: within +-5 %, placement effects within
# 1.25x wherever SMPI's exceeds 1 %.
#
#   bench/calibration_loop.sh [BUILD_DIR]   (default build/release; run from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
mapsim=$build/mapsim
[ -x "$mapsim" ] || { echo "calibration_loop: build mapsim first ($mapsim is missing)" >&2; exit 1; }
command -v smpicc >/dev/null || { echo "calibration_loop: needs SimGrid (libsimgrid-dev)" >&2; exit 1; }
work=$(mktemp -d -t calloop.XXXXXX)
trap 'rm -rf "$work"' EXIT

smpicc -O2 bench/smpi_pingpong.c -o "$work/pingpong" 2>/dev/null
"$mapsim" -q export tests/data/npb/lu.S.8 --format simgrid-ti --out "$work/platform" \
  --topology torus:4x2 --link grid:25:100 >/dev/null
smpirun -np 2 -platform "$work/platform/platform.xml" -hostfile "$work/platform/hostfile" \
  --cfg=smpi/async-small-thresh:65537 --cfg=smpi/send-is-detached-thresh:65537 \
  --cfg=surf/precision:1e-12 --cfg=network/optim:Full --cfg=smpi/simulate-computation:no \
  "$work/pingpong" 2>/dev/null >"$work/latency.txt"
echo "== mapsim calibrate on SMPI's ping-pong"
"$mapsim" calibrate "$work/latency.txt" --topology torus:4x2 --link grid:25:100 \
  --intercept latency --envelope 16 --out "$work/fitted.cal"
sed -e 's/reverse-traffic: false/reverse-traffic: true/' -e 's/weight-s: 0/weight-s: 8775/' \
  "$work/fitted.cal" >"$work/fitted-sharing.cal"
for cal in fitted fitted-sharing; do
  echo
  echo "== NPB traces, communication only: SMPI's default model against mapsim --calibration $cal.cal"
  bench/smpi_compare.sh --mode comm --calibration "$work/$cal.cal" "$build" |
    grep -E "ratio range|target misses|^  [a-z]"
done
