"""Per-run means of a `warpath bench --json` file, per rank count: the traversal's mean and
median (ms), level 0's mean time and exchange time, the bottom-up levels' summed time, the
top-down levels' after level 0, and small top-down levels (under 50,000 edges inspected,
the per-level fixed cost) in microseconds. Usage: python3 means.py FILE.json..."""
import json
import statistics as st
import sys

for path in sys.argv[1:]:
    cells = []
    for report in json.load(open(path)):
        trials = report["trials"]
        levels = [level for trial in trials for level in trial["levels"]]
        times = [trial["time_ms"] for trial in trials]
        level0 = [trial["levels"][0] for trial in trials]
        bottom_up = [sum(l["time_ms"] for l in t["levels"] if l["direction"] == "bottom-up") for t in trials]
        top_down = [sum(l["time_ms"] for l in t["levels"] if l["direction"] == "top-down" and l["level"] > 0) for t in trials]
        small = [l["time_ms"] * 1000 for l in levels if l["direction"] == "top-down" and l["level"] > 0 and l["edges_inspected"] < 50000]
        cells.append(
            f"{report['payload']['ranks']}r mean {st.mean(times):.3f} med {st.median(times):.3f}"
            f" L0 {st.mean(l['time_ms'] for l in level0):.3f} (x {st.mean(l['exchange_ms'] for l in level0):.3f})"
            f" BU {st.mean(bottom_up):.3f} TD>0 {st.mean(top_down):.3f}"
            f" small-TD({len(small)}) {st.mean(small):.1f} us med {st.median(small):.1f}"
        )
    print(path.split("/")[-1].ljust(20), " | ".join(cells))
