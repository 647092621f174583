#!/usr/bin/env python3
"""A third opinion for bench/smpi_compare.sh: replays the files `mapsim export --topology ...
--platform explicit` writes (a SimGrid TI trace, an explicit-route platform, a host file) under
the rules both mapsim's `flow` model and SMPI's uncalibrated CM02 model state, written
independently of both, with the bytes each message carries beyond its size as a parameter:

  - every message eager (the trace must have none above 65536 bytes): it leaves when its send is
    posted, the send completes at once, the receive when the message has arrived;
  - a message spends its route's latency in flight, then streams its bytes at the weighted
    max-min fair rate of all streaming messages (weight 1 / route latency), every link one
    constraint; re-solved in full at every arrival and every end of a latency;
  - `compute F` sleeps F / speed seconds; `wait SRC DST TAG` completes the rank's oldest request
    with that key; init and finalize take no time.

  bench/smpi_reference.py DIR [ENVELOPE_BYTES] [FLOPS_PER_SECOND]
      DIR holds index.txt, platform.xml (explicit routes) and hostfile; ENVELOPE_BYTES 0 (mapsim)
      or 16 (SMPI, whose requests carry size + 16 bytes); prints the simulated time in seconds.

With 16 it reproduces smpirun's time (network/optim:Full) and with 0 mapsim's makespan, both to
about 1e-5 on the NPB traces of tests/data/npb: the two simulators differ by SMPI's envelope.
Slow (a full re-solve per event): for the class-S traces only.
"""
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict, deque

directory = sys.argv[1]
envelope = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
speed = float(sys.argv[3]) if len(sys.argv) > 3 else 1e9

zone = ET.parse(f"{directory}/platform.xml").getroot().find("zone")
if zone is None or zone.get("routing") != "Full":
    sys.exit("smpi_reference: platform.xml is not explicit routes (export --platform explicit)")
bandwidth = {l.get("id"): float(l.get("bandwidth")[:-3]) for l in zone.findall("link")}
latency = {l.get("id"): float(l.get("latency")[:-1]) for l in zone.findall("link")}
routes = {(r.get("src"), r.get("dst")): [c.get("id") for c in r.findall("link_ctn")]
          for r in zone.findall("route")}
hosts = [line.strip() for line in open(f"{directory}/hostfile") if line.strip()]
programs = [[line.split()[1:] for line in open(name.strip())
             if line.split()[1] not in ("init", "finalize")]
            for name in open(f"{directory}/index.txt") if name.strip()]
ranks = len(programs)

now = 0.0
pc = [0] * ranks
asleep = [0.0] * ranks                             # until when a rank computes
requests = [defaultdict(deque) for _ in range(ranks)]  # key -> "send" / "recv", oldest first
arrived = defaultdict(int)                         # (src, dst, tag) -> messages not yet taken
flows = []


def send(src, dst, tag, size):
    if size > 65536:
        sys.exit(f"smpi_reference: a message of {size:.0f} bytes would use rendezvous")
    path = routes[(hosts[src], hosts[dst])]
    lat = sum(latency[l] for l in path)
    flows.append({"path": path, "weight": 1 / lat, "left": size + envelope, "joins": now + lat,
                  "key": (src, dst, tag), "rate": 0.0})


def step(rank):
    """Runs the rank's actions until it blocks; True if it did anything."""
    moved = False
    while pc[rank] < len(programs[rank]) and asleep[rank] <= now:
        op, *args = programs[rank][pc[rank]]
        if op == "compute":
            asleep[rank] = now + float(args[0]) / speed
        elif op in ("isend", "send"):
            send(rank, int(args[0]), int(args[1]), float(args[2]))
            if op == "isend":
                requests[rank][(rank, int(args[0]), int(args[1]))].append("send")
        elif op in ("irecv", "recv"):
            key = (int(args[0]), rank, int(args[1]))
            if op == "irecv":
                requests[rank][key].append("recv")
            elif arrived[key] > 0:
                arrived[key] -= 1
            else:  # a blocking receive: an irecv and its wait
                requests[rank][key].append("recv")
                programs[rank][pc[rank]] = ["wait", *map(str, key)]
                continue
        elif op == "wait":
            key = tuple(int(a) for a in args)
            if requests[rank][key][0] == "recv":
                if arrived[key] == 0:
                    return moved
                arrived[key] -= 1
            requests[rank][key].popleft()
        else:
            sys.exit(f"smpi_reference: unknown action {op}")
        pc[rank] += 1
        moved = True
    return moved


def solve():
    """Weighted max-min fair rates of the streaming flows, by progressive filling."""
    streaming = [f for f in flows if f["joins"] <= now]
    residual = {l: bandwidth[l] for f in streaming for l in f["path"]}
    unfixed = set(range(len(streaming)))
    while unfixed:
        weights = defaultdict(float)
        for i in unfixed:
            for l in streaming[i]["path"]:
                weights[l] += streaming[i]["weight"]
        link = min(weights, key=lambda l: residual[l] / weights[l])
        share = residual[link] / weights[link]
        for i in [i for i in unfixed if link in streaming[i]["path"]]:
            f = streaming[i]
            f["rate"] = share * f["weight"]
            for l in f["path"]:
                residual[l] -= f["rate"]
            unfixed.discard(i)


while True:
    while any([step(r) for r in range(ranks)]):
        pass
    if not flows and all(pc[r] == len(programs[r]) and asleep[r] <= now for r in range(ranks)):
        break
    solve()
    candidates = [f["joins"] if f["joins"] > now else
                  now + f["left"] / f["rate"] if f["rate"] > 0 else float("inf") for f in flows]
    candidates += [t for t in asleep if t > now]
    if not candidates:
        sys.exit("smpi_reference: deadlock: ranks " +
                 ", ".join(str(r) for r in range(ranks) if pc[r] < len(programs[r])))
    later = min(candidates)
    for f in flows:
        if f["joins"] <= now:
            f["left"] -= f["rate"] * (later - now)
    now = later
    # Arrived: no byte left, or too few for the clock to tell the time they take.
    for f in [f for f in flows if f["joins"] <= now and
              (f["left"] <= 1e-9 or (f["rate"] > 0 and now + f["left"] / f["rate"] <= now))]:
        arrived[f["key"]] += 1
        flows.remove(f)
print(f"{now:.9g}")
