//! The BFS on the engine: a graph prepared once ([`crate::engine::prepare`]), then as many
//! traversals as the caller wants, each by the GPU kernel chosen (or `auto`'s pick for the
//! graph) or by the parallel CPU BFS.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::bfs::cpu_parallel::{bfs_parallel_with, DirectionParams};
use crate::bfs::gpu::cluster::{ClusterArrays, GpuCluster};
use crate::bfs::gpu::edge_queue::{EdgeQueueArrays, GpuEdgeQueue};
use crate::bfs::gpu::multi_source::{GpuMultiSource, MultiSourceLevel};
use crate::bfs::gpu::per_level::{GpuLevel, GpuTopDown};
use crate::bfs::gpu::persistent::{GpuPersistent, LabelsTarget, PersistentArrays, PersistentRun, PinnedLabels};
use crate::bfs::gpu::tuning::PersistentParams;
use crate::bfs::multi_source::ManyDirections;
use crate::bfs::strategy::TopDownStrategy;
use crate::bfs::trace::{Direction, LevelTrace};
use crate::bfs::{multi_source, BfsResult};
use crate::engine::kept::take_kept;
use crate::engine::{prepare, Backend, BackendUsed, GpuGraph, PlacementOptions, Prepared, Run, Workspace};
use crate::error::Result;
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError, Layout, Placement};
use crate::graph::{Graph, UNREACHED};

/// A finished traversal and what it cost: the engine's one run shape with a [`BfsResult`]
/// (its `time` the traversal alone; placing the graph is paid once, before the first run,
/// [`Traverser::placement_time`]).
pub type Traversal = Run<BfsResult>;

/// A graph prepared for repeated BFS on one backend ([`crate::engine::Prepared`]: the GPU
/// context and the graph in device memory, or the CPU with the transpose a directed graph
/// needs for bottom-up steps), and the GPU kernel that runs.
pub struct Traverser<'g> {
    graph: &'g Graph,
    /// Shared with the other algorithms' views of a [`crate::PlacedGraph`].
    prepared: Arc<Prepared>,
    gpu_kernel: GpuKernel,
    /// [`GpuOptions::distances_only`], applied on every backend.
    distances_only: bool,
    warnings: Vec<String>,
    /// The GPU kernel's device arrays, made by the first traversal and kept for the next
    /// (those of one kernel family at a time).
    arrays: Mutex<KernelArrays>,
    /// The labels of the last [`run_pinned`](Traverser::run_pinned), in host memory kept
    /// from one such run to the next.
    kept_labels: Mutex<KeptLabels>,
}

/// Where [`Traverser::run_pinned`] keeps its labels.
#[derive(Default)]
enum KeptLabels {
    #[default]
    None,
    /// Read back from the GPU into pinned memory.
    Pinned(PinnedLabels),
    /// Computed on the CPU, or by the per-level GPU kernel.
    Vectors(BfsResult),
}

/// A traversal whose labels stay where [`Traverser::run_pinned`] read them: in pinned host
/// memory the traverser keeps (on the GPU), read in place. Holding it holds the traverser's
/// label buffers: the next `run_pinned` is refused until it is dropped.
pub struct PinnedTraversal<'t> {
    /// Times, download and warnings; its `result` is empty (the labels are here).
    pub run: Traversal,
    labels: MutexGuard<'t, KeptLabels>,
}

impl PinnedTraversal<'_> {
    /// Each vertex's distance from the source (`u32::MAX`: unreached).
    pub fn distances(&self) -> Result<&[u32]> {
        match &*self.labels {
            KeptLabels::Pinned(pinned) => Ok(pinned.distances()?),
            KeptLabels::Vectors(result) => Ok(&result.distances),
            KeptLabels::None => Ok(&[]),
        }
    }

    /// Each vertex's parent, or None when the traversal labeled distances only.
    pub fn parents(&self) -> Result<Option<&[u32]>> {
        match &*self.labels {
            KeptLabels::Pinned(pinned) => Ok(pinned.parents()?),
            KeptLabels::Vectors(result) => Ok(result.has_parents().then_some(&result.parents[..])),
            KeptLabels::None => Ok(None),
        }
    }

    /// The traversal with its labels copied into `reuse`'s vectors (their memory reused) as
    /// its result, freeing the traverser's label buffers for the next run.
    pub fn into_run(self, reuse: BfsResult) -> Result<Traversal> {
        let result = self.to_result(reuse)?;
        Ok(Traversal { result, ..self.run })
    }

    /// The labels copied into `reuse`'s vectors (their memory reused), as a [`BfsResult`].
    pub fn to_result(&self, mut reuse: BfsResult) -> Result<BfsResult> {
        reuse.source = self.run.result.source;
        reuse.distances.clear();
        reuse.distances.extend_from_slice(self.distances()?);
        reuse.parents.clear();
        if let Some(parents) = self.parents()? {
            reuse.parents.extend_from_slice(parents);
        }
        Ok(reuse)
    }
}

/// The device arrays a [`Traverser`] keeps between runs.
#[derive(Default)]
enum KernelArrays {
    #[default]
    None,
    Persistent(PersistentArrays),
    EdgeQueue(EdgeQueueArrays),
    Cluster(ClusterArrays),
}

