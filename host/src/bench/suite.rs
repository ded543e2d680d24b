//! The standard suite: the synthetic graphs of Merrill, Garland and Grimshaw ("Scalable GPU
//! Graph Traversal", PPoPP 2012, Table 1) built by our generators, two larger Kronecker graphs
//! and every dataset in a folder, each benchmarked on the GPU (with one or more of its
//! kernels, see [`KernelName`]) and on the CPU of one machine. The result is a markdown
//! table (beside each of Merrill's graphs, the rate the paper reports for a Tesla C2050) and a
//! JSON file with every [`BenchReport`]. Connected components run beside BFS on every graph,
//! on both backends ([`CcSuiteRow`]): a second table, and their [`CcReport`]s in a JSON file of
//! their own ([`CC_JSON`]). Given ranks ([`SuiteRanks`]), the partitioned BFS runs on every
//! graph too, against one partition on the same roots: a scaling table, and its reports in
//! [`PARTITIONED_JSON`]. Many sources, closeness and strongly connected components run on every
//! graph that takes them ([`ManySuiteRow`]): 64 roots as one bit-parallel batch (in each BFS
//! report's `payload.batch`), exact closeness up to [`EXACT_VERTICES`] vertices, SCC of directed
//! graphs; a table, and their reports in [`MANY_JSON`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::bench::bfs::{choose_roots, run_batch, run_bench};
use crate::bench::cc::{CcKernel, CcReport};
use crate::bench::closeness::{ClosenessKernel, ClosenessReport};
use crate::bench::harness::{run_kernel, BenchKernel, BenchOptions};
use crate::bench::json::{BenchReport, Flags, Report};
use crate::bench::partitioned::{
    run_scaling, scaling_markdown, PartitionedBenchReport, RankSet, ScalingOptions, ScalingStage,
};
use crate::bench::report::mib;
use crate::bench::scc::{SccKernel, SccReport};
use crate::bench::sssp::{run_sssp_bench, SsspReport};
use crate::bench::stages::{LoadStage, PlacementStage};
use crate::bfs::gpu::PersistentParams;
use crate::bfs::multi_source::{BATCH, EXACT_VERTICES};
use crate::bfs::{Backend, KernelName, Traverser};
use crate::cc::{components_sequential, CcOptions, ComponentFinder};
use crate::engine::PlacementOptions;
use crate::error::{Error, Result};
use crate::generate::{attach_weights, WeightSpec};
use crate::graph::Graph;
use crate::input::{load_graph, load_graph_staged, LoadOptions};
use crate::multi::PartitionedOptions;
use crate::sssp::{PathFinder, SsspOptions};

/// A rate from Table 2 of Merrill et al. for an NVIDIA Tesla C2050, "GPU (linear-work hybrid
/// strategy)" columns, in 10^9 traversed edges per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct C2050Rate {
    /// "Distance BFS rate".
    pub distance: f64,
    /// "Predecessor BFS rate" (warpath labels predecessors, so this is the closer comparison).
    pub predecessor: f64,
}

/// One synthetic graph of the suite.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticGraph {
    /// The generator spec at full size.
    pub spec: &'static str,
    /// A small spec of the same family, for `--quick`.
    pub quick_spec: &'static str,
    /// The paper's name for the graph, for Merrill's graphs.
    pub merrill: Option<&'static str>,
    /// Table 2's C2050 rate, where the paper gives one.
    pub c2050: Option<C2050Rate>,
}

/// The synthetic graphs, in the order of the table. Rates are copied from Table 2 of Merrill,
/// Garland and Grimshaw (PPoPP 2012), "Average single-socket graph traversal rates (10^9
/// TE/s)", the two "GPU* (linear-work hybrid strategy)" columns.
pub const SYNTHETIC: [SyntheticGraph; 7] = [
    SyntheticGraph {
        spec: "grid2d:5000",
        quick_spec: "grid2d:64",
        merrill: Some("grid5pt.5000"),
        c2050: Some(C2050Rate { distance: 0.6, predecessor: 0.57 }),
    },
    SyntheticGraph {
        spec: "grid3d:300",
        quick_spec: "grid3d:16",
        merrill: Some("grid7pt.300"),
        c2050: Some(C2050Rate { distance: 1.1, predecessor: 0.97 }),
    },
    SyntheticGraph {
        spec: "kron:20",
        quick_spec: "kron:10",
        merrill: Some("kron_g500-logn20"),
        c2050: Some(C2050Rate { distance: 3.1, predecessor: 2.5 }),
    },
    SyntheticGraph {
        spec: "urand:21:64",
        quick_spec: "urand:10:16",
        merrill: Some("random.2Mv.128Me"),
        c2050: Some(C2050Rate { distance: 3.0, predecessor: 2.4 }),
    },
    SyntheticGraph {
        spec: "rmat:21:64:0.45,0.15,0.15",
        quick_spec: "rmat:10:16:0.45,0.15,0.15",
        merrill: Some("rmat.2Mv.128Me"),
        c2050: Some(C2050Rate { distance: 3.3, predecessor: 2.6 }),
    },
    SyntheticGraph { spec: "kron:24", quick_spec: "kron:11", merrill: None, c2050: None },
    SyntheticGraph { spec: "kron:25", quick_spec: "kron:12", merrill: None, c2050: None },
];

/// How to run the suite.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteOptions {
    /// Small graphs of the same families instead of the full sizes (for CI).
    pub quick: bool,
    pub roots: usize,
    pub seed: u64,
    /// Every `.gz` file here is added to the suite; `None` adds no datasets.
    pub datasets: Option<PathBuf>,
    /// Run only the graphs whose spec or file name contains one of these (all when empty).
    pub only: Vec<String>,
    /// Also run the GPU (when false, or when no GPU is usable, only the CPU runs).
    pub gpu: bool,
    /// The GPU traversals to run on each graph, in this order (the table has a column each).
    pub gpu_kernels: Vec<KernelName>,
    /// Also run connected components (Afforest, default options) on every graph, as many runs
    /// as roots.
    pub cc: bool,
    /// Also run shortest paths (delta-stepping) on each graph, weighted as [`sssp_weights`] says.
    pub sssp: bool,
    /// Also run 64 roots as one batch, exact closeness and strongly connected components on each
    /// graph that takes them ([`ManySuiteRow`]).
    pub many: bool,
}

