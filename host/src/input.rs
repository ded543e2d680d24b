//! One entry point for "the graph the user named": a generator spec or a file.

use std::path::Path;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::formats::{self, Format, LoadStages, ReadOptions};
use crate::generate::{self, GeneratorSpec, WeightSpec};
use crate::graph::{Graph, GraphBuilder, MemoryProvider, WeightValues};

/// How to load a graph.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions {
    /// Treat a file's edges as undirected. Generated graphs are always undirected.
    pub undirected: bool,
    /// Seed for generated graphs and generated weights.
    pub seed: u64,
    /// Give every edge a seeded weight (replacing a file's own weights).
    pub weights: Option<WeightSpec>,
    /// Load a file unweighted even if it has weights (see [`ReadOptions::ignore_weights`]).
    /// Generated weights (`weights`) are attached all the same.
    pub ignore_weights: bool,
    /// The memory limit of the guard, overriding `WARPATH_MEMORY_LIMIT` and the detected
    /// memory (see [`crate::memory`]).
    pub memory_limit: Option<u64>,
    /// Read a SNAP edge list whose header's edge count disagrees with its lines
    /// (see [`ReadOptions::allow_count_mismatch`]).
    pub allow_count_mismatch: bool,
    /// Describe a file's weights rather than refuse those that are no edge weight (see
    /// [`ReadOptions::describe_weights`]): for telling what a file holds.
    pub describe_weights: bool,
    /// The file's format, overriding the one its name tells (see [`ReadOptions::format`]);
    /// needed for standard input.
    pub format: Option<Format>,
    /// Where the graph's offsets and targets are built or read: `None` for ordinary memory, or
    /// a provider such as `gpu::PinnedMemory::shared()`, whose pinned, device-mapped memory the
    /// GPU places without a host copy (see [`crate::graph::HostMemory`]).
    pub host_memory: MemoryProvider,
}

/// The input that names standard input: a graph read from it needs [`LoadOptions::format`].
pub const STDIN: &str = "-";
/// What errors call standard input.
const STDIN_NAME: &str = "standard input";

/// Loads `input`: a generator spec such as `kron:20` when it looks like one (and no format is
/// given), [`STDIN`] for standard input, otherwise the path of a graph file; then attaches
/// `opts.weights` if given.
pub fn load_graph(input: &str, opts: &LoadOptions) -> Result<Graph> {
    load_graph_staged(input, opts).map(|(graph, _)| graph)
}

/// [`load_graph`], also telling how long its stages took: reading the file or generating the
/// edges, then building the CSR (attaching generated weights counts as building).
pub fn load_graph_staged(input: &str, opts: &LoadOptions) -> Result<(Graph, LoadStages)> {
    load_graph_described(input, opts).map(|(graph, stages, _)| (graph, stages))
}

/// [`load_graph_staged`], and with [`LoadOptions::describe_weights`] what a file's weights were
/// where some are no edge weight (the graph then has none).
pub fn load_graph_described(input: &str, opts: &LoadOptions) -> Result<(Graph, LoadStages, Option<WeightValues>)> {
    let (graph, mut stages, values) = load_as_stored(input, opts)?;
    match &opts.weights {
        Some(spec) => {
            let started = Instant::now();
            let graph = generate::attach_weights(graph, spec, opts.seed)?;
            stages.build += started.elapsed();
            Ok((graph, stages, values))
        }
        None => Ok((graph, stages, values)),
    }
}

fn load_as_stored(input: &str, opts: &LoadOptions) -> Result<(Graph, LoadStages, Option<WeightValues>)> {
    // A format given names a file's: the input is then a file whatever it looks like.
    if opts.format.is_none() && generate::looks_like_spec(input) {
        let spec: GeneratorSpec = input.parse()?;
        // Grid side lengths are validated to be at least 1, so the edge counts cannot underflow.
        let size = spec.size(opts.weights.is_some());
        crate::memory::check(input, size, size.build_bytes(), opts.memory_limit)?;
        let started = Instant::now();
        let list = generate::generate_edges(&spec, opts.seed)?;
        let read = started.elapsed();
        let graph = GraphBuilder::new().host_memory(opts.host_memory).build(list)?;
        return Ok((graph, LoadStages { read, build: started.elapsed() - read }, None));
    }
    // A file's own weights would be replaced: not reading them saves the work and memory.
    let ignore_weights = opts.ignore_weights || opts.weights.is_some();
    let read = ReadOptions {
        undirected: opts.undirected,
        ignore_weights,
        memory_limit: opts.memory_limit,
        allow_count_mismatch: opts.allow_count_mismatch,
        describe_weights: opts.describe_weights,
        format: opts.format,
        host_memory: opts.host_memory,
    };
    if input == STDIN {
        return formats::read_stream_described(std::io::stdin(), Path::new(STDIN_NAME), &read);
    }
    let path = Path::new(input);
    if !path.exists() {
        let problem = "no such file. Give a graph file (.mtx, .txt, .el, .wel, .gr or .wgr, optionally .gz) \
                       or a generator spec such as kron:20 (generators: kron, rmat, urand, grid2d, grid3d)";
        return Err(Error::io(path, std::io::Error::new(std::io::ErrorKind::NotFound, problem)));
    }
    formats::read_graph_described(path, &read)
}
