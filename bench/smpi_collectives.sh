#!/usr/bin/env bash
# One collective at a time, mapsim against SimGrid SMPI, each running it with its own selector:
# `simulate --collectives SEL` (mapsim's schedules of the algorithm Open MPI's or MPICH's rules
# pick) against SMPI running the same MPI call under --cfg=smpi/coll-selector:SEL (its own
# implementations). For every operation, communicator size and payload below, a trace of the
# collective repeated 10 times (bench/collective_trace.cpp) is replayed on a ring of P hosts
# (torus:P, one rank per host, every link 25 GB/s and 100 ns; SMPI on the platform mapsim
# exports), communication only, with SMPI's 16-byte envelope on both sides (simulate
# --envelope 16) and SMPI's other flags as bench/smpi_compare.sh sets them; SMPI through
# bench/smpi_replayer.c, with bench/smpi_shim.c preloaded (SMPI's knomial broadcast would
# otherwise charge the set-up of its node-local communicators to the first broadcast). Sizes are bytes passed as MPI_BYTE counts, as SMPI's own replay passes
# them. Prints each case's times and the ratio mapsim / SMPI, then the cases outside +-5 %.
#
#   bench/smpi_collectives.sh [--collectives ompi|mpich] [--ops LIST] [--sizes LIST]
#                             [--ranks LIST] [BUILD_DIR]
#       (defaults: ompi; barrier,bcast,reduce,allreduce,allgather,alltoall; 4,64,1024,16384,
#       262144; 4,5,8,12,16; build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
selector=ompi
ops=barrier,bcast,reduce,allreduce,allgather,alltoall
sizes=4,64,1024,16384,262144
ranks=4,5,8,12,16
while [ $# -gt 0 ]; do
  case $1 in
    --collectives) selector=$2; shift 2 ;;
    --ops) ops=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    *) break ;;
  esac
done
case $selector in ompi | mpich) ;; *) echo "smpi_collectives: --collectives ompi|mpich" >&2; exit 2 ;; esac
build=${1:-build/release}
mapsim=$build/mapsim
maker=$build/bench/collective_trace
for tool in "$mapsim" "$maker"; do
  [ -x "$tool" ] || { echo "smpi_collectives: build it first ($tool is missing)" >&2; exit 1; }
done
if ! command -v smpirun >/dev/null; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "smpi_collectives: installing libsimgrid-dev" >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
    libsimgrid-dev >/dev/null
fi

work=$(mktemp -d -t smpicoll.XXXXXX)
trap 'rm -rf "$work"' EXIT
smpicc -O2 -o "$work/replayer" bench/smpi_replayer.c -lm
cc -shared -fPIC -O2 -o "$work/shim.so" bench/smpi_shim.c

to_seconds() { awk '{v=$2; u=$3; if(u=="ms")v/=1e3; else if(u=="us")v/=1e6; else if(u=="ns")v/=1e9; printf "%.9g\n", v}'; }

printf "%-10s %5s %9s %13s %13s %7s\n" op ranks bytes "mapsim s" "SMPI s" ratio
misses=()
for op in ${ops//,/ }; do
  for p in ${ranks//,/ }; do
    for b in ${sizes//,/ }; do
      [ "$op" = barrier ] && [ "$b" != "${sizes%%,*}" ] && continue  # a barrier has no size
      spec=torus:$p
      "$maker" "$work/trace" "$p" "${REPEAT:-10}" "$op" "$b"
      links=()
      for class in $("$mapsim" topo "$spec" | awk '/^links/ {f = 1; next} f && /^  [a-z]/ {print $1; next} f {exit}'); do
        links+=(--link "$class:25:100")
      done
      rm -rf "$work/ti"
      "$mapsim" -q export "$work/trace/traces.otf2" --format simgrid-ti --out "$work/ti" \
        --no-compute --native-collectives --collectives "$selector" --topology "$spec" \
        "${links[@]}" >"$work/export.out"
      "$mapsim" -q simulate --trace "$work/trace/traces.otf2" --topology "$spec" --model flow \
        --compute-scale 0 --collectives "$selector" --envelope 16 "${links[@]}" >"$work/mapsim.out"
      m=$(grep '^makespan' "$work/mapsim.out" | to_seconds)
      smpirun=$(grep '^smpirun ' "$work/export.out")
      smpirun=${smpirun/-replay $work\/ti\/index.txt/--cfg=smpi/coll-selector:$selector --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no $work/replayer $work/ti}
      LD_PRELOAD=$work/shim.so eval "$smpirun" >"$work/smpi.log" 2>&1 ||
        { grep -v "INFO" "$work/smpi.log" | head -20 >&2; exit 1; }
      s=$(sed -n 's/^smpi_replayer: makespan \([0-9.e+-]*\) s.*/\1/p' "$work/smpi.log")
      ratio=$(awk -v m="$m" -v s="$s" 'BEGIN {printf "%.3f", m / s}')
      printf "%-10s %5s %9s %13.6e %13.6e %7s\n" "$op" "$p" "$b" "$m" "$s" "$ratio"
      awk -v r="$ratio" 'BEGIN {exit !(r < 0.95 || r > 1.05)}' && misses+=("$op P=$p $b B: $ratio")
    done
  done
done
echo
echo "${#misses[@]} cases outside +-5 %"
for miss in "${misses[@]}"; do echo "  $miss"; done
