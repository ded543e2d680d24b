//! `sssp`'s flags (the bench's SSSP flags too) and the options they ask for.

use clap::{Args, ValueEnum};

use warpath::sssp::{DeferredQueueing, Fusion, RoundsApart, SsspOptions, SsspStrategy};
use warpath::{Error, Result};

use super::{GraphArgs, WeightArgs};

#[derive(Args, Debug)]
pub struct SsspArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[command(flatten)]
    pub weights: WeightArgs,
    #[command(flatten)]
    pub source: super::SourceArg,
    #[arg(
        long,
        value_name = "V,V,...",
        value_delimiter = ',',
        num_args = 1..,
        conflicts_with = "source",
        value_parser = super::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Several sources: distances to the nearest",
        long_help = "Several source vertices, comma-separated, numbered as --source's: every vertex gets the \
                     distance to its nearest source, and --out's last column says which source that is (found \
                     from the parents, which are computed even with --distances-only). Not with --source."
    )]
    pub sources: Option<Vec<u64>>,
    #[arg(
        long,
        value_name = "V",
        value_parser = super::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Stop once V is settled; print its distance and path",
        long_help = "Stop once vertex V (numbered as --source's) is settled and print its distance and its path \
                     from the source (no path with --distances-only). Vertices farther than V are reported \
                     unreached; a V no source reaches stops nothing."
    )]
    pub target: Option<u64>,
    #[arg(
        long,
        value_name = "D",
        allow_negative_numbers = true,
        help = "Settle nothing farther than distance D",
        long_help = "Settle nothing farther than distance D: vertices within D get exact distances, the rest are \
                     reported unreached. A non-negative number, whole for integer and unit weights."
    )]
    pub cutoff: Option<f64>,
    #[arg(
        long,
        value_name = "V",
        value_parser = super::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Print the path from the source to V and its length",
        long_help = "Print the shortest path from the (nearest) source to vertex V, numbered as --source's, and \
                     its length; `unreached` when there is none. Needs the parents: not with --distances-only."
    )]
    pub path_to: Option<u64>,
    #[arg(
        long,
        value_name = "D",
        help = "Delta-stepping's bucket width",
        long_help = "Delta-stepping's bucket width (a positive number; integer weights round it up). Default: \
                     from the graph, the average weight times 8 over the average out-degree."
    )]
    pub delta: Option<f64>,
    #[arg(
        long,
        value_enum,
        value_name = "S",
        default_value_t = StrategyArg::Auto,
        help = "How the GPU distributes the work",
        long_help = "How the GPU distributes the work: auto (the default: cluster on a Hopper GPU for roads and \
                     meshes of average degree 2 to 8 and up to 2^23 vertices, near-far elsewhere), near-far or \
                     delta-stepping (buckets on the device, one persistent launch), cluster (near-far in one Hopper \
                     thread-block cluster; compute capability 9.0 or newer), or seed 002's node-based, edge-based, \
                     workload-decomposition, node-splitting and hierarchical. The CPU always runs delta-stepping."
    )]
    pub strategy: StrategyArg,
    #[arg(
        long,
        value_name = "N",
        help = "Node splitting's degree threshold",
        long_help = "Node splitting's degree threshold: vertices of higher degree are split into virtual \
                     vertices. Default: from the degree histogram. Only with --strategy node-splitting."
    )]
    pub split_threshold: Option<u32>,
    #[arg(long, help = "Compute distances only, no parents")]
    pub distances_only: bool,
    #[command(flatten)]
    pub tuning: GpuSsspTuning,
    #[arg(
        long,
        help = "Check the result by Graph500's kernel-3 rules; exit 1 if it is wrong",
        long_help = "Check the result by Graph500's kernel-3 rules and exit 1 if it is wrong: the parents form a \
                     tree rooted at the sources, every tree edge's distances differ by its weight, no edge offers a \
                     shorter path, exactly the vertices the sources reach (within --cutoff or --target) are \
                     reached, and each vertex's nearest source has a shortest path to it."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex distance parent` per line to FILE",
        long_help = "Write `vertex distance parent` per line to FILE (unreached: `inf` and -1), vertices \
                     numbered as in the input; with --distances-only, `vertex distance` after a `#` header line; \
                     with --sources, the nearest source last. Written whole or not at all; .gz compresses."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = "Print the summary as one JSON object instead of text")]
    pub json: bool,
    #[arg(
        long,
        help = "Print the GPU's per-bucket trace",
        long_help = "Print what the GPU's kernels recorded: per bucket for delta-stepping and near-far (index, \
                     vertices settled, light rounds, relaxations, time), per iteration for seed 002's strategies \
                     (worklist length, relaxations, time); with --json, as `trace`. The CPU records none."
    )]
    pub trace: bool,
}

