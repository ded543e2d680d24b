"""The Python module against plain reference code (a BFS, a union-find, Dijkstra) on small
graphs, on whatever backend the machine has (the CPU without a GPU, which the graph says)."""

import heapq
from collections import deque

import numpy as np
import pytest

import warpath


def reference_bfs(n, edges, source, directed=False):
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        if not directed:
            adj[v].append(u)
    dist = [warpath.UNREACHED] * n
    dist[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if dist[v] == warpath.UNREACHED:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def reference_dijkstra(n, edges, weights, source):
    adj = [[] for _ in range(n)]
    for (u, v), w in zip(edges, weights):
        adj[u].append((v, w))
        adj[v].append((u, w))
    dist = [None] * n
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if dist[u] is not None:
            continue
        dist[u] = d
        for v, w in adj[u]:
            if dist[v] is None:
                heapq.heappush(heap, (d + w, v))
    return dist


def random_edges(n, m, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=m), rng.integers(0, n, size=m)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bfs_matches_a_reference_and_parents_form_a_tree(seed):
    n = 300
    src, dst = random_edges(n, 450, seed)
    g = warpath.Graph.from_edges(src, dst, num_vertices=n)
    edges = list(zip(src.tolist(), dst.tolist()))
    source = int(src[0])
    distances, parents = g.bfs(source)
    assert distances.dtype == np.uint32 and parents.dtype == np.uint32
    assert distances.tolist() == reference_bfs(n, edges, source)
    assert parents[source] == source
    neighbours = {frozenset(e) for e in edges}
    for v in range(n):
        if v != source and distances[v] != warpath.UNREACHED:
            p = parents[v]
            assert distances[p] + 1 == distances[v]
            assert frozenset((int(p), v)) in neighbours
        elif v != source:
            assert parents[v] == warpath.UNREACHED


def test_a_directed_graph_follows_its_edges():
    g = warpath.Graph.from_edges(np.array([0, 1, 3]), np.array([1, 2, 2]), directed=True)
    assert g.directed and g.num_edges == 3
    distances, _ = g.bfs(0)
    assert distances.tolist() == [0, 1, 2, warpath.UNREACHED]
    # Weakly connected components of a directed graph.
    assert g.connected_components().tolist() == [0, 0, 0, 0]


def test_many_sources_at_once_equal_one_search_each():
    g = warpath.load("kron:10", seed=2)
    sources = [v for v in range(g.num_vertices) if g.csr()[0][v + 1] > g.csr()[0][v]][:70]
    many = g.bfs_many(sources)
    assert many.shape == (70, g.num_vertices) and many.dtype == np.uint32
    for row, s in zip(many, sources):
        assert (row == g.bfs(s)[0]).all()
    directed = warpath.Graph.from_edges(np.array([0, 1, 3]), np.array([1, 2, 2]), directed=True)
    assert directed.bfs_many([1, 0]).tolist() == [
        [warpath.UNREACHED, 0, 1, warpath.UNREACHED],
        [0, 1, 2, warpath.UNREACHED],
    ]
    with pytest.raises(ValueError, match="source 9 is out of range"):
        directed.bfs_many([0, 9])
    # A source without edges reaches itself alone, as bfs() answers it.
    lone = warpath.Graph.from_edges(np.array([0]), np.array([1]), num_vertices=3)
    assert lone.bfs_many([2, 0]).tolist() == [
        [warpath.UNREACHED, warpath.UNREACHED, 0],
        [0, 1, warpath.UNREACHED],
    ]


def test_an_isolated_source_reaches_only_itself():
    g = warpath.Graph.from_edges(np.array([0]), np.array([1]), num_vertices=3)
    distances, parents = g.bfs(2)
    assert distances.tolist() == [warpath.UNREACHED, warpath.UNREACHED, 0]
    assert parents.tolist() == [warpath.UNREACHED, warpath.UNREACHED, 2]


@pytest.mark.parametrize("seed", [4, 5])
def test_components_match_a_union_find(seed):
    n = 500
    src, dst = random_edges(n, 300, seed)
    g = warpath.Graph.from_edges(src, dst, num_vertices=n)
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in zip(src.tolist(), dst.tolist()):
        a, b = find(u), find(v)
        parent[max(a, b)] = min(a, b)
    smallest = {}
    for v in range(n):
        smallest.setdefault(find(v), v)
    assert g.connected_components().tolist() == [smallest[find(v)] for v in range(n)]


@pytest.mark.parametrize("seed", [6, 7])
def test_shortest_paths_match_dijkstra_with_cutoffs_targets_and_several_sources(seed):
    n = 200
    src, dst = random_edges(n, 600, seed)
    weights = np.random.default_rng(seed).integers(1, 50, size=src.size)
    g = warpath.Graph.from_edges(src, dst, weights=weights, num_vertices=n)
    assert g.weighted
    # Repeated edges keep their smallest weight, as the reference's heap does.
    edges = list(zip(src.tolist(), dst.tolist()))
    source = int(src[0])
    expected = reference_dijkstra(n, edges, weights.tolist(), source)
    distances, parents = g.sssp(source)
    assert distances.dtype == np.uint64
    got = [None if d == warpath.UNREACHED_INT else int(d) for d in distances]
    assert got == expected
    reached = [d for d in expected if d is not None]
    cutoff = sorted(reached)[len(reached) // 2]
    within, _ = g.sssp(source, cutoff=cutoff)
    assert [None if d == warpath.UNREACHED_INT else int(d) for d in within] == [
        d if d is not None and d <= cutoff else None for d in expected
    ]
    far = max(range(n), key=lambda v: -1 if expected[v] is None else expected[v])
    to, _ = g.sssp(source, target=far)
    assert to[far] == expected[far]
    alone, no_parents = g.sssp(source, parents=False)
    assert no_parents.size == 0 and alone.tolist() == distances.tolist()
    other = int(dst[-1])
    both, _ = g.sssp(sources=[source, other])
    second = reference_dijkstra(n, edges, weights.tolist(), other)
    nearest = [min((d for d in pair if d is not None), default=None) for pair in zip(expected, second)]
    assert [None if d == warpath.UNREACHED_INT else int(d) for d in both] == nearest


def test_real_weights_give_float32_distances():
    g = warpath.Graph.from_edges(np.array([0, 1]), np.array([1, 2]), weights=np.array([0.5, 0.25]))
    distances, _ = g.sssp(0)
    assert distances.dtype == np.float32
    assert distances.tolist() == [0.0, 0.5, 0.75]


def test_csr_and_scipy_and_networkx_inputs_give_the_same_graph():
    pytest.importorskip("scipy.sparse")
    nx = pytest.importorskip("networkx")
    G = nx.path_graph(5)
    from_nx, nodes = warpath.from_networkx(G)
    assert nodes == [0, 1, 2, 3, 4]
    matrix = nx.to_scipy_sparse_array(G, nodelist=nodes)
    from_matrix = warpath.from_scipy(matrix, directed=True)
    offsets, targets = from_nx.csr()
    again = warpath.Graph.from_csr(offsets.astype(np.int64), targets.astype(np.int64), directed=True)
    for g in (from_nx, from_matrix, again):
        assert g.bfs(0)[0].tolist() == [0, 1, 2, 3, 4]
    weighted, _ = warpath.from_networkx(nx.Graph([(0, 1, {"w": 3}), (1, 2, {"w": 4})]), weight="w")
    assert weighted.sssp(0)[0].tolist() == [0, 3, 7]


def test_generators_and_files_load_as_the_command_reads_them(tmp_path):
    g = warpath.generate("grid2d:4x3")
    assert g.num_vertices == 12
    assert g.bfs(0)[0].max() == 5
    path = tmp_path / "g.gr"
    path.write_text("p sp 3 2\na 1 2 5\na 2 3 4\n")
    loaded = warpath.load(str(path))
    assert loaded.num_vertices == 3 and loaded.id_base == 1 and loaded.directed
    assert loaded.sssp(0)[0].tolist() == [0, 5, 9]
    assert warpath.load("kron:6", weights="uniform:1:9").weighted


def test_bad_input_raises_with_the_library_line():
    with pytest.raises(FileNotFoundError, match="no-such-file"):
        warpath.load("/no-such-file.el")
    g = warpath.Graph.from_edges(np.array([0]), np.array([1]))
    with pytest.raises(ValueError, match="out of range"):
        g.bfs(5)
    with pytest.raises(ValueError, match="negative"):
        warpath.Graph.from_edges(np.array([-1]), np.array([1]))
    with pytest.raises(ValueError, match="non-negative"):
        warpath.Graph.from_edges(np.array([0]), np.array([1]), weights=np.array([-1.0]))
    with pytest.raises(ValueError, match="offsets"):
        warpath.Graph.from_csr(np.array([0, 2]), np.array([1]))
    with pytest.raises(ValueError, match="unknown backend"):
        warpath.Graph.from_edges(np.array([0]), np.array([1]), backend="tpu")


def test_the_backend_says_where_it_runs():
    g = warpath.Graph.from_edges(np.array([0]), np.array([1]))
    assert g.backend == ("gpu" if warpath.gpu_available() else "cpu")
    if g.backend == "cpu":
        assert any("GPU" in w or "gpu" in w for w in g.warnings()), g.warnings()
    assert "2 vertices" in repr(g)


def test_strongly_connected_components_are_named_by_their_smallest_vertex():
    nx = pytest.importorskip("networkx")
    G = nx.gnm_random_graph(400, 700, seed=8, directed=True)
    g, nodes = warpath.from_networkx(G)
    labels = g.strongly_connected_components().tolist()
    expected = [None] * len(nodes)
    for component in nx.strongly_connected_components(G):
        smallest = min(nodes.index(v) for v in component)
        for v in component:
            expected[nodes.index(v)] = smallest
    assert labels == expected