impl Default for SuiteOptions {
    fn default() -> Self {
        SuiteOptions {
            quick: false,
            roots: 16,
            seed: 1,
            datasets: None,
            only: Vec::new(),
            gpu: true,
            gpu_kernels: vec![KernelName::DirectionOptimizing],
            cc: true,
            sssp: true,
            many: true,
        }
    }
}

/// What the suite is doing, for progress displays.
#[derive(Clone, Copy, Debug)]
pub enum SuiteStage<'a> {
    /// Loading graph `index` (0-based) of `total`.
    Loading { index: usize, total: usize, graph: &'a str },
    /// Running `roots` roots of `graph` on `backend` (`cpu`, or `gpu KERNEL`).
    Running { graph: &'a str, backend: &'a str, roots: usize },
    /// `done` roots finished on the current backend.
    Root { done: usize },
}

/// One graph of the suite, run on both backends.
#[derive(Clone, Debug)]
pub struct SuiteRow {
    pub graph: String,
    pub merrill: Option<&'static str>,
    /// Only for full-size graphs: the scaled-down ones are not the paper's.
    pub c2050: Option<C2050Rate>,
    /// One report per GPU kernel run, in the order of [`SuiteResult::gpu_kernels`] (each names
    /// its kernel in `flags.gpu_kernel`); empty when the GPU did not run.
    pub gpu: Vec<BenchReport>,
    /// Why the GPU did not run, when it did not.
    pub gpu_missing: Option<String>,
    pub cpu: BenchReport,
}

impl SuiteRow {
    /// The GPU report of `kernel` (by name), if it ran.
    pub fn gpu_report(&self, kernel: &str) -> Option<&BenchReport> {
        self.gpu.iter().find(|r| r.flags.gpu_kernel.as_deref() == Some(kernel))
    }

    /// The GPU run with the highest harmonic-mean GTEPS (the first of equals).
    pub fn best_gpu(&self) -> Option<&BenchReport> {
        self.gpu.iter().fold(None, |best: Option<&BenchReport>, r| match best {
            Some(b) if b.summary.hmean_gteps >= r.summary.hmean_gteps => Some(b),
            _ => Some(r),
        })
    }
}

/// Connected components of one graph of the suite, on both backends.
#[derive(Clone, Debug)]
pub struct CcSuiteRow {
    pub graph: String,
    /// `None` when the GPU did not run.
    pub gpu: Option<CcReport>,
    /// Why the GPU did not run, when it did not.
    pub gpu_missing: Option<String>,
    pub cpu: CcReport,
}

/// Exact closeness and strongly connected components of one graph of the suite, on both
/// backends; `None` where the graph does not take them (closeness of more than
/// [`EXACT_VERTICES`] vertices, SCC of an undirected graph: its connected components) or the GPU
/// did not run. The 64-root batch is in the graph's BFS reports (`payload.batch`).
#[derive(Clone, Debug)]
pub struct ManySuiteRow {
    pub graph: String,
    pub closeness_gpu: Option<ClosenessReport>,
    pub closeness_cpu: Option<ClosenessReport>,
    pub scc_gpu: Option<SccReport>,
    pub scc_cpu: Option<SccReport>,
}

/// Timed batches, closeness runs and SCC runs per graph and backend (each after an untimed,
/// validated warm-up), at most: the suite's roots where fewer.
pub const MANY_RUNS: usize = 3;

/// The file, beside `suite.json`, that holds the closeness and SCC reports.
pub const MANY_JSON: &str = "suite-many.json";

/// The file, beside `suite.json`, that holds the connected-components reports.
pub const CC_JSON: &str = "suite-cc.json";

/// The file, beside `suite.json`, that holds the partitioned BFS's reports.
pub const PARTITIONED_JSON: &str = "suite-partitioned.json";

/// The ranks the suite runs the partitioned BFS on, beside the single-GPU and CPU runs: each
/// set on every graph, against `baseline` (one rank) on the same roots.
pub struct SuiteRanks<'a> {
    pub baseline: &'a dyn RankSet,
    pub sets: Vec<&'a dyn RankSet>,
    pub traversal: PartitionedOptions,
    /// The backend asked for, for the reports' flags: `cpu` for threads, `gpu` for GPUs.
    pub backend: &'a str,
}

/// One graph's partitioned runs: the baseline's report, then each rank set's.
#[derive(Clone, Debug)]
pub struct PartitionedSuiteRow {
    pub graph: String,
    pub reports: Vec<PartitionedBenchReport>,
}

/// One graph's shortest paths, on both backends.
#[derive(Clone, Debug)]
pub struct SsspSuiteRow {
    pub graph: String,
    /// The GPU's report; `None` when it did not run.
    pub gpu: Option<SsspReport>,
    /// Why the GPU did not run, when it did not.
    pub gpu_missing: Option<String>,
    pub cpu: SsspReport,
}

/// The whole suite.
#[derive(Clone, Debug)]
pub struct SuiteResult {
    pub date: String,
    pub commit: String,
    pub quick: bool,
    pub roots: usize,
    pub seed: u64,
    /// The GPU kernels asked for, by name: one column each in the table.
    pub gpu_kernels: Vec<String>,
    pub rows: Vec<SuiteRow>,
    /// Shortest paths, one row per graph (empty when not asked for).
    pub sssp_rows: Vec<SsspSuiteRow>,
    /// Connected components, one row per graph (empty when not asked for).
    pub cc_rows: Vec<CcSuiteRow>,
    /// The partitioned BFS, one row per graph (empty when no ranks were given).
    pub partitioned_rows: Vec<PartitionedSuiteRow>,
    /// Closeness and SCC, one row per graph (empty when not asked for).
    pub many_rows: Vec<ManySuiteRow>,
}

