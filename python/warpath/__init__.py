"""warpath: breadth-first search, connected components and shortest paths on big sparse graphs,
on an NVIDIA GPU when there is one and on every CPU core when there is not.

>>> import numpy as np, warpath
>>> g = warpath.Graph.from_edges(np.array([0, 1, 2]), np.array([1, 2, 3]))
>>> distances, parents = g.bfs(0)
>>> distances.tolist()
[0, 1, 2, 3]

A ``Graph`` is placed on the GPU (or the CPU, with a warning in ``g.warnings()``) at its first
algorithm and stays placed. Results are NumPy arrays indexed by vertex; unreached vertices hold
``UNREACHED`` (2**32 - 1) in ``uint32`` arrays, ``UNREACHED_INT`` (2**64 - 1) in ``uint64``
distances and ``inf`` in ``float32`` distances. Errors carry the library's one-line message as
``ValueError`` (bad input), ``FileNotFoundError``/``OSError``, ``MemoryError`` or
``WarpathError``.

The NetworkX backend is ``warpath.backend`` (``backend="warpath"``).
"""

import numpy as np

from ._warpath import UNREACHED, UNREACHED_INT, Graph, WarpathError, gpu_available

__all__ = [
    "Graph",
    "WarpathError",
    "UNREACHED",
    "UNREACHED_INT",
    "gpu_available",
    "from_csr",
    "from_edges",
    "from_scipy",
    "from_networkx",
    "load",
    "generate",
]

from_csr = Graph.from_csr
from_edges = Graph.from_edges
load = Graph.load


def generate(spec, seed=1, weights=None, backend="auto"):
    """A generated graph: ``kron:SCALE``, ``urand:SCALE``, ``grid2d:SIDE`` and the others the
    ``warpath`` command takes, with seeded ``weights`` (``uniform:1:255``, ``graph500``) if given."""
    return Graph.load(spec, weights=weights, seed=seed, backend=backend)


def from_scipy(matrix, directed=False, backend="auto"):
    """A graph from a SciPy sparse matrix (or array): row ``u`` holds the edges out of ``u``,
    their values the weights (unweighted when every stored value is 1). The matrix is square."""
    import scipy.sparse

    csr = scipy.sparse.csr_array(matrix)
    if csr.shape[0] != csr.shape[1]:
        raise ValueError(f"an adjacency matrix is square, not {csr.shape[0]} x {csr.shape[1]}")
    csr.sum_duplicates()
    data = csr.data
    weights = None
    if data.size and not np.all(data == 1):
        weights = _weight_array(data)
    return Graph.from_csr(
        csr.indptr.astype(np.int64), csr.indices.astype(np.int64), weights=weights, directed=directed, backend=backend
    )


def from_networkx(G, weight=None, backend="auto"):
    """A graph from a NetworkX graph, and the list of its nodes (vertex ``i`` is ``nodes[i]``).
    With ``weight`` (an edge attribute; missing values count 1) the graph is weighted."""
    nodes = list(G)
    src, dst, values = _networkx_edges(G, {node: i for i, node in enumerate(nodes)}, weight)
    graph = Graph.from_edges(
        src,
        dst,
        weights=_weight_array(np.asarray(values, dtype=np.float64)) if values is not None else None,
        num_vertices=len(nodes),
        directed=G.is_directed(),
        backend=backend,
    )
    return graph, nodes


def _networkx_edges(G, index, weight=None):
    """G's edges as two arrays of vertex numbers (`index` numbers the nodes) and, with `weight`,
    the list of that attribute's values (missing ones count 1; None without `weight`)."""
    m = G.number_of_edges()
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    values = [] if weight is not None else None
    edges = G.edges(data=weight, default=1) if weight is not None else G.edges()
    for i, edge in enumerate(edges):
        src[i] = index[edge[0]]
        dst[i] = index[edge[1]]
        if values is not None:
            values.append(edge[2])
    return src, dst, values


def _whole(values):
    """Whether every value is a whole number in 0..2**32, which warpath adds exactly as integers."""
    return bool(np.all(values >= 0) and np.all(values < 2**32) and np.all(np.floor(values) == values))


def _weight_array(values):
    """Whole non-negative values below 2**32 as integer weights (exact sums), others as floats."""
    values = np.asarray(values)
    if values.size and _whole(values):
        return values.astype(np.int64)
    return values.astype(np.float64)
