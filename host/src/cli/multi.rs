//! `bfs`, `cc`, `bench` and `suite` over a partitioned graph: `--partitions N` (threads of this
//! process, the ranks' work on the first GPU or on the CPU; for `bench` and `suite` also a
//! list of counts, for the scaling), `--gpus LIST` (one rank a GPU through NCCL, feature
//! `nccl`), and for `bfs` and `cc`, one process per GPU (`--rank R --world-size N --nccl-id
//! FILE`). `--layout 2d` cuts the adjacency matrix over a grid of those ranks instead
//! (`multi::partition_2d`), for the BFS, top-down, on CPU or GPU ranks.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use warpath::bench::harness::GraphOnGpu;
use warpath::bench::json::Flags;
use warpath::bench::partitioned::{parts_on_gpu, render_scaling, LevelRow, PartitionedBenchReport};
use warpath::bench::{run_scaling, stats, write_reports, LoadStage, RankSet, ScalingOptions, ScalingStage};
use warpath::bfs::verify;
use warpath::engine::Backend;
use warpath::engine::BackendUsed;
use warpath::formats::wgr::{ShareChecks, WgrRows};
use warpath::formats::Format;
use warpath::generate::looks_like_spec;
use warpath::gpu::GpuContext;
use warpath::graph::Degrees;
use warpath::multi::PartPlacement;
use warpath::multi::{
    bfs_in_process, Partition, PartitionedOptions, PartitionedTraversal, BOTTOM_UP_CHUNKS, CHUNK_SPARE_SMS,
    PADDED_PAIRS, SPARSE_FRONTIER_SHARE,
};
use warpath::multi::{cut, cut_part, cut_part_by_rows, Delegation, Grid, Part, PartitionLayout, RowSource};
use warpath::{Error, Graph, Result};

use warpath::cc::CcOptions;
use warpath::multi::cc::{MergeTiming, PartitionedComponents};

use super::args::{BenchArgs, BfsArgs, BfsExchangeArgs, CcArgs, GraphArgs, GraphInput, MultiArgs, WeightArgs};
use super::json::{print_envelope, Envelope};


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

/// Where the partitioned BFS runs: the ranks, and the grid they form where the graph is cut
/// in 2D (`--layout 2d`).
struct Ranks {
    on: RankKind,
    grid: Option<Grid>,
    /// This process's GPU and communicator, once it joined its one-process-per-GPU job
    /// ([`Ranks::load`]); its part runs on them.
    #[cfg(feature = "nccl")]
    job: std::sync::Mutex<Option<Job>>,
}

/// The GPU and the communicator of a process of a one-process-per-GPU job.
#[cfg(feature = "nccl")]
type Job = (GpuContext, warpath::multi::nccl::Nccl);

/// What this process loaded and cut for its ranks ([`load_partitioned`]).
struct Loaded {
    held: Held,
    cut: Cut,
    load_ms: f64,
    partition_ms: f64,
    /// Its share of the whole file's checks, where it read only its own lists.
    // Without the nccl feature `Ranks::of` refuses `--rank`, and there are none.
    #[cfg_attr(not(feature = "nccl"), allow(dead_code))]
    shares: Option<ShareChecks>,
}

/// What the ranks are.
// Without the nccl feature, `Ranks::of` refuses the NCCL kinds before any is made.
#[cfg_attr(not(feature = "nccl"), allow(dead_code))]
enum RankKind {
    /// Parts as threads of this process: their levels on the CPU, or all on the first GPU.
    Threads {
        parts: usize,
        on_gpu: bool,
    },
    Gpus(Vec<usize>),
    Process {
        rank: usize,
        world: usize,
        id_file: PathBuf,
    },
}

impl RankKind {
    /// How many ranks.
    fn count(&self) -> usize {
        match self {
            RankKind::Threads { parts, .. } => *parts,
            RankKind::Gpus(list) => list.len(),
            RankKind::Process { world, .. } => *world,
        }
    }
}

