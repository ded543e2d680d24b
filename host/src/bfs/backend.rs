//! Choosing where a BFS runs: the GPU when there is one, all CPU cores otherwise, and saying
//! which, and why, every time.

use std::time::{Duration, Instant};

use crate::bfs::cpu_parallel::{bfs_parallel_with, Direction, DirectionParams, LevelTrace};
use crate::bfs::gpu::edge_queue::GpuEdgeQueue;
use crate::bfs::gpu::per_level::{GpuLevel, GpuTopDown};
use crate::bfs::gpu::persistent::{GpuPersistent, PersistentParams, PersistentRun};
use crate::bfs::strategy::TopDownStrategy;
use crate::bfs::BfsResult;
use crate::error::Result;
use crate::gpu::{DeviceGraph, GpuContext, GpuError, Layout, Placement};
use crate::graph::{CompressedGraph, Graph, ListHeads};

/// Where the caller wants the traversal to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The GPU if one is usable, else the CPU (with a warning saying why).
    #[default]
    Auto,
    /// The GPU or an error.
    Gpu,
    /// The parallel CPU BFS.
    Cpu,
}

impl std::str::FromStr for Backend {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(Backend::Auto),
            "gpu" => Ok(Backend::Gpu),
            "cpu" => Ok(Backend::Cpu),
            other => {
                Err(crate::Error::InvalidArgument(format!("unknown backend `{other}`: expected auto, gpu or cpu")))
            }
        }
    }
}

/// Where a traversal did run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendUsed {
    Gpu { device: String },
    Cpu { threads: usize },
}

impl std::fmt::Display for BackendUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackendUsed::Gpu { device } => write!(f, "gpu ({device})"),
            BackendUsed::Cpu { threads } => write!(f, "cpu ({threads} threads)"),
        }
    }
}

/// A finished traversal and what it cost.
pub struct Traversal {
    pub result: BfsResult,
    pub backend: BackendUsed,
    /// The traversal alone: CUDA-event time on the GPU, wall time on the CPU.
    pub traversal_time: Duration,
    /// Including moving the graph to the device and the result back (equal to
    /// `traversal_time` on the CPU).
    pub end_to_end_time: Duration,
    /// Things the user should know, such as a fallback from the GPU to the CPU.
    pub warnings: Vec<String>,
}

/// A graph prepared for repeated traversals on one backend: the GPU context and the graph in
/// device memory, or the CPU with the transpose a directed graph needs for bottom-up steps.
pub struct Traverser<'g> {
    graph: &'g Graph,
    engine: Engine,
    gpu_kernel: GpuKernel,
    /// [`GpuOptions::distances_only`], applied on every backend.
    distances_only: bool,
    warnings: Vec<String>,
}

enum Engine {
    Gpu {
        gpu: Box<GpuContext>,
        device_graph: Box<DeviceGraph>,
        /// The transpose, for bottom-up steps on a directed graph (None when undirected, or
        /// when it did not fit: then the GPU stays top-down).
        device_transpose: Option<Box<DeviceGraph>>,
        /// Found once here rather than by every traversal.
        max_out_degree: u64,
        upload_time: Duration,
    },
    Cpu {
        transpose: Option<Graph>,
    },
}

/// Which GPU traversal runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GpuKernel {
    /// The default: the fastest of the two below for the graph, by its size
    /// ([`crate::bfs::strategy::auto_choice`]): the persistent direction-optimizing kernel with
    /// these parameters on big dense graphs, the contract-expand top-down strategy on the rest
    /// (small social graphs, roads, grids), where it beat direction optimization on the suite.
    /// A graph in mapped host memory or compressed, or whose edge queues do not fit, gets the
    /// persistent kernel.
    Auto(PersistentParams),
    /// The whole direction-optimizing BFS in one persistent kernel (the default).
    Persistent(PersistentParams),
    /// One top-down launch per level, the frontier size read back between levels (the
    /// foundation version, kept as a baseline).
    PerLevel,
    /// Top-down only, by one of Merrill et al.'s four strategies (or `auto`, resolved per
    /// graph): expand-contract is the persistent kernel's top-down path, the others run over
    /// edge queues ([`GpuEdgeQueue`]).
    TopDown(TopDownStrategy),
}