/// What `bench --algorithm sssp` reads beside the shared options (`--distances-only` is the
/// GPU tuning's).
#[derive(Args, Debug)]
pub struct SsspBenchArgs {
    #[command(flatten)]
    pub weights: WeightArgs,
    #[arg(
        long,
        value_name = "D",
        help_heading = "Shortest paths (--algorithm sssp)",
        help = "Delta-stepping's bucket width (default: from the graph)"
    )]
    pub delta: Option<f64>,
    #[arg(
        long,
        value_enum,
        default_value_t = StrategyArg::Auto,
        value_name = "S",
        help_heading = "Shortest paths (--algorithm sssp)",
        help = "How the GPU distributes the work (as `sssp --strategy`)"
    )]
    pub sssp_strategy: StrategyArg,
    #[command(flatten)]
    pub tuning: GpuSsspTuning,
}

/// The heading of [`GpuSsspTuning`]'s flags in `--help`.
const TUNING_HEADING: &str = "GPU shortest-paths tuning";

/// The GPU tuning of delta-stepping and near-far, shared by `sssp` and `bench --algorithm sssp`
/// (each flag defined here once, shown by `--help` under its own heading, hidden from `-h`).
#[derive(Args, Debug)]
pub struct GpuSsspTuning {
    #[arg(
        long,
        help_heading = TUNING_HEADING,
        value_enum,
        default_value_t = FusionArg::Rounds,
        value_name = "F",
        hide_short_help = true,
        help = "GPU bucket fusion: off, rounds or async",
        long_help = "GPU bucket fusion (GraphIt, CGO 2020), where every list is short, as on roads and \
                     meshes: block 0 keeps relaxing what its small light steps put back into the current \
                     bucket. `rounds` (default): rounds with their queue in shared memory; `async`: one \
                     worklist in shared memory that every warp takes from as soon as entries are queued, no \
                     barrier between rounds; `off`: every light round is a step of the bucket loop."
    )]
    pub fusion: FusionArg,
    #[arg(
        long,
        help_heading = TUNING_HEADING,
        value_enum,
        default_value_t = DeltaWidth::Adaptive,
        value_name = "W",
        hide_short_help = true,
        help = "GPU delta-stepping and near-far: buckets adaptive in width (default), or fixed",
        long_help = "GPU delta-stepping and near-far: each bucket's width chosen on the device from the work in flight, \
                     in multiples of --delta (adaptive, the default: ADDS's dynamic delta; near-far widens its buckets \
                     while each relaxes less than half of the one before), or every bucket as wide as --delta (fixed)."
    )]
    pub delta_width: DeltaWidth,
    #[arg(
        long,
        help_heading = TUNING_HEADING,
        value_name = "WHEN",
        default_value = "auto",
        value_parser = parse_deferred_queueing,
        hide_short_help = true,
        help = "GPU near-far: big rounds queue in one pass after relaxing (auto, never or N)",
        long_help = "GPU near-far: which light rounds of the whole grid defer their queueing, relaxing with \
                     atomics no thread waits for and then queueing what they lowered in one pass over every \
                     vertex's mark. `auto` (default): rounds big enough for the graph; `never`; or N: rounds \
                     over at least N vertices."
    )]
    pub defer_queueing: DeferredQueueing,
    #[arg(
        long,
        help_heading = TUNING_HEADING,
        value_name = "WHEN",
        default_value = "auto",
        value_parser = parse_rounds_apart,
        hide_short_help = true,
        help = "GPU near-far: big deferred rounds relax in a launch of their own (auto, never or N)",
        long_help = "GPU near-far: which deferred rounds relax in a launch of their own, at more warps a \
                     multiprocessor than the bucket loop's single launch holds, the loop stopping before each \
                     and carrying on after it. `auto` (default): rounds big enough for the graph; `never`; or N: \
                     deferred rounds over at least N vertices."
    )]
    pub rounds_apart: RoundsApart,
    #[arg(
        long,
        help_heading = TUNING_HEADING,
        value_name = "N",
        default_value = "auto",
        value_parser = parse_tail_growth,
        hide_short_help = true,
        help = "GPU near-far: each tail bucket spans N times the one before (auto or N >= 2)",
        long_help = "GPU near-far with adaptive widths: a bucket that relaxed less than half of what the one \
                     before it did is in the tail, and the next spans N times as many buckets of --delta (up to \
                     1,024 of them, or 16 with 2), folding a Kronecker graph's tail into fewer buckets. `auto` \
                     (default): 8 on graphs of 8 or more edges a vertex, 2 on sparser ones (roads, meshes)."
    )]
    pub tail_growth: TailGrowthArg,
    #[arg(
        long,
        help_heading = TUNING_HEADING,
        value_enum,
        default_value_t = DistanceWordsArg::Auto,
        value_name = "W",
        hide_short_help = true,
        help = "GPU delta-stepping and near-far: 4-byte distance words where they fit (auto), or 8",
        long_help = "GPU delta-stepping and near-far with --distances-only: `auto` (default) keeps each distance \
                     in a 4-byte word where every distance fits one (float weights, or integer weights whose \
                     largest times the vertex count stays below 2^32), so a relaxation's random read and atomic \
                     touch half the bytes; `wide` keeps 8-byte words."
    )]
    pub distance_words: DistanceWordsArg,
}

