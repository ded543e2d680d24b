"""NetworkX's backend ``warpath``: ``nx.bfs_layers(G, 0, backend="warpath")``, or every call
with ``NETWORKX_BACKEND_PRIORITY=warpath``.

A NetworkX graph converted to this backend (``BackendInterface.convert_from_nx``) keeps the
NetworkX graph and builds warpath graphs from it on first use: one unweighted (for the
traversals and components) and one per weight attribute. Functions answer exactly as NetworkX
does, in its order where it promises one:

- the components (``connected_components``, ``number_connected_components``, ``is_connected``,
  ``node_connected_component``, and for directed graphs ``weakly_connected_components``,
  ``number_weakly_connected_components``, ``is_weakly_connected``) and the distances (``single_source_shortest_path_length``,
  ``descendants_at_distance``, ``single_source_dijkstra_path_length``, ``dijkstra_path_length``)
  run on warpath and only build the answer in Python;
- the traversals whose order NetworkX defines (``bfs_edges``, ``bfs_tree``, ``bfs_layers``,
  ``bfs_predecessors``, ``bfs_successors``) take the levels from warpath and then walk the
  adjacency in NetworkX's order, so they cost about what NetworkX's own do;
- ``single_source_dijkstra``'s paths come from warpath's tree where every vertex has one
  shortest-path predecessor; where several tie, NetworkX's choice depends on its heap's order,
  and the call goes to NetworkX.

What warpath cannot answer exactly is left to NetworkX (``can_run`` says no, or the function
raises ``NotImplementedError``, which the dispatcher takes as "try the next backend"): weights
that are not whole numbers in 0..2**32 (warpath sums real weights in float32), weight
functions, multigraphs' parallel-edge rules beyond the smallest weight, and sources that are not
in the graph (NetworkX's own error then). Where NetworkX picks a backend by priority,
``should_run`` leaves graphs of fewer than ``SMALL_GRAPH`` nodes and edges to NetworkX.
"""

import inspect

import networkx as nx
import numpy as np

from . import _networkx_edges, _warpath, _whole

__all__ = ["BackendInterface", "WarpathGraph", "get_info"]

FUNCTIONS = {
    "bfs_edges": "the levels from warpath, then NetworkX's order",
    "bfs_tree": "the levels from warpath, then NetworkX's order",
    "bfs_layers": "the levels from warpath, then NetworkX's order",
    "bfs_predecessors": "the levels from warpath, then NetworkX's order",
    "bfs_successors": "the levels from warpath, then NetworkX's order",
    "descendants_at_distance": "one BFS on warpath",
    "single_source_shortest_path_length": "one BFS on warpath",
    "single_source_dijkstra": "shortest paths on warpath; ties in the tree go to NetworkX",
    "single_source_dijkstra_path_length": "shortest paths on warpath (whole weights)",
    "dijkstra_path_length": "shortest paths on warpath, stopping at the target",
    "connected_components": "connected components on warpath",
    "number_connected_components": "connected components on warpath",
    "is_connected": "connected components on warpath",
    "node_connected_component": "one BFS on warpath",
    "weakly_connected_components": "connected components on warpath",
    "number_weakly_connected_components": "connected components on warpath",
    "is_weakly_connected": "connected components on warpath",
    "number_strongly_connected_components": "strongly connected components on warpath",
    "is_strongly_connected": "strongly connected components on warpath",
    "closeness_centrality": "bit-parallel searches on warpath, unweighted, every node",
    "harmonic_centrality": "bit-parallel searches on warpath, unweighted, from every node; equal to rounding",
}


def get_info():
    """NetworkX's ``networkx.backend_info`` entry point."""
    return {
        "backend_name": "warpath",
        "project": "warpath",
        "package": "warpath",
        "short_summary": "GPU (or all-core CPU) BFS, connected components and shortest paths",
        "functions": {name: {"additional_docs": docs} for name, docs in FUNCTIONS.items()},
    }