impl Ranks {
    fn of(multi: &MultiArgs, backend: Backend) -> Result<Ranks> {
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
                "--layout 2d needs the ranks of its grid: --partitions N, --gpus LIST or --rank R --world-size N"
                    .into(),
            ));
        } else {
            let (rank, world) = (multi.rank.unwrap_or(0), multi.world_size.unwrap_or(1));
            if world == 0 || rank >= world {
                return Err(Error::InvalidArgument(format!("--rank {rank} is not below --world-size {world}")));
            }
            no_nccl_build("--rank")?;
            RankKind::Process { rank, world, id_file: multi.nccl_id.clone().unwrap_or_default() }
        };
        Ranks::on(on, &multi.layout)
    }

    /// `on`, over the grid `layout` gives their count (none for 1D).
    fn on(on: RankKind, layout: &PartitionLayout) -> Result<Ranks> {
        let grid = layout.grid_for(on.count())?;
        Ok(Ranks::new(on, grid))
    }

    fn new(on: RankKind, grid: Option<Grid>) -> Ranks {
        Ranks {
            on,
            grid,
            #[cfg(feature = "nccl")]
            job: Default::default(),
        }
    }

    /// This process's load and cut of `input` for its ranks ([`load_partitioned`]; rank 0
    /// reads the whole graph where `whole_on_rank_0`), and `then` of what it holds (a
    /// source). A process of a one-process-per-GPU job joins the job first, so that no rank
    /// waits on another's load for NCCL's unique id, then agrees with the others on the
    /// outcome ([`agree_with_words`](warpath::multi::agree_with_words)): a rank whose load or cut failed stops with its own error
    /// and the others with one naming it, where they would otherwise wait for it in NCCL
    /// forever. Where every rank read only its own lists of a file, the ranks check the whole
    /// file together in the same exchange, each its share (`WgrRows::check_shares`).
    fn load<S: Send>(
        &self,
        input: &GraphInput,
        delegation: Delegation,
        whole_on_rank_0: bool,
        then: impl FnOnce(&Held) -> Result<S> + Send,
    ) -> Result<(Loaded, S)> {
        let load = |key| {
            let loaded = load_partitioned(input, self, delegation, whole_on_rank_0, key)?;
            let made = then(&loaded.held)?;
            Ok((loaded, made))
        };
        #[cfg(feature = "nccl")]
        if let RankKind::Process { rank, world, id_file } = &self.on {
            let (gpu, mut comm, key, gpus) = join_job(*rank, *world, id_file)?;
            // A word saying whether the rank read only its lists, then its share of the checks.
            let width = 1 + ShareChecks::WORDS;
            let loaded = match load_pool(*world, gpus) {
                Some(pool) => pool.install(|| load(key)),
                None => load(key),
            };
            let outcome = loaded.map(|(loaded, made)| {
                let words = match loaded.shares {
                    Some(shares) => [&[1][..], &shares.to_words()].concat(),
                    None => vec![0; width],
                };
                ((loaded, made), words)
            });
            let agreed = warpath::multi::agree_with_words(&mut comm, outcome, width);
            *self.job.lock().expect("the job's lock") = Some((gpu, comm));
            let ((loaded, made), words) = agreed?;
            let rows = words.chunks_exact(width);
            if let (Held::Offsets(file), true) = (&loaded.held, rows.clone().all(|row| row[0] == 1)) {
                let shares: Vec<ShareChecks> = rows.map(|row| ShareChecks::from_words(&row[1..])).collect();
                file.check_shares(&shares)?;
            }
            return Ok((loaded, made));
        }
        load(0)
    }

    /// The job [`load`](Self::load) joined.
    #[cfg(feature = "nccl")]
    fn joined(&self) -> Job {
        self.job
            .lock()
            .expect("the job's lock")
            .take()
            .expect("a --rank process joins its job (Ranks::load) before it runs")
    }

    fn count(&self) -> usize {
        self.on.count()
    }

    /// What this process holds of the graph where it reports what its ranks found, and `None`
    /// on a rank other than 0 of a `--rank` job, which reports nothing: a copy of the whole
    /// graph it read goes before its part is placed and run, and only the part stays.
    fn keep(&self, held: Held) -> Option<Held> {
        match self.on {
            RankKind::Process { rank, .. } if rank > 0 => None,
            _ => Some(held),
        }
    }

    fn describe(&self) -> String {
        let cut = match self.grid {
            Some(grid) => format!(" on a {grid} grid, top-down"),
            None => String::new(),
        };
        match &self.on {
            RankKind::Threads { parts, on_gpu } => format!(
                "{} ({parts} partition{}{cut}, one thread each)",
                if *on_gpu { "gpu 0" } else { "cpu" },
                if *parts == 1 { "" } else { "s" }
            ),
            RankKind::Gpus(list) => format!("nccl over GPUs {list:?} (one thread and one GPU a rank{cut})"),
            RankKind::Process { rank, world, .. } => {
                format!("nccl, rank {rank} of {world} (its levels on its GPU{cut})")
            }
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
        match &self.on {
            RankKind::Threads { on_gpu: false, .. } => {
                sources.iter().map(|&source| bfs_in_process(partition, source, options)).collect()
            }
            RankKind::Threads { on_gpu: true, .. } => {
                warpath::multi::gpu::bfs_gpu_in_process(partition, sources, options)
            }
            #[cfg(feature = "nccl")]
            RankKind::Gpus(ordinals) => {
                use warpath::multi::gpu::{bfs_sources_on_gpu, by_source};
                let ranks =
                    warpath::multi::nccl::run_gpu_ranks_with(ordinals, Some(exit_when_stuck()), |gpu, comm| {
                        use warpath::multi::Communicator;
                        bfs_sources_on_gpu(comm, gpu, &partition.parts[comm.rank()], sources, options)
                    })?;
                Ok(by_source(ranks, sources))
            }
            RankKind::Process { rank, .. } => self.run_own(&partition.parts[*rank], sources, options),
            #[cfg(not(feature = "nccl"))]
            RankKind::Gpus(_) => unreachable!("refused by Ranks::of without the nccl feature"),
        }
    }

    /// [`run`](Self::run) over what this process cut: every part, or its own alone.
    fn run_cut(&self, cut: &Cut, sources: &[u32], options: &PartitionedOptions) -> Result<Vec<PartitionedTraversal>> {
        match cut {
            Cut::Parts(partition) => self.run(partition, sources, options),
            Cut::Own(part) => self.run_own(part, sources, options),
        }
    }

    /// This process's rank of a one-process-per-GPU job over its `part`: the traversals
    /// gathered on rank 0, empty on the others.
    // Without the nccl feature `Ranks::of` refuses `--rank`, and nothing here is reached.
    #[cfg_attr(not(feature = "nccl"), allow(unused_variables))]
    fn run_own(&self, part: &Part, sources: &[u32], options: &PartitionedOptions) -> Result<Vec<PartitionedTraversal>> {
        match &self.on {
            #[cfg(feature = "nccl")]
            RankKind::Process { rank, .. } => {
                use warpath::multi::gpu::bfs_sources_on_gpu;
                let (gpu, mut comm) = self.joined();
                let gathered = bfs_sources_on_gpu(&mut comm, &gpu, part, sources, options).and_then(|traversals| {
                    traversals
                        .into_iter()
                        .zip(sources)
                        .map(|(traversal, &source)| {
                            warpath::multi::levels::gather_tree(&mut comm, part, traversal, source)
                        })
                        .collect::<Result<Vec<_>>>()
                });
                // A rank that failed here tells the others, which would wait for it otherwise.
                let gathered = gathered.inspect_err(|error| comm.fail(error))?;
                Ok(if *rank == 0 { gathered } else { Vec::new() })
            }
            _ => unreachable!(
                "only a rank of a one-process-per-GPU job (--rank, with the nccl feature) runs a part alone"
            ),
        }
    }

    /// Runs the partitioned connected components `runs` times, every part placed (or its
    /// transpose made) once; empty on a rank other than 0 of a one-process-per-GPU job.
    /// `whole`: the graph cut, where this process holds it (a part's transpose is read off it).
    fn components(
        &self,
        partition: &Partition,
        whole: Option<&Graph>,
        options: &CcOptions,
        placement: PartPlacement,
        runs: usize,
    ) -> Result<Vec<PartitionedComponents>> {
        use warpath::multi::cc::{components_gpu_in_process, components_in_process};
        if self.grid.is_some() {
            return Err(Error::InvalidArgument(LAYOUT_2D_IS_BFS.into()));
        }
        match &self.on {
            RankKind::Threads { on_gpu: false, .. } => components_in_process(partition, whole, options, runs),
            RankKind::Threads { on_gpu: true, .. } => {
                components_gpu_in_process(partition, whole, options, placement, runs)
            }
            #[cfg(feature = "nccl")]
            RankKind::Gpus(ordinals) => {
                use warpath::multi::cc::{by_run, components_on_gpu};
                let ranks =
                    warpath::multi::nccl::run_gpu_ranks_with(ordinals, Some(exit_when_stuck()), |gpu, comm| {
                        use warpath::multi::Communicator;
                        components_on_gpu(comm, gpu, &partition.parts[comm.rank()], whole, options, placement, runs)
                    })?;
                Ok(by_run(ranks))
            }
            RankKind::Process { rank, .. } => {
                self.components_own(&partition.parts[*rank], whole, options, placement, runs)
            }
            #[cfg(not(feature = "nccl"))]
            RankKind::Gpus(_) => unreachable!("refused by Ranks::of without the nccl feature"),
        }
    }

    /// [`components`](Self::components) over what this process cut: every part, or its own
    /// alone.
    fn components_cut(
        &self,
        cut: &Cut,
        whole: Option<&Graph>,
        options: &CcOptions,
        placement: PartPlacement,
        runs: usize,
    ) -> Result<Vec<PartitionedComponents>> {
        match cut {
            Cut::Parts(partition) => self.components(partition, whole, options, placement, runs),
            Cut::Own(part) => self.components_own(part, whole, options, placement, runs),
        }
    }

    /// This process's rank of a one-process-per-GPU job over its `part`: the components
    /// gathered on rank 0, empty on the others.
    // Without the nccl feature `Ranks::of` refuses `--rank`, and nothing here is reached.
    #[cfg_attr(not(feature = "nccl"), allow(unused_variables))]
    fn components_own(
        &self,
        part: &Part,
        whole: Option<&Graph>,
        options: &CcOptions,
        placement: PartPlacement,
        runs: usize,
    ) -> Result<Vec<PartitionedComponents>> {
        match &self.on {
            #[cfg(feature = "nccl")]
            RankKind::Process { rank, .. } => {
                use warpath::multi::cc::{components_on_gpu, gather_components};
                let (gpu, mut comm) = self.joined();
                let placed = components_on_gpu(&mut comm, &gpu, part, whole, options, placement, runs);
                let gathered = placed.and_then(|runs| {
                    runs.into_iter().map(|run| gather_components(&mut comm, part, run)).collect::<Result<Vec<_>>>()
                });
                // A rank that failed here tells the others, which would wait for it otherwise.
                let gathered = gathered.inspect_err(|error| comm.fail(error))?;
                Ok(if *rank == 0 { gathered } else { Vec::new() })
            }
            _ => unreachable!(
                "only a rank of a one-process-per-GPU job (--rank, with the nccl feature) runs a part alone"
            ),
        }
    }
}

