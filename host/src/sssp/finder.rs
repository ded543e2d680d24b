//! Shortest paths on the engine: a graph prepared once ([`crate::engine::prepare`], its
//! device memory budgeted by [`crate::sssp::gpu::workspace`]), then as many runs as the caller
//! wants, on the GPU or by parallel delta-stepping on the CPU.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crate::engine::kept::take_kept;
use crate::engine::Answer;
use crate::engine::{prepare, Backend, BackendUsed, GpuGraph, PlacementOptions, Prepared, Run};
use crate::error::{Error, Result};
use crate::gpu::Download;
use crate::graph::Graph;
use crate::sssp::gpu::{GpuSsspTrace, PinnedResults, SsspArrays};
use crate::sssp::{
    check_limits, check_source, check_sources, cpu_delta, delta_for, gpu, DistancesRef, SsspOptions, SsspRun,
};

/// A finished run and what it cost: the engine's one run shape with an [`SsspRun`] (its `time`
/// the kernels', or the CPU code's; its warnings also say when an unweighted graph ran with unit
/// weights or the CPU ran another strategy than the GPU's).
pub type PathsRun = Run<SsspRun>;

impl Run<SsspRun> {
    /// The source, an internal id (the first of `result.sources`, the smallest, with several).
    pub fn source(&self) -> u32 {
        self.result.sources[0]
    }
}

/// A graph prepared for repeated shortest-path runs on one backend.
pub struct PathFinder<'g> {
    graph: &'g Graph,
    /// Shared with the other algorithms' views of a [`crate::PlacedGraph`].
    prepared: Arc<Prepared>,
    warnings: Vec<String>,
    /// The GPU runs' device arrays, made by the first run and kept for the next.
    arrays: Mutex<SsspArrays>,
    /// The results of the last [`run_pinned`](PathFinder::run_pinned), in pinned host memory
    /// kept from one such run to the next.
    pinned: Mutex<PinnedResults>,
}

/// A run whose results stay where [`PathFinder::run_pinned`] read them: in pinned host memory
/// the finder keeps (on the GPU), read in place; on the CPU, and for cutoffs and targets, in
/// the run's own vectors. Holding it holds the finder's pinned buffers: the next `run_pinned`
/// is refused until it is dropped.
pub struct PinnedPaths<'f> {
    /// Times, download and warnings; where the results are pinned, its distances and parents
    /// are empty (they are here).
    pub run: PathsRun,
    pinned: Option<MutexGuard<'f, PinnedResults>>,
}

impl PinnedPaths<'_> {
    /// Each vertex's distance from the nearest source ([`Distances`]' conventions).
    pub fn distances(&self) -> Result<DistancesRef<'_>> {
        match &self.pinned {
            Some(pinned) => Ok(pinned.distances()?),
            None => Ok(self.run.result.distances.view()),
        }
    }

    /// Each vertex's parent ([`crate::graph::UNREACHED`] where unreached); `None` after a
    /// distances-only run.
    pub fn parents(&self) -> Result<Option<&[u32]>> {
        match &self.pinned {
            Some(pinned) => Ok(pinned.parents()?),
            None => Ok((!self.run.result.parents.is_empty()).then_some(&self.run.result.parents[..])),
        }
    }

    /// The run with its results copied into `reuse`'s vectors (their memory reused), freeing
    /// the finder's pinned buffers for the next run.
    pub fn into_run(self, mut reuse: SsspRun) -> Result<PathsRun> {
        let Some(pinned) = &self.pinned else {
            return Ok(self.run);
        };
        let distances = pinned.distances()?.copy_into(std::mem::take(&mut reuse.distances));
        reuse.parents.clear();
        if let Some(parents) = pinned.parents()? {
            reuse.parents.extend_from_slice(parents);
        }
        let result = SsspRun { distances, parents: reuse.parents, ..self.run.result.clone() };
        Ok(PathsRun { result, ..self.run })
    }
}