class WarpathGraph:
    """A NetworkX graph held for the warpath backend, with the warpath graphs built from it."""

    __networkx_backend__ = "warpath"

    def __init__(self, G):
        self.G = G
        self._nodes = None
        self._index = None
        self._built = {}

    def is_directed(self):
        return self.G.is_directed()

    def is_multigraph(self):
        return self.G.is_multigraph()

    def __len__(self):
        return len(self.G)

    def __iter__(self):
        return iter(self.G)

    def __contains__(self, node):
        return node in self.G

    def nodes_and_index(self):
        if self._nodes is None:
            self._nodes = list(self.G)
            self._index = {node: i for i, node in enumerate(self._nodes)}
            # Nodes 0..n-1 in order (a graph from a file, a generator or a NumPy array): a
            # vertex's label is its id, and results skip a Python lookup a vertex.
            self._ids_are_labels = all(type(node) is int and node == i for i, node in enumerate(self._nodes))
        return self._nodes, self._index

    def labels(self, ids):
        """The node labels of internal ids (a NumPy array), as a list."""
        nodes, _ = self.nodes_and_index()
        ids = ids.tolist()
        return ids if self._ids_are_labels else [nodes[i] for i in ids]

    def warpath(self, weight=None):
        """The warpath graph (unweighted, or weighted by attribute ``weight`` whose missing
        values count 1), and whether the weights were floats (NetworkX then sums floats)."""
        if weight not in self._built:
            self._built[weight] = self._build(weight)
        return self._built[weight]

    def _build(self, weight):
        G = self.G
        nodes, index = self.nodes_and_index()
        src, dst, values = _networkx_edges(G, index, weight)
        if weight is None:
            graph = _warpath.Graph.from_edges(src, dst, num_vertices=len(nodes), directed=G.is_directed())
            return graph, False
        floats = any(isinstance(w, float) for w in values)
        try:
            array = np.array(values, dtype=np.float64)
        except (TypeError, ValueError):
            raise NotImplementedError(f"edge attribute {weight!r} holds values that are not numbers") from None
        if not _whole(array):
            raise NotImplementedError(
                f"edge attribute {weight!r} holds values that are not whole numbers in 0..2**32 "
                "(warpath adds real weights in float32, NetworkX in float64)"
            )
        graph = _warpath.Graph.from_edges(
            src, dst, weights=array.astype(np.int64), num_vertices=len(nodes), directed=G.is_directed()
        )
        return graph, floats


def _stable_order(keys):
    """The stable sorting permutation of non-negative integer `keys`: NumPy sorts 16-bit keys by
    radix, where BFS levels fit, several times faster than a merge sort of int64."""
    if keys.size and keys.max() < 1 << 16:
        keys = keys.astype(np.uint16)
    return np.argsort(keys, kind="stable")


# Graphs with fewer nodes and edges than this are left to NetworkX (`should_run`).
SMALL_GRAPH = 10_000


def _held(G):
    return G if isinstance(G, WarpathGraph) else WarpathGraph(G)


def _signed(distances, unreached):
    """Distances as int64, -1 where the marker `unreached` stands."""
    signed = distances.astype(np.int64)
    signed[distances == unreached] = -1
    return signed


def _levels(wg, sources):
    """BFS levels from `sources` (internal ids) as an int64 array, -1 where unreached."""
    graph, _ = wg.warpath()
    if len(sources) == 1:
        return _signed(graph.bfs(sources[0])[0], _warpath.UNREACHED)
    return _signed(graph.sssp(sources=list(sources))[0], _warpath.UNREACHED_INT)


