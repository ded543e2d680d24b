//! `bfs`, `cc`, `bench` and `suite` over a partitioned graph: `--partitions N` (threads of this
//! process, the ranks' work on the first GPU or on the CPU; for `bench` and `suite` also a
//! list of counts, for the scaling), `--gpus LIST` (one rank a GPU through NCCL, feature
//! `nccl`), and for `bfs` and `cc`, one process per GPU (`--rank R --world-size N --nccl-id
//! FILE`). `--layout 2d` cuts the adjacency matrix over a grid of those ranks instead
//! (`multi::partition_2d`), for the BFS, top-down, on CPU or GPU ranks.

use std::time::Instant;

use serde::Serialize;

use warpath::bench::harness::GraphOnGpu;
use warpath::bench::json::Flags;
use warpath::bench::partitioned::{parts_on_gpu, render_scaling, LevelRow, PartitionedBenchReport};
use warpath::bench::{run_scaling, stats, LoadStage, RankSet, ScalingOptions, ScalingStage};
use warpath::bfs::verify;
use warpath::cc::CcOptions;
use warpath::engine::{Backend, BackendUsed, ListHeadsKept};
use warpath::gpu::GpuContext;
use warpath::multi::cc::MergeTiming;
use warpath::multi::ranks::{Held, Loaded};
use warpath::multi::{
    Delegation, Grid, PartitionLayout, PartitionedOptions, RankKind, Ranks, BOTTOM_UP_CHUNKS, CHUNK_SPARE_SMS,
    PADDED_PAIRS, SPARSE_FRONTIER_SHARE,
};
use warpath::{Error, Graph, Result};

use super::args::{BenchArgs, BfsArgs, BfsExchangeArgs, CcArgs, GraphArgs, GraphInput, MultiArgs, WeightArgs};
use super::json::{bench_envelope, print_envelope, write_envelope, Envelope};

/// Checks the partition count of a single run before anything is loaded.
fn checked_partitions(counts: &[usize]) -> Result<usize> {
    match checked_counts(counts)?.as_slice() {
        &[n] => Ok(n),
        _ => Err(Error::InvalidArgument(
            "--partitions takes one count here; a list (1,2,4) measures the scaling with bench or suite".into(),
        )),
    }
}

/// The partition counts asked for, each at least 1, ascending, without repeats.
fn checked_counts(counts: &[usize]) -> Result<Vec<usize>> {
    if counts.is_empty() || counts.contains(&0) {
        return Err(Error::InvalidArgument("--partitions must be at least 1".into()));
    }
    let mut counts = counts.to_vec();
    counts.sort_unstable();
    counts.dedup();
    Ok(counts)
}

/// The ranks `multi` asks for: `--partitions N` threads (their parts on the first GPU where
/// `backend` allows), `--gpus LIST`, or this process as `--rank R` of `--world-size N`; over
/// the grid `--layout` gives their count.
fn ranks_of(multi: &MultiArgs, backend: Backend) -> Result<Ranks> {
    let on = if let Some(n) = &multi.partitions {
        let parts = checked_partitions(n)?;
        // A grid that does not fit the count is its one line, before the GPU is probed.
        multi.layout.grid_for(parts)?;
        let on_gpu = partitions_on_gpu(backend)?;
        RankKind::Threads { parts, on_gpu }
    } else if let Some(list) = &multi.gpus {
        RankKind::Gpus(gpus(list)?)
    } else if multi.rank.is_none() && multi.layout != PartitionLayout::OneD {
        return Err(Error::InvalidArgument(
            "--layout 2d needs the ranks of its grid: --partitions N, --gpus LIST or --rank R --world-size N".into(),
        ));
    } else {
        let (rank, world) = (multi.rank.unwrap_or(0), multi.world_size.unwrap_or(1));
        if world == 0 || rank >= world {
            return Err(Error::InvalidArgument(format!("--rank {rank} is not below --world-size {world}")));
        }
        no_nccl_build("--rank")?;
        RankKind::Process { rank, world, id_file: multi.nccl_id.clone().unwrap_or_default() }
    };
    Ok(Ranks::on(on, &multi.layout)?.with_last_resort(exit_when_stuck))
}

/// The refusal of `--layout 2d` by connected components.
const LAYOUT_2D_IS_BFS: &str =
    "--layout 2d runs the partitioned BFS only; connected components cut vertex ranges: use --layout 1d";

/// What a rank does where the ranks are stuck after a failure (a `--rank` process's heartbeat
/// saw a peer stop, or `--gpus` threads did not end after one failed): it says why and exits
/// with code 2, since the thread that is stuck cannot be stopped from here.
fn exit_when_stuck(why: &str) {
    eprintln!("warpath: error: {why}");
    std::process::exit(2);
}

