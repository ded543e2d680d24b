//! `bfs` and `bench` over a partitioned graph: `--partitions N` (threads of this process, the
//! ranks' levels on the first GPU or on the CPU), `--gpus LIST` (one rank a GPU through NCCL,
//! feature `nccl`), and for `bfs`, one process per GPU (`--rank R --world-size N --nccl-id
//! FILE`).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use warpath::bench::stats;
use warpath::engine::Backend;
use warpath::gpu::GpuContext;
use warpath::bfs::verify;
use warpath::multi::{bfs_in_process, partition_1d, Partition, PartitionedOptions, PartitionedTraversal};
use warpath::{Error, Graph, Result};

use super::args::{BenchArgs, BfsArgs, GraphInput};

/// How the graph is spread over ranks; with none of these, `bfs` and `bench` run on one GPU or
/// the CPU as usual.
#[derive(Args, Debug, Clone, Default)]
pub struct MultiArgs {
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["gpus", "rank"],
        help = "Cut the graph into N parts and run the partitioned BFS, one thread a part",
        long_help = "Cut the graph into N vertex ranges of about equal edges and run the partitioned \
                     direction-optimizing BFS over them, each part a thread of this process: top-down levels \
                     send discovered vertices to their owners, bottom-up levels all-gather the frontier bitmap \
                     (docs/multi-gpu.md). With --backend auto or gpu every part's levels run on the first GPU \
                     (what N GPUs would do, on one), with --backend cpu on the part's thread."
    )]
    pub partitions: Option<usize>,
    #[arg(
        long,
        value_name = "LIST",
        conflicts_with = "rank",
        help = "Run the partitioned BFS on these GPUs through NCCL: 0,1,... or all",
        long_help = "Run the partitioned BFS with one rank per GPU listed (0,1,... or all), one thread a \
                     GPU, each rank's levels on its GPU, the frontiers exchanged through NCCL. Needs warpath \
                     built with the nccl feature and libnccl at run time."
    )]
    pub gpus: Option<String>,
    #[arg(
        long,
        value_name = "R",
        requires_all = ["world_size", "nccl_id"],
        help = "This process's rank, for one process per GPU (with --world-size and --nccl-id)"
    )]
    pub rank: Option<usize>,
    #[arg(long, value_name = "N", requires_all = ["rank", "nccl_id"], help = "Processes in the job")]
    pub world_size: Option<usize>,
    #[arg(
        long,
        value_name = "FILE",
        requires_all = ["rank", "world_size"],
        help = "File through which rank 0 hands NCCL's unique id to the others",
        long_help = "File through which rank 0 hands NCCL's unique id to the other ranks (on a file system \
                     they all see); rank 0 writes it, the others wait for it. Remove it before the next job."
    )]
    pub nccl_id: Option<PathBuf>,
}

impl MultiArgs {
    pub fn requested(&self) -> bool {
        self.partitions.is_some() || self.gpus.is_some() || self.rank.is_some()
    }
}

/// Checks the partition count before anything is loaded.
fn checked_partitions(n: usize) -> Result<usize> {
    if n == 0 {
        return Err(Error::InvalidArgument("--partitions must be at least 1".into()));
    }
    Ok(n)
}

/// Where the partitioned BFS runs.
// Without the nccl feature, `Ranks::of` refuses the NCCL kinds before any is made.
#[cfg_attr(not(feature = "nccl"), allow(dead_code))]
enum Ranks {
    /// Parts as threads of this process: their levels on the CPU, or all on the first GPU.
    Threads { parts: usize, on_gpu: bool },
    Gpus(Vec<usize>),
    Process { rank: usize, world: usize, id_file: PathBuf },
}