def _ordered_bfs(wg, sources, neighbors, depth_limit=None):
    """NetworkX's BFS order, guided by warpath's levels: yields (parent, child, depth of child)
    as `generic_bfs_edges` would, `neighbors(node)` giving each node's children in order."""
    nodes, index = wg.nodes_and_index()
    levels = _levels(wg, [index[s] for s in sources])
    reached = int(np.count_nonzero(levels >= 0))
    seen = set(sources)
    n = len(nodes)
    layer = list(sources)
    depth = 0
    limit = n if depth_limit is None else depth_limit
    while layer and depth < limit:
        following = []
        for parent in layer:
            for child in neighbors(parent):
                if child not in seen and levels[index[child]] == depth + 1:
                    seen.add(child)
                    following.append(child)
                    yield parent, child, depth + 1
            if len(seen) == n or len(seen) == reached:
                return
        layer = following
        depth += 1


def _component_labels(G, strongly):
    """Each vertex's (strongly) connected component on warpath, named by its smallest vertex."""
    graph, _ = _held(G).warpath()
    return graph.strongly_connected_components() if strongly else graph.connected_components()


def _component_sets(G):
    """The (weakly) connected components as sets of nodes, in the order NetworkX yields them (by
    their first node in the graph's order)."""
    wg = _held(G)
    nodes, _ = wg.nodes_and_index()
    labels = _component_labels(wg, strongly=False).tolist()
    components = {}
    for node, label in zip(nodes, labels):
        components.setdefault(label, set()).add(node)
    return iter(list(components.values()))


def _count_components(labels):
    """Components named by their smallest vertex: the vertices that label themselves."""
    return int(np.count_nonzero(labels == np.arange(labels.size, dtype=labels.dtype)))


def _one_component(G, strongly):
    if len(_held(G)) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    # Vertex 0 names its component, the smallest vertex: one component is every label 0.
    return bool(np.all(_component_labels(G, strongly) == 0))


def _directed_neighbors(G, reverse):
    if reverse and G.is_directed():
        return G.predecessors
    return G.neighbors


