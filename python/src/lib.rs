//! `warpath._warpath`: the Python module over warpath's library (the `warpath` package's
//! `__init__.py` re-exports it and adds the conversions from SciPy and NetworkX).
//!
//! A [`Graph`] owns a `warpath::Graph` and, from its first algorithm on, the graph placed once
//! (`warpath::PlacedGraph`: on the GPU when there is one, else on every CPU core, with a warning),
//! which every later run reuses. Results are NumPy arrays, indexed by vertex (0-based). Unreached
//! vertices hold the library's marker for their type: `UNREACHED` (2^32 - 1) in `uint32` arrays
//! (BFS distances, parents, nearest sources), `UNREACHED_INT` (2^64 - 1) in `uint64` distances
//! (integer and unit weights), infinity in `float32` distances (real weights). The GIL is released
//! while the GPU or the CPU works. Errors are Python exceptions carrying the library's one line.

use std::sync::{Arc, Mutex, MutexGuard};

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyFileNotFoundError, PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use self_cell::self_cell;
use warpath::cc::CcOptions;
use warpath::engine::Backend;
use warpath::generate::WeightSpec;
use warpath::graph::{EdgeList, GraphBuilder, Weights};
use warpath::input::{load_graph, LoadOptions};
use warpath::sssp::{Distances, SsspOptions};
use warpath::PlacedGraph;

create_exception!(_warpath, WarpathError, PyException, "An error from warpath's library (its one-line message).");

/// The library's error as the Python exception a caller would catch: a missing file as
/// `FileNotFoundError`, other I/O as `OSError`, bad input or arguments as `ValueError`, memory as
/// `MemoryError`, the rest (the GPU, a failed check) as `WarpathError`.
fn to_py(error: warpath::Error) -> PyErr {
    use warpath::Error::*;
    let message = error.to_string();
    match &error {
        Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        Io { .. } => PyOSError::new_err(message),
        Parse { .. } | Format { .. } | TooManyVertices { .. } | InvalidSource { .. } | InvalidArgument(_) => {
            PyValueError::new_err(message)
        }
        OutOfMemory { .. } => PyMemoryError::new_err(message),
        _ => WarpathError::new_err(message),
    }
}

type Placed<'g> = PlacedGraph<'g>;

/// A BFS's answer as NumPy arrays.
type DistancesAndParents<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u32>>);

self_cell!(
    /// The graph and its one placement, which borrows it.
    struct Placement {
        owner: Arc<warpath::Graph>,
        #[not_covariant]
        dependent: Placed,
    }
);

/// A graph, placed for the GPU (or the CPU) at its first algorithm and kept placed.
#[pyclass(module = "warpath._warpath", frozen)]
struct Graph {
    graph: Arc<warpath::Graph>,
    backend: Backend,
    placement: Mutex<Option<Placement>>,
}

impl Graph {
    fn new(graph: warpath::Graph, backend: &str) -> PyResult<Graph> {
        let backend = backend.parse::<Backend>().map_err(to_py)?;
        Ok(Graph { graph: Arc::new(graph), backend, placement: Mutex::new(None) })
    }

    /// The placement, made on first use (outside the GIL: placing copies the graph to the GPU).
    fn placed(&self) -> PyResult<MutexGuard<'_, Option<Placement>>> {
        let mut slot = self.placement.lock().map_err(|_| WarpathError::new_err("an earlier run panicked"))?;
        if slot.is_none() {
            let backend = self.backend;
            *slot = Some(
                Placement::try_new(Arc::clone(&self.graph), |graph| PlacedGraph::new(graph, backend)).map_err(to_py)?,
            );
        }
        Ok(slot)
    }

    /// Every vertex's exact closeness and harmonic centrality on the placed graph, the GIL
    /// released.
    fn centrality(&self, py: Python<'_>, wf_improved: bool) -> PyResult<warpath::bfs::multi_source::Centrality> {
        py.detach(|| -> PyResult<_> {
            let slot = self.placed()?;
            let run =
                slot.as_ref().unwrap().with_dependent(|_, placed| placed.centrality(wf_improved)).map_err(to_py)?;
            Ok(run.result)
        })
    }

    /// `vertex` (0-based, as Python numbers them, whatever a file's first id was) as an id, or
    /// why it is none.
    fn check_vertex(&self, vertex: u64, what: &str) -> PyResult<u32> {
        let n = self.graph.num_vertices() as u64;
        if vertex >= n {
            return Err(PyValueError::new_err(format!("{what} {vertex} is out of range: the graph has {n} vertices")));
        }
        Ok(vertex as u32)
    }
}

