//! The benchmark report as JSON: one [`Report`] per `warpath bench` run of any algorithm,
//! written with serde and read back so results can be compared across commits. The schema is
//! documented field by field in `bench/SCHEMA.md`; [`SCHEMA_VERSION`] changes whenever a field
//! changes meaning or disappears (adding a field does not change it). Version 3 made the report
//! generic over algorithms: an `algorithm` field, `trials` (was `roots`) with the columns every
//! algorithm has and the algorithm's own beside them, and a `payload` for the rest (BFS's GPU
//! tuning, trace and bus, which were top-level fields and flags). Versions 1 and 2 still read,
//! as BFS reports: [`parse_report`] moves their fields to where version 3 keeps them. Version 4
//! stopped charging the one-time placement of the graph to every trial's `end_to_end_ms` and
//! added the stages (`placement`, BFS's `download_ms` and `download_bytes`); version 3 reports
//! read as they are, those fields null or 0. Version 5 split the load into its stages
//! (`load.read_ms`, `load.build_ms`; `load_ms` is their sum); older reports read with `load`
//! null.
//!
//! `warpath bench --json FILE` writes its report inside the envelope every command's `--json`
//! shares (bench/SCHEMA.md, "Command output"), under `result`; a partitioned bench, an array of
//! reports of algorithm `bfs-partitioned`, one per rank count ([`crate::bench::partitioned`]),
//! in the same shape and version, under `result.runs` (read back by [`parse_reports_of`]). The
//! readers here take a report in an envelope or bare, as files written before it hold them.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::bench::bfs::{BfsPayload, BfsSummary, BfsTrial};
use crate::bench::harness::{BenchRun, GraphOnGpu, Summary, TrialRecord};
use crate::bench::stages::{LoadStage, PlacementStage};
use crate::bfs::BackendUsed;
use crate::error::{Error, Result};
use crate::graph::Graph;

/// The version of the schema this build writes and reads.
pub const SCHEMA_VERSION: u32 = 5;

/// The first version of the generic shape ([`Report`] with `algorithm`, `trials` and
/// `payload`): reports from it on read as they are, older ones are moved into it.
pub const GENERIC_SCHEMA_VERSION: u32 = 3;

/// The oldest schema version [`parse_report`] still reads (as a BFS report; fields added since
/// read as null).
pub const OLDEST_READABLE_SCHEMA_VERSION: u32 = 1;

/// Everything one benchmark run measured, and under what conditions: `D`, `S` and `P` are the
/// algorithm's trial columns, summary lines and payload ([`crate::bench::BenchKernel`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report<D, S, P> {
    pub schema_version: u32,
    /// `warpath` and its version.
    pub tool: String,
    pub version: String,
    /// The git commit of the build (see [`crate::bench::meta::commit`]).
    pub commit: String,
    /// When the run finished, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// The algorithm benchmarked: `bfs`, ...
    pub algorithm: String,
    pub graph: GraphInfo,
    pub device: DeviceInfo,
    pub flags: Flags,
    /// Milliseconds to read or generate the graph and build its CSR: `load`'s stages together.
    pub load_ms: f64,
    /// Reading and building apart; `null` in reports written before schema version 5.
    #[serde(default)]
    pub load: Option<LoadStage>,
    /// Device bytes the graph occupies on the GPU; `null` on the CPU.
    pub device_graph_bytes: Option<u64>,
    /// Device bytes warpath allocates for one trial: the graph, its transpose and the GPU
    /// kernel's arrays. Computed from the buffer sizes, not measured by the driver; `null` on
    /// the CPU.
    pub peak_device_bytes: Option<u64>,
    /// Placement and format of the graph on the GPU; `null` on the CPU.
    #[serde(default)]
    pub graph_on_gpu: Option<GraphOnGpu>,
    /// Placing the graph for the GPU, once per run, against the pinned bandwidths measured in
    /// the same run; `null` on the CPU and in reports written before schema version 4.
    #[serde(default)]
    pub placement: Option<PlacementStage>,
    /// Warnings raised while preparing the backend (a fallback to the CPU, say).
    pub warnings: Vec<String>,
    pub trials: Vec<TrialRecord<D>>,
    pub summary: Summary<S>,
    pub payload: P,
}

/// A BFS report, the one `warpath bench` and `warpath suite` write.
pub type BenchReport = Report<BfsTrial, BfsSummary, BfsPayload>;