/// The graphs the suite runs, as (GRAPH argument, synthetic entry if any).
pub fn suite_graphs(options: &SuiteOptions) -> Result<Vec<(String, Option<&'static SyntheticGraph>)>> {
    let mut graphs: Vec<(String, Option<&'static SyntheticGraph>)> =
        SYNTHETIC.iter().map(|s| ((if options.quick { s.quick_spec } else { s.spec }).to_string(), Some(s))).collect();
    if let Some(dir) = &options.datasets {
        let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        let mut files = Vec::new();
        for entry in entries {
            let path = entry.map_err(|e| Error::io(dir, e))?.path();
            if path.extension().is_some_and(|ext| ext == "gz") {
                files.push(path.to_string_lossy().into_owned());
            }
        }
        files.sort();
        graphs.extend(files.into_iter().map(|f| (f, None)));
    }
    if !options.only.is_empty() {
        graphs.retain(|(name, synthetic)| {
            options
                .only
                .iter()
                .any(|o| name.contains(o.as_str()) || synthetic.is_some_and(|s| s.spec.contains(o.as_str())))
        });
        if graphs.is_empty() {
            return Err(Error::InvalidArgument(format!("no suite graph matches {}", options.only.join(", "))));
        }
    }
    Ok(graphs)
}

/// Runs the suite: each graph loaded once, then benchmarked on the GPU (when asked and usable)
/// with each kernel of `options.gpu_kernels` in turn (the graph uploaded once, the same roots
/// for every kernel), and on the CPU. A GPU that cannot be prepared (none, or no room) is noted
/// in the row; a failed validation or any other error stops the suite.
pub fn run_suite(options: &SuiteOptions, progress: &mut dyn FnMut(SuiteStage<'_>)) -> Result<SuiteResult> {
    run_suite_with_ranks(options, None, progress)
}

/// [`run_suite`], and where `ranks` are given the partitioned BFS on every graph: the same
/// roots on one partition and on each rank set, in this process ([`run_scaling`]).
pub fn run_suite_with_ranks(
    options: &SuiteOptions,
    ranks: Option<&SuiteRanks<'_>>,
    progress: &mut dyn FnMut(SuiteStage<'_>),
) -> Result<SuiteResult> {
    if options.gpu && options.gpu_kernels.is_empty() {
        return Err(Error::InvalidArgument("no GPU kernel to run (name at least one, or run the CPU only)".into()));
    }
    let mut sssp_rows = Vec::new();
    let graphs = suite_graphs(options)?;
    let mut rows = Vec::with_capacity(graphs.len());
    let mut cc_rows = Vec::new();
    let mut partitioned_rows = Vec::new();
    let mut many_rows = Vec::new();
    for (index, (name, synthetic)) in graphs.iter().enumerate() {
        progress(SuiteStage::Loading { index, total: graphs.len(), graph: name });
        let (graph, stages) = load_graph_staged(
            name,
            &LoadOptions {
                undirected: false,
                seed: options.seed,
                weights: None,
                ignore_weights: true,
                ..LoadOptions::default()
            },
        )?;
        let load = LoadStage::of(&stages);
        let bench = BenchOptions { trials: options.roots, seed: options.seed, trace: false, traced: 0 };
        // The batch's roots: 64 by the suite's seed, searched bit-parallel beside the BFS runs.
        let batch_roots = if options.many { Some(choose_roots(&graph, options.seed, BATCH)?) } else { None };
        let batch_runs = options.roots.min(MANY_RUNS);
        let mut run_on = |backend: &str, label: &str, traverser: &Traverser<'_>| -> Result<BenchReport> {
            progress(SuiteStage::Running { graph: name, backend: label, roots: options.roots });
            let run = run_bench(&graph, traverser, &bench, &mut |done| progress(SuiteStage::Root { done }))?;
            let flags = Flags::new(options.roots, options.seed, backend, false, false);
            Ok(BenchReport::new(name, &graph, flags, load, run).with_placement(PlacementStage::of(traverser.placed())?))
        };
        let (gpu, gpu_missing) = if options.gpu {
            match Traverser::new(&graph, Backend::Gpu) {
                Ok(mut traverser) => {
                    let mut reports = Vec::with_capacity(options.gpu_kernels.len());
                    for kernel in &options.gpu_kernels {
                        traverser.set_gpu_kernel(kernel.kernel(PersistentParams::default()));
                        reports.push(run_on("gpu", &format!("gpu {kernel}"), &traverser)?);
                    }
                    if let (Some(roots), Some(first)) = (&batch_roots, reports.first_mut()) {
                        first.payload.batch = Some(run_batch(&graph, &traverser, roots, batch_runs, false)?);
                    }
                    (reports, None)
                }
                Err(Error::Gpu(err)) => (Vec::new(), Some(err.to_string())),
                Err(other) => return Err(other),
            }
        } else {
            (Vec::new(), Some("not asked for".into()))
        };
        let cpu_traverser = Traverser::new(&graph, Backend::Cpu)?;
        let mut cpu = run_on("cpu", "cpu", &cpu_traverser)?;
        if let Some(roots) = &batch_roots {
            cpu.payload.batch = Some(run_batch(&graph, &cpu_traverser, roots, batch_runs, false)?);
        }
        drop(cpu_traverser);
        if options.cc {
            let reference_count = components_sequential(&graph).count();
            let prepare_cc = |backend: Backend| {
                ComponentFinder::with_options(&graph, backend, &PlacementOptions::default(), &CcOptions::default())
            };
            let mut cc_on = |finder: &ComponentFinder<'_>, backend: Backend| -> Result<CcReport> {
                let label = format!("cc {backend}");
                progress(SuiteStage::Running { graph: name, backend: &label, roots: options.roots });
                let mut kernel = CcKernel::with_reference_count(&graph, finder, CcOptions::default(), reference_count);
                let run = run_kernel(&mut kernel, &bench, &mut |done| progress(SuiteStage::Root { done }))?;
                let flags = Flags::new(options.roots, options.seed, backend.name(), false, false);
                Ok(CcReport::new(name, &graph, flags, load, run))
            };
            let (cc_gpu, cc_gpu_missing) = if options.gpu {
                match prepare_cc(Backend::Gpu) {
                    Ok(finder) => (Some(cc_on(&finder, Backend::Gpu)?), None),
                    Err(Error::Gpu(err)) => (None, Some(err.to_string())),
                    Err(other) => return Err(other),
                }
            } else {
                (None, Some("not asked for".into()))
            };
            let cc_cpu = cc_on(&prepare_cc(Backend::Cpu)?, Backend::Cpu)?;
            cc_rows.push(CcSuiteRow { graph: name.clone(), gpu: cc_gpu, gpu_missing: cc_gpu_missing, cpu: cc_cpu });
        }
        let full_size = !options.quick;
        rows.push(SuiteRow {
            graph: name.clone(),
            merrill: synthetic.and_then(|s| s.merrill),
            c2050: synthetic.and_then(|s| s.c2050).filter(|_| full_size),
            gpu,
            gpu_missing,
            cpu,
        });
        if let Some(ranks) = ranks {
            let scaling = ScalingOptions {
                roots: options.roots,
                seed: options.seed,
                traversal: ranks.traversal.clone(),
                flags: Flags::new(options.roots, options.seed, ranks.backend, false, false),
            };
            let reports =
                run_scaling(name, &graph, load, ranks.baseline, &ranks.sets, &scaling, &mut |stage| match stage {
                    ScalingStage::Running { ranks, roots } => {
                        progress(SuiteStage::Running { graph: name, backend: ranks, roots })
                    }
                    ScalingStage::Root { done } => progress(SuiteStage::Root { done }),
                })?;
            partitioned_rows.push(PartitionedSuiteRow { graph: name.clone(), reports });
        }
        if options.many {
            many_rows.push(run_many_row(name, &graph, options, load, progress)?);
        }
        if options.sssp {
            let weighted = sssp_weights(name, graph, options.seed)?;
            sssp_rows.push(run_sssp_row(name, &weighted, options, load, progress)?);
        }
    }
    Ok(SuiteResult {
        date: crate::bench::meta::now_utc(),
        commit: crate::bench::meta::commit(),
        quick: options.quick,
        roots: options.roots,
        seed: options.seed,
        gpu_kernels: options.gpu_kernels.iter().map(|k| k.name().to_string()).collect(),
        rows,
        cc_rows,
        sssp_rows,
        partitioned_rows,
        many_rows,
    })
}

/// Exact closeness (where the graph has at most [`EXACT_VERTICES`] vertices) and strongly
/// connected components (where it is directed) on the GPU (when asked and usable) and on the
/// CPU, [`MANY_RUNS`] runs each (fewer where the suite has fewer roots), every run checked.
fn run_many_row(
    name: &str,
    graph: &Graph,
    options: &SuiteOptions,
    load: LoadStage,
    progress: &mut dyn FnMut(SuiteStage<'_>),
) -> Result<ManySuiteRow> {
    let runs = options.roots.min(MANY_RUNS);
    let bench = BenchOptions { trials: runs, seed: options.seed, trace: false, traced: 0 };
    let flags = |backend: Backend| Flags::new(runs, options.seed, backend.name(), false, false);
    let mut row = ManySuiteRow {
        graph: name.to_string(),
        closeness_gpu: None,
        closeness_cpu: None,
        scc_gpu: None,
        scc_cpu: None,
    };
    let backends: &[Backend] = if options.gpu { &[Backend::Gpu, Backend::Cpu] } else { &[Backend::Cpu] };
    for &backend in backends {
        let (flags, label) = (flags(backend), |what: &str| format!("{what} {backend}"));
        if (2..=EXACT_VERTICES).contains(&(graph.num_vertices() as u64)) {
            let kernel = ClosenessKernel::new(graph, backend, true, options.seed, EXACT_VERTICES);
            let report =
                suite_runs(kernel, backend, &label("closeness"), name, graph, flags.clone(), load, &bench, progress)?;
            match backend {
                Backend::Gpu => row.closeness_gpu = report,
                _ => row.closeness_cpu = report,
            }
        }
        if !graph.is_undirected() {
            let kernel = SccKernel::new(graph, backend);
            let report = suite_runs(kernel, backend, &label("scc"), name, graph, flags, load, &bench, progress)?;
            match backend {
                Backend::Gpu => row.scc_gpu = report,
                _ => row.scc_cpu = report,
            }
        }
    }
    Ok(row)
}

/// The weighted graph the suite's shortest paths run on: DIMACS files (`.gr`, the road
/// networks) with their own arc lengths, reloaded; every other graph, `unweighted` as the BFS
/// ran on it, with GAPBS's weights (integers uniform in 1..=255, seeded).
pub fn sssp_weights(name: &str, unweighted: Graph, seed: u64) -> Result<Graph> {
    if name.ends_with(".gr") || name.ends_with(".gr.gz") {
        drop(unweighted);
        return load_graph(name, &LoadOptions { seed, ..LoadOptions::default() });
    }
    attach_weights(unweighted, &WeightSpec::GAPBS, seed)
}

/// Delta-stepping from the suite's roots on the GPU (when asked and usable) and on the CPU.
fn run_sssp_row(
    name: &str,
    graph: &Graph,
    options: &SuiteOptions,
    load: LoadStage,
    progress: &mut dyn FnMut(SuiteStage<'_>),
) -> Result<SsspSuiteRow> {
    let sssp = SsspOptions::default();
    let bench = BenchOptions { trials: options.roots, seed: options.seed, trace: false, traced: 0 };
    let mut run_on = |backend: Backend, label: &str, finder: &PathFinder<'_>| -> Result<SsspReport> {
        progress(SuiteStage::Running { graph: name, backend: label, roots: options.roots });
        let run = run_sssp_bench(graph, finder, sssp, &bench, &mut |done| progress(SuiteStage::Root { done }))?;
        let flags = Flags::new(options.roots, options.seed, backend.name(), false, false);
        Ok(SsspReport::new(name, graph, flags, load, run))
    };
    let (gpu, gpu_missing) = if options.gpu {
        match PathFinder::new(graph, Backend::Gpu, &sssp) {
            Ok(finder) => (Some(run_on(Backend::Gpu, "gpu sssp", &finder)?), None),
            Err(Error::Gpu(err)) => (None, Some(err.to_string())),
            Err(other) => return Err(other),
        }
    } else {
        (None, Some("not asked for".into()))
    };
    let cpu = run_on(Backend::Cpu, "cpu sssp", &PathFinder::new(graph, Backend::Cpu, &sssp)?)?;
    Ok(SsspSuiteRow { graph: name.to_string(), gpu, gpu_missing, cpu })
}

/// The suite's runs of `made` (a kernel prepared for `backend`), shown as `label`: its report, or
/// `None` where a GPU could not be prepared (its cells stay empty, as in the other tables).
#[allow(clippy::too_many_arguments)]
fn suite_runs<K: BenchKernel>(
    made: Result<K>,
    backend: Backend,
    label: &str,
    name: &str,
    graph: &Graph,
    flags: Flags,
    load: LoadStage,
    bench: &BenchOptions,
    progress: &mut dyn FnMut(SuiteStage<'_>),
) -> Result<Option<Report<K::Details, K::SummaryDetails, K::Payload>>> {
    let mut kernel = match made {
        Ok(kernel) => kernel,
        Err(Error::Gpu(_)) if backend == Backend::Gpu => return Ok(None),
        Err(err) => return Err(err),
    };
    progress(SuiteStage::Running { graph: name, backend: label, roots: bench.trials });
    let run = run_kernel(&mut kernel, bench, &mut |done| progress(SuiteStage::Root { done }))?;
    Ok(Some(Report::new(name, graph, flags, load, run)))
}

impl SuiteResult {
    /// The GPU's name and driver (with the CUDA version it supports, where known), if any row
    /// ran on it.
    pub fn gpu_device(&self) -> Option<(String, String)> {
        self.rows
            .iter()
            .flat_map(|r| r.gpu.iter())
            .map(|g| {
                let driver = g.device.driver.clone().unwrap_or_else(|| "unknown".into());
                let driver = match &g.device.cuda_driver {
                    Some(cuda) => format!("{driver}, CUDA {cuda}"),
                    None => driver,
                };
                (g.device.name.clone(), driver)
            })
            .next()
    }

    /// The CPU thread count of the CPU runs.
    pub fn cpu_threads(&self) -> usize {
        self.rows.first().and_then(|r| r.cpu.device.cpu_threads).unwrap_or(0)
    }

    /// The run folder this result goes in, named as `bench/results/` keeps runs
    /// (`bench/results/README.md`): `DATE-COMMIT-DEVICE-suite[-quick]`, the commit's short hash
    /// (with `-dirty` where the build tree was) and the GPU's short name (`h100`), or `cpu` when no
    /// GPU ran.
    pub fn run_folder(&self) -> String {
        let device = match self.gpu_device() {
            Some((name, _)) => short_device_name(&name),
            None => "cpu".into(),
        };
        let dirty = if self.commit.ends_with("-dirty") { "-dirty" } else { "" };
        let commit: String = self.commit.trim_end_matches("-dirty").chars().take(7).collect();
        format!("{}-{commit}{dirty}-{device}-suite{}", &self.date[..10], if self.quick { "-quick" } else { "" })
    }

    /// The markdown report: what ran where, then one row per graph.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# warpath suite{}\n", if self.quick { " (quick: scaled-down graphs)" } else { "" });
        let _ = writeln!(md, "- date: {}", self.date);
        let _ = writeln!(md, "- commit: {}", self.commit);
        match self.gpu_device() {
            Some((name, driver)) => {
                let _ = writeln!(md, "- GPU: {name} (driver {driver})");
            }
            None => {
                let why = self.rows.iter().find_map(|r| r.gpu_missing.clone()).unwrap_or_default();
                let _ = writeln!(md, "- GPU: none ({why})");
            }
        }
        let _ = writeln!(md, "- CPU: {} threads", self.cpu_threads());
        let _ = writeln!(
            md,
            "- roots: {} per graph and backend (seed {}; the same roots for every kernel), Graph500-style; one untimed \
             warm-up; every traversal validated",
            self.roots, self.seed
        );
        if !self.gpu_kernels.is_empty() {
            let _ = writeln!(
                md,
                "- GPU kernels: {}{}",
                self.gpu_kernels.join(", "),
                if self.gpu_kernels.len() > 1 {
                    " (the fastest per graph in bold; GPU/CPU is its speedup)"
                } else {
                    ""
                }
            );
        }
        let _ = writeln!(
            md,
            "- GTEPS: harmonic mean over the roots of directed edges in the reached component / traversal time \
             (the seed papers' count; GPU time from CUDA events around the traversal). The Graph500 count is in the JSON."
        );
        let _ = writeln!(
            md,
            "- device memory: what warpath allocates on the GPU for a traversal with the fastest kernel (graph, \
             transpose of a directed graph, the kernel's per-vertex arrays), computed from the buffer sizes, not \
             measured by the driver.\n"
        );
        let kernels = &self.gpu_kernels;
        let mut header = String::from("| graph | Merrill's graph | vertices | edges (directed) | depth (median) |");
        let mut rule = String::from("|---|---|---:|---:|---:|");
        for k in kernels {
            let _ = write!(header, " GPU GTEPS {k} |");
            rule.push_str("---:|");
        }
        header.push_str(" CPU GTEPS | GPU/CPU (fastest GPU kernel) | C2050 GTEPS (distance / predecessor) |");
        rule.push_str("---:|---|---:|");
        for k in kernels {
            let _ = write!(header, " GPU median ms {k} |");
            rule.push_str("---:|");
        }
        header.push_str(
            " CPU median ms | GPU end-to-end median ms (fastest) | device memory (fastest) | read ms | build ms |",
        );
        rule.push_str("---:|---:|---:|---:|---:|");
        let _ = writeln!(md, "{header}\n{rule}");
        for row in &self.rows {
            let name = file_name(&row.graph);
            let merrill = match (row.merrill, self.quick) {
                (Some(m), false) => m.to_string(),
                (Some(m), true) => format!("{m} (scaled down)"),
                (None, _) => String::new(),
            };
            let cpu = &row.cpu.summary;
            let best = row.best_gpu();
            let mark = row.gpu.len() > 1;
            let mut line = format!(
                "| {name} | {merrill} | {} | {} | {} |",
                row.cpu.graph.vertices, row.cpu.graph.edges, cpu.details.depth.median
            );
            for k in kernels {
                let cell = match row.gpu_report(k) {
                    Some(g) if mark && best.is_some_and(|b| std::ptr::eq(b, g)) => {
                        format!("**{:.3}**", g.summary.hmean_gteps)
                    }
                    Some(g) => format!("{:.3}", g.summary.hmean_gteps),
                    None => "n/a".into(),
                };
                let _ = write!(line, " {cell} |");
            }
            let speedup = match (best, &row.gpu_missing) {
                (Some(b), _) => format!(
                    "{:.1}x ({})",
                    b.summary.hmean_gteps / cpu.hmean_gteps,
                    b.flags.gpu_kernel.as_deref().unwrap_or("gpu")
                ),
                (None, Some(why)) => format!("n/a (GPU: {})", why.replace('|', "/")),
                (None, None) => "n/a".into(),
            };
            let c2050 = row.c2050.map(|r| format!("{} / {}", r.distance, r.predecessor)).unwrap_or_default();
            let _ = write!(line, " {:.3} | {speedup} | {c2050} |", cpu.hmean_gteps);
            for k in kernels {
                let cell = row.gpu_report(k).map(|g| format!("{:.3}", g.summary.time_ms.median)).unwrap_or_default();
                let _ = write!(line, " {cell} |");
            }
            let e2e = best.map(|b| format!("{:.3}", b.summary.end_to_end_ms.median)).unwrap_or_default();
            let memory = best.and_then(|b| b.peak_device_bytes).map(mib).unwrap_or_default();
            let _ = write!(line, " {:.3} | {e2e} | {memory} |", cpu.time_ms.median);
            let (read, build) = match &row.cpu.load {
                Some(load) => (format!("{:.1}", load.read_ms), format!("{:.1}", load.build_ms)),
                None => (String::new(), String::new()),
            };
            let _ = write!(line, " {read} | {build} |");
            let _ = writeln!(md, "{line}");
        }
        if !self.sssp_rows.is_empty() {
            md.push_str(&self.sssp_markdown());
        }
        let _ = writeln!(
            md,
            "\nC2050 rates: Merrill, Garland and Grimshaw, \"Scalable GPU Graph Traversal\", PPoPP 2012, Table 2 \
             (10^9 TE/s, NVIDIA Tesla C2050, \"GPU (linear-work hybrid strategy)\" columns), shown for full-size graphs \
             only. Our generators stand in for the paper's files, so sizes differ somewhat (e.g. the paper's \
             kron_g500-logn20 and random.2Mv.128Me edge counts)."
        );
        if !self.cc_rows.is_empty() {
            md.push_str(&self.cc_markdown());
        }
        if !self.many_rows.is_empty() {
            md.push_str(&self.many_markdown());
        }
        if !self.partitioned_rows.is_empty() {
            md.push_str(&self.partitioned_markdown());
        }
        md
    }

    /// The partitioned BFS's scaling table: per graph, one partition and each rank set.
    pub fn partitioned_markdown(&self) -> String {
        let mut md = format!(
            "\n## Partitioned BFS\n\n\
             The direction-optimizing BFS over 1D partitions (docs/multi-gpu.md), the same {} roots on one \
             partition (the graph whole, one thread) and on each rank set, in this process, every traversal \
             validated. Speedup: one partition's median time over the set's; efficiency: speedup / ranks; \
             exchange: frontier bytes sent between ranks per traversal.\n\n",
            self.roots
        );
        let names: Vec<String> = self.partitioned_rows.iter().map(|r| file_name(&r.graph)).collect();
        md.push_str(&scaling_markdown(
            names.iter().zip(&self.partitioned_rows).map(|(n, r)| (n.as_str(), r.reports.as_slice())),
        ));
        md
    }

    /// Every partitioned [`PartitionedBenchReport`] (per graph: the baseline's, then each rank
    /// set's) as pretty JSON: an array.
    pub fn partitioned_json(&self) -> String {
        let reports: Vec<&PartitionedBenchReport> = self.partitioned_rows.iter().flat_map(|r| &r.reports).collect();
        serde_json::to_string_pretty(&reports).expect("reports encode as JSON") + "\n"
    }

    /// The connected-components table: one row per graph, GPU and CPU side by side.
    pub fn cc_markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "\n## Connected components\n\n\
             Afforest (2 neighbor rounds, 1024 samples) on both backends, {} runs per graph and backend after one \
             untimed warm-up, every run validated against a sequential union-find. GTEPS: edges as stored / time \
             (harmonic mean); times are medians (GPU: the kernels alone).\n",
            self.roots
        );
        let _ = writeln!(
            md,
            "| graph | vertices | edges (directed) | components | largest component | GPU median ms | CPU median ms \
             | GPU/CPU | GPU GTEPS | CPU GTEPS |\n|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"
        );
        for row in &self.cc_rows {
            let name = file_name(&row.graph);
            let cpu = &row.cpu;
            let (gpu_ms, speedup, gpu_rate) = match (&row.gpu, &row.gpu_missing) {
                (Some(gpu), _) => (
                    format!("{:.3}", gpu.summary.time_ms.median),
                    format!("{:.1}x", cpu.summary.time_ms.median / gpu.summary.time_ms.median),
                    format!("{:.3}", gpu.summary.hmean_gteps),
                ),
                (None, Some(why)) => {
                    ("n/a".into(), format!("n/a (the GPU did not run: {})", why.replace('|', "/")), "n/a".into())
                }
                (None, None) => ("n/a".into(), "n/a".into(), "n/a".into()),
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {} | {} | {} | {gpu_ms} | {:.3} | {speedup} | {gpu_rate} | {:.3} |",
                cpu.graph.vertices,
                cpu.graph.edges,
                cpu.summary.details.components,
                cpu.summary.details.largest_component,
                cpu.summary.time_ms.median,
                cpu.summary.hmean_gteps
            );
        }
        md
    }

    /// The many-sources table: per graph, 64 roots as one batch, exact closeness and SCC, GPU
    /// beside CPU; `-` where the graph does not take the algorithm, `n/a` where the GPU did not
    /// run.
    pub fn many_markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "\n## Many sources, closeness, strongly connected components\n\n\
             64 roots (by the suite's seed) searched as one bit-parallel batch (`bench --batch`; every source's \
             distances of a warm-up validated), exact closeness and harmonic centrality (graphs of at most {} \
             vertices; every run checked at 16 vertices) and strongly connected components (directed graphs; every \
             run equal to Tarjan's), up to {} runs each after one untimed warm-up; medians in ms (GPU: CUDA events). \
             Undirected graphs' strongly connected components are their connected components, above.\n",
            EXACT_VERTICES, MANY_RUNS
        );
        let _ = writeln!(
            md,
            "| graph | batch GPU ms | batch CPU ms | closeness GPU ms | closeness CPU ms | SCC components | SCC GPU ms \
             | SCC CPU ms | Tarjan ms (1 core) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        let ms = |time: Option<f64>, taken: bool| match (time, taken) {
            (Some(t), _) => format!("{t:.3}"),
            (None, true) => "n/a".to_string(),
            (None, false) => "-".to_string(),
        };
        for row in &self.many_rows {
            let bfs = self.rows.iter().find(|r| r.graph == row.graph);
            let batch =
                |report: Option<&BenchReport>| report.and_then(|r| r.payload.batch.as_ref()).map(|b| b.time_ms.median);
            let closeness_taken = row.closeness_cpu.is_some();
            let scc_taken = row.scc_cpu.is_some();
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                file_name(&row.graph),
                ms(batch(bfs.and_then(|r| r.gpu.first())), bfs.is_some()),
                ms(batch(bfs.map(|r| &r.cpu)), false),
                ms(row.closeness_gpu.as_ref().map(|r| r.summary.time_ms.median), closeness_taken),
                ms(row.closeness_cpu.as_ref().map(|r| r.summary.time_ms.median), false),
                row.scc_cpu.as_ref().map_or("-".to_string(), |r| r.summary.details.components.to_string()),
                ms(row.scc_gpu.as_ref().map(|r| r.summary.time_ms.median), scc_taken),
                ms(row.scc_cpu.as_ref().map(|r| r.summary.time_ms.median), false),
                row.scc_cpu.as_ref().map_or("-".to_string(), |r| format!("{:.3}", r.payload.tarjan_ms)),
            );
        }
        md
    }

    /// The closeness and SCC reports (per graph: the GPU's, then the CPU's) as pretty JSON: an
    /// object of two arrays, `closeness` and `scc`.
    pub fn many_json(&self) -> String {
        let closeness: Vec<&ClosenessReport> =
            self.many_rows.iter().flat_map(|r| r.closeness_gpu.iter().chain(r.closeness_cpu.iter())).collect();
        let scc: Vec<&SccReport> =
            self.many_rows.iter().flat_map(|r| r.scc_gpu.iter().chain(r.scc_cpu.iter())).collect();
        serde_json::to_string_pretty(&serde_json::json!({ "closeness": closeness, "scc": scc }))
            .expect("reports encode as JSON")
            + "\n"
    }

    /// Every connected-components [`CcReport`] (per graph: the GPU's, then the CPU's) as pretty
    /// JSON: an array.
    pub fn cc_json(&self) -> String {
        let reports: Vec<&CcReport> =
            self.cc_rows.iter().flat_map(|r| r.gpu.iter().chain(std::iter::once(&r.cpu))).collect();
        serde_json::to_string_pretty(&reports).expect("reports encode as JSON") + "\n"
    }

    /// The shortest-paths table: one row per graph, GPU beside CPU.
    fn sssp_markdown(&self) -> String {
        let mut md = String::from(
            "\n## Shortest paths (delta-stepping)\n\nThe same roots; the `.gr` road networks with their own arc lengths, \
             every other graph with GAPBS's weights (uniform 1..255, seeded). GTEPS: harmonic mean of directed edges \
             in the reached component / time (Graph500's kernel-3 count is in the JSON); every run checked by \
             kernel 3's rules. Relaxations per edge: edges relaxed over the graph's edges (the work inefficiency).\n\n\
             | graph | weights | GPU GTEPS | CPU GTEPS | GPU/CPU | GPU median ms | CPU median ms | relaxations per edge GPU | relaxations per edge CPU |\n\
             |---|---|---:|---:|---|---:|---:|---:|---:|\n",
        );
        for row in &self.sssp_rows {
            let name = file_name(&row.graph);
            let cpu = &row.cpu.summary;
            let (gpu_gteps, speedup, gpu_ms, gpu_relax) = match (&row.gpu, &row.gpu_missing) {
                (Some(g), _) => (
                    format!("{:.3}", g.summary.hmean_gteps),
                    format!("{:.1}x", g.summary.hmean_gteps / cpu.hmean_gteps),
                    format!("{:.3}", g.summary.time_ms.median),
                    format!("{:.2}", g.summary.details.relaxations_per_edge.median),
                ),
                (None, _) => ("n/a".into(), "n/a".into(), String::new(), String::new()),
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {gpu_gteps} | {:.3} | {speedup} | {gpu_ms} | {:.3} | {gpu_relax} | {:.2} |",
                row.cpu.payload.weights, cpu.hmean_gteps, cpu.time_ms.median, cpu.details.relaxations_per_edge.median
            );
        }
        // Why the GPU did not run is said once, not per row (the BFS table says it per row).
        if let Some(why) = self.sssp_rows.iter().find_map(|r| r.gpu_missing.as_ref()) {
            let _ = writeln!(md, "\nGPU: n/a ({why})");
        }
        md
    }

    /// Every run's [`BenchReport`] (per graph: each GPU kernel's, then the CPU's) as pretty
    /// JSON: an array.
    pub fn json(&self) -> String {
        let reports: Vec<&BenchReport> =
            self.rows.iter().flat_map(|r| r.gpu.iter().chain(std::iter::once(&r.cpu))).collect();
        serde_json::to_string_pretty(&reports).expect("reports encode as JSON") + "\n"
    }

    /// Every shortest-paths [`SsspReport`] (per graph: the GPU's, then the CPU's) as pretty JSON:
    /// an array.
    pub fn sssp_json(&self) -> String {
        let reports: Vec<&SsspReport> =
            self.sssp_rows.iter().flat_map(|r| r.gpu.iter().chain(std::iter::once(&r.cpu))).collect();
        serde_json::to_string_pretty(&reports).expect("reports encode as JSON") + "\n"
    }

    /// Writes `suite.md` and `suite.json` into a new run folder ([`SuiteResult::run_folder`])
    /// under `dir` (both created if needed), and [`CC_JSON`], `suite-sssp.json`, [`MANY_JSON`]
    /// and [`PARTITIONED_JSON`] beside them when connected components, shortest paths, closeness
    /// or SCC, and the partitioned BFS ran; returns the first two paths.
    pub fn write(&self, dir: &Path) -> Result<(PathBuf, PathBuf)> {
        let folder = dir.join(self.run_folder());
        std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
        let md = folder.join("suite.md");
        let json = folder.join("suite.json");
        crate::output::write_output(&md, |out| out.write_all(self.markdown().as_bytes()))?;
        if !self.sssp_rows.is_empty() {
            let sssp = folder.join("suite-sssp.json");
            crate::output::write_output(&sssp, |out| out.write_all(self.sssp_json().as_bytes()))?;
        }
        crate::output::write_output(&json, |out| out.write_all(self.json().as_bytes()))?;
        if !self.cc_rows.is_empty() {
            let cc = folder.join(CC_JSON);
            crate::output::write_output(&cc, |out| out.write_all(self.cc_json().as_bytes()))?;
        }
        if !self.many_rows.is_empty() {
            let many = folder.join(MANY_JSON);
            crate::output::write_output(&many, |out| out.write_all(self.many_json().as_bytes()))?;
        }
        if !self.partitioned_rows.is_empty() {
            let partitioned = folder.join(PARTITIONED_JSON);
            crate::output::write_output(&partitioned, |out| out.write_all(self.partitioned_json().as_bytes()))?;
        }
        Ok((md, json))
    }
}

