use std::path::Path;

use serde::Serialize;
use warpath::bench::json::Flags;
use warpath::bench::{plot, report, run_kernel, BenchKernel, BenchOptions, BfsKernel, LoadStage, Report};
use warpath::{Graph, Result};

use warpath::bfs::KernelName;

use super::args::{BenchAlgorithm, BenchArgs, WeightArgs};

pub fn run(args: &BenchArgs) -> Result<()> {
    if args.batch && (args.algorithm != BenchAlgorithm::Bfs || args.multi.requested()) {
        return Err(warpath::Error::InvalidArgument(
            "--batch searches BFS roots on one GPU or the CPU: drop it, or --algorithm, --partitions, --gpus".into(),
        ));
    }
    match args.trace_trial {
        Some(trial) if trial > args.roots => {
            return Err(warpath::Error::InvalidArgument(format!(
                "--trace-trial {trial}: there are only {} trials (--roots {})",
                args.roots, args.roots
            )))
        }
        Some(_) if args.multi.requested() => {
            return Err(warpath::Error::InvalidArgument(
                "--trace-trial picks the root --trace follows on one GPU or the CPU; the partitioned bench traces \
                 none: drop it, or --partitions/--gpus"
                    .into(),
            ))
        }
        _ => {}
    }
    match args.algorithm {
        BenchAlgorithm::Cc => return run_cc(args),
        BenchAlgorithm::Sssp if args.multi.requested() => {
            return Err(warpath::Error::InvalidArgument(
                "the partitioned bench runs bfs and cc; shortest paths run on one GPU or the CPU: drop \
                 --partitions/--gpus"
                    .into(),
            ))
        }
        BenchAlgorithm::Sssp => return run_sssp(args),
        BenchAlgorithm::Scc | BenchAlgorithm::Closeness if args.multi.requested() => {
            return Err(warpath::Error::InvalidArgument(
                "the partitioned bench runs bfs and cc; strongly connected components and closeness run on one \
                 device: drop --partitions/--gpus"
                    .into(),
            ))
        }
        BenchAlgorithm::Scc => return run_scc(args),
        BenchAlgorithm::Closeness => return run_closeness(args),
        BenchAlgorithm::Bfs if args.multi.requested() => return super::multi::run_bench(args),
        BenchAlgorithm::Bfs => {}
    }
    if let Some(flag) = args.cc.given().first() {
        return Err(warpath::Error::InvalidArgument(format!(
            "{flag} tunes connected components: add --algorithm cc, or drop {flag}"
        )));
    }
    // Refuse a bad plot name before the work, not after it.
    if let Some(path) = &args.plot {
        plot::check_plot_path(path)?;
        super::check_output(path, &args.graph.input)?;
    }
    if let Some(path) = &args.json {
        super::check_output(path, &args.graph.input)?;
    }
    let kernel = super::requested_kernel(&args.gpu)?;
    let (graph, load) = load(args, &WeightArgs { weights: None, ignore_weights: true })?;

    let traverser = super::prepare(&graph, &args.graph, &args.gpu, kernel)?;
    let trace = args.traced() || args.plot.is_some();
    let on = match traverser.gpu() {
        Some(_) => format!("{} ({})", traverser.backend(), KernelName::of(&traverser.resolved_gpu_kernel())),
        None => traverser.backend().to_string(),
    };
    let mut kernel = BfsKernel::new(&graph, &traverser);
    let mut report = run_trials(args, &graph, load, trace, &format!("BFS on {on}"), &mut kernel)?
        .with_placement(warpath::bench::PlacementStage::of(traverser.placed())?);
    if args.batch {
        let roots = warpath::bench::bfs::choose_roots(&graph, args.graph.input.seed, args.roots)?;
        report.payload.batch = Some(warpath::bench::bfs::run_batch(&graph, &traverser, &roots, BATCH_RUNS, trace)?);
    }
    if !args.json_on_stdout() {
        print!("{}", report::render(&report));
        if let Some(batch) = &report.payload.batch {
            let singles: f64 = report.trials.iter().map(|t| t.time_ms).sum();
            let bottom_up = batch
                .bottom_up_time_ms
                .as_ref()
                .map_or(String::new(), |b| format!(" (every level bottom-up: {:.3} ms)", b.median));
            println!(
                "batch: the {} roots as one batch ({}, validated): median {:.3} ms of {} runs{bottom_up}, end-to-end \
                 {:.3} ms; one traversal each: {singles:.3} ms in all",
                batch.roots, batch.searches, batch.time_ms.median, batch.runs, batch.end_to_end_ms.median
            );
            for level in batch.levels.iter().flatten() {
                println!(
                    "  batch level {:>3} {:<9} reached {:>10} vertices ({:>12} out-list entries) in {:.3} ms",
                    level.level, level.direction, level.reached, level.reached_edges, level.time_ms
                );
            }
        }
        if let (Some(gpu), Some(trace)) = (traverser.gpu(), &report.payload.trace) {
            print_bandwidth(gpu, &trace.levels)?;
        }
    }
    write_json(&report, args.json.as_deref())?;
    if let (Some(path), Some(trace)) = (&args.plot, &report.payload.trace) {
        let title = format!("{}: BFS from {} on {}", report.graph.name, trace.source, report.device.name);
        plot::plot_levels(&trace.levels, &title, path)?;
        if !args.json_on_stdout() {
            println!("plot: {}", path.display());
        }
    }
    Ok(())
}

