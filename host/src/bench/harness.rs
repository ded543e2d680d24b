//! One harness for every algorithm, as the GAP Benchmark Suite's `BenchmarkKernel` serves every
//! kernel (Beamer, Asanović and Patterson, "The GAP Benchmark Suite", 2015, section 4: trials,
//! a verifier apart from the kernel, summary statistics): an algorithm implements
//! [`BenchKernel`], prepared once, and [`run_kernel`] does the rest: one untimed warm-up, the
//! timed trials, the validation of every trial by the algorithm's own verifier, the records,
//! min/median/max of time and end-to-end time, the harmonic-mean rate, and the algorithm's
//! payload. BFS is [`crate::bench::bfs::BfsKernel`].

use std::fmt::Debug;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::bench::stats::{gteps, harmonic_mean, Spread};
use crate::bfs::BackendUsed;
use crate::error::{Error, Result};
use crate::graph::Graph;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Timed trials (for BFS one per root; Graph500 uses 64).
    pub trials: usize,
    /// Seed for choosing the trials' inputs (BFS: the roots).
    pub seed: u64,
    /// Also take the algorithm's untimed extras for the payload (BFS: a per-level trace of the
    /// traced trial's root).
    pub trace: bool,
    /// Which trial's input the payload follows (the trace's root), counted from 0.
    pub traced: usize,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions { trials: 64, seed: 1, trace: false, traced: 0 }
    }
}

/// An algorithm as the harness runs it. The implementor holds what was prepared once (the
/// graph on its device, buffers); the harness calls [`BenchKernel::inputs`] once, then
/// [`BenchKernel::run`] per trial and judges each output with [`BenchKernel::validate`], which
/// must check against the algorithm's own verifier, never the kernel's word for itself.
pub trait BenchKernel {
    /// The algorithm's name in reports (`bfs`, `cc`, `sssp`).
    const ALGORITHM: &'static str;
    /// What one trial starts from: a root for BFS and SSSP, `()` for connected components.
    type Input: Copy;
    /// What one trial computes.
    type Output;
    /// The algorithm's own columns of a trial record (BFS: depth, vertices reached, ...).
    type Details: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// The algorithm's own lines of the summary, computed from the trial records.
    type SummaryDetails: Summarize<Self::Details>;
    /// What the algorithm reports once per run (BFS: its GPU tuning, the trace, the bus).
    type Payload: Clone + Debug + PartialEq + Serialize + DeserializeOwned;

    /// The inputs of `trials` trials, chosen reproducibly from `seed`; an error when none can
    /// be chosen (a graph without edges has no BFS root).
    fn inputs(&self, trials: usize, seed: u64) -> Result<Vec<Self::Input>>;
    /// The input as the input file numbers it, if it is a vertex (the root); `None` otherwise.
    fn source(&self, input: Self::Input) -> Option<u64>;
    /// One trial, timed.
    fn run(&mut self, input: Self::Input) -> Result<Timed<Self::Output>>;
    /// Checks `output` with the algorithm's verifier: [`Error::Verification`] when it is wrong.
    fn validate(&self, input: Self::Input, output: &Self::Output) -> Result<()>;
    /// The edges that count for the trial's rate (BFS: the directed edges of the component
    /// reached).
    fn counted_edges(&self, input: Self::Input, output: &Self::Output) -> u64;
    /// The algorithm's own columns of the trial's record.
    fn details(&self, input: Self::Input, output: &Self::Output, seconds: f64) -> Self::Details;
    /// The run's payload, after the trials; `first` is the first trial's input and `options`
    /// says whether extras (a trace) were asked for.
    fn payload(&mut self, first: Self::Input, options: &BenchOptions) -> Result<Self::Payload>;
    /// Where the trials ran and what they allocated.
    fn environment(&self) -> Environment;
    /// Hands a trial's output back once the harness is done with it, so that the next trial
    /// can reuse its memory (BFS reads its labels into the last result's vectors, sparing the
    /// download an allocation and its page faults). By default it is dropped.
    fn recycle(&mut self, output: Self::Output) {
        drop(output);
    }
}

/// A trial's output with its times.
#[derive(Clone, Debug)]
pub struct Timed<O> {
    pub output: O,
    /// The kernel alone: CUDA events around it on the GPU, wall time on the CPU.
    pub time: Duration,
    /// The whole trial on the prepared input, the download of its result included (equal to
    /// `time` on the CPU); what was prepared once (the graph placed on the GPU) is not in it.
    pub end_to_end: Duration,
}

/// Summary lines an algorithm adds, computed from its trial records.
pub trait Summarize<D>: Clone + Debug + PartialEq + Serialize + DeserializeOwned {
    /// `None` when there are no trials.
    fn of(trials: &[TrialRecord<D>]) -> Option<Self>;
}

