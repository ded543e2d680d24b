//! The command line: one subcommand per algorithm (`bfs` today), each flattening the same
//! [`GraphArgs`], plus `bench`, `suite`, `info`, `convert` and `kernels`. `-h` prints one line
//! per flag (`help`), `--help` the long text (`long_help`). Why each default is what it is,
//! with the measurements, is in docs/tuning.md, not here: measurements go stale.

use clap::{Args, Parser, Subcommand, ValueEnum};

use warpath::bfs::gpu::{BottomUpBalance, BottomUpLaunch, PersistentParams};
use warpath::bfs::{GpuKernel, KernelName, SwitchRule};
use warpath::engine::{Backend, EarlyGpu, ListHeadsKept, PlacementOptions};
use warpath::gpu::Placement;

pub mod cc;
pub mod closeness;
pub mod multi;
pub mod scc;
pub mod sssp;

pub use cc::{CcArgs, CcTuning};
pub use closeness::ClosenessArgs;
pub use multi::{BfsExchangeArgs, MultiArgs};
pub use scc::SccArgs;
pub use sssp::{SsspArgs, SsspBenchArgs};

const GRAPH_FORMS: &str = "GRAPH is a file (.mtx, .txt/.el SNAP edge list, .gr DIMACS, .wgr warpath binary; \
the text formats may end in .gz; another name, a pipe or - for standard input with --format) or a generator spec: \
kron:SCALE[:EDGEFACTOR], rmat:SCALE:EDGEFACTOR:A,B,C, urand:SCALE[:EDGEFACTOR], grid2d:W[xH], grid3d:N. Details: \
docs/guide.md.";

#[derive(Parser, Debug)]
#[command(
    name = "warpath",
    version,
    about = "Graph traversal on big sparse graphs, on the GPU when there is one",
    long_about = "Graph traversal on big sparse graphs (breadth-first search and connected components), on an \
                  NVIDIA GPU when \
                  there is one and on all CPU cores when there is not.\n\n\
                  GRAPH is a file (.mtx, .txt/.el SNAP edge list, .gr DIMACS, .wgr warpath binary; the text \
                  formats may end in .gz; another name, a pipe or - for standard input with --format) or a \
                  generator spec: kron:SCALE[:EDGEFACTOR], \
                  rmat:SCALE:EDGEFACTOR:A,B,C, urand:SCALE[:EDGEFACTOR], grid2d:W[xH], grid3d:N.\n\n\
                  The user guide is docs/guide.md; the GPU tuning options and the measurements behind their \
                  defaults are in docs/tuning.md."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run one breadth-first search and report its speed
    Bfs(BfsArgs),
    /// Connected components: count, sizes, time; every vertex's component with --out
    Cc(CcArgs),
    /// Strongly connected components of a directed graph: count, sizes, time
    Scc(SccArgs),
    /// Closeness and harmonic centrality of every vertex, exact (GPU or CPU) or sampled (CPU)
    Closeness(ClosenessArgs),
    /// Shortest paths from one source (delta-stepping), with Graph500's kernel-3 checks
    Sssp(SsspArgs),
    /// Benchmark BFS from many roots (Graph500-style), connected components or shortest paths: times, rates, traces
    Bench(BenchArgs),
    /// Run the standard benchmark suite on GPU and CPU and write a markdown table
    Suite(SuiteArgs),
    /// Print vertex and edge counts, degree statistics and symmetry
    Info(InfoArgs),
    /// Write a graph in warpath's binary format (.wgr)
    Convert(ConvertArgs),
    /// Assemble the kernels with ptxas and print registers, spills and shared memory
    Kernels,
}

/// GRAPH and how to read it: what every command that loads a graph takes.
#[derive(Args, Debug)]
pub struct GraphInput {
    #[arg(help = "A graph file, - (standard input) or a generator spec (kron:20, grid2d:1000, ...)", long_help = GRAPH_FORMS)]
    pub graph: String,
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        help = "The graph file's format, whatever its name: el, wel, mtx, gr or wgr",
        long_help = "The graph file's format, overriding its name's extension: el (SNAP edge list), wel (weighted \
                     edge list), mtx (Matrix Market), gr (DIMACS) or wgr (warpath binary). Gzip is then told by \
                     the file's first bytes, whatever its name. Needed for standard input (GRAPH -); also reads a \
                     pipe or a file of any name (/dev/fd/3, data.txt) once, in order. GRAPH is then a file even \
                     where it looks like a generator spec."
    )]
    pub format: Option<FormatArg>,
    #[arg(
        long,
        help = "Treat an edge list or DIMACS file as undirected",
        long_help = "Treat an edge list or DIMACS file as undirected: every edge is added in both directions. \
                     Matrix Market symmetric files and generated graphs are undirected anyway."
    )]
    pub undirected: bool,
    #[arg(
        long,
        default_value_t = 1,
        help = "Seed for generators and for picking random sources",
        long_help = "Seed for generators and for picking random sources: the same seed gives the same graph \
                     and the same sources."
    )]
    pub seed: u64,
    #[arg(
        long,
        value_parser = parse_bytes,
        value_name = "BYTES",
        help = "Host memory the graph may take (e.g. 16G, 16GB, 1.5GiB)",
        long_help = format!(
            "Host memory the graph's load and build may take: {}. A graph whose estimated needs exceed it is \
             refused before anything is allocated. Default: the environment variable WARPATH_MEMORY_LIMIT, \
             else the memory available (the cgroup's limit or MemAvailable).",
            warpath::memory::BYTE_COUNT_FORMS
        )
    )]
    pub memory_limit: Option<u64>,
    #[arg(
        long,
        hide_short_help = true,
        help = "Read a SNAP edge list whose header's edge count disagrees with its lines",
        long_help = "Read a SNAP edge list whose `# Nodes: .. Edges: ..` header disagrees with the number of \
                     edge lines as it is. Without this flag such a file is refused, since it is most often a \
                     truncated download."
    )]
    pub allow_count_mismatch: bool,
}

/// `--format`: [`Format`](warpath::formats::Format) by its short names (a test checks they
/// are the library's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// SNAP edge list (`u v` lines)
    #[value(alias = "txt")]
    El,
    /// Weighted edge list (`u v w` lines, integer weights)
    Wel,
    /// Matrix Market coordinate
    Mtx,
    /// DIMACS shortest-path arcs
    Gr,
    /// warpath's binary CSR
    Wgr,
}

impl From<FormatArg> for warpath::formats::Format {
    fn from(arg: FormatArg) -> Self {
        use warpath::formats::Format;
        match arg {
            FormatArg::El => Format::EdgeList,
            FormatArg::Wel => Format::WeightedEdgeList,
            FormatArg::Mtx => Format::MatrixMarket,
            FormatArg::Gr => Format::Dimacs,
            FormatArg::Wgr => Format::Wgr,
        }
    }
}