impl Default for GpuKernel {
    fn default() -> Self {
        GpuKernel::Auto(PersistentParams::default())
    }
}

/// Where the GPU path puts the graph, and what it labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuOptions {
    /// `None` chooses: device memory when the graph and the BFS arrays fit the budget, else
    /// zero-copy (the graph in mapped pinned host memory; the BFS arrays stay on the device).
    pub placement: Option<Placement>,
    /// Device bytes warpath may use; `None` is the free memory less a margin. A smaller value
    /// lets a big GPU behave like a small one (tests, capacity planning).
    pub vram_budget: Option<u64>,
    /// Give the GPU the delta-varint compressed lists (fewer bytes to hold and to move over the
    /// bus, decoded by the kernels) instead of the plain CSR. Persistent kernel only.
    pub compressed: bool,
    /// Label distances only: the persistent kernel writes no parents and the device holds no
    /// parents array (4n bytes less), and every result comes back without parents
    /// ([`BfsResult::has_parents`]); the CPU computes them and drops them. The per-level GPU
    /// kernel always writes parents, so it refuses this option.
    pub distances_only: bool,
    /// Do not keep the first in-neighbors of every list in device memory when the lists are
    /// zero-copy (for measuring what they save; see [`crate::graph::heads`]).
    pub no_list_heads: bool,
}

/// Device memory left free when the budget is not given: other processes and the driver's own
/// allocations (module, stacks) need some.
const VRAM_MARGIN: u64 = 512 << 20;

/// Where the graph goes, given what it and the per-vertex BFS arrays need and the budget.
/// The per-vertex arrays (labels, bitmaps, queues) always stay in device memory: when they do
/// not fit, no placement helps and the answer is an error naming both sizes.
pub fn choose_placement(
    graph_bytes: u64,
    per_vertex_bytes: u64,
    budget: u64,
    requested: Option<Placement>,
) -> std::result::Result<Placement, GpuError> {
    if per_vertex_bytes > budget {
        return Err(GpuError::OutOfMemory {
            what: "the BFS labels, bitmaps and queues, which must be in device memory (the VRAM budget)".into(),
            needed: per_vertex_bytes,
            free: budget,
        });
    }
    let fits = graph_bytes + per_vertex_bytes <= budget;
    match requested {
        Some(Placement::Device) if !fits => Err(GpuError::OutOfMemory {
            what: "the graph and the BFS arrays in device memory (the VRAM budget; --placement zero-copy would fit)"
                .into(),
            needed: graph_bytes + per_vertex_bytes,
            free: budget,
        }),
        Some(placement) => Ok(placement),
        None if fits => Ok(Placement::Device),
        None => Ok(Placement::ZeroCopy),
    }
}

impl<'g> Traverser<'g> {
    /// Prepares `graph` for `backend`. With [`Backend::Auto`], a missing GPU or one without
    /// room for the graph falls back to the CPU, with a warning in [`Traversal::warnings`].
    pub fn new(graph: &'g Graph, backend: Backend) -> Result<Self> {
        Self::with_options(graph, backend, GpuOptions::default())
    }

