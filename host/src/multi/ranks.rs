//! The runtime of a partitioned run: where its ranks are ([`RankKind`]: threads of this
//! process, their parts on the CPU or all on the first GPU; one thread a GPU through NCCL; or
//! this process as one rank of a job of one process a GPU), the graph loaded and cut for them
//! ([`Ranks::load`]; a process of such a job reads only its own lists of a plain `.wgr` file
//! where it can), and the partitioned BFS and connected components run on them
//! ([`Ranks::run`], [`Ranks::components`]). The command line only builds a [`Ranks`] from its
//! flags and prints what it returns; a Rust program does the same without it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cc::CcOptions;
use crate::engine::PlacementOptions;
use crate::error::{Error, Result};
use crate::formats::wgr::{ShareChecks, WgrRows};
use crate::formats::Format;
use crate::generate::looks_like_spec;
use crate::graph::{Degrees, Graph};
use crate::input::{load_graph, LoadOptions};
use crate::multi::cc::{components_gpu_in_process, components_in_process, PartitionedComponents};
use crate::multi::gpu::bfs_gpu_in_process;
use crate::multi::{
    bfs_in_process, cut, cut_part, cut_part_by_rows, Delegation, Grid, Part, Partition, PartitionLayout,
    PartitionedOptions, PartitionedTraversal, RowSource,
};

#[cfg(feature = "nccl")]
use crate::gpu::GpuContext;

/// Where the ranks of a partitioned run are.
// Without the nccl feature, the NCCL kinds are refused by whoever would run them.
#[cfg_attr(not(feature = "nccl"), allow(dead_code))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RankKind {
    /// Parts as threads of this process: their levels on the CPU, or all on the first GPU.
    Threads { parts: usize, on_gpu: bool },
    /// One thread and one GPU a rank, by these ordinals, through NCCL (feature `nccl`).
    Gpus(Vec<usize>),
    /// This process as rank `rank` of a job of `world` processes, one a GPU, which share
    /// NCCL's unique id through `id_file` (feature `nccl`).
    Process { rank: usize, world: usize, id_file: PathBuf },
}

impl RankKind {
    /// How many ranks.
    pub fn count(&self) -> usize {
        match self {
            RankKind::Threads { parts, .. } => *parts,
            RankKind::Gpus(list) => list.len(),
            RankKind::Process { world, .. } => *world,
        }
    }
}

/// The ranks of a partitioned run, and the grid they form where the graph is cut in 2D.
pub struct Ranks {
    on: RankKind,
    grid: Option<Grid>,
    /// What a rank does where the ranks are stuck after a failure (see
    /// [`with_last_resort`](Self::with_last_resort)).
    // Read by the NCCL kinds only.
    #[cfg_attr(not(feature = "nccl"), allow(dead_code))]
    last_resort: Option<fn(&str)>,
    /// This process's GPU and communicator, once it joined its one-process-per-GPU job
    /// ([`Ranks::load`]); its part runs on them.
    #[cfg(feature = "nccl")]
    job: std::sync::Mutex<Option<Job>>,
}

/// The GPU and the communicator of a process of a one-process-per-GPU job.
#[cfg(feature = "nccl")]
type Job = (GpuContext, crate::multi::nccl::Nccl);

/// What this process cut for its ranks: every rank's part, or, as one process of a job of one
/// process per GPU, its own part alone (the others are their processes' to cut).
pub enum Cut {
    Parts(Partition),
    Own(Part),
}

/// What this process holds of the graph: all of it, or, where it read only its own lists
/// ([`Ranks::load`]), the file's offsets.
pub enum Held {
    Graph(Graph),
    Offsets(WgrRows),
}

impl Held {
    /// What choosing and checking a source, and reporting, need.
    pub fn degrees(&self) -> Degrees<'_> {
        match self {
            Held::Graph(graph) => graph.degrees(),
            Held::Offsets(rows) => rows.degrees(),
        }
    }

    /// The whole graph, where this process read it.
    pub fn graph(&self) -> Option<&Graph> {
        match self {
            Held::Graph(graph) => Some(graph),
            Held::Offsets(_) => None,
        }
    }

    /// The whole graph, which a rank that writes or checks what the ranks found reads
    /// (`whole_on_rank_0` of [`Ranks::load`]).
    pub fn whole(&self) -> &Graph {
        self.graph().expect("rank 0 reads the whole graph where it writes or checks the result")
    }
}

