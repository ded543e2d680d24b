//! Reading graph files, and writing warpath's binary `.wgr` format and text edge lists.
//!
//! One file per format. The format is chosen by the file's extension, and any of them may be
//! gzip-compressed (`.gz` after the extension), since the public datasets are shipped that way.
//!
//! | extension | format | vertex ids | direction | weights |
//! |---|---|---|---|---|
//! | `.mtx` | Matrix Market coordinate | 1-based | `symmetric` → undirected, `general` → directed | `integer` → `u32`, `real` → `f32`, `pattern` none |
//! | `.txt`, `.el` | SNAP edge list | 0-based | directed | none |
//! | `.wel` | GAPBS weighted edge list (`u v w`) | 0-based | directed | `u32` |
//! | `.gr` | DIMACS shortest path | 1-based | directed | `u32` |
//! | `.wgr` | warpath binary CSR, plain or delta-varint compressed | as stored | as stored | as stored (plain only) |
//!
//! [`ReadOptions::undirected`] makes any of them undirected; [`ReadOptions::ignore_weights`]
//! reads any of them unweighted. Weights must be non-negative and finite: a file holding
//! another weight is refused with the line and the value, unless weights are ignored, or
//! described ([`ReadOptions::describe_weights`]: the graph is then read without them).

mod chunked;
pub mod dimacs;
pub mod matrix_market;
pub mod snap;
mod text;
mod text_out;
mod values;
pub mod wgr;

/// How a refused weight's error ends: [`Error::is_refused_weight`] knows these errors by it.
pub use text_out::write_edge_list;

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::graph::{EdgeList, Graph, GraphBuilder, MemoryProvider, WeightValues};
use crate::memory::GraphSize;
use crate::output::is_gzipped;

/// The graph file formats warpath reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Matrix Market `coordinate` (`.mtx`).
    MatrixMarket,
    /// SNAP-style whitespace-separated edge list (`.txt`, `.el`).
    EdgeList,
    /// GAPBS weighted edge list (`.wel`): `u v w` per line.
    WeightedEdgeList,
    /// DIMACS shortest-path `.gr`.
    Dimacs,
    /// warpath's binary CSR (`.wgr`).
    Wgr,
}

const SUPPORTED: &str = ".mtx (Matrix Market), .txt or .el (SNAP edge list), .wel (weighted edge list), \
                         .gr (DIMACS), .wgr (warpath binary), each optionally followed by .gz";

impl Format {
    /// Every format, by the short names that [`Format::name`] gives.
    pub const ALL: [Format; 5] =
        [Format::EdgeList, Format::WeightedEdgeList, Format::MatrixMarket, Format::Dimacs, Format::Wgr];
    /// The short names, for messages.
    pub const NAMES: &'static str = "el, wel, mtx, gr or wgr";

    /// The format's short name, its usual extension: `el`, `wel`, `mtx`, `gr`, `wgr`.
    pub fn name(self) -> &'static str {
        match self {
            Format::EdgeList => "el",
            Format::WeightedEdgeList => "wel",
            Format::MatrixMarket => "mtx",
            Format::Dimacs => "gr",
            Format::Wgr => "wgr",
        }
    }

    /// The format named by `path`'s extension, looking past a trailing `.gz`.
    pub fn from_path(path: &Path) -> Result<Format> {
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let extension = name.rsplit_once('.').map(|(_, ext)| ext);
        match extension {
            Some("mtx") => Ok(Format::MatrixMarket),
            Some("txt" | "el") => Ok(Format::EdgeList),
            Some("wel") => Ok(Format::WeightedEdgeList),
            Some("gr") => Ok(Format::Dimacs),
            Some("wgr") => Ok(Format::Wgr),
            _ => Err(Error::InvalidArgument(format!(
                "{}: cannot tell the graph format from the file name; supported extensions are {SUPPORTED}. \
                 Rename the file to match its format.",
                path.display()
            ))),
        }
    }
}