/// Weights from a NumPy array: unsigned or signed integers (non-negative, below 2^32) become the
/// library's integer weights, floats its `f32` weights.
fn weights_of(weights: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Weights>> {
    let Some(weights) = weights else { return Ok(None) };
    if let Ok(array) = weights.extract::<PyReadonlyArray1<'_, u32>>() {
        return Ok(Some(Weights::U32(array.as_slice()?.to_vec())));
    }
    if let Ok(array) = weights.extract::<PyReadonlyArray1<'_, i64>>() {
        let values = array.as_slice()?;
        let weights = values
            .iter()
            .map(|&w| u32::try_from(w).map_err(|_| PyValueError::new_err(format!("weight {w} is not in 0..2^32"))))
            .collect::<PyResult<Vec<u32>>>()?;
        return Ok(Some(Weights::U32(weights)));
    }
    if let Ok(array) = weights.extract::<PyReadonlyArray1<'_, f64>>() {
        return Ok(Some(Weights::F32(array.as_slice()?.iter().map(|&w| w as f32).collect())));
    }
    if let Ok(array) = weights.extract::<PyReadonlyArray1<'_, f32>>() {
        return Ok(Some(Weights::F32(array.as_slice()?.to_vec())));
    }
    Err(PyValueError::new_err("weights must be a one-dimensional array of uint32, int64, float32 or float64"))
}

/// `n`, or the library's line for a graph of more vertices than it takes.
fn vertex_count(n: u64) -> PyResult<u64> {
    if n > warpath::graph::MAX_VERTICES {
        return Err(to_py(warpath::Error::TooManyVertices { vertices: n }));
    }
    Ok(n)
}

#[pymethods]
impl Graph {
    /// A graph from CSR arrays: `offsets` (n + 1 entries, int64 or uint64) and `targets` (uint32
    /// or int64 vertex ids), optional `weights` (one per target). Undirected unless `directed`:
    /// each edge is then stored both ways. Self-loops and repeated edges are dropped (of
    /// repeated edges the smallest weight is kept).
    #[staticmethod]
    #[pyo3(signature = (offsets, targets, weights=None, directed=false, backend="auto"))]
    fn from_csr(
        py: Python<'_>,
        offsets: &Bound<'_, PyAny>,
        targets: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        directed: bool,
        backend: &str,
    ) -> PyResult<Graph> {
        let offsets = ids_of(offsets, "offsets")?;
        let targets = ids_of(targets, "targets")?;
        let n = vertex_count(offsets.len().saturating_sub(1) as u64)?;
        if offsets.is_empty() || offsets[0] != 0 || *offsets.last().unwrap() != targets.len() as u64 {
            return Err(PyValueError::new_err(format!(
                "offsets must start at 0 and end at the number of targets ({}), with n + 1 entries",
                targets.len()
            )));
        }
        if let Some(i) = offsets.windows(2).position(|pair| pair[0] > pair[1]) {
            return Err(PyValueError::new_err(format!("offsets decrease after vertex {i}")));
        }
        let mut edges = Vec::with_capacity(targets.len());
        for v in 0..n as usize {
            for &t in &targets[offsets[v] as usize..offsets[v + 1] as usize] {
                edges.push((v as u32, u32::try_from(t).unwrap_or(u32::MAX)));
            }
        }
        let weights = weights_of(weights)?;
        build(py, n, edges, weights, directed, backend)
    }