class BackendInterface:
    """The functions NetworkX's dispatcher calls (see the module documentation)."""

    @staticmethod
    def convert_from_nx(G, *args, **kwargs):
        return WarpathGraph(G)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, WarpathGraph):
            return obj.G
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        function = getattr(BackendInterface, name, None)
        if function is None:
            return False
        try:
            bound = inspect.signature(function).bind(*args, **kwargs)
        except TypeError:
            return False
        arguments = bound.arguments
        G = arguments.get("G")
        G = G.G if isinstance(G, WarpathGraph) else G
        if G is None or G.is_multigraph() and "weight" in inspect.signature(function).parameters:
            return "multigraphs' weights are NetworkX's"
        weight = arguments.get("weight", "weight")
        if callable(weight):
            return "weight functions run in NetworkX"
        for key in ("source", "n"):
            if key in arguments and arguments[key] not in G:
                return f"{key} {arguments[key]!r} is not in the graph"
        if "sources" in arguments:
            sources = arguments["sources"]
            # An iterator is the function's to read (once): it checks the nodes as NetworkX does.
            if sources not in G and isinstance(sources, list | tuple | set | frozenset):
                if any(s not in G for s in sources):
                    return "a source is not in the graph"
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        # NetworkX asks when it picks a backend by priority (not when one is named): a small
        # graph runs faster in NetworkX itself. Measured on the CPU (2 cores): a conversion costs
        # about five NetworkX BFS traversals, and a converted graph's BFS beats NetworkX's from
        # about a thousand nodes and eight thousand edges on.
        G = args[0] if args else kwargs.get("G")
        G = G.G if isinstance(G, WarpathGraph) else G
        if isinstance(G, nx.Graph) and len(G) + G.number_of_edges() < SMALL_GRAPH:
            return f"a graph of fewer than {SMALL_GRAPH} nodes and edges runs faster in NetworkX"
        return True

    # Components.

    @staticmethod
    def connected_components(G):
        return _component_sets(G)

    @staticmethod
    def number_connected_components(G):
        return _count_components(_component_labels(G, strongly=False))

    @staticmethod
    def is_connected(G):
        return _one_component(G, strongly=False)

    # A directed graph's weakly connected components are its undirected components, which
    # warpath's components of a directed graph are. NetworkX refuses undirected graphs before it
    # dispatches.

    weakly_connected_components = connected_components
    number_weakly_connected_components = number_connected_components
    is_weakly_connected = is_connected

    @staticmethod
    def node_connected_component(G, n):
        wg = _held(G)
        _, index = wg.nodes_and_index()
        levels = _levels(wg, [index[n]])
        return set(wg.labels(np.flatnonzero(levels >= 0)))

    @staticmethod
    def number_strongly_connected_components(G):
        return _count_components(_component_labels(G, strongly=True))

    @staticmethod
    def is_strongly_connected(G):
        return _one_component(G, strongly=True)

    # Centrality.

    @staticmethod
    def closeness_centrality(G, u=None, distance=None, wf_improved=True):
        if distance is not None:
            raise NotImplementedError("weighted closeness runs in NetworkX")
        if u is not None:
            raise NotImplementedError("one node's closeness runs in NetworkX (one search)")
        wg = _held(G)
        nodes, _ = wg.nodes_and_index()
        graph, _ = wg.warpath()
        return dict(zip(nodes, graph.closeness(wf_improved).tolist()))

    @staticmethod
    def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
        if distance is not None:
            raise NotImplementedError("weighted harmonic centrality runs in NetworkX")
        if sources is not None:
            raise NotImplementedError("harmonic centrality from chosen sources runs in NetworkX")
        wg = _held(G)
        nodes, index = wg.nodes_and_index()
        graph, _ = wg.warpath()
        values = graph.harmonic().tolist()
        # nbunch's nodes that are in the graph (NetworkX keys its answer by them as a set).
        chosen = nodes if nbunch is None else wg.G.nbunch_iter(nbunch)
        return {node: values[index[node]] for node in chosen}

    # Unweighted distances.

    @staticmethod
    def single_source_shortest_path_length(G, source, cutoff=None):
        wg = _held(G)
        _, index = wg.nodes_and_index()
        levels = _levels(wg, [index[source]])
        reached = np.flatnonzero(levels >= 0 if cutoff is None else (levels >= 0) & (levels <= cutoff))
        reached = reached[_stable_order(levels[reached])]
        return dict(zip(wg.labels(reached), levels[reached].tolist()))

    @staticmethod
    def descendants_at_distance(G, source, distance):
        wg = _held(G)
        _, index = wg.nodes_and_index()
        if distance < 0:
            return set()
        levels = _levels(wg, [index[source]])
        return set(wg.labels(np.flatnonzero(levels == distance)))

    # Traversals in NetworkX's order.

    @staticmethod
    def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
        wg = _held(G)
        if reverse and wg.is_directed():
            raise NotImplementedError("reverse traversals of directed graphs run in NetworkX")
        neighbors = _directed_neighbors(wg.G, reverse)
        if sort_neighbors is not None:
            plain = neighbors
            neighbors = lambda node: iter(sort_neighbors(plain(node)))  # noqa: E731
        return ((parent, child) for parent, child, _ in _ordered_bfs(wg, [source], neighbors, depth_limit))

    @staticmethod
    def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
        T = nx.DiGraph()
        T.add_node(source)
        T.add_edges_from(BackendInterface.bfs_edges(G, source, reverse, depth_limit, sort_neighbors))
        return T

    @staticmethod
    def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
        edges = BackendInterface.bfs_edges(G, source, depth_limit=depth_limit, sort_neighbors=sort_neighbors)
        return ((child, parent) for parent, child in edges)

    @staticmethod
    def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
        edges = BackendInterface.bfs_edges(G, source, depth_limit=depth_limit, sort_neighbors=sort_neighbors)

        def grouped():
            parent, children = source, []
            for p, c in edges:
                if p == parent:
                    children.append(c)
                    continue
                yield parent, children
                parent, children = p, [c]
            yield parent, children

        return grouped()

    @staticmethod
    def bfs_layers(G, sources):
        wg = _held(G)
        if sources in wg.G:
            sources = [sources]
        # NetworkX's first layer is the set of the sources, in the set's order.
        first = list(set(sources))
        for source in first:
            if source not in wg.G:
                raise nx.NetworkXError(f"The node {source} is not in the graph.")

        def layers():
            if not first:
                return
            yield first
            current, depth = [], 1
            for _, child, child_depth in _ordered_bfs(wg, first, wg.G.neighbors):
                if child_depth != depth:
                    yield current
                    current, depth = [], child_depth
                current.append(child)
            if current:
                yield current

        return layers()

    # Weighted distances (whole weights).

    @staticmethod
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        wg = _held(G)
        distances, order, floats, _ = _dijkstra(wg, source, weight, cutoff=cutoff)
        return _distance_dict(wg, distances, order, floats)

    @staticmethod
    def dijkstra_path_length(G, source, target, weight="weight"):
        if source == target:
            return 0
        wg = _held(G)
        if target not in wg.G:
            raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
        _, index = wg.nodes_and_index()
        distances, _, floats, _ = _dijkstra(wg, source, weight, target=index[target])
        d = distances[index[target]]
        if d < 0:
            raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
        return float(d) if floats else int(d)

    @staticmethod
    def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
        if target is not None and target == source:
            return (0, [target])
        wg = _held(G)
        nodes, _ = wg.nodes_and_index()
        distances, order, floats, parents = _dijkstra(wg, source, weight, cutoff=cutoff, tree=True)
        paths = {}
        for i in order.tolist():
            node = nodes[i]
            # In order of distance, and weights are positive here: a parent's path is built.
            paths[node] = [node] if node == source else paths[nodes[parents[i]]] + [node]
        dist = _distance_dict(wg, distances, order, floats)
        if target is None:
            return (dist, paths)
        if target not in dist:
            raise nx.NetworkXNoPath(f"No path to {target}.")
        return (dist[target], paths[target])