    /// [`new`](Self::new) with a choice of graph placement and device-memory budget.
    pub fn with_options(graph: &'g Graph, backend: Backend, options: GpuOptions) -> Result<Self> {
        let mut warnings = Vec::new();
        if backend != Backend::Cpu {
            match Self::prepare_gpu(graph, options, &mut warnings) {
                Ok(engine) => {
                    let distances_only = options.distances_only;
                    return Ok(Traverser { graph, engine, gpu_kernel: GpuKernel::default(), distances_only, warnings });
                }
                Err(err) if backend == Backend::Auto => {
                    if err.is_unavailable() {
                        warnings.push(format!("no usable GPU ({err}); running on the CPU"));
                    } else {
                        warnings.push(format!("the GPU could not run this BFS ({err}); falling back to the CPU"));
                    }
                }
                Err(err) => return Err(err.into()),
            }
        }
        if options.compressed {
            warnings.push("compressed lists are read by the GPU kernels only: the CPU traverses the plain CSR".into());
        }
        let transpose = (!graph.is_undirected()).then(|| graph.transpose());
        Ok(Traverser {
            graph,
            engine: Engine::Cpu { transpose },
            gpu_kernel: GpuKernel::default(),
            distances_only: options.distances_only,
            warnings,
        })
    }

    fn prepare_gpu(
        graph: &Graph,
        options: GpuOptions,
        warnings: &mut Vec<String>,
    ) -> std::result::Result<Engine, GpuError> {
        let gpu = GpuContext::new()?;
        let budget = match options.vram_budget {
            Some(budget) => budget,
            None => gpu.memory_info()?.0.saturating_sub(VRAM_MARGIN),
        };
        // A directed graph brings its transpose (in-edges for bottom-up steps), as big again.
        let transpose = (!graph.is_undirected()).then(|| graph.transpose());
        let compressed = options
            .compressed
            .then(|| (CompressedGraph::encode(graph), transpose.as_ref().map(CompressedGraph::encode)));
        let copies = if graph.is_undirected() { 1 } else { 2 };
        // Every placed graph keeps its bitmap of empty lists in device memory.
        let empty_lists = copies * crate::gpu::empty_lists_bytes(graph.num_vertices());
        let (graph_bytes, resident_extras) = match &compressed {
            Some((out, inbound)) => {
                let both = [Some(out), inbound.as_ref()];
                let bytes = both.iter().flatten().map(|c| c.compressed_bytes()).sum::<u64>();
                // Degrees and restart points stay in device memory whatever the placement.
                let extras =
                    both.iter().flatten().map(|c| 4 * c.num_vertices() as u64 + c.num_edges() / 16).sum::<u64>();
                (bytes, extras + empty_lists)
            }
            None => (
                copies * (std::mem::size_of_val(graph.offsets()) + std::mem::size_of_val(graph.targets())) as u64,
                empty_lists,
            ),
        };
        let n = graph.num_vertices() as u32;
        let per_vertex = GpuPersistent::bytes_needed_for(n, graph.num_edges(), options.distances_only)
            .max(GpuTopDown::bytes_needed(n))
            + resident_extras;
        let placement = choose_placement(graph_bytes, per_vertex, budget, options.placement)?;
        // Zero-copy lists still get their offsets in device memory when those fit: every
        // bottom-up step reads the offsets of every unvisited vertex.
        let offsets_bytes = 8 * (graph.num_vertices() as u64 + 1) * copies;
        let offsets = if placement == Placement::Device || per_vertex + offsets_bytes <= budget {
            Placement::Device
        } else {
            Placement::ZeroCopy
        };
        let layout = Layout { offsets, lists: placement };
        if placement == Placement::ZeroCopy && options.placement.is_none() {
            warnings.push(format!(
                "the graph ({graph_bytes} bytes) and the BFS arrays ({per_vertex} bytes) exceed the {budget}-byte VRAM budget: \
                 the neighbor lists stay in pinned host memory mapped into the GPU (zero-copy), read over the bus; \
                 the offsets are in {} memory",
                if offsets == Placement::Device { "device" } else { "host" }
            ));
        }
        let started = Instant::now();
        let place = |plain: &Graph, packed: Option<&CompressedGraph>| match packed {
            Some(packed) => gpu.place_compressed(packed, layout),
            None => gpu.place_graph(plain, layout),
        };
        let device_graph = place(graph, compressed.as_ref().map(|(out, _)| out))?;
        let device_transpose = match &transpose {
            None => None,
            Some(transpose) => match place(transpose, compressed.as_ref().and_then(|(_, inbound)| inbound.as_ref())) {
                Ok(placed) => Some(Box::new(placed)),
                Err(err) => {
                    warnings.push(format!(
                        "no room for the transpose of this directed graph ({err}); the GPU BFS stays top-down"
                    ));
                    None
                }
            },
        };
        let mut device_graph = device_graph;
        let mut device_transpose = device_transpose;
        // Bottom-up steps read in-lists: the transpose's for a directed graph, else the graph's.
        let inbound = match (&mut device_transpose, &transpose) {
            (Some(placed), Some(plain)) => Some((&mut **placed, plain)),
            (None, Some(_)) => None,
            (_, None) => Some((&mut device_graph, graph)),
        };
        if let Some((placed, plain)) = inbound {
            let heads_bytes = ListHeads::bytes_for(plain.num_vertices() as u64, options.compressed);
            let resident = per_vertex + if offsets == Placement::Device { offsets_bytes } else { 0 };
            if placement == Placement::ZeroCopy && !options.no_list_heads && resident + heads_bytes <= budget {
                let heads = match compressed.as_ref().map(|(out, inbound)| inbound.as_ref().unwrap_or(out)) {
                    Some(packed) => ListHeads::of_compressed(packed),
                    None => ListHeads::of_graph(plain),
                };
                gpu.attach_list_heads(placed, &heads)?;
            }
        }
        gpu.synchronize()?;
        Ok(Engine::Gpu {
            gpu: Box::new(gpu),
            device_graph: Box::new(device_graph),
            device_transpose,
            max_out_degree: graph.max_degree(),
            upload_time: started.elapsed(),
        })
    }