/// Options that apply to every format.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// Treat every edge as undirected (store both directions), whatever the file says.
    pub undirected: bool,
    /// Read the graph unweighted even if the file has weights (values are then only checked
    /// to be well formed, whatever their sign). Saves their memory where they are not needed,
    /// as in BFS, and reads matrices with negative entries as graphs.
    pub ignore_weights: bool,
    /// The memory the guard compares a graph's needs with, overriding the environment and
    /// the detected memory (see [`crate::memory`]).
    pub memory_limit: Option<u64>,
    /// Read a SNAP edge list whose `# Nodes: .. Edges: ..` header disagrees with its edge
    /// lines as it is, instead of refusing it as truncated.
    pub allow_count_mismatch: bool,
    /// The file's format, overriding the one its name tells; its gzip compression is then
    /// told by its first bytes (1f 8b), whatever its name. Needed to read a stream
    /// ([`read_stream`]), which has no name.
    pub format: Option<Format>,
    /// Describe a weight column rather than refuse it: a value that is no edge weight
    /// (negative, not finite, beyond the weight type) is noted instead of refused, and the
    /// graph is then read without weights, [`read_graph_described`] saying what they were.
    /// For telling what a file holds (a matrix of signed values), never for running on it.
    pub describe_weights: bool,
    /// Where the graph's offsets and targets are allocated: `None` for ordinary memory, or a
    /// provider such as the GPU runtime's pinned memory (`gpu::PinnedMemory`), which the GPU
    /// then reads without a host copy. A `.wgr` file is read straight into it.
    pub host_memory: MemoryProvider,
}

impl ReadOptions {
    /// Directed, weighted as the file is, the detected memory, counts checked: what
    /// `ReadOptions::default()` gives, usable in constants.
    pub const DEFAULT: ReadOptions = ReadOptions {
        undirected: false,
        ignore_weights: false,
        memory_limit: None,
        allow_count_mismatch: false,
        describe_weights: false,
        format: None,
        host_memory: None,
    };
}

/// gzip's first two bytes.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The buffer a gzip decoder reads its compressed bytes through.
const GZIP_BUFFER: usize = 1 << 20;

/// A graph file's bytes, opened for its reader.
enum Opened {
    /// A regular file, not compressed: its length is known, and `.wgr` arrays are read by all
    /// cores at their offsets.
    File(File),
    /// Bytes read once, in order: inflated gzip, a pipe, standard input.
    Stream(Box<dyn Read + Send>),
}

impl Opened {
    /// The bytes in order, for the text readers. They read in large blocks (see [`chunked`]):
    /// a file's reads go straight into them, without a buffer between.
    fn into_read(self) -> Box<dyn Read + Send> {
        match self {
            Opened::File(file) => Box::new(file),
            Opened::Stream(stream) => stream,
        }
    }
}

/// Opens `path`. Its compression is told by its name (a `.gz` must start with gzip's bytes) or,
/// `by_content` (a format named rather than told by the name), by its first two bytes. What is
/// not a regular file (a pipe, `/dev/fd/3`) is read once, in order: it is neither measured nor
/// sought in.
fn open(path: &Path, by_content: bool) -> Result<Opened> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let regular = file.metadata().map_err(|e| Error::io(path, e))?.is_file();
    if !by_content && is_gzipped(path) {
        let (start, input) = peek_start(Box::new(file), path)?;
        check_gzip_magic(&start, path)?;
        return Ok(Opened::Stream(inflate(input)));
    }
    if !regular {
        return sniff(Box::new(file), path).map(Opened::Stream);
    }
    if by_content {
        // A regular file is read again from its start, rather than through the peeked bytes.
        let mut start = [0; 2];
        let read = file.read(&mut start).and_then(|read| std::io::Seek::rewind(&mut file).map(|_| read));
        if start[..read.map_err(|e| Error::io(path, e))?] == GZIP_MAGIC {
            return Ok(Opened::Stream(inflate(Box::new(file))));
        }
    }
    Ok(Opened::File(file))
}

/// `input`, inflated as it is read. MultiGz: `cat a.gz b.gz` and bgzip files are several gzip
/// members back to back.
fn inflate(input: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
    Box::new(flate2::bufread::MultiGzDecoder::new(BufReader::with_capacity(GZIP_BUFFER, input)))
}

/// A stream that has no name to tell its compression by, or whose format was named: inflated
/// when it starts with gzip's bytes 1f 8b, as it is otherwise.
fn sniff(input: Box<dyn Read + Send>, path: &Path) -> Result<Box<dyn Read + Send>> {
    let (start, input) = peek_start(input, path)?;
    Ok(if start == GZIP_MAGIC { inflate(input) } else { input })
}