/// Edge weights, for the subcommands that keep them (`info`, `convert`; shortest paths next).
/// BFS reads every file unweighted.
#[derive(Args, Debug, Default)]
pub struct WeightArgs {
    #[arg(
        long,
        value_name = "SPEC",
        value_parser = parse_weight_spec,
        help = "Attach seeded weights: uniform:LO:HI or graph500",
        long_help = "Attach seeded edge weights, replacing any the file has: uniform:LO:HI (u32 weights uniform \
                     in [LO, HI]; plain `uniform` is GAPBS's 1:255) or graph500 (f32 weights uniform in [0, 1), \
                     as Graph500's kernel 3). An undirected edge gets the same weight both ways; --seed picks \
                     the weights."
    )]
    pub weights: Option<warpath::generate::WeightSpec>,
    #[arg(
        long,
        conflicts_with = "weights",
        help = "Read the file's edges without its weights",
        long_help = "Read the file's edges without its weights (DIMACS arc lengths, Matrix Market integer or \
                     real values, .wel weights): values are then only checked to be numbers, of any sign."
    )]
    pub ignore_weights: bool,
}

fn parse_weight_spec(s: &str) -> Result<warpath::generate::WeightSpec, String> {
    s.parse().map_err(|e: warpath::Error| e.to_string())
}

/// The graph options every algorithm's subcommand shares: GRAPH, and where it runs and lives.
#[derive(Args, Debug)]
pub struct GraphArgs {
    #[command(flatten)]
    pub input: GraphInput,
    #[arg(
        long,
        value_enum,
        value_name = "WHERE",
        default_value_t = BackendArg::Auto,
        help = "Where to run",
        long_help = "Where to run: auto (the GPU when one is usable, else all CPU cores, with a warning saying \
                     why), gpu (the GPU or an error) or cpu."
    )]
    pub backend: BackendArg,
    #[arg(
        long,
        value_parser = parse_bytes,
        value_name = "BYTES",
        help = "Device memory warpath may use (e.g. 6G = 6GiB, 6GB, 1.5G)",
        long_help = format!(
            "Device memory warpath may use: {}. Default: the free device memory less 512 MiB. A graph that \
             does not fit beside the algorithm's arrays goes to pinned host memory mapped into the GPU \
             (zero-copy). With --gpus, --rank or --partitions on the GPU, each rank's budget for its part.",
            warpath::memory::BYTE_COUNT_FORMS
        )
    )]
    pub vram_budget: Option<u64>,
    #[arg(
        long,
        value_enum,
        value_name = "WHERE",
        default_value_t = PlacementArg::Auto,
        help = "Where the graph lives for the GPU",
        long_help = "Where the graph lives for the GPU: auto (device memory when it fits the budget, else \
                     zero-copy), device, or zero-copy (pinned host memory mapped into the GPU, read over the \
                     bus; the per-vertex arrays stay in device memory)."
    )]
    pub placement: PlacementArg,
    #[arg(
        long,
        help = "Give the GPU delta-varint compressed neighbor lists",
        long_help = "Give the GPU delta-varint compressed neighbor lists, decoded by the kernels: fewer bytes \
                     in device memory and over the bus. Read by the persistent BFS kernel and the `cc` kernels; \
                     shortest paths refuse them (compressed lists hold no weights). Partitioned GPU ranks read \
                     compressed parts (the BFS's hubs' pieces stay plain lists). The CPU reads \
                     the plain lists."
    )]
    pub compressed: bool,
    #[arg(
        long,
        value_name = "auto|always|never",
        value_parser = parse_list_heads,
        default_value = "auto",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "When each in-list's first two neighbors are kept in device memory",
        long_help = "When each in-list's first two neighbors are kept in device memory, where they fit the \
                     budget: the bottom-up searches and Afforest's neighbor rounds then read them in one load, \
                     without the offsets and the list. auto (the default): beside zero-copy lists, so that most \
                     bottom-up searches never cross the bus, and beside device lists for connected components; \
                     always: whatever the placement and the algorithm; never: for measuring what they save."
    )]
    pub list_heads: ListHeadsKept,
    /// The GPU context `cli::run` starts while the graph loads (not a flag).
    #[arg(skip)]
    pub early_gpu: EarlyGpu,
}

impl GraphArgs {
    pub fn backend(&self) -> Backend {
        self.backend.into()
    }

    /// `--placement`: None for auto.
    pub fn placement(&self) -> Option<Placement> {
        match self.placement {
            PlacementArg::Auto => None,
            PlacementArg::Device => Some(Placement::Device),
            PlacementArg::ZeroCopy => Some(Placement::ZeroCopy),
        }
    }