/// Whether `--partitions` runs its parts on the first GPU: with `--backend gpu` (an error
/// without one), with `auto` when one is usable (else the CPU, with a warning).
fn partitions_on_gpu(backend: Backend) -> Result<bool> {
    match backend {
        Backend::Cpu => Ok(false),
        Backend::Gpu => GpuContext::new().map(|_| true).map_err(Error::Gpu),
        Backend::Auto => match GpuContext::new() {
            Ok(_) => Ok(true),
            Err(err) => {
                eprintln!("warpath: warning: no usable GPU ({err}); the partitions run on the CPU");
                Ok(false)
            }
        },
    }
}

/// The refusal of a flag that needs NCCL in a build without it.
fn no_nccl_build(flag: &str) -> Result<()> {
    if cfg!(feature = "nccl") {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "{flag} needs the nccl feature: build warpath with `cargo build --release --features nccl`, or use \
             --partitions N to run the partitioned BFS or CC on the CPU"
        )))
    }
}

#[cfg(feature = "nccl")]
fn gpus(list: &str) -> Result<Vec<usize>> {
    warpath::multi::nccl::resolve_gpus(list).map_err(|err| match err {
        Error::InvalidArgument(problem) => Error::InvalidArgument(format!("--gpus {problem}")),
        other => other,
    })
}

#[cfg(not(feature = "nccl"))]
fn gpus(_list: &str) -> Result<Vec<usize>> {
    no_nccl_build("--gpus").map(|()| Vec::new())
}

/// [`Ranks::load`] of GRAPH, checked as every command checks it, behind a spinner.
fn load<S: Send>(
    ranks: &Ranks,
    input: &GraphInput,
    delegation: Delegation,
    whole_on_rank_0: bool,
    then: impl FnOnce(&Held) -> Result<S> + Send,
) -> Result<(Loaded, S)> {
    let source = super::graph_source(input)?;
    let spinner = super::progress::spinner(&format!("loading {}", source.graph));
    let loaded = ranks.load(&source, delegation, whole_on_rank_0, then);
    spinner.finish_and_clear();
    loaded
}

/// `bfs --partitions N`, `--gpus LIST` or `--rank R ...`.
pub fn run_bfs(args: &BfsArgs) -> Result<()> {
    let ranks = ranks_of(&args.multi, args.graph.backend())?;
    check_part_lists(&args.graph, &ranks.backend())?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    let options = traversal_options(args.gpu.top_down, Some(&args.graph), &args.exchange);
    // Only GPU ranks expand hubs from pieces: for CPU ranks the cut makes none.
    let delegation = match ranks.backend() {
        BackendUsed::Gpu { .. } => options.delegation,
        BackendUsed::Cpu { .. } => Delegation::Off,
    };
    // Rank 0 of a --rank job reads the whole graph only to write or check what the ranks found.
    let whole_on_rank_0 = args.out.is_some() || args.verify;
    let (loaded, source) = load(&ranks, &args.graph.input, delegation, whole_on_rank_0, |held| {
        let source = super::source_vertex(held.degrees(), args.source.vertex, &args.graph.input)?;
        warpath::bfs::check_source_in(held.degrees(), source)?;
        Ok(source)
    })?;
    let Loaded { held, cut, load_ms, partition_ms, .. } = loaded;
    let held = ranks.keep(held);
    let started = Instant::now();
    let Some(traversal) = ranks.run_cut(&cut, &[source], &options)?.pop() else { return Ok(()) };
    let end_to_end = started.elapsed();
    let held = held.expect("only a rank that reports gets a traversal back");
    let degrees = held.degrees();
    let result = &traversal.result;
    let report = PartitionedReport {
        graph: args.graph.input.graph.clone(),
        backend: RankSet::backend(&ranks).kind(),
        backend_detail: ranks.describe(),
        partitions: ranks.count(),
        load_ms,
        partition_ms,
        source: degrees.external_id(source),
        vertices: degrees.num_vertices() as u64,
        edges_directed: degrees.num_edges(),
        reached: result.reached(),
        depth: result.depth(),
        time_ms: traversal.time.as_secs_f64() * 1e3,
        gteps: stats::gteps(result.edges_in_component_in(degrees), traversal.time.as_secs_f64()),
        exchange_bytes: traversal.exchange_bytes(),
        parts_on_gpu: (!traversal.lists.is_empty()).then(|| parts_on_gpu(&traversal.lists)),
        levels: LevelRow::all(&traversal),
    };
    if let Some(path) = &args.out {
        super::results::write_result(held.whole(), result, path)?;
    }
    let verification = args.verify.then(|| verify::validate(held.whole(), result));
    if args.json {
        let verified = verification.as_ref().map(Result::is_ok);
        let envelope = Envelope {
            place_ms: Some(report.partition_ms),
            time_ms: Some(report.time_ms),
            // The ranks' traversal with their start and the gathering of their labels.
            end_to_end_ms: Some(end_to_end.as_secs_f64() * 1e3),
            verified,
            ..Envelope::new("bfs", &report.graph, report.vertices, report.edges_directed, report.load_ms)
                .ran(report.backend, report.backend_detail.clone())
        };
        print_envelope(&envelope, &report)?;
    } else {
        report.print_text();
        if let Some(Ok(())) = verification {
            println!("verified: ok");
        }
    }
    verification.unwrap_or(Ok(()))
}