/// The refusal of `--layout 2d` by connected components.
const LAYOUT_2D_IS_BFS: &str =
    "--layout 2d runs the partitioned BFS only; connected components cut vertex ranges: use --layout 1d";

/// What a rank does where the ranks are stuck after a failure (a `--rank` process's heartbeat
/// saw a peer stop, or `--gpus` threads did not end after one failed): it says why and exits
/// with code 2, since the thread that is stuck cannot be stopped from here.
#[cfg(feature = "nccl")]
fn exit_when_stuck() -> warpath::multi::watch::LastResort {
    Box::new(|why: &str| {
        eprintln!("warpath: error: {why}");
        std::process::exit(2);
    })
}

/// This process's GPU and its place in a one-process-per-GPU job: NCCL's unique id through
/// `id_file`, the GPU `rank` modulo the host's count; with the job's key and that count.
#[cfg(feature = "nccl")]
fn join_job(
    rank: usize,
    world: usize,
    id_file: &std::path::Path,
) -> Result<(GpuContext, warpath::multi::nccl::Nccl, u64, usize)> {
    use warpath::multi::nccl::{clear_rank_files, share_unique_id, Nccl};
    use warpath::multi::watch::{Board, FileBoard, Heartbeat};
    if rank == 0 {
        clear_rank_files(id_file, world);
    }
    let id = share_unique_id(id_file, rank, std::time::Duration::from_secs(120))?;
    // The job's key for the checks the ranks make together of a file (`WgrRows::share_checks`):
    // every rank has the id, and nobody had it before the job began.
    let key = id
        .internal()
        .iter()
        .fold(0u64, |key, &c| warpath::generate::rng::SplitMix64::new(key ^ c as u8 as u64).next_u64());
    // The ranks watch each other from here on, NCCL's join included: where a peer failed or
    // fell silent and this process is still here a silence later (inside NCCL, where no wait
    // asks), it says why and exits.
    let board = FileBoard::join(id_file, rank, world, Heartbeat::from_env()?, Some(exit_when_stuck()))?;
    let joined = (|| {
        let gpus = warpath::gpu::nccl::device_count().map_err(Error::Gpu)?.max(1);
        let gpu = GpuContext::with_device(rank % gpus)?;
        let comm = Nccl::join_on(&gpu, rank, world, id)?;
        Ok((gpu, comm, gpus))
    })();
    let (gpu, mut comm, gpus) = joined.inspect_err(|error: &Error| board.fail(&error.to_string()))?;
    comm.watch_peers(&gpu, Board::Files(board))?;
    Ok((gpu, comm, key, gpus))
}

