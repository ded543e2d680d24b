"""Type stubs of warpath's compiled module (see the package's documentation)."""

from typing import Literal, Optional, Sequence

import numpy as np
import numpy.typing as npt

UNREACHED: int
"""2**32 - 1: an unreached vertex in uint32 arrays (BFS distances, parents)."""
UNREACHED_INT: int
"""2**64 - 1: an unreached vertex in uint64 distances (integer and unit weights)."""

class WarpathError(Exception):
    """An error from warpath's library (the GPU, a failed check), with its one-line message."""

def gpu_available() -> bool:
    """Whether a usable NVIDIA GPU is there (else every algorithm runs on all CPU cores)."""

Backend = Literal["auto", "gpu", "cpu"]

class Graph:
    """A graph, placed for the GPU (or the CPU) at its first algorithm and kept placed."""

    @staticmethod
    def from_csr(
        offsets: npt.ArrayLike,
        targets: npt.ArrayLike,
        weights: Optional[npt.ArrayLike] = None,
        directed: bool = False,
        backend: Backend = "auto",
    ) -> "Graph":
        """CSR arrays: `offsets` (n + 1), `targets`, optional `weights` (whole numbers become
        integer weights, floats float32 ones). Undirected unless `directed`; self-loops and
        repeated edges are dropped (the smallest weight kept)."""
    @staticmethod
    def from_edges(
        src: npt.ArrayLike,
        dst: npt.ArrayLike,
        weights: Optional[npt.ArrayLike] = None,
        num_vertices: Optional[int] = None,
        directed: bool = False,
        backend: Backend = "auto",
    ) -> "Graph":
        """Edge arrays; `num_vertices` defaults to the largest id + 1."""
    @staticmethod
    def load(
        path_or_spec: str,
        weights: Optional[str] = None,
        seed: int = 1,
        undirected: bool = False,
        backend: Backend = "auto",
    ) -> "Graph":
        """A graph file or a generator spec (`kron:20`), as the `warpath` command reads it."""
    @property
    def num_vertices(self) -> int: ...
    @property
    def num_edges(self) -> int:
        """Stored edges: an undirected edge counts twice."""
    @property
    def directed(self) -> bool: ...
    @property
    def weighted(self) -> bool: ...
    @property
    def id_base(self) -> int:
        """The file's id of vertex 0."""
    @property
    def backend(self) -> Literal["gpu", "cpu"]:
        """Where the algorithms run (places the graph if it is not yet)."""
    def warnings(self) -> list[str]:
        """Warnings raised while placing (no usable GPU, say)."""
    def csr(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint32]]:
        """The CSR as stored: offsets and targets."""
    def weights(self) -> Optional[npt.NDArray[np.uint32] | npt.NDArray[np.float32]]:
        """The weights in CSR order, or None."""
    def bfs(self, source: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
        """Distances and parents from `source` (`UNREACHED` where not reached)."""
    def connected_components(self) -> npt.NDArray[np.uint32]:
        """Each vertex's component, named by its smallest vertex (weakly connected if directed)."""
    def bfs_many(self, sources: Sequence[int]) -> npt.NDArray[np.uint32]:
        """Searches from all of `sources` at once, bit-parallel (64 a pass, GPU or CPU): shape
        (len(sources), n), row i the distances from sources[i] (`UNREACHED` where not reached)."""
    def harmonic(self) -> npt.NDArray[np.float64]:
        """Every vertex's harmonic centrality as NetworkX's, to rounding (unweighted; by incoming
        distances in a directed graph), on the CPU, 64 searches a pass."""
    def closeness(self, wf_improved: bool = True) -> npt.NDArray[np.float64]:
        """Every vertex's closeness centrality as NetworkX's (unweighted; by incoming distances
        in a directed graph), on the CPU, 64 searches a pass."""
    def strongly_connected_components(self) -> npt.NDArray[np.uint32]:
        """Each vertex's strongly connected component, named by its smallest vertex (on the CPU)."""
    def sssp(
        self,
        source: Optional[int] = None,
        *,
        sources: Optional[Sequence[int]] = None,
        cutoff: Optional[float] = None,
        target: Optional[int] = None,
        parents: bool = True,
    ) -> tuple[npt.NDArray[np.uint64] | npt.NDArray[np.float32], npt.NDArray[np.uint32]]:
        """Distances (uint64 for whole or unit weights, float32 for real ones) and parents from
        `source` or the nearest of `sources`; `cutoff` settles nothing farther, `target` stops
        once it is settled; without `parents` the parents array is empty."""