/// The first lines of a partitioned run's text: the graph, its load and cut, the ranks.
fn print_run_header(graph: &str, load_ms: f64, partitions: usize, partition_ms: f64, backend: &str) {
    println!("graph: {graph} (loaded in {load_ms:.1} ms, cut into {partitions} parts in {partition_ms:.1} ms)");
    println!("backend: {backend}");
}

/// What a partitioned `bfs` reports, as text or with `--json` inside the envelope.
#[derive(Serialize)]
struct PartitionedReport {
    graph: String,
    /// `gpu` or `cpu`, as every command's `--json` says it.
    backend: &'static str,
    /// The ranks, in words.
    backend_detail: String,
    partitions: usize,
    load_ms: f64,
    /// Cutting the graph into parts, once per graph.
    partition_ms: f64,
    source: u64,
    vertices: u64,
    edges_directed: u64,
    reached: u64,
    depth: u32,
    /// The slowest rank's traversal time.
    time_ms: f64,
    gteps: f64,
    /// Frontier exchange between ranks, summed over ranks and levels.
    exchange_bytes: u64,
    /// The GPU ranks' parts' lists over every rank of this process: where, in what format,
    /// their bytes; `null` for CPU ranks.
    parts_on_gpu: Option<GraphOnGpu>,
    levels: Vec<LevelRow>,
}

/// The GPU ranks' lists, as one line: format, placement, bytes against the plain CSR.
fn print_parts_on_gpu(parts: &GraphOnGpu, ranks: usize) {
    let format = if parts.compressed { "compressed" } else { "plain" };
    println!(
        "parts on the GPUs: {format} lists, {}, {} bytes over {ranks} ranks (the plain CSR takes {}, ratio {:.2})",
        parts.placement,
        parts.stored_bytes,
        parts.plain_bytes,
        parts.stored_bytes as f64 / parts.plain_bytes.max(1) as f64
    );
}

fn print_levels(levels: &[LevelRow]) {
    let header = ["level", "direction", "frontier", "edges", "exchange B", "exchange ms", "time ms"];
    let [level, direction, frontier, edges, bytes, exchange, time] = header;
    println!("{level:>5}  {direction:<9}  {frontier:>10}  {edges:>12}  {bytes:>14}  {exchange:>11}  {time:>9}");
    for l in levels {
        println!(
            "{:>5}  {:<9}  {:>10}  {:>12}  {:>14}  {:>11.3}  {:>9.3}",
            l.level, l.direction, l.frontier, l.edges_inspected, l.exchange_bytes, l.exchange_ms, l.time_ms
        );
    }
}

impl PartitionedReport {
    fn print_text(&self) {
        print_run_header(&self.graph, self.load_ms, self.partitions, self.partition_ms, &self.backend_detail);
        println!("source: {}", self.source);
        println!("vertices: {}", self.vertices);
        println!("edges: {} (directed, as stored)", self.edges_directed);
        println!("reached: {}", self.reached);
        println!("depth: {}", self.depth);
        println!("time: {:.3} ms", self.time_ms);
        println!("GTEPS: {:.3}", self.gteps);
        println!("exchange: {} bytes", self.exchange_bytes);
        if let Some(parts) = &self.parts_on_gpu {
            print_parts_on_gpu(parts, self.partitions);
        }
        print_levels(&self.levels);
    }
}

/// What `bench` and `suite` measure: the rank sets, and the one-rank baseline of the scaling.
pub struct RankSets {
    /// The graph whole on one rank, where the sets run: the first of `--gpus`, the first GPU,
    /// or one thread.
    pub baseline: Box<dyn RankSet>,
    pub sets: Vec<Box<dyn RankSet>>,
}

/// The rank sets `bench` and `suite` measure for `multi`, each against one partition in this
/// process (the first of [`run_scaling`]'s reports): a thread set per count of `--partitions`
/// (1 is the baseline itself), or the GPUs of `--gpus`. `command` names the subcommand in the
/// refusal of `--rank`.
pub fn rank_sets(multi: &MultiArgs, backend: Backend, command: &str) -> Result<RankSets> {
    let (baseline, sets) = rank_list(multi, backend, command)?;
    Ok(RankSets {
        baseline: Box::new(baseline),
        sets: sets.into_iter().map(|ranks| Box::new(ranks) as Box<dyn RankSet>).collect(),
    })
}