    /// Bytes of the graph's offsets and lists (and its transpose's) as the GPU holds them,
    /// wherever they are placed: compressed or plain (None on the CPU).
    pub fn gpu_graph_stored_bytes(&self) -> Option<u64> {
        match &self.engine {
            Engine::Gpu { device_graph, device_transpose, .. } => {
                Some(device_graph.csr_bytes() + device_transpose.as_ref().map_or(0, |t| t.csr_bytes()))
            }
            Engine::Cpu { .. } => None,
        }
    }

    /// Whether the first in-neighbors of the lists are in device memory beside zero-copy lists
    /// (false on the CPU).
    pub fn has_list_heads(&self) -> bool {
        match &self.engine {
            Engine::Gpu { device_graph, device_transpose, .. } => {
                device_transpose.as_deref().unwrap_or(device_graph).has_list_heads()
            }
            Engine::Cpu { .. } => false,
        }
    }

    /// Whether the GPU reads delta-varint compressed lists (false on the CPU).
    pub fn is_compressed(&self) -> bool {
        matches!(&self.engine, Engine::Gpu { device_graph, .. } if device_graph.is_compressed())
    }

    /// Where the graph's offsets and lists are for the GPU (None on the CPU).
    pub fn layout(&self) -> Option<Layout> {
        match &self.engine {
            Engine::Gpu { device_graph, .. } => Some(device_graph.layout()),
            Engine::Cpu { .. } => None,
        }
    }

    /// Where the graph's lists are for the GPU (None on the CPU).
    pub fn placement(&self) -> Option<Placement> {
        match &self.engine {
            Engine::Gpu { device_graph, .. } => Some(device_graph.placement()),
            Engine::Cpu { .. } => None,
        }
    }

    /// Chooses the GPU traversal (no effect on the CPU).
    pub fn set_gpu_kernel(&mut self, kernel: GpuKernel) {
        self.gpu_kernel = kernel;
    }

    /// Whether traversals label distances only ([`GpuOptions::distances_only`]).
    pub fn distances_only(&self) -> bool {
        self.distances_only
    }

    pub fn backend(&self) -> BackendUsed {
        match &self.engine {
            Engine::Gpu { gpu, .. } => BackendUsed::Gpu { device: gpu.name().to_string() },
            Engine::Cpu { .. } => BackendUsed::Cpu { threads: rayon::current_num_threads() },
        }
    }