/// A thread pool of this process's share of the host's cores for its load and cut, where the
/// job's processes share the host (one a GPU: `world` or the host's `gpus`, whichever is fewer)
/// and `RAYON_NUM_THREADS` does not say otherwise: every process loads and cuts at once, each
/// on all of its pool. Afterwards (rank 0's checks of a result) the process has every core.
#[cfg(feature = "nccl")]
fn load_pool(world: usize, gpus: usize) -> Option<rayon::ThreadPool> {
    let local_ranks = world.min(gpus);
    if local_ranks < 2 || std::env::var_os("RAYON_NUM_THREADS").is_some() {
        return None;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    rayon::ThreadPoolBuilder::new().num_threads((cores / local_ranks).max(1)).build().ok()
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

/// What this process cut for its ranks: every rank's part, or, as one process of a job of one
/// process per GPU (`--rank`), its own part alone (the others are their processes' to cut).
enum Cut {
    Parts(Partition),
    Own(Part),
}

/// What this process holds of the graph: all of it, or, where it read only its own lists
/// ([`own_rows`]), the offsets.
enum Held {
    Graph(Graph),
    Offsets(WgrRows),
}

impl Held {
    /// What choosing and checking a source, and reporting, need.
    fn degrees(&self) -> Degrees<'_> {
        match self {
            Held::Graph(graph) => graph.degrees(),
            Held::Offsets(rows) => rows.degrees(),
        }
    }

    /// The whole graph, where this process read it.
    fn graph(&self) -> Option<&Graph> {
        match self {
            Held::Graph(graph) => Some(graph),
            Held::Offsets(_) => None,
        }
    }

    /// The whole graph, which a rank that writes or checks what the ranks found reads
    /// (`whole_on_rank_0`).
    fn whole(&self) -> &Graph {
        self.graph().expect("rank 0 reads the whole graph where it writes or checks the result")
    }
}

/// The file a `--rank` process reads only what its part needs of, where it can: a plain `.wgr`
/// file (`cut_part_by_rows`: cut into vertex ranges, its own lists, the hubs' lists, and of a
/// directed graph every list twice, in passes, for the in-degrees and its in-lists; over a 2D
/// grid, the lists of its processor column's vertex blocks, and of a directed graph the
/// in-degrees). Rank 0 reads the whole file where `whole_on_rank_0` (it checks what the ranks
/// found, or writes it out), and checks the file's checksum and symmetry, which need every
/// list; where every rank reads only its own lists, they check those together, each its own
/// vertex block's. Compressed lists (whose byte offsets do not give the degrees) are read whole
/// by every process.
fn own_rows(input: &GraphInput, ranks: &Ranks, whole_on_rank_0: bool) -> Result<Option<WgrRows>> {
    let RankKind::Process { rank, .. } = ranks.on else { return Ok(None) };
    let path = Path::new(&input.graph);
    // With --format, gzip is told by the bytes, which WgrRows does not look at: read whole.
    if (rank == 0 && whole_on_rank_0)
        || input.format.is_some()
        || looks_like_spec(&input.graph)
        || !path.is_file()
        || Format::from_path(path).ok() != Some(Format::Wgr)
    {
        return Ok(None);
    }
    WgrRows::open(path, input.memory_limit)
}

/// What a `--rank` process reads of a `.wgr` file to cut its part ([`cut_part_by_rows`]), and
/// how long the reading took: its own rows (with its share of the file's checks where `share`
/// names the rank, the ranks and the job's key) and a directed graph's in-degrees and in-lists
/// count as loading; the hubs' pieces, which the whole-graph cut makes too, as cutting.
struct FileRows<'r> {
    file: &'r WgrRows,
    memory_limit: Option<u64>,
    share: Option<((usize, usize), u64)>,
    reading: std::cell::Cell<std::time::Duration>,
    shares: std::cell::Cell<Option<ShareChecks>>,
}