/// [`rank_sets`]' baseline and sets, for any algorithm.
fn rank_list(multi: &MultiArgs, backend: Backend, command: &str) -> Result<(Ranks, Vec<Ranks>)> {
    if multi.rank.is_some() {
        return Err(Error::InvalidArgument(format!(
            "{command} runs every rank in one process: use --partitions N or --gpus LIST, not --rank"
        )));
    }
    // A 2D bench measures every count's grid against the 1x1 grid (the same top-down code on
    // one rank, where the 1D bench's baseline is direction-optimizing).
    let baseline_grid = match multi.layout {
        PartitionLayout::OneD => None,
        PartitionLayout::TwoD { .. } => Some(Grid::new(1, 1)?),
    };
    if let Some(counts) = &multi.partitions {
        // The counts are checked before the GPU is probed, so a bad list is its one line.
        let counts = checked_counts(counts)?;
        counts.iter().filter(|&&n| n > 1).try_for_each(|&n| multi.layout.grid_for(n).map(drop))?;
        let on_gpu = partitions_on_gpu(backend)?;
        let sets = counts
            .into_iter()
            .filter(|&n| n > 1)
            .map(|parts| Ranks::on(RankKind::Threads { parts, on_gpu }, &multi.layout))
            .collect::<Result<_>>()?;
        return Ok((Ranks::new(RankKind::Threads { parts: 1, on_gpu }, baseline_grid), sets));
    }
    match ranks_of(multi, backend)?.kind().clone() {
        RankKind::Gpus(ordinals) => {
            let mut prefixes = doubling_prefixes(&ordinals);
            // A grid named RxC measures its own count of GPUs only.
            if let PartitionLayout::TwoD { grid: Some(grid) } = multi.layout {
                prefixes.retain(|set| set.len() == grid.ranks());
            }
            let sets = prefixes
                .into_iter()
                .map(|set| Ok(Ranks::on(RankKind::Gpus(set), &multi.layout)?.with_last_resort(exit_when_stuck)))
                .collect::<Result<_>>()?;
            let baseline = Ranks::new(RankKind::Gpus(ordinals[..1].to_vec()), baseline_grid);
            Ok((baseline.with_last_resort(exit_when_stuck), sets))
        }
        RankKind::Threads { .. } | RankKind::Process { .. } => {
            unreachable!("--partitions and --rank are handled above")
        }
    }
}

/// The GPU sets a bench of `--gpus LIST` measures after the first GPU alone: the first 2, 4,
/// 8, ... of the list, then the whole list (none when the list has one GPU: the baseline is
/// that measurement), so one load of the graph gives the strong-scaling table.
fn doubling_prefixes(ordinals: &[usize]) -> Vec<Vec<usize>> {
    if ordinals.len() < 2 {
        return Vec::new();
    }
    let counts = std::iter::successors(Some(2), |&n: &usize| Some(n * 2)).take_while(|&n| n < ordinals.len());
    let mut sets: Vec<Vec<usize>> = counts.map(|n| ordinals[..n].to_vec()).collect();
    sets.push(ordinals.to_vec());
    sets
}

/// How every partitioned traversal of `bfs`, `bench` and `suite` runs: top-down only or not,
/// each GPU rank's part where `graph`'s `--placement` puts it (`None`: chosen by size), the
/// hubs `exchange`'s `--hub-degree` delegates, and its other exchange settings.
pub fn traversal_options(top_down: bool, graph: Option<&GraphArgs>, exchange: &BfsExchangeArgs) -> PartitionedOptions {
    PartitionedOptions {
        bottom_up: !top_down,
        placement: graph.map(GraphArgs::placement_options).unwrap_or_default(),
        delegation: exchange.delegation(),
        padded_pairs: exchange.padded_pairs.unwrap_or(PADDED_PAIRS),
        sparse_frontier_share: exchange.sparse_frontier_share.unwrap_or(SPARSE_FRONTIER_SHARE),
        bottom_up_chunks: exchange.bottom_up_chunks.unwrap_or(BOTTOM_UP_CHUNKS),
        chunk_spare_sms: exchange.chunk_spare_sms.unwrap_or(CHUNK_SPARE_SMS),
        ..Default::default()
    }
}

/// The list options of one GPU that parts do not take, never dropped in silence: a part has no
/// list heads, so GPU ranks refuse `--list-heads` other than its default; CPU ranks read plain lists as the CPU
/// always does, and say so for `--compressed`.
fn check_part_lists(graph: &GraphArgs, backend: &BackendUsed) -> Result<()> {
    let on_gpu = matches!(backend, BackendUsed::Gpu { .. });
    if on_gpu && graph.list_heads != ListHeadsKept::default() {
        return Err(Error::InvalidArgument(
            "--list-heads: GPU ranks keep no list heads for their parts: drop it, or run on one GPU".into(),
        ));
    }
    if graph.compressed && !on_gpu {
        eprintln!(
            "warpath: warning: compressed lists are read by the GPU kernels only: the CPU ranks traverse the plain CSR"
        );
    }
    Ok(())
}