    /// A graph from edge arrays `src` and `dst` (vertex ids), optional `weights` (one per edge)
    /// and `num_vertices` (default: the largest id + 1). Undirected unless `directed`.
    #[staticmethod]
    #[pyo3(signature = (src, dst, weights=None, num_vertices=None, directed=false, backend="auto"))]
    fn from_edges(
        py: Python<'_>,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        num_vertices: Option<u64>,
        directed: bool,
        backend: &str,
    ) -> PyResult<Graph> {
        let src = ids_of(src, "src")?;
        let dst = ids_of(dst, "dst")?;
        if src.len() != dst.len() {
            return Err(PyValueError::new_err(format!("src has {} ids and dst {}", src.len(), dst.len())));
        }
        let largest = src.iter().chain(&dst).max().map_or(0, |&v| v + 1);
        let n = vertex_count(num_vertices.unwrap_or(largest))?;
        let edges = src.iter().zip(&dst).map(|(&u, &v)| (clamp_id(u), clamp_id(v))).collect();
        build(py, n, edges, weights_of(weights)?, directed, backend)
    }

    /// A graph from a file (`.el`, `.wel`, `.gr`, `.mtx`, `.txt`, `.wgr`, optionally `.gz`) or
    /// a generator (`kron:20`, `urand:20`, `grid2d:1000`, ...), as the `warpath` command reads
    /// it; `weights` gives every edge a seeded weight (`uniform:1:255`, `graph500`). Vertices
    /// are numbered from 0 (`id_base` is what the file's first id was).
    #[staticmethod]
    #[pyo3(signature = (path_or_spec, weights=None, seed=1, undirected=false, backend="auto"))]
    fn load(
        py: Python<'_>,
        path_or_spec: &str,
        weights: Option<&str>,
        seed: u64,
        undirected: bool,
        backend: &str,
    ) -> PyResult<Graph> {
        let weights = weights.map(|spec| spec.parse::<WeightSpec>()).transpose().map_err(to_py)?;
        let options = LoadOptions { weights, seed, undirected, ..LoadOptions::default() };
        let input = path_or_spec.to_string();
        let graph = py.detach(move || load_graph(&input, &options)).map_err(to_py)?;
        Graph::new(graph, backend)
    }

    #[getter]
    fn num_vertices(&self) -> usize {
        self.graph.num_vertices()
    }

    /// Stored (directed) edges: an undirected edge counts twice.
    #[getter]
    fn num_edges(&self) -> u64 {
        self.graph.num_edges()
    }

    #[getter]
    fn directed(&self) -> bool {
        !self.graph.is_undirected()
    }

    #[getter]
    fn weighted(&self) -> bool {
        self.graph.weights().is_some()
    }

    /// What the first vertex was called in the file the graph came from (0 otherwise).
    #[getter]
    fn id_base(&self) -> u64 {
        self.graph.external_id(0)
    }

