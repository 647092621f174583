#!/usr/bin/env python3
"""The tables of the "time-aware objectives and replay-search added" sections of
docs/results/ohtma-tianhe3.md and docs/results/bhatele-tori.md, from the database of
experiments/configs/ohtma-tianhe3-objectives.yaml or bhatele-objectives.yaml
(mapsim run ... --db FILE):

    docs/results/objectives-added-table.py FILE

First every flow makespan relative to in-order's, per workload and machine (in-order, the seed
experiment's mappers, those under a time-aware objective, replay-search; by name within each); then replay-search against the fastest other mapper, with its wall time; then, per
mapper under a time-aware objective, the geometric mean over the contexts of its makespan over
the same mapper's under hop-bytes (`best`, `ohtma`) and how often it is faster / slower by more
than 0.1 %."""
import math
import sqlite3
import sys
from collections import defaultdict

db = sqlite3.connect(sys.argv[1])
rows = db.execute(
    "SELECT r.workload, r.topology, r.mapper_label, r.makespan_ps, m.map_seconds FROM runs r "
    "JOIN mappings m ON m.mapping_key = r.mapping_key "
    "WHERE r.status = 'done' AND r.model = 'flow' ORDER BY r.rowid").fetchall()
ms = defaultdict(dict)
map_time = {}
labels = []
for workload, topology, label, makespan, seconds in rows:
    ms[(workload, topology)][label] = makespan
    map_time[(workload, topology, label)] = seconds
    if label not in labels:
        labels.append(label)
# In-order, the seed experiment's mappers, the objectives, replay-search; by name within each.
labels.sort(key=lambda l: (l != "in-order", l == "replay-search", "[objective=" in l, l))
short = {l: l.replace("[objective=", ":").replace("]", "") for l in labels}
contexts = sorted(ms, key=lambda c: (c[1], c[0]))

print("| workload | machine | in-order | " + " | ".join(short[l] for l in labels if l != "in-order")
      + " |")
print("|---|---|---|" + "---|" * (len(labels) - 1))
for c in contexts:
    v = ms[c]
    base = v["in-order"]
    cells = [f"{v[l] / base:.3f}" if l in v else "-" for l in labels if l != "in-order"]
    print(f"| {c[0]} | {c[1]} | {base / 1e9:.3f} ms | " + " | ".join(cells) + " |")
print()
print("| workload | machine | best other mapper | replay-search / best other | map time |")
print("|---|---|---|---|---|")
ratios = []
for c in contexts:
    v = ms[c]
    if "replay-search" not in v:
        continue
    other = min((m, l) for l, m in v.items() if l != "replay-search")
    ratio = v["replay-search"] / other[0]
    ratios.append(ratio)
    print(f"| {c[0]} | {c[1]} | {short[other[1]]} {other[0] / v['in-order']:.3f} | {ratio:.3f} | "
          f"{map_time[(c[0], c[1], 'replay-search')]:.0f} s |")
if ratios:
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\ngeometric mean {mean:.3f}; faster in {sum(r < 0.999 for r in ratios)}, slower in "
          f"{sum(r > 1.001 for r in ratios)} of {len(ratios)}")
print()
print("| mapper | against | geometric mean | faster / slower |")
print("|---|---|---|---|")
for label in labels:
    if "[objective=" not in label:
        continue
    base_label = label.split("[")[0]
    against = base_label if base_label in labels else "best"
    r = [ms[c][label] / ms[c][against] for c in contexts if label in ms[c] and against in ms[c]]
    if not r:
        continue
    mean = math.exp(sum(math.log(x) for x in r) / len(r))
    print(f"| {short[label]} | {against} | {mean:.3f} | {sum(x < 0.999 for x in r)} / "
          f"{sum(x > 1.001 for x in r)} of {len(r)} |")
