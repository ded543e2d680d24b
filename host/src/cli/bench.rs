use std::time::Instant;

use warpath::bench::json::Flags;
use warpath::bench::{plot, report, run_bench, write_report, BenchOptions, BenchReport};
use warpath::bfs::Traverser;
use warpath::Result;

use super::args::BenchArgs;

pub fn run(args: &BenchArgs) -> Result<()> {
    // Refuse a bad plot name before the work, not after it.
    if let Some(path) = &args.plot {
        plot::check_plot_path(path)?;
    }
    let loading = Instant::now();
    let graph = super::load(&args.input)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;

    let mut traverser = Traverser::new(&graph, args.backend)?;
    traverser.set_gpu_kernel(args.gpu.kernel());
    for warning in traverser.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let trace = args.trace || args.plot.is_some();
    let options = BenchOptions { roots: args.roots, seed: args.input.seed, trace };
    let on = match traverser.gpu() {
        Some(_) => format!("{} ({})", traverser.backend(), args.gpu.name()),
        None => traverser.backend().to_string(),
    };
    let bar = super::progress::bar(args.roots as u64, &format!("BFS on {on}"));
    let run = run_bench(&graph, &traverser, &options, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let run = run?;

    let backend = format!("{:?}", args.backend).to_lowercase();
    let flags =
        Flags::new(args.roots, args.input.seed, &backend, args.input.undirected, trace).with_gpu_kernel(&traverser);
    let report = BenchReport::new(&args.input.graph, &graph, flags, load_ms, run);
    print!("{}", report::render(&report));

    if let Some(path) = &args.json {
        write_report(&report, path)?;
        println!("json: {}", path.display());
    }
    if let (Some(path), Some(trace)) = (&args.plot, &report.trace) {
        let title = format!("{}: BFS from {} on {}", report.graph.name, trace.source, report.device.name);
        plot::plot_levels(&trace.levels, &title, path)?;
        println!("plot: {}", path.display());
    }
    Ok(())
}
