#!/usr/bin/env python3
"""The tables of docs/results/exchange-objectives.md from the database of
experiments/configs/exchange-objectives.yaml (mapsim run ... --db FILE):

    docs/results/exchange-objectives-table.py FILE

Per machine and pair of mappers (an objective against hop-bytes or latency), the geometric mean
over the workloads of the flow makespan ratio, and in how many workloads it is faster / slower
by more than 0.1 %; then every makespan relative to in-order's."""
import math
import sqlite3
import sys
from collections import defaultdict

db = sqlite3.connect(sys.argv[1])
rows = db.execute(
    "SELECT workload, topology, mapper_label, makespan_ps FROM runs "
    "WHERE status = 'done' AND model = 'flow'").fetchall()
ms = defaultdict(dict)
for workload, topology, label, makespan in rows:
    ms[(workload, topology)][label] = makespan
machines = sorted({t for _, t in ms})
pairs = [("bokhari-congestion", "bokhari-hop-bytes"), ("bokhari-hybrid", "bokhari-hop-bytes"),
         ("ohtma-congestion", "ohtma-hop-bytes"), ("ohtma-hybrid", "ohtma-hop-bytes"),
         ("best-critical-latency", "best-latency")]
print("| machine | " + " | ".join(f"{a} / {b}" for a, b in pairs) + " |")
print("|---|" + "---|" * len(pairs))
for machine in machines:
    cells = []
    for a, b in pairs:
        ratios = [v[a] / v[b] for (w, t), v in ms.items() if t == machine and a in v and b in v]
        if not ratios:
            cells.append("-")
            continue
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        faster = sum(r < 0.999 for r in ratios)
        slower = sum(r > 1.001 for r in ratios)
        cells.append(f"{mean:.3f} ({faster} / {slower} of {len(ratios)})")
    print(f"| {machine} | " + " | ".join(cells) + " |")
print()
labels = ["bokhari-hop-bytes", "bokhari-congestion", "bokhari-hybrid", "ohtma-hop-bytes",
          "ohtma-congestion", "ohtma-hybrid", "best-latency", "best-critical-latency"]
print("| workload | machine | " + " | ".join(labels) + " |")
print("|---|---|" + "---|" * len(labels))
for (workload, topology) in sorted(ms):
    v = ms[(workload, topology)]
    base = v.get("in-order")
    cells = [f"{v[l] / base:.3f}" if base and l in v else "-" for l in labels]
    print(f"| {workload} | {topology} | " + " | ".join(cells) + " |")