impl GpuSsspTuning {
    /// `options` with these flags' choices.
    pub fn apply(&self, options: SsspOptions) -> SsspOptions {
        SsspOptions {
            fusion: self.fusion.into(),
            adaptive_delta: self.delta_width == DeltaWidth::Adaptive,
            deferred_queueing: self.defer_queueing,
            rounds_apart: self.rounds_apart,
            tail_growth: self.tail_growth.0,
            narrow_words: self.distance_words == DistanceWordsArg::Auto,
            ..options
        }
    }
}

/// A choice of rounds: `auto`, `never`, or rounds over at least a number of vertices.
fn parse_rounds(value: &str) -> std::result::Result<Option<Option<u32>>, String> {
    match value {
        "auto" => Ok(None),
        "never" => Ok(Some(None)),
        _ => value
            .parse::<u32>()
            .map(|vertices| Some(Some(vertices)))
            .map_err(|_| format!("expected auto, never or a number of vertices, not {value:?}")),
    }
}

/// `--defer-queueing`'s value.
fn parse_deferred_queueing(value: &str) -> std::result::Result<DeferredQueueing, String> {
    Ok(match parse_rounds(value)? {
        None => DeferredQueueing::Auto,
        Some(None) => DeferredQueueing::Never,
        Some(Some(vertices)) => DeferredQueueing::From(vertices),
    })
}

/// `--tail-growth`'s value: `auto` (None) or a growth of at least 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TailGrowthArg(pub Option<u32>);