impl<'g> PathFinder<'g> {
    /// Prepares `graph` for `backend` with the default placement. With [`Backend::Auto`], a
    /// missing GPU or one without room falls back to the CPU, with a warning.
    pub fn new(graph: &'g Graph, backend: Backend, options: &SsspOptions) -> Result<Self> {
        Self::with_placement(graph, backend, &PlacementOptions::default(), options)
    }

    /// [`new`](Self::new) with a choice of placement and device-memory budget; the device
    /// arrays are budgeted for `options.strategy`.
    pub fn with_placement(
        graph: &'g Graph,
        backend: Backend,
        placement: &PlacementOptions,
        options: &SsspOptions,
    ) -> Result<Self> {
        let workspace = gpu::workspace(graph, options)?;
        let (prepared, warnings) = prepare(graph, backend, placement, workspace)?;
        Self::on_prepared(graph, Arc::new(prepared), warnings)
    }

    /// A finder over a graph another owner prepared (budgeted for at least
    /// [`gpu::workspace`]'s arrays), sharing its placement. A graph placed as compressed lists,
    /// or a weighted graph placed without its weights, is refused: the kernels read plain lists
    /// and their weights.
    pub(crate) fn on_prepared(graph: &'g Graph, prepared: Arc<Prepared>, mut warnings: Vec<String>) -> Result<Self> {
        if let Some(on_gpu) = prepared.gpu() {
            let placed = on_gpu.graph();
            if placed.is_compressed() || (graph.is_weighted() && placed.weight_kind().is_none()) {
                return Err(Error::InvalidArgument(
                    "shortest paths read the plain lists and their weights, and this graph was placed on the GPU \
                     without them (compressed lists hold no weights): place it uncompressed"
                        .into(),
                ));
            }
        }
        if !graph.is_weighted() {
            warnings.push("the graph has no edge weights: every edge weighs 1, so distances count edges".into());
        }
        Ok(PathFinder { graph, prepared, warnings, arrays: Mutex::default(), pinned: Mutex::default() })
    }

    /// Frees the device arrays kept between runs (the next run makes them again), so that
    /// another algorithm on the same placed graph has their memory.
    pub(crate) fn release_arrays(&self) {
        *self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = SsspArrays::default();
    }

    pub fn backend(&self) -> BackendUsed {
        self.prepared.backend()
    }

    /// The graph as placed for the GPU, once for every run (None on the CPU).
    pub fn placed(&self) -> Option<&GpuGraph> {
        self.prepared.gpu()
    }

    /// Warnings raised while preparing.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// `options` as they run here: on the GPU with [`crate::sssp::SsspStrategy::Auto`] replaced
    /// by the strategy it takes on this graph and GPU ([`gpu::resolve`]), for reports that name
    /// what ran; on the CPU as they are (the CPU runs delta-stepping whatever the strategy).
    pub fn resolved(&self, options: &SsspOptions) -> SsspOptions {
        match self.prepared.gpu() {
            Some(on_gpu) => gpu::resolve(on_gpu, options),
            None => *options,
        }
    }

    /// The bucket width delta-stepping runs with on this backend for `options`: the requested
    /// one, or the backend's own rule (the GPU's, [`gpu::delta`], reads the placed weights; the
    /// CPU's is [`delta_for`]). Reports show this one, not another backend's.
    pub fn delta(&self, options: &SsspOptions) -> Result<f64> {
        match self.prepared.gpu() {
            Some(on_gpu) => gpu::delta(on_gpu, options),
            None => delta_for(self.graph, options.delta),
        }
    }

    /// Shortest paths from `source` (an internal id; out of range is an error).
    pub fn run(&self, source: u32, options: &SsspOptions) -> Result<PathsRun> {
        Ok(self.run_traced(source, options)?.0)
    }