/// No summary lines of one's own.
impl<D> Summarize<D> for () {
    fn of(_: &[TrialRecord<D>]) -> Option<()> {
        Some(())
    }
}

/// One timed trial: the columns every algorithm has, and its own (`details`, flattened into
/// the same JSON object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord<D> {
    /// The trial's root, numbered as in the input (1-based for .mtx and .gr files); `null` for
    /// algorithms without one.
    pub source: Option<u64>,
    /// The kernel alone: CUDA events around it on the GPU, wall time on the CPU.
    pub time_ms: f64,
    /// The whole trial, the result's download included, the one-time placement of the graph
    /// not (equal to `time_ms` on the CPU; before schema version 4 it included the placement).
    pub end_to_end_ms: f64,
    /// The edges that count for the rate (BFS: directed edges leaving reached vertices, the
    /// count the seed papers divide by the time).
    pub edges: u64,
    /// `edges / time`, in 10^9 edges per second.
    pub gteps: f64,
    #[serde(flatten)]
    pub details: D,
}

/// Summary over all trials: the statistics every algorithm has, and its own (`details`,
/// flattened).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary<S> {
    pub trials: usize,
    /// Trials that passed validation (always `trials`: a failure is an error).
    pub validated: usize,
    pub time_ms: Spread,
    pub end_to_end_ms: Spread,
    /// Harmonic mean over the trials of `gteps`.
    pub hmean_gteps: f64,
    #[serde(flatten)]
    pub details: S,
}

impl<S> Summary<S> {
    /// The summary of `trials`; `None` when there are none.
    pub fn of<D>(trials: &[TrialRecord<D>]) -> Option<Summary<S>>
    where
        S: Summarize<D>,
    {
        let column = |f: fn(&TrialRecord<D>) -> f64| trials.iter().map(f).collect::<Vec<f64>>();
        Some(Summary {
            trials: trials.len(),
            validated: trials.len(),
            time_ms: Spread::of(&column(|r| r.time_ms))?,
            end_to_end_ms: Spread::of(&column(|r| r.end_to_end_ms))?,
            hmean_gteps: harmonic_mean(&column(|r| r.gteps))?,
            details: S::of(trials)?,
        })
    }
}

/// How the GPU holds the graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphOnGpu {
    /// Where the lists are: `device` or `zero-copy`.
    pub placement: String,
    /// Where the offsets are (device memory when they fit, even for zero-copy lists).
    #[serde(default)]
    pub offsets_placement: Option<String>,
    /// Delta-varint compressed lists, decoded by the kernels.
    pub compressed: bool,
    /// Bytes of offsets and lists (graph and transpose) as held: compressed or plain.
    pub stored_bytes: u64,
    /// What the plain CSR takes (`8(n+1) + 4m` per copy), for the compression ratio.
    pub plain_bytes: u64,
    /// The first in-neighbors of every list are in device memory beside zero-copy lists.
    #[serde(default)]
    pub list_heads: bool,
}

impl GraphOnGpu {
    /// [`GraphOnGpu::plain_bytes`] of `graph`: one copy of its plain CSR if it is undirected,
    /// two (the transpose beside it) if it is directed.
    pub fn plain_bytes_of(graph: &Graph) -> u64 {
        let copies = if graph.is_undirected() { 1 } else { 2 };
        copies * graph.csr_bytes()
    }
}

/// Where a benchmark ran and what it allocated, as the kernel reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct Environment {
    pub backend: BackendUsed,
    /// Warnings from preparing the backend (a fallback to the CPU, say).
    pub warnings: Vec<String>,
    /// The GPU kernel that ran, by its report name (`direction-optimizing`, ...); `None` on
    /// the CPU.
    pub gpu_kernel: Option<String>,
    /// Device bytes the graph occupies (GPU only).
    pub device_graph_bytes: Option<u64>,
    /// Device bytes warpath allocates for a trial: graph, transpose and the kernel's arrays
    /// (computed, GPU only).
    pub device_bytes: Option<u64>,
    /// The CUDA version the driver supports, e.g. `12.8` (GPU only; `None` if it cannot be asked).
    pub cuda_driver: Option<String>,
    /// Placement and format of the graph (GPU only).
    pub graph_on_gpu: Option<GraphOnGpu>,
}

impl Environment {
    /// Where nothing was placed on a GPU: the backend alone, no warnings, no device figures.
    pub fn without_gpu(backend: BackendUsed) -> Environment {
        Environment {
            backend,
            warnings: Vec::new(),
            gpu_kernel: None,
            device_graph_bytes: None,
            device_bytes: None,
            cuda_driver: None,
            graph_on_gpu: None,
        }
    }