    /// Warnings raised while preparing (a fallback to the CPU, say).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// One BFS from `source` (an internal id; check it with [`crate::bfs::check_source`]).
    pub fn run(&self, source: u32) -> Result<Traversal> {
        Ok(self.run_inner(source, false)?.0)
    }

    /// One BFS with a per-level trace: direction, frontier size, edges inspected and time.
    /// On the GPU each level is timed with its own events, which adds a little to the total.
    pub fn run_traced(&self, source: u32) -> Result<(Traversal, Vec<LevelTrace>)> {
        self.run_inner(source, true)
    }

    fn run_inner(&self, source: u32, trace: bool) -> Result<(Traversal, Vec<LevelTrace>)> {
        crate::bfs::check_source(self.graph, source)?;
        let mut warnings = self.warnings.clone();
        let started = Instant::now();
        let (result, traversal_time, end_to_end_time, levels) = match &self.engine {
            Engine::Gpu { gpu, device_graph, upload_time, max_out_degree, .. } => {
                let kernel = self.resolved_gpu_kernel();
                let (result, kernel_ms, levels) = match kernel {
                    GpuKernel::TopDown(strategy) => {
                        let queues = GpuEdgeQueue::with_max_out_degree(
                            gpu,
                            self.graph,
                            device_graph,
                            *max_out_degree,
                            self.distances_only,
                        );
                        let run = match queues {
                            Ok(mut queues) => queues.run(source, strategy)?,
                            // Auto's pick gives way to the persistent kernel, which needs no
                            // queues; a strategy the user named fails with the sizes.
                            Err(GpuError::OutOfMemory { .. }) if self.chose_automatically() => {
                                warnings.push(format!(
                                    "no room for the {strategy} strategy's edge queues: the persistent kernel ran instead"
                                ));
                                let params = match self.gpu_kernel {
                                    GpuKernel::Auto(params) => params,
                                    _ => PersistentParams::top_down(),
                                };
                                self.run_persistent(source, params)?
                            }
                            Err(err) => return Err(err.into()),
                        };
                        (run.result, run.kernel_ms, run.levels)
                    }
                    GpuKernel::Persistent(params) | GpuKernel::Auto(params) => {
                        let zero_copy = self.placement() == Some(crate::gpu::Placement::ZeroCopy);
                        if let Some(problem) = params.double_scan_conflict(zero_copy) {
                            return Err(crate::Error::InvalidArgument(problem.into()));
                        }
                        let run = self.run_persistent(source, params)?;
                        (run.result, run.kernel_ms, run.levels)
                    }
                    GpuKernel::PerLevel if self.distances_only => {
                        return Err(crate::Error::InvalidArgument(
                            "the per-level GPU kernel always writes parents, so it has no distances-only variant: \
                             drop --distances-only, or use the persistent kernel (--gpu-kernel persistent)"
                                .into(),
                        ));
                    }
                    GpuKernel::PerLevel if device_graph.is_compressed() => {
                        return Err(crate::Error::InvalidArgument(
                            "the per-level GPU kernel reads only plain CSR lists: drop --compressed, or use the \
                             persistent kernel (--gpu-kernel persistent)"
                                .into(),
                        ));
                    }
                    GpuKernel::PerLevel => {
                        let run = GpuTopDown::new(gpu, device_graph)?.run_with(source, trace)?;
                        let levels =
                            if trace { top_down_trace(self.graph, &run.result, &run.levels) } else { Vec::new() };
                        (run.result, run.kernel_ms, levels)
                    }
                };
                let traversal = Duration::from_secs_f64(kernel_ms / 1e3);
                (result, traversal, started.elapsed() + *upload_time, levels)
            }
            Engine::Cpu { transpose } => {
                let (result, levels) =
                    bfs_parallel_with(self.graph, transpose.as_ref(), source, &DirectionParams::default());
                // The CPU BFS claims vertices through their parent slots, so it cannot skip them;
                // it drops them instead, so that results look the same on every backend.
                let result = if self.distances_only { result.without_parents() } else { result };
                let elapsed = started.elapsed();
                (result, elapsed, elapsed, levels)
            }
        };
        let traversal = Traversal { result, backend: self.backend(), traversal_time, end_to_end_time, warnings };
        Ok((traversal, levels))
    }

