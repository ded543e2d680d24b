use std::time::Instant;

use warpath::bench::json::Flags;
use warpath::bench::{plot, report, run_bench, write_report, BenchOptions, BenchReport};
use warpath::output::AtomicFile;
use warpath::Result;

use warpath::bfs::KernelName;

use super::args::{BenchAlgorithm, BenchArgs};

pub fn run(args: &BenchArgs) -> Result<()> {
    if args.multi.requested() {
        return super::multi::run_bench(args);
    }
    match args.algorithm {
        BenchAlgorithm::Cc => return run_cc(args),
        BenchAlgorithm::Sssp => return run_sssp(args),
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
    let memory = super::host_memory_for(&args.graph);
    let loading = Instant::now();
    let graph = super::load(&args.graph.input, memory)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;

    let traverser = super::prepare(&graph, &args.graph, &args.gpu, kernel)?;
    let trace = args.trace || args.plot.is_some();
    let options = BenchOptions { trials: args.roots, seed: args.graph.input.seed, trace };
    let on = match traverser.gpu() {
        Some(_) => format!("{} ({})", traverser.backend(), KernelName::of(&traverser.resolved_gpu_kernel())),
        None => traverser.backend().to_string(),
    };
    let bar = super::progress::bar(args.roots as u64, &format!("BFS on {on}"));
    let run = run_bench(&graph, &traverser, &options, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let run = run?;

    let input = &args.graph.input;
    let flags = Flags::new(args.roots, input.seed, args.graph.backend().name(), input.undirected, trace);
    let placement = warpath::bench::PlacementStage::of(&traverser)?;
    let report = BenchReport::new(&input.graph, &graph, flags, load_ms, run).with_placement(placement);
    print!("{}", report::render(&report));

    if let (Some(gpu), Some(trace)) = (traverser.gpu(), &report.payload.trace) {
        print_bandwidth(gpu, &trace.levels)?;
    }
    if let Some(path) = &args.json {
        // Written whole or not at all: to a temporary file beside the target, then renamed.
        let file = AtomicFile::create(path)?;
        write_report(&report, file.temp_path())?;
        file.commit()?;
        println!("json: {}", path.display());
    }
    if let (Some(path), Some(trace)) = (&args.plot, &report.payload.trace) {
        let title = format!("{}: BFS from {} on {}", report.graph.name, trace.source, report.device.name);
        let file = AtomicFile::create(path)?;
        plot::plot_levels(&trace.levels, &title, file.temp_path())?;
        file.commit()?;
        println!("plot: {}", path.display());
    }
    Ok(())
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
    use warpath::bench::cc::{render, run_cc_bench, CcReport};
    use warpath::bfs::GpuKernel;
    use warpath::cc::ComponentFinder;
    use warpath::Error;

    let bfs_tuning = args.gpu.kernel().map_err(Error::InvalidArgument)? != GpuKernel::default() || args.gpu.distances_only;
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
    let memory = super::host_memory_for(&args.graph);
    let loading = Instant::now();
    let graph = super::load(&args.graph.input, memory)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let placement = super::cc::placement_options(&args.graph);
    let finder = ComponentFinder::with_options(&graph, args.graph.backend(), &placement, &options)?;
    for warning in finder.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let bench = BenchOptions { trials: args.roots, seed: args.graph.input.seed, trace: args.trace };
    let bar = super::progress::bar(args.roots as u64, &format!("CC on {}", finder.backend()));
    let run = run_cc_bench(&graph, &finder, options, &bench, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let run = run?;

    let input = &args.graph.input;
    let flags = Flags::new(args.roots, input.seed, args.graph.backend().name(), input.undirected, args.trace);
    let report = CcReport::new(&input.graph, &graph, flags, load_ms, run);
    print!("{}", render(&report));
    if let Some(path) = &args.json {
        let file = AtomicFile::create(path)?;
        write_report(&report, file.temp_path())?;
        file.commit()?;
        println!("json: {}", path.display());
    }
    Ok(())
}

/// `bench --algorithm sssp`: shortest paths from Graph500's roots, each run checked by kernel 3's
/// rules; `--trace` adds the first root's buckets (or iterations) on the GPU. `--plot` draws BFS
/// levels, which shortest paths do not have, so it is refused.
fn run_sssp(args: &BenchArgs) -> Result<()> {
    use warpath::bench::sssp::{render, run_sssp_bench, SsspReport};
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
    let options = SsspOptions {
        strategy: args.sssp.sssp_strategy.into(),
        delta: args.sssp.delta,
        split_threshold: None,
        distances_only: args.gpu.distances_only,
    };
    let memory = super::host_memory_for(&args.graph);
    let loading = Instant::now();
    let graph = super::load_weighted(&args.graph.input, &args.sssp.weights, memory)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let finder = PathFinder::with_placement(&graph, args.graph.backend(), &super::sssp::placement_options(&args.graph), &options)?;
    for warning in finder.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let bench = BenchOptions { trials: args.roots, seed: args.graph.input.seed, trace: args.trace };
    let bar = super::progress::bar(args.roots as u64, &format!("SSSP on {}", finder.backend()));
    let run = run_sssp_bench(&graph, &finder, options, &bench, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let run = run?;
    let input = &args.graph.input;
    let flags = Flags::new(args.roots, input.seed, args.graph.backend().name(), input.undirected, args.trace);
    let report = SsspReport::new(&input.graph, &graph, flags, load_ms, run);
    print!("{}", render(&report));
    if let Some(path) = &args.json {
        let file = AtomicFile::create(path)?;
        write_report(&report, file.temp_path())?;
        file.commit()?;
        println!("json: {}", path.display());
    }
    Ok(())
}
