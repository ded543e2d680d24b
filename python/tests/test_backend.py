"""The NetworkX backend gives NetworkX's answers (and its order where it promises one) on graphs
where warpath runs, and leaves the rest to NetworkX. NetworkX's own tests of the traversal,
components and shortest-paths modules run with the backend in the README's test command
(`scripts/test`)."""

import contextlib

import networkx as nx
import pytest

from warpath.backend import BackendInterface, WarpathGraph, get_info


@contextlib.contextmanager
def warpath_first():
    """Calls without `backend=` try warpath first, then NetworkX (NETWORKX_BACKEND_PRIORITY)."""
    saved = list(nx.config.backend_priority.algos)
    nx.config.backend_priority.algos = ["warpath"]
    try:
        yield
    finally:
        nx.config.backend_priority.algos = saved


def graphs():
    weighted = nx.gnm_random_graph(120, 300, seed=3)
    for i, (u, v) in enumerate(weighted.edges()):
        weighted.edges[u, v]["weight"] = (i * 7919) % 97 + 1
    directed = nx.gnm_random_graph(80, 240, seed=4, directed=True)
    return {
        "path": nx.path_graph(10),
        "grid": nx.grid_2d_graph(6, 7),
        "two parts": nx.disjoint_union(nx.cycle_graph(5), nx.star_graph(4)),
        "weighted": weighted,
        "directed": directed,
        "strings": nx.relabel_nodes(nx.path_graph(6), {i: f"n{i}" for i in range(6)}),
    }


@pytest.mark.parametrize("name", list(graphs()))
def test_traversals_and_distances_equal_networkx(name):
    G = graphs()[name]
    source = next(iter(G))
    for function, args in [
        (nx.single_source_shortest_path_length, (G, source)),
        (nx.bfs_layers, (G, source)),
        (nx.bfs_edges, (G, source)),
        (nx.bfs_predecessors, (G, source)),
        (nx.bfs_successors, (G, source)),
        (nx.descendants_at_distance, (G, source, 2)),
        (nx.single_source_dijkstra_path_length, (G, source)),
    ]:
        expected = function(*args)
        got = function(*args, backend="warpath")
        if not isinstance(expected, dict | set):
            expected, got = list(expected), list(got)
        assert got == expected, (name, function.__name__)
    assert nx.bfs_tree(G, source, backend="warpath").edges == nx.bfs_tree(G, source).edges
    assert nx.single_source_shortest_path_length(G, source, cutoff=2, backend="warpath") == (
        nx.single_source_shortest_path_length(G, source, cutoff=2)
    )


@pytest.mark.parametrize("name", ["path", "grid", "two parts", "weighted", "strings"])
def test_components_equal_networkx(name):
    G = graphs()[name]
    assert list(nx.connected_components(G, backend="warpath")) == list(nx.connected_components(G))
    assert nx.number_connected_components(G, backend="warpath") == nx.number_connected_components(G)
    assert nx.is_connected(G, backend="warpath") == nx.is_connected(G)
    node = next(iter(G))
    assert nx.node_connected_component(G, node, backend="warpath") == nx.node_connected_component(G, node)


def test_weakly_connected_components_equal_networkx():
    G = nx.disjoint_union(graphs()["directed"], nx.DiGraph([(0, 1), (2, 1), (3, 4)]))
    assert list(nx.weakly_connected_components(G, backend="warpath")) == list(nx.weakly_connected_components(G))
    assert nx.number_weakly_connected_components(G, backend="warpath") == nx.number_weakly_connected_components(G) > 1
    assert nx.is_weakly_connected(G, backend="warpath") is nx.is_weakly_connected(G) is False
    one = graphs()["directed"].subgraph(next(iter(nx.weakly_connected_components(graphs()["directed"]))))
    assert nx.is_weakly_connected(one, backend="warpath") is True
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.number_weakly_connected_components(nx.path_graph(3), backend="warpath")