/// A report of any algorithm, its own columns and payload as plain JSON.
pub type AnyReport = Report<Map<String, Value>, Map<String, Value>, Value>;

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
    /// Timed trials (BFS: roots).
    pub trials: usize,
    pub seed: u64,
    /// The backend asked for: `auto`, `gpu` or `cpu` (`device.backend` says where it ran).
    pub backend: String,
    /// `--undirected`: edge lists and DIMACS files were symmetrized (`graph.undirected` says
    /// what the graph is).
    pub undirected: bool,
    /// The algorithm's untimed extras were taken (BFS: the trace, `--trace` or `--plot`).
    pub trace: bool,
    /// The GPU kernel that ran, by its report name; `null` when the trials ran on the CPU.
    #[serde(default)]
    pub gpu_kernel: Option<String>,
}

impl Flags {
    /// Flags for a run (the GPU kernel is filled in from the run by [`Report::new`]).
    pub fn new(trials: usize, seed: u64, backend: &str, undirected: bool, trace: bool) -> Flags {
        Flags { trials, seed, backend: backend.into(), undirected, trace, gpu_kernel: None }
    }
}

impl<D, S, P> Report<D, S, P> {
    /// Assembles the report of `run` on `graph` (named `name` on the command line), loaded in
    /// the stages `load`.
    pub fn new(name: &str, graph: &Graph, flags: Flags, load: LoadStage, run: BenchRun<D, S, P>) -> Report<D, S, P> {
        let environment = run.environment;
        Report {
            schema_version: SCHEMA_VERSION,
            tool: "warpath".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            commit: crate::bench::meta::commit(),
            date: crate::bench::meta::now_utc(),
            algorithm: run.algorithm.into(),
            graph: GraphInfo::of(name, graph),
            device: DeviceInfo { cuda_driver: environment.cuda_driver, ..DeviceInfo::of(&environment.backend) },
            flags: Flags { gpu_kernel: environment.gpu_kernel, ..flags },
            load_ms: load.total_ms(),
            load: Some(load),
            device_graph_bytes: environment.device_graph_bytes,
            peak_device_bytes: environment.device_bytes,
            graph_on_gpu: environment.graph_on_gpu,
            placement: None,
            warnings: environment.warnings,
            trials: run.trials,
            summary: run.summary,
            payload: run.payload,
        }
    }
}

impl<D, S, P> Report<D, S, P> {
    /// The report with the placement stage of its run ([`PlacementStage::of`]).
    pub fn with_placement(self, placement: Option<PlacementStage>) -> Report<D, S, P> {
        Report { placement, ..self }
    }
}

/// Writes `report` to `path` as pretty-printed JSON, bare (the command line wraps it in its
/// envelope), whole or not at all.
pub fn write_report<D: Serialize, S: Serialize, P: Serialize>(report: &Report<D, S, P>, path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(report)
        .map_err(|e| Error::Format { path: path.to_path_buf(), problem: format!("cannot encode the report: {e}") })?;
    crate::output::write_output(path, |out| writeln!(out, "{text}"))
}

/// Reads a BFS report written by [`write_report`] (any schema version from
/// [`OLDEST_READABLE_SCHEMA_VERSION`] on), refusing other versions and other algorithms.
pub fn read_report(path: &Path) -> Result<BenchReport> {
    read_report_of("bfs", path)
}

/// Reads a report of `algorithm` written by [`write_report`].
pub fn read_report_of<D, S, P>(algorithm: &str, path: &Path) -> Result<Report<D, S, P>>
where
    D: DeserializeOwned,
    S: DeserializeOwned,
    P: DeserializeOwned,
{
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse_report_of(algorithm, &text).map_err(|problem| Error::Format { path: path.to_path_buf(), problem })
}

/// Parses a BFS report from JSON text; the error says what is wrong.
pub fn parse_report(text: &str) -> std::result::Result<BenchReport, String> {
    parse_report_of("bfs", text)
}

/// Parses a report of `algorithm` from JSON text; versions before 3 are BFS reports, moved into
/// version 3's shape first.
pub fn parse_report_of<D, S, P>(algorithm: &str, text: &str) -> std::result::Result<Report<D, S, P>, String>
where
    D: DeserializeOwned,
    S: DeserializeOwned,
    P: DeserializeOwned,
{
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    report_of(algorithm, value)
}

