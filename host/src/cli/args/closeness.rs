//! `warpath closeness`'s flags.

use clap::Args;

use super::GraphArgs;

/// `warpath closeness GRAPH`: closeness and harmonic centrality.
#[derive(Args, Debug)]
pub struct ClosenessArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[arg(
        long,
        help = "Closeness without Wasserman and Faust's factor",
        long_help = "Closeness without Wasserman and Faust's factor: (r - 1) / d rather than that times \
                     (r - 1) / (n - 1), where r - 1 vertices reach the vertex at distances summing to d \
                     (NetworkX's wf_improved=False)."
    )]
    pub no_wf_improved: bool,
    #[arg(
        long,
        value_name = "N",
        default_value_t = warpath::bfs::multi_source::EXACT_VERTICES,
        help = "Exact for graphs of at most N vertices, sampled above",
        long_help = "Exact (one search a vertex, 64 a pass) for graphs of at most N vertices; larger graphs are \
                     estimated from --samples sources, with the error bound printed. The exact run's time \
                     grows with vertices times edges."
    )]
    pub exact_up_to: u64,
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1024,
        value_parser = clap::value_parser!(u32).range(1..),
        help = "Sources a sampled estimate searches from",
        long_help = "Sources (seeded random vertices) a sampled estimate searches from (Eppstein and Wang): the \
                     error bound shrinks as one over the square root of K."
    )]
    pub samples: u32,
    #[arg(long, value_name = "K", default_value_t = 10, help = "Print the K most central vertices")]
    pub top: usize,
    #[arg(
        long,
        help = "Check 16 vertices against one BFS each; exit 1 if wrong",
        long_help = "Check 16 seeded random vertices against one sequential BFS each: an exact run's values \
                     equal (the harmonic to rounding), a sampled run's within its printed bounds. Exit 1 if \
                     one is wrong."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex closeness harmonic` per line to FILE",
        long_help = "Write `vertex closeness harmonic` per line to FILE (gzip-compressed when it ends in .gz), \
                     numbered as in the input file."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = "Print one JSON object on stdout instead of the text")]
    pub json: bool,
}
