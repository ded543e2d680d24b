//! Connected components on the engine: a graph prepared once ([`crate::engine::prepare`], its
//! device memory budgeted with [`crate::cc::gpu::workspace`]), then as many runs as the caller
//! wants, on the GPU ([`crate::cc::gpu::components`]) or on all CPU cores (Afforest, or
//! Shiloach-Vishkin when asked).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::cc::cpu_afforest::afforest;
use crate::cc::cpu_shiloach_vishkin::shiloach_vishkin;
use crate::cc::gpu::{components_in, CcArrays, LabelsTo};
use crate::cc::{CcAlgorithm, CcOptions, CcRun, Components};
use crate::engine::kept::take_kept;
use crate::engine::Answer;
use crate::engine::{prepare, Backend, BackendUsed, GpuGraph, PlacementOptions, Prepared, Run};
use crate::error::Result;
use crate::gpu::{Download, GpuContext, Layout, PinnedBuffer, Placement};
use crate::graph::Graph;

/// A finished run and what it cost: the engine's one run shape with a [`CcRun`] (the
/// components, the kernels' time and their phases), as a BFS [`crate::bfs::Traversal`] and a
/// [`crate::sssp::PathsRun`] are.
pub type ComponentsRun = Run<CcRun>;

/// A graph prepared for repeated connected-components runs on one backend.
pub struct ComponentFinder<'g> {
    graph: &'g Graph,
    /// Shared with the other algorithms' views of a [`crate::PlacedGraph`].
    prepared: Arc<Prepared>,
    /// Device bytes of the per-vertex arrays the preparation budgeted for.
    workspace_bytes: u64,
    warnings: Vec<String>,
    /// The GPU runs' device arrays, made by the first run and kept for the next.
    arrays: Mutex<CcArrays>,
    /// The labels of the last [`run_pinned`](ComponentFinder::run_pinned), in pinned host
    /// memory kept from one such run to the next.
    pinned: Mutex<Option<PinnedBuffer<u32>>>,
}

/// A run whose labels stay where [`ComponentFinder::run_pinned`] read them: in pinned host
/// memory the finder keeps (on the GPU), read in place; on the CPU, in the run's own vector.
/// Holding it holds the finder's pinned labels: the next `run_pinned` is refused until it is
/// dropped.
pub struct PinnedComponents<'f> {
    /// Times, download and warnings; on the GPU its labels are empty (they are here).
    pub run: ComponentsRun,
    pinned: Option<MutexGuard<'f, Option<PinnedBuffer<u32>>>>,
}

impl PinnedComponents<'_> {
    /// Each vertex's component, named by its smallest vertex.
    pub fn labels(&self) -> Result<&[u32]> {
        match &self.pinned {
            Some(pinned) => Ok(pinned.as_ref().map_or(Ok(&[][..]), PinnedBuffer::as_slice)?),
            None => Ok(&self.run.result.components.labels),
        }
    }

    /// The run with its labels copied into `reuse`'s label vector (its memory reused), freeing
    /// the finder's pinned labels for the next run.
    pub fn into_run(self, reuse: CcRun) -> Result<ComponentsRun> {
        if self.pinned.is_none() {
            return Ok(self.run);
        }
        let mut labels = reuse.components.labels;
        labels.clear();
        labels.extend_from_slice(self.labels()?);
        let result = CcRun { components: Components { labels }, ..self.run.result.clone() };
        Ok(ComponentsRun { result, ..self.run })
    }
}

impl<'g> ComponentFinder<'g> {
    /// Prepares `graph` for `backend` with the default placement. With [`Backend::Auto`], a
    /// missing GPU or one without room for the graph falls back to the CPU, with a warning in
    /// [`ComponentFinder::warnings`].
    pub fn new(graph: &'g Graph, backend: Backend) -> Result<Self> {
        Self::with_options(graph, backend, &PlacementOptions::default(), &CcOptions::default())
    }