/// What this process loaded and cut for its ranks ([`Ranks::load`]).
pub struct Loaded {
    pub held: Held,
    pub cut: Cut,
    pub load_ms: f64,
    pub partition_ms: f64,
    /// Its share of the whole file's checks, where it read only its own lists.
    // Read by the NCCL kinds only.
    #[cfg_attr(not(feature = "nccl"), allow(dead_code))]
    shares: Option<ShareChecks>,
}

/// The graph a partitioned run loads: a file or a generator spec, and how to load it
/// ([`load_graph`]).
#[derive(Clone, Copy, Debug)]
pub struct GraphSource<'a> {
    pub graph: &'a str,
    pub options: LoadOptions,
}

/// The refusal of the 2D layout by connected components.
const LAYOUT_2D_IS_BFS: &str =
    "the 2D layout runs the partitioned BFS only; connected components cut vertex ranges (the 1D layout)";

impl Ranks {
    /// `on`, cut in 1D (vertex ranges) where `grid` is `None`, else over `grid`.
    pub fn new(on: RankKind, grid: Option<Grid>) -> Ranks {
        Ranks {
            on,
            grid,
            last_resort: None,
            #[cfg(feature = "nccl")]
            job: Default::default(),
        }
    }

    /// `on`, over the grid `layout` gives their count (none for 1D).
    pub fn on(on: RankKind, layout: &PartitionLayout) -> Result<Ranks> {
        let grid = layout.grid_for(on.count())?;
        Ok(Ranks::new(on, grid))
    }

    /// `parts` ranks as threads of this process, cut in 1D, their parts on the first GPU where
    /// `on_gpu`, else on the CPU.
    pub fn threads(parts: usize, on_gpu: bool) -> Ranks {
        Ranks::new(RankKind::Threads { parts, on_gpu }, None)
    }

    /// These ranks, with `last_resort` run where a rank failed and the others are stuck (a
    /// peer process stopped, or GPU threads did not end after one failed): the command line
    /// prints why and exits, since a thread stuck inside NCCL cannot be stopped. Without one,
    /// the ranks wait.
    pub fn with_last_resort(self, last_resort: fn(&str)) -> Ranks {
        Ranks { last_resort: Some(last_resort), ..self }
    }

    /// Where the ranks are.
    pub fn kind(&self) -> &RankKind {
        &self.on
    }

    /// How many ranks.
    pub fn count(&self) -> usize {
        self.on.count()
    }

    /// The grid of ranks, where the graph is cut in 2D.
    pub fn grid(&self) -> Option<Grid> {
        self.grid
    }

