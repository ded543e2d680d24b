//! Command-line interface: argument definitions in [`args`], one module per subcommand.
//! Every error reaches [`run`], which prints one line (adding the flag that helps where the
//! library's words name an option) and picks the exit code: 2 for bad input, 1 for a result
//! that failed verification.

mod args;
mod bench;
mod bfs;
mod cc;
mod closeness;
mod convert;
mod info;
mod json;
mod kernels;
mod many_sources;
mod multi;
mod progress;
mod results;
mod scc;
mod sssp;
mod suite;

use clap::Parser;

use warpath::bfs::gpu::DoubleScanConflict;
use warpath::bfs::{GpuKernel, Traverser};
use warpath::graph::{Degrees, HostMemory, MemoryProvider};
use warpath::{Error, Graph, Result};

use args::{Cli, Command, GpuTuning, GraphArgs};

pub fn run() -> i32 {
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return argument_error(err),
    };
    remove_temporaries_on_signals();
    if let Some(graph) = places_one_gpu_graph(&mut cli.command) {
        graph.early_gpu = warpath::engine::EarlyGpu::start();
    }
    let outcome = match &cli.command {
        Command::Bfs(a) => bfs::run(a),
        Command::Cc(a) => cc::run(a),
        Command::Scc(a) => scc::run(a),
        Command::Closeness(a) => closeness::run(a),
        Command::Sssp(a) => sssp::run(a),
        Command::Info(a) => info::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Kernels => kernels::run(),
        Command::Bench(a) => bench::run(a),
        Command::Suite(a) => suite::run(a),
    };
    // A context started and not taken is waited for as it drops (see `EarlyGpu`).
    drop(cli);
    match outcome {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("warpath: error: {err}{}", flag_hint(&err));
            match err {
                warpath::Error::Verification(_) => 1,
                _ => 2,
            }
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP the process's temporary outputs (a `convert` or `--out` half
/// written beside its target) are removed, then the signal's own default action ends the
/// process, so that the shell sees the usual status (130 after Ctrl-C, 143 after a kill).
fn remove_temporaries_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            warpath::output::remove_temporaries();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            // Only where the default action could not be raised.
            std::process::exit(128 + signal);
        }
    });
}

/// The graph arguments of `command` when it will place one graph on one GPU (the GPU or auto
/// backend, not partitioned): then the GPU context is made while the graph loads
/// ([`warpath::engine::EarlyGpu`]) and handed to the placement with them. Partitioned runs
/// make a context per rank instead.
fn places_one_gpu_graph(command: &mut Command) -> Option<&mut GraphArgs> {
    let (graph, multi) = match command {
        Command::Bfs(a) => (&mut a.graph, Some(&a.multi)),
        Command::Cc(a) => (&mut a.graph, Some(&a.multi)),
        Command::Sssp(a) => (&mut a.graph, None),
        Command::Bench(a) => (&mut a.graph, Some(&a.multi)),
        _ => return None,
    };
    (graph.backend() != warpath::engine::Backend::Cpu && !multi.is_some_and(|m| m.requested())).then_some(graph)
}

/// Help and version go out as clap writes them; a bad argument is one line naming the problem
/// (clap's message with its possible values, without the usage lines under it) and exit code 2, as every
/// other bad input.
fn argument_error(err: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand { 2 } else { 0 };
    }
    // What clap says above its usage line (the problem, and the possible values or a tip),
    // joined into one line.
    let text = err.render().to_string();
    let problem: Vec<&str> = text
        .lines()
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    eprintln!("warpath: {}", problem.join(" "));
    2
}

/// The flag that answers a library error, where there is one.
fn flag_hint(err: &Error) -> &'static str {
    match err {
        Error::Gpu(gpu) if gpu.is_unavailable() => "; use --backend cpu",
        Error::OutOfMemory { .. } => "; --memory-limit BYTES overrides the memory detected, if it is wrong",
        _ if err.is_refused_weight() => " (--ignore-weights)",
        _ if err.is_count_mismatch() => " (--allow-count-mismatch)",
        _ if err.is_unweighted_wel() => " (--weights SPEC)",
        _ => "",
    }
}

/// The GPU kernel a `bfs` or `bench` command line asks for, refused before any graph is loaded
/// when an option does not apply to it.
fn requested_kernel(tuning: &GpuTuning) -> Result<GpuKernel> {
    tuning.kernel().map_err(Error::InvalidArgument)
}