/// `bench --partitions N[,N...]` or `--gpus LIST`: the partitioned BFS from `--roots` seeded
/// roots (Graph500's, as the single-GPU bench), each validated, on every rank count asked and on
/// one partition, the same roots in the same process; the scaling table, and with `--json` every
/// count's report.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    if args.plot.is_some() {
        return Err(Error::InvalidArgument(
            "--plot draws one GPU's levels; a partitioned bench has none to draw: drop it (--json has every \
             root's levels)"
                .into(),
        ));
    }
    let RankSets { baseline, sets } = rank_sets(&args.multi, args.graph.backend(), "bench")?;
    check_part_lists(&args.graph, &baseline.backend())?;
    if let Some(path) = &args.json {
        super::check_output(path, &args.graph.input)?;
    }
    let weights = WeightArgs { weights: None, ignore_weights: true };
    let (graph, stages) = super::load_weighted_staged(&args.graph.input, &weights, None)?;
    let load = LoadStage::of(&stages);
    let input = &args.graph.input;
    let options = ScalingOptions {
        roots: args.roots,
        seed: input.seed,
        traversal: traversal_options(args.gpu.top_down, Some(&args.graph), &args.exchange),
        flags: Flags::new(args.roots, input.seed, args.graph.backend().name(), input.undirected, false),
    };
    let sets: Vec<&dyn RankSet> = sets.iter().map(|s| s.as_ref()).collect();
    let mut bar = super::progress::bar(0, "");
    let reports =
        run_scaling(&input.graph, &graph, load, baseline.as_ref(), &sets, &options, &mut |stage| match stage {
            ScalingStage::Running { ranks, roots } => {
                bar.finish_and_clear();
                bar = super::progress::bar(roots as u64, &format!("BFS on {ranks}"));
            }
            ScalingStage::Root { done } => bar.set_position(done as u64),
        });
    bar.finish_and_clear();
    let reports = reports?;
    if !args.json_on_stdout() {
        print_bench(&graph, &reports);
    }
    if let Some(path) = &args.json {
        // The envelope's figures are the largest rank count's; every count's report is in `runs`.
        let last = reports.last().expect("the baseline at least");
        // Cutting the graph into parts is a partitioned run's placement, as `bfs --partitions` says.
        let envelope = Envelope { place_ms: Some(last.payload.partition_ms), ..bench_envelope(last) };
        write_envelope(path, &envelope, &serde_json::json!({ "runs": &reports }))?;
    }
    Ok(())
}

/// The bench's text: the graph, the largest rank count's figures against one partition, the
/// scaling table, and the levels of its last root.
fn print_bench(graph: &Graph, reports: &[PartitionedBenchReport]) {
    let (base, last) = (&reports[0], reports.last().expect("the baseline at least"));
    let (name, n, m) = (&base.graph.name, graph.num_vertices(), graph.num_edges());
    println!("graph: {name} ({n} vertices, {m} edges; loaded in {:.1} ms)", base.load_ms);
    println!("backend: {}", last.payload.backend);
    println!("parts cut in {:.1} ms; bounds {:?}", last.payload.partition_ms, last.payload.bounds);
    if let Some(parts) = &last.graph_on_gpu {
        print_parts_on_gpu(parts, last.payload.ranks);
    }
    if let Some(hubs) = last.payload.hubs {
        println!(
            "hubs delegated: {} of out-degree {} or more, {} edges ({:.1}% of the edges)",
            hubs.count,
            hubs.degree,
            hubs.edges,
            100.0 * hubs.edges as f64 / m.max(1) as f64
        );
    }
    println!("roots: {} (each validated)", last.summary.validated);
    let time = &last.summary.time_ms;
    println!("time: median {:.3} ms (min {:.3}, max {:.3})", time.median, time.min, time.max);
    println!("GTEPS: harmonic mean {:.3}", last.summary.hmean_gteps);
    println!("exchange: median {:.0} bytes a traversal", last.summary.details.exchange_bytes.median);
    if let Some(scaling) = last.payload.scaling {
        println!(
            "one partition, same roots, same run: median {:.3} ms; speedup {:.2}x on {} ranks",
            scaling.baseline_median_ms, scaling.speedup, last.payload.ranks
        );
    }
    println!("scaling (same roots, this process; speedup and efficiency against one partition):");
    print!("{}", render_scaling(reports));
    if let Some(trial) = last.trials.last() {
        println!("levels of the last root ({}):", trial.source.unwrap_or_default());
        print_levels(&trial.details.levels);
    }
}