/// Parses an array of reports of `algorithm` (a partitioned bench's, in its envelope's
/// `result.runs` or bare), each checked as [`parse_report_of`] checks one; the error names the
/// element that is wrong.
pub fn parse_reports_of<D, S, P>(algorithm: &str, text: &str) -> std::result::Result<Vec<Report<D, S, P>>, String>
where
    D: DeserializeOwned,
    S: DeserializeOwned,
    P: DeserializeOwned,
{
    let value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let value = match out_of_envelope(value) {
        Value::Object(mut result) if result.contains_key("runs") => result.remove("runs").unwrap_or_default(),
        other => other,
    };
    match value {
        Value::Array(values) => values
            .into_iter()
            .enumerate()
            .map(|(i, value)| report_of(algorithm, value).map_err(|problem| format!("report {}: {problem}", i + 1)))
            .collect(),
        _ => Err("not an array of warpath benchmark reports".into()),
    }
}

/// The report of `algorithm` in `value`, in the current shape.
fn report_of<D, S, P>(algorithm: &str, value: Value) -> std::result::Result<Report<D, S, P>, String>
where
    D: DeserializeOwned,
    S: DeserializeOwned,
    P: DeserializeOwned,
{
    let value = current_shape(value)?;
    match value.get("algorithm").and_then(|a| a.as_str()) {
        Some(found) if found == algorithm => {}
        Some(found) => return Err(format!("a benchmark report of `{found}`, not of `{algorithm}`")),
        None => return Err("not a warpath benchmark report: no algorithm".into()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a warpath benchmark report: {e}"))
}

/// Parses a report of whichever algorithm it names, its own columns and payload as plain JSON.
pub fn parse_any_report(text: &str) -> std::result::Result<AnyReport, String> {
    let value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    serde_json::from_value(current_shape(value)?).map_err(|e| format!("not a warpath benchmark report: {e}"))
}

/// What `value` holds: the `result` of a command's envelope (the object with
/// `envelope_version` that `bench --json` writes), else `value` itself.
fn out_of_envelope(value: Value) -> Value {
    match value {
        Value::Object(mut object) if object.contains_key("envelope_version") && object.contains_key("result") => {
            object.remove("result").unwrap_or_default()
        }
        other => other,
    }
}

/// The report `value` (bare or in an envelope) in version 3's shape, or what is wrong with it.
fn current_shape(value: Value) -> std::result::Result<Value, String> {
    let mut value = out_of_envelope(value);
    match value.get("schema_version").and_then(|v| v.as_u64()) {
        Some(v) if v >= GENERIC_SCHEMA_VERSION as u64 && v <= SCHEMA_VERSION as u64 => {}
        Some(v) if v >= OLDEST_READABLE_SCHEMA_VERSION as u64 && v < GENERIC_SCHEMA_VERSION as u64 => {
            upgrade_bfs_report(&mut value)?
        }
        Some(v) => {
            return Err(format!(
                "benchmark schema version {v}, but this warpath reads versions {OLDEST_READABLE_SCHEMA_VERSION} to {SCHEMA_VERSION}"
            ))
        }
        None => return Err("not a warpath benchmark report: no schema_version".into()),
    }
    Ok(value)
}

/// A BFS report of schema version 1 or 2 in version 3's shape: `roots` become `trials` (their
/// `edges_in_component` the trials' `edges`), the persistent kernel's tuning, distances-only
/// flag, trace and bus go into the payload. The version number stays as written.
fn upgrade_bfs_report(report: &mut Value) -> std::result::Result<(), String> {
    let object = report.as_object_mut().ok_or("not a warpath benchmark report: not an object")?;
    let mut payload = Map::new();
    for key in ["trace", "bus"] {
        payload.insert(key.into(), object.remove(key).unwrap_or(Value::Null));
    }
    if let Some(Value::Object(flags)) = object.get_mut("flags") {
        rename(flags, "roots", "trials");
        for key in ["gpu_params", "distances_only"] {
            if let Some(value) = flags.remove(key) {
                payload.insert(key.into(), value);
            }
        }
    }
    if let Some(Value::Object(summary)) = object.get_mut("summary") {
        rename(summary, "roots", "trials");
    }
    let mut trials = object.remove("roots").unwrap_or(Value::Array(Vec::new()));
    for trial in trials.as_array_mut().into_iter().flatten() {
        if let Value::Object(trial) = trial {
            rename(trial, "edges_in_component", "edges");
        }
    }
    object.insert("trials".into(), trials);
    object.insert("payload".into(), Value::Object(payload));
    object.insert("algorithm".into(), "bfs".into());
    Ok(())
}

fn rename(object: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(value) = object.remove(from) {
        object.insert(to.into(), value);
    }
}