    /// Where the engine places the graph: `--placement`, `--vram-budget`, `--compressed` and
    /// `--list-heads`, as every subcommand passes them.
    pub fn placement_options(&self) -> PlacementOptions {
        PlacementOptions {
            placement: self.placement(),
            vram_budget: self.vram_budget,
            compressed: self.compressed,
            list_heads: self.list_heads,
            early_gpu: self.early_gpu.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    Auto,
    Gpu,
    Cpu,
}

impl From<BackendArg> for Backend {
    fn from(arg: BackendArg) -> Backend {
        match arg {
            BackendArg::Auto => Backend::Auto,
            BackendArg::Gpu => Backend::Gpu,
            BackendArg::Cpu => Backend::Cpu,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlacementArg {
    Auto,
    Device,
    ZeroCopy,
}

/// `--gpu-kernel`: [`KernelName`] as a clap value (the help texts below), one variant each
/// and the same names and aliases (a test checks both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KernelArg {
    /// Picks one of the others for the graph by its size (the default)
    Auto,
    /// The persistent kernel, switching between top-down and bottom-up levels
    #[value(alias = "persistent")]
    DirectionOptimizing,
    /// The persistent kernel never going bottom-up (Merrill et al.'s expand-contract)
    #[value(alias = "expand-contract")]
    TopDown,
    /// Top-down over edge queues, contraction and expansion fused (Merrill et al. 5.2)
    ContractExpand,
    /// Top-down over edge queues, contraction and expansion apart (Merrill et al. 5.3)
    TwoPhase,
    /// Two-phase on big queues, contract-expand on small ones (Merrill et al. 5.4)
    Hybrid,
    /// One top-down launch per level: the first version, kept as a baseline
    PerLevel,
    /// Every level in one thread-block cluster (Hopper GPUs; graphs of up to 2^23 vertices)
    Cluster,
}

impl From<KernelArg> for KernelName {
    fn from(arg: KernelArg) -> KernelName {
        match arg {
            KernelArg::Auto => KernelName::Auto,
            KernelArg::DirectionOptimizing => KernelName::DirectionOptimizing,
            KernelArg::TopDown => KernelName::TopDown,
            KernelArg::ContractExpand => KernelName::ContractExpand,
            KernelArg::TwoPhase => KernelName::TwoPhase,
            KernelArg::Hybrid => KernelName::Hybrid,
            KernelArg::PerLevel => KernelName::PerLevel,
            KernelArg::Cluster => KernelName::Cluster,
        }
    }
}

impl std::fmt::Display for KernelArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(KernelName::from(*self).name())
    }
}

/// `--strategy`, kept hidden for the scripts that spell top-down strategies this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    ExpandContract,
    ContractExpand,
    TwoPhase,
    Hybrid,
    Auto,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SwitchArg {
    Beamer,
    Xbfs,
    Checks,
}

impl From<SwitchArg> for SwitchRule {
    fn from(arg: SwitchArg) -> SwitchRule {
        match arg {
            SwitchArg::Beamer => SwitchRule::Beamer,
            SwitchArg::Xbfs => SwitchRule::Xbfs,
            SwitchArg::Checks => SwitchRule::Checks,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FrontierGenerationArg {
    Adaptive,
    Fixed,
    DoubleScan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BalanceArg {
    Static,
    Thread,
    Warp,
}

impl From<BalanceArg> for BottomUpBalance {
    fn from(arg: BalanceArg) -> BottomUpBalance {
        match arg {
            BalanceArg::Static => BottomUpBalance::Static,
            BalanceArg::Thread => BottomUpBalance::Thread,
            BalanceArg::Warp => BottomUpBalance::Warp,
        }
    }
}

/// `--bottom-up-launch`'s values ([`BottomUpLaunch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BottomUpLaunchArg {
    Auto,
    Apart,
    Every,
    Inside,
}

impl From<BottomUpLaunchArg> for BottomUpLaunch {
    fn from(arg: BottomUpLaunchArg) -> Self {
        match arg {
            BottomUpLaunchArg::Auto => BottomUpLaunch::Auto,
            BottomUpLaunchArg::Apart => BottomUpLaunch::Apart,
            BottomUpLaunchArg::Every => BottomUpLaunch::Every,
            BottomUpLaunchArg::Inside => BottomUpLaunch::Inside,
        }
    }
}

/// `--bottom-up-chunk`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ChunkArg {
    Auto,
    #[value(name = "1")]
    Words1,
    #[value(name = "2")]
    Words2,
    #[value(name = "4")]
    Words4,
    #[value(name = "8")]
    Words8,
    #[value(name = "16")]
    Words16,
    #[value(name = "32")]
    Words32,
}

impl ChunkArg {
    /// Bitmap words a warp takes at once; 0 lets the kernel choose.
    fn words(self) -> u32 {
        match self {
            ChunkArg::Auto => 0,
            ChunkArg::Words1 => 1,
            ChunkArg::Words2 => 2,
            ChunkArg::Words4 => 4,
            ChunkArg::Words8 => 8,
            ChunkArg::Words16 => 16,
            ChunkArg::Words32 => 32,
        }
    }
}

/// `--source` (`-r`, `--root`), as `bfs` and `sssp` take it.
#[derive(Args, Debug)]
pub struct SourceArg {
    #[arg(
        id = "source",
        long = "source",
        short = 'r',
        visible_alias = "root",
        value_name = "V",
        value_parser = parse_vertex_id,
        allow_negative_numbers = true,
        help = "Source vertex, numbered as in the file",
        long_help = "Source vertex, numbered as in the file (1-based for .mtx and .gr). Default: a seeded \
                     random vertex with edges, as Graph500 picks roots. -r and --root are GAPBS's spellings."
    )]
    pub vertex: Option<u64>,
}

#[derive(Args, Debug)]
pub struct BfsArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[command(flatten)]
    pub source: SourceArg,
    #[arg(
        long,
        value_name = "V,V,..|FILE|random:N",
        conflicts_with = "source",
        help = "Search from many sources at once: each one's distances",
        long_help = "Search from many sources at once, each one's distances to every vertex: a comma-separated \
                     list of vertices (numbered as --source's), a FILE of them (one a line, # comments) or \
                     random:N (N seeded random vertices with edges). 64 sources share each pass over the graph \
                     (bit-parallel), on the GPU or the CPU. --out then writes \
                     `source vertex distance` for every reached pair. Not with --source."
    )]
    pub sources: Option<String>,
    #[arg(
        long,
        help = "Check the result Graph500-style; exit 1 if it is wrong",
        long_help = "Check the BFS tree Graph500-style and exit 1 if it is wrong. With --distances-only, check \
                     the distances by the same rules without the tree (every edge spans at most one level \
                     forward, and every reached vertex but the source has an in-neighbor one level closer)."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex distance parent` per line to FILE",
        long_help = "Write `vertex distance parent` per line (-1 for unreached) to FILE; with --distances-only, \
                     `vertex distance` per line after a `#` header line naming the columns."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = super::json::JSON_HELP, long_help = super::json::JSON_LONG_HELP)]
    pub json: bool,
    #[command(flatten)]
    pub gpu: GpuTuning,
    #[command(flatten)]
    pub multi: MultiArgs,
    #[command(flatten)]
    pub exchange: BfsExchangeArgs,
}

/// Which GPU kernel runs and how it is tuned (ignored on the CPU).
#[derive(Args, Debug, Clone)]
pub struct GpuTuning {
    #[arg(
        long,
        value_enum,
        value_name = "KERNEL",
        default_value_t = KernelArg::Auto,
        help = "GPU traversal",
        long_help = "GPU traversal. auto picks direction-optimizing on big dense graphs and contract-expand on \
                     the rest (the size rule and the measurements behind it: docs/tuning.md); a graph in \
                     mapped host memory or compressed gets the persistent kernel. The tuning options below \
                     apply to the persistent kernel (direction-optimizing, top-down); given with auto, they \
                     are refused when auto picks another kernel for the graph, never silently dropped, and \
                     never change what auto picks."
    )]
    pub gpu_kernel: KernelArg,
    #[arg(
        long,
        help = "Never step bottom-up",
        long_help = "Never step bottom-up: with auto, the top-down strategy auto picks for the graph; with \
                     direction-optimizing, its top-down path (the same as --gpu-kernel top-down)."
    )]
    pub top_down: bool,
    #[arg(long, value_enum, hide = true, conflicts_with = "gpu_kernel")]
    pub strategy: Option<StrategyArg>,
    #[arg(
        long,
        help = "Label distances only, no parents",
        long_help = "Label distances only, no parents: the persistent kernel skips every parent write and the \
                     device holds no parents array (4 bytes a vertex less). --verify then checks the distances \
                     alone. The per-level kernel always writes parents and refuses it; the CPU computes \
                     parents and drops them, so results look the same on both backends."
    )]
    pub distances_only: bool,
    #[arg(
        long = "switch",
        value_enum,
        value_name = "RULE",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "How each level picks its direction (default checks)",
        long_help = "How each level picks its direction: checks (bottom-up exactly while the frontier's edges \
                     are at least alpha x the edges a bottom-up pass is estimated to check; the default), \
                     xbfs (XBFS section 4.3: while they are at least alpha x all edges) or beamer (Beamer et \
                     al.: bottom-up when the frontier grows and its edges x alpha exceed the unvisited edges, \
                     back when it shrinks below n / beta)."
    )]
    pub switch_rule: Option<SwitchArg>,
    #[arg(
        long,
        value_parser = parse_threshold,
        allow_negative_numbers = true,
        value_name = "A",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "The switching rule's alpha (default 0.5 checks, 0.03 xbfs, 15 beamer)",
        long_help = "The switching rule's alpha, a number of 0 or more (inf allowed). Default: 0.5 for checks, \
                     0.03 for xbfs, 15 for beamer."
    )]
    pub alpha: Option<f32>,
    #[arg(
        long,
        value_parser = parse_threshold,
        allow_negative_numbers = true,
        value_name = "B",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "Beamer's beta (default 18)",
        long_help = "Beamer's beta: back to top-down when the frontier x beta is below the vertex count \
                     (default 18, the paper's)."
    )]
    pub beta: Option<f32>,
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "How frontiers are generated (default adaptive)",
        long_help = "How frontiers are generated (XBFS section 4): adaptive (the level before a switch that \
                     XBFS's lambda predicts writes the next frontier the way the next direction reads it), \
                     fixed (top-down always writes a queue, bottom-up a bitmap; conversions by scans), or \
                     double-scan (adaptive, and bottom-up levels run over a queue of the unvisited vertices \
                     that XBFS's double-scan packs; synchronous, static balance, graph in device memory)."
    )]
    pub frontier_generation: Option<FrontierGenerationArg>,
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "How bottom-up levels share out vertices (default static)",
        long_help = "How bottom-up levels share out their vertices (XBFS section 5.1): static (bitmap words in \
                     grid-stride order, one thread per vertex), thread (words fetched from an atomic work \
                     counter, one thread per vertex) or warp (words fetched likewise, each vertex's in-list \
                     searched by a whole warp)."
    )]
    pub bottom_up_balance: Option<BalanceArg>,
    #[arg(
        long,
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "Asynchronous bottom-up (XBFS section 5.2)",
        long_help = "Asynchronous bottom-up (XBFS section 5.2, Algorithm 3): a bottom-up level over a large \
                     frontier also labels two levels deep the vertices whose in-lists reach the next frontier \
                     but not this one, so the next level need not search them."
    )]
    pub async_bottom_up: bool,
    #[arg(
        long,
        value_enum,
        value_name = "WORDS",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "Bitmap words a warp takes at once bottom-up (default auto)",
        long_help = "Bitmap words a warp takes at once in synchronous, statically balanced bottom-up levels: \
                     auto (the most, up to 32, that still gives every warp of the grid a chunk), or 1, 2, 4, \
                     8, 16 or 32 (1 is one word at a time)."
    )]
    pub bottom_up_chunk: Option<ChunkArg>,
    #[arg(
        long,
        value_enum,
        value_name = "WHERE",
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "Where each bottom-up stretch's first level runs (default auto)",
        long_help = "Where the first level of each bottom-up stretch runs: apart (a launch of its own at full \
                     occupancy, between two launches of the persistent kernel, as the partitioned BFS runs \
                     its levels), every (every bottom-up level apart, not only each stretch's first), \
                     inside (in the persistent kernel), or auto (every level apart, a bitmap word a warp \
                     at a time unless --bottom-up-chunk says otherwise, on graphs of 2^25 vertices or \
                     more). Synchronous levels over plain lists only."
    )]
    pub bottom_up_launch: Option<BottomUpLaunchArg>,
    #[arg(
        long,
        help_heading = "GPU tuning",
        hide_short_help = true,
        help = "Never hand small frontiers to a single block",
        long_help = "Never hand small frontiers to a single block (Luo et al.'s hierarchy): every level runs \
                     on the whole grid."
    )]
    pub no_small_path: bool,
}