impl Ranks {
    fn of(multi: &MultiArgs, backend: Backend) -> Result<Ranks> {
        if let Some(n) = multi.partitions {
            let parts = checked_partitions(n)?;
            let on_gpu = match backend {
                Backend::Cpu => false,
                Backend::Gpu => GpuContext::new().map(|_| true)?,
                Backend::Auto => match GpuContext::new() {
                    Ok(_) => true,
                    Err(err) => {
                        eprintln!("warpath: warning: no usable GPU ({err}); the partitions run on the CPU");
                        false
                    }
                },
            };
            return Ok(Ranks::Threads { parts, on_gpu });
        }
        if let Some(list) = &multi.gpus {
            return gpus(list).map(Ranks::Gpus);
        }
        let (rank, world) = (multi.rank.unwrap_or(0), multi.world_size.unwrap_or(1));
        if world == 0 || rank >= world {
            return Err(Error::InvalidArgument(format!("--rank {rank} is not below --world-size {world}")));
        }
        no_nccl_build("--rank")?;
        Ok(Ranks::Process { rank, world, id_file: multi.nccl_id.clone().unwrap_or_default() })
    }

    fn count(&self) -> usize {
        match self {
            Ranks::Threads { parts, .. } => *parts,
            Ranks::Gpus(list) => list.len(),
            Ranks::Process { world, .. } => *world,
        }
    }

    fn describe(&self) -> String {
        match self {
            Ranks::Threads { parts, on_gpu } => format!(
                "{} ({parts} partition{}, one thread each)",
                if *on_gpu { "gpu 0" } else { "cpu" },
                if *parts == 1 { "" } else { "s" }
            ),
            Ranks::Gpus(list) => format!("nccl over GPUs {list:?} (one thread and one GPU a rank)"),
            Ranks::Process { rank, world, .. } => format!("nccl, rank {rank} of {world} (its levels on its GPU)"),
        }
    }

    /// Runs the partitioned BFS from each of `sources`, every part placed once; empty on a rank
    /// other than 0 of a one-process-per-GPU job, which has nothing to report.
    fn run(
        &self,
        partition: &Partition,
        sources: &[u32],
        options: &PartitionedOptions,
    ) -> Result<Vec<PartitionedTraversal>> {
        match self {
            Ranks::Threads { on_gpu: false, .. } => {
                sources.iter().map(|&source| bfs_in_process(partition, source, options)).collect()
            }
            Ranks::Threads { on_gpu: true, .. } => warpath::multi::gpu::bfs_gpu_in_process(partition, sources, options),
            #[cfg(feature = "nccl")]
            Ranks::Gpus(ordinals) => {
                use warpath::multi::gpu::{bfs_rank_gpu, by_source, GpuPart};
                let ranks = warpath::multi::nccl::run_gpu_ranks_on(ordinals, |gpu, comm| {
                    use warpath::multi::Communicator;
                    let mut placed = GpuPart::place(gpu, &partition.parts[comm.rank()])?;
                    sources.iter().map(|&source| bfs_rank_gpu(comm, &mut placed, source, options)).collect()
                })?;
                Ok(by_source(ranks, sources))
            }
            #[cfg(feature = "nccl")]
            Ranks::Process { rank, world, id_file } => {
                use warpath::multi::gpu::{bfs_rank_gpu, GpuPart};
                use warpath::multi::nccl::{share_unique_id, Nccl};
                let id = share_unique_id(id_file, *rank, std::time::Duration::from_secs(120))?;
                let gpus = warpath::gpu::nccl::device_count().map_err(Error::Gpu)?.max(1);
                let gpu = GpuContext::with_device(rank % gpus)?;
                let mut comm = Nccl::join_on(&gpu, *rank, *world, id)?;
                let part = &partition.parts[*rank];
                let mut placed = GpuPart::place(&gpu, part)?;
                let mut gathered = Vec::new();
                for &source in sources {
                    let traversal = bfs_rank_gpu(&mut comm, &mut placed, source, options)?;
                    gathered.push(warpath::multi::bfs::gather_tree(&mut comm, part, traversal, source)?);
                }
                Ok(if *rank == 0 { gathered } else { Vec::new() })
            }
            #[cfg(not(feature = "nccl"))]
            Ranks::Gpus(_) | Ranks::Process { .. } => unreachable!("refused by Ranks::of without the nccl feature"),
        }
    }
}

/// The refusal of a flag that needs NCCL in a build without it.
fn no_nccl_build(flag: &str) -> Result<()> {
    if cfg!(feature = "nccl") {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "{flag} needs the nccl feature: build warpath with `cargo build --release --features nccl`, or use \
             --partitions N to run the partitioned BFS on the CPU"
        )))
    }
}