/// `graph` prepared on the backend asked for with `kernel` chosen; the warnings are printed.
/// When `auto` picked a kernel that does not read the tuning options given, they are refused.
fn prepare<'g>(graph: &'g Graph, args: &GraphArgs, tuning: &GpuTuning, kernel: GpuKernel) -> Result<Traverser<'g>> {
    let mut traverser = Traverser::with_options(graph, args.backend(), tuning.options(args))?;
    traverser.set_gpu_kernel(kernel);
    for warning in traverser.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    if traverser.gpu().is_some() {
        let resolved = traverser.resolved_gpu_kernel();
        tuning.check_auto_pick(&resolved).map_err(Error::InvalidArgument)?;
        if let GpuKernel::Persistent(params) | GpuKernel::Auto(params) = resolved {
            let zero_copy = traverser.placement() == Some(warpath::gpu::Placement::ZeroCopy);
            if let Some(conflict) = params.double_scan_conflict(zero_copy) {
                return Err(Error::InvalidArgument(format!("{conflict}{}", double_scan_flags(conflict))));
            }
        }
    }
    Ok(traverser)
}

/// The flags that answer a double-scan conflict, which the library words by its options.
fn double_scan_flags(conflict: DoubleScanConflict) -> &'static str {
    match conflict {
        DoubleScanConflict::AsyncBottomUp => " (drop --async-bottom-up)",
        DoubleScanConflict::Balance => " (drop --bottom-up-balance)",
        DoubleScanConflict::ZeroCopy => " (raise --vram-budget, or use --frontier-generation adaptive)",
    }
}

/// Refuses, before anything is loaded, an output file that is the input graph or cannot be
/// written.
fn check_output(output: &std::path::Path, input: &args::GraphInput) -> Result<()> {
    warpath::output::check_output(output, &input.graph)
}

/// Loads GRAPH (a file or a generator spec) without weights, as BFS reads it, its arrays in
/// `memory` ([`host_memory_for`]).
/// Refuses an `--out` that would replace the input or something not a regular file, then loads
/// the graph of `graph` (unweighted) in the memory it asks for: the graph and its load time in
/// milliseconds.
fn checked_load(graph: &GraphArgs, out: Option<&std::path::Path>) -> warpath::Result<(warpath::Graph, f64)> {
    if let Some(path) = out {
        check_output(path, &graph.input)?;
    }
    let memory = host_memory_for(graph);
    let loading = std::time::Instant::now();
    let loaded = load(&graph.input, memory)?;
    Ok((loaded, loading.elapsed().as_secs_f64() * 1e3))
}

fn load(input: &args::GraphInput, memory: MemoryProvider) -> warpath::Result<warpath::Graph> {
    load_weighted(input, &args::WeightArgs { weights: None, ignore_weights: true }, memory)
}

/// Loads GRAPH with the file's weights, or seeded ones, or none, as `weights` says, saying on
/// stderr what it is doing for big inputs.
fn load_weighted(
    input: &args::GraphInput,
    weights: &args::WeightArgs,
    memory: MemoryProvider,
) -> warpath::Result<warpath::Graph> {
    load_weighted_staged(input, weights, memory).map(|(graph, _)| graph)
}

/// [`load_weighted`], also telling how long reading and building took.
fn load_weighted_staged(
    input: &args::GraphInput,
    weights: &args::WeightArgs,
    memory: MemoryProvider,
) -> warpath::Result<(warpath::Graph, warpath::formats::LoadStages)> {
    load_described(input, weights, memory, false).map(|(graph, stages, _)| (graph, stages))
}

/// [`load_weighted_staged`]; with `describe`, a file's weights that are no edge weights
/// (negative ones, say) are not refused but described, and the graph read without them:
/// for `info`, which tells what a file holds.
fn load_described(
    input: &args::GraphInput,
    weights: &args::WeightArgs,
    memory: MemoryProvider,
    describe: bool,
) -> warpath::Result<(warpath::Graph, warpath::formats::LoadStages, Option<warpath::graph::WeightValues>)> {
    check_input(input)?;
    let options = warpath::input::LoadOptions {
        weights: weights.weights,
        ignore_weights: weights.ignore_weights,
        describe_weights: describe,
        host_memory: memory,
        ..load_options(input)
    };
    let spinner = progress::spinner(&format!("loading {}", input.graph));
    let loaded = warpath::input::load_graph_described(&input.graph, &options);
    spinner.finish_and_clear();
    loaded
}

/// How GRAPH is read as its flags say, unweighted, into ordinary memory.
fn load_options(input: &args::GraphInput) -> warpath::input::LoadOptions {
    warpath::input::LoadOptions {
        undirected: input.undirected,
        seed: input.seed,
        ignore_weights: true,
        memory_limit: input.memory_limit,
        allow_count_mismatch: input.allow_count_mismatch,
        format: input.format.map(Into::into),
        ..Default::default()
    }
}