    /// [`new`](Self::new) with a choice of placement (device memory or zero-copy, compressed
    /// lists, the VRAM budget); the device memory is budgeted for the arrays `options` needs.
    pub fn with_options(
        graph: &'g Graph,
        backend: Backend,
        placement: &PlacementOptions,
        options: &CcOptions,
    ) -> Result<Self> {
        let workspace = crate::cc::gpu::workspace(graph, options);
        let (prepared, warnings) = prepare(graph, backend, placement, workspace)?;
        Ok(Self::on_prepared(graph, Arc::new(prepared), warnings, workspace.bytes))
    }

    /// A finder over a graph another owner prepared (budgeted for at least
    /// [`crate::cc::gpu::workspace`]'s arrays, which are `workspace_bytes`), sharing its
    /// placement. The first GPU run makes the arrays, the later ones reuse them.
    pub(crate) fn on_prepared(
        graph: &'g Graph,
        prepared: Arc<Prepared>,
        warnings: Vec<String>,
        workspace_bytes: u64,
    ) -> Self {
        ComponentFinder {
            graph,
            prepared,
            workspace_bytes,
            warnings,
            arrays: Mutex::default(),
            pinned: Mutex::default(),
        }
    }

    /// One run. On the GPU `time` is the kernels' time; on the CPU, the wall time of the
    /// parallel code (the algorithm of `options`: Afforest with its rounds and samples, or
    /// Shiloach-Vishkin).
    pub fn run(&self, options: &CcOptions) -> Result<ComponentsRun> {
        let started = Instant::now();
        let (run, download) = match &*self.prepared {
            Prepared::Gpu(on) => components_in(on, &mut self.lock_arrays(), options, LabelsTo::Vector)?,
            Prepared::Cpu { transpose } => {
                let run = match options.algorithm {
                    CcAlgorithm::Afforest => afforest(self.graph, transpose.as_ref(), options),
                    CcAlgorithm::ShiloachVishkin => shiloach_vishkin(self.graph),
                };
                (run, Download::default())
            }
        };
        Ok(self.finished(run, started, download))
    }

    /// `run` in the envelope every finder's runs come in.
    fn finished(&self, run: Answer<CcRun>, started: Instant, download: Download) -> ComponentsRun {
        let Answer { result, time } = run;
        let end_to_end_time = if self.placed().is_some() { started.elapsed() } else { time };
        let warnings = self.warnings.clone();
        ComponentsRun { time, result, backend: self.backend(), end_to_end_time, download, warnings }
    }

