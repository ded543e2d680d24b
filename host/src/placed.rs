//! One graph placed once for every algorithm: [`PlacedGraph`] prepares a graph on the engine
//! (the GPU and its memory, or all CPU cores) with a device-memory budget that covers the
//! arrays of BFS, connected components, strongly connected components and shortest paths, then
//! runs any of them, as often as the caller wants, on that one placement. The algorithms' own
//! finders ([`Traverser`], [`ComponentFinder`], [`SccFinder`], [`PathFinder`]) are its views:
//! they share the placed graph and keep their arrays between runs.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::bfs::{GpuKernel, Traversal, Traverser};
use crate::cc::{CcOptions, ComponentFinder, ComponentsRun};
use crate::engine::{prepare, Backend, BackendUsed, GpuGraph, PlacementOptions, Prepared};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::scc::{SccAnswer, SccFinder};
use crate::sssp::{PathFinder, PathsRun, SsspOptions};

/// A graph placed once, on which BFS (one source or many), connected components, strongly
/// connected components, closeness and shortest paths run.
///
/// ```
/// use warpath::engine::Backend;
/// use warpath::generate::{generate, GeneratorSpec, WeightSpec, attach_weights};
/// use warpath::PlacedGraph;
///
/// let graph = generate(&"grid2d:4x3".parse::<GeneratorSpec>()?, 1)?;
/// let graph = attach_weights(graph, &"uniform:1:9".parse::<WeightSpec>()?, 1)?;
/// let placed = PlacedGraph::new(&graph, Backend::Auto)?; // the GPU if there is one
/// let hops = placed.bfs(0)?.result.distances[11];
/// let components = placed.components(&Default::default())?.result.components.count();
/// let paths = placed.shortest_paths(0, &Default::default())?;
/// let strong = placed.strongly_connected()?.result.components.count(); // undirected: the components
/// let closeness = placed.centrality(true)?.result.closeness;
/// assert_eq!((hops, components, strong), (5, 1, 1));
/// assert!(closeness.iter().all(|&c| c > 0.0 && c <= 1.0));
/// assert!(paths.result.distances.get(11) >= Some(5.0)); // five edges or more, each weighing 1 or more
/// # Ok::<(), warpath::Error>(())
/// ```
pub struct PlacedGraph<'g> {
    graph: &'g Graph,
    /// The placed graph, which the views below share (freed when the last of them drops).
    prepared: Arc<Prepared>,
    warnings: Vec<String>,
    /// Device bytes budgeted for the arrays of whichever algorithm runs.
    workspace_bytes: u64,
    traverser: Traverser<'g>,
    components: ComponentFinder<'g>,
    strong_components: SccFinder<'g>,
    /// Why the placement cannot serve shortest paths, where it cannot (compressed lists).
    paths: std::result::Result<PathFinder<'g>, String>,
    /// The algorithm whose arrays the device holds now: another one releases them first.
    holding: Mutex<Holder>,
}

/// Whose device arrays a [`PlacedGraph`] keeps between runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    Nobody,
    Bfs,
    Components,
    StrongComponents,
    ShortestPaths,
}

impl<'g> PlacedGraph<'g> {
    /// Places `graph` for `backend` with the default placement. With [`Backend::Auto`], a
    /// missing GPU or one without room for the graph falls back to the CPU, with a warning in
    /// [`warnings`](Self::warnings).
    pub fn new(graph: &'g Graph, backend: Backend) -> Result<Self> {
        Self::with_placement(graph, backend, &PlacementOptions::default())
    }

