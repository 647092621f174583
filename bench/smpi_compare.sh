#!/usr/bin/env bash
# mapsim's `flow` replay side by side with SimGrid SMPI on real NPB traces: same torus (one rank per
# node; SimGrid's TORUS cluster, one link each way per dimension), 25 GB/s and 100 ns per link, a
# rank's messages to itself over a 20 GB/s, 200 ns channel on both sides (mapsim's intra-node
# class, SimGrid's loopback), linear and permuted placement (rank r on node (7 r + 3) mod N).
#
# Both simulators replay the same messages: `mapsim export --format simgrid-ti` writes the trace
# for SMPI with every collective expanded into the point-to-point schedule mapsim replays, so
# neither side's collective algorithms differ. SMPI runs its uncalibrated model
# (smpi/bw-factor:0:1, smpi/lat-factor:0:1, network/crosstraffic:0) with mapsim's eager protocol:
# messages of at most 65536 bytes are sent at once (smpi/async-small-thresh and
# smpi/send-is-detached-thresh 65537; SMPI's default of 0 would hold every message until its
# receive is posted — see the README, "Which network model"), and with its numerical precision
# raised (surf/precision 1e-12 s: at the defaults, 1 ns and 1e-5, SMPI's
# own result for FT moves by 1 %, as much as the placement effect being measured).
#
# Two regimes, one row per trace and placement in each:
#   compute  the recorded computation kept (compute actions at 1 Gflop/s, MPI_Init to
#            MPI_Finalize): the regime where computation hides the network;
#   comm     communication only (`--compute-scale 0`, `export --no-compute`): where mapping
#            matters.
# Printed: both simulated times and their ratio, both replay wall times and the speed-up, peak
# memory; then the placement effect (permuted / linear - 1) of both. Targets: simulated time
# within +-15 %; in the comm regime the placement effect of the same sign and within a factor
# of 1.5 wherever SMPI's exceeds 1 %.
#
#   bench/smpi_compare.sh [--mode compute|comm|both] [BUILD_DIR] [TRACES_DIR]
#       (defaults: both, build/release, tests/data/npb; run from the repository root)
#
# Installs SimGrid (libsimgrid-dev) with apt-get if smpirun is missing; the default test run
# never needs it.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=both
if [ "${1:-}" = --mode ]; then mode=$2; shift 2; fi
case $mode in compute | comm | both) ;; *) echo "smpi_compare: --mode compute|comm|both" >&2; exit 2 ;; esac
build=${1:-build/release}
traces=${2:-tests/data/npb}
mapsim=$build/mapsim
[ -x "$mapsim" ] || { echo "smpi_compare: build mapsim first ($mapsim is missing)" >&2; exit 1; }
[ -d "$traces" ] || { echo "smpi_compare: no trace directory $traces" >&2; exit 1; }

if ! command -v smpirun >/dev/null; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "smpi_compare: installing libsimgrid-dev" >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
    libsimgrid-dev >/dev/null
fi

work=$(mktemp -d -t smpicompare.XXXXXX)
trap 'rm -rf "$work"' EXIT

# trace  torus dims (product = ranks)
cases=(
  "lu.S.8 4x2" "lu.S.12 4x3" "bt.S.9 3x3" "sp.S.4 2x2" "sp.S.9 3x3" "cg.S.8 2x2x2"
  "mg.S.8 2x2x2" "mg.S.24 4x3x2" "ft.S.12 4x3" "is.S.2 2" "ep.S.5 5"
)
smpi_flags=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0
  --cfg=smpi/async-small-thresh:65537 --cfg=smpi/send-is-detached-thresh:65537
  --cfg=smpi/host-speed:1e9f --cfg=smpi/display-timing:yes
  --cfg=surf/precision:1e-12)

# seconds from mapsim's "makespan  1.234 ms" line
to_seconds() { awk '{v=$2; u=$3; if(u=="ms")v/=1e3; else if(u=="us")v/=1e6; printf "%.9g\n", v}'; }

modes=(compute comm)
[ "$mode" = both ] || modes=("$mode")
rows=$work/rows
: >"$rows"
for regime in "${modes[@]}"; do
  for c in "${cases[@]}"; do
    set -- $c
    trace=$1; dims=$2
    anchor=$traces/$trace/traces.otf2
    n=$(echo "$dims" | tr 'x' '*' | bc)
    ti=$work/$trace.$regime
    export_flags=(); scale=()
    if [ "$regime" = comm ]; then export_flags=(--no-compute); scale=(--compute-scale 0); fi
    "$mapsim" -q export "$anchor" --format simgrid-ti --out "$ti" "${export_flags[@]}" >/dev/null
    cat >"$work/platform.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" topology="TORUS" topo_parameters="${dims//x/,}" prefix="node-" radical="0-$((n - 1))"
           suffix="" speed="1e9f" bw="25GBps" lat="100ns" loopback_bw="20GBps" loopback_lat="200ns"/>
