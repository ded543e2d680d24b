//! The flags that spread a run over ranks (`--partitions`, `--gpus`, `--rank`, `--layout`) and
//! the partitioned BFS's exchange flags.

use std::path::PathBuf;

use clap::Args;

use warpath::multi::{Delegation, PartitionLayout};
use warpath::Error;

/// How the graph is spread over ranks; with none of these, `bfs`, `cc` and `bench` run on one
/// GPU or the CPU as usual.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Several GPUs or partitions")]
pub struct MultiArgs {
    #[arg(
        long,
        value_name = "N",
        value_delimiter = ',',
        conflicts_with_all = ["gpus", "rank"],
        help = "Cut the graph into N parts and run the partitioned BFS or CC, one thread a part (bench, \
                suite: N,N,... for the scaling)",
        long_help = "Cut the graph into N vertex ranges of about equal edges and run the partitioned \
                     direction-optimizing BFS over them, each part a thread of this process: top-down levels \
                     send discovered vertices to their owners, bottom-up levels all-gather the frontier bitmap \
                     (docs/multi-gpu.md); cc finds each part's components, then merges the components that \
                     edges join across parts. With --backend auto or gpu every part's work runs on the first GPU \
                     (what N GPUs would do, on one), with --backend cpu on the part's thread. bench and suite \
                     also take a list, 1,2,4: each count runs the same roots in the same process, and a \
                     scaling table gives each count's median time, GTEPS, speedup and efficiency against \
                     one partition, and exchange bytes."
    )]
    pub partitions: Option<Vec<usize>>,
    #[arg(
        long,
        value_name = "LIST",
        conflicts_with = "rank",
        help = "Run the partitioned BFS or CC on these GPUs through NCCL: 0,1,... or all",
        long_help = "Run the partitioned BFS or CC with one rank per GPU listed (0,1,... or all), one thread a \
                     GPU, each rank's work on its GPU, the frontiers (CC: the merge's pairs) exchanged through \
                     NCCL. bench and suite measure the first GPU alone, then the first 2, 4, 8, ... GPUs of \
                     the list, then the whole list, from one load of the graph. Needs warpath built with the \
                     nccl feature and libnccl at run time."
    )]
    pub gpus: Option<String>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "R",
        requires_all = ["world_size", "nccl_id"],
        help = "This process's rank, for one process per GPU (with --world-size and --nccl-id)",
        long_help = "This process's rank, for one process per GPU (with --world-size and --nccl-id), on one host or \
                     many. Given a plain .wgr file, each process reads only what its part needs: the offsets, its \
                     own vertices' lists and the hubs', and of a directed graph every list in two passes, keeping \
                     the edges into its vertices (--layout 2d: the lists of its processor column's vertex blocks, \
                     and of a directed graph the in-degrees; rank 0 reads the whole file where it \
                     verifies or writes the result); the ranks check the file's checksum together; any other graph every process \
                     loads whole and cuts its own part of. Convert a graph once (warpath convert) to start a job \
                     from it. The ranks watch each other through a small file each beside the id file \
                     (FILE.rankR): a rank that fails, or whose file stops changing for 30 s (its process killed \
                     or hung; WARPATH_PEER_SILENCE=S sets the seconds), stops the others with exit code 2."
    )]
    pub rank: Option<usize>,
    #[arg(long, hide_short_help = true, value_name = "N", requires_all = ["rank", "nccl_id"], help = "Processes in the job")]
    pub world_size: Option<usize>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "FILE",
        requires_all = ["rank", "world_size"],
        help = "File through which rank 0 hands NCCL's unique id to the others",
        long_help = "File through which rank 0 hands NCCL's unique id to the other ranks (on a file system \
                     they all see); rank 0 writes it, the others wait for it. Remove it before the next job."
    )]
    pub nccl_id: Option<PathBuf>,
    #[arg(
        long,
        value_name = "LAYOUT",
        default_value = "1d",
        value_parser = parse_layout,
        help = "How the ranks cut the graph: 1d (vertex ranges), 2d (a grid of ranks) or a grid RxC",
        long_help = "How the ranks of --partitions, --gpus or --rank cut the graph. 1d (the default): vertex \
                     ranges, the direction-optimizing BFS. 2d: the adjacency matrix over the most square grid of \
                     the N ranks (4 is 2x2, 6 is 2x3, a prime p is 1xp), or over the grid RxC given (R x C = N): \
                     each level sends the frontier along the grid's columns and discoveries to their owners \
                     along its rows (Buluc and Madduri; docs/multi-gpu.md), so a rank trades with R + C - 2 \
                     others instead of N - 1. 2D runs the BFS only, top-down only, on CPU or GPU ranks as 1D \
                     does, its lists plain or, with --compressed, delta-varint. bench and suite measure each count's grid \
                     against the 1x1 grid (the same top-down code on one rank); a grid RxC measures its own \
                     count."
    )]
    pub layout: PartitionLayout,
}

