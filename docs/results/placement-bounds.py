#!/usr/bin/env python3
"""How far each context of a sweep is from the placement bound (sim/PlacementBound.hpp): for every
(workload, machine) of the database's communication-only flow runs, the bound as
`mapsim simulate --bound` replays it, the fastest mapper other than replay-search and
replay-search, each as a multiple of the bound, and the most any placement could still gain over
the best other mapper (1 - bound / its makespan):

    docs/results/placement-bounds.py FILE [MAPSIM]     (MAPSIM: build/release/mapsim)

FILE is the database of experiments/configs/static-vs-simulated.yaml (mapsim run ... --db FILE),
or of any sweep with replay-search and other mappers under flow at compute scale 0 and the
default link parameters."""
import json
import sqlite3
import statistics
import subprocess
import sys
from collections import defaultdict

db = sqlite3.connect(sys.argv[1])
mapsim = sys.argv[2] if len(sys.argv) > 2 else "build/release/mapsim"
rows = db.execute("SELECT workload, topology, mapper_label, makespan_ps FROM runs "
                  "WHERE status = 'done' AND model = 'flow' AND compute_scale = 0").fetchall()
contexts = defaultdict(dict)
for workload, topology, label, makespan in rows:
    contexts[(workload, topology)][label] = makespan

out = []
for (workload, topology), times in sorted(contexts.items()):
    others = {label: t for label, t in times.items() if label != "replay-search"}
    if not others:
        continue
    report = subprocess.run([mapsim, "simulate", "--trace", workload, "--topology", topology,
                             "--compute-scale", "0", "--bound", "--format", "json"],
                            check=True, capture_output=True, text=True).stdout
    bound = json.loads(report)["settings"]["placement_bound_ps"]
    other = min(others.values())
    search = times.get("replay-search")
    out.append((1 - bound / other, workload, topology, other / bound,
                search / bound if search else float("nan")))

print(f"{'workload':34} {'machine':22} {'other/bound':>11} {'search/bound':>12} {'headroom':>9}")
for headroom, workload, topology, other, search in sorted(out):
    print(f"{workload:34} {topology:22} {other:11.4f} {search:12.4f} {100 * headroom:8.1f}%")
print(f"{len(out)} contexts; no placement can gain 5 % over the best other mapper in "
      f"{sum(h < 0.05 for h, *_ in out)}; median headroom "
      f"{100 * statistics.median(h for h, *_ in out):.1f} %")