</platform>
EOF
    for order in linear perm7; do
      map=$work/map
      for ((r = 0; r < n; r++)); do
        if [ $order = linear ]; then echo "$r $r"; else echo "$r $(((7 * r + 3) % n))"; fi
      done >"$map"
      awk '{print "node-" $2}' "$map" >"$work/hostfile"
      out=$work/mapsim.out
      /usr/bin/time -f "%M" -o "$work/mapsim.rss" "$mapsim" -q simulate --trace "$anchor" \
        --topology "torus:$dims" --mapping "$map" --model flow --link grid:25:100 \
        "${scale[@]}" >"$out"
      m_rss=$(tail -1 "$work/mapsim.rss")
      m_sim=$(grep '^makespan' "$out" | to_seconds)
      m_replay=$(sed -n 's/^events .* in \([0-9.]*\) s.*/\1/p' "$out")
      /usr/bin/time -f "%M" -o "$work/smpi.rss" smpirun -np "$n" -platform "$work/platform.xml" \
        -hostfile "$work/hostfile" "${smpi_flags[@]}" -replay "$ti/index.txt" >"$work/smpi.log" 2>&1 ||
        { grep -v "^  ->" "$work/smpi.log" | grep -v "xbt_cfg/INFO" | head -20 >&2; exit 1; }
      s_rss=$(tail -1 "$work/smpi.rss")
      s_sim=$(sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' "$work/smpi.log" | tail -1)
      s_replay=$(sed -n 's/^The simulation took \([0-9.e+-]*\) seconds.*/\1/p' "$work/smpi.log")
      echo "$regime $trace $dims $order $m_sim $s_sim $m_replay $s_replay $m_rss $s_rss" >>"$rows"
    done
  done
done

/usr/bin/python3 - "$rows" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
print("simulated time in seconds, ratio = mapsim / SMPI; speed-up = SMPI's replay time (after")
print("parsing and platform set-up) / mapsim's replay time (after reading the trace); peak RSS in MB")
fails = 0
for regime in dict.fromkeys(r[0] for r in rows):
    title = {"compute": "computation kept", "comm": "communication only"}[regime]
    print(f"\n== {title}")
    print(f"{'trace':<9}{'torus':<7}{'placement':<10}{'mapsim s':>13}{'SMPI s':>13}{'ratio':>7}"
          f"{'mapsim':>9}{'SMPI':>9}{'speed-up':>9}{'mapsim MB':>10}{'SMPI MB':>8}")
    by = {}
    lo, hi = 1e9, 0.0
    for g, t, d, o, ms, ss, mr, sr, mk, sk in (r for r in rows if r[0] == regime):
        ms, ss, mr, sr = float(ms), float(ss), max(float(mr), 1e-6), float(sr)
        by[(t, o)] = (ms, ss)
        ratio = ms / ss
        lo, hi = min(lo, ratio), max(hi, ratio)
        flag = "" if 0.85 <= ratio <= 1.15 else "  OUTSIDE +-15 %"
        fails += bool(flag)
        print(f"{t:<9}{d:<7}{o:<10}{ms:>13.6e}{ss:>13.6e}{ratio:>7.3f}{mr:>9.4f}{sr:>9.4f}"
              f"{sr / mr:>9.0f}{int(mk) / 1024:>10.1f}{int(sk) / 1024:>8.1f}{flag}")
    print(f"ratio range {lo:.3f} .. {hi:.3f} (target 0.85 .. 1.15)")
    print("placement effect (perm7 / linear - 1):")
    for t in dict.fromkeys(k[0] for k in by):
        (ml, sl), (mp, sp) = by[(t, "linear")], by[(t, "perm7")]
        dm, ds = mp / ml - 1, sp / sl - 1
        if abs(ds) <= 0.01:
            verdict = "SMPI's within 1 %: no target"
        elif dm * ds > 0 and max(dm / ds, ds / dm) <= 1.5:
            verdict = "same sign, within 1.5x"
        else:
            verdict = "DIFFERENT" if dm * ds <= 0 else f"factor {max(dm / ds, ds / dm):.2f}"
            fails += regime == "comm"
        print(f"  {t:<9} mapsim {100 * dm:+7.2f} %   SMPI {100 * ds:+7.2f} %   {verdict}")
print(f"\n{fails} target misses")
PY
