//! The benchmark report as JSON: one [`BenchReport`] per `warpath bench` run, written with
//! serde and read back by [`read_report`] so results can be compared across commits. The
//! schema is documented field by field in `bench/SCHEMA.md`; [`SCHEMA_VERSION`] changes
//! whenever a field changes meaning or disappears (adding a field does not change it).
//! Version 2 filled `peak_device_bytes` (always null in version 1) and added the GPU kernel to
//! `flags` and the CUDA driver version to `device`; version 1 reports still read, with those
//! fields null.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::bench::harness::{BenchRun, BusRecord, GraphOnGpu, RootRecord, Summary, TraceRecord};
use crate::bench::kernel::GpuTraversal;
use crate::bfs::gpu::persistent::BottomUpBalance;
use crate::bfs::{BackendUsed, GpuKernel, SwitchRule, Traverser};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// The version of the schema this build writes and reads.
pub const SCHEMA_VERSION: u32 = 2;

/// The oldest schema version [`read_report`] still reads (fields added since read as null).
pub const OLDEST_READABLE_SCHEMA_VERSION: u32 = 1;

/// Everything one benchmark run measured, and under what conditions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub schema_version: u32,
    /// `warpath` and its version.
    pub tool: String,
    pub version: String,
    /// The git commit of the build (see [`crate::bench::meta::commit`]).
    pub commit: String,
    /// When the run finished, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    pub graph: GraphInfo,
    pub device: DeviceInfo,
    pub flags: Flags,
    /// Milliseconds to read or generate the graph and build its CSR.
    pub load_ms: f64,
    /// Device bytes the graph occupies on the GPU; `null` on the CPU.
    pub device_graph_bytes: Option<u64>,
    /// Device bytes warpath allocates for one traversal: the graph, its transpose and the GPU
    /// kernel's per-vertex arrays. Computed from the buffer sizes, not measured by the driver;
    /// `null` on the CPU.
    pub peak_device_bytes: Option<u64>,
    /// Placement and format of the graph on the GPU; `null` on the CPU.
    #[serde(default)]
    pub graph_on_gpu: Option<GraphOnGpu>,
    /// Bus traffic of the traced BFS against the measured host-to-device bandwidth; only for
    /// a zero-copy graph with a trace.
    #[serde(default)]
    pub bus: Option<BusRecord>,
    /// Warnings raised while preparing the backend (a fallback to the CPU, say).
    pub warnings: Vec<String>,
    pub roots: Vec<RootRecord>,
    pub summary: Summary,
    /// The per-level trace of the first root, with `--trace` or `--plot`.
    pub trace: Option<TraceRecord>,
}

/// The graph benchmarked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphInfo {
    /// The GRAPH argument: a file or a generator spec.
    pub name: String,
    pub vertices: u64,
    /// Directed edges as stored (an undirected edge counts twice).
    pub edges: u64,
    pub undirected: bool,
    /// 0 or 1: how the input numbers its vertices (roots are reported in those numbers).
    pub id_base: u32,
}

impl GraphInfo {
    pub fn of(name: &str, graph: &Graph) -> GraphInfo {
        GraphInfo {
            name: name.to_string(),
            vertices: graph.num_vertices() as u64,
            edges: graph.num_edges(),
            undirected: graph.is_undirected(),
            id_base: graph.id_base(),
        }
    }
}

/// Where the traversals ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// `gpu` or `cpu`.
    pub backend: String,
    /// The GPU's name, or `N CPU threads`.
    pub name: String,
    /// The NVIDIA driver version on the GPU (`unknown` where it cannot be asked); `null` on the CPU.
    pub driver: Option<String>,
    /// The CUDA version the driver supports (`cuDriverGetVersion`), e.g. `12.8`; `null` on the
    /// CPU or where it cannot be asked.
    #[serde(default)]
    pub cuda_driver: Option<String>,
    /// Rayon threads on the CPU; `null` on the GPU.
    pub cpu_threads: Option<usize>,
}

impl DeviceInfo {
    pub fn of(backend: &BackendUsed) -> DeviceInfo {
        match backend {
            BackendUsed::Gpu { device } => DeviceInfo {
                backend: "gpu".into(),
                name: device.clone(),
                driver: Some(crate::bench::meta::driver_version()),
                cuda_driver: None,
                cpu_threads: None,
            },
            BackendUsed::Cpu { threads } => DeviceInfo {
                backend: "cpu".into(),
                name: format!("{threads} CPU threads"),
                driver: None,
                cuda_driver: None,
                cpu_threads: Some(*threads),
            },
        }
    }
}

/// The options of the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Flags {
    pub roots: usize,
    pub seed: u64,
    /// The backend asked for: `auto`, `gpu` or `cpu` (`device.backend` says where it ran).
    pub backend: String,
    /// `--undirected`: edge lists and DIMACS files were symmetrized (`graph.undirected` says
    /// what the graph is).
    pub undirected: bool,
    /// A per-level trace of the first root was taken (`--trace` or `--plot`).
    pub trace: bool,
    /// The GPU traversal: `direction-optimizing`, `top-down` or `per-level`; `null` when the
    /// traversals ran on the CPU.
    #[serde(default)]
    pub gpu_kernel: Option<String>,
    /// The persistent kernel's tuning; `null` for `per-level` and on the CPU.
    #[serde(default)]
    pub gpu_params: Option<GpuParams>,
    /// `--distances-only`: the traversals labelled distances only (no parents; validated by the
    /// distance rules). False in reports written before the option existed.
    #[serde(default)]
    pub distances_only: bool,
}