    /// [`new`](Self::new) with a choice of placement (device memory or zero-copy, compressed
    /// lists, the VRAM budget). The budget covers the largest of the three algorithms' arrays
    /// at their default options (one algorithm's at a time: the next one to run frees the last
    /// one's), the in-lists a directed graph's bottom-up steps and components read, and the
    /// edge weights of a weighted graph. Compressed lists hold no weights: a graph placed that
    /// way runs BFS and components, and its shortest paths are refused.
    pub fn with_placement(graph: &'g Graph, backend: Backend, placement: &PlacementOptions) -> Result<Self> {
        let mut workspace = crate::bfs::traverser::workspace(graph, false)
            .covering(crate::cc::gpu::workspace(graph, &CcOptions::default()))
            .covering(crate::scc::gpu::workspace(graph));
        if !placement.compressed {
            workspace = workspace.covering(crate::sssp::gpu::workspace(graph, &SsspOptions::default())?);
        }
        let (prepared, warnings) = prepare(graph, backend, placement, workspace)?;
        let prepared = Arc::new(prepared);
        let traverser = Traverser::on_prepared(graph, Arc::clone(&prepared), warnings.clone(), false);
        let components = ComponentFinder::on_prepared(graph, Arc::clone(&prepared), warnings.clone(), workspace.bytes);
        let strong_components = SccFinder::on_prepared(graph, Arc::clone(&prepared), warnings.clone());
        let paths = PathFinder::on_prepared(graph, Arc::clone(&prepared), warnings.clone()).map_err(|e| e.to_string());
        Ok(PlacedGraph {
            graph,
            prepared,
            warnings,
            workspace_bytes: workspace.bytes,
            traverser,
            components,
            strong_components,
            paths,
            holding: Mutex::new(Holder::Nobody),
        })
    }

    /// The graph.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// Where every algorithm runs.
    pub fn backend(&self) -> BackendUsed {
        self.prepared.backend()
    }

    /// Warnings raised while placing (a fallback to the CPU, a zero-copy placement).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The graph as placed for the GPU (None on the CPU).
    pub fn placed(&self) -> Option<&GpuGraph> {
        self.prepared.gpu()
    }

    /// Time to place the graph on the device, paid once (zero on the CPU).
    pub fn upload_time(&self) -> Duration {
        self.placed().map_or(Duration::ZERO, GpuGraph::upload_time)
    }

    /// Device bytes budgeted for one algorithm's arrays beside the graph (see
    /// [`with_placement`](Self::with_placement)).
    pub fn workspace_bytes(&self) -> u64 {
        self.workspace_bytes
    }

    /// One BFS from `source` (an internal id; check it with [`crate::bfs::check_source`]) by
    /// the BFS view's kernel ([`GpuKernel::Auto`] unless [`set_bfs_kernel`](Self::set_bfs_kernel)
    /// chose another).
    pub fn bfs(&self, source: u32) -> Result<Traversal> {
        self.hold(Holder::Bfs);
        self.traverser.run(source)
    }

    /// Chooses the GPU kernel of [`bfs`](Self::bfs) (no effect on the CPU).
    pub fn set_bfs_kernel(&mut self, kernel: GpuKernel) {
        self.traverser.set_gpu_kernel(kernel);
    }

    /// Every vertex's exact closeness and harmonic centrality ([`Traverser::centrality`]).
    pub fn centrality(&self, wf_improved: bool) -> Result<crate::engine::Run<crate::bfs::multi_source::Centrality>> {
        self.hold(Holder::Bfs);
        self.traverser.centrality(wf_improved)
    }

