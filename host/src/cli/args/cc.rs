//! `cc`'s flags and Afforest's tuning (also taken by `bench --algorithm cc`).

use clap::{Args, ValueEnum};

use warpath::cc::{CcAlgorithm, CcInit, CcOptions, LocalLink, RoundOrder, VertexBatch};
use warpath::{Error, Result};

use super::{one_of, GraphArgs};

#[derive(Args, Debug)]
pub struct CcArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[arg(
        long,
        help = "Check the labels; exit 1 if they are wrong",
        long_help = "Check the labels and exit 1 if they are wrong: every edge joins two vertices of one \
                     label, each label is the smallest vertex of its component, and there are as many \
                     components as a sequential union-find finds."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex component` per line to FILE",
        long_help = "Write `vertex component` per line to FILE (gzip-compressed when it ends in .gz), each \
                     component named by its smallest vertex, both numbered as in the input file: the same \
                     file on every backend and every run."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = "Print one JSON object on stdout instead of the text")]
    pub json: bool,
    #[command(flatten)]
    pub tuning: CcTuning,
    #[command(flatten)]
    pub multi: super::multi::MultiArgs,
}

/// How connected components are computed: what `cc` and `bench --algorithm cc` share.
#[derive(Args, Debug, Clone, Default)]
pub struct CcTuning {
    #[arg(
        long,
        value_enum,
        value_name = "ALGORITHM",
        help_heading = "Connected components",
        help = "afforest (default) or shiloach-vishkin",
        long_help = "afforest (Sutton et al., IPDPS 2018: neighbor rounds, sampling, a final link of the \
                     vertices outside the largest component; the default) or shiloach-vishkin (hooking over \
                     every edge until nothing changes, for comparison)."
    )]
    pub cc_algorithm: Option<CcAlgorithmArg>,
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_rounds,
        help_heading = "Connected components",
        help = format!("Afforest's neighbor rounds, 0 to {MAX_ROUNDS} (default 2)"),
        long_help = format!(
            "Afforest's neighbor rounds, 0 to {MAX_ROUNDS}: round r links every vertex to its r-th neighbor \
             (default 2). Each round is a pass over every vertex and a phase of the trace and --json."
        )
    )]
    pub rounds: Option<u32>,
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_samples,
        help_heading = "Connected components",
        help = format!("Vertices Afforest samples, 0 to {} (default 1024; 0: off)", warpath::cc::MAX_SAMPLES),
        long_help = format!(
            "Vertices Afforest samples to find the largest intermediate component, whose vertices the final \
             phase skips: 0 to {} (default 1024; the most the GPU counts in one block's shared memory); 0 \
             turns sampling off, and the final phase visits every vertex.",
            warpath::cc::MAX_SAMPLES
        )
    )]
    pub samples: Option<u32>,
    #[arg(
        long,
        value_name = "SEED",
        help_heading = "Connected components",
        hide_short_help = true,
        help = "Seed of Afforest's sampling",
        long_help = "Seed of Afforest's sampling (the same seed samples the same vertices)."
    )]
    pub sample_seed: Option<u64>,
    #[arg(
        long,
        value_enum,
        value_name = "INIT",
        help_heading = "Connected components",
        hide_short_help = true,
        help = "How the GPU's Afforest starts its labels: vertex or smaller-neighbor",
        long_help = "How the GPU's Afforest starts its labels: vertex (every vertex its own root, round 0 links \
                     it to its first neighbor) or smaller-neighbor (ECL-CC's: a vertex takes its first \
                     neighbor as its label where that is smaller, without a walk or a swap, in place of \
                     round 0). The CPU starts from vertex."
    )]
    pub cc_init: Option<CcInitArg>,
    #[arg(
        long,
        value_name = "on|off",
        value_parser = clap::builder::BoolishValueParser::new(),
        hide_possible_values = true,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU Afforest: point every label at its root after each round but the last",
        long_help = "GPU Afforest: point every label at its root after each neighbor round but the last, as the \
                     GAP suite's Afforest does (on or off); without it the walks compress the paths they take."
    )]
    pub round_compression: Option<bool>,
    #[arg(
        long,
        value_name = "on|off",
        value_parser = clap::builder::BoolishValueParser::new(),
        hide_possible_values = true,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU Afforest: sample after the first round and hook every tree meeting the giant under it",
        long_help = "GPU Afforest: sample after the first neighbor round, then hook every tree that meets the \
                     sampled giant component under the giant's root whatever their order, so that no thread \
                     waits on a swap of that root (on or off); labels stay the smallest vertex of each \
                     component."
    )]
    pub giant_hooks: Option<bool>,
    #[arg(
        long,
        value_name = "auto|off|N|cluster",
        value_parser = parse_local_link,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU: join each block's range of ids in shared memory first (auto: where ids follow the geometry)",
        long_help = "GPU block-local linking: each block joins the edges inside an aligned range of N vertex ids \
                     in its shared memory (N a power of two from 256 to 2048), then one pass joins the edges \
                     between ranges, and every component is named by its smallest vertex, in place of \
                     Afforest's rounds and sampling. cluster: one Hopper thread-block cluster (compute \
                     capability 9.0) links the whole graph in its 16 blocks' shared memories, which reach each \
                     other, in one launch (plain lists, at most 863,232 vertices). auto (the default) runs \
                     ranges of 256 where the lists are plain and in device memory and at least 75% of the edges \
                     lie inside ranges of 1024 ids (road networks, meshes); off never."
    )]
    pub local_link: Option<LocalLink>,
    #[arg(
        long,
        value_name = "auto|1|4",
        value_parser = parse_vertex_batch,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU: vertices a thread takes at once in Afforest's rounds (auto: 1 on dense graphs)",
        long_help = "GPU, plain lists: vertices a thread of the kernel takes at once in Afforest's neighbor rounds. \
                     4 keeps four chains of dependent reads in flight a thread, which pays on meshes; 1 pays on \
                     graphs of many edges a vertex, whose list walks keep loads in flight and whose batches meet \
                     on hot roots. auto (the default): 1 where the lists average at least 8 edges a vertex, 4 \
                     below."
    )]
    pub vertex_batch: Option<VertexBatch>,
    #[arg(
        long,
        value_name = "auto|ids|scattered",
        value_parser = parse_round_order,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU: the order Afforest's rounds visit the vertices in (auto: scattered on meshes and roads)",
        long_help = "GPU: the order in which Afforest's neighbor rounds visit the vertices. ids: by id, 32 a warp. \
                     scattered: in tiles of 256 ids, a block's, tile t at step t * 2654435761 modulo the tiles, so \
                     that where ids follow a mesh's rows the rows in flight do not all swap and walk on the same \
                     few megabytes of labels. auto (the default): scattered where at least a quarter of the edges \
                     lie inside ranges of 1024 ids, by id elsewhere."
    )]
    pub round_order: Option<RoundOrder>,
}

/// `--round-order`: `auto`, `ids` or `scattered`.
fn parse_round_order(text: &str) -> std::result::Result<RoundOrder, String> {
    one_of(text, &[RoundOrder::Auto, RoundOrder::Ids, RoundOrder::Scattered], RoundOrder::name)
}

/// `--vertex-batch`: `auto`, `1` or `4`.
fn parse_vertex_batch(text: &str) -> std::result::Result<VertexBatch, String> {
    one_of(text, &[VertexBatch::Auto, VertexBatch::One, VertexBatch::Four], VertexBatch::name)
}

/// `--local-link`: `auto`, `off`, or a range of ids the kernel can take.
fn parse_local_link(text: &str) -> std::result::Result<LocalLink, String> {
    match text.trim() {
        "auto" => Ok(LocalLink::Auto),
        "off" => Ok(LocalLink::Off),
        "cluster" => Ok(LocalLink::Cluster),
        other => match other.parse::<u32>() {
            Ok(range) if warpath::cc::valid_local_range(range) => Ok(LocalLink::Range(range)),
            _ => Err(format!(
                "`{text}` is not auto, off, cluster or a range of ids: give a power of two from {} to {}",
                warpath::cc::LOCAL_RANGE_MIN,
                warpath::cc::LOCAL_RANGE_MAX
            )),
        },
    }
}

/// The most neighbor rounds `--rounds` takes. A round costs a pass over every vertex and
/// records a phase (a line of the trace, an object of --json), while after a few rounds most
/// vertices have no further neighbor to link: Afforest and the GAP suite use 2, and an
/// unbounded count turned a typo into minutes of no-op passes and megabytes of JSON.
const MAX_ROUNDS: u32 = 64;

/// `--rounds`: 0 to [`MAX_ROUNDS`].
fn parse_rounds(text: &str) -> std::result::Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(rounds) if rounds <= MAX_ROUNDS => Ok(rounds),
        _ => Err(format!("`{text}` is not a round count: give 0 to {MAX_ROUNDS} (Afforest uses 2)")),
    }
}

/// `--samples`: 0 to the GPU's [`MAX_SAMPLES`](warpath::cc::MAX_SAMPLES), on every
/// backend: the CPU draws them one at a time, so billions took minutes, and a count the GPU
/// refuses would make the result depend on the backend.
fn parse_samples(text: &str) -> std::result::Result<u32, String> {
    let max = warpath::cc::MAX_SAMPLES;
    match text.trim().parse::<u32>() {
        Ok(samples) if samples <= max => Ok(samples),
        _ => Err(format!("`{text}` is not a sample count: give 0 (sampling off) to {max}")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CcAlgorithmArg {
    Afforest,
    ShiloachVishkin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CcInitArg {
    Vertex,
    SmallerNeighbor,
}

impl CcTuning {
    /// The Afforest options given, by flag.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--cc-algorithm", self.cc_algorithm.is_some()),
            ("--rounds", self.rounds.is_some()),
            ("--samples", self.samples.is_some()),
            ("--sample-seed", self.sample_seed.is_some()),
            ("--cc-init", self.cc_init.is_some()),
            ("--round-compression", self.round_compression.is_some()),
            ("--giant-hooks", self.giant_hooks.is_some()),
            ("--local-link", self.local_link.is_some()),
            ("--vertex-batch", self.vertex_batch.is_some()),
            ("--round-order", self.round_order.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }

    /// The options asked for; Afforest's parameters given with Shiloach-Vishkin are refused.
    pub fn options(&self) -> Result<CcOptions> {
        let defaults = CcOptions::default();
        let algorithm = match self.cc_algorithm {
            None | Some(CcAlgorithmArg::Afforest) => CcAlgorithm::Afforest,
            Some(CcAlgorithmArg::ShiloachVishkin) => CcAlgorithm::ShiloachVishkin,
        };
        if algorithm == CcAlgorithm::ShiloachVishkin {
            if let Some(flag) = self.given().into_iter().find(|&flag| flag != "--cc-algorithm") {
                return Err(Error::InvalidArgument(format!(
                    "{flag} tunes Afforest, and --cc-algorithm shiloach-vishkin does not read it: drop {flag}"
                )));
            }
        }
        Ok(CcOptions {
            algorithm,
            neighbor_rounds: self.rounds.unwrap_or(defaults.neighbor_rounds),
            samples: self.samples.unwrap_or(defaults.samples),
            seed: self.sample_seed.unwrap_or(defaults.seed),
            init: match self.cc_init {
                None => defaults.init,
                Some(CcInitArg::Vertex) => CcInit::Vertex,
                Some(CcInitArg::SmallerNeighbor) => CcInit::SmallerNeighbor,
            },
            round_compression: self.round_compression.unwrap_or(defaults.round_compression),
            giant_hooks: self.giant_hooks.unwrap_or(defaults.giant_hooks),
            local_link: self.local_link.unwrap_or(defaults.local_link),
            vertex_batch: self.vertex_batch.unwrap_or(defaults.vertex_batch),
            round_order: self.round_order.unwrap_or(defaults.round_order),
        })
    }
}