/// How the partitioned BFS's ranks trade their frontiers (1D, GPU ranks): only `bfs` and
/// `bench` take these; `-h` leaves them to `--help`.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "The partitioned BFS's exchanges")]
pub struct BfsExchangeArgs {
    #[arg(
        long,
        hide_short_help = true,
        value_name = "N",
        help = "Delegate the lists of vertices of out-degree N or more (0: none; default: a rule)",
        long_help = "Vertex delegates for the 1D partitioned BFS on GPUs: the out-list of every vertex of \
                     out-degree N or more (a hub) is also cut by its targets' owners, and a top-down level \
                     whose frontier holds a hub expands it on every rank from its own piece instead of on the \
                     hub's owner alone, so none of its edges becomes a pair for another rank (docs/multi-gpu.md); \
                     the pieces are plain lists, beside --compressed parts too. 0 turns them off. Default: the smallest power of two at which at most one vertex in 1,024 \
                     is a hub (and a hub has 32 edges a rank or more)."
    )]
    pub hub_degree: Option<u64>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "N",
        help = "Fixed-size pair exchange for top-down levels of at most N frontier edges (0: none)",
        long_help = "For the 1D partitioned BFS on GPUs: a top-down level whose frontier has at most N \
                     out-edges over all ranks sends each owner a fixed number of (vertex, parent) slots, as \
                     many as it could need, the unused ones marked empty, so that no rank first waits on the \
                     host for the level's counts (docs/multi-gpu.md). Larger levels, and level 0, send their \
                     counts first, then exactly their pairs. 0: every level counts first. Default: 4096."
    )]
    pub padded_pairs: Option<u64>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "N",
        help = "Bottom-up frontiers of at most one vertex in N traded as vertex ids (0: always the bitmap)",
        long_help = "For the 1D partitioned BFS on GPUs: a bottom-up level whose frontier holds at most one \
                     vertex in N over all ranks trades it as each rank's queue of vertex ids, which every rank \
                     sets in its global bitmap, instead of all-gathering the frontier bitmap (4 bytes a frontier \
                     vertex against a bit a vertex of the graph; docs/multi-gpu.md). 0 (the default): the \
                     bitmap always. Where links are slow (ranks on several hosts), 128 trades at most a \
                     quarter of the bitmap's bytes."
    )]
    pub sparse_frontier_share: Option<u64>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=64),
        help = "Bottom-up levels in N launches, each one's frontier bits traded during the next (1: one)",
        long_help = "For the 1D partitioned BFS on GPUs of equal vertex ranges: a bottom-up level searches the \
                     rank's vertices in N stretches, one launch each, and all-gathers each stretch's words of \
                     the next frontier bitmap while the next stretch is searched (the last stretch's at the next \
                     level, when that is bottom-up too), so the bitmap's exchange overlaps the search instead of \
                     following it (docs/multi-gpu.md). 1 (the default): one launch, the whole bitmap gathered at \
                     the next level's start. On NVLink the launches' ends cost more than the overlap saves; \
                     where links are slow (ranks on several hosts) the overlap is worth more."
    )]
    pub bottom_up_chunks: Option<u32>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "N",
        help = "Multiprocessors a chunked bottom-up launch leaves to the exchange beside it",
        long_help = "For --bottom-up-chunks above 1: each stretch's launch runs on all of the GPU's \
                     multiprocessors but N, so that the all-gather queued beside it finds room to start \
                     instead of waiting for the search to end. 0: the ordinary grid, several blocks a \
                     multiprocessor in turn, whose ends make room for the exchange. Default: 8."
    )]
    pub chunk_spare_sms: Option<u32>,
}

/// `--layout`: `1d`, `2d` or a grid `RxC`.
fn parse_layout(text: &str) -> std::result::Result<PartitionLayout, String> {
    text.parse().map_err(|err: Error| err.to_string())
}

impl BfsExchangeArgs {
    /// Which hubs `--hub-degree` delegates.
    pub fn delegation(&self) -> Delegation {
        match self.hub_degree {
            None => Delegation::Auto,
            Some(0) => Delegation::Off,
            Some(degree) => Delegation::Degree(degree),
        }
    }
}

impl MultiArgs {
    pub fn requested(&self) -> bool {
        // A 2D layout alone is refused by `Ranks::of` rather than ignored.
        self.partitions.is_some() || self.gpus.is_some() || self.rank.is_some() || self.layout != PartitionLayout::OneD
    }
}