/// The name a table gives a graph: a file's name without its folder, a generator spec as it is.
fn file_name(graph: &str) -> String {
    Path::new(graph).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A GPU's short name for run folders: the model in `NVIDIA H100 80GB HBM3` (`h100`: the first
/// word of a letter and digits only), else the whole name in lower case with dashes
/// (`NVIDIA GeForce RTX 4090` -> `nvidia-geforce-rtx-4090`), as scripts/gpu-common names them.
fn short_device_name(name: &str) -> String {
    let is_model = |word: &&str| {
        let mut chars = word.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && (2..=4).contains(&chars.clone().count())
            && chars.all(|c| c.is_ascii_digit())
    };
    if let Some(model) = name.split_whitespace().find(is_model) {
        return model.to_ascii_lowercase();
    }
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_device_names() {
        assert_eq!(short_device_name("NVIDIA H200"), "h200");
        assert_eq!(short_device_name("NVIDIA H100 80GB HBM3 "), "h100");
        assert_eq!(short_device_name("NVIDIA GeForce RTX 4090"), "nvidia-geforce-rtx-4090");
    }

    #[test]
    fn run_folder_names() {
        let mut result = SuiteResult {
            date: "2026-11-25T10:00:00Z".into(),
            commit: "1836d7a9d3b1efdf091db0f1e65908a4efca2803".into(),
            sssp_rows: Vec::new(),
            quick: false,
            roots: 1,
            seed: 1,
            gpu_kernels: Vec::new(),
            rows: Vec::new(),
            cc_rows: Vec::new(),
            partitioned_rows: Vec::new(),
            many_rows: Vec::new(),
        };
        assert_eq!(result.run_folder(), "2026-11-25-1836d7a-cpu-suite");
        result.commit = "1836d7a9d3b1efdf091db0f1e65908a4efca2803-dirty".into();
        result.quick = true;
        assert_eq!(result.run_folder(), "2026-11-25-1836d7a-dirty-cpu-suite-quick");
    }

    #[test]
    fn shortest_paths_get_their_own_table_and_json() {
        let options =
            SuiteOptions { quick: true, roots: 2, only: vec!["grid2d".into()], gpu: false, ..Default::default() };
        let result = run_suite(&options, &mut |_| {}).unwrap();
        assert_eq!(result.sssp_rows.len(), 1);
        let row = &result.sssp_rows[0];
        assert_eq!((row.graph.as_str(), row.cpu.algorithm.as_str()), ("grid2d:64", "sssp"));
        assert_eq!(row.cpu.summary.validated, 2);
        assert_eq!(row.cpu.payload.weights.split(' ').next(), Some("u32"));
        let md = result.markdown();
        assert!(
            md.contains("## Shortest paths (delta-stepping)") && md.contains("| grid2d:64 | u32 weights from "),
            "{md}"
        );
        let reports: Vec<SsspReport> = serde_json::from_str(&result.sssp_json()).unwrap();
        assert_eq!(reports.len(), 1);
        let bfs_only = run_suite(&SuiteOptions { sssp: false, ..options }, &mut |_| {}).unwrap();
        assert!(bfs_only.sssp_rows.is_empty() && !bfs_only.markdown().contains("Shortest paths"));
    }

    #[test]
    fn many_sources_closeness_and_scc_get_their_own_table_and_json() {
        let options = SuiteOptions {
            quick: true,
            roots: 2,
            only: vec!["grid2d".into()],
            gpu: false,
            cc: false,
            sssp: false,
            ..Default::default()
        };
        let result = run_suite(&options, &mut |_| {}).unwrap();
        let batch = result.rows[0].cpu.payload.batch.as_ref().expect("the batch ran beside the BFS");
        assert_eq!((batch.roots, batch.runs), (64, 2));
        let row = &result.many_rows[0];
        // An undirected graph: closeness, and no SCC (its connected components).
        assert_eq!(row.closeness_cpu.as_ref().map(|r| r.summary.validated), Some(2));
        assert!(row.scc_cpu.is_none() && row.closeness_gpu.is_none());
        // A directed graph takes SCC, each run equal to Tarjan's.
        let directed = crate::generate::generate(&"dkron:8".parse().unwrap(), 1).unwrap();
        let row = run_many_row("dkron:8", &directed, &options, LoadStage::default(), &mut |_| {}).unwrap();
        assert_eq!(row.scc_cpu.as_ref().map(|r| r.summary.validated), Some(2));
        let mut with_scc = result.clone();
        with_scc.many_rows.push(row);
        let md = with_scc.markdown();
        assert!(md.contains("## Many sources, closeness, strongly connected components"), "{md}");
        assert!(md.lines().any(|l| l.starts_with("| grid2d:64 | n/a | ") && l.ends_with(" | - | - | - | - |")), "{md}");
        assert!(md.lines().any(|l| l.starts_with("| dkron:8 | - | - | n/a | ")), "{md}");
        let json: serde_json::Value = serde_json::from_str(&with_scc.many_json()).unwrap();
        assert_eq!((json["closeness"].as_array().unwrap().len(), json["scc"].as_array().unwrap().len()), (2, 1));
        let without = run_suite(&SuiteOptions { many: false, ..options }, &mut |_| {}).unwrap();
        assert!(without.many_rows.is_empty() && without.rows[0].cpu.payload.batch.is_none());
        assert!(!without.markdown().contains("Many sources"));
    }

    #[test]
    fn full_and_quick_lists() {
        let full = suite_graphs(&SuiteOptions::default()).unwrap();
        let names: Vec<&str> = full.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["grid2d:5000", "grid3d:300", "kron:20", "urand:21:64", "rmat:21:64:0.45,0.15,0.15", "kron:24", "kron:25"]
        );
        let quick =
            suite_graphs(&SuiteOptions { quick: true, only: vec!["kron".into()], ..Default::default() }).unwrap();
        let names: Vec<&str> = quick.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["kron:10", "kron:11", "kron:12"]);
        assert!(suite_graphs(&SuiteOptions { only: vec!["nothing".into()], ..Default::default() }).is_err());
        // Every spec parses, and each quick spec is of the same family as its full one.
        for s in &SYNTHETIC {
            s.spec.parse::<crate::generate::GeneratorSpec>().unwrap();
            s.quick_spec.parse::<crate::generate::GeneratorSpec>().unwrap();
            assert_eq!(s.spec.split(':').next(), s.quick_spec.split(':').next());
        }
    }
}
