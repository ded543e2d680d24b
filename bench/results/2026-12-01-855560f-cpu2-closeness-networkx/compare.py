"""Issue 55, item 2: warpath's exact closeness and harmonic centrality equal NetworkX's on the
datasets warpath computes exactly (at most 100,000 vertices): closeness to the last bit, harmonic
centrality within n units in the last place (the sums' order differs). NetworkX (pure Python) takes one
search a vertex, so 200 vertices of each graph (seeded) are compared, each against
nx.closeness_centrality(G, u=v) and nx.harmonic_centrality(G, nbunch=[v]); warpath's values come
from `warpath closeness FILE --backend cpu --out` (every vertex, exact).

Run from the repository root: target/python-venv/bin/python bench/results/<this folder>/compare.py
"""
import gzip
import random
import subprocess
import sys
import tempfile

import networkx as nx
import scipy.io

DATASETS = "../shared/datasets"


def load(name):
    path = f"{DATASETS}/{name}"
    if name.endswith(".mtx.gz"):
        with gzip.open(path) as f:
            matrix = scipy.io.mmread(f)
        G = nx.from_scipy_sparse_array(matrix.tocsr())
        G.remove_edges_from(nx.selfloop_edges(G))
        return nx.relabel_nodes(G, {v: v + 1 for v in G})  # Matrix Market ids from 1, as warpath prints them
    with gzip.open(path, "rt") as f:
        return nx.read_edgelist((l for l in f if not l.startswith("#")), create_using=nx.DiGraph, nodetype=int)


def warpath_values(name, wf_improved):
    with tempfile.NamedTemporaryFile(suffix=".txt") as out:
        args = ["target/release/warpath", "closeness", f"{DATASETS}/{name}", "--backend", "cpu", "--out", out.name]
        if not wf_improved:
            args.append("--no-wf-improved")
        subprocess.run(args, check=True, capture_output=True)
        values = {}
        for line in open(out.name):
            v, closeness, harmonic = line.split()
            values[int(v)] = (float(closeness), float(harmonic))
        return values


failures = 0
for name in ["bcsstk13.mtx.gz", "Email-Enron.txt.gz", "soc-Slashdot0902.txt.gz"]:
    G = load(name)
    for wf_improved in (True, False):
        ours = warpath_values(name, wf_improved)
        missing = set(G) - set(ours)
        vertices = random.Random(55).sample(sorted(G), 200)
        worst_closeness = worst_harmonic = 0.0
        for v in vertices:
            closeness = nx.closeness_centrality(G, u=v, wf_improved=wf_improved)
            harmonic = nx.harmonic_centrality(G, nbunch=[v])[v]
            c, h = ours[v]
            worst_closeness = max(worst_closeness, abs(c - closeness) / max(abs(closeness), 1e-300))
            worst_harmonic = max(worst_harmonic, abs(h - harmonic) / max(abs(harmonic), 1e-300))
        # Closeness is one division of integer sums: equal to the last bit. The harmonic sum adds up
        # to n - 1 terms, in another order than NetworkX's: within n units in the last place, the
        # bound `closeness --verify` allows.
        ok = (
            not missing
            and worst_closeness <= 1e-15
            and worst_harmonic <= len(G) * 2.0**-52
            and len(ours) == len(G)
        )
        failures += not ok
        print(
            f"{name} wf_improved={wf_improved}: {len(G)} vertices (warpath {len(ours)}), 200 compared; "
            f"largest relative difference closeness {worst_closeness:.2e}, harmonic {worst_harmonic:.2e}: "
            f"{'equal' if ok else 'DIFFERENT'}"
        )
sys.exit(1 if failures else 0)