/// GRAPH as the partitioned runs load it (unweighted, as BFS reads it), checked as [`load`]
/// checks it.
fn graph_source(input: &args::GraphInput) -> Result<warpath::multi::GraphSource<'_>> {
    check_input(input)?;
    Ok(warpath::multi::GraphSource { graph: &input.graph, options: load_options(input) })
}

/// Refuses GRAPH where its format cannot be told without --format (standard input, a file
/// of another name), naming the flag, and --format with a generator spec (which is no file).
fn check_input(input: &args::GraphInput) -> Result<()> {
    use warpath::formats::Format;
    let forms = "--format el|wel|mtx|gr|wgr";
    let path = std::path::Path::new(&input.graph);
    match input.format {
        None if input.graph == warpath::input::STDIN => Err(Error::InvalidArgument(format!(
            "-: a graph read from standard input needs {forms}: a stream has no file name to tell its format by"
        ))),
        None if !warpath::generate::looks_like_spec(&input.graph) && path.exists() => match Format::from_path(path) {
            Err(Error::InvalidArgument(problem)) => {
                Err(Error::InvalidArgument(format!("{problem} Or name its format with {forms}.")))
            }
            other => other.map(|_| ()),
        },
        Some(format) if warpath::generate::looks_like_spec(&input.graph) && !path.exists() => {
            Err(Error::InvalidArgument(format!(
                "--format {}: {} is a generator spec, not a file; --format names a file's format, drop it",
                Format::from(format).name(),
                input.graph
            )))
        }
        _ => Ok(()),
    }
}

/// Where a graph the GPU may run is built: pinned, device-mapped host memory, which the GPU
/// places without a host copy (one DMA into device memory, none for zero-copy), when the
/// backend may be the GPU, one is present and `WARPATH_PINNED_BUILD` asks for it (by default
/// for `--placement zero-copy`: docs/tuning.md); ordinary memory otherwise, and always for the
/// CPU and for `--compressed` (whose lists are encoded anew, so the plain arrays are never
/// placed). Called before the load is timed: it opens the GPU's context, which the placement
/// would otherwise open.
fn host_memory_for(graph: &GraphArgs) -> MemoryProvider {
    use warpath::gpu::PinnedBuild;
    let wanted = match warpath::gpu::pinned_build() {
        PinnedBuild::Always => true,
        PinnedBuild::ZeroCopyOnly => graph.placement == args::PlacementArg::ZeroCopy,
        PinnedBuild::Never => false,
    };
    if !wanted || graph.backend() == warpath::engine::Backend::Cpu || graph.compressed {
        return None;
    }
    let memory: &'static dyn HostMemory = warpath::gpu::PinnedMemory::shared().ok()?;
    Some(memory)
}

/// The source a traversal starts from: `--source` (as the file numbers it), refused in one line
/// when the graph is empty or the vertex is out of range; otherwise a seeded random vertex with
/// edges. `bfs` and `sssp` share it; a `--rank` process that read only its own lists chooses
/// it from the graph's degrees as every other process does from the whole graph.
fn source_vertex(graph: Degrees, source: Option<u64>, input: &args::GraphInput) -> Result<u32> {
    match source {
        Some(external) => named_vertex(graph, external, "source", input),
        None => Ok(random_sources(graph, 1, input)?[0]),
    }
}

/// `count` seeded random vertices with edges (fewer where the graph has fewer), refused in one
/// line when it has no edge: the sources `bfs` picks without `--source` or with `--sources
/// random:N`.
fn random_sources(graph: Degrees, count: usize, input: &args::GraphInput) -> Result<Vec<u32>> {
    let chosen = warpath::bfs::random_sources_in(graph, input.seed, count);
    if chosen.is_empty() {
        return Err(Error::InvalidArgument(format!(
            "{}: the graph has no edges, so there is no source to start from",
            input.graph
        )));
    }
    Ok(chosen)
}

/// The internal id of `external` (as the file numbers it), refused in one line naming its
/// `role` (source, target, ...) when the graph is empty or the vertex is out of range.
fn named_vertex(graph: Degrees, external: u64, role: &str, input: &args::GraphInput) -> Result<u32> {
    if graph.num_vertices() == 0 {
        return Err(Error::InvalidArgument(format!(
            "{}: the graph is empty (no vertices), so there is no {role} vertex",
            input.graph
        )));
    }
    graph.internal_id(external).ok_or_else(|| {
        let problem = graph.out_of_range();
        match role {
            "source" => Error::InvalidSource { vertex: external, problem },
            _ => Error::InvalidArgument(format!("{role} vertex {external} {problem}")),
        }
    })
}
