//! `warpath scc`'s flags.

use clap::Args;

use super::GraphArgs;

/// `warpath scc GRAPH`: strongly connected components.
#[derive(Args, Debug)]
pub struct SccArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[arg(
        long,
        help = "Check the labels against Tarjan's algorithm; exit 1 if they are wrong",
        long_help = "Check the labels against Tarjan's algorithm (sequential) and exit 1 if they are wrong: \
                     every vertex in the same component as Tarjan's, each component named by its smallest vertex."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex component` per line to FILE",
        long_help = "Write `vertex component` per line to FILE (gzip-compressed when it ends in .gz), each \
                     component named by its smallest vertex, both numbered as in the input file."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = "Print one JSON object on stdout instead of the text")]
    pub json: bool,
    #[arg(
        long,
        value_name = "HOW",
        default_value = "bfs",
        help = "The GPU's forward-backward search from a pivot: bfs or off",
        long_help = "Whether the GPU searches forward and backward from a pivot before coloring: bfs (the \
                     default: the BFS kernel, twice, which finds the giant component of a web, social or \
                     Kronecker graph at once) or off (coloring alone from the start, as ECL-SCC does). The CPU \
                     always searches."
    )]
    pub pivot_search: warpath::scc::PivotSearch,
}