#[cfg(feature = "nccl")]
fn gpus(list: &str) -> Result<Vec<usize>> {
    warpath::multi::nccl::resolve_gpus(list)
}

#[cfg(not(feature = "nccl"))]
fn gpus(_list: &str) -> Result<Vec<usize>> {
    no_nccl_build("--gpus").map(|()| Vec::new())
}

/// The graph, its partition, and the time each took.
fn load_partitioned(input: &GraphInput, parts: usize) -> Result<(Graph, Partition, f64, f64)> {
    let loading = Instant::now();
    let graph = super::load(input, None)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let cutting = Instant::now();
    let partition = partition_1d(&graph, None, parts)?;
    Ok((graph, partition, load_ms, cutting.elapsed().as_secs_f64() * 1e3))
}

/// Traversed edges per second, in billions (Graph500's count: the reached component's edges).
fn gteps(graph: &Graph, traversal: &PartitionedTraversal) -> f64 {
    stats::gteps(traversal.result.edges_in_component(graph), traversal.time.as_secs_f64())
}

/// `bfs --partitions N`, `--gpus LIST` or `--rank R ...`.
pub fn run_bfs(args: &BfsArgs) -> Result<()> {
    let ranks = Ranks::of(&args.multi, args.graph.backend())?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    let (graph, partition, load_ms, partition_ms) = load_partitioned(&args.graph.input, ranks.count())?;
    let source = super::source_vertex(&graph, args.source, &args.graph.input)?;
    warpath::bfs::check_source(&graph, source)?;
    let options = PartitionedOptions { bottom_up: !args.gpu.top_down, ..Default::default() };
    let Some(traversal) = ranks.run(&partition, &[source], &options)?.pop() else { return Ok(()) };
    let result = &traversal.result;
    let report = PartitionedReport {
        graph: args.graph.input.graph.clone(),
        backend: ranks.describe(),
        partitions: ranks.count(),
        load_ms,
        partition_ms,
        source: graph.external_id(source),
        vertices: graph.num_vertices() as u64,
        edges_directed: graph.num_edges(),
        reached: result.reached(),
        depth: result.depth(),
        time_ms: traversal.time.as_secs_f64() * 1e3,
        gteps: gteps(&graph, &traversal),
        exchange_bytes: traversal.exchange_bytes(),
        levels: traversal.levels.iter().map(LevelRow::of).collect(),
        verified: None,
    };
    if let Some(path) = &args.out {
        super::bfs::write_result(&graph, result, path)?;
    }
    let verification = args.verify.then(|| verify::validate(&graph, result));
    if args.json {
        let verified = verification.as_ref().map(Result::is_ok);
        super::json::print_json(&PartitionedReport { verified, ..report })?;
    } else {
        report.print_text();
        if let Some(Ok(())) = verification {
            println!("verified: ok");
        }
    }
    verification.unwrap_or(Ok(()))
}

/// What a partitioned `bfs` reports, as text or with `--json` as one object.
#[derive(Serialize)]
struct PartitionedReport {
    graph: String,
    backend: String,
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
    levels: Vec<LevelRow>,
    verified: Option<bool>,
}

#[derive(Serialize)]
struct LevelRow {
    level: u32,
    direction: String,
    frontier: u64,
    edges_inspected: u64,
    exchange_bytes: u64,
    exchange_ms: f64,
    time_ms: f64,
}

impl LevelRow {
    fn of(level: &warpath::multi::PartitionedLevel) -> LevelRow {
        LevelRow {
            level: level.trace.level,
            direction: level.trace.direction.to_string(),
            frontier: level.trace.frontier,
            edges_inspected: level.trace.edges_inspected,
            exchange_bytes: level.exchange_bytes,
            exchange_ms: level.exchange_time.as_secs_f64() * 1e3,
            time_ms: level.trace.time.as_secs_f64() * 1e3,
        }
    }
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
        println!(
            "graph: {} (loaded in {:.1} ms, cut into {} parts in {:.1} ms)",
            self.graph, self.load_ms, self.partitions, self.partition_ms
        );
        println!("backend: {}", self.backend);
        println!("source: {}", self.source);
        println!("vertices: {}", self.vertices);
        println!("edges: {} (directed, as stored)", self.edges_directed);
        println!("reached: {}", self.reached);
        println!("depth: {}", self.depth);
        println!("time: {:.3} ms", self.time_ms);
        println!("GTEPS: {:.3}", self.gteps);
        println!("exchange: {} bytes", self.exchange_bytes);
        print_levels(&self.levels);
    }
}