/// Which GPU traversal runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GpuKernel {
    /// The default: the fastest of the two below for the graph, by its size
    /// ([`crate::bfs::strategy::auto_choice`]): the persistent direction-optimizing kernel with
    /// these parameters on big dense graphs, the contract-expand top-down strategy on the rest
    /// (small social graphs, roads, grids; why: docs/tuning.md), and on a Hopper GPU the
    /// cluster kernel in its place for graphs without long lists up to its size
    /// ([`crate::bfs::strategy::auto_takes_the_cluster`]). A graph in mapped host memory
    /// or compressed, or whose edge queues do not fit, gets the persistent kernel. The
    /// parameters never change the pick; they are unused when it is contract-expand, which
    /// callers can check with [`Traverser::resolved_gpu_kernel`] (the CLI refuses tuning
    /// options then).
    Auto(PersistentParams),
    /// The whole direction-optimizing BFS in one persistent kernel (never bottom-up when the
    /// parameters say so: then Merrill et al.'s expand-contract).
    Persistent(PersistentParams),
    /// One top-down launch per level, the frontier size read back between levels (the
    /// foundation version, kept as a baseline).
    PerLevel,
    /// Top-down only, by one of Merrill et al.'s four strategies (or `auto`, resolved per
    /// graph): expand-contract is the persistent kernel's top-down path, the others run over
    /// edge queues ([`GpuEdgeQueue`]).
    TopDown(TopDownStrategy),
    /// Top-down, every level in one thread-block cluster of a Hopper GPU, its frontiers as
    /// bitmaps in distributed shared memory and a cluster barrier between levels
    /// ([`GpuCluster`]): for graphs of many small levels (roads, meshes). Refused below compute
    /// capability 9.0, for compressed lists and for graphs of more than
    /// [`warpath_interface::cluster::CLUSTER_MAX_VERTICES`] vertices.
    Cluster,
}

impl Default for GpuKernel {
    fn default() -> Self {
        GpuKernel::Auto(PersistentParams::default())
    }
}

/// Where the GPU path puts the graph, and what it labels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuOptions {
    /// Where the engine puts the graph, as for every algorithm: with `None` for the placement,
    /// device memory when the graph and the BFS arrays fit the budget, else zero-copy (the
    /// graph in mapped pinned host memory; the BFS arrays stay on the device). Compressed
    /// lists are read by the persistent kernel only.
    pub placement: PlacementOptions,
    /// Label distances only: the persistent kernel writes no parents and the device holds no
    /// parents array (4n bytes less), and every result comes back without parents
    /// ([`BfsResult::has_parents`]); the CPU computes them and drops them. The per-level GPU
    /// kernel always writes parents, so it refuses this option.
    pub distances_only: bool,
}

impl<'g> Traverser<'g> {
    /// Prepares `graph` for `backend`. With [`Backend::Auto`], a missing GPU or one without
    /// room for the graph falls back to the CPU, with a warning in [`Traversal::warnings`].
    pub fn new(graph: &'g Graph, backend: Backend) -> Result<Self> {
        Self::with_options(graph, backend, GpuOptions::default())
    }

    /// [`new`](Self::new) with a choice of graph placement and device-memory budget.
    pub fn with_options(graph: &'g Graph, backend: Backend, options: GpuOptions) -> Result<Self> {
        let workspace = workspace(graph, options.distances_only);
        let (prepared, warnings) = prepare(graph, backend, &options.placement, workspace)?;
        Ok(Self::on_prepared(graph, Arc::new(prepared), warnings, options.distances_only))
    }

    /// A traverser over a graph another owner prepared (budgeted for at least
    /// [`workspace`]'s arrays), sharing its placement.
    pub(crate) fn on_prepared(
        graph: &'g Graph,
        prepared: Arc<Prepared>,
        warnings: Vec<String>,
        distances_only: bool,
    ) -> Self {
        Traverser {
            graph,
            prepared,
            gpu_kernel: GpuKernel::default(),
            distances_only,
            warnings,
            arrays: Mutex::new(KernelArrays::None),
            kept_labels: Mutex::new(KeptLabels::None),
        }
    }

    /// Frees the device arrays kept between runs (the next run makes them again), so that
    /// another algorithm on the same placed graph has their memory. The labels `run_pinned`
    /// keeps are host memory and stay: a live [`PinnedTraversal`] holds them.
    pub(crate) fn release_arrays(&self) {
        *self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = KernelArrays::None;
    }

    /// The graph as placed for the GPU, once for every traversal (None on the CPU).
    pub fn placed(&self) -> Option<&GpuGraph> {
        self.prepared.gpu()
    }
    /// Bytes of the graph's offsets and lists (and its transpose's) as the GPU holds them,
    /// wherever they are placed: compressed or plain (None on the CPU).
    pub fn gpu_graph_stored_bytes(&self) -> Option<u64> {
        self.placed().map(GpuGraph::stored_bytes)
    }

    /// Whether the first in-neighbors of the lists are in device memory beside zero-copy lists
    /// (false on the CPU).
    pub fn has_list_heads(&self) -> bool {
        self.placed().is_some_and(GpuGraph::has_list_heads)
    }

    /// Whether the GPU reads delta-varint compressed lists (false on the CPU).
    pub fn is_compressed(&self) -> bool {
        self.placed().is_some_and(|on| on.graph().is_compressed())
    }

    /// Where the graph's offsets and lists are for the GPU (None on the CPU).
    pub fn layout(&self) -> Option<Layout> {
        self.placed().map(|on| on.graph().layout())
    }

