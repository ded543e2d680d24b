//! Command-line interface: argument definitions in [`args`], one module per subcommand.
//! Every error reaches [`run`], which prints one line and picks the exit code: 2 for bad
//! input, 1 for a BFS that failed verification.

mod args;
mod bench;
mod bfs;
mod convert;
mod info;
mod kernels;
mod progress;
mod suite;

use clap::Parser;

use args::{Cli, Command};

pub fn run() -> i32 {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Bfs(a) => bfs::run(a),
        Command::Info(a) => info::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Kernels => kernels::run(),
        Command::Bench(a) => bench::run(a),
        Command::Suite(a) => suite::run(a),
    };
    match outcome {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("warpath: error: {err}");
            match err {
                warpath::Error::Verification(_) => 1,
                _ => 2,
            }
        }
    }
}

/// Loads GRAPH (a file or a generator spec), saying on stderr what it is doing for big inputs.
fn load(input: &args::GraphInput) -> warpath::Result<warpath::Graph> {
    let options = warpath::input::LoadOptions {
        undirected: input.undirected,
        seed: input.seed,
        weights: None,
        ignore_weights: true,
    };
    let spinner = progress::spinner(&format!("loading {}", input.graph));
    let graph = warpath::input::load_graph(&input.graph, &options);
    spinner.finish_and_clear();
    graph
}