impl FileRows<'_> {
    /// `read()`, its time counted as reading.
    fn timed<T>(&self, read: impl FnOnce() -> Result<T>) -> Result<T> {
        let started = Instant::now();
        let read = read();
        self.reading.set(self.reading.get() + started.elapsed());
        read
    }
}

impl RowSource for FileRows<'_> {
    fn offsets(&self) -> &[u64] {
        self.file.offsets()
    }

    fn is_undirected(&self) -> bool {
        self.file.is_undirected()
    }

    fn rows(&self, first: u32, end: u32) -> Result<Vec<u32>> {
        self.timed(|| {
            let file = self.file;
            let (rows, balance) =
                file.read_keyed(first, end, self.memory_limit, self.share.map_or(0, |(_, key)| key))?;
            if let Some((rank, _)) = self.share {
                self.shares.set(Some(file.share_checks(rank, balance)?));
            }
            Ok(rows)
        })
    }

    fn other_rows(&self, first: u32, end: u32) -> Result<Vec<u32>> {
        self.timed(|| self.file.read(first, end, self.memory_limit))
    }

    fn pieces(&self, vertices: &[u32], first: u32, end: u32) -> Result<Vec<Vec<u32>>> {
        self.file.pieces_of(vertices, first, end)
    }

    fn in_offsets(&self) -> Result<Vec<u64>> {
        self.timed(|| self.file.in_offsets())
    }

    fn in_rows(&self, in_offsets: &[u64], first: u32, end: u32) -> Result<Vec<u32>> {
        self.timed(|| self.file.in_rows(in_offsets, first, end, self.memory_limit))
    }
}