/// `bench --partitions N` or `--gpus LIST`: the partitioned BFS from `--roots` seeded roots,
/// and the same roots on one partition in the same run, for the scaling.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    if args.multi.rank.is_some() {
        return Err(Error::InvalidArgument(
            "bench runs every rank in one process: use --partitions N or --gpus LIST, not --rank".into(),
        ));
    }
    if args.json.is_some() || args.plot.is_some() {
        return Err(Error::InvalidArgument(
            "--json and --plot are not written for partitioned runs yet: drop them (the text report has the levels)"
                .into(),
        ));
    }
    let ranks = Ranks::of(&args.multi, args.graph.backend())?;
    let (graph, partition, load_ms, partition_ms) = load_partitioned(&args.graph.input, ranks.count())?;
    let single = partition_1d(&graph, None, 1)?;
    let roots = warpath::bfs::random_sources(&graph, args.graph.input.seed, args.roots);
    if roots.is_empty() {
        return Err(Error::InvalidArgument("the graph has no edges, so there is no root to start from".into()));
    }
    let options = PartitionedOptions { bottom_up: !args.gpu.top_down, ..Default::default() };
    let (mut times, mut single_times, mut rates, mut exchange) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut last = None;
    // One rank on the first of the same devices, the same roots: the scaling's baseline.
    let alone_ranks = match &ranks {
        Ranks::Gpus(ordinals) => Ranks::Gpus(ordinals[..1].to_vec()),
        Ranks::Threads { on_gpu, .. } => Ranks::Threads { parts: 1, on_gpu: *on_gpu },
        Ranks::Process { .. } => unreachable!("refused above"),
    };
    // The first root twice, the first untimed: NCCL connects its channels at the first
    // collectives, which no later traversal pays.
    let warmed: Vec<u32> = roots[..1].iter().chain(&roots).copied().collect();
    let runs = ranks.run(&partition, &warmed, &options)?;
    let alone_runs = alone_ranks.run(&single, &warmed, &options)?;
    for (run, alone) in runs.into_iter().zip(alone_runs).skip(1) {
        verify::validate(&graph, &run.result)?;
        verify::validate(&graph, &alone.result)?;
        times.push(run.time.as_secs_f64() * 1e3);
        single_times.push(alone.time.as_secs_f64() * 1e3);
        rates.push(gteps(&graph, &run));
        exchange.push(run.exchange_bytes() as f64);
        last = Some(run);
    }
    // One root at least, so every statistic exists.
    let spread = stats::Spread::of(&times).expect("one root at least");
    let (median, single_median) = (spread.median, stats::median(&single_times).unwrap_or(0.0));
    let (name, n, m) = (&args.graph.input.graph, graph.num_vertices(), graph.num_edges());
    println!("graph: {name} ({n} vertices, {m} edges; loaded in {load_ms:.1} ms)");
    println!("backend: {}", ranks.describe());
    println!("parts cut in {partition_ms:.1} ms; bounds {:?}", partition.bounds);
    println!("roots: {} (each validated)", roots.len());
    println!("time: median {median:.3} ms (min {:.3}, max {:.3})", spread.min, spread.max);
    println!("GTEPS: harmonic mean {:.3}", stats::harmonic_mean(&rates).unwrap_or(0.0));
    println!("exchange: median {:.0} bytes a traversal", stats::median(&exchange).unwrap_or(0.0));
    println!(
        "one partition, same roots, same run: median {single_median:.3} ms; speedup {:.2}x on {} ranks",
        single_median / median,
        ranks.count()
    );
    if let Some(run) = last {
        println!("levels of the last root ({}):", graph.external_id(run.result.source));
        print_levels(&run.levels.iter().map(LevelRow::of).collect::<Vec<_>>());
    }
    Ok(())
}
