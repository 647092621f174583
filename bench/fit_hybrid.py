#!/usr/bin/env python3
"""Fits the weights of best's objective=hybrid on results databases (mappers/LocalSearch.hpp).

For every context (workload, machine, model) with an in-order run, each mapping's static sums
(hop_bytes, busiest_link_s, link_load_squares, latency_s) are divided by in-order's, and a weight
vector w scores the mean Spearman rho between sum_k w_k ratio_k and the replayed makespan over the
contexts' mappings (values within 0.1 % tied, as rank_correlation does; contexts where either side
is constant left out). The weights are searched on a grid of steps of 1/STEPS over the simplex;
the score is the mean over the databases of each one's mean over its flow and packet contexts.
Runs of mappers labelled best-hybrid are left out (they were chosen with the weights being fitted).

    python3 bench/fit_hybrid.py objectives.db svs.db [--weights 0.1,0.7,0.2,0] [--steps 20]

Needs Python 3 only (no numpy).
"""
import argparse
import sqlite3

METRICS = ("hop_bytes", "busiest_link_s", "link_load_squares", "latency_s")
TIE = 1e-3


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        start = values[order[i]]
        while j + 1 < len(order) and abs(values[order[j + 1]] - start) <= TIE * max(
                abs(values[order[j + 1]]), abs(start)):
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return None if sxx == 0 or syy == 0 else sxy / (sxx * syy) ** 0.5


def contexts(path):
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT workload, machine, model_label, mapper_label, makespan_ps, "
        + ", ".join(METRICS)
        + " FROM results WHERE status = 'done' AND repeat = 0 AND makespan_ps IS NOT NULL "
        "AND latency_s IS NOT NULL AND mapper_label != 'best-hybrid'").fetchall()
    grouped = {}
    for r in rows:
        grouped.setdefault((r[0], r[1], r[2]), []).append(r[3:])
    result = []
    for key, runs in grouped.items():
        reference = [r for r in runs if r[0] == "in-order"]
        if not reference:
            continue
        ref = reference[0]
        ratios = [[(r[2 + k] / ref[2 + k]) if ref[2 + k] else r[2 + k] for k in range(len(METRICS))]
                  for r in runs]
        result.append((key, [r[1] for r in runs], ratios))
    return result


def score(data, weights, keep):
    total, count = 0.0, 0
    for key, times, ratios in data:
        if not keep(key):
            continue
        rho = spearman([sum(w * v for w, v in zip(weights, row)) for row in ratios], times)
        if rho is not None:
            total += rho
            count += 1
    return total / count if count else float("nan")


def replayed(key):
    return key[2].startswith("flow") or key[2].startswith("packet")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+")
    parser.add_argument("--weights", help="score these weights (hop_bytes,busiest,smooth,latency)")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    data = [contexts(path) for path in args.databases]
    for k, name in enumerate(METRICS):
        w = [0.0] * len(METRICS)
        w[k] = 1.0
        print(f"{name:18} " + " ".join(f"{score(d, w, replayed):.3f}" for d in data))
    steps = args.steps
    scored = []
    for a in range(steps + 1):
        for b in range(steps + 1 - a):
            for c in range(steps + 1 - a - b):
                w = (a / steps, b / steps, c / steps, (steps - a - b - c) / steps)
                scored.append((sum(score(d, w, replayed) for d in data) / len(data), w))
    scored.sort(key=lambda s: (-s[0], s[1]))
    for mean, w in scored[:5]:
        print(f"fitted {w}: mean rho {mean:.3f}")
    if args.weights:
        w = tuple(float(x) for x in args.weights.split(","))
        print(f"given  {w}: " + " ".join(f"{score(d, w, replayed):.3f}" for d in data))
        for d, path in zip(data, args.databases):
            for machine in sorted({key[1] for key, _, _ in d}):
                for model in ("flow", "packet"):
                    cells = []
                    for name, weights in (("given", w), ("hop_bytes", (1, 0, 0, 0)),
                                          ("busiest_link_s", (0, 1, 0, 0)),
                                          ("link_load_squares", (0, 0, 1, 0))):
                        keep = lambda key: key[1] == machine and key[2].startswith(model)
                        cells.append(f"{name} {score(d, weights, keep):+.2f}")
                    print(f"{path} {machine} {model}: " + ", ".join(cells))


if __name__ == "__main__":
    main()