/// What this process holds of the graph, what it cuts of it for `ranks`, and the time each
/// took (a process reading only its own lists counts reading them, and its share of the file's
/// checks under the job's `key` where rank 0 does not check it whole, as loading).
/// `whole_on_rank_0` as for [`own_rows`].
fn load_partitioned(
    input: &GraphInput,
    ranks: &Ranks,
    delegation: Delegation,
    whole_on_rank_0: bool,
    key: u64,
) -> Result<Loaded> {
    let loading = Instant::now();
    if let (Some(rows), RankKind::Process { rank, world, .. }) = (own_rows(input, ranks, whole_on_rank_0)?, &ranks.on) {
        // Where rank 0 reads the whole file, it checks the file itself (the ranks of a job are
        // given the same options).
        let share = (!whole_on_rank_0).then_some(((*rank, *world), key));
        let source = FileRows {
            file: &rows,
            memory_limit: input.memory_limit,
            share,
            reading: Default::default(),
            shares: Default::default(),
        };
        let (opened, cutting) = (loading.elapsed(), Instant::now());
        let part = cut_part_by_rows(ranks.count(), ranks.grid, delegation, *rank, &source)?;
        let reading = source.reading.get();
        let partition_ms = cutting.elapsed().saturating_sub(reading).as_secs_f64() * 1e3;
        let load_ms = (opened + reading).as_secs_f64() * 1e3;
        let shares = source.shares.take();
        return Ok(Loaded { held: Held::Offsets(rows), cut: Cut::Own(part), load_ms, partition_ms, shares });
    }
    let graph = super::load(input, None)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let cutting = Instant::now();
    let cut = match ranks.on {
        RankKind::Process { rank, .. } => Cut::Own(cut_part(&graph, ranks.count(), ranks.grid, delegation, rank)?),
        _ => Cut::Parts(cut(&graph, ranks.count(), ranks.grid, delegation)?),
    };
    let partition_ms = cutting.elapsed().as_secs_f64() * 1e3;
    Ok(Loaded { held: Held::Graph(graph), cut, load_ms, partition_ms, shares: None })
}