/// `cc --partitions N`, `--gpus LIST` or `--rank R ...`: the partitioned connected components
/// (`multi::cc`: each part's components, then the cross-partition edges merged).
pub fn run_cc(args: &CcArgs) -> Result<()> {
    let options = args.tuning.options()?;
    let ranks = ranks_of(&args.multi, args.graph.backend())?;
    check_part_lists(&args.graph, &ranks.backend())?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    if ranks.grid().is_some() {
        return Err(Error::InvalidArgument(LAYOUT_2D_IS_BFS.into()));
    }
    // Rank 0 of a --rank job reads the whole graph only to write or check the components.
    let whole_on_rank_0 = args.out.is_some() || args.verify;
    let (loaded, ()) = load(&ranks, &args.graph.input, Delegation::Off, whole_on_rank_0, |_| Ok(()))?;
    let Loaded { held, cut, load_ms, partition_ms, .. } = loaded;
    let held = ranks.keep(held);
    let whole = held.as_ref().and_then(Held::graph);
    let started = Instant::now();
    let Some(run) = ranks.components_cut(&cut, whole, &options, &args.graph.placement_options(), 1)?.pop() else {
        return Ok(());
    };
    let end_to_end = started.elapsed();
    let held = held.expect("only a rank that reports gets components back");
    let components = &run.components;
    if let Some(path) = &args.out {
        super::results::write_components(held.whole(), components, path)?;
    }
    let verification = args.verify.then(|| warpath::cc::verify::validate(held.whole(), components));
    let report = PartitionedCcReport {
        graph: args.graph.input.graph.clone(),
        backend: RankSet::backend(&ranks).kind(),
        backend_detail: ranks.describe(),
        partitions: ranks.count(),
        load_ms,
        partition_ms,
        cc_algorithm: options.algorithm.name(),
        vertices: held.degrees().num_vertices() as u64,
        edges_directed: held.degrees().num_edges(),
        components: components.count(),
        largest_component: components.largest().map_or(0, |(_, size)| size),
        timing: TimingRow::of(&run.timing),
    };
    if args.json {
        let envelope = Envelope {
            place_ms: Some(report.partition_ms),
            time_ms: Some(report.timing.time_ms),
            // The ranks' components with their start and the gathering of the labels.
            end_to_end_ms: Some(end_to_end.as_secs_f64() * 1e3),
            verified: verification.as_ref().map(Result::is_ok),
            ..Envelope::new("cc", &report.graph, report.vertices, report.edges_directed, report.load_ms)
                .ran(report.backend, report.backend_detail.clone())
        };
        print_envelope(&envelope, &report)?;
    } else {
        report.print_text();
        if let Some(Ok(())) = verification {
            println!("verified: ok");
        }
    }
    verification.unwrap_or(Ok(()))
}

/// What a partitioned `cc` reports, as text or with `--json` inside the envelope.
#[derive(Serialize)]
struct PartitionedCcReport {
    graph: String,
    /// `gpu` or `cpu`, as every command's `--json` says it.
    backend: &'static str,
    /// The ranks, in words.
    backend_detail: String,
    partitions: usize,
    load_ms: f64,
    partition_ms: f64,
    cc_algorithm: &'static str,
    vertices: u64,
    edges_directed: u64,
    components: u64,
    largest_component: u64,
    #[serde(flatten)]
    timing: TimingRow,
}

/// One run's times (the slowest rank's) and what crossed between ranks.
#[derive(Serialize, Clone, Copy, Debug, Default)]
struct TimingRow {
    time_ms: f64,
    /// Each part's own components.
    local_ms: f64,
    /// The ghosts named to their owners, the pairs gathered and merged.
    merge_ms: f64,
    /// The merge's steps, each the slowest rank's: the ghosts' names to their owners, the
    /// distinct pairs kept, every rank's pairs gathered, merged (union-find), the owned vertices
    /// renamed.
    names_ms: f64,
    join_ms: f64,
    gather_ms: f64,
    union_ms: f64,
    relabel_ms: f64,
    exchange_bytes: u64,
    joined_pairs: u64,
}

impl TimingRow {
    fn of(timing: &MergeTiming) -> TimingRow {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        TimingRow {
            time_ms: ms(timing.time),
            local_ms: ms(timing.local),
            merge_ms: ms(timing.merge),
            names_ms: ms(timing.steps.names),
            join_ms: ms(timing.steps.join),
            gather_ms: ms(timing.steps.gather),
            union_ms: ms(timing.steps.union),
            relabel_ms: ms(timing.steps.relabel),
            exchange_bytes: timing.exchange_bytes,
            joined_pairs: timing.joined_pairs,
        }
    }
}

impl PartitionedCcReport {
    fn print_text(&self) {
        print_run_header(&self.graph, self.load_ms, self.partitions, self.partition_ms, &self.backend_detail);
        println!("cc algorithm: {} (each part's components, then the edges across parts merged)", self.cc_algorithm);
        println!("vertices: {}, edges: {} (directed, as stored)", self.vertices, self.edges_directed);
        println!("components: {}", self.components);
        println!("largest component: {} vertices", self.largest_component);
        let t = &self.timing;
        println!("time: {:.3} ms (parts {:.3} ms, merge {:.3} ms)", t.time_ms, t.local_ms, t.merge_ms);
        println!(
            "merge steps: names to owners {:.3} ms, join {:.3} ms, pairs gathered {:.3} ms, union {:.3} ms, \
             relabel {:.3} ms",
            t.names_ms, t.join_ms, t.gather_ms, t.union_ms, t.relabel_ms
        );
        println!("exchange: {} bytes; {} pairs of components joined across parts", t.exchange_bytes, t.joined_pairs);
    }
}