    /// One run whose labels are read back into pinned host memory the finder keeps (made by
    /// the first such run) and read in place from the [`PinnedComponents`]: no pass of the
    /// host's over them, so the quickest way to an answer on a placed graph. On the CPU the
    /// labels are the run's own vector.
    ///
    /// ```
    /// use warpath::cc::{CcOptions, ComponentFinder};
    /// use warpath::engine::Backend;
    /// use warpath::graph::{EdgeList, GraphBuilder};
    ///
    /// let graph = GraphBuilder::new().build(EdgeList::new(4, vec![(0, 1), (3, 2)], true))?;
    /// let finder = ComponentFinder::new(&graph, Backend::Auto)?;
    /// let found = finder.run_pinned(&CcOptions::default())?;
    /// assert_eq!(found.labels()?, [0, 0, 2, 2]);
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn run_pinned(&self, options: &CcOptions) -> Result<PinnedComponents<'_>> {
        let Prepared::Gpu(on) = &*self.prepared else {
            return Ok(PinnedComponents { run: self.run(options)?, pinned: None });
        };
        let mut pinned = take_kept(&self.pinned, "component labels")?;
        let started = Instant::now();
        let (run, download) = components_in(on, &mut self.lock_arrays(), options, LabelsTo::Pinned(&mut pinned))?;
        Ok(PinnedComponents { run: self.finished(run, started, download), pinned: Some(pinned) })
    }

    fn lock_arrays(&self) -> MutexGuard<'_, CcArrays> {
        // A run that panicked left nothing the next one reads: every run writes it afresh.
        self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Frees the device arrays kept between runs (the next run makes them again), so that
    /// another algorithm on the same placed graph has their memory. The pinned labels are host
    /// memory and stay: a live [`PinnedComponents`] holds them.
    pub(crate) fn release_arrays(&self) {
        *self.lock_arrays() = CcArrays::default();
    }

    pub fn backend(&self) -> BackendUsed {
        self.prepared.backend()
    }

    /// Warnings raised while preparing (a fallback to the CPU, say).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The graph as placed for the GPU, once for every run (None on the CPU).
    pub fn placed(&self) -> Option<&GpuGraph> {
        self.prepared.gpu()
    }

    /// The GPU context, when this finder runs on the GPU.
    pub fn gpu(&self) -> Option<&GpuContext> {
        self.placed().map(GpuGraph::gpu)
    }

    /// Time to place the graph on the device (zero on the CPU), paid once before the first
    /// run.
    pub fn upload_time(&self) -> Duration {
        self.placed().map_or(Duration::ZERO, GpuGraph::upload_time)
    }

    /// Where the graph's lists are for the GPU (None on the CPU).
    pub fn placement(&self) -> Option<Placement> {
        self.placed().map(|on| on.graph().placement())
    }

    /// Where the graph's offsets and lists are for the GPU (None on the CPU).
    pub fn layout(&self) -> Option<Layout> {
        self.placed().map(|on| on.graph().layout())
    }

    /// Whether the GPU reads delta-varint compressed lists (false on the CPU).
    pub fn is_compressed(&self) -> bool {
        self.placed().is_some_and(|on| on.graph().is_compressed())
    }

    /// Whether the first in-neighbors of the lists are in device memory beside zero-copy lists.
    pub fn has_list_heads(&self) -> bool {
        self.placed().is_some_and(GpuGraph::has_list_heads)
    }

    /// Bytes of the offsets and lists (graph and transpose) as the GPU holds them (None on the
    /// CPU).
    pub fn gpu_graph_stored_bytes(&self) -> Option<u64> {
        self.placed().map(GpuGraph::stored_bytes)
    }

    /// Device bytes the graph and its transpose occupy (None on the CPU).
    pub fn device_graph_bytes(&self) -> Option<u64> {
        self.placed().map(GpuGraph::bytes)
    }

    /// Device bytes warpath allocates for a run: the graph, its transpose and the per-vertex
    /// arrays budgeted for (computed from the sizes; None on the CPU).
    pub fn device_bytes(&self) -> Option<u64> {
        Some(self.device_graph_bytes()? + self.workspace_bytes)
    }
}

/// The connected components of `graph` (weakly connected for a directed graph) on the chosen
/// backend, with the default options: the simplest way in from library code. The run's
/// warnings say where it ran when the GPU was not there.
///
/// ```
/// use warpath::cc::connected_components;
/// use warpath::engine::Backend;
/// use warpath::graph::{EdgeList, GraphBuilder};
///
/// // 0 - 1 - 2 and 3 - 4, vertex 5 alone.
/// let graph = GraphBuilder::new().build(EdgeList::new(6, vec![(0, 1), (1, 2), (4, 3)], true))?;
/// let found = connected_components(&graph, Backend::Cpu)?;
/// let components = &found.result.components;
/// assert_eq!(components.labels, [0, 0, 0, 3, 3, 5]); // each named by its smallest vertex
/// assert_eq!(components.count(), 3);
/// # Ok::<(), warpath::Error>(())
/// ```
pub fn connected_components(graph: &Graph, backend: Backend) -> Result<ComponentsRun> {
    ComponentFinder::new(graph, backend)?.run(&CcOptions::default())
}