/// The first two bytes of `input` (fewer where it ends before), and `input` from its start: a
/// pipe may hand them over one at a time, and cannot be sought back.
fn peek_start(mut input: Box<dyn Read + Send>, path: &Path) -> Result<(Vec<u8>, Box<dyn Read + Send>)> {
    let mut start = vec![0; GZIP_MAGIC.len()];
    let mut filled = 0;
    while filled < start.len() {
        match input.read(&mut start[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    start.truncate(filled);
    let again = std::io::Cursor::new(start.clone()).chain(input);
    Ok((start, Box::new(again)))
}

/// Refuses a `.gz` file that is empty or does not start with gzip's magic bytes, in words
/// (the decoder would say "invalid gzip header", or read an empty file as an empty graph).
fn check_gzip_magic(start: &[u8], path: &Path) -> Result<()> {
    let problem = if start.is_empty() {
        "is empty, but its name ends in .gz: a gzip file holds at least a header; the file was not written whole"
    } else if !start.starts_with(&GZIP_MAGIC) {
        "is not gzip-compressed (it does not start with gzip's bytes 1f 8b), but its name ends in .gz; \
         decompress it with gzip or rename it without .gz"
    } else {
        return Ok(());
    };
    Err(Error::Format { path: path.to_path_buf(), problem: problem.into() })
}

/// The format `opts` names, else the one `path`'s name tells.
fn format_of(path: &Path, opts: &ReadOptions) -> Result<Format> {
    opts.format.map_or_else(|| Format::from_path(path), Ok)
}

/// Reads the edges of a graph file, uncleaned (self-loops and repeats are left for the
/// builder), except that a text file's repeated edges may be collapsed to their lightest (and
/// the list reordered) where the list is heavily repeated or would outgrow the memory, which
/// builds the same graph. A `.wgr` file gives back its stored edges.
pub fn read_edge_list(path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    let format = format_of(path, opts)?;
    Ok(read_edge_list_described(open(path, opts.format.is_some())?, path, format, opts)?.0)
}

/// [`read_edge_list`] of `opened` bytes, and with [`ReadOptions::describe_weights`] what the
/// weights were where some are no edge weight (the list then has none).
fn read_edge_list_described(
    opened: Opened,
    path: &Path,
    format: Format,
    opts: &ReadOptions,
) -> Result<(EdgeList, Option<WeightValues>)> {
    match format {
        Format::MatrixMarket => matrix_market::read_described(opened.into_read(), path, opts),
        Format::EdgeList => Ok((snap::read(opened.into_read(), path, opts)?, None)),
        Format::WeightedEdgeList => snap::read_weighted_described(opened.into_read(), path, opts),
        Format::Dimacs => dimacs::read_described(opened.into_read(), path, opts),
        Format::Wgr => {
            // A .wgr file holds only valid weights: there is nothing to describe.
            let graph = read_wgr(opened, path, opts)?;
            Ok((edges_of(&graph, opts.undirected || graph.is_undirected()), None))
        }
    }
}

/// How long the stages of loading a graph took: reading the file (or generating the edges)
/// and building the CSR from the edges (nothing for a `.wgr` file read as stored).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoadStages {
    pub read: Duration,
    pub build: Duration,
}

/// Reads a graph file of any supported format into a CSR graph.
pub fn read_graph(path: &Path, opts: &ReadOptions) -> Result<Graph> {
    read_graph_staged(path, opts).map(|(graph, _)| graph)
}

/// [`read_graph`], also telling how long reading and building took.
pub fn read_graph_staged(path: &Path, opts: &ReadOptions) -> Result<(Graph, LoadStages)> {
    read_graph_described(path, opts).map(|(graph, stages, _)| (graph, stages))
}

/// [`read_graph_staged`], and with [`ReadOptions::describe_weights`] what the file's weights
/// were where some are no edge weight (the graph then has none).
pub fn read_graph_described(path: &Path, opts: &ReadOptions) -> Result<(Graph, LoadStages, Option<WeightValues>)> {
    let started = Instant::now();
    let format = format_of(path, opts)?;
    read_opened(open(path, opts.format.is_some())?, path, format, opts, started)
}

/// Reads a graph from a stream read once, in order (standard input, a pipe), in the format
/// [`ReadOptions::format`] names: a stream has no file name to tell it by. Gzip is told by the
/// stream's first bytes. `name` names the stream in errors.
pub fn read_stream(input: impl Read + Send + 'static, name: &Path, opts: &ReadOptions) -> Result<Graph> {
    read_stream_described(input, name, opts).map(|(graph, ..)| graph)
}

/// [`read_stream`], as [`read_graph_described`] tells what it did.
pub fn read_stream_described(
    input: impl Read + Send + 'static,
    name: &Path,
    opts: &ReadOptions,
) -> Result<(Graph, LoadStages, Option<WeightValues>)> {
    let started = Instant::now();
    let Some(format) = opts.format else {
        return Err(Error::InvalidArgument(format!(
            "{}: a stream has no file name to tell its graph format by; name the format ({})",
            name.display(),
            Format::NAMES
        )));
    };
    read_opened(Opened::Stream(sniff(Box::new(input), name)?), name, format, opts, started)
}

/// A graph of `format` from `opened` bytes; `started` is when the reading began.
fn read_opened(
    opened: Opened,
    path: &Path,
    format: Format,
    opts: &ReadOptions,
    started: Instant,
) -> Result<(Graph, LoadStages, Option<WeightValues>)> {
    if format == Format::Wgr {
        // A directed file read as undirected is built again: then it is read into ordinary
        // memory, and built into the provider's.
        let host_memory = if opts.undirected { None } else { opts.host_memory };
        let graph = read_wgr(opened, path, &ReadOptions { host_memory, ..*opts })?;
        let read = started.elapsed();
        if opts.undirected && !graph.is_undirected() {
            let size = GraphSize {
                vertices: graph.num_vertices() as u64,
                edges: graph.num_edges(),
                undirected: true,
                weight_bytes: if graph.is_weighted() { 4 } else { 0 },
            };
            crate::memory::check_build(path, size, opts.memory_limit)?;
            let graph = GraphBuilder::new().host_memory(opts.host_memory).build(edges_of(&graph, true))?;
            return Ok((graph, LoadStages { read, build: started.elapsed() - read }, None));
        }
        return Ok((graph.into_host_memory(opts.host_memory), LoadStages { read, build: Duration::ZERO }, None));
    }
    let (list, values) = read_edge_list_described(opened, path, format, opts)?;
    let read = started.elapsed();
    // The readers checked what their headers declared; the vertex count of an edge list is
    // only known now, from its largest id.
    let size = GraphSize {
        vertices: list.num_vertices,
        edges: list.edges.len() as u64,
        undirected: list.undirected || opts.undirected,
        weight_bytes: if list.weights.is_some() { 4 } else { 0 },
    };
    crate::memory::check_build(path, size, opts.memory_limit)?;
    let graph = GraphBuilder::new().symmetrize(opts.undirected).host_memory(opts.host_memory).build(list)?;
    Ok((graph, LoadStages { read, build: started.elapsed() - read }, values))
}

/// Whether `path` holds a `.wgr` graph whose lists are stored compressed, reading its header
/// only: its format and compression told as [`read_graph`] tells them. False for the other
/// formats, and for what is not a regular file (a pipe), which can be read only once.
pub fn stored_compressed(path: &Path, opts: &ReadOptions) -> Result<bool> {
    if format_of(path, opts)? != Format::Wgr || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(false);
    }
    wgr::opened_is_compressed(open(path, opts.format.is_some())?, path)
}

/// Writes `graph` to `path` in the binary `.wgr` format (gzip-compressed if `path` ends in `.gz`).
pub fn write_wgr(graph: &Graph, path: &Path) -> Result<()> {
    wgr::write(graph, path)
}

fn read_wgr(opened: Opened, path: &Path, opts: &ReadOptions) -> Result<Graph> {
    let graph = wgr::read_opened(opened, path, opts.memory_limit, opts.host_memory)?;
    Ok(if opts.ignore_weights { graph.without_weights() } else { graph })
}

/// The stored edges of `graph` with their weights, in CSR order.
fn edges_of(graph: &Graph, undirected: bool) -> EdgeList {
    let edges =
        (0..graph.num_vertices() as u32).flat_map(|u| graph.neighbors(u).iter().map(move |&v| (u, v))).collect();
    EdgeList {
        num_vertices: graph.num_vertices() as u64,
        edges,
        undirected,
        id_base: graph.id_base(),
        weights: graph.weights().cloned(),
    }
}