/// `bench --algorithm cc` with `--partitions N[,N...]` or `--gpus LIST`: `--trials` timed runs
/// (after one untimed) on every rank count and on one partition, each run validated (the first
/// against the graph and the sequential count, the others against its labels); a table of
/// median times, exchanges and the speedup against one partition.
pub fn run_cc_bench(args: &BenchArgs, options: &CcOptions) -> Result<()> {
    let (baseline, sets) = rank_list(&args.multi, args.graph.backend(), "bench")?;
    if baseline.grid().is_some() {
        return Err(Error::InvalidArgument(LAYOUT_2D_IS_BFS.into()));
    }
    check_part_lists(&args.graph, &baseline.backend())?;
    if let Some(path) = &args.json {
        super::check_output(path, &args.graph.input)?;
    }
    let weights = WeightArgs { weights: None, ignore_weights: true };
    let (graph, stages) = super::load_weighted_staged(&args.graph.input, &weights, None)?;
    let load_ms = LoadStage::of(&stages).total_ms();
    let reference = warpath::cc::components_sequential(&graph).count();
    // Labels name each component's smallest vertex, so every correct run has the same ones: the
    // first run is checked against the graph, every later one against its labels (one compare
    // a vertex instead of a read of every edge), and one that differs against the graph, which
    // says what is wrong with it.
    let mut checked: Option<warpath::cc::Components> = None;
    let mut rows: Vec<CcScalingRow> = Vec::new();
    for ranks in std::iter::once(&baseline).chain(&sets) {
        let cutting = Instant::now();
        let partition = warpath::multi::partition_1d(&graph, None, ranks.count())?;
        let partition_ms = cutting.elapsed().as_secs_f64() * 1e3;
        let runs =
            ranks.components(&partition, Some(&graph), options, &args.graph.placement_options(), 1 + args.roots)?;
        for run in &runs {
            if checked.as_ref().is_some_and(|first| first.labels == run.components.labels) {
                continue;
            }
            warpath::cc::verify::validate_with_count(&graph, &run.components, reference)?;
            checked.get_or_insert_with(|| run.components.clone());
        }
        let timed: Vec<TimingRow> = runs[1..].iter().map(|run| TimingRow::of(&run.timing)).collect();
        let median = |f: fn(&TimingRow) -> f64| median_of(&timed, f);
        let time_ms = median(|t| t.time_ms);
        let speedup = rows.first().map_or(1.0, |base| base.time_ms / time_ms);
        rows.push(CcScalingRow {
            backend: ranks.describe(),
            ranks: ranks.count(),
            partition_ms,
            time_ms,
            local_ms: median(|t| t.local_ms),
            merge_ms: median(|t| t.merge_ms),
            exchange_bytes: timed.last().map_or(0, |t| t.exchange_bytes),
            joined_pairs: timed.last().map_or(0, |t| t.joined_pairs),
            speedup,
            trials: timed,
        });
    }
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    if !args.json_on_stdout() {
        print_cc_scaling(args, options, reference, load_ms, &rows, (n, m));
    }
    if let Some(path) = &args.json {
        // The envelope's figures are the largest rank count's; every count's line is in `runs`.
        let last = rows.last().expect("the baseline at least");
        let envelope = Envelope {
            place_ms: Some(last.partition_ms),
            time_ms: Some(last.time_ms),
            verified: Some(true),
            ..Envelope::new("bench", &args.graph.input.graph, n as u64, m, load_ms)
                .ran(baseline.backend().kind(), last.backend.clone())
        };
        write_envelope(path, &envelope, &serde_json::json!({ "runs": &rows }))?;
    }
    Ok(())
}

/// The partitioned CC bench's text: the graph, the scaling table and the merge's steps.
fn print_cc_scaling(
    args: &BenchArgs,
    options: &CcOptions,
    reference: u64,
    load_ms: f64,
    rows: &[CcScalingRow],
    (n, m): (usize, u64),
) {
    println!("graph: {} ({n} vertices, {m} edges; loaded in {load_ms:.1} ms)", args.graph.input.graph);
    println!("cc algorithm: {}; {} components; every run validated", options.algorithm, reference);
    println!("scaling (median of {} runs a rank set; speedup against one partition, same process):", args.roots);
    println!(
        "{:>5}  {:>10}  {:>10}  {:>10}  {:>14}  {:>12}  {:>7}  backend",
        "ranks", "time ms", "parts ms", "merge ms", "exchange B", "joined", "speedup"
    );
    for r in rows {
        println!(
            "{:>5}  {:>10.3}  {:>10.3}  {:>10.3}  {:>14}  {:>12}  {:>6.2}x  {}",
            r.ranks, r.time_ms, r.local_ms, r.merge_ms, r.exchange_bytes, r.joined_pairs, r.speedup, r.backend
        );
    }
    println!("merge steps (medians, ms): names to owners, join, pairs gathered, union, relabel");
    for r in rows {
        let median = |f: fn(&TimingRow) -> f64| median_of(&r.trials, f);
        println!(
            "{:>5}  {:>10.3}  {:>10.3}  {:>10.3}  {:>10.3}  {:>10.3}",
            r.ranks,
            median(|t| t.names_ms),
            median(|t| t.join_ms),
            median(|t| t.gather_ms),
            median(|t| t.union_ms),
            median(|t| t.relabel_ms)
        );
    }
}

