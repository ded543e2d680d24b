//! One entry point for "the graph the user named": a generator spec or a file.

use std::path::Path;

use crate::error::{Error, Result};
use crate::formats::{self, ReadOptions};
use crate::generate::{self, GeneratorSpec};
use crate::graph::Graph;

/// How to load a graph.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions {
    /// Treat a file's edges as undirected. Generated graphs are always undirected.
    pub undirected: bool,
    /// Seed for generated graphs; ignored for files.
    pub seed: u64,
}

/// Loads `input`: a generator spec such as `kron:20` when it looks like one, otherwise the
/// path of a graph file.
pub fn load_graph(input: &str, opts: &LoadOptions) -> Result<Graph> {
    if generate::looks_like_spec(input) {
        let spec: GeneratorSpec = input.parse()?;
        return generate::generate(&spec, opts.seed);
    }
    let path = Path::new(input);
    if !path.exists() {
        return Err(Error::InvalidArgument(format!(
            "{input}: no such file. Give a graph file (.mtx, .txt, .el, .gr or .wgr, optionally .gz) \
             or a generator spec such as kron:20 (generators: kron, rmat, urand, grid2d, grid3d)"
        )));
    }
    formats::read_graph(path, &ReadOptions { undirected: opts.undirected })
}
