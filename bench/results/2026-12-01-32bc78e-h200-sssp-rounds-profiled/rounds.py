import csv, gzip, sys, io
g = sys.argv[1]
# durations per launch id
det = list(csv.reader(io.StringIO(gzip.open(f"{g}-details.csv.gz","rt").read())))
h = det[0]; ix = {k:i for i,k in enumerate(h)}
dur = {}
for row in det[1:]:
    if len(row) < 15: continue
    if row[ix["Metric Name"]] == "Duration":
        v = float(row[ix["Metric Value"]].replace(",", ""))
        unit = row[ix["Metric Unit"]]
        dur[int(row[ix["ID"]])] = v/1000 if unit == "us" else (v/1e6 if unit == "ns" else (v if unit == "ms" else v/1e3))
    if row[ix["Metric Name"]] == "L2 Cache Throughput":
        dur.setdefault(("l2", int(row[ix["ID"]])), float(row[ix["Metric Value"]]))
# Run where the Nsight Compute source pages (ncu -i REPORT --page source --csv --print-source sass)
# were saved as {g}-sass.csv.gz; their table is in rounds.txt.
text = gzip.open(f"{g}-sass.csv.gz","rt").read()
parts = text.split('"Kernel Name"')[1:]
out = []
for k, part in enumerate(parts):
    lines = part.split("\n")[1:]
    r = csv.reader(lines); hh = next(r); jx = {x:i for i,x in enumerate(hh)}
    agg = {}
    for x in r:
        if len(x) != len(hh): continue
        try: sec = int(x[jx["L2 Theoretical Sectors Global"]])
        except: continue
        if sec == 0: continue
        toks = x[jx["Source"]].split()
        op = toks[1] if toks[0].startswith("@") else toks[0]
        agg[op] = agg.get(op, 0) + sec
    out.append(agg)
tot_ms = 0; tot_edges = 0
print(f"{'launch':>6} {'ms':>8} {'L2 %':>6} {'vertices':>10} {'edges':>12} {'lowered':>10} {'dist reads':>12} {'G edges/s':>9}")
for k, agg in enumerate(out[::2]):
    ms = dur.get(k, 0)
    edges = 4 * agg.get("LDG.E", 0)
    verts = agg.get("LDG.E.64", 0)
    low = agg.get("REDG.E.MIN.STRONG.GPU", 0)
    reads = agg.get("LDG.E.STRONG.SM", 0)
    if edges == 0: continue
    tot_ms += ms; tot_edges += edges
    print(f"{k:>6} {ms:8.3f} {dur.get(('l2',k),0):6.1f} {verts:>10,d} {edges:>12,d} {low:>10,d} {reads:>12,d} {edges/ms/1e6:9.1f}")
print(f"total {tot_ms:.3f} ms, {tot_edges:,d} edges")