/// The median of one field over a rank set's timed runs.
fn median_of(trials: &[TimingRow], field: fn(&TimingRow) -> f64) -> f64 {
    stats::median(&trials.iter().map(field).collect::<Vec<_>>()).unwrap_or(0.0)
}

/// One rank set's line of the partitioned CC bench.
#[derive(Serialize)]
struct CcScalingRow {
    backend: String,
    ranks: usize,
    partition_ms: f64,
    /// Medians over the timed runs.
    time_ms: f64,
    local_ms: f64,
    merge_ms: f64,
    exchange_bytes: u64,
    joined_pairs: u64,
    /// One partition's median time over this set's.
    speedup: f64,
    trials: Vec<TimingRow>,
}

#[cfg(test)]
mod tests {
    use super::{check_part_lists, doubling_prefixes, traversal_options, BfsExchangeArgs};
    use crate::cli::args::{Cli, Command, GraphArgs};
    use clap::Parser;
    use warpath::engine::BackendUsed;
    use warpath::engine::PlacementOptions;
    use warpath::gpu::Placement;
    use warpath::multi::Delegation;

    /// The graph options of `warpath bfs kron:10 EXTRA...`.
    fn graph_args(extra: &[&str]) -> GraphArgs {
        match Cli::try_parse_from([&["warpath", "bfs", "kron:10"][..], extra].concat()).unwrap().command {
            Command::Bfs(args) => args.graph,
            _ => unreachable!("a bfs command line"),
        }
    }

    #[test]
    fn parts_take_the_placement_and_budget_and_refuse_what_they_cannot_read() {
        // The parts take the engine's one placement struct, as one GPU does.
        let args = graph_args(&["--placement", "zero-copy", "--vram-budget", "2G", "--compressed"]);
        let placed = traversal_options(false, Some(&args), &BfsExchangeArgs::default()).placement;
        let expected = PlacementOptions {
            placement: Some(Placement::ZeroCopy),
            vram_budget: Some(2 << 30),
            compressed: true,
            ..Default::default()
        };
        assert_eq!(placed, expected);
        assert_eq!(graph_args(&[]).placement_options(), PlacementOptions::default());
        let gpu = BackendUsed::Gpu { device: "gpu 0".into() };
        let cpu = BackendUsed::Cpu { threads: 2 };
        check_part_lists(&graph_args(&["--compressed"]), &gpu).unwrap();
        for heads in ["never", "always"] {
            let err = check_part_lists(&graph_args(&["--list-heads", heads]), &gpu).unwrap_err().to_string();
            assert!(err.contains("--list-heads") && err.contains("GPU ranks"), "{err}");
        }
        check_part_lists(&graph_args(&["--list-heads", "auto"]), &gpu).unwrap();
        // CPU ranks read plain lists, as the CPU always does.
        for flags in [&["--compressed"][..], &["--list-heads", "never"]] {
            check_part_lists(&graph_args(flags), &cpu).unwrap();
        }
        check_part_lists(&graph_args(&["--vram-budget", "1G"]), &gpu).unwrap();
        // Compressed parts take delegates as plain ones do (their pieces are plain lists).
        let hubs = BfsExchangeArgs { hub_degree: Some(64), ..Default::default() };
        let exchange = BfsExchangeArgs::default();
        for extra in [&[][..], &["--compressed"]] {
            assert_eq!(traversal_options(false, Some(&graph_args(extra)), &hubs).delegation, Delegation::Degree(64));
            assert_eq!(traversal_options(false, Some(&graph_args(extra)), &exchange).delegation, Delegation::Auto);
        }
    }

    #[test]
    fn a_gpu_list_is_measured_on_its_doubling_prefixes_then_whole() {
        assert!(doubling_prefixes(&[3]).is_empty());
        assert_eq!(doubling_prefixes(&[0, 1]), vec![vec![0, 1]]);
        assert_eq!(doubling_prefixes(&[0, 1, 2]), vec![vec![0, 1], vec![0, 1, 2]]);
        assert_eq!(doubling_prefixes(&[0, 1, 2, 3]), vec![vec![0, 1], vec![0, 1, 2, 3]]);
        let eight: Vec<usize> = (0..8).collect();
        assert_eq!(doubling_prefixes(&eight), vec![eight[..2].to_vec(), eight[..4].to_vec(), eight.clone()]);
    }
}
