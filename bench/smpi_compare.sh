#!/usr/bin/env bash
# mapsim's `flow` replay side by side with SimGrid SMPI on the real NPB traces: same torus (one
# rank per node), 25 GB/s and 100 ns per link, compute gaps as recorded (MPI_Init to
# MPI_Finalize), linear and permuted placement (rank r on node (7 r + 3) mod N, as
# ../shared/tools/smpi/replay.sh's perm7). Prints per trace and placement: both simulated times
# and their ratio, both wall times and the speed-up, peak memory; then whether the placement
# moves both the same way. Targets (issue 6): speed-up >= 20, simulated time within +-15 %.
# Two speed-ups are printed. "replay": SMPI's own "simulation took X seconds (after parsing and
# platform setup)" against mapsim's replay time (after reading the trace) — the simulators
# themselves, like for like. "end to end": the smpirun process (its TI parsing included, the
# OTF2 -> TI conversion not) against the whole mapsim process (start-up, OTF2 reading, replay);
# on the smallest traces both are dominated by process start-up.
#
#   bench/smpi_compare.sh [BUILD_DIR]      (default build/release; run from the repository root)
#
# Installs SimGrid (libsimgrid-dev) and python3-otf2 with apt-get if they are missing; the
# default test run never needs them.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
mapsim=$build/mapsim
shared=$(cd .. && pwd)/shared
[ -x "$mapsim" ] || { echo "smpi_compare: build mapsim first ($mapsim is missing)" >&2; exit 1; }

missing=()
for p in libsimgrid-dev python3-otf2; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "smpi_compare: installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

work=$(mktemp -d -t smpicompare.XXXXXX)
trap 'rm -rf "$work"' EXIT

# trace  torus dims (product = ranks)
cases=(
  "lu.S.8 4x2" "lu.S.12 4x3" "bt.S.9 3x3" "sp.S.4 2x2" "sp.S.9 3x3" "cg.S.8 2x2x2"
  "mg.S.8 2x2x2" "mg.S.24 4x3x2" "ft.S.12 4x3" "is.S.2 2" "ep.S.5 5"
)

# seconds from mapsim's "makespan  1.234 ms" line
to_seconds() { awk '{v=$2; u=$3; if(u=="ms")v/=1e3; else if(u=="us")v/=1e6; printf "%.9g\n", v}'; }

rows=$work/rows
: >"$rows"
for c in "${cases[@]}"; do
  set -- $c
  trace=$1; dims=$2
  anchor=$shared/data/traces/npb/$trace/traces.otf2
  n=$(echo "$dims" | tr 'x' '*' | bc)
  ti=$work/$trace.ti
  /usr/bin/python3 "$shared/tools/smpi/otf2ti.py" "$anchor" "$ti" >/dev/null 2>&1
  for order in linear perm7; do
    map=$work/$trace.$order.map
    for ((r = 0; r < n; r++)); do
      if [ $order = linear ]; then echo "$r $r"; else echo "$r $(( (7 * r + 3) % n ))"; fi
    done >"$map"
    out=$work/mapsim.out
    # End-to-end wall time of the mapsim process (start-up, OTF2 reading, replay): best of 3.
    m_wall=
    for _ in 1 2 3; do
      t0=$(date +%s.%N)
      /usr/bin/time -f "%M" -o "$work/mapsim.rss" "$mapsim" -q simulate --trace "$anchor" \
        --topology "torus:$dims" --mapping "$map" --model flow --link grid:25:100 >"$out"
      t1=$(date +%s.%N)
      w=$(echo "$t1 - $t0" | bc)
      if [ -z "$m_wall" ] || [ "$(echo "$w < $m_wall" | bc)" = 1 ]; then m_wall=$w; fi
    done
    m_rss=$(tail -1 "$work/mapsim.rss")
    m_sim=$(grep '^makespan' "$out" | to_seconds)
    m_replay=$(sed -n 's/^events .* in \([0-9.]*\) s.*/\1/p' "$out")
    s_out=$("$shared/tools/smpi/replay.sh" -v -b 25GBps -l 100ns "$ti/index.txt" torus "$dims" "$order")
    s_replay=$(echo "$s_out" | sed -n 's/^The simulation took \([0-9.e+-]*\) seconds.*/\1/p')
    s_sim=$(echo "$s_out" | sed -n 's/^simulated_time_s=//p')
    s_wall=$(echo "$s_out" | sed -n 's/^wall_time_s=//p')
    s_rss=$(echo "$s_out" | sed -n 's/^peak_rss_kb=//p')
    echo "$trace $dims $order $m_sim $s_sim $m_wall $s_wall $m_rss $s_rss $m_replay $s_replay" >>"$rows"
  done
done

/usr/bin/python3 - "$rows" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
print("simulated time in seconds, ratio = mapsim / SMPI. Speed-ups are SMPI wall time / mapsim wall")
print("time: 'replay' compares the simulations after parsing and setup (SMPI's own figure, mapsim's")
print("replay), 'end to end' the whole processes (start-up, trace parsing, replay). Peak RSS in MB.\n")
print(f"{'trace':<9}{'torus':<7}{'placement':<10}{'mapsim s':>10}{'SMPI s':>10}{'ratio':>7}"
      f"{'SMPI sim':>10}{'replay':>9}{'speed-up':>9}{'SMPI run':>10}{'mapsim':>8}{'speed-up':>9}"
      f"{'mapsim MB':>10}{'SMPI MB':>8}")
by = {}
worst = [1.0, 1.0, 1e9, 1e9]
for t, d, o, ms, ss, mw, sw, mr, sr, rw, sx in rows:
    ms, ss, mw, sw = float(ms), float(ss), float(mw), float(sw)
    rw, sx = max(float(rw), 1e-6), float(sx)  # mapsim prints its replay time to 1 us
    by[(t, o)] = (ms, ss)
    worst = [min(worst[0], ms / ss), max(worst[1], ms / ss), min(worst[2], sx / rw),
             min(worst[3], sw / mw)]
    print(f"{t:<9}{d:<7}{o:<10}{ms:>10.6f}{ss:>10.6f}{ms / ss:>7.3f}{sx:>10.4f}{rw:>9.4f}"
          f"{sx / rw:>9.0f}{sw:>10.3f}{mw:>8.3f}{sw / mw:>9.1f}{int(mr) / 1024:>10.1f}{int(sr) / 1024:>8.1f}")
print(f"\nsimulated-time ratio range {worst[0]:.3f} .. {worst[1]:.3f} (target 0.85 .. 1.15)")
print(f"smallest speed-up: {worst[2]:.0f}x replay (target 20x), {worst[3]:.1f}x end to end")
print("\nplacement effect (perm7 / linear - 1):")
for t in dict.fromkeys(r[0] for r in rows):
    (ml, sl), (mp, sp) = by[(t, "linear")], by[(t, "perm7")]
    dm, ds = mp / ml - 1, sp / sl - 1
    same = "same way" if (abs(dm) < 1e-3 and abs(ds) < 1e-3) or dm * ds > 0 else "DIFFERENT"
    print(f"  {t:<9} mapsim {100 * dm:+7.2f} %   SMPI {100 * ds:+7.2f} %   {same}")
PY