/// A switching threshold: a number, zero or more (`inf` allowed: never switch back, or always
/// switch).
pub fn parse_threshold(text: &str) -> Result<f32, String> {
    let value: f32 = text.trim().parse().map_err(|_| format!("`{text}` is not a number"))?;
    if value.is_nan() || value < 0.0 {
        return Err(format!("`{text}` is not a threshold: use a number of 0 or more"));
    }
    Ok(value)
}

/// `--source`: a vertex id as the file numbers it. A negative one is taken as a value (not as
/// an unknown option, for which clap would advise `-- -1`) and refused as out of range here,
/// before the graph is loaded.
pub fn parse_vertex_id(text: &str) -> Result<u64, String> {
    let numbering = "numbered as in the file, from 0, or from 1 for .mtx and .gr";
    match text.trim().parse::<i128>() {
        Ok(id) if id < 0 => Err(format!("a vertex id is a non-negative integer ({numbering}), not {id}")),
        Ok(id) => u64::try_from(id).map_err(|_| format!("`{text}` is too large for a vertex id")),
        Err(_) => Err(format!("`{text}` is not a vertex id: give a non-negative integer ({numbering})")),
    }
}

/// `--list-heads`: `auto`, `always` or `never`.
fn parse_list_heads(text: &str) -> Result<ListHeadsKept, String> {
    one_of(text, &[ListHeadsKept::Auto, ListHeadsKept::Always, ListHeadsKept::Never], ListHeadsKept::name)
}

/// The one of `choices` that `name` spells as `text`, or a line listing the spellings.
fn one_of<T: Copy>(text: &str, choices: &[T], name: fn(T) -> &'static str) -> std::result::Result<T, String> {
    choices.iter().copied().find(|&choice| name(choice) == text.trim()).ok_or_else(|| {
        let names: Vec<&str> = choices.iter().map(|&choice| name(choice)).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("`{text}` is not {} or {last}", rest.join(", ")),
            _ => format!("`{text}` is not {}", names.join("")),
        }
    })
}

/// `6G`, `512M`, `4096`: a byte count with an optional binary suffix.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    warpath::memory::parse_bytes(text)
}

/// The most roots `bench` runs: far beyond Graph500's 64, and small enough that the records
/// of every root fit in memory.
pub const MAX_ROOTS: usize = 1 << 16;

/// A root count from 1 to [`MAX_ROOTS`].
pub fn parse_roots(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(roots) if (1..=MAX_ROOTS as u64).contains(&roots) => Ok(roots as usize),
        _ => Err(format!(
            "`{text}` is not a root count: give at least one root and at most {MAX_ROOTS} (Graph500 uses 64)"
        )),
    }
}

impl GpuTuning {
    pub fn options(&self, graph: &GraphArgs) -> warpath::bfs::GpuOptions {
        warpath::bfs::GpuOptions { placement: graph.placement_options(), distances_only: self.distances_only }
    }

    /// The kernel asked for by name: `--gpu-kernel`, or the hidden `--strategy`, with
    /// `--top-down` folded in.
    pub fn requested(&self) -> KernelName {
        let named = match self.strategy {
            None => self.gpu_kernel.into(),
            Some(StrategyArg::ExpandContract) => KernelName::TopDown,
            Some(StrategyArg::ContractExpand) => KernelName::ContractExpand,
            Some(StrategyArg::TwoPhase) => KernelName::TwoPhase,
            Some(StrategyArg::Hybrid) => KernelName::Hybrid,
            Some(StrategyArg::Auto) => KernelName::Auto,
        };
        match named {
            KernelName::DirectionOptimizing if self.top_down => KernelName::TopDown,
            other => other,
        }
    }

    /// Whether the traversal may only step top-down (`--top-down`, `--strategy`, or a top-down
    /// kernel by name).
    fn top_down_only(&self) -> bool {
        let named_top_down = !matches!(self.requested(), KernelName::Auto | KernelName::DirectionOptimizing);
        self.top_down || self.strategy.is_some() || named_top_down
    }

    /// The GPU kernel to run, with the tuning given; an option given for a kernel that does not
    /// read it is refused, in one line naming both.
    pub fn kernel(&self) -> Result<GpuKernel, String> {
        let requested = self.requested();
        let given = self.persistent_options_given();
        if let Some(option) = given.first() {
            if requested != KernelName::Auto && !requested.is_persistent() {
                return Err(format!(
                    "{option} tunes the persistent kernel, which --gpu-kernel {requested} is not: drop {option}, \
                     or use --gpu-kernel direction-optimizing"
                ));
            }
        }
        if let Some(option) = self.bottom_up_options_given().first() {
            if self.top_down_only() {
                return Err(format!(
                    "{option} tunes bottom-up levels, and this traversal is top-down only: drop {option}, or \
                     use --gpu-kernel direction-optimizing"
                ));
            }
        }
        let params = PersistentParams { bottom_up: !self.top_down_only(), ..self.persistent_params() };
        Ok(requested.kernel(params))
    }