    /// The CSR: offsets (uint64, n + 1) and targets (uint32).
    fn csr<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<u32>>) {
        (PyArray1::from_slice(py, self.graph.offsets()), PyArray1::from_slice(py, self.graph.targets()))
    }

    /// The weights in CSR order (uint32 or float32, one per target), or None.
    fn weights<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.graph.weights().map(|weights| match weights {
            Weights::U32(w) => PyArray1::from_slice(py, w).into_any(),
            Weights::F32(w) => PyArray1::from_slice(py, w).into_any(),
        })
    }

    /// Where the algorithms run: `"gpu"` or `"cpu"` (placing the graph if it is not yet).
    #[getter]
    fn backend(&self, py: Python<'_>) -> PyResult<&'static str> {
        py.detach(|| {
            let slot = self.placed()?;
            Ok(slot.as_ref().unwrap().with_dependent(|_, placed| placed.backend().kind()))
        })
    }

    /// Warnings raised while placing (no usable GPU, a zero-copy placement).
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        py.detach(|| {
            let slot = self.placed()?;
            Ok(slot.as_ref().unwrap().with_dependent(|_, placed| placed.warnings().to_vec()))
        })
    }

    /// Breadth-first search from `source`: `(distances, parents)`, uint32 arrays (`UNREACHED`
    /// where the source does not reach; the source is its own parent).
    fn bfs<'py>(&self, py: Python<'py>, source: u64) -> PyResult<DistancesAndParents<'py>> {
        let source = self.check_vertex(source, "source")?;
        let (distances, parents) = py.detach(|| -> PyResult<(Vec<u32>, Vec<u32>)> {
            if self.graph.degree(source) == 0 {
                // The library refuses such a source (its BFS would reach only itself).
                let mut distances = vec![warpath::graph::UNREACHED; self.graph.num_vertices()];
                let mut parents = distances.clone();
                distances[source as usize] = 0;
                parents[source as usize] = source;
                return Ok((distances, parents));
            }
            let slot = self.placed()?;
            let run = slot.as_ref().unwrap().with_dependent(|_, placed| placed.bfs(source)).map_err(to_py)?;
            Ok((run.result.distances, run.result.parents))
        })?;
        Ok((distances.into_pyarray(py), parents.into_pyarray(py)))
    }

    /// Connected components (weakly connected for a directed graph): a uint32 array, each
    /// vertex labelled by the smallest vertex of its component.
    fn connected_components<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let labels = py.detach(|| -> PyResult<Vec<u32>> {
            let slot = self.placed()?;
            let run = slot
                .as_ref()
                .unwrap()
                .with_dependent(|_, placed| placed.components(&CcOptions::default()))
                .map_err(to_py)?;
            Ok(run.result.components.labels)
        })?;
        Ok(labels.into_pyarray(py))
    }

    /// Breadth-first searches from all of `sources` at once, bit-parallel (64 sources share each
    /// pass over the graph, on the GPU or every CPU core): a uint32 array of shape
    /// `(len(sources), n)`, row `i` the distances from `sources[i]` (`UNREACHED` where it does not
    /// reach).
    fn bfs_many<'py>(&self, py: Python<'py>, sources: Vec<u64>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let sources = sources.into_iter().map(|s| self.check_vertex(s, "source")).collect::<PyResult<Vec<u32>>>()?;
        let n = self.graph.num_vertices();
        let rows = sources.len();
        let flat = py.detach(|| -> PyResult<Vec<u32>> {
            let slot = self.placed()?;
            let run = slot
                .as_ref()
                .unwrap()
                .with_dependent(|_, placed| placed.traverser().run_many(&sources))
                .map_err(to_py)?;
            Ok(run.result.concat())
        })?;
        flat.into_pyarray(py).reshape([rows, n])
    }

    /// Every vertex's harmonic centrality, unweighted, as NetworkX's `harmonic_centrality`
    /// computes it (the sum of one over each other vertex's distance to it; by incoming distances
    /// in a directed graph), to rounding: a float64 array. From the same bit-parallel searches as
    /// [`closeness`](Self::closeness).
    fn harmonic<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self.centrality(py, true)?.harmonic.into_pyarray(py))
    }

    /// Every vertex's closeness centrality, unweighted, as NetworkX's `closeness_centrality`
    /// computes it (by incoming distances in a directed graph; Wasserman and Faust's improvement
    /// with `wf_improved`): a float64 array. From one search a vertex, 64 at a time, bit-parallel on
    /// the placed graph (the GPU where it is placed there, else every CPU core).
    #[pyo3(signature = (wf_improved=true))]
    fn closeness<'py>(&self, py: Python<'py>, wf_improved: bool) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self.centrality(py, wf_improved)?.closeness.into_pyarray(py))
    }

    /// Strongly connected components (an undirected graph's connected components): a uint32
    /// array, each vertex labelled by the smallest vertex of its component. On the placed graph:
    /// the GPU where it is placed there with plain lists, else every CPU core.
    fn strongly_connected_components<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let labels = py.detach(|| -> PyResult<Vec<u32>> {
            let slot = self.placed()?;
            let run = slot.as_ref().unwrap().with_dependent(|_, placed| placed.strongly_connected()).map_err(to_py)?;
            Ok(run.result.components.labels)
        })?;
        Ok(labels.into_pyarray(py))
    }

    /// Shortest paths from `source` (or from the nearest of `sources`): `(distances, parents)`.
    /// Distances are uint64 for integer or unit weights (`UNREACHED_INT` where unreached),
    /// float32 for real weights (infinity); parents uint32. `cutoff` settles nothing farther;
    /// `target` stops once it is settled (vertices farther than it are reported unreached).
    /// Without `parents` the parents array is empty (the CPU then skips its parents pass).
    #[pyo3(signature = (source=None, *, sources=None, cutoff=None, target=None, parents=true))]
    fn sssp<'py>(
        &self,
        py: Python<'py>,
        source: Option<u64>,
        sources: Option<Vec<u64>>,
        cutoff: Option<f64>,
        target: Option<u64>,
        parents: bool,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<u32>>)> {
        let starts: Vec<u32> = match (source, sources) {
            (Some(source), None) => vec![self.check_vertex(source, "source")?],
            (None, Some(sources)) if !sources.is_empty() => {
                sources.into_iter().map(|s| self.check_vertex(s, "source")).collect::<PyResult<_>>()?
            }
            _ => return Err(PyValueError::new_err("give one source, or a non-empty list of sources")),
        };
        if let Some(cutoff) = cutoff {
            if cutoff.is_nan() || cutoff < 0.0 {
                return Err(PyValueError::new_err(format!("cutoff must be a non-negative distance, not {cutoff}")));
            }
        }
        let target = target.map(|t| self.check_vertex(t, "target")).transpose()?;
        let options = SsspOptions { cutoff, target, distances_only: !parents, ..SsspOptions::default() };
        let run = py.detach(|| -> PyResult<warpath::sssp::SsspRun> {
            let slot = self.placed()?;
            let run = slot
                .as_ref()
                .unwrap()
                .with_dependent(|_, placed| placed.shortest_paths_from(&starts, &options))
                .map_err(to_py)?;
            Ok(run.result)
        })?;
        let distances = match run.distances {
            Distances::Int(d) => d.into_pyarray(py).into_any(),
            Distances::Float(d) => d.into_pyarray(py).into_any(),
        };
        Ok((distances, run.parents.into_pyarray(py)))
    }

    fn __repr__(&self) -> String {
        format!(
            "warpath.Graph({} vertices, {} stored edges, {}{})",
            self.graph.num_vertices(),
            self.graph.num_edges(),
            if self.graph.is_undirected() { "undirected" } else { "directed" },
            if self.graph.weights().is_some() { ", weighted" } else { "" }
        )
    }
}