    /// Whether the GPU traversal was left to `auto` (the kernel or the top-down strategy).
    fn chose_automatically(&self) -> bool {
        matches!(self.gpu_kernel, GpuKernel::Auto(_) | GpuKernel::TopDown(TopDownStrategy::Auto))
    }

    /// One run of the persistent kernel; a directed graph whose transpose did not fit stays
    /// top-down.
    fn run_persistent(
        &self,
        source: u32,
        mut params: PersistentParams,
    ) -> std::result::Result<PersistentRun, GpuError> {
        let Engine::Gpu { gpu, device_graph, device_transpose, max_out_degree, .. } = &self.engine else {
            unreachable!("run_persistent is called on the GPU engine only");
        };
        let inbound = match device_transpose {
            Some(transpose) => transpose,
            None => {
                params.bottom_up &= self.graph.is_undirected();
                device_graph
            }
        };
        GpuPersistent::with_labels(gpu, self.graph, device_graph, inbound, *max_out_degree, self.distances_only)?
            .run(source, params)
    }

    /// Device bytes the graph occupies on the GPU (None on the CPU).
    pub fn device_graph_bytes(&self) -> Option<u64> {
        match &self.engine {
            Engine::Gpu { device_graph, device_transpose, .. } => {
                Some(device_graph.bytes() + device_transpose.as_ref().map_or(0, |t| t.bytes()))
            }
            Engine::Cpu { .. } => None,
        }
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
        let queues_fit = self.placement() != Some(crate::gpu::Placement::ZeroCopy) && !self.is_compressed();
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
            GpuKernel::Auto(params) => kernel_for(auto_pick(), params),
            GpuKernel::TopDown(TopDownStrategy::Auto) => kernel_for(auto_pick(), PersistentParams::top_down()),
            GpuKernel::TopDown(strategy) => kernel_for(strategy, PersistentParams::top_down()),
            other => other,
        }
    }

    /// The GPU context, when this traverser runs on the GPU (for device queries such as
    /// [`GpuContext::driver_version`] and [`GpuContext::memory_info`]).
    pub fn gpu(&self) -> Option<&GpuContext> {
        match &self.engine {
            Engine::Gpu { gpu, .. } => Some(gpu.as_ref()),
            Engine::Cpu { .. } => None,
        }
    }
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

    #[test]
    fn placement_prefers_device_memory_and_falls_back_to_zero_copy() {
        assert_eq!(choose_placement(600, 300, 1000, None).unwrap(), Placement::Device);
        assert_eq!(choose_placement(800, 300, 1000, None).unwrap(), Placement::ZeroCopy);
        assert_eq!(choose_placement(800, 300, 1000, Some(Placement::ZeroCopy)).unwrap(), Placement::ZeroCopy);
        assert_eq!(choose_placement(100, 300, 1000, Some(Placement::ZeroCopy)).unwrap(), Placement::ZeroCopy);
    }

    #[test]
    fn placement_errors_name_the_sizes() {
        let err = choose_placement(800, 300, 1000, Some(Placement::Device)).unwrap_err();
        assert!(matches!(err, GpuError::OutOfMemory { needed: 1100, free: 1000, .. }), "{err:?}");
        assert!(err.to_string().contains("zero-copy"), "{err}");
        let err = choose_placement(10, 2000, 1000, None).unwrap_err();
        assert!(matches!(err, GpuError::OutOfMemory { needed: 2000, free: 1000, .. }), "{err:?}");
        assert!(err.to_string().contains("labels"), "{err}");
    }
}