def _distance_dict(wg, distances, order, floats):
    values = distances[order].tolist()
    return dict(zip(wg.labels(order), [float(v) for v in values] if floats else values))


def _dijkstra(wg, source, weight, cutoff=None, target=None, tree=False):
    """Distances from `source` on warpath as int64 (-1 unreached), the reached vertices in order
    of distance, whether NetworkX would sum floats, and (with `tree`) the parents. With `tree`,
    refuses (NotImplementedError) where a reached vertex has several shortest-path predecessors
    or an edge weighs 0: NetworkX's tree then depends on its heap's order."""
    nodes, index = wg.nodes_and_index()
    graph, floats = wg.warpath(weight)
    distances, parents = graph.sssp(index[source], cutoff=cutoff, target=target, parents=tree)
    d = _signed(distances, _warpath.UNREACHED_INT)
    reached = np.flatnonzero(d >= 0)
    order = reached[_stable_order(d[reached])]
    if tree:
        offsets, targets = graph.csr()
        weights = graph.weights()
        w = np.ones(targets.size, dtype=np.int64) if weights is None else weights.astype(np.int64)
        if w.size and w.min() == 0:
            raise NotImplementedError("zero weights: NetworkX's tree depends on its heap's order")
        heads = np.repeat(np.arange(len(nodes)), np.diff(offsets.astype(np.int64)))
        tight = (d[heads] >= 0) & (d[targets] >= 0) & (d[heads] + w == d[targets])
        counts = np.bincount(targets[tight], minlength=len(nodes))
        if np.any(counts[order] > 1):
            raise NotImplementedError("tied shortest paths: NetworkX's choice depends on its heap's order")
    return d, order, floats, parents