/// Vertex ids from a NumPy array of unsigned or signed integers (negative ones refused).
fn ids_of(array: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u64>> {
    if let Ok(a) = array.extract::<PyReadonlyArray1<'_, u64>>() {
        return Ok(a.as_slice()?.to_vec());
    }
    if let Ok(a) = array.extract::<PyReadonlyArray1<'_, u32>>() {
        return Ok(a.as_slice()?.iter().map(|&v| v as u64).collect());
    }
    let signed: Option<Vec<i64>> = if let Ok(a) = array.extract::<PyReadonlyArray1<'_, i64>>() {
        Some(a.as_slice()?.to_vec())
    } else if let Ok(a) = array.extract::<PyReadonlyArray1<'_, i32>>() {
        Some(a.as_slice()?.iter().map(|&v| v as i64).collect())
    } else {
        None
    };
    if let Some(values) = signed {
        return values
            .into_iter()
            .map(|v| u64::try_from(v).map_err(|_| PyValueError::new_err(format!("{what}: negative id {v}"))))
            .collect();
    }
    Err(PyValueError::new_err(format!(
        "{what} must be a one-dimensional array of integers (uint32, uint64, int32, int64)"
    )))
}

/// An id beyond `u32` becomes one the builder refuses by name (its range check).
fn clamp_id(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn build(
    py: Python<'_>,
    n: u64,
    edges: Vec<(u32, u32)>,
    weights: Option<Weights>,
    directed: bool,
    backend: &str,
) -> PyResult<Graph> {
    let list = EdgeList::new(n, edges, !directed);
    let list = match weights {
        Some(weights) => list.with_weights(weights),
        None => list,
    };
    let graph = py.detach(move || GraphBuilder::new().build(list)).map_err(to_py)?;
    Graph::new(graph, backend)
}

/// Whether a usable NVIDIA GPU is there (else every algorithm runs on all CPU cores).
#[pyfunction]
fn gpu_available() -> bool {
    warpath::gpu::GpuContext::new().is_ok()
}

#[pymodule]
fn _warpath(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Graph>()?;
    m.add_function(wrap_pyfunction!(gpu_available, m)?)?;
    m.add("WarpathError", m.py().get_type::<WarpathError>())?;
    m.add("UNREACHED", warpath::graph::UNREACHED)?;
    m.add("UNREACHED_INT", warpath::sssp::UNREACHED_INT)?;
    Ok(())
}