    /// Where the graph's lists are for the GPU (None on the CPU).
    pub fn placement(&self) -> Option<Placement> {
        self.placed().map(|on| on.graph().placement())
    }

    /// Chooses the GPU traversal (no effect on the CPU).
    pub fn set_gpu_kernel(&mut self, kernel: GpuKernel) {
        self.gpu_kernel = kernel;
        // The next run makes the arrays its kernel needs.
        *self.arrays.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()) = KernelArrays::None;
    }

    /// Whether traversals label distances only ([`GpuOptions::distances_only`]).
    pub fn distances_only(&self) -> bool {
        self.distances_only
    }

    pub fn backend(&self) -> BackendUsed {
        self.prepared.backend()
    }

    /// Warnings raised while preparing (a fallback to the CPU, say).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// One BFS from `source` (an internal id; check it with [`crate::bfs::check_source`]).
    /// The device arrays are made by the first run and kept; see
    /// [`run_reusing`](Self::run_reusing) to keep the host's result vectors too.
    pub fn run(&self, source: u32) -> Result<Traversal> {
        Ok(self.run_inner(source, false, LabelsTarget::Vectors(empty_result(source)))?.0)
    }

    /// [`run`](Self::run), reading the labels into the vectors of `previous` (a result of an
    /// earlier run, whose memory is reused: the download then pays no allocation or page
    /// faults). For many sources:
    ///
    /// ```
    /// use warpath::bfs::{Backend, Traverser};
    /// use warpath::generate::{generate, GeneratorSpec};
    ///
    /// let graph = generate(&"grid2d:4x3".parse::<GeneratorSpec>()?, 1)?;
    /// let traverser = Traverser::new(&graph, Backend::Auto)?;
    /// let mut result = traverser.run(0)?.result;
    /// for source in [5, 11] {
    ///     result = traverser.run_reusing(source, result)?.result;
    ///     assert_eq!(result.distances[source as usize], 0);
    /// }
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn run_reusing(&self, source: u32, previous: BfsResult) -> Result<Traversal> {
        Ok(self.run_inner(source, false, LabelsTarget::Vectors(previous))?.0)
    }

    /// One BFS whose labels are read back into pinned host memory the traverser keeps
    /// (allocated by the first such run), at the bus's full rate, and read in place from the
    /// [`PinnedTraversal`]: the quickest way through many sources when each result is used
    /// before the next run. On the CPU, and with the per-level GPU kernel, the labels are
    /// kept in ordinary vectors instead.
    ///
    /// ```
    /// use warpath::bfs::{Backend, Traverser};
    /// use warpath::generate::{generate, GeneratorSpec};
    ///
    /// let graph = generate(&"grid2d:4x3".parse::<GeneratorSpec>()?, 1)?;
    /// let traverser = Traverser::new(&graph, Backend::Auto)?;
    /// for source in [0, 11] {
    ///     let run = traverser.run_pinned(source)?;
    ///     assert_eq!(run.distances()?[11 - source as usize], 5);
    /// }
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn run_pinned(&self, source: u32) -> Result<PinnedTraversal<'_>> {
        let mut kept = take_kept(&self.kept_labels, "BFS labels")?;
        let pinned = match self.placed() {
            Some(on) => {
                self.resolved_gpu_kernel() != GpuKernel::PerLevel && {
                    if !matches!(*kept, KeptLabels::Pinned(_)) {
                        *kept = KeptLabels::None;
                        let n = self.graph.num_vertices();
                        *kept = KeptLabels::Pinned(PinnedLabels::new(on.gpu(), n, !self.distances_only)?);
                    }
                    true
                }
            }
            None => false,
        };
        let traversal = match (&mut *kept, pinned) {
            (KeptLabels::Pinned(labels), true) => self.run_inner(source, false, LabelsTarget::Pinned(labels))?.0,
            (slot, _) => {
                let reuse = match std::mem::take(slot) {
                    KeptLabels::Vectors(result) => result,
                    _ => empty_result(source),
                };
                let mut traversal = self.run_inner(source, false, LabelsTarget::Vectors(reuse))?.0;
                *slot = KeptLabels::Vectors(std::mem::replace(&mut traversal.result, empty_result(source)));
                traversal
            }
        };
        Ok(PinnedTraversal { run: traversal, labels: kept })
    }

    /// BFS from each of `sources` (internal ids below `n`, else the error `check_source` gives;
    /// a source with no out-edges reaches itself alone): every source's distances to every
    /// vertex, in the order given (`UNREACHED` where not reached), the searches bit-parallel:
    /// [`multi_source::BATCH`] sources share each pass over the graph, on the GPU
    /// (`bfs_multi_source_level`, a level bottom-up over the in-lists or, while the joint frontier
    /// is small, top-down over the out-lists: [`ManyDirections::Switching`]) or on the CPU ([`multi_source::distances_from`]). A GPU graph without plain in-lists on the
    /// device (compressed lists, or a directed graph whose transpose did not fit) runs one
    /// traversal a source instead, which the run's warnings say. The answer holds
    /// `sources.len()` times `n` distances.
    ///
    /// ```
    /// use warpath::bfs::{bfs_sequential, Backend, Traverser};
    /// use warpath::generate::{generate, GeneratorSpec};
    ///
    /// let graph = generate(&"grid2d:4x3".parse::<GeneratorSpec>()?, 1)?;
    /// let traverser = Traverser::new(&graph, Backend::Auto)?;
    /// let run = traverser.run_many(&[0, 5, 11])?;
    /// assert_eq!(run.result[1], bfs_sequential(&graph, 5).distances);
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn run_many(&self, sources: &[u32]) -> Result<Run<Vec<Vec<u32>>>> {
        self.run_many_with(sources, ManyDirections::default())
    }

    /// [`run_many`](Self::run_many), each GPU level's direction as `directions` says.
    pub fn run_many_with(&self, sources: &[u32], directions: ManyDirections) -> Result<Run<Vec<Vec<u32>>>> {
        let started = Instant::now();
        let n = self.graph.num_vertices();
        self.check_in_range(sources)?;
        let mut warnings = self.warnings.clone();
        let (mut time, mut download) = (Duration::ZERO, Download::default());
        let mut all = Vec::with_capacity(sources.len());
        match (self.placed(), self.plain_in_lists()) {
            (None, _) => {
                all = multi_source::distances_from_with(self.graph, sources, directions);
                time = started.elapsed();
            }
            (Some(on), Some(in_lists)) => {
                let mut searches = Self::gpu_searches(on, in_lists, on.graph())?;
                for batch in sources.chunks(multi_source::BATCH) {
                    let found = searches.run(batch, directions, false)?;
                    time += found.time;
                    download.time += found.download.time;
                    download.bytes += found.download.bytes;
                    all.extend(found.distances);
                }
            }
            (Some(_), None) => {
                let mut reuse = empty_result(sources.first().copied().unwrap_or(0));
                for &source in sources {
                    if self.graph.degree(source) == 0 {
                        // A source with no out-edges reaches itself alone (a traversal refuses it).
                        let mut distances = vec![UNREACHED; n];
                        distances[source as usize] = 0;
                        all.push(distances);
                        continue;
                    }
                    let traversal = self.run_inner(source, false, LabelsTarget::Vectors(reuse))?.0;
                    time += traversal.time;
                    download.time += traversal.download.time;
                    download.bytes += traversal.download.bytes;
                    all.push(traversal.result.distances.clone());
                    reuse = traversal.result;
                }
                warnings.push(format!(
                    "the GPU ran one traversal a source ({}): the bit-parallel searches read plain in-lists on the \
                     device, which a compressed graph, or a directed graph whose transpose did not fit, lacks",
                    sources.len()
                ));
            }
        }
        Ok(Run { result: all, backend: self.backend(), time, end_to_end_time: started.elapsed(), download, warnings })
    }

    /// The first batch of [`run_many_with`](Self::run_many_with)'s searches (its first 64
    /// sources) on the GPU, each level timed apart: what a batch's time is made of. `None` where
    /// the batch would not run bit-parallel on a GPU.
    pub fn trace_many(&self, sources: &[u32], directions: ManyDirections) -> Result<Option<Vec<MultiSourceLevel>>> {
        let (Some(on), Some(in_lists)) = (self.placed(), self.plain_in_lists()) else {
            return Ok(None);
        };
        self.check_in_range(sources)?;
        let batch = &sources[..sources.len().min(multi_source::BATCH)];
        if batch.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let mut searches = Self::gpu_searches(on, in_lists, on.graph())?;
        Ok(Some(searches.run(batch, directions, true)?.levels))
    }

    /// Refuses the first of many searches' `sources` outside the graph, with a single
    /// traversal's error ([`crate::bfs::check_source`]); a source with no out-edges is fine (it
    /// reaches itself alone).
    fn check_in_range(&self, sources: &[u32]) -> Result<()> {
        match sources.iter().find(|&&s| s as usize >= self.graph.num_vertices()) {
            Some(&source) => crate::bfs::check_source(self.graph, source),
            None => Ok(()),
        }
    }

    /// The GPU's bit-parallel searches over the placed graph `on`, pulling over `pull` and
    /// pushing over `push` (the in-lists and the graph's own lists for searches along the
    /// edges, the other way round for searches against them).
    fn gpu_searches<'a>(
        on: &'a GpuGraph,
        pull: &'a DeviceGraph,
        push: &'a DeviceGraph,
    ) -> std::result::Result<GpuMultiSource<'a>, GpuError> {
        GpuMultiSource::new(on.gpu(), pull, Some(push), on.max_out_degree().max(on.max_in_degree()))
    }

    /// Every vertex's exact closeness and harmonic centrality, as [`multi_source::centrality`]
    /// computes them (one search a vertex over the reversed edges, 64 sharing each pass): on the
    /// GPU where the graph is placed there with plain lists both ways, each source's distances
    /// summed on the device level by level (`GpuMultiSource::run_tallies`), else on every CPU
    /// core (the warnings say why).
    pub fn centrality(&self, wf_improved: bool) -> Result<Run<multi_source::Centrality>> {
        let started = Instant::now();
        let mut warnings = self.warnings.clone();
        let n = self.graph.num_vertices();
        if let Some(on) = self.placed() {
            match self.plain_in_lists().filter(|_| !on.graph().is_compressed()) {
                Some(in_lists) => {
                    // Incoming distances: the searches pull over the graph's own lists and push
                    // over its in-lists.
                    let mut searches = Self::gpu_searches(on, on.graph(), in_lists)?;
                    let mut found = multi_source::Centrality { closeness: vec![0.0; n], harmonic: vec![0.0; n] };
                    let mut time = Duration::ZERO;
                    let vertices: Vec<u32> = (0..n as u32).collect();
                    for batch in vertices.chunks(multi_source::BATCH) {
                        let (tallies, batch_time) = searches.run_tallies(batch, ManyDirections::default())?;
                        time += batch_time;
                        tallies.store(batch, wf_improved, &mut found);
                    }
                    return Ok(Run {
                        result: found,
                        backend: self.backend(),
                        time,
                        end_to_end_time: started.elapsed(),
                        download: Download::default(),
                        warnings,
                    });
                }
                None => warnings.push(
                    "closeness runs on the CPU: the GPU's bit-parallel searches read plain lists both ways on the \
                     device, which a compressed graph, or a directed graph whose transpose did not fit, lacks"
                        .to_string(),
                ),
            }
        }
        let result = multi_source::centrality(self.graph, wf_improved);
        let time = started.elapsed();
        let backend = BackendUsed::Cpu { threads: rayon::current_num_threads() };
        Ok(Run { result, backend, time, end_to_end_time: time, download: Download::default(), warnings })
    }

    /// Whether [`run_many`](Self::run_many) searches bit-parallel (on the CPU, or on a GPU
    /// graph with plain in-lists on the device) rather than one traversal a source.
    pub fn runs_many_bit_parallel(&self) -> bool {
        self.placed().is_none() || self.plain_in_lists().is_some()
    }

    /// How [`run_many`](Self::run_many) searches, as the reports say it: `bit-parallel` or `one
    /// traversal a source`.
    pub fn many_searches(&self) -> &'static str {
        if self.runs_many_bit_parallel() {
            "bit-parallel"
        } else {
            "one traversal a source"
        }
    }

    /// The device's in-lists where they are plain CSR lists.
    fn plain_in_lists(&self) -> Option<&DeviceGraph> {
        self.placed().and_then(|on| on.in_lists().filter(|lists| !lists.is_compressed()))
    }

    /// One BFS with a per-level trace: direction, frontier size, edges inspected and time.
    /// On the GPU each level is timed with its own events, which adds a little to the total.
    pub fn run_traced(&self, source: u32) -> Result<(Traversal, Vec<LevelTrace>)> {
        self.run_inner(source, true, LabelsTarget::Vectors(empty_result(source)))
    }

    /// One BFS, its labels read back where `reuse` says (the CPU and the per-level kernel
    /// always return vectors: [`Traverser::run_pinned`] sends them only vectors).
    fn run_inner(&self, source: u32, trace: bool, reuse: LabelsTarget<'_>) -> Result<(Traversal, Vec<LevelTrace>)> {
        crate::bfs::check_source(self.graph, source)?;
        let mut warnings = self.warnings.clone();
        let started = Instant::now();
        let (result, time, download, levels) = match &*self.prepared {
            Prepared::Gpu(on) => {
                let (gpu, device_graph) = (on.gpu(), on.graph());
                let kernel = self.resolved_gpu_kernel();
                // Auto's edge-queue pick that once gave way to the persistent kernel (no room
                // for the queues) keeps giving way, over the arrays that kernel kept.
                let gave_way = self.chose_automatically()
                    && matches!(*self.arrays.lock().unwrap_or_else(|p| p.into_inner()), KernelArrays::Persistent(_));
                let run = match kernel {
                    GpuKernel::TopDown(strategy) if gave_way => {
                        warnings.push(format!(
                            "no room for the {strategy} strategy's edge queues: the persistent kernel ran instead"
                        ));
                        self.run_persistent(on, source, self.fallback_params(), trace, reuse)?
                    }
                    GpuKernel::TopDown(strategy) => match self.run_edge_queue(on, source, strategy, trace, reuse) {
                        Ok(run) => run,
                        // Auto's pick gives way to the persistent kernel, which needs no
                        // queues; a strategy the user named fails with the sizes.
                        Err((GpuError::OutOfMemory { .. }, reuse)) if self.chose_automatically() => {
                            warnings.push(format!(
                                "no room for the {strategy} strategy's edge queues: the persistent kernel ran instead"
                            ));
                            self.run_persistent(on, source, self.fallback_params(), trace, reuse)?
                        }
                        Err((err, _)) => return Err(err.into()),
                    },
                    GpuKernel::Persistent(params) | GpuKernel::Auto(params) => {
                        let zero_copy = self.placement() == Some(Placement::ZeroCopy);
                        if let Some(problem) = params.double_scan_conflict(zero_copy) {
                            return Err(crate::Error::InvalidArgument(problem.to_string()));
                        }
                        self.run_persistent(on, source, params, trace, reuse)?
                    }
                    GpuKernel::PerLevel if self.distances_only => {
                        return Err(crate::Error::InvalidArgument(
                            "the per-level GPU kernel always writes parents, so it has no distances-only variant: \
                             label parents too, or use the persistent kernel"
                                .into(),
                        ));
                    }
                    GpuKernel::PerLevel if device_graph.is_compressed() => {
                        return Err(crate::Error::InvalidArgument(
                            "the per-level GPU kernel reads only plain CSR lists, not compressed ones: give it the \
                             plain lists, or use the persistent kernel"
                                .into(),
                        ));
                    }
                    GpuKernel::Cluster => self.run_cluster(on, source, trace, reuse)?,
                    GpuKernel::PerLevel => {
                        // The baseline allocates its arrays for every run, as it always did.
                        let run = GpuTopDown::new(gpu, device_graph)?.run_with(source, trace)?;
                        let levels =
                            if trace { top_down_trace(self.graph, &run.result, &run.levels) } else { Vec::new() };
                        PersistentRun { result: run.result, kernel_ms: run.kernel_ms, levels, download: run.download }
                    }
                };
                (run.result, Duration::from_secs_f64(run.kernel_ms / 1e3), run.download, run.levels)
            }
            Prepared::Cpu { transpose } => {
                let (result, levels) =
                    bfs_parallel_with(self.graph, transpose.as_ref(), source, &DirectionParams::default());
                // The CPU BFS claims vertices through their parent slots, so it cannot skip them;
                // it drops them instead, so that results look the same on every backend.
                let result = if self.distances_only { result.without_parents() } else { result };
                (result, started.elapsed(), Download::default(), levels)
            }
        };
        let end_to_end_time = if self.placed().is_some() { started.elapsed() } else { time };
        let traversal = Traversal { result, backend: self.backend(), time, end_to_end_time, download, warnings };
        Ok((traversal, levels))
    }

    /// Whether the GPU traversal was left to `auto` (the kernel or the top-down strategy).
    fn chose_automatically(&self) -> bool {
        matches!(self.gpu_kernel, GpuKernel::Auto(_) | GpuKernel::TopDown(TopDownStrategy::Auto))
    }

    /// The persistent kernel's parameters when it runs in place of auto's edge-queue pick.
    fn fallback_params(&self) -> PersistentParams {
        match self.gpu_kernel {
            GpuKernel::Auto(params) => params,
            _ => PersistentParams::top_down(),
        }
    }

    /// The kept arrays, taken out for a run (the caller puts them back after it).
    fn take_arrays(&self) -> KernelArrays {
        std::mem::take(&mut *self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    fn keep_arrays(&self, arrays: KernelArrays) {
        *self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = arrays;
    }

    /// One run of the persistent kernel over the kept arrays (made now if the last run used
    /// another kernel family, whose arrays are freed first); a directed graph whose transpose
    /// did not fit stays top-down.
    fn run_persistent(
        &self,
        on: &GpuGraph,
        source: u32,
        mut params: PersistentParams,
        trace: bool,
        reuse: LabelsTarget<'_>,
    ) -> std::result::Result<PersistentRun, GpuError> {
        let inbound = match on.in_lists() {
            Some(in_lists) => in_lists,
            None => {
                params.bottom_up = false;
                on.graph()
            }
        };
        let arrays = match self.take_arrays() {
            KernelArrays::Persistent(arrays) => arrays,
            other => {
                drop(other);
                PersistentArrays::new(on.gpu(), self.graph.num_vertices(), self.graph.num_edges(), self.distances_only)?
            }
        };
        let mut runner =
            GpuPersistent::with_arrays(on.gpu(), self.graph, on.graph(), inbound, on.max_out_degree(), arrays);
        let run = runner.run_reusing(source, params, trace, reuse)?;
        self.keep_arrays(KernelArrays::Persistent(runner.into_arrays()));
        Ok(run)
    }

    /// One run of the edge-queue kernel over the kept arrays (made now if the last run used
    /// another kernel family); on failure, the error with the result vectors to reuse.
    fn run_edge_queue<'a>(
        &self,
        on: &GpuGraph,
        source: u32,
        strategy: TopDownStrategy,
        trace: bool,
        reuse: LabelsTarget<'a>,
    ) -> std::result::Result<PersistentRun, (GpuError, LabelsTarget<'a>)> {
        let arrays = match self.take_arrays() {
            KernelArrays::EdgeQueue(arrays) => arrays,
            other => {
                drop(other);
                match EdgeQueueArrays::new(on.gpu(), self.graph, on.graph(), self.distances_only) {
                    Ok(arrays) => arrays,
                    Err(err) => return Err((err, reuse)),
                }
            }
        };
        let mut runner = GpuEdgeQueue::with_arrays(on.gpu(), self.graph, on.graph(), on.max_out_degree(), arrays);
        let run = runner
            .run_reusing(source, strategy, trace, reuse)
            .map_err(|err| (err, LabelsTarget::Vectors(empty_result(source))))?;
        self.keep_arrays(KernelArrays::EdgeQueue(runner.into_arrays()));
        Ok(run)
    }

    /// One run of the cluster kernel over the kept arrays (made now if the last run used
    /// another kernel family).
    fn run_cluster(
        &self,
        on: &GpuGraph,
        source: u32,
        trace: bool,
        reuse: LabelsTarget<'_>,
    ) -> std::result::Result<PersistentRun, GpuError> {
        // Before any array is made: a graph too big for one cluster is refused, not run out of memory.
        if let Some(refusal) = crate::bfs::gpu::cluster_refusal(on.gpu(), on.graph()) {
            return Err(GpuError::Unsupported(refusal));
        }
        let arrays = match self.take_arrays() {
            KernelArrays::Cluster(arrays) => arrays,
            other => {
                drop(other);
                ClusterArrays::new(on.gpu(), self.graph.num_vertices(), self.distances_only)?
            }
        };
        let mut runner = GpuCluster::with_arrays(on.gpu(), self.graph, on.graph(), arrays);
        let run = runner.run_reusing(source, trace, reuse)?;
        self.keep_arrays(KernelArrays::Cluster(runner.into_arrays()));
        Ok(run)
    }

    /// Time it took to place the graph (and its transpose, list heads) for the GPU: paid once,
    /// before the first run (None on the CPU).
    pub fn placement_time(&self) -> Option<Duration> {
        self.placed().map(GpuGraph::upload_time)
    }

    /// Device bytes the graph occupies on the GPU (None on the CPU).
    pub fn device_graph_bytes(&self) -> Option<u64> {
        self.placed().map(GpuGraph::bytes)
    }

    /// Device bytes warpath allocates for one traversal with the chosen GPU kernel: the graph,
    /// its transpose when one was uploaded, and the kernel's per-vertex arrays
    /// ([`GpuPersistent::bytes_needed`] or [`GpuTopDown::bytes_needed`]). Computed from the
    /// buffer sizes, not measured by the driver; None on the CPU.
    pub fn device_bytes(&self) -> Option<u64> {
        let n = self.graph.num_vertices() as u32;
        let m = self.graph.num_edges();
        let per_vertex = match self.resolved_gpu_kernel() {
            GpuKernel::Persistent(_) | GpuKernel::Auto(_) => GpuPersistent::bytes_needed_for(n, m, self.distances_only),
            GpuKernel::PerLevel => GpuTopDown::bytes_needed(n),
            GpuKernel::TopDown(_) => GpuEdgeQueue::bytes_needed(n, m, self.distances_only),
            GpuKernel::Cluster => GpuCluster::bytes_needed(n, self.distances_only),
        };
        Some(self.device_graph_bytes()? + per_vertex)
    }

    /// The GPU traversal chosen with [`Traverser::set_gpu_kernel`] (used only on the GPU).
    pub fn gpu_kernel(&self) -> GpuKernel {
        self.gpu_kernel
    }

    /// The GPU traversal that runs: the one chosen, with [`GpuKernel::Auto`] and a top-down
    /// strategy of `auto` resolved for this graph, and expand-contract as the persistent kernel
    /// never going bottom-up (its top-down path is that strategy).
    pub fn resolved_gpu_kernel(&self) -> GpuKernel {
        // Edge queues take 8-16 bytes an edge of device memory, and their kernel reads plain
        // lists: a graph that needed mapped host memory, or compression, cannot have them.
        let queues_fit = self.placement() != Some(Placement::ZeroCopy) && !self.is_compressed();
        let auto_pick = || match TopDownStrategy::Auto.resolve(self.graph) {
            TopDownStrategy::ContractExpand if !queues_fit => TopDownStrategy::ExpandContract,
            chosen => chosen,
        };
        // Expand-contract is the persistent kernel, with the given parameters or never going
        // bottom-up; the other strategies run over edge queues.
        let kernel_for = |strategy: TopDownStrategy, persistent: PersistentParams| match strategy {
            TopDownStrategy::ExpandContract => GpuKernel::Persistent(persistent),
            edge_queue => GpuKernel::TopDown(edge_queue),
        };
        match self.gpu_kernel {
            GpuKernel::Auto(_) if auto_pick() == TopDownStrategy::ContractExpand && self.auto_takes_the_cluster() => {
                GpuKernel::Cluster
            }
            GpuKernel::Auto(params) => kernel_for(auto_pick(), params),
            GpuKernel::TopDown(TopDownStrategy::Auto) => kernel_for(auto_pick(), PersistentParams::top_down()),
            GpuKernel::TopDown(strategy) => kernel_for(strategy, PersistentParams::top_down()),
            other => other,
        }
    }

    /// Whether `auto` runs the cluster kernel on this graph as placed
    /// ([`crate::bfs::strategy::auto_takes_the_cluster`]; plain lists in device memory, and
    /// nothing that refuses the kernel).
    fn auto_takes_the_cluster(&self) -> bool {
        self.placed().is_some_and(|on| {
            let device = on.graph();
            device.placement() == Placement::Device
                && crate::bfs::strategy::auto_takes_the_cluster(
                    on.gpu().compute_capability().0 >= 9,
                    self.graph.num_vertices() as u64,
                    on.max_out_degree(),
                )
                && crate::bfs::gpu::cluster_refusal(on.gpu(), device).is_none()
        })
    }

    /// The GPU context, when this traverser runs on the GPU (for device queries such as
    /// [`GpuContext::driver_version`] and [`GpuContext::memory_info`]).
    pub fn gpu(&self) -> Option<&GpuContext> {
        self.placed().map(GpuGraph::gpu)
    }
}