def test_should_run_leaves_small_graphs_to_networkx():
    from warpath.backend import SMALL_GRAPH

    small = nx.path_graph(100)
    assert isinstance(BackendInterface.should_run("bfs_edges", (small, 0), {}), str)
    assert isinstance(BackendInterface.should_run("bfs_edges", (WarpathGraph(small), 0), {}), str)
    big = nx.path_graph(SMALL_GRAPH // 2 + 1)
    assert BackendInterface.should_run("bfs_edges", (big, 0), {}) is True
    assert BackendInterface.should_run("is_connected", (), {"G": big}) is True


def test_dijkstra_equals_networkx_and_refuses_what_it_cannot_answer_exactly():
    G = graphs()["weighted"]
    target = max(G)
    assert nx.dijkstra_path_length(G, 0, target, backend="warpath") == nx.dijkstra_path_length(G, 0, target)
    G.add_node("far")
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path_length(G, 0, "far", backend="warpath")
    # Ties in the tree: warpath's parents may differ from NetworkX's, so the backend declines.
    tied = nx.cycle_graph(4)
    with pytest.raises(NotImplementedError, match="tied"):
        BackendInterface.single_source_dijkstra(WarpathGraph(tied), 0)
    path = nx.path_graph(5)
    assert BackendInterface.single_source_dijkstra(WarpathGraph(path), 0) == nx.single_source_dijkstra(path, 0)
    # Real weights are summed in float32 by warpath: asked by name, the backend says so; by
    # priority, NetworkX answers.
    real = nx.Graph([(0, 1, {"weight": 0.1}), (1, 2, {"weight": 0.2})])
    with pytest.raises(NotImplementedError, match="whole numbers"):
        BackendInterface.single_source_dijkstra_path_length(WarpathGraph(real), 0)
    with pytest.raises(NotImplementedError, match="warpath"):
        nx.single_source_dijkstra_path_length(real, 0, backend="warpath")
    with warpath_first():
        assert nx.single_source_dijkstra_path_length(real, 0) == {0: 0, 1: 0.1, 2: 0.1 + 0.2}


def test_can_run_declines_sources_outside_the_graph_and_weight_functions():
    G = nx.path_graph(3)
    assert BackendInterface.can_run("bfs_edges", (G, 0), {}) is True
    assert BackendInterface.can_run("bfs_edges", (G, 9), {}) is not True
    assert BackendInterface.can_run("dijkstra_path_length", (G, 0, 2), {"weight": lambda u, v, d: 1}) is not True
    assert BackendInterface.can_run("pagerank", (G,), {}) is False
    with warpath_first(), pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, 9)


def test_the_backend_is_registered_with_networkx():
    assert "warpath" in nx.utils.backends.backends
    info = get_info()
    assert set(info["functions"]) <= {name for name in dir(BackendInterface) if not name.startswith("_")}


@pytest.mark.parametrize("name", list(graphs()))
def test_closeness_equals_networkx(name):
    G = graphs()[name]
    for wf_improved in (True, False):
        assert BackendInterface.closeness_centrality(WarpathGraph(G), wf_improved=wf_improved) == (
            nx.closeness_centrality(G, wf_improved=wf_improved)
        )


@pytest.mark.parametrize("name", list(graphs()))
def test_harmonic_centrality_equals_networkx_to_rounding(name):
    G = graphs()[name]
    ours = nx.harmonic_centrality(G, backend="warpath")
    theirs = nx.harmonic_centrality(G)
    assert ours == pytest.approx(theirs, rel=1e-12)
    some = list(G)[::3]
    assert nx.harmonic_centrality(G, nbunch=some, backend="warpath") == pytest.approx(
        nx.harmonic_centrality(G, nbunch=some), rel=1e-12
    )


def test_strongly_connected_counts_equal_networkx():
    for seed in (5, 6):
        G = nx.gnm_random_graph(300, 600, seed=seed, directed=True)
        assert nx.number_strongly_connected_components(G, backend="warpath") == (
            nx.number_strongly_connected_components(G)
        )
        assert nx.is_strongly_connected(G, backend="warpath") == nx.is_strongly_connected(G)
    assert nx.is_strongly_connected(nx.cycle_graph(5, create_using=nx.DiGraph), backend="warpath")