    /// With `auto`, refuses the persistent kernel's options when `auto` picked another kernel
    /// for this graph (`resolved`): an option never changes what `auto` picks, and is never
    /// dropped silently either.
    pub fn check_auto_pick(&self, resolved: &GpuKernel) -> Result<(), String> {
        if self.requested() != KernelName::Auto || matches!(resolved, GpuKernel::Persistent(_)) {
            return Ok(());
        }
        match self.persistent_options_given().first() {
            Some(option) => Err(format!(
                "{option} tunes the persistent kernel, but auto picked {} for this graph: add --gpu-kernel \
                 direction-optimizing to run the persistent kernel, or drop {option}",
                KernelName::of(resolved)
            )),
            None => Ok(()),
        }
    }

    /// The persistent kernel's parameters: the defaults, with the options given.
    fn persistent_params(&self) -> PersistentParams {
        let defaults = PersistentParams::default();
        let switch_rule = self.switch_rule.map_or(defaults.switch_rule, SwitchRule::from);
        let generation = self.frontier_generation;
        PersistentParams {
            switch_rule,
            alpha: self.alpha.unwrap_or(switch_rule.default_alpha()),
            beta: self.beta.unwrap_or(defaults.beta),
            adaptive_frontier: generation.map_or(defaults.adaptive_frontier, |g| g != FrontierGenerationArg::Fixed),
            bottom_up: true,
            small_frontiers: !self.no_small_path,
            bottom_up_balance: self.bottom_up_balance.map_or(defaults.bottom_up_balance, BottomUpBalance::from),
            async_bottom_up: self.async_bottom_up,
            double_scan: generation == Some(FrontierGenerationArg::DoubleScan),
            bottom_up_chunk: self.bottom_up_chunk.map_or(defaults.bottom_up_chunk, ChunkArg::words),
            bottom_up_launch: self.bottom_up_launch.map_or(defaults.bottom_up_launch, BottomUpLaunch::from),
        }
    }

    /// The options given that only bottom-up levels of the persistent kernel read.
    fn bottom_up_options_given(&self) -> Vec<&'static str> {
        [
            ("--switch", self.switch_rule.is_some()),
            ("--alpha", self.alpha.is_some()),
            ("--beta", self.beta.is_some()),
            ("--frontier-generation", self.frontier_generation.is_some()),
            ("--bottom-up-balance", self.bottom_up_balance.is_some()),
            ("--async-bottom-up", self.async_bottom_up),
            ("--bottom-up-chunk", self.bottom_up_chunk.is_some()),
            ("--bottom-up-launch", self.bottom_up_launch.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }

    /// The options given that only the persistent kernel reads.
    fn persistent_options_given(&self) -> Vec<&'static str> {
        let mut given = self.bottom_up_options_given();
        if self.no_small_path {
            given.push("--no-small-path");
        }
        given
    }
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub input: GraphInput,
    #[command(flatten)]
    pub weights: WeightArgs,
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        num_args = 0..=1,
        default_missing_value = "auto",
        help = "Also find the diameter (auto, exact or sweep)",
        long_help = "Also find the diameter in hops (the longest shortest path over the pairs that reach each \
                     other) and its ends: exact from every vertex's eccentricity (64 searches a pass, on every \
                     CPU core), or a lower bound by double sweeps (a BFS from a random vertex, then from the \
                     farthest vertex found, while the distance grows; at most 8). auto: exact up to 100,000 \
                     vertices, sweeps above."
    )]
    pub diameter: Option<DiameterArg>,
    #[arg(long, help = super::json::JSON_HELP, long_help = super::json::JSON_LONG_HELP)]
    pub json: bool,
}

/// How `info --diameter` finds it.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiameterArg {
    Auto,
    Exact,
    Sweep,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: GraphInput,
    #[command(flatten)]
    pub weights: WeightArgs,
    #[arg(
        help = "The file to write: .wgr, or a text edge list .el/.txt/.wel",
        long_help = "The file to write: .wgr (warpath's binary CSR, read back fastest), or a text edge list for \
                     other tools: .el or .txt (`u v` per line), .wel (`u v w`, integer weights). Any of them may end \
                     in .gz. A text file of an undirected graph holds each edge once; read it back with --undirected."
    )]
    pub output: std::path::PathBuf,
    #[arg(
        long,
        help = "Store the neighbor lists delta-varint compressed",
        long_help = "Store the neighbor lists delta-varint compressed (a smaller file, format version 2; \
                     decoded on loading)."
    )]
    pub compress: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[arg(
        long,
        value_enum,
        default_value_t = BenchAlgorithm::Bfs,
        help = "The algorithm benchmarked: bfs, cc, sssp, scc or closeness",
        long_help = "The algorithm benchmarked: bfs, cc (connected components), sssp (shortest paths; weights \
                     from the file or --weights, unit weights otherwise), or scc (strongly connected components, \
                     each run checked against Tarjan's algorithm, which is timed once beside them), or \
                     closeness (every vertex's exact closeness and harmonic centrality, on the CPU, each run checked \
                     at 16 vertices against one BFS each; graphs of at most 100,000 vertices)."
    )]
    pub algorithm: BenchAlgorithm,
    #[command(flatten)]
    pub sssp: SsspBenchArgs,
    #[arg(
        long,
        short = 'n',
        visible_alias = "trials",
        default_value_t = 64,
        value_parser = parse_roots,
        help = "Timed traversals from seeded random roots (1 to 65536)",
        long_help = "Timed traversals, from seeded random roots with edges (after one untimed warm-up); every \
                     one is validated. With --algorithm cc, scc or closeness, timed runs over the whole graph (--trials). -n \
                     and --trials are GAPBS's spellings."
    )]
    pub roots: usize,
    #[arg(
        long,
        help = "Print a per-level table for the first root",
        long_help = "Print a per-level table (direction, frontier, edges inspected, bytes, time) for the first \
                     root (--trace-trial: another), and on the GPU the switching decisions and the copy bandwidth \
                     measured in this run. With --algorithm sssp, the root's buckets (or iterations) as the GPU \
                     recorded them (the CPU records none)."
    )]
    pub trace: bool,
    #[arg(
        long,
        value_name = "K",
        value_parser = parse_roots,
        hide_short_help = true,
        help = "Trace the K-th root drawn instead of the first (implies --trace)",
        long_help = "The trial --trace (and --plot) follows: the K-th of the roots drawn, 1 for the first, at most \
                     --roots. It implies --trace. The roots are drawn by --seed, so a run with the same seed and \
                     graph traces the same root again."
    )]
    pub trace_trial: Option<usize>,
    #[arg(
        long,
        hide_short_help = true,
        help = "Also search the roots as one batch (bit-parallel)",
        long_help = "BFS: also search the same roots as one batch, 64 sources sharing each pass over the graph \
                     (bfs --sources's searches), three timed batches after a validated warm-up, beside the single \
                     traversals of the trials (Graph500's 64 roots: --roots 64, the default)."
    )]
    pub batch: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write every figure as JSON (- for stdout, in place of the text)",
        long_help = "Write every figure as one JSON object on one line: the envelope every command's --json \
                     prints, the report under `result` (bench/SCHEMA.md). `-` prints it on stdout in place of the \
                     text."
    )]
    pub json: Option<std::path::PathBuf>,
    #[arg(
        long,
        hide_short_help = true,
        value_name = "FILE.svg",
        help = "Draw the first root's levels to an .svg file",
        long_help = "Draw frontier size and time per level of the first root to an .svg file."
    )]
    pub plot: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub gpu: GpuTuning,
    #[command(flatten)]
    pub cc: CcTuning,
    #[command(flatten)]
    pub multi: MultiArgs,
    #[command(flatten)]
    pub exchange: BfsExchangeArgs,
}

