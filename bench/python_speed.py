#!/usr/bin/env python3
"""Issue 54's speed table: NetworkX's own BFS (single_source_shortest_path_length), connected
components and Dijkstra (single_source_dijkstra_path_length) against the same calls dispatched
to the warpath backend, on a graph already converted, plus the conversion's time, on this
machine. Run it with the package installed (python/run-tests makes target/python-venv):

    target/python-venv/bin/python bench/python_speed.py kron:20 --repeats 3

It prints a Markdown table (median seconds of the repeats) and the machine and commit to
commit under bench/results/. Every answer of the backend is checked against NetworkX's."""

import argparse
import os
import platform
import statistics
import subprocess
import time

import networkx as nx
import numpy as np

import warpath
from warpath.backend import BackendInterface, WarpathGraph


def timed(function, repeats):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", nargs="?", default="kron:20", help="a generator spec or a graph file")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    start = time.perf_counter()
    g = warpath.load(args.graph, weights="uniform:1:255", seed=args.seed)
    offsets, targets = g.csr()
    weights = g.weights()
    heads = np.repeat(np.arange(g.num_vertices), np.diff(offsets.astype(np.int64)))
    keep = heads < targets  # each undirected edge once
    G = nx.Graph()
    G.add_nodes_from(range(g.num_vertices))
    G.add_weighted_edges_from(zip(heads[keep].tolist(), targets[keep].tolist(), weights[keep].tolist()))
    built = time.perf_counter() - start
    source = int(heads[np.argmax(np.diff(offsets.astype(np.int64))[heads])]) if heads.size else 0

    convert, wg = timed(lambda: WarpathGraph(G), 1)
    unweighted, _ = timed(lambda: wg.warpath(), 1)
    weighted, _ = timed(lambda: wg.warpath("weight"), 1)
    backend = wg.warpath()[0].backend
    rows = []
    for name, ours, theirs in [
        (
            "BFS (single_source_shortest_path_length)",
            lambda: BackendInterface.single_source_shortest_path_length(wg, source),
            lambda: nx.single_source_shortest_path_length(G, source),
        ),
        (
            "connected components (number_connected_components)",
            lambda: BackendInterface.number_connected_components(wg),
            lambda: nx.number_connected_components(G),
        ),
        (
            "Dijkstra (single_source_dijkstra_path_length)",
            lambda: BackendInterface.single_source_dijkstra_path_length(wg, source),
            lambda: nx.single_source_dijkstra_path_length(G, source),
        ),
    ]:
        ours_s, ours_result = timed(ours, args.repeats)
        theirs_s, theirs_result = timed(theirs, max(1, args.repeats // 3))
        assert ours_result == theirs_result, name
        rows.append((name, theirs_s, ours_s, theirs_result))

    # The same work through the package's own calls, which answer NumPy arrays: what the backend
    # adds beside them is building NetworkX's answer (a dict of every reached node).
    graph, _ = wg.warpath()
    weighted_graph, _ = wg.warpath("weight")
    arrays = [
        lambda: graph.bfs(source)[0],
        lambda: graph.connected_components(),
        lambda: weighted_graph.sssp(source, parents=False)[0],
    ]
    reached = [
        lambda levels: np.count_nonzero(levels != warpath.UNREACHED),
        lambda labels: np.unique(labels).size,
        lambda distances: np.count_nonzero(distances != warpath.UNREACHED_INT),
    ]
    array_times = []
    for call, count, row in zip(arrays, reached, rows):
        seconds, result = timed(call, args.repeats)
        answer = row[3]
        assert count(result) == (answer if isinstance(answer, int) else len(answer)), row[0]
        array_times.append(seconds)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"graph {args.graph} (seed {args.seed}, weights uniform:1:255): {g.num_vertices} vertices, "
          f"{G.number_of_edges()} edges; NetworkX graph built in {built:.1f} s; source {source}")
    print(f"machine: {platform.node()}, {os.cpu_count()} CPUs, warpath on {backend}; commit {commit}; "
          f"networkx {nx.__version__}, numpy {np.__version__}")
    print(f"conversion to the backend: {convert + unweighted:.2f} s unweighted, {weighted:.2f} s weighted (paid once)")
    print()
    print("| function | NetworkX | warpath backend | speedup | warpath's arrays (the package's call) | speedup |")
    print("|---|---:|---:|---:|---:|---:|")
    for (name, theirs_s, ours_s, _), arrays_s in zip(rows, array_times):
        print(f"| {name} | {theirs_s:.3f} s | {ours_s:.4f} s | {theirs_s / ours_s:.0f}x "
              f"| {arrays_s:.4f} s | {theirs_s / arrays_s:.0f}x |")


if __name__ == "__main__":
    main()
