#!/usr/bin/env python3
"""Issue 26's first target from the database of experiments/configs/static-vs-simulated.yaml
(mapsim run ... --db FILE):

    docs/results/replay-search-targets.py FILE

Per context (workload, machine), replay-search's makespan against the fastest of the other
mappers: under flow (the model it optimises) how often it is not slower, its gain (1 - ratio)
per context and their median; under packet (judging the same mappings) how often it is not
slower than that context's fastest other mapper. Then the contexts whose ratio is not 1."""
import sqlite3
import statistics
import sys
from collections import defaultdict

db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT workload, topology, model, mapper_label, makespan_ps FROM runs "
                  "WHERE status = 'done' AND model IN ('flow', 'packet')").fetchall()
ms = defaultdict(dict)
for workload, topology, model, label, makespan in rows:
    ms[(workload, topology, model)][label] = makespan


def ratios(model):
    out = {}
    for (workload, topology, m), v in sorted(ms.items()):
        if m != model or "replay-search" not in v or len(v) < 2:
            continue
        other = min(x for label, x in v.items() if label != "replay-search")
        out[(workload, topology)] = v["replay-search"] / other
    return out


flow = ratios("flow")
packet = ratios("packet")
gains = [1 - r for r in flow.values()]
print(f"flow: {len(flow)} contexts; not slower than the best other mapper in "
      f"{sum(r <= 1 + 1e-12 for r in flow.values())}; median gain {statistics.median(gains):.4f}; "
      f"no gain in {sum(g <= 1e-12 for g in gains)}; 5 % or more in {sum(g >= 0.05 for g in gains)}"
      f" (at most {max(gains):.4f})")
print(f"packet: not slower than the best other mapper in "
      f"{sum(r <= 1 + 1e-12 for r in packet.values())} of {len(packet)}")
for context, r in sorted(flow.items(), key=lambda kv: kv[1]):
    if abs(r - 1) > 1e-12:
        print(f"  flow {context[0]} {context[1]}: {r:.4f}; packet {packet.get(context, float('nan')):.4f}")