    /// The BFS view: every way the library runs a BFS (`run_reusing`, `run_pinned`,
    /// `run_traced`) on this placement.
    pub fn traverser(&self) -> &Traverser<'g> {
        self.hold(Holder::Bfs);
        &self.traverser
    }

    /// The connected components (weakly connected for a directed graph).
    pub fn components(&self, options: &CcOptions) -> Result<ComponentsRun> {
        self.component_finder().run(options)
    }

    /// The components view: every way the library runs components (`run`, `run_pinned`) on
    /// this placement, and what it reports of the placement.
    pub fn component_finder(&self) -> &ComponentFinder<'g> {
        self.hold(Holder::Components);
        &self.components
    }

    /// The strongly connected components (an undirected graph's are its connected components).
    pub fn strongly_connected(&self) -> Result<SccAnswer> {
        self.hold(Holder::StrongComponents);
        self.strong_components.run()
    }

    /// Shortest paths from `source` (an internal id). An error where the placement holds no
    /// weights (compressed lists).
    pub fn shortest_paths(&self, source: u32, options: &SsspOptions) -> Result<PathsRun> {
        self.path_finder()?.run(source, options)
    }

    /// Shortest paths from the nearest of several `sources` ([`PathFinder::run_from`]).
    pub fn shortest_paths_from(&self, sources: &[u32], options: &SsspOptions) -> Result<PathsRun> {
        self.path_finder()?.run_from(sources, options)
    }

    /// The shortest-paths view (traces, several sources, recycled results), or why this
    /// placement cannot serve shortest paths.
    pub fn path_finder(&self) -> Result<&PathFinder<'g>> {
        match &self.paths {
            Ok(paths) => {
                self.hold(Holder::ShortestPaths);
                Ok(paths)
            }
            Err(refusal) => Err(Error::InvalidArgument(refusal.clone())),
        }
    }

    /// Makes `next` the algorithm whose arrays the device may hold, freeing those the last
    /// one kept.
    fn hold(&self, next: Holder) {
        let mut holding = self.holding.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if *holding == next {
            return;
        }
        match *holding {
            Holder::Bfs => self.traverser.release_arrays(),
            Holder::Components => self.components.release_arrays(),
            Holder::StrongComponents => self.strong_components.release_arrays(),
            Holder::ShortestPaths => {
                if let Ok(paths) = &self.paths {
                    paths.release_arrays();
                }
            }
            Holder::Nobody => {}
        }
        *holding = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::bfs_sequential;
    use crate::cc::cpu_reference::components_sequential;
    use crate::generate::{attach_weights, generate, GeneratorSpec, WeightSpec};
    use crate::sssp::cpu_reference::dijkstra;

    fn weighted(spec: &str) -> Graph {
        let graph = generate(&spec.parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        attach_weights(graph, &"uniform:1:255".parse::<WeightSpec>().unwrap(), 3).unwrap()
    }

    #[test]
    fn one_placement_runs_every_algorithm_in_any_order() {
        let graph = weighted("kron:10");
        let placed = PlacedGraph::new(&graph, Backend::Cpu).unwrap();
        assert!(matches!(placed.backend(), BackendUsed::Cpu { .. }));
        let source = crate::bfs::random_sources(&graph, 7, 1)[0];
        for _ in 0..2 {
            let found = placed.shortest_paths(source, &SsspOptions::default()).unwrap();
            assert_eq!(found.result.distances, dijkstra(&graph, source).distances);
            let traversal = placed.bfs(source).unwrap();
            assert_eq!(traversal.result.distances, bfs_sequential(&graph, source).distances);
            let components = placed.components(&CcOptions::default()).unwrap().result.components;
            assert_eq!(components, components_sequential(&graph));
            let strong = placed.strongly_connected().unwrap().result.components;
            assert_eq!(strong, crate::scc::cpu_reference::tarjan(&graph));
        }
        assert_eq!(placed.upload_time(), Duration::ZERO);
    }

    /// A BFS result read in place (which holds the traverser's kept labels) stays valid while
    /// another algorithm runs on the same placement: releasing the BFS's device arrays for it
    /// leaves those labels alone.
    #[test]
    fn another_algorithm_runs_while_a_pinned_traversal_is_held() {
        let graph = weighted("kron:8");
        let placed = PlacedGraph::new(&graph, Backend::Cpu).unwrap();
        let source = crate::bfs::random_sources(&graph, 7, 1)[0];
        let pinned = placed.traverser().run_pinned(source).unwrap();
        let components = placed.components(&CcOptions::default()).unwrap().result.components;
        assert_eq!(components, components_sequential(&graph));
        assert_eq!(pinned.distances().unwrap(), bfs_sequential(&graph, source).distances);
    }
}