    /// Where the ranks run, in words.
    pub fn describe(&self) -> String {
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

    /// The last resort, boxed for the watch.
    #[cfg(feature = "nccl")]
    fn last_resort(&self) -> Option<crate::multi::watch::LastResort> {
        self.last_resort.map(|resort| Box::new(resort) as crate::multi::watch::LastResort)
    }

    /// This process's load and cut of `source` for its ranks ([`load_partitioned`]; rank 0
    /// reads the whole graph where `whole_on_rank_0`), and `then` of what it holds (a source
    /// vertex, say). A process of a one-process-per-GPU job joins the job first, so that no
    /// rank waits on another's load for NCCL's unique id, then agrees with the others on the
    /// outcome ([`agree_with_words`](crate::multi::agree_with_words)): a rank whose load or
    /// cut failed stops with its own error and the others with one naming it, where they would
    /// otherwise wait for it in NCCL forever. Where every rank read only its own lists of a
    /// file, the ranks check the whole file together in the same exchange, each its share
    /// (`WgrRows::check_shares`).
    pub fn load<S: Send>(
        &self,
        source: &GraphSource,
        delegation: Delegation,
        whole_on_rank_0: bool,
        then: impl FnOnce(&Held) -> Result<S> + Send,
    ) -> Result<(Loaded, S)> {
        let load = |key| {
            let loaded = load_partitioned(source, self, delegation, whole_on_rank_0, key)?;
            let made = then(&loaded.held)?;
            Ok((loaded, made))
        };
        #[cfg(feature = "nccl")]
        if let RankKind::Process { rank, world, id_file } = &self.on {
            let (gpu, mut comm, key, gpus) = self.join_job(*rank, *world, id_file)?;
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
            let agreed = crate::multi::agree_with_words(&mut comm, outcome, width);
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

    /// This process's GPU and its place in a one-process-per-GPU job: NCCL's unique id through
    /// `id_file`, the GPU `rank` modulo the host's count; with the job's key and that count.
    #[cfg(feature = "nccl")]
    fn join_job(
        &self,
        rank: usize,
        world: usize,
        id_file: &Path,
    ) -> Result<(GpuContext, crate::multi::nccl::Nccl, u64, usize)> {
        use crate::multi::nccl::{clear_rank_files, share_unique_id, Nccl};
        use crate::multi::watch::{Board, FileBoard, Heartbeat};
        if rank == 0 {
            clear_rank_files(id_file, world);
        }
        let id = share_unique_id(id_file, rank, std::time::Duration::from_secs(120))?;
        // The job's key for the checks the ranks make together of a file
        // (`WgrRows::share_checks`): every rank has the id, and nobody had it before the job.
        let key = id
            .internal()
            .iter()
            .fold(0u64, |key, &c| crate::generate::rng::SplitMix64::new(key ^ c as u8 as u64).next_u64());
        // The ranks watch each other from here on, NCCL's join included: where a peer failed or
        // fell silent and this process is still here a silence later (inside NCCL, where no
        // wait asks), the last resort runs.
        let board = FileBoard::join(id_file, rank, world, Heartbeat::from_env()?, self.last_resort())?;
        let joined = (|| {
            let gpus = crate::gpu::nccl::device_count().map_err(Error::Gpu)?.max(1);
            let gpu = GpuContext::with_device(rank % gpus)?;
            let comm = Nccl::join_on(&gpu, rank, world, id)?;
            Ok((gpu, comm, gpus))
        })();
        let (gpu, mut comm, gpus) = joined.inspect_err(|error: &Error| board.fail(&error.to_string()))?;
        comm.watch_peers(&gpu, Board::Files(board))?;
        Ok((gpu, comm, key, gpus))
    }

    /// The job [`load`](Self::load) joined.
    #[cfg(feature = "nccl")]
    fn joined(&self) -> Job {
        self.job
            .lock()
            .expect("the job's lock")
            .take()
            .expect("a process of a one-process-per-GPU job joins it (Ranks::load) before it runs")
    }

    /// What this process holds of the graph where it reports what its ranks found, and `None`
    /// on a rank other than 0 of a one-process-per-GPU job, which reports nothing: a copy of
    /// the whole graph it read goes before its part is placed and run, and only the part stays.
    pub fn keep(&self, held: Held) -> Option<Held> {
        match self.on {
            RankKind::Process { rank, .. } if rank > 0 => None,
            _ => Some(held),
        }
    }

    /// Runs the partitioned BFS from each of `sources`, every part placed once; empty on a rank
    /// other than 0 of a one-process-per-GPU job, which has nothing to report.
    pub fn run(
        &self,
        partition: &Partition,
        sources: &[u32],
        options: &PartitionedOptions,
    ) -> Result<Vec<PartitionedTraversal>> {
        match &self.on {
            RankKind::Threads { on_gpu: false, .. } => {
                sources.iter().map(|&source| bfs_in_process(partition, source, options)).collect()
            }
            RankKind::Threads { on_gpu: true, .. } => bfs_gpu_in_process(partition, sources, options),
            #[cfg(feature = "nccl")]
            RankKind::Gpus(ordinals) => {
                use crate::multi::gpu::{bfs_sources_on_gpu, by_source};
                let ranks = crate::multi::nccl::run_gpu_ranks_with(ordinals, self.last_resort(), |gpu, comm| {
                    use crate::multi::Communicator;
                    bfs_sources_on_gpu(comm, gpu, &partition.parts[comm.rank()], sources, options)
                })?;
                Ok(by_source(ranks, sources))
            }
            RankKind::Process { rank, .. } => self.run_own(&partition.parts[*rank], sources, options),
            #[cfg(not(feature = "nccl"))]
            RankKind::Gpus(_) => Err(no_nccl_build()),
        }
    }

    /// [`run`](Self::run) over what this process cut: every part, or its own alone.
    pub fn run_cut(
        &self,
        cut: &Cut,
        sources: &[u32],
        options: &PartitionedOptions,
    ) -> Result<Vec<PartitionedTraversal>> {
        match cut {
            Cut::Parts(partition) => self.run(partition, sources, options),
            Cut::Own(part) => self.run_own(part, sources, options),
        }
    }

    /// This process's rank of a one-process-per-GPU job over its `part`: the traversals
    /// gathered on rank 0, empty on the others.
    #[cfg_attr(not(feature = "nccl"), allow(unused_variables))]
    fn run_own(&self, part: &Part, sources: &[u32], options: &PartitionedOptions) -> Result<Vec<PartitionedTraversal>> {
        match &self.on {
            #[cfg(feature = "nccl")]
            RankKind::Process { rank, .. } => {
                use crate::multi::gpu::bfs_sources_on_gpu;
                let (gpu, mut comm) = self.joined();
                let gathered = bfs_sources_on_gpu(&mut comm, &gpu, part, sources, options).and_then(|traversals| {
                    traversals
                        .into_iter()
                        .zip(sources)
                        .map(|(traversal, &source)| {
                            crate::multi::levels::gather_tree(&mut comm, part, traversal, source)
                        })
                        .collect::<Result<Vec<_>>>()
                });
                // A rank that failed here tells the others, which would wait for it otherwise.
                let gathered = gathered.inspect_err(|error| comm.fail(error))?;
                Ok(if *rank == 0 { gathered } else { Vec::new() })
            }
            _ => Err(alone_needs_a_job()),
        }
    }

    /// Runs the partitioned connected components `runs` times, every part placed (or its
    /// transpose made) once; empty on a rank other than 0 of a one-process-per-GPU job.
    /// `whole`: the graph cut, where this process holds it (a part's transpose is read off it).
    pub fn components(
        &self,
        partition: &Partition,
        whole: Option<&Graph>,
        options: &CcOptions,
        placement: &PlacementOptions,
        runs: usize,
    ) -> Result<Vec<PartitionedComponents>> {
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
                use crate::multi::cc::{by_run, components_on_gpu};
                let ranks = crate::multi::nccl::run_gpu_ranks_with(ordinals, self.last_resort(), |gpu, comm| {
                    use crate::multi::Communicator;
                    components_on_gpu(comm, gpu, &partition.parts[comm.rank()], whole, options, placement, runs)
                })?;
                Ok(by_run(ranks))
            }
            RankKind::Process { rank, .. } => {
                self.components_own(&partition.parts[*rank], whole, options, placement, runs)
            }
            #[cfg(not(feature = "nccl"))]
            RankKind::Gpus(_) => Err(no_nccl_build()),
        }
    }

    /// [`components`](Self::components) over what this process cut: every part, or its own
    /// alone.
    pub fn components_cut(
        &self,
        cut: &Cut,
        whole: Option<&Graph>,
        options: &CcOptions,
        placement: &PlacementOptions,
        runs: usize,
    ) -> Result<Vec<PartitionedComponents>> {
        match cut {
            Cut::Parts(partition) => self.components(partition, whole, options, placement, runs),
            Cut::Own(part) => self.components_own(part, whole, options, placement, runs),
        }
    }

    /// This process's rank of a one-process-per-GPU job over its `part`: the components
    /// gathered on rank 0, empty on the others.
    #[cfg_attr(not(feature = "nccl"), allow(unused_variables))]
    fn components_own(
        &self,
        part: &Part,
        whole: Option<&Graph>,
        options: &CcOptions,
        placement: &PlacementOptions,
        runs: usize,
    ) -> Result<Vec<PartitionedComponents>> {
        if self.grid.is_some() {
            return Err(Error::InvalidArgument(LAYOUT_2D_IS_BFS.into()));
        }
        match &self.on {
            #[cfg(feature = "nccl")]
            RankKind::Process { rank, .. } => {
                use crate::multi::cc::{components_on_gpu, gather_components};
                let (gpu, mut comm) = self.joined();
                let placed = components_on_gpu(&mut comm, &gpu, part, whole, options, placement, runs);
                let gathered = placed.and_then(|runs| {
                    runs.into_iter().map(|run| gather_components(&mut comm, part, run)).collect::<Result<Vec<_>>>()
                });
                // A rank that failed here tells the others, which would wait for it otherwise.
                let gathered = gathered.inspect_err(|error| comm.fail(error))?;
                Ok(if *rank == 0 { gathered } else { Vec::new() })
            }
            _ => Err(alone_needs_a_job()),
        }
    }
}

/// The refusal of a rank kind that needs NCCL in a build without it.
#[cfg(not(feature = "nccl"))]
fn no_nccl_build() -> Error {
    Error::InvalidArgument("ranks on several GPUs need warpath built with the nccl feature".into())
}

/// The refusal of one part run alone by ranks that are not a process of a one-process-per-GPU
/// job (which alone cuts its own part).
fn alone_needs_a_job() -> Error {
    let why = if cfg!(feature = "nccl") {
        "only a process of a one-process-per-GPU job runs its own part alone"
    } else {
        "only a process of a one-process-per-GPU job runs its own part alone, and that needs warpath built with \
         the nccl feature"
    };
    Error::InvalidArgument(why.into())
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

/// The file a process of a one-process-per-GPU job reads only what its part needs of, where it
/// can: a plain `.wgr` file (`cut_part_by_rows`: cut into vertex ranges, its own lists, the
/// hubs' lists, and of a directed graph every list twice, in passes, for the in-degrees and its
/// in-lists; over a 2D grid, the lists of its processor column's vertex blocks, and of a
/// directed graph the in-degrees). Rank 0 reads the whole file where `whole_on_rank_0` (it
/// checks what the ranks found, or writes it out), and checks the file's checksum and
/// symmetry, which need every list; where every rank reads only its own lists, they check those
/// together, each its own vertex block's. Compressed lists (whose byte offsets do not give the
/// degrees) are read whole by every process.
fn own_rows(source: &GraphSource, ranks: &Ranks, whole_on_rank_0: bool) -> Result<Option<WgrRows>> {
    let RankKind::Process { rank, .. } = ranks.on else { return Ok(None) };
    let path = Path::new(source.graph);
    // With a format given, gzip is told by the bytes, which WgrRows does not look at: read whole.
    if (rank == 0 && whole_on_rank_0)
        || source.options.format.is_some()
        || looks_like_spec(source.graph)
        || !path.is_file()
        || Format::from_path(path).ok() != Some(Format::Wgr)
    {
        return Ok(None);
    }
    WgrRows::open(path, source.options.memory_limit)
}

/// What a process reads of a `.wgr` file to cut its part ([`cut_part_by_rows`]), and how long
/// the reading took: its own rows (with its share of the file's checks where `share` names the
/// rank, the ranks and the job's key) and a directed graph's in-degrees and in-lists count as
/// loading; the hubs' pieces, which the whole-graph cut makes too, as cutting.
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
    source: &GraphSource,
    ranks: &Ranks,
    delegation: Delegation,
    whole_on_rank_0: bool,
    key: u64,
) -> Result<Loaded> {
    let loading = Instant::now();
    if let (Some(rows), RankKind::Process { rank, world, .. }) = (own_rows(source, ranks, whole_on_rank_0)?, &ranks.on)
    {
        // Where rank 0 reads the whole file, it checks the file itself (the ranks of a job are
        // given the same options).
        let share = (!whole_on_rank_0).then_some(((*rank, *world), key));
        let file_rows = FileRows {
            file: &rows,
            memory_limit: source.options.memory_limit,
            share,
            reading: Default::default(),
            shares: Default::default(),
        };
        let (opened, cutting) = (loading.elapsed(), Instant::now());
        let part = cut_part_by_rows(ranks.count(), ranks.grid, delegation, *rank, &file_rows)?;
        let reading = file_rows.reading.get();
        let partition_ms = cutting.elapsed().saturating_sub(reading).as_secs_f64() * 1e3;
        let load_ms = (opened + reading).as_secs_f64() * 1e3;
        let shares = file_rows.shares.take();
        return Ok(Loaded { held: Held::Offsets(rows), cut: Cut::Own(part), load_ms, partition_ms, shares });
    }
    let graph = load_graph(source.graph, &source.options)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let cutting = Instant::now();
    let cut = match ranks.on {
        RankKind::Process { rank, .. } => Cut::Own(cut_part(&graph, ranks.count(), ranks.grid, delegation, rank)?),
        _ => Cut::Parts(cut(&graph, ranks.count(), ranks.grid, delegation)?),
    };
    let partition_ms = cutting.elapsed().as_secs_f64() * 1e3;
    Ok(Loaded { held: Held::Graph(graph), cut, load_ms, partition_ms, shares: None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::{cut_part, Grid, PartitionLayout};

    /// A process of a one-process-per-GPU job reads only its own lists of a plain undirected
    /// `.wgr` file, and cuts the part the whole graph's cut gives it, except rank 0 where it
    /// writes or checks the result, and a 2D grid; the ranks' shares of the file's checks make
    /// the whole file's.
    #[test]
    fn a_rank_process_reads_its_own_lists_of_a_wgr_file() {
        let dir = std::env::temp_dir().join(format!("warpath-own-rows-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let graph = crate::generate::generate(&"kron:10".parse().unwrap(), 2).unwrap();
        let path = dir.join("k.wgr");
        crate::formats::write_wgr(&graph, &path).unwrap();
        let name = path.display().to_string();
        let source = GraphSource { graph: &name, options: LoadOptions::default() };
        let process = |rank, layout| {
            let on = RankKind::Process { rank, world: 4, id_file: dir.join("id") };
            Ranks::on(on, &layout).unwrap()
        };
        let key = 0x5eed;
        for whole_on_rank_0 in [true, false] {
            let mut shares = Vec::new();
            for rank in 0..4 {
                let ranks = process(rank, PartitionLayout::OneD);
                let Loaded { held, cut, shares: share, .. } =
                    load_partitioned(&source, &ranks, Delegation::Degree(32), whole_on_rank_0, key).unwrap();
                let reads_rows = rank > 0 || !whole_on_rank_0;
                assert_eq!(matches!(held, Held::Offsets(_)), reads_rows, "rank {rank}");
                assert_eq!(share.is_some(), !whole_on_rank_0, "rank {rank}");
                assert_eq!(held.degrees().num_edges(), graph.num_edges());
                let Cut::Own(part) = cut else { panic!("a process cuts its own part") };
                assert!(part == cut_part(&graph, 4, None, Delegation::Degree(32), rank).unwrap(), "rank {rank}");
                assert!(part.hubs.is_some(), "kron:10 has vertices of 32 edges or more");
                shares.extend(share);
            }
            if let (false, Some(file)) = (whole_on_rank_0, WgrRows::open(&path, None).unwrap()) {
                file.check_shares(&shares).unwrap();
            }
        }
        // A 2x2 grid's rank reads its processor column's lists, its own block's as its share.
        let grid = Grid::new(2, 2).unwrap();
        let mut shares = Vec::new();
        for rank in 0..4 {
            let layout = PartitionLayout::TwoD { grid: Some(grid) };
            let Loaded { held, cut, shares: share, .. } =
                load_partitioned(&source, &process(rank, layout), Delegation::Auto, false, key).unwrap();
            assert!(matches!(held, Held::Offsets(_)), "rank {rank} of the grid reads its column's rows");
            let Cut::Own(part) = cut else { panic!("a process cuts its own part") };
            assert!(part == cut_part(&graph, 4, Some(grid), Delegation::Auto, rank).unwrap(), "grid rank {rank}");
            shares.extend(share);
        }
        let file = WgrRows::open(&path, None).unwrap().expect("a plain .wgr file");
        file.check_shares(&shares).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Threads on the CPU load a spec whole, cut it into their parts, and run the partitioned
    /// BFS and components, which equal one rank's; the 2D layout is refused by components.
    #[test]
    fn threads_load_cut_and_run_both_algorithms() {
        let source = GraphSource { graph: "kron:9", options: LoadOptions { seed: 4, ..Default::default() } };
        let ranks = Ranks::threads(3, false);
        assert_eq!(
            (ranks.count(), ranks.kind(), ranks.grid()),
            (3, &RankKind::Threads { parts: 3, on_gpu: false }, None)
        );
        assert_eq!(ranks.describe(), "cpu (3 partitions, one thread each)");
        let (loaded, first) = ranks
            .load(&source, Delegation::Off, false, |held| {
                Ok(crate::bfs::random_sources(held.graph().expect("threads hold the graph"), 1, 7)[0])
            })
            .unwrap();
        let Loaded { held, cut, .. } = loaded;
        let held = ranks.keep(held).expect("threads report");
        let graph = held.whole();
        let Cut::Parts(partition) = &cut else { panic!("threads cut every part") };
        assert_eq!(partition.parts.len(), 3);
        let traversal = ranks.run_cut(&cut, &[first], &PartitionedOptions::default()).unwrap().pop().unwrap();
        crate::bfs::verify::validate(graph, &traversal.result).unwrap();
        let components =
            ranks.components_cut(&cut, Some(graph), &CcOptions::default(), &PlacementOptions::default(), 2).unwrap();
        assert_eq!(components.len(), 2);
        for run in &components {
            assert_eq!(run.components.labels, crate::cc::components_sequential(graph).labels);
        }
        let grid =
            Ranks::on(RankKind::Threads { parts: 4, on_gpu: false }, &PartitionLayout::TwoD { grid: None }).unwrap();
        assert_eq!(grid.grid(), Some(Grid::new(2, 2).unwrap()));
        let err = grid
            .components(partition, Some(graph), &CcOptions::default(), &PlacementOptions::default(), 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("2D layout") && !err.contains("--"), "{err}");
    }
}