/// Timed batches of `bench --batch`.
const BATCH_RUNS: usize = 3;

/// Loads GRAPH with `weights`, timing reading and building apart.
fn load(args: &BenchArgs, weights: &WeightArgs) -> Result<(Graph, LoadStage)> {
    // Pinned memory (when the GPU may run) is made ready before the load is timed: the load
    // stage holds its allocation, not the driver's start.
    let memory = super::host_memory_for(&args.graph);
    let (graph, stages) = super::load_weighted_staged(&args.graph.input, weights, memory)?;
    Ok((graph, LoadStage::of(&stages)))
}

/// What every algorithm's bench does once its kernel is prepared: `--roots` trials under a
/// progress bar named `what`, assembled into the report of the run.
fn run_trials<K: BenchKernel>(
    args: &BenchArgs,
    graph: &Graph,
    load: LoadStage,
    trace: bool,
    what: &str,
    kernel: &mut K,
) -> Result<Report<K::Details, K::SummaryDetails, K::Payload>> {
    let traced = args.trace_trial.map_or(0, |trial| trial - 1);
    let options = BenchOptions { trials: args.roots, seed: args.graph.input.seed, trace, traced };
    let bar = super::progress::bar(args.roots as u64, what);
    let run = run_kernel(kernel, &options, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let input = &args.graph.input;
    let flags = Flags::new(args.roots, input.seed, args.graph.backend().name(), input.undirected, trace);
    Ok(Report::new(&input.graph, graph, flags, load, run?))
}

/// Writes `report` in the envelope every command's `--json` shares to `--json` when it was given
/// ([`warpath::output::write_output`]: a file whole or not at all, a stream as it is).
fn write_json<D: Serialize, S: Serialize, P: Serialize>(report: &Report<D, S, P>, path: Option<&Path>) -> Result<()> {
    let Some(path) = path else { return Ok(()) };
    super::json::write_envelope(path, &super::json::bench_envelope(report), report)
}

/// The traced root's busiest level against the device's copy bandwidth, both measured in this
/// run. The level's bytes are a lower bound: the offsets and lists it read, not labels,
/// bitmaps or queues.
fn print_bandwidth(gpu: &warpath::gpu::GpuContext, levels: &[warpath::bench::LevelRecord]) -> Result<()> {
    const PROBE_BYTES: usize = 1 << 30;
    let (free, _) = gpu.memory_info()?;
    let probe = PROBE_BYTES.min(free as usize / 4);
    let copy = gpu.copy_bandwidth(probe)?;
    println!(
        "device copy bandwidth: {:.0} GB/s (read + write, {} MiB copied device to device, this run)",
        copy / 1e9,
        probe >> 20
    );
    if let Some(level) = levels.iter().filter(|l| l.time_ms > 0.0).max_by_key(|l| l.edges_inspected) {
        // Older traces (and the per-level kernel's) count no bytes: 4 per edge is a floor.
        let bytes = if level.bytes_read > 0 { level.bytes_read as f64 } else { 4.0 * level.edges_inspected as f64 };
        let achieved = bytes / (level.time_ms / 1e3);
        println!(
            "busiest level: {} ({}), {} edges inspected in {:.3} ms: at least {:.0} GB/s of offsets and lists, {:.1}% of copy bandwidth",
            level.level,
            level.direction,
            level.edges_inspected,
            level.time_ms,
            achieved / 1e9,
            100.0 * achieved / copy
        );
    }
    Ok(())
}

/// `bench --algorithm cc`: `--trials` runs over the whole graph, each validated, and the phases
/// of the first.
fn run_cc(args: &BenchArgs) -> Result<()> {
    use warpath::bench::cc::{render, CcKernel};
    use warpath::bfs::GpuKernel;
    use warpath::cc::ComponentFinder;
    use warpath::Error;

    let bfs_tuning =
        args.gpu.kernel().map_err(Error::InvalidArgument)? != GpuKernel::default() || args.gpu.distances_only;
    if bfs_tuning {
        return Err(Error::InvalidArgument(
            "--gpu-kernel and the BFS tuning options do not apply to --algorithm cc: drop them".into(),
        ));
    }
    if args.plot.is_some() {
        return Err(Error::InvalidArgument("--plot draws BFS levels: drop it with --algorithm cc".into()));
    }
    if let Some(path) = &args.json {
        super::check_output(path, &args.graph.input)?;
    }
    let options = args.cc.options()?;
    if args.multi.requested() {
        return super::multi::run_cc_bench(args, &options);
    }
    let (graph, load) = load(args, &WeightArgs { weights: None, ignore_weights: true })?;
    let placement = args.graph.placement_options();
    let finder = ComponentFinder::with_options(&graph, args.graph.backend(), &placement, &options)?;
    for warning in finder.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let what = format!("CC on {}", finder.backend());
    let report = run_trials(args, &graph, load, args.traced(), &what, &mut CcKernel::new(&graph, &finder, options))?
        .with_placement(warpath::bench::PlacementStage::of(finder.placed())?);
    if !args.json_on_stdout() {
        print!("{}", render(&report));
    }
    write_json(&report, args.json.as_deref())
}

/// `bench --algorithm sssp`: shortest paths from Graph500's roots, each run checked by kernel 3's
/// rules; `--trace` adds the first root's buckets (or iterations) on the GPU. `--plot` draws BFS
/// levels, which shortest paths do not have, so it is refused.
fn run_sssp(args: &BenchArgs) -> Result<()> {
    use warpath::bench::sssp::{render, SsspKernel};
    use warpath::sssp::{PathFinder, SsspOptions};

    if args.plot.is_some() {
        return Err(warpath::Error::InvalidArgument(
            "--plot draws BFS levels; shortest paths have none (drop it with --algorithm sssp; --trace prints the \
             buckets)"
                .into(),
        ));
    }
    if let Some(delta) = args.sssp.delta {
        if !(delta.is_finite() && delta > 0.0) {
            return Err(warpath::Error::InvalidArgument(format!("--delta must be a positive number, not {delta}")));
        }
    }
    if let Some(path) = &args.json {
        super::check_output(path, &args.graph.input)?;
    }
    let options = args.sssp.tuning.apply(SsspOptions {
        strategy: args.sssp.sssp_strategy.into(),
        delta: args.sssp.delta,
        split_threshold: None,
        distances_only: args.gpu.distances_only,
        ..SsspOptions::default()
    });
    let (graph, load) = load(args, &args.sssp.weights)?;
    let finder = PathFinder::with_placement(&graph, args.graph.backend(), &args.graph.placement_options(), &options)?;
    for warning in finder.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let what = format!("SSSP on {}", finder.backend());
    let report = run_trials(args, &graph, load, args.traced(), &what, &mut SsspKernel::new(&graph, &finder, options))?
        .with_placement(warpath::bench::PlacementStage::of(finder.placed())?);
    if !args.json_on_stdout() {
        print!("{}", render(&report));
    }
    write_json(&report, args.json.as_deref())
}

/// `bench --algorithm scc`: strongly connected components of the whole graph, each run checked
/// against Tarjan's algorithm, which runs once beside them and is timed; on the GPU where there is
/// one that takes the graph (placed once, before the warm-up).
fn run_scc(args: &BenchArgs) -> Result<()> {
    use warpath::bench::scc::{render, SccKernel};
    use warpath::Error;

    refuse_bfs_and_cc_options(args, "scc")?;
    let (graph, load) = load(args, &WeightArgs { weights: None, ignore_weights: true })?;
    if graph.is_undirected() {
        return Err(Error::InvalidArgument(format!(
            "{}: an undirected graph's strongly connected components are its connected components: bench it \
             with --algorithm cc",
            args.graph.input.graph
        )));
    }
    let mut kernel = SccKernel::new(&graph, args.graph.backend())?;
    let report = run_trials(args, &graph, load, args.traced(), "SCC", &mut kernel)?;
    print_report(args, &report, render)
}

/// Refuses what `--algorithm` (scc, closeness: whole-graph runs of their own) has no use for: the
/// BFS's kernels and tuning, the CC options, `--plot`; and a `--json` path that would overwrite the
/// input.
fn refuse_bfs_and_cc_options(args: &BenchArgs, algorithm: &str) -> Result<()> {
    use warpath::bfs::GpuKernel;
    use warpath::Error;

    let bfs_tuning =
        args.gpu.kernel().map_err(Error::InvalidArgument)? != GpuKernel::default() || args.gpu.distances_only;
    if bfs_tuning {
        return Err(Error::InvalidArgument(format!(
            "--gpu-kernel and the BFS tuning options do not apply to --algorithm {algorithm}: drop them"
        )));
    }
    if let Some(flag) = args.cc.given().first() {
        return Err(Error::InvalidArgument(format!(
            "{flag} tunes connected components: drop it with --algorithm {algorithm}"
        )));
    }
    if args.plot.is_some() {
        return Err(Error::InvalidArgument(format!("--plot draws BFS levels: drop it with --algorithm {algorithm}")));
    }
    if let Some(path) = &args.json {
        super::check_output(path, &args.graph.input)?;
    }
    Ok(())
}

/// `bench --algorithm closeness`: every vertex's exact closeness and harmonic centrality, each run
/// checked at seeded vertices against one BFS each (on the CPU: there is no GPU path, which a
/// warning says where a GPU was asked for or could have been used).
fn run_closeness(args: &BenchArgs) -> Result<()> {
    use warpath::bench::closeness::{render, ClosenessKernel};
    use warpath::bfs::multi_source::EXACT_VERTICES;

    refuse_bfs_and_cc_options(args, "closeness")?;
    let (graph, load) = load(args, &WeightArgs { weights: None, ignore_weights: true })?;
    let mut kernel = ClosenessKernel::new(&graph, args.graph.backend(), true, args.graph.input.seed, EXACT_VERTICES)
        .map_err(|err| warpath::Error::InvalidArgument(format!("{}: {err}", args.graph.input.graph)))?;
    let report = run_trials(args, &graph, load, args.traced(), "closeness on the CPU", &mut kernel)?;
    print_report(args, &report, render)
}

/// The end of a bench of a whole-graph algorithm (scc, closeness): its warnings, the report's
/// text (`render`) unless the JSON takes standard output, and the JSON where asked.
fn print_report<D: Serialize, S: Serialize, P: Serialize>(
    args: &BenchArgs,
    report: &Report<D, S, P>,
    render: fn(&Report<D, S, P>) -> String,
) -> Result<()> {
    for warning in &report.warnings {
        eprintln!("warpath: warning: {warning}");
    }
    if !args.json_on_stdout() {
        print!("{}", render(report));
    }
    write_json(report, args.json.as_deref())
}