/// What the BFS asks of the engine: device memory for the largest of its kernels' arrays (so
/// that any kernel can run on the placed graph), and the in-lists that bottom-up steps read.
pub fn workspace(graph: &Graph, distances_only: bool) -> Workspace {
    let n = graph.num_vertices() as u32;
    Workspace {
        in_lists: true,
        ..Workspace::new(
            GpuPersistent::bytes_needed_for(n, graph.num_edges(), distances_only)
                .max(GpuTopDown::bytes_needed(n))
                .max(GpuCluster::bytes_needed(n, distances_only)),
            "the BFS labels, bitmaps and queues",
        )
    }
}

/// A result with no labels yet, whose vectors a run fills.
fn empty_result(source: u32) -> BfsResult {
    BfsResult { source, distances: Vec::new(), parents: Vec::new() }
}

/// The trace of a top-down GPU run, rebuilt from its distances: level `l` expanded the
/// vertices at distance `l` and inspected every out-edge of them.
fn top_down_trace(graph: &Graph, result: &BfsResult, levels: &[GpuLevel]) -> Vec<LevelTrace> {
    let mut edges = vec![0u64; levels.len()];
    for (v, &d) in result.distances.iter().enumerate() {
        if let Some(slot) = edges.get_mut(d as usize) {
            *slot += graph.degree(v as u32);
        }
    }
    levels
        .iter()
        .zip(edges)
        .enumerate()
        .map(|(level, (gpu_level, edges_inspected))| LevelTrace {
            level: level as u32,
            direction: Direction::TopDown,
            frontier: gpu_level.frontier as u64,
            // A top-down level inspects every out-edge of its frontier: that is its `m_f`.
            frontier_edges: edges_inspected,
            edges_inspected,
            bytes_read: 0,
            bus_bytes: 0,
            time: Duration::from_secs_f64(gpu_level.ms / 1e3),
            unvisited_edges: 0,
            generation: None,
            decision: None,
        })
        .collect()
}

