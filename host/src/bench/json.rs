//! The benchmark report as JSON: one [`BenchReport`] per `warpath bench` run, written with
//! serde and read back by [`read_report`] so results can be compared across commits. The
//! schema is documented field by field in `bench/SCHEMA.md`; [`SCHEMA_VERSION`] changes
//! whenever a field changes meaning or disappears (adding a field does not change it).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::bench::harness::{BenchRun, RootRecord, Summary, TraceRecord};
use crate::bfs::BackendUsed;
use crate::error::{Error, Result};
use crate::graph::Graph;

/// The version of the schema this build writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

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
    /// Peak device memory of the run; `null` until the GPU context exposes it.
    pub peak_device_bytes: Option<u64>,
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
                cpu_threads: None,
            },
            BackendUsed::Cpu { threads } => DeviceInfo {
                backend: "cpu".into(),
                name: format!("{threads} CPU threads"),
                driver: None,
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
            device: DeviceInfo::of(&run.backend),
            flags,
            load_ms,
            device_graph_bytes: run.device_graph_bytes,
            peak_device_bytes: None,
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

/// Reads a report written by [`write_report`], refusing other schema versions.
pub fn read_report(path: &Path) -> Result<BenchReport> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse_report(&text).map_err(|problem| Error::Format { path: path.to_path_buf(), problem })
}

/// Parses a report from JSON text; the error says what is wrong.
pub fn parse_report(text: &str) -> std::result::Result<BenchReport, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    match value.get("schema_version").and_then(|v| v.as_u64()) {
        Some(v) if v == SCHEMA_VERSION as u64 => {}
        Some(v) => {
            return Err(format!("benchmark schema version {v}, but this warpath reads version {SCHEMA_VERSION}"))
        }
        None => return Err("not a warpath benchmark report: no schema_version".into()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a warpath benchmark report: {e}"))
}