impl BenchArgs {
    /// Whether `--json` goes to standard output, where it takes the text's place.
    pub fn json_on_stdout(&self) -> bool {
        self.json.as_deref().is_some_and(warpath::output::is_stdout)
    }

    /// Whether a root is traced: `--trace`, or `--trace-trial`, which implies it.
    pub fn traced(&self) -> bool {
        self.trace || self.trace_trial.is_some()
    }
}

/// `bench --algorithm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchAlgorithm {
    /// Breadth-first search from many roots
    Bfs,
    /// Connected components of the whole graph
    Cc,
    /// Shortest paths from many roots (Graph500's kernel 3)
    Sssp,
    /// Strongly connected components of the whole graph, beside Tarjan's algorithm
    Scc,
    /// Every vertex's exact closeness and harmonic centrality (on the CPU)
    Closeness,
}

#[derive(Args, Debug)]
pub struct SuiteArgs {
    #[arg(
        long,
        help = "Small graphs of the same families (seconds, for CI)",
        long_help = "Small graphs of the same families (seconds, for CI); datasets only with --datasets."
    )]
    pub quick: bool,
    #[arg(
        long,
        default_value_t = 16,
        value_parser = parse_roots,
        help = "Timed roots per graph and backend (1 to 65536)"
    )]
    pub roots: usize,
    #[arg(long, default_value_t = 1, help = "Seed for the generators and the roots")]
    pub seed: u64,
    #[arg(
        long,
        value_name = "DIR",
        help = "Folder of datasets (.gz files) to add",
        long_help = "Folder of datasets (.gz files) to add. Default: $WARPATH_DATASETS, else ../shared/datasets \
                     when it exists (not in --quick mode)."
    )]
    pub datasets: Option<std::path::PathBuf>,
    #[arg(long, conflicts_with = "datasets", help = "Run no datasets")]
    pub no_datasets: bool,
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAMES",
        help = "Only the graphs whose spec or file name contains one of these (comma-separated)"
    )]
    pub only: Vec<String>,
    #[arg(long, help = "Run the CPU only")]
    pub no_gpu: bool,
    #[arg(long, help = "Run no connected components beside BFS")]
    pub no_cc: bool,
    #[arg(long, help = "Run no 64-root batch, closeness or strongly connected components beside BFS")]
    pub no_many: bool,
    #[arg(
        long,
        help = "Run BFS only, no shortest paths",
        long_help = "Run BFS only. By default every graph also runs shortest paths (delta-stepping; the .gr road \
                     networks with their own arc lengths, the rest with GAPBS's weights 1..255), in a second table."
    )]
    pub no_sssp: bool,
    #[arg(
        long,
        value_name = "LIST",
        default_value = "direction-optimizing",
        help = "GPU traversals to compare, comma-separated, or all",
        long_help = "GPU traversals to compare, comma-separated, by the names of --gpu-kernel (auto aside: the \
                     table has a column per kernel, and auto's pick differs by graph), or all. Each runs the \
                     same roots."
    )]
    pub gpu_kernels: String,
    #[arg(
        long,
        value_name = "DIR",
        default_value = "warpath-suite",
        help = "Folder to write the run's folder of results into",
        long_help = "Folder to write the run's results into: a folder DATE-COMMIT-DEVICE-suite in it holds the \
                     markdown table (suite.md) and the JSON reports (suite.json). Default: warpath-suite in the \
                     current directory (created if need be; git ignores it in the repository), so that a run \
                     never writes over committed results; give --out-dir bench/results to add one to them."
    )]
    pub out_dir: std::path::PathBuf,
    /// The partitioned BFS on every graph too (`--partitions N[,N...]` or `--gpus LIST`).
    #[command(flatten)]
    pub multi: MultiArgs,
}