    /// Shortest paths from the nearest of several `sources` (internal ids; each out of range is
    /// an error, repeats count once): `run.nearest_source` says which source each vertex is
    /// nearest to.
    pub fn run_from(&self, sources: &[u32], options: &SsspOptions) -> Result<PathsRun> {
        Ok(self.run_traced_from(sources, options)?.0)
    }

    /// Shortest paths from `source` with the results read back into pinned host memory the
    /// finder keeps (made by the first such run), split into distances and parents on the
    /// device first, and read in place from the [`PinnedPaths`]: no pass of the host's over
    /// them, so the quickest way to an answer on a placed graph. With a cutoff or a target,
    /// and on the CPU, the results are the run's own vectors instead.
    ///
    /// ```
    /// use warpath::generate::{generate, GeneratorSpec};
    /// use warpath::sssp::{Backend, PathFinder, SsspOptions};
    ///
    /// let graph = generate(&"grid2d:4x3".parse::<GeneratorSpec>()?, 1)?;
    /// let options = SsspOptions::default();
    /// let finder = PathFinder::new(&graph, Backend::Auto, &options)?;
    /// for source in [0, 11] {
    ///     let found = finder.run_pinned(source, &options)?;
    ///     assert_eq!(found.distances()?.get(11 - source as usize), Some(5.0));
    /// }
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn run_pinned(&self, source: u32, options: &SsspOptions) -> Result<PinnedPaths<'_>> {
        let on_gpu = match self.prepared.gpu() {
            Some(on_gpu) if options.cutoff.is_none() && options.target.is_none() => on_gpu,
            _ => return Ok(PinnedPaths { run: self.run(source, options)?, pinned: None }),
        };
        let mut pinned = take_kept(&self.pinned, "shortest paths")?;
        check_source(self.graph, source)?;
        check_limits(self.graph, options)?;
        let started = Instant::now();
        let (run, _, download) = {
            let mut arrays = self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            gpu::shortest_paths_pinned(on_gpu, &mut arrays, &mut pinned, source, options)?
        };
        let end_to_end_time = started.elapsed();
        let Answer { result, time } = run;
        let run = PathsRun {
            time,
            result,
            backend: self.backend(),
            end_to_end_time,
            download,
            warnings: self.warnings.clone(),
        };
        Ok(PinnedPaths { run, pinned: Some(pinned) })
    }

    /// [`run`](Self::run) with what the GPU's kernels recorded per bucket or iteration (they
    /// always record it, so it costs nothing more); `None` on the CPU, which records no trace.
    pub fn run_traced(&self, source: u32, options: &SsspOptions) -> Result<(PathsRun, Option<GpuSsspTrace>)> {
        check_source(self.graph, source)?;
        self.run_traced_from(&[source], options)
    }

    /// [`run_from`](Self::run_from) with the GPU's trace, as [`run_traced`](Self::run_traced).
    pub fn run_traced_from(&self, sources: &[u32], options: &SsspOptions) -> Result<(PathsRun, Option<GpuSsspTrace>)> {
        let sources = check_sources(self.graph, sources)?;
        check_limits(self.graph, options)?;
        let mut warnings = self.warnings.clone();
        let started = Instant::now();
        let (run, trace, download) = match self.prepared.gpu() {
            Some(on_gpu) => {
                // A run that panicked left nothing the next one reads (see `SsspArrays`).
                let mut arrays = self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let (run, trace, download) = gpu::shortest_paths_in(on_gpu, &mut arrays, &sources, options)?;
                (run, Some(trace), download)
            }
            None => {
                // Near-far and delta-stepping are one family: the CPU's delta-stepping answers both.
                if !options.strategy.is_bucketed() {
                    warnings.push(format!(
                        "the {} strategy is the GPU's: the CPU runs delta-stepping",
                        options.strategy.name()
                    ));
                }
                (cpu_delta::delta_stepping_from(self.graph, &sources, options)?, None, Download::default())
            }
        };
        let Answer { result, time } = run;
        let end_to_end_time = match self.prepared.gpu() {
            Some(_) => started.elapsed(),
            None => time,
        };
        let run = PathsRun { time, result, backend: self.backend(), end_to_end_time, download, warnings };
        Ok((run, trace))
    }

    /// Takes back a finished run, whose memory the next GPU run reads its results into (sparing
    /// the download an allocation and its page faults); on the CPU it is dropped.
    pub fn recycle(&self, run: SsspRun) {
        if self.prepared.gpu().is_some() {
            self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).recycle(run);
        }
    }
}

