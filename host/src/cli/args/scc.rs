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
        value_name = "WHEN",
        default_value = "auto",
        help = "The GPU's forward-backward search from a pivot: auto, bfs or off",
        long_help = "Whether the GPU searches forward and backward from a pivot (the BFS kernel, twice) before \
                     coloring: auto on skewed graphs (web, social, Kronecker: the giant component at once) and \
                     not on roads and meshes, bfs always, off never (coloring alone). The CPU always searches."
    )]
    pub pivot_search: warpath::scc::PivotSearch,
}