impl SuiteArgs {
    /// `--gpu-kernels` as kernel names, in order, without repeats ([`KernelName::parse_list`]).
    pub fn kernels(&self) -> Result<Vec<KernelName>, String> {
        KernelName::parse_list(&self.gpu_kernels).map_err(|err| format!("--gpu-kernels: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{parse_bytes, Cli, Command, GpuTuning, KernelArg};
    use warpath::bfs::gpu::{BottomUpBalance, BottomUpLaunch, PersistentParams};
    use warpath::bfs::KernelName;
    use warpath::bfs::{GpuKernel, SwitchRule, TopDownStrategy};
    use warpath::engine::ListHeadsKept;

    /// The GPU tuning of `warpath ARGS...` (a `bfs` or `bench` command line).
    fn tuning(args: &[&str]) -> GpuTuning {
        let cli = Cli::try_parse_from([&["warpath"][..], args].concat()).unwrap();
        match cli.command {
            Command::Bfs(args) => args.gpu,
            Command::Bench(args) => args.gpu,
            _ => panic!("neither bfs nor bench: {args:?}"),
        }
    }

    /// The persistent kernel's parameters of `warpath ARGS...`.
    fn persistent(args: &[&str]) -> PersistentParams {
        match tuning(args).kernel().unwrap() {
            GpuKernel::Persistent(p) | GpuKernel::Auto(p) => p,
            other => panic!("not the persistent kernel but {other:?}: {args:?}"),
        }
    }

    #[test]
    fn bottom_up_balance_reaches_the_persistent_kernel() {
        let balance_of = |extra: &[&str]| persistent(&[&["bench", "kron:10"][..], extra].concat()).bottom_up_balance;
        assert_eq!(balance_of(&[]), BottomUpBalance::Static);
        assert_eq!(balance_of(&["--bottom-up-balance", "static"]), BottomUpBalance::Static);
        assert_eq!(balance_of(&["--bottom-up-balance", "thread"]), BottomUpBalance::Thread);
        assert_eq!(balance_of(&["--bottom-up-balance", "warp"]), BottomUpBalance::Warp);
        let err = Cli::try_parse_from(["warpath", "bfs", "kron:10", "--bottom-up-balance", "Warp"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue);
    }

    #[test]
    fn bottom_up_launch_reaches_the_persistent_kernel() {
        let launch_of = |extra: &[&str]| persistent(&[&["bench", "kron:10"][..], extra].concat()).bottom_up_launch;
        assert_eq!(launch_of(&[]), BottomUpLaunch::Auto);
        assert_eq!(launch_of(&["--bottom-up-launch", "apart"]), BottomUpLaunch::Apart);
        assert_eq!(launch_of(&["--bottom-up-launch", "inside"]), BottomUpLaunch::Inside);
        assert_eq!(launch_of(&["--bottom-up-launch", "every"]), BottomUpLaunch::Every);
        let err = Cli::try_parse_from(["warpath", "bfs", "kron:10", "--bottom-up-launch", "split"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue);
    }

    #[test]
    fn bottom_up_chunk_reaches_the_persistent_kernel_and_bad_widths_are_refused() {
        let chunk_of = |extra: &[&str]| persistent(&[&["bench", "kron:10"][..], extra].concat()).bottom_up_chunk;
        assert_eq!(chunk_of(&[]), 0);
        assert_eq!(chunk_of(&["--bottom-up-chunk", "auto"]), 0);
        assert_eq!(chunk_of(&["--bottom-up-chunk", "1"]), 1);
        assert_eq!(chunk_of(&["--bottom-up-chunk", "32"]), 32);
        for bad in ["3", "64", "0"] {
            let err = Cli::try_parse_from(["warpath", "bfs", "kron:10", "--bottom-up-chunk", bad]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue, "width {bad}");
        }
    }

    #[test]
    fn switching_rule_and_thresholds_reach_the_persistent_kernel_and_bad_ones_are_refused() {
        let params = |extra: &[&str]| persistent(&[&["bfs", "kron:10"][..], extra].concat());
        let default = params(&[]);
        assert_eq!((default.switch_rule, default.alpha, default.adaptive_frontier), (SwitchRule::Checks, 0.5, true));
        let beamer = params(&["--switch", "beamer", "--frontier-generation", "fixed"]);
        assert_eq!((beamer.switch_rule, beamer.alpha, beamer.adaptive_frontier), (SwitchRule::Beamer, 15.0, false));
        let double_scan = params(&["--frontier-generation", "double-scan"]);
        assert!(double_scan.double_scan && double_scan.adaptive_frontier);
        assert!(!default.double_scan && !beamer.double_scan);
        assert_eq!(params(&["--alpha", "0.2"]).alpha, 0.2);
        assert_eq!(params(&["--beta", "inf"]).beta, f32::INFINITY);
        for bad in [["--alpha", "-1"], ["--alpha", "nan"], ["--beta", "much"], ["--switch", "gap"]] {
            let err = Cli::try_parse_from([&["warpath", "bfs", "kron:10"][..], &bad[..]].concat()).unwrap_err();
            let text = err.to_string();
            assert!(text.contains(bad[1]), "{bad:?}: {text}");
        }
    }

    #[test]
    fn async_bottom_up_reaches_the_persistent_kernel_for_bfs_and_bench() {
        let async_of = |args: &[&str]| persistent(args).async_bottom_up;
        for command in ["bfs", "bench"] {
            assert!(!async_of(&[command, "kron:10"]), "{command}: off by default");
            assert!(async_of(&[command, "kron:10", "--async-bottom-up"]), "{command}");
            assert!(async_of(&[command, "kron:10", "--async-bottom-up", "--bottom-up-balance", "warp"]), "{command}");
            let err = Cli::try_parse_from(["warpath", command, "kron:10", "--async-bottom-up=yes"]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::TooManyValues, "{command}: a switch takes no value");
        }
    }

    #[test]
    fn graph_options_reach_the_library_options_of_bfs_and_bench() {
        use warpath::gpu::Placement;
        for command in ["bfs", "bench"] {
            let options = |extra: &[&str]| {
                let cli = Cli::try_parse_from([&["warpath", command, "kron:10"][..], extra].concat()).unwrap();
                match cli.command {
                    Command::Bfs(args) => args.gpu.options(&args.graph),
                    Command::Bench(args) => args.gpu.options(&args.graph),
                    _ => unreachable!(),
                }
            };
            assert_eq!(options(&[]), warpath::bfs::GpuOptions::default(), "{command}");
            assert!(options(&["--distances-only"]).distances_only, "{command}");
            assert!(options(&["--compressed"]).placement.compressed, "{command}");
            assert_eq!(options(&["--list-heads", "never"]).placement.list_heads, ListHeadsKept::Never, "{command}");
            assert_eq!(options(&["--list-heads", "always"]).placement.list_heads, ListHeadsKept::Always, "{command}");
            assert_eq!(
                options(&["--placement", "zero-copy"]).placement.placement,
                Some(Placement::ZeroCopy),
                "{command}"
            );
            assert_eq!(options(&["--vram-budget", "6G"]).placement.vram_budget, Some(6 << 30), "{command}");
        }
    }

    #[test]
    fn every_kernel_name_selects_its_kernel_and_the_old_spellings_still_do() {
        let persistent_top_down = GpuKernel::Persistent(PersistentParams::top_down());
        for command in ["bfs", "bench"] {
            let kernel = |extra: &[&str]| tuning(&[&[command, "kron:10"][..], extra].concat()).kernel().unwrap();
            let cases: [(&[&str], GpuKernel); 13] = [
                (&[], GpuKernel::Auto(PersistentParams::default())),
                (&["--gpu-kernel", "direction-optimizing"], GpuKernel::Persistent(PersistentParams::default())),
                (&["--gpu-kernel", "persistent"], GpuKernel::Persistent(PersistentParams::default())),
                (&["--gpu-kernel", "top-down"], persistent_top_down),
                (&["--gpu-kernel", "persistent", "--top-down"], persistent_top_down),
                (&["--gpu-kernel", "contract-expand"], GpuKernel::TopDown(TopDownStrategy::ContractExpand)),
                (&["--gpu-kernel", "two-phase"], GpuKernel::TopDown(TopDownStrategy::TwoPhase)),
                (&["--gpu-kernel", "hybrid"], GpuKernel::TopDown(TopDownStrategy::Hybrid)),
                (&["--gpu-kernel", "per-level"], GpuKernel::PerLevel),
                (&["--top-down"], GpuKernel::Auto(PersistentParams::top_down())),
                (&["--strategy", "expand-contract"], persistent_top_down),
                (&["--strategy", "two-phase"], GpuKernel::TopDown(TopDownStrategy::TwoPhase)),
                (&["--strategy", "auto"], GpuKernel::Auto(PersistentParams::top_down())),
            ];
            for (extra, expected) in cases {
                assert_eq!(kernel(extra), expected, "{command} {extra:?}");
            }
            let err = Cli::try_parse_from(["warpath", command, "kron:10", "--strategy", "fused"]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue, "{command}");
            let err = Cli::try_parse_from([
                "warpath",
                command,
                "kron:10",
                "--strategy",
                "hybrid",
                "--gpu-kernel",
                "per-level",
            ])
            .unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict, "{command}");
        }
    }

    #[test]
    fn tuning_options_never_change_what_auto_picks() {
        for option in [
            &["--switch", "beamer"][..],
            &["--alpha", "0.5"],
            &["--beta", "20"],
            &["--frontier-generation", "fixed"],
            &["--bottom-up-balance", "warp"],
            &["--async-bottom-up"],
            &["--bottom-up-chunk", "8"],
            &["--no-small-path"],
        ] {
            let tuning = tuning(&[&["bfs", "kron:10"][..], option].concat());
            let kernel = tuning.kernel().unwrap();
            assert!(matches!(kernel, GpuKernel::Auto(_)), "{option:?} leaves the choice to auto: {kernel:?}");
            // When auto picks the persistent kernel, the option applies to it ...
            let picked = match kernel {
                GpuKernel::Auto(params) => GpuKernel::Persistent(params),
                other => other,
            };
            assert_eq!(tuning.check_auto_pick(&picked), Ok(()), "{option:?}");
            // ... and when it picks an edge-queue strategy, the option is refused by name.
            let err = tuning.check_auto_pick(&GpuKernel::TopDown(TopDownStrategy::ContractExpand)).unwrap_err();
            assert!(err.contains(option[0]) && err.contains("auto picked contract-expand"), "{err}");
            assert!(err.contains("--gpu-kernel direction-optimizing"), "{err}");
        }
        // Without tuning options, whatever auto picks is fine.
        let plain = tuning(&["bfs", "kron:10"]);
        assert_eq!(plain.check_auto_pick(&GpuKernel::TopDown(TopDownStrategy::ContractExpand)), Ok(()));
        // A kernel named explicitly is not auto's pick: nothing to check after preparing.
        let named = tuning(&["bfs", "kron:10", "--gpu-kernel", "persistent", "--alpha", "2"]);
        assert_eq!(named.check_auto_pick(&named.kernel().unwrap()), Ok(()));
    }

    #[test]
    fn tuning_options_for_a_kernel_that_does_not_read_them_are_refused() {
        let refused = |extra: &[&str]| tuning(&[&["bench", "kron:10"][..], extra].concat()).kernel().unwrap_err();
        let err = refused(&["--gpu-kernel", "hybrid", "--alpha", "1"]);
        assert!(err.contains("--alpha") && err.contains("hybrid"), "{err}");
        let err = refused(&["--gpu-kernel", "per-level", "--no-small-path"]);
        assert!(err.contains("--no-small-path") && err.contains("per-level"), "{err}");
        let err = refused(&["--strategy", "two-phase", "--bottom-up-balance", "warp"]);
        assert!(err.contains("--bottom-up-balance"), "{err}");
        for top_down in [&["--top-down"][..], &["--gpu-kernel", "top-down"], &["--strategy", "auto"]] {
            let err = refused(&[top_down, &["--switch", "xbfs"]].concat());
            assert!(err.contains("--switch") && err.contains("top-down only"), "{top_down:?}: {err}");
        }
        // The small-frontier path is the persistent kernel's top-down path too.
        let params = persistent(&["bfs", "kron:10", "--top-down", "--no-small-path"]);
        assert!(!params.small_frontiers && !params.bottom_up);
    }

    #[test]
    fn suite_kernels_are_the_same_names_without_auto() {
        let kernels = |list: &str| {
            let cli = Cli::try_parse_from(["warpath", "suite", "--gpu-kernels", list]).unwrap();
            match cli.command {
                Command::Suite(args) => args.kernels(),
                _ => unreachable!(),
            }
        };
        assert_eq!(kernels("per-level, top-down").unwrap(), [KernelName::PerLevel, KernelName::TopDown]);
        assert_eq!(kernels("persistent,direction-optimizing").unwrap(), [KernelName::DirectionOptimizing]);
        assert_eq!(kernels("all").unwrap(), KernelName::COMPARABLE);
        let err = kernels("bottom-up").unwrap_err();
        assert!(err.starts_with("--gpu-kernels: unknown GPU kernel `bottom-up`"), "{err}");
        assert!(kernels("auto").unwrap_err().contains("not auto"));
    }

    #[test]
    fn kernel_names_round_trip_through_resolved_kernels() {
        use clap::ValueEnum;
        for &name in KernelArg::value_variants() {
            let library = KernelName::from(name);
            assert_eq!(KernelArg::from_str(library.name(), false), Ok(name));
            let kernel = tuning(&["bfs", "kron:10", "--gpu-kernel", library.name()]).kernel().unwrap();
            assert_eq!(KernelName::of(&kernel), library);
        }
    }

    #[test]
    fn the_value_enum_is_the_library_vocabulary() {
        use clap::ValueEnum;
        let arguments: Vec<KernelName> = KernelArg::value_variants().iter().map(|&arg| arg.into()).collect();
        assert_eq!(arguments, KernelName::ALL);
        for &arg in KernelArg::value_variants() {
            let value = arg.to_possible_value().unwrap();
            let library = KernelName::from(arg);
            assert_eq!(value.get_name(), library.name());
            let clap_aliases: Vec<&str> = value.get_name_and_aliases().skip(1).collect();
            assert_eq!(clap_aliases, library.aliases(), "{library}");
        }
    }

    #[test]
    fn byte_counts_in_every_unit_form() {
        let cases: [(&str, u64); 19] = [
            ("4096", 4096),
            ("4096B", 4096),
            ("6G", 6 << 30),
            ("6g", 6 << 30),
            ("6GiB", 6 << 30),
            ("6gib", 6 << 30),
            ("6GB", 6_000_000_000),
            ("6 GB", 6_000_000_000),
            ("1.5G", 3 << 29),
            ("1.5GiB", 3 << 29),
            ("1.5GB", 1_500_000_000),
            ("0.5K", 512),
            (".5M", 1 << 19),
            ("512M", 512 << 20),
            ("512MiB", 512 << 20),
            ("512MB", 512_000_000),
            ("2KB", 2000),
            ("1TB", 1_000_000_000_000),
            ("1.0000000001K", 1024),
        ];
        for (text, bytes) in cases {
            assert_eq!(parse_bytes(text), Ok(bytes), "{text}");
        }
        for bad in ["1.5", "1.2.3G", ".G", "", "G", "6 G B", "-1G", "6Gb/s"] {
            assert!(parse_bytes(bad).is_err(), "{bad} accepted");
        }
        assert!(parse_bytes("1.5").unwrap_err().contains("whole number of bytes"));
        assert!(parse_bytes("6PB").unwrap_err().contains("suffix"));
        assert!(parse_bytes("20000000TB").unwrap_err().contains("too large"));
    }

    #[test]
    fn byte_counts_with_suffixes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("6G"), Ok(6 << 30));
        assert_eq!(parse_bytes("512m"), Ok(512 << 20));
        assert_eq!(parse_bytes("1T"), Ok(1 << 40));
        assert!(parse_bytes("6X").unwrap_err().contains("suffix"));
        assert!(parse_bytes("G").is_err());
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("99999999999T").unwrap_err().contains("too large"));
    }

    #[test]
    fn format_names_are_the_librarys_and_reach_every_graph_command() {
        use clap::ValueEnum;
        let formats: Vec<warpath::formats::Format> =
            super::FormatArg::value_variants().iter().map(|&arg| arg.into()).collect();
        assert_eq!(formats, warpath::formats::Format::ALL);
        for &arg in super::FormatArg::value_variants() {
            let name = arg.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(name, warpath::formats::Format::from(arg).name());
        }
        for command in ["bfs", "cc", "sssp", "bench", "info"] {
            let cli = Cli::try_parse_from(["warpath", command, "-", "--format", "txt"]).unwrap();
            let input = match cli.command {
                Command::Bfs(args) => args.graph.input,
                Command::Cc(args) => args.graph.input,
                Command::Sssp(args) => args.graph.input,
                Command::Bench(args) => args.graph.input,
                Command::Info(args) => args.input,
                _ => unreachable!(),
            };
            assert_eq!((input.graph.as_str(), input.format), ("-", Some(super::FormatArg::El)), "{command}");
        }
        let cli = Cli::try_parse_from(["warpath", "convert", "-", "out.wgr", "--format", "mtx"]).unwrap();
        assert!(matches!(cli.command, Command::Convert(args) if args.input.format == Some(super::FormatArg::Mtx)));
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