/// Tuning of the persistent GPU kernel, as run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuParams {
    /// The switching rule (`beamer` in reports written before there was a choice).
    #[serde(default)]
    pub switch_rule: SwitchRule,
    /// The rule's alpha. Beamer's: bottom-up when frontier edges x alpha exceed the unvisited
    /// edges; XBFS's: bottom-up while frontier edges >= alpha x all edges.
    pub alpha: f32,
    /// Beamer's beta: back to top-down when the frontier x beta is below the vertex count.
    pub beta: f32,
    pub bottom_up: bool,
    /// Small frontiers handed to a single block.
    pub small_frontiers: bool,
    /// How bottom-up levels balance their work (`static` in reports written before it existed).
    #[serde(default)]
    pub bottom_up_balance: BottomUpBalance,
    /// Asynchronous bottom-up labeling (`--async-bottom-up`; false in reports written before
    /// it existed).
    #[serde(default)]
    pub async_bottom_up: bool,
    /// Adaptive frontier generation (`--frontier-generation adaptive`; false, i.e. fixed, in
    /// reports written before it existed).
    #[serde(default)]
    pub adaptive_frontier: bool,
    /// Bitmap words a warp takes at once bottom-up (`--bottom-up-chunk`; 0 for the kernel's
    /// choice, also in reports written before it existed).
    #[serde(default)]
    pub bottom_up_chunk: u32,
}

impl Flags {
    /// Flags for a run with no GPU kernel recorded (fill it with [`Flags::with_gpu_kernel`]).
    pub fn new(roots: usize, seed: u64, backend: &str, undirected: bool, trace: bool) -> Flags {
        Flags {
            roots,
            seed,
            backend: backend.into(),
            undirected,
            trace,
            gpu_kernel: None,
            gpu_params: None,
            distances_only: false,
        }
    }

    /// Records `traverser`'s GPU kernel when it runs on the GPU (and nothing on the CPU), and
    /// whether it labels distances only (on either backend).
    pub fn with_gpu_kernel(mut self, traverser: &Traverser<'_>) -> Flags {
        self.distances_only = traverser.distances_only();
        if traverser.gpu().is_some() {
            let kernel = traverser.resolved_gpu_kernel();
            self.gpu_kernel = Some(GpuTraversal::of(&kernel).name().to_string());
            self.gpu_params = match kernel {
                GpuKernel::Persistent(p) | GpuKernel::Auto(p) => Some(GpuParams {
                    switch_rule: p.switch_rule,
                    adaptive_frontier: p.adaptive_frontier,
                    alpha: p.alpha,
                    beta: p.beta,
                    bottom_up: p.bottom_up,
                    small_frontiers: p.small_frontiers,
                    bottom_up_balance: p.bottom_up_balance,
                    async_bottom_up: p.async_bottom_up,
                    bottom_up_chunk: p.bottom_up_chunk,
                }),
                GpuKernel::PerLevel | GpuKernel::TopDown(_) => None,
            };
        } else {
            self.gpu_kernel = None;
            self.gpu_params = None;
        }
        self
    }
}

impl BenchReport {
    /// Assembles the report of `run` on `graph` (named `name` on the command line).
    pub fn new(name: &str, graph: &Graph, flags: Flags, load_ms: f64, run: BenchRun) -> BenchReport {
        BenchReport {
            schema_version: SCHEMA_VERSION,
            tool: "warpath".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            commit: crate::bench::meta::commit(),
            date: crate::bench::meta::now_utc(),
            graph: GraphInfo::of(name, graph),
            device: DeviceInfo { cuda_driver: run.cuda_driver.clone(), ..DeviceInfo::of(&run.backend) },
            flags,
            load_ms,
            device_graph_bytes: run.device_graph_bytes,
            peak_device_bytes: run.device_bytes,
            graph_on_gpu: run.graph_on_gpu,
            bus: None,
            warnings: run.warnings,
            roots: run.roots,
            summary: run.summary,
            trace: run.trace,
        }
    }
}

/// Writes `report` to `path` as pretty-printed JSON.
pub fn write_report(report: &BenchReport, path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(report)
        .map_err(|e| Error::Format { path: path.to_path_buf(), problem: format!("cannot encode the report: {e}") })?;
    std::fs::write(path, text + "\n").map_err(|e| Error::io(path, e))
}

/// Reads a report written by [`write_report`] (schema version 2, or 1 with the fields added
/// since as null), refusing other schema versions.
pub fn read_report(path: &Path) -> Result<BenchReport> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse_report(&text).map_err(|problem| Error::Format { path: path.to_path_buf(), problem })
}

/// Parses a report from JSON text; the error says what is wrong.
pub fn parse_report(text: &str) -> std::result::Result<BenchReport, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    match value.get("schema_version").and_then(|v| v.as_u64()) {
        Some(v) if (OLDEST_READABLE_SCHEMA_VERSION as u64..=SCHEMA_VERSION as u64).contains(&v) => {}
        Some(v) => {
            return Err(format!(
                "benchmark schema version {v}, but this warpath reads versions {OLDEST_READABLE_SCHEMA_VERSION} to {SCHEMA_VERSION}"
            ))
        }
        None => return Err("not a warpath benchmark report: no schema_version".into()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a warpath benchmark report: {e}"))
}