/// Shortest paths from `source` (an internal id) on `backend` with the default options: the
/// simplest entry to the library.
pub fn shortest_paths(graph: &Graph, source: u32, backend: Backend) -> Result<PathsRun> {
    let options = SsspOptions::default();
    PathFinder::new(graph, backend, &options)?.run(source, &options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};
    use crate::sssp::Distances;

    #[test]
    fn unweighted_graphs_run_with_unit_weights_and_say_so() {
        let g = GraphBuilder::new().build(EdgeList::new(3, vec![(0, 1), (1, 2)], true)).unwrap();
        let found = shortest_paths(&g, 0, Backend::Cpu).unwrap();
        assert_eq!(found.result.distances, Distances::Int(vec![0, 1, 2]));
        assert_eq!(found.result.parents, vec![0, 0, 1]);
        assert!(found.warnings.iter().any(|w| w.contains("weighs 1")), "{:?}", found.warnings);
        assert!(matches!(found.backend, BackendUsed::Cpu { .. }));
        assert!(shortest_paths(&g, 3, Backend::Cpu).unwrap_err().to_string().contains("out of range"));
    }

    #[test]
    fn pinned_runs_on_the_cpu_keep_their_vectors() {
        let edges = EdgeList::new(4, vec![(0, 1), (1, 2), (0, 3)], true);
        let g = GraphBuilder::new().build(edges.with_weights(crate::graph::Weights::U32(vec![2, 3, 9]))).unwrap();
        let options = SsspOptions::default();
        let finder = PathFinder::new(&g, Backend::Cpu, &options).unwrap();
        let found = finder.run_pinned(0, &options).unwrap();
        assert_eq!(found.distances().unwrap(), DistancesRef::Int(&[0, 2, 5, 9]));
        assert_eq!(found.parents().unwrap(), Some(&[0, 0, 1, 0][..]));
        let only = SsspOptions { distances_only: true, ..options };
        assert_eq!(finder.run_pinned(2, &only).unwrap().parents().unwrap(), None);
        let copied = found.into_run(SsspRun::default()).unwrap();
        assert_eq!(copied.result.distances, Distances::Int(vec![0, 2, 5, 9]));
    }

    #[test]
    fn the_cpu_reports_its_own_delta() {
        let edges = EdgeList::new(3, vec![(0, 1), (1, 2)], true);
        let g = GraphBuilder::new().build(edges.with_weights(crate::graph::Weights::U32(vec![10, 30]))).unwrap();
        let options = SsspOptions::default();
        let finder = PathFinder::new(&g, Backend::Cpu, &options).unwrap();
        assert_eq!(finder.delta(&options).unwrap(), delta_for(&g, None).unwrap());
        let asked = SsspOptions { delta: Some(6.5), ..options };
        assert_eq!(finder.delta(&asked).unwrap(), 7.0, "integer weights round up");
    }

    #[test]
    fn a_gpu_strategy_on_the_cpu_is_noted() {
        let g = GraphBuilder::new().build(EdgeList::new(2, vec![(0, 1)], true)).unwrap();
        let options = SsspOptions { strategy: crate::sssp::SsspStrategy::NodeSplitting, ..Default::default() };
        let finder = PathFinder::new(&g, Backend::Cpu, &options).unwrap();
        let found = finder.run(1, &options).unwrap();
        assert!(found.warnings.iter().any(|w| w.contains("node-splitting")), "{:?}", found.warnings);
    }
}
