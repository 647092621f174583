#!/usr/bin/env python3
# The tables of docs/results/todays-machines.md from a results database of
# experiments/configs/todays-machines.yaml: per workload and machine/routing, in-order's time and the
# other mappers' times over it, the spread, best's hop-bytes over in-order's and Spearman's rho
# between hop-bytes and time; then how often hop-bytes picks the fastest mapper, rho per machine,
# and the best and worst routing/placement pairs per workload and network.
#
#   python3 docs/results/todays-machines-table.py todays.db
import sqlite3, sys, math, collections
db = sqlite3.connect(sys.argv[1])
rows = db.execute("select workload, machine, mapper, makespan_ps, hop_bytes, link_bytes_max from runs where status='done' and model='flow'").fetchall()
by = collections.defaultdict(dict)
for w, m, mp, t, hb, lb in rows:
    by[(w, m)][mp] = (t, hb, lb)
order_w = ["npb:bt:D:1024:iterations=1","npb:sp:D:1024:iterations=1","npb:lu:D:1024:iterations=1","npb:cg:D:1024:iterations=1","npb:mg:D:1024:iterations=1","npb:ft:D:1024:iterations=1","sweep3d:ohtma:1024:iterations=1","snap:ohtma:1024:iterations=1:inners=1:ng=6","npb:lu:D:4096:iterations=1"]
order_m = ["dragonfly:8,32,16,4","dragonfly:8,32,16,4:routing=valiant","dragonfly:8,32,16,4:routing=ugal","fattree:3;16,16,16;1,8,16;1,1,1","fattree:3;16,16,16;1,8,16;1,1,1:routing=ecmp"]
mname = {order_m[0]:"dragonfly minimal", order_m[1]:"dragonfly valiant", order_m[2]:"dragonfly ugal", order_m[3]:"fat-tree D-mod-K", order_m[4]:"fat-tree ECMP"}
wname = lambda w: w.replace(":iterations=1","").replace(":inners=1:ng=6","")
mappers = ["random","treematch","scotch","best"]
def ranks(v):
    s = sorted(range(len(v)), key=lambda i: v[i]); r=[0]*len(v); i=0
    while i < len(s):
        j=i
        while j+1 < len(s) and v[s[j+1]]==v[s[i]]: j+=1
        for k in range(i,j+1): r[s[k]]=(i+j)/2
        i=j+1
    return r
def spearman(a,b):
    ra, rb = ranks(a), ranks(b); n=len(a)
    ma, mb = sum(ra)/n, sum(rb)/n
    cov=sum((x-ma)*(y-mb) for x,y in zip(ra,rb)); va=sum((x-ma)**2 for x in ra); vb=sum((y-mb)**2 for y in rb)
    return cov/math.sqrt(va*vb) if va>0 and vb>0 else float('nan')
print("| workload | machine, routing | in-order | random | treematch | scotch | best | spread | hop-bytes of best | rho |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
stats = collections.Counter(); missing=[]; picks=[]; rhos=collections.defaultdict(list)
for w in order_w:
  for m in order_m:
    d = by.get((w,m), {})
    if "in-order" not in d: missing.append(f"{wname(w)} on {mname[m]}"); continue
    t0 = d["in-order"][0]
    cells=[]; 
    for mp in mappers:
        cells.append(f"{d[mp][0]/t0:.3f}" if mp in d else "–")
    ts=[v[0] for v in d.values()]; spread=max(ts)/min(ts)
    hb = f"{d['best'][1]/d['in-order'][1]:.3f}" if 'best' in d else "–"
    names=list(d); rho = spearman([d[n][1] for n in names],[d[n][0] for n in names]) if len(d)>=3 else float('nan')
    rhos[m].append(rho)
    fastest=min(d, key=lambda n: d[n][0]); lowest_hb=min(d, key=lambda n: d[n][1])
    picks.append((w,m,lowest_hb,fastest,d[lowest_hb][0]/d[fastest][0]-1, len(d)))
    print(f"| {wname(w)} | {mname[m]} | {t0/1e9:.3f} ms | " + " | ".join(cells) + f" | {spread:.2f}x | {hb} | {rho:+.2f} |")
print()
print("missing in-order:", "; ".join(missing))
good=sum(1 for p in picks if p[4] <= 0.01); print(f"hop-bytes picks the fastest (within 1%) in {good} of {len(picks)} contexts; worst miss:", max(picks, key=lambda p: p[4]))
for m in order_m:
    v=[r for r in rhos[m] if r==r]; 
    if v: print(f"rho {mname[m]}: median {sorted(v)[len(v)//2]:+.2f}, min {min(v):+.2f}, max {max(v):+.2f}, n {len(v)}")
# per workload: best and worst (routing, mapper) pair on the dragonfly and on the fat-tree
for w in order_w:
  for fam, ms in (("dragonfly", order_m[:3]), ("fat-tree", order_m[3:])):
    pairs=[(by[(w,m)][mp][0], mname[m], mp) for m in ms for mp in by.get((w,m),{})]
    if len(pairs) < 2: continue
    lo=min(pairs); hi=max(pairs)
    print(f"{wname(w)} {fam}: best {lo[1]}/{lo[2]} {lo[0]/1e9:.3f} ms, worst {hi[1]}/{hi[2]} {hi[0]/1e9:.3f} ms, worst/best {hi[0]/lo[0]:.2f} ({len(pairs)} pairs)")