    /// Where a kernel ran on a graph placed by the engine (`placed`, None on the CPU): the
    /// device figures from the placed graph, `workspace` device bytes beside it, the GPU
    /// kernel's report name.
    pub fn of_placement(
        graph: &Graph,
        backend: BackendUsed,
        warnings: Vec<String>,
        placed: Option<&crate::engine::GpuGraph>,
        workspace: u64,
        gpu_kernel: &str,
    ) -> Environment {
        Environment {
            backend,
            warnings,
            gpu_kernel: placed.map(|_| gpu_kernel.to_string()),
            device_graph_bytes: placed.map(|g| g.bytes()),
            device_bytes: placed.map(|g| g.bytes() + workspace),
            cuda_driver: placed
                .and_then(|g| g.gpu().driver_version().ok())
                .map(|(major, minor)| format!("{major}.{minor}")),
            graph_on_gpu: placed.map(|g| GraphOnGpu {
                placement: g.graph().placement().to_string(),
                offsets_placement: Some(g.graph().layout().offsets.to_string()),
                compressed: g.graph().is_compressed(),
                stored_bytes: g.stored_bytes(),
                plain_bytes: GraphOnGpu::plain_bytes_of(graph),
                list_heads: g.has_list_heads(),
            }),
        }
    }
}

/// A finished benchmark of one algorithm on one backend.
#[derive(Clone, Debug)]
pub struct BenchRun<D, S, P> {
    /// [`BenchKernel::ALGORITHM`].
    pub algorithm: &'static str,
    pub environment: Environment,
    pub trials: Vec<TrialRecord<D>>,
    pub summary: Summary<S>,
    pub payload: P,
}

/// The run of a [`BenchKernel`] `K`.
pub type RunOf<K> =
    BenchRun<<K as BenchKernel>::Details, <K as BenchKernel>::SummaryDetails, <K as BenchKernel>::Payload>;

/// Runs `kernel`: one untimed warm-up from the first input, then one timed trial per input, each
/// validated by the kernel's verifier (a failure is returned as [`Error::Verification`] naming
/// the root, or the trial, and the run), then the payload. `progress` is called after each
/// timed trial with the number done so far.
pub fn run_kernel<K: BenchKernel>(
    kernel: &mut K,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<RunOf<K>> {
    let inputs = kernel.inputs(options.trials, options.seed)?;
    let first =
        *inputs.first().ok_or_else(|| Error::InvalidArgument("the benchmark needs at least one trial".into()))?;
    let warm_up = kernel.run(first)?;
    kernel.recycle(warm_up.output);

    let mut trials = Vec::with_capacity(inputs.len());
    for (i, &input) in inputs.iter().enumerate() {
        let timed = kernel.run(input)?;
        let source = kernel.source(input);
        kernel.validate(input, &timed.output).map_err(|err| match err {
            Error::Verification(message) => {
                let what = source.map_or_else(|| "trial".to_string(), |root| format!("root {root}"));
                Error::Verification(format!("{what} (run {}): {message}", i + 1))
            }
            other => other,
        })?;
        let seconds = timed.time.as_secs_f64();
        let edges = kernel.counted_edges(input, &timed.output);
        trials.push(TrialRecord {
            source,
            time_ms: seconds * 1e3,
            end_to_end_ms: timed.end_to_end.as_secs_f64() * 1e3,
            edges,
            gteps: gteps(edges, seconds),
            details: kernel.details(input, &timed.output, seconds),
        });
        kernel.recycle(timed.output);
        progress(i + 1);
    }
    let traced = *inputs.get(options.traced).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "trial {} was asked to be traced, of {} trials",
            options.traced + 1,
            inputs.len()
        ))
    })?;
    let payload = kernel.payload(traced, options)?;
    let summary = Summary::of(&trials).expect("at least one trial was run");
    Ok(BenchRun { algorithm: K::ALGORITHM, environment: kernel.environment(), trials, summary, payload })
}

#[cfg(test)]
mod tests {
    use super::GraphOnGpu;
    use crate::graph::{EdgeList, GraphBuilder};

    /// `8(n+1) + 4m` bytes a copy: one copy of an undirected graph, two of a directed one.
    #[test]
    fn plain_bytes_count_the_transpose_of_a_directed_graph() {
        let directed = GraphBuilder::new().build(EdgeList::new(3, vec![(0, 1), (1, 2)], false)).unwrap();
        assert_eq!(GraphOnGpu::plain_bytes_of(&directed), 2 * (8 * 4 + 4 * 2));
        let undirected = GraphBuilder::new().build(EdgeList::new(3, vec![(0, 1), (1, 2)], true)).unwrap();
        assert_eq!(undirected.num_edges(), 4);
        assert_eq!(GraphOnGpu::plain_bytes_of(&undirected), 8 * 4 + 4 * 4);
    }
}