/// One BFS from `source` on the chosen backend: the simplest way in from library code.
///
/// ```
/// use warpath::bfs::{bfs, Backend};
/// use warpath::generate::{generate, GeneratorSpec};
///
/// let graph = generate(&"grid2d:4x3".parse::<GeneratorSpec>()?, 1)?;
/// let traversal = bfs(&graph, 0, Backend::Auto)?;
/// assert_eq!(traversal.result.distances[11], 5); // opposite corner: 3 steps right, 2 down
/// assert_eq!(traversal.result.depth(), 5);
/// # Ok::<(), warpath::Error>(())
/// ```
pub fn bfs(graph: &Graph, source: u32, backend: Backend) -> Result<Traversal> {
    Traverser::new(graph, backend)?.run(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_results_equal_fresh_ones_and_keep_their_memory() {
        use crate::generate::{generate, GeneratorSpec};
        let graph = generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        let traverser = Traverser::new(&graph, Backend::Cpu).unwrap();
        let sources = crate::bfs::random_sources(&graph, 3, 4);
        let mut result = traverser.run(sources[0]).unwrap().result;
        for &source in &sources {
            let traversal = traverser.run_reusing(source, result).unwrap();
            let fresh = traverser.run(source).unwrap();
            // The parallel CPU BFS may pick another parent of the same level each run: the
            // distances are what must agree, and the reused tree must be a valid one.
            assert_eq!(traversal.result.distances, fresh.result.distances, "source {source}");
            crate::bfs::verify::validate(&graph, &traversal.result).unwrap();
            // The CPU downloads nothing, and its end-to-end time is its traversal.
            assert_eq!(traversal.download, Download::default());
            assert_eq!(traversal.end_to_end_time, traversal.time);
            result = traversal.result;
        }
        // On the CPU the pinned path keeps vectors; its labels are the same.
        for &source in &sources {
            let pinned = traverser.run_pinned(source).unwrap();
            // A second pinned run while this one's labels are held is refused (it used to wait
            // for them forever on this thread).
            assert!(traverser.run_pinned(source).err().expect("refused").to_string().contains("still held"));
            let fresh = traverser.run(source).unwrap().result;
            assert_eq!(pinned.distances().unwrap(), fresh.distances);
            assert_eq!(pinned.parents().unwrap().map(<[u32]>::len), Some(fresh.parents.len()));
            let reused = pinned.into_run(result).unwrap().result;
            assert_eq!(reused.distances, fresh.distances);
            crate::bfs::verify::validate(&graph, &reused).unwrap();
            result = fresh;
        }
    }

    #[test]
    fn auto_kernels_resolve_by_graph_size_and_expand_contract_is_the_persistent_top_down_path() {
        use crate::generate::{generate, GeneratorSpec};
        let graph = generate(&"grid2d:20x20".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        // Resolution needs no GPU: on the CPU nothing is zero-copy or compressed.
        let mut traverser = Traverser::new(&graph, Backend::Cpu).unwrap();
        let top_down_persistent =
            GpuKernel::Persistent(PersistentParams { bottom_up: false, ..PersistentParams::default() });
        let cases = [
            (GpuKernel::default(), GpuKernel::TopDown(TopDownStrategy::ContractExpand)),
            (GpuKernel::TopDown(TopDownStrategy::Auto), GpuKernel::TopDown(TopDownStrategy::ContractExpand)),
            (GpuKernel::TopDown(TopDownStrategy::ExpandContract), top_down_persistent),
            (GpuKernel::TopDown(TopDownStrategy::Hybrid), GpuKernel::TopDown(TopDownStrategy::Hybrid)),
            (GpuKernel::PerLevel, GpuKernel::PerLevel),
        ];
        for (chosen, runs) in cases {
            traverser.set_gpu_kernel(chosen);
            assert_eq!(traverser.resolved_gpu_kernel(), runs, "{chosen:?}");
        }
        let params = PersistentParams { alpha: 0.1, ..PersistentParams::default() };
        traverser.set_gpu_kernel(GpuKernel::Persistent(params));
        assert_eq!(traverser.resolved_gpu_kernel(), GpuKernel::Persistent(params));
    }
}