/// `bfs --partitions N`, `--gpus LIST` or `--rank R ...`.
pub fn run_bfs(args: &BfsArgs) -> Result<()> {
    let ranks = Ranks::of(&args.multi, args.graph.backend())?;
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
    let (loaded, source) = ranks.load(&args.graph.input, delegation, whole_on_rank_0, |held| {
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
        backend: super::json::backend_kind(&RankSet::backend(&ranks)),
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

/// The partitioned BFS's ranks as the bench harness runs them.
impl RankSet for Ranks {
    fn ranks(&self) -> usize {
        self.count()
    }

    fn name(&self) -> String {
        self.describe()
    }

    fn backend(&self) -> BackendUsed {
        match self.on {
            RankKind::Threads { on_gpu: false, parts } => BackendUsed::Cpu { threads: parts },
            _ => BackendUsed::Gpu { device: self.describe() },
        }
    }

    fn traverse(
        &self,
        partition: &Partition,
        source: u32,
        options: &PartitionedOptions,
    ) -> Result<PartitionedTraversal> {
        self.traverse_many(partition, &[source], options)?.pop().ok_or_else(|| {
            Error::InvalidArgument("a benchmark runs every rank in one process: use --partitions or --gpus".into())
        })
    }

    fn traverse_many(
        &self,
        partition: &Partition,
        sources: &[u32],
        options: &PartitionedOptions,
    ) -> Result<Vec<PartitionedTraversal>> {
        self.run(partition, sources, options)
    }

    fn grid(&self) -> Option<Grid> {
        self.grid
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
    match Ranks::of(multi, backend)?.on {
        RankKind::Gpus(ordinals) => {
            let mut prefixes = doubling_prefixes(&ordinals);
            // A grid named RxC measures its own count of GPUs only.
            if let PartitionLayout::TwoD { grid: Some(grid) } = multi.layout {
                prefixes.retain(|set| set.len() == grid.ranks());
            }
            let sets =
                prefixes.into_iter().map(|set| Ranks::on(RankKind::Gpus(set), &multi.layout)).collect::<Result<_>>()?;
            Ok((Ranks::new(RankKind::Gpus(ordinals[..1].to_vec()), baseline_grid), sets))
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
        placement: graph.map(part_placement).unwrap_or_default(),
        delegation: exchange.delegation(),
        padded_pairs: exchange.padded_pairs.unwrap_or(PADDED_PAIRS),
        sparse_frontier_share: exchange.sparse_frontier_share.unwrap_or(SPARSE_FRONTIER_SHARE),
        bottom_up_chunks: exchange.bottom_up_chunks.unwrap_or(BOTTOM_UP_CHUNKS),
        chunk_spare_sms: exchange.chunk_spare_sms.unwrap_or(CHUNK_SPARE_SMS),
        ..Default::default()
    }
}

/// Where `graph`'s `--placement` and `--vram-budget` put each GPU rank's part.
fn part_placement(graph: &GraphArgs) -> PartPlacement {
    let options = graph.placement_options();
    PartPlacement { placement: options.placement, vram_budget: options.vram_budget, compressed: graph.compressed }
}

/// The list options of one GPU that parts do not take, never dropped in silence: a part has no
/// list heads, so GPU ranks refuse `--no-list-heads`; CPU ranks read plain lists as the CPU
/// always does, and say so for `--compressed`.
fn check_part_lists(graph: &GraphArgs, backend: &BackendUsed) -> Result<()> {
    let on_gpu = matches!(backend, BackendUsed::Gpu { .. });
    if on_gpu && graph.no_list_heads {
        return Err(Error::InvalidArgument(
            "--no-list-heads: GPU ranks keep no list heads for their parts: drop it, or run on one GPU".into(),
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
    print_bench(&graph, &reports);
    if let Some(path) = &args.json {
        write_reports(&reports, path)?;
        println!("json: {}", path.display());
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
    let ranks = Ranks::of(&args.multi, args.graph.backend())?;
    check_part_lists(&args.graph, &ranks.backend())?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    if ranks.grid.is_some() {
        return Err(Error::InvalidArgument(LAYOUT_2D_IS_BFS.into()));
    }
    // Rank 0 of a --rank job reads the whole graph only to write or check the components.
    let whole_on_rank_0 = args.out.is_some() || args.verify;
    let (loaded, ()) = ranks.load(&args.graph.input, Delegation::Off, whole_on_rank_0, |_| Ok(()))?;
    let Loaded { held, cut, load_ms, partition_ms, .. } = loaded;
    let held = ranks.keep(held);
    let whole = held.as_ref().and_then(Held::graph);
    let started = Instant::now();
    let Some(run) = ranks.components_cut(&cut, whole, &options, part_placement(&args.graph), 1)?.pop() else {
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
        backend: super::json::backend_kind(&RankSet::backend(&ranks)),
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
    if baseline.grid.is_some() {
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
        let runs = ranks.components(&partition, Some(&graph), options, part_placement(&args.graph), 1 + args.roots)?;
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
    println!("graph: {} ({n} vertices, {m} edges; loaded in {load_ms:.1} ms)", args.graph.input.graph);
    println!("cc algorithm: {}; {} components; every run validated", options.algorithm, reference);
    println!("scaling (median of {} runs a rank set; speedup against one partition, same process):", args.roots);
    println!(
        "{:>5}  {:>10}  {:>10}  {:>10}  {:>14}  {:>12}  {:>7}  backend",
        "ranks", "time ms", "parts ms", "merge ms", "exchange B", "joined", "speedup"
    );
    for r in &rows {
        println!(
            "{:>5}  {:>10.3}  {:>10.3}  {:>10.3}  {:>14}  {:>12}  {:>6.2}x  {}",
            r.ranks, r.time_ms, r.local_ms, r.merge_ms, r.exchange_bytes, r.joined_pairs, r.speedup, r.backend
        );
    }
    println!("merge steps (medians, ms): names to owners, join, pairs gathered, union, relabel");
    for r in &rows {
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
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&rows)
            .map_err(|e| Error::InvalidArgument(format!("cannot encode the report: {e}")))?;
        warpath::output::write_output(path, |out| writeln!(out, "{text}"))?;
        println!("json: {}", path.display());
    }
    Ok(())
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
    use super::{check_part_lists, doubling_prefixes, part_placement, traversal_options, BfsExchangeArgs};
    use crate::cli::args::{Cli, Command, GraphArgs};
    use clap::Parser;
    use warpath::engine::BackendUsed;
    use warpath::gpu::Placement;
    use warpath::multi::PartPlacement;
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
        let placed = part_placement(&graph_args(&["--placement", "zero-copy", "--vram-budget", "2G", "--compressed"]));
        let expected =
            PartPlacement { placement: Some(Placement::ZeroCopy), vram_budget: Some(2 << 30), compressed: true };
        assert_eq!(placed, expected);
        assert_eq!(part_placement(&graph_args(&[])), PartPlacement::default());
        let gpu = BackendUsed::Gpu { device: "gpu 0".into() };
        let cpu = BackendUsed::Cpu { threads: 2 };
        check_part_lists(&graph_args(&["--compressed"]), &gpu).unwrap();
        let err = check_part_lists(&graph_args(&["--no-list-heads"]), &gpu).unwrap_err().to_string();
        assert!(err.contains("--no-list-heads") && err.contains("GPU ranks"), "{err}");
        // CPU ranks read plain lists, as the CPU always does.
        for flag in ["--compressed", "--no-list-heads"] {
            check_part_lists(&graph_args(&[flag]), &cpu).unwrap();
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

    /// A `--rank` process reads only its own lists of a plain undirected `.wgr` file, and cuts
    /// the part the whole graph's cut gives it, except rank 0 where it writes or checks the
    /// result, and a 2D grid; the ranks' shares of the file's checks make the whole file's.
    #[test]
    fn a_rank_process_reads_its_own_lists_of_a_wgr_file() {
        use super::{load_partitioned, Cut, Held, Loaded, RankKind, Ranks};
        use warpath::multi::{cut_part, Grid};
        let dir = std::env::temp_dir().join(format!("warpath-own-rows-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let graph = warpath::generate::generate(&"kron:10".parse().unwrap(), 2).unwrap();
        let path = dir.join("k.wgr");
        warpath::formats::write_wgr(&graph, &path).unwrap();
        let input = graph_args(&[]).input;
        let input = crate::cli::args::GraphInput { graph: path.display().to_string(), ..input };
        let process = |rank, layout| {
            let on = RankKind::Process { rank, world: 4, id_file: dir.join("id") };
            Ranks::on(on, &layout).unwrap()
        };
        let key = 0x5eed;
        for whole_on_rank_0 in [true, false] {
            let mut shares = Vec::new();
            for rank in 0..4 {
                let ranks = process(rank, warpath::multi::PartitionLayout::OneD);
                let Loaded { held, cut, shares: share, .. } =
                    load_partitioned(&input, &ranks, Delegation::Degree(32), whole_on_rank_0, key).unwrap();
                let reads_rows = rank > 0 || !whole_on_rank_0;
                assert_eq!(matches!(held, Held::Offsets(_)), reads_rows, "rank {rank}");
                assert_eq!(share.is_some(), !whole_on_rank_0, "rank {rank}");
                assert_eq!(held.degrees().num_edges(), graph.num_edges());
                let Cut::Own(part) = cut else { panic!("a process cuts its own part") };
                assert!(part == cut_part(&graph, 4, None, Delegation::Degree(32), rank).unwrap(), "rank {rank}");
                assert!(part.hubs.is_some(), "kron:10 has vertices of 32 edges or more");
                shares.extend(share);
            }
            if let (false, Some(file)) = (whole_on_rank_0, warpath::formats::wgr::WgrRows::open(&path, None).unwrap()) {
                file.check_shares(&shares).unwrap();
            }
        }
        // A 2x2 grid's rank reads its processor column's lists, its own block's as its share.
        let grid = Grid::new(2, 2).unwrap();
        let mut shares = Vec::new();
        for rank in 0..4 {
            let layout = warpath::multi::PartitionLayout::TwoD { grid: Some(grid) };
            let Loaded { held, cut, shares: share, .. } =
                load_partitioned(&input, &process(rank, layout), Delegation::Auto, false, key).unwrap();
            assert!(matches!(held, Held::Offsets(_)), "rank {rank} of the grid reads its column's rows");
            let Cut::Own(part) = cut else { panic!("a process cuts its own part") };
            assert!(part == cut_part(&graph, 4, Some(grid), Delegation::Auto, rank).unwrap(), "grid rank {rank}");
            shares.extend(share);
        }
        let file = warpath::formats::wgr::WgrRows::open(&path, None).unwrap().expect("a plain .wgr file");
        file.check_shares(&shares).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
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