fn parse_tail_growth(value: &str) -> std::result::Result<TailGrowthArg, String> {
    match value {
        "auto" => Ok(TailGrowthArg(None)),
        _ => match value.parse::<u32>() {
            Ok(growth) if growth >= 2 => Ok(TailGrowthArg(Some(growth))),
            _ => Err(format!("expected auto or a whole number of 2 or more, not {value:?}")),
        },
    }
}

/// `--rounds-apart`'s value.
fn parse_rounds_apart(value: &str) -> std::result::Result<RoundsApart, String> {
    Ok(match parse_rounds(value)? {
        None => RoundsApart::Auto,
        Some(None) => RoundsApart::Never,
        Some(Some(vertices)) => RoundsApart::From(vertices),
    })
}

/// Delta-stepping's bucket width on the GPU: `--delta` for every bucket, or adapted on the
/// device ([`SsspOptions::adaptive_delta`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeltaWidth {
    Fixed,
    Adaptive,
}

/// Distance words on the GPU ([`SsspOptions::narrow_words`]): 4 bytes where they fit, or 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DistanceWordsArg {
    Auto,
    Wide,
}

/// [`Fusion`] as a clap value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FusionArg {
    Off,
    Rounds,
    Async,
}

impl From<FusionArg> for Fusion {
    fn from(arg: FusionArg) -> Fusion {
        match arg {
            FusionArg::Off => Fusion::Off,
            FusionArg::Rounds => Fusion::Rounds,
            FusionArg::Async => Fusion::Async,
        }
    }
}

/// [`SsspStrategy`] as a clap value, by the names the library gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    Auto,
    DeltaStepping,
    NearFar,
    Cluster,
    NodeBased,
    EdgeBased,
    WorkloadDecomposition,
    NodeSplitting,
    Hierarchical,
}

impl From<StrategyArg> for SsspStrategy {
    fn from(arg: StrategyArg) -> SsspStrategy {
        match arg {
            StrategyArg::Auto => SsspStrategy::Auto,
            StrategyArg::DeltaStepping => SsspStrategy::DeltaStepping,
            StrategyArg::NearFar => SsspStrategy::NearFar,
            StrategyArg::Cluster => SsspStrategy::Cluster,
            StrategyArg::NodeBased => SsspStrategy::NodeBased,
            StrategyArg::EdgeBased => SsspStrategy::EdgeBased,
            StrategyArg::WorkloadDecomposition => SsspStrategy::WorkloadDecomposition,
            StrategyArg::NodeSplitting => SsspStrategy::NodeSplitting,
            StrategyArg::Hierarchical => SsspStrategy::Hierarchical,
        }
    }
}

impl SsspArgs {
    /// The options, refused before anything is loaded where they contradict each other.
    pub fn options(&self) -> Result<SsspOptions> {
        let strategy = SsspStrategy::from(self.strategy);
        if self.split_threshold.is_some() && strategy != SsspStrategy::NodeSplitting {
            return Err(Error::InvalidArgument(format!(
                "--split-threshold is node splitting's; --strategy {} does not read it",
                strategy.name()
            )));
        }
        if let Some(delta) = self.delta {
            if !(delta.is_finite() && delta > 0.0) {
                return Err(Error::InvalidArgument(format!("--delta must be a positive number, not {delta}")));
            }
        }
        if let Some(cutoff) = self.cutoff {
            if cutoff.is_nan() || cutoff < 0.0 {
                return Err(Error::InvalidArgument(format!("--cutoff must be a non-negative distance, not {cutoff}")));
            }
        }
        if self.path_to.is_some() && self.distances_only {
            return Err(Error::InvalidArgument(
                "--path-to needs the parents, which --distances-only leaves out: drop one of them".into(),
            ));
        }
        Ok(self.tuning.apply(SsspOptions {
            strategy,
            delta: self.delta,
            split_threshold: self.split_threshold,
            distances_only: self.distances_only,
            // Set once the graph is loaded and the target has an internal id.
            target: None,
            cutoff: self.cutoff,
            ..SsspOptions::default()
        }))
    }
}
