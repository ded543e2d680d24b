//! `--json`: what a command says, as one JSON object on one line of stdout for scripts, in
//! place of its text: the envelope every command shares ([`Envelope`], documented with its
//! version in bench/SCHEMA.md, "Command output") with the command's own fields under `result`.
//! Field names carry their units (`time_ms`, `compressed_bytes`); warnings are in the object and
//! still go to stderr, errors only there. Every command with `--json` prints through
//! [`print_envelope`].

use serde::Serialize;
use serde_json::Value;
use warpath::engine::BackendUsed;

/// Help of every `--json` flag.
pub const JSON_HELP: &str = "Print one JSON object on stdout instead of the text";
pub const JSON_LONG_HELP: &str = "Print what the text says as one JSON object on one line of stdout, for \
scripts: the fields every command shares, and the command's own under `result` (bench/SCHEMA.md, \
\"Command output\"); field names carry their units (time_ms, ...). Warnings and errors still go to stderr.";

/// The envelope's version: it changes when a field changes meaning or disappears.
pub const ENVELOPE_VERSION: u32 = 1;

/// What every command's `--json` object says, whatever the command: the graph, where it ran,
/// its times, whether it was verified, the warnings; the command's own fields go under
/// `result`.
#[derive(Serialize)]
pub struct Envelope {
    pub envelope_version: u32,
    /// `bfs`, `cc`, `sssp`, `info`, `bench`.
    pub command: &'static str,
    /// The GRAPH argument.
    pub graph: String,
    /// `gpu` or `cpu` where an algorithm ran (null for `info`); `backend_detail` in words.
    pub backend: Option<&'static str>,
    pub backend_detail: Option<String>,
    pub vertices: u64,
    /// Directed edges as stored (an undirected edge counts twice).
    pub edges: u64,
    /// Reading (or generating) the graph and building its CSR.
    pub load_ms: f64,
    /// Placing the graph for the run: on the GPU, once per graph; cutting it into parts for a
    /// partitioned run; null on the CPU and for `info`.
    pub place_ms: Option<f64>,
    /// The algorithm's own time (the kernels on the GPU); null for `info`.
    pub time_ms: Option<f64>,
    /// The run as the caller waits for it on the placed graph, the result's download
    /// included, the placement not; null for `info`.
    pub end_to_end_ms: Option<f64>,
    /// `--verify`'s verdict; null when nothing was checked.
    pub verified: Option<bool>,
    pub warnings: Vec<String>,
}

impl Envelope {
    /// An envelope for `command` on a graph of `vertices` and `edges` loaded in `load_ms`, its
    /// run's fields empty until set.
    pub fn new(command: &'static str, graph: &str, vertices: u64, edges: u64, load_ms: f64) -> Envelope {
        Envelope {
            envelope_version: ENVELOPE_VERSION,
            command,
            graph: graph.to_string(),
            backend: None,
            backend_detail: None,
            vertices,
            edges,
            load_ms,
            place_ms: None,
            time_ms: None,
            end_to_end_ms: None,
            verified: None,
            warnings: Vec::new(),
        }
    }

    /// The same, run on `kind` (`gpu`, `cpu`) described as `detail` (the GPU, the threads, the
    /// ranks).
    pub fn ran(self, kind: &'static str, detail: String) -> Envelope {
        Envelope { backend: Some(kind), backend_detail: Some(detail), ..self }
    }

    /// The same, run on `backend`.
    pub fn ran_on(self, backend: &BackendUsed) -> Envelope {
        self.ran(backend.kind(), backend.to_string())
    }
}

/// The envelope of `bench --json FILE` for `report`: the graph, backend and load as the report
/// has them, the placement's time, the median kernel and end-to-end times over the trials, and
/// `verified` true (the harness validates every trial; a failure is an error).
pub fn bench_envelope<D, S, P>(report: &warpath::bench::Report<D, S, P>) -> Envelope {
    let graph = &report.graph;
    let kind = if report.device.backend == "gpu" { "gpu" } else { "cpu" };
    Envelope {
        place_ms: report.placement.as_ref().map(|placement| placement.ms),
        time_ms: Some(report.summary.time_ms.median),
        end_to_end_ms: Some(report.summary.end_to_end_ms.median),
        verified: Some(report.summary.validated == report.summary.trials),
        warnings: report.warnings.clone(),
        ..Envelope::new("bench", &graph.name, graph.vertices, graph.edges, report.load_ms)
            .ran(kind, report.device.name.clone())
    }
}

/// Writes `envelope` with `result` whole under its `result` key to `path` as one JSON object on
/// one line (`bench --json FILE`: the report is a document of its own, read back by
/// `warpath::bench::json::read_report`, so nothing is taken out of it), whole or not at all.
pub fn write_envelope(path: &std::path::Path, envelope: &Envelope, result: &impl Serialize) -> warpath::Result<()> {
    let (mut object, result) = encoded(envelope, result)?;
    object["result"] = result;
    warpath::output::write_output(path, |out| writeln!(out, "{object}"))?;
    if !warpath::output::is_stdout(path) {
        println!("json: {}", path.display());
    }
    Ok(())
}

/// Prints `envelope` with `result` under its `result` key, as one JSON object on one line of
/// stdout. What the envelope says is left out of `result` (a report that also prints as text
/// may hold it), `edges_directed` included, which is the envelope's `edges`.
pub fn print_envelope(envelope: &Envelope, result: &impl Serialize) -> warpath::Result<()> {
    let (mut object, mut result) = encoded(envelope, result)?;
    if let (Value::Object(result), Value::Object(shared)) = (&mut result, &object) {
        result.retain(|key, _| !shared.contains_key(key) && key != "edges_directed");
    }
    object["result"] = result;
    println!("{object}");
    Ok(())
}

/// `envelope` and `result` as JSON values, or the one-line error that says why they cannot be.
fn encoded(envelope: &Envelope, result: &impl Serialize) -> warpath::Result<(Value, Value)> {
    let encode =
        |err: serde_json::Error| warpath::Error::InvalidArgument(format!("cannot write the JSON output: {err}"));
    Ok((serde_json::to_value(envelope).map_err(encode)?, serde_json::to_value(result).map_err(encode)?))
}
