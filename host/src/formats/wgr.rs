//! warpath's own binary graph format (`.wgr`): a built CSR, stored so that loading it is
//! a few large reads instead of parsing and rebuilding; optionally with delta-varint
//! compressed neighbor lists ([`CompressedGraph`]).
//!
//! Layout, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `WARPGRPH` |
//! | 4 | format version: `3` for a weighted graph, `2` otherwise (versions 1 to 3 are read) |
//! | 4 | flags: bit 0 = undirected, bit 1 = compressed (version 2 and later), bit 2 = weighted (version 3); other bits must be 0 |
//! | 4 | id base (0 or 1) |
//! | 4 | reserved, 0: keeps the arrays 8-byte aligned in the file, for a future mmap loader |
//! | 8 | number of vertices `n` |
//! | 8 | number of stored (directed) edges `m` |
//! | | body, plain: |
//! | 8·(n+1) | offsets, `u64` |
//! | 4·m | targets, `u32` |
//! | | weighted (flag bit 2) plain body only, after the targets: |
//! | 4 | weight kind, `u32`: 1 = `u32` weights, 2 = `f32` weights (IEEE 754 single) |
//! | 4·m | weights, parallel to the targets; non-negative and finite |
//! | | body, compressed: |
//! | 8·(n+1) | byte offsets, `u64`: the list of `v` is `bytes[off[v]..off[v+1]]` |
//! | off\[n\] | the varint bytes of every list (`m` to `5m` of them), see [`crate::graph::compressed`] |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Versions: version 1 had only the plain body and flag bit 0. Version 2 added flag bit 1 and
//! the compressed body; a plain version-2 file is byte for byte a version-1 file but for the
//! version number. Version 3 added flag bit 2 and the weights after a plain body (compressed
//! lists carry no weights: flag bits 1 and 2 together are refused). All three are read. An
//! unweighted graph is still written as version 2, exactly as before, so readers that know
//! only versions 1 and 2 keep reading it; only weighted graphs are written as version 3.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crc32fast::Hasher;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{CompressedGraph, Degrees, Graph, HostArray, MemoryProvider, Weights, MAX_VERTICES};
use crate::memory::GraphSize;

use super::Opened;

pub const MAGIC: &[u8; 8] = b"WARPGRPH";
/// The newest version, written for weighted graphs. Versions 1 and 2 are still read, and
/// unweighted graphs are written as [`UNWEIGHTED_VERSION`].
pub const VERSION: u32 = 3;
/// The version written for unweighted graphs, plain or compressed.
pub const UNWEIGHTED_VERSION: u32 = 2;
const HEADER_BYTES: u64 = 40;
const FLAG_UNDIRECTED: u32 = 1;
const FLAG_COMPRESSED: u32 = 2;
const FLAG_WEIGHTED: u32 = 4;
const WEIGHTS_U32: u32 = 1;
const WEIGHTS_F32: u32 = 2;

/// Writes `graph` to `path` as a plain `.wgr`, gzip-compressed if `path` ends in `.gz`;
/// version 3 with its weights if it has them, version 2 otherwise.
pub fn write(graph: &Graph, path: &Path) -> Result<()> {
    write_file(path, |out| write_to(graph, out))
}

/// Writes `graph` to `path` as a compressed `.wgr` (flag bit 1, version 2), gzip-compressed if
/// `path` ends in `.gz`. Compressed graphs have no weights.
pub fn write_compressed(graph: &CompressedGraph, path: &Path) -> Result<()> {
    write_file(path, |out| write_compressed_to(graph, out))
}

/// Written whole or not at all: an interrupted write leaves the old file or none.
fn write_file(path: &Path, body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    crate::output::write_output(path, body)
}

fn header(version: u32, flags: u32, id_base: u32, n: u64, m: u64) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER_BYTES as usize);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&version.to_le_bytes());
    header.extend_from_slice(&flags.to_le_bytes());
    header.extend_from_slice(&id_base.to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    header.extend_from_slice(&n.to_le_bytes());
    header.extend_from_slice(&m.to_le_bytes());
    header
}

/// Bytes of one piece of a checksum summed on its own: large, so that the pieces' combination
/// (a few dozen 32x32 bit-matrix products each) costs nothing beside summing them.
const CHECKSUM_PIECE: usize = 8 << 20;

/// Adds `bytes` to `crc` on every core: pieces of [`CHECKSUM_PIECE`] bytes are summed in
/// parallel and combined in order (`Hasher::combine`), which gives the sum of the bytes in one
/// sequential pass. One core sums a few GB/s, so a page-cache read of a large file waited for it.
fn add_to_checksum(crc: &mut Hasher, bytes: &[u8]) {
    add_in_pieces(crc, bytes, CHECKSUM_PIECE);
}

fn add_in_pieces(crc: &mut Hasher, bytes: &[u8], piece: usize) {
    if bytes.len() <= piece {
        crc.update(bytes);
        return;
    }
    let sums: Vec<Hasher> = bytes
        .par_chunks(piece)
        .map(|piece| {
            let mut sum = Hasher::new();
            sum.update(piece);
            sum
        })
        .collect();
    sums.iter().for_each(|sum| crc.combine(sum));
}

/// Writes `bytes` to `out` and adds them to `crc`.
fn put(out: &mut dyn Write, crc: &mut Hasher, bytes: &[u8]) -> std::io::Result<()> {
    add_to_checksum(crc, bytes);
    out.write_all(bytes)
}

/// Writes `values` little-endian (as they are in memory on a little-endian machine; else each
/// through `to_le`, a chunk at a time) and adds them to `crc`.
fn put_le<T: bytemuck::Pod, const N: usize>(
    out: &mut dyn Write,
    crc: &mut Hasher,
    values: &[T],
    to_le: fn(T) -> [u8; N],
) -> std::io::Result<()> {
    if cfg!(target_endian = "little") {
        put(out, crc, bytemuck::cast_slice(values))
    } else {
        for chunk in values.chunks(1 << 16) {
            let le: Vec<u8> = chunk.iter().flat_map(|&x| to_le(x)).collect();
            put(out, crc, &le)?;
        }
        Ok(())
    }
}

fn write_to(graph: &Graph, out: &mut dyn Write) -> std::io::Result<()> {
    let mut crc = Hasher::new();
    let mut flags = if graph.is_undirected() { FLAG_UNDIRECTED } else { 0 };
    let version = if graph.is_weighted() {
        flags |= FLAG_WEIGHTED;
        VERSION
    } else {
        UNWEIGHTED_VERSION
    };
    put(out, &mut crc, &header(version, flags, graph.id_base(), graph.num_vertices() as u64, graph.num_edges()))?;
    put_le(out, &mut crc, graph.offsets(), u64::to_le_bytes)?;
    put_le(out, &mut crc, graph.targets(), u32::to_le_bytes)?;
    match graph.weights() {
        None => {}
        Some(Weights::U32(w)) => {
            put(out, &mut crc, &WEIGHTS_U32.to_le_bytes())?;
            put_le(out, &mut crc, w, u32::to_le_bytes)?;
        }
        Some(Weights::F32(w)) => {
            put(out, &mut crc, &WEIGHTS_F32.to_le_bytes())?;
            put_le(out, &mut crc, w, f32::to_le_bytes)?;
        }
    }
    let sum = crc.finalize();
    out.write_all(&sum.to_le_bytes())
}

fn write_compressed_to(graph: &CompressedGraph, out: &mut dyn Write) -> std::io::Result<()> {
    let mut crc = Hasher::new();
    let flags = FLAG_COMPRESSED | if graph.is_undirected() { FLAG_UNDIRECTED } else { 0 };
    let (n, m) = (graph.num_vertices() as u64, graph.num_edges());
    put(out, &mut crc, &header(UNWEIGHTED_VERSION, flags, graph.id_base(), n, m))?;
    put_le(out, &mut crc, graph.byte_offsets(), u64::to_le_bytes)?;
    put(out, &mut crc, graph.bytes())?;
    let sum = crc.finalize();
    out.write_all(&sum.to_le_bytes())
}

/// The body of a file: plain targets (with their weights, if any) or compressed lists.
enum Body {
    Targets(HostArray<u32>, Option<Weights>),
    Lists(Vec<u8>),
}

/// What a `.wgr` file holds.
enum Stored {
    Plain(Graph),
    Compressed(CompressedGraph),
}

/// Reads a `.wgr` file (or `.wgr.gz`), checking its header, its length and its checksum.
/// A compressed file is decoded into the plain CSR. Weights are kept.
pub fn read(path: &Path) -> Result<Graph> {
    read_within(path, None)
}

/// [`read`] with an explicit memory limit for the guard (see [`crate::memory`]).
pub fn read_within(path: &Path, memory_limit: Option<u64>) -> Result<Graph> {
    read_into(path, memory_limit, None)
}

/// [`read_within`], the offsets and targets read straight into `memory` (in large reads from a
/// plain file; a `.wgr.gz` is read into ordinary memory first, then copied), which the graph
/// keeps for its transpose.
pub fn read_into(path: &Path, memory_limit: Option<u64>, memory: MemoryProvider) -> Result<Graph> {
    read_opened(super::open(path, false)?, path, memory_limit, memory)
}

/// Reads a `.wgr` file as a [`CompressedGraph`]: a compressed file as stored (every list
/// checked), a plain one encoded after reading (dropping its weights, if any: compressed
/// lists carry none).
pub fn read_compressed(path: &Path) -> Result<CompressedGraph> {
    match read_stored(path, None, None)? {
        Stored::Plain(graph) => Ok(CompressedGraph::encode(&graph)),
        Stored::Compressed(compressed) => Ok(compressed),
    }
}

/// Whether the `.wgr` file at `path` stores compressed lists (reads its header only).
pub fn is_compressed(path: &Path) -> Result<bool> {
    opened_is_compressed(super::open(path, false)?, path)
}

/// [`is_compressed`] of bytes opened as [`super::read_graph`] opens them.
pub(super) fn opened_is_compressed(opened: Opened, path: &Path) -> Result<bool> {
    let header = match opened {
        Opened::File(file) => {
            let length = file.metadata().map_err(|e| Error::io(path, e))?.len();
            read_header(file, path, Some(length))?
        }
        Opened::Stream(stream) => read_header(stream, path, None)?,
    };
    Ok(header.flags & FLAG_COMPRESSED != 0)
}

/// [`read_into`] of bytes opened as [`super::read_graph`] opens them: a stream (standard input,
/// a pipe, inflated gzip) is read in order, its length unknown, as a `.wgr.gz` always was.
pub(super) fn read_opened(
    opened: Opened,
    path: &Path,
    memory_limit: Option<u64>,
    memory: MemoryProvider,
) -> Result<Graph> {
    let graph = match read_stored_opened(opened, path, memory_limit, memory)? {
        Stored::Plain(graph) => graph,
        Stored::Compressed(compressed) => compressed.decode_into(memory),
    };
    Ok(graph.with_host_memory(memory))
}

/// A plain `.wgr` file opened to read the lists of some of its vertices ([`read`](Self::read)),
/// not the whole graph: its header and offsets, read and checked. What a process of a job of
/// one process per GPU reads of a graph it holds one part of (`multi::cut_part_by_rows`).
///
/// Everything read here is checked as [`read`] checks it (the header, the file's length, the
/// offsets; each list read in range, strictly increasing and without self-loops), so what a
/// part holds is a well-formed piece of some graph. The whole file's checksum and an
/// undirected file's symmetry need every list: a reader of the whole file checks them, or the
/// ranks that each read some lists check them together, each its share
/// ([`share_checks`](Self::share_checks)), combined in rank order
/// ([`check_shares`](Self::check_shares)).
pub struct WgrRows {
    file: File,
    path: PathBuf,
    length: u64,
    undirected: bool,
    id_base: u32,
    offsets: Vec<u64>,
}

/// One rank's share of the checks only the whole file answers, when the ranks each read some
/// of its lists ([`WgrRows::share_checks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShareChecks {
    /// The checksum of the rank's share of the file's bytes before the stored checksum (the
    /// bytes cut into as many equal ranges as ranks), and the share's length.
    pub crc: u32,
    pub bytes: u64,
    /// The symmetry balance of the rank's lists under the ranks' common key (see `pair_hash`):
    /// summed over every rank, zero for an undirected graph.
    pub balance: u64,
}

impl ShareChecks {
    /// How many words [`to_words`](Self::to_words) gives.
    pub const WORDS: usize = 3;

    /// As [`WORDS`](Self::WORDS) words, for a collective.
    pub fn to_words(self) -> [u64; Self::WORDS] {
        [self.crc as u64, self.bytes, self.balance]
    }

    /// From [`to_words`](Self::to_words)'s three words.
    pub fn from_words(words: &[u64]) -> ShareChecks {
        ShareChecks { crc: words[0] as u32, bytes: words[1], balance: words[2] }
    }
}

impl WgrRows {
    /// Opens `path`, reading its header and offsets; `None` where its lists cannot be read a
    /// range of vertices at a time: a gzip stream, or compressed lists (whose byte offsets do
    /// not tell the degrees a cut needs). `memory_limit` as for [`read_within`].
    pub fn open(path: &Path, memory_limit: Option<u64>) -> Result<Option<WgrRows>> {
        if crate::output::is_gzipped(path) {
            return Ok(None);
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let length = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let mut input = Source::<File>::file(file.try_clone().map_err(|e| Error::io(path, e))?);
        let Header { flags, id_base, n, m, .. } = read_header(&mut input, path, Some(length))?;
        if flags & FLAG_COMPRESSED != 0 {
            return Ok(None);
        }
        check_length(path, flags, n, m, Some(length))?;
        let size = GraphSize { vertices: n, edges: m, undirected: false, weight_bytes: 0 };
        crate::memory::check(&path.display().to_string(), size, 8 * (n as u128 + 1), memory_limit)?;
        let mut offsets: Vec<u64> = read_vec(&mut input, n + 1, path, "offsets")?;
        if cfg!(target_endian = "big") {
            offsets.iter_mut().for_each(|x| *x = u64::from_le(*x));
        }
        let format_error = |problem: String| Err(Error::Format { path: path.to_path_buf(), problem });
        if offsets[0] != 0 {
            return format_error(format!("its offsets start at {}, not 0; the file is corrupt", offsets[0]));
        }
        if let Some(v) = crate::graph::first_decrease(&offsets) {
            return format_error(format!("its offsets decrease at vertex {v}; the file is corrupt"));
        }
        if offsets[n as usize] != m {
            return format_error(format!(
                "its offsets end at {}, but its header declares {m} edges; the file is corrupt",
                offsets[n as usize]
            ));
        }
        let undirected = flags & FLAG_UNDIRECTED != 0;
        Ok(Some(WgrRows { file, path: path.to_path_buf(), length, undirected, id_base, offsets }))
    }

    /// This rank's share of the whole file's checks: the checksum of the `rank`-th of `world`
    /// equal ranges of the file's bytes before its stored checksum (read here in pieces by all
    /// cores, not kept), and `balance`, the symmetry balance of the rank's lists that
    /// [`read_keyed`](Self::read_keyed) gave.
    pub fn share_checks(&self, (rank, world): (usize, usize), balance: u64) -> Result<ShareChecks> {
        let body = self.length - 4;
        let (from, to) = (body * rank as u64 / world as u64, body * (rank as u64 + 1) / world as u64);
        let pieces: Vec<(u64, u64)> =
            (from..to).step_by(READ_PIECE).map(|at| (at, (at + READ_PIECE as u64).min(to))).collect();
        let sums = pieces
            .par_iter()
            .map(|&(at, end)| {
                let mut bytes = vec![0u8; (end - at) as usize];
                read_exact_at(&self.file, &mut bytes, at).map_err(|e| read_failure(e, &self.path, "checksum share"))?;
                let mut sum = Hasher::new();
                sum.update(&bytes);
                Ok(sum)
            })
            .collect::<Result<Vec<Hasher>>>()?;
        let mut crc = Hasher::new();
        sums.iter().for_each(|sum| crc.combine(sum));
        Ok(ShareChecks { crc: crc.finalize(), bytes: to - from, balance })
    }

    /// The whole file's checks from every rank's share ([`share_checks`](Self::share_checks)),
    /// in rank order: the checksum stored at its end, and for an undirected file every edge both
    /// ways. The error names the file, as [`read`] would.
    pub fn check_shares(&self, shares: &[ShareChecks]) -> Result<()> {
        let format_error = |problem: String| Err(Error::Format { path: self.path.clone(), problem });
        let mut crc = Hasher::new();
        shares.iter().for_each(|share| crc.combine(&Hasher::new_with_initial_len(share.crc, share.bytes)));
        let mut stored = [0u8; 4];
        read_exact_at(&self.file, &mut stored, self.length - 4).map_err(|e| read_failure(e, &self.path, "checksum"))?;
        let (stored, computed) = (u32::from_le_bytes(stored), crc.finalize());
        if shares.iter().map(|share| share.bytes).sum::<u64>() != self.length - 4 || stored != computed {
            return format_error(format!(
                "checksum mismatch (stored {stored:#010x}, computed {computed:#010x} by the ranks together): the \
                 file is corrupt; write it again from the source graph"
            ));
        }
        if self.undirected && shares.iter().fold(0u64, |sum, share| sum.wrapping_add(share.balance)) != 0 {
            return format_error(
                "says the graph is undirected, but its lists do not hold each edge exactly once both ways; \
                 the file is corrupt or was not written by warpath"
                    .into(),
            );
        }
        Ok(())
    }

    /// Vertex `u`'s list in `targets`, the lists of the vertices from `first` on as
    /// [`read`](Self::read) gave them.
    fn list_of<'t>(&self, u: u32, first: u32, targets: &'t [u32]) -> &'t [u32] {
        let start = self.offsets[first as usize];
        &targets[(self.offsets[u as usize] - start) as usize..(self.offsets[u as usize + 1] - start) as usize]
    }

    /// The offsets of every vertex's list, and the one after the last.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    pub fn is_undirected(&self) -> bool {
        self.undirected
    }

    pub fn id_base(&self) -> u32 {
        self.id_base
    }

    /// The graph's vertices, ids and out-degrees.
    pub fn degrees(&self) -> Degrees<'_> {
        Degrees::new(&self.offsets, self.id_base)
    }

    /// The targets of the lists of vertices `first..end`, in order, each checked (in range,
    /// strictly increasing, no self-loop).
    pub fn read(&self, first: u32, end: u32, memory_limit: Option<u64>) -> Result<Vec<u32>> {
        self.read_keyed(first, end, memory_limit, 0).map(|(targets, _)| targets)
    }

    /// [`read`](Self::read), and in the same pass over the lists their symmetry balance under
    /// `key` (see `pair_hash`), this rank's part of [`share_checks`](Self::share_checks). Every
    /// rank passes the same `key`, which whoever wrote the file cannot know (one drawn for the
    /// job).
    pub fn read_keyed(&self, first: u32, end: u32, memory_limit: Option<u64>, key: u64) -> Result<(Vec<u32>, u64)> {
        let n = self.offsets.len() as u64 - 1;
        assert!(first <= end && end as u64 <= n, "rows {first}..{end} of a graph of {n} vertices");
        let (start, stop) = (self.offsets[first as usize], self.offsets[end as usize]);
        let size = GraphSize { vertices: n, edges: stop - start, undirected: false, weight_bytes: 0 };
        crate::memory::check(&self.path.display().to_string(), size, 4 * (stop - start) as u128, memory_limit)?;
        let file = self.file.try_clone().map_err(|e| Error::io(&self.path, e))?;
        let mut input = Source::<File>::file_at(file, HEADER_BYTES + 8 * (n + 1) + 4 * start)
            .map_err(|e| Error::io(&self.path, e))?;
        let mut targets: Vec<u32> = read_vec(&mut input, stop - start, &self.path, "targets")?;
        if cfg!(target_endian = "big") {
            targets.iter_mut().for_each(|x| *x = u32::from_le(*x));
        }
        // Each list checked, and its edges' keyed hashes summed: the first bad list, if any,
        // and the balance.
        let (bad, balance) = (first..end)
            .into_par_iter()
            .with_min_len(1024)
            .map(|u| {
                let list = self.list_of(u, first, &targets);
                match self.is_bad_row(u, list) {
                    true => (Some(u), 0),
                    false => (None, list.iter().fold(0u64, |sum, &v| sum.wrapping_add(pair_hash(key, u, v)))),
                }
            })
            .reduce(|| (None, 0), |(a, x), (b, y)| (a.min(b).or(a).or(b), x.wrapping_add(y)));
        if let Some(v) = bad {
            return Err(self.bad_row(v));
        }
        Ok((targets, balance))
    }

    /// The entries in `first..end` of each of `vertices`' lists, less `first`, in order: a
    /// part's pieces of the hubs' lists (`multi::Hubs`), read without the rest of the file,
    /// each list whole (and checked as [`read`](Self::read) checks), all cores a list each.
    pub fn pieces_of(&self, vertices: &[u32], first: u32, end: u32) -> Result<Vec<Vec<u32>>> {
        let n = self.offsets.len() as u64 - 1;
        vertices
            .par_iter()
            .map(|&u| {
                assert!((u as u64) < n, "vertex {u} of a graph of {n} vertices");
                let list = self.targets_of(u, u + 1)?;
                if self.is_bad_row(u, &list) {
                    return Err(self.bad_row(u));
                }
                Ok(list.into_iter().filter(|&t| t.wrapping_sub(first) < end - first).map(|t| t - first).collect())
            })
            .collect()
    }

    /// A directed graph's in-degrees, as the offsets of its transpose: one pass over every list
    /// ([`for_each_stretch`](Self::for_each_stretch), each list checked as [`read`](Self::read)
    /// checks), for a part cut by its rows, whose ranges weigh in-edges too.
    pub fn in_offsets(&self) -> Result<Vec<u64>> {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        let n = self.offsets.len() - 1;
        let counts: Vec<AtomicU64> = (0..n).into_par_iter().map(|_| AtomicU64::new(0)).collect();
        self.for_each_stretch(|_, _, targets| {
            targets.iter().for_each(|&t| {
                counts[t as usize].fetch_add(1, Relaxed);
            })
        })?;
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        offsets.extend(counts.into_iter().scan(0u64, |at, count| {
            *at += count.into_inner();
            Some(*at)
        }));
        Ok(offsets)
    }

    /// A directed graph's in-lists of vertices `first..end` (each one's sources, ascending, as
    /// the transpose holds them), in order, where `in_offsets` ([`in_offsets`](Self::in_offsets))
    /// places them: one more pass over every list, keeping the edges into `first..end`.
    pub fn in_rows(&self, in_offsets: &[u64], first: u32, end: u32, memory_limit: Option<u64>) -> Result<Vec<u32>> {
        use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
        let n = self.offsets.len() as u64 - 1;
        assert!(first <= end && end as u64 <= n && in_offsets.len() as u64 == n + 1, "in-rows {first}..{end}");
        let stretch = &in_offsets[first as usize..=end as usize];
        let (base, len) = (stretch[0], stretch[stretch.len() - 1] - stretch[0]);
        let size = GraphSize { vertices: n, edges: len, undirected: false, weight_bytes: 0 };
        crate::memory::check(&self.path.display().to_string(), size, 8 * len as u128, memory_limit)?;
        let cursors: Vec<AtomicU64> =
            stretch[..stretch.len() - 1].iter().map(|&at| AtomicU64::new(at - base)).collect();
        let slots: Vec<AtomicU32> = (0..len).into_par_iter().map(|_| AtomicU32::new(0)).collect();
        // A list that names more edges into a vertex than the first pass counted: the file
        // changed between the passes.
        let overflow = AtomicBool::new(false);
        self.for_each_stretch(|from, to, targets| {
            for u in from..to {
                for &t in self.list_of(u, from, targets).iter().filter(|&&t| (first..end).contains(&t)) {
                    let i = (t - first) as usize;
                    let at = cursors[i].fetch_add(1, Relaxed);
                    match at < stretch[i + 1] - base {
                        true => slots[at as usize].store(u, Relaxed),
                        false => overflow.store(true, Relaxed),
                    }
                }
            }
        })?;
        if overflow.into_inner() {
            return Err(Error::Format {
                path: self.path.clone(),
                problem: "changed while it was read: its lists name other edges than a moment before".into(),
            });
        }
        let mut rows: Vec<u32> = slots.into_par_iter().map(AtomicU32::into_inner).collect();
        // Placed in any order by the cores: each list sorted, as a transpose's are.
        crate::graph::pieces_of_whole_lists(stretch, &mut rows, 4096).into_par_iter().for_each(|(vertices, piece)| {
            let start = stretch[vertices.start];
            for v in vertices {
                piece[(stretch[v] - start) as usize..(stretch[v + 1] - start) as usize].sort_unstable();
            }
        });
        Ok(rows)
    }

    /// Every vertex's list, in stretches of consecutive vertices of about `READ_PIECE` bytes of
    /// targets, all cores a stretch at a time: each stretch read, its lists checked as
    /// [`read`](Self::read) checks, then `each(first, end, targets)` with the lists of vertices
    /// `first..end`.
    fn for_each_stretch(&self, each: impl Fn(u32, u32, &[u32]) + Sync) -> Result<()> {
        let n = self.offsets.len() - 1;
        let mut stretches = Vec::new();
        let mut from = 0;
        while from < n {
            let wanted = self.offsets[from] + (READ_PIECE / 4) as u64;
            let to = self.offsets.partition_point(|&at| at < wanted).clamp(from + 1, n);
            stretches.push((from as u32, to as u32));
            from = to;
        }
        stretches.into_par_iter().try_for_each(|(from, to)| {
            let targets = self.targets_of(from, to)?;
            if let Some(v) = (from..to).find(|&u| self.is_bad_row(u, self.list_of(u, from, &targets))) {
                return Err(self.bad_row(v));
            }
            each(from, to, &targets);
            Ok(())
        })
    }

    /// The targets of the lists of vertices `first..end` as stored, in one read by one core
    /// (unchecked: the callers check each list).
    fn targets_of(&self, first: u32, end: u32) -> Result<Vec<u32>> {
        let lists_at = HEADER_BYTES + 8 * self.offsets.len() as u64;
        let (start, stop) = (self.offsets[first as usize], self.offsets[end as usize]);
        let mut targets = vec![0u32; (stop - start) as usize];
        read_exact_at(&self.file, bytemuck::cast_slice_mut(&mut targets), lists_at + 4 * start)
            .map_err(|e| read_failure(e, &self.path, "targets"))?;
        if cfg!(target_endian = "big") {
            targets.iter_mut().for_each(|x| *x = u32::from_le(*x));
        }
        Ok(targets)
    }

    /// Whether vertex `u`'s list names a vertex past the last, is not strictly increasing or
    /// holds a self-loop.
    fn is_bad_row(&self, u: u32, list: &[u32]) -> bool {
        list.last().is_some_and(|&t| t as u64 >= self.offsets.len() as u64 - 1) || is_bad_list(list, u)
    }

    /// The error for vertex `v`'s list, where [`is_bad_row`](Self::is_bad_row) holds.
    fn bad_row(&self, v: u32) -> Error {
        Error::Format {
            path: self.path.clone(),
            problem: format!(
                "the neighbor list of vertex {v} names a vertex past the last ({} vertices), is not strictly \
                 increasing or holds a self-loop; the file was not written by warpath or is corrupt",
                self.offsets.len() - 1
            ),
        }
    }
}

fn read_stored(path: &Path, memory_limit: Option<u64>, memory: MemoryProvider) -> Result<Stored> {
    read_stored_opened(super::open(path, false)?, path, memory_limit, memory)
}

fn read_stored_opened(
    opened: Opened,
    path: &Path,
    memory_limit: Option<u64>,
    memory: MemoryProvider,
) -> Result<Stored> {
    match opened {
        Opened::File(file) => {
            let length = file.metadata().map_err(|e| Error::io(path, e))?.len();
            read_from(Source::<File>::file(file), path, Some(length), memory_limit, memory)
        }
        Opened::Stream(stream) => read_from(Source::Stream(stream), path, None, memory_limit, memory),
    }
}

/// Where a `.wgr` file's bytes come from: a plain file, whose large arrays all cores read at
/// once, each its own pieces at their offsets (one thread copying from the page cache, and
/// faulting in the pages it copies to, holds a read near 1 GB/s), or a stream (gzip) read in
/// order.
enum Source<R> {
    #[cfg(unix)]
    File {
        file: File,
        position: u64,
    },
    Stream(R),
}

/// The bytes each core reads at a time from a file.
const READ_PIECE: usize = 8 << 20;

impl<R: Read> Source<R> {
    fn file(file: File) -> Source<File> {
        #[cfg(unix)]
        return Source::File { file, position: 0 };
        #[cfg(not(unix))]
        return Source::Stream(file);
    }

    /// A file read from byte `position` on.
    fn file_at(file: File, position: u64) -> std::io::Result<Source<File>> {
        #[cfg(unix)]
        return Ok(Source::File { file, position });
        #[cfg(not(unix))]
        {
            let mut file = file;
            std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(position))?;
            Ok(Source::Stream(file))
        }
    }

    /// Whether the bytes come from a file of known length, so that arrays its header
    /// declares (and the length checks confirmed) can be allocated whole.
    fn is_file(&self) -> bool {
        !matches!(self, Source::Stream(_))
    }

    /// Fills `buf` whole: from a file in pieces read by all cores, from a stream in order.
    fn fill(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        match self {
            #[cfg(unix)]
            Source::File { file, position } => {
                use rayon::prelude::*;
                use std::os::unix::fs::FileExt;
                let start = *position;
                buf.par_chunks_mut(READ_PIECE)
                    .enumerate()
                    .try_for_each(|(i, piece)| file.read_exact_at(piece, start + (i * READ_PIECE) as u64))?;
                *position += buf.len() as u64;
                Ok(())
            }
            Source::Stream(input) => input.read_exact(buf),
        }
    }
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            #[cfg(unix)]
            Source::File { file, position } => {
                let read = std::os::unix::fs::FileExt::read_at(file, buf, *position)?;
                *position += read as u64;
                Ok(read)
            }
            Source::Stream(input) => input.read(buf),
        }
    }
}

struct Header {
    bytes: [u8; HEADER_BYTES as usize],
    flags: u32,
    id_base: u32,
    n: u64,
    m: u64,
}

fn read_header(mut input: impl Read, path: &Path, length: Option<u64>) -> Result<Header> {
    let format_error = |problem: String| Error::Format { path: path.to_path_buf(), problem };
    if let Some(length) = length {
        if length < HEADER_BYTES + 4 {
            return Err(format_error(format!(
                "is {length} bytes long, too short for a .wgr graph (its header alone is {HEADER_BYTES} bytes); \
                 the file is truncated or not a .wgr file"
            )));
        }
    }
    let mut header = [0u8; HEADER_BYTES as usize];
    read_exact(&mut input, &mut header, path, "header")?;
    if &header[..8] != MAGIC {
        return Err(format_error(format!(
            "does not start with the .wgr magic bytes `WARPGRPH` (found {:?}); it is not a warpath binary graph. \
             Use the extension that matches its format: .mtx, .txt/.el, .gr",
            String::from_utf8_lossy(&header[..8])
        )));
    }
    let word = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().unwrap());
    let dword = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap());
    let (version, flags, id_base, reserved) = (word(8), word(12), word(16), word(20));
    let (n, m) = (dword(24), dword(32));
    let known_flags = match version {
        1 => FLAG_UNDIRECTED,
        2 => FLAG_UNDIRECTED | FLAG_COMPRESSED,
        3 => FLAG_UNDIRECTED | FLAG_COMPRESSED | FLAG_WEIGHTED,
        _ => {
            return Err(format_error(format!(
                "is .wgr format version {version}, but this warpath reads versions 1 to {VERSION}; \
                 convert the graph again from its source file with this warpath"
            )))
        }
    };
    if flags & !known_flags != 0 || reserved != 0 || id_base > 1 {
        return Err(format_error(format!(
            "has header fields this warpath does not know (version {version}, flags {flags:#x}, id base {id_base}, \
             reserved {reserved:#x}); the file is corrupt or was written by a newer warpath"
        )));
    }
    if flags & FLAG_COMPRESSED != 0 && flags & FLAG_WEIGHTED != 0 {
        return Err(format_error(format!(
            "has flags {flags:#x}: compressed and weighted, but compressed lists carry no weights; \
             the file is corrupt"
        )));
    }
    if n > MAX_VERTICES {
        return Err(format_error(format!(
            "its header declares {n} vertices, but warpath stores vertex ids as u32 and holds at most \
             {MAX_VERTICES}; the file is corrupt or was not written by warpath"
        )));
    }
    Ok(Header { bytes: header, flags, id_base, n, m })
}

/// `length` is the byte count when known (a plain file), so truncation is reported before
/// any large allocation; a gzip stream is checked as it is read instead. A plain body's
/// offsets and targets go into `memory` (compressed lists are decoded into it by the caller).
fn read_from<R: Read>(
    mut input: Source<R>,
    path: &Path,
    length: Option<u64>,
    memory_limit: Option<u64>,
    memory: MemoryProvider,
) -> Result<Stored> {
    let format_error = |problem: String| Error::Format { path: path.to_path_buf(), problem };
    let Header { bytes: header, flags, id_base, n, m } = read_header(&mut input, path, length)?;
    let mut crc = Hasher::new();
    crc.update(&header);
    let compressed = flags & FLAG_COMPRESSED != 0;
    let weighted = flags & FLAG_WEIGHTED != 0;
    let offsets_end = check_length(path, flags, n, m, length)?;

    // The guard: the arrays as stored, and for compressed lists their bytes and the decoded CSR.
    let size = GraphSize { vertices: n, edges: m, undirected: false, weight_bytes: if weighted { 4 } else { 0 } };
    let extra = if compressed { 8 * (n as u128 + 1) + m as u128 } else { 0 };
    crate::memory::check(&path.display().to_string(), size, size.stored_bytes() + extra, memory_limit)?;

    // A compressed graph's byte offsets stay ordinary: its decoded CSR goes into `memory`.
    let memory = if compressed { None } else { memory };
    let mut offsets: HostArray<u64> = read_array(&mut input, n + 1, path, "offsets", memory)?;
    add_to_checksum(&mut crc, bytemuck::cast_slice(offsets.as_slice()));
    if cfg!(target_endian = "big") {
        offsets.iter_mut().for_each(|x| *x = u64::from_le(*x));
    }
    let body = if compressed {
        let stored = *offsets.last().unwrap();
        if let Some(length) = length {
            let present = length - offsets_end.unwrap_or(length);
            if stored != present {
                return Err(format_error(format!(
                    "its byte offsets end at {stored} but the file holds {present} bytes of lists; the file is corrupt"
                )));
            }
        } else if stored < m || stored > m.saturating_mul(5) {
            return Err(format_error(format!(
                "its byte offsets end at {stored}, but {m} edges take {m} to {} bytes; the file is corrupt",
                m.saturating_mul(5)
            )));
        }
        let bytes: Vec<u8> = read_vec(&mut input, stored, path, "compressed lists")?;
        add_to_checksum(&mut crc, &bytes);
        Body::Lists(bytes)
    } else {
        let mut targets: HostArray<u32> = read_array(&mut input, m, path, "targets", memory)?;
        add_to_checksum(&mut crc, bytemuck::cast_slice(targets.as_slice()));
        if cfg!(target_endian = "big") {
            targets.iter_mut().for_each(|x| *x = u32::from_le(*x));
        }
        let weights = if weighted { Some(read_weights(&mut input, &mut crc, m, path)?) } else { None };
        Body::Targets(targets, weights)
    };
    let mut stored = [0u8; 4];
    read_exact(&mut input, &mut stored, path, "checksum")?;
    if length.is_none() {
        let mut extra = [0u8; 1];
        if input.read(&mut extra).map_err(|e| Error::io(path, e))? != 0 {
            return Err(format_error("has unexpected bytes after the checksum; the file is corrupt".into()));
        }
    }
    let stored = u32::from_le_bytes(stored);
    let computed = crc.finalize();
    if stored != computed {
        return Err(format_error(format!(
            "checksum mismatch (stored {stored:#010x}, computed {computed:#010x}): the file is corrupt; \
             write it again from the source graph"
        )));
    }

    let undirected = flags & FLAG_UNDIRECTED != 0;
    match body {
        Body::Targets(targets, weights) => {
            let mut graph =
                Graph::from_csr(offsets, targets, undirected, id_base).map_err(|e| format_error(e.to_string()))?;
            if let Some(weights) = weights {
                graph = graph.with_weights(weights).map_err(|e| format_error(e.to_string()))?;
            }
            check_lists(&graph, path)?;
            Ok(Stored::Plain(graph))
        }
        Body::Lists(bytes) => {
            let graph = CompressedGraph::from_parts(offsets.into_vec(), bytes, m, undirected, id_base)
                .map_err(|e| format_error(e.to_string()))?;
            check_compressed_lists(&graph, path)?;
            Ok(Stored::Compressed(graph))
        }
    }
}

/// Checks a plain or compressed body's length against the header's counts where the length is
/// known (a plain file); gives where the offsets end (the header, the offsets and the checksum),
/// `None` where that overflows.
fn check_length(path: &Path, flags: u32, n: u64, m: u64, length: Option<u64>) -> Result<Option<u64>> {
    let format_error = |problem: String| Error::Format { path: path.to_path_buf(), problem };
    let (compressed, weighted) = (flags & FLAG_COMPRESSED != 0, flags & FLAG_WEIGHTED != 0);
    // Plain: the exact length (weighted: a target, a weight and the kind tag). Compressed:
    // every edge takes 1 to 5 bytes.
    let offsets_end = (n + 1).checked_mul(8).and_then(|o| o.checked_add(HEADER_BYTES + 4));
    let per_edge = |bytes: u64, extra: u64| {
        m.checked_mul(bytes).and_then(|t| offsets_end.and_then(|o| o.checked_add(t)?.checked_add(extra)))
    };
    let (least, most) = if compressed {
        (per_edge(1, 0), per_edge(5, 0))
    } else if weighted {
        (per_edge(8, 4), per_edge(8, 4))
    } else {
        (per_edge(4, 0), per_edge(4, 0))
    };
    let Some(least) = least else {
        return Err(format_error(format!("declares {m} edges, more than any file can hold; the header is corrupt")));
    };
    if let Some(length) = length {
        let what = if compressed { "a compressed graph" } else { "a graph" };
        if length < least {
            return Err(format_error(format!(
                "is truncated: {what} of {n} vertices and {m} edges needs {}{least} bytes, but the file has {length}; \
                 write it again",
                if compressed { "at least " } else { "" }
            )));
        }
        if let Some(most) = most.filter(|&most| length > most) {
            return Err(format_error(format!(
                "has {} unexpected bytes after the end of the graph ({}{most} bytes for {n} vertices and {m} edges); \
                 the file is corrupt",
                length - most,
                if compressed { "at most " } else { "" }
            )));
        }
    }
    Ok(offsets_end)
}

/// The weight kind tag and `m` weights after a weighted plain body, added to `crc`.
fn read_weights<R: Read>(input: &mut Source<R>, crc: &mut Hasher, m: u64, path: &Path) -> Result<Weights> {
    let mut tag = [0u8; 4];
    read_exact(input, &mut tag, path, "weight kind")?;
    crc.update(&tag);
    let kind = u32::from_le_bytes(tag);
    if kind != WEIGHTS_U32 && kind != WEIGHTS_F32 {
        return Err(Error::Format {
            path: path.to_path_buf(),
            problem: format!(
                "has weight kind {kind}, but this warpath knows {WEIGHTS_U32} (u32) and {WEIGHTS_F32} (f32); \
                 the file is corrupt or was written by a newer warpath"
            ),
        });
    }
    let mut bits: Vec<u32> = read_vec(input, m, path, "weights")?;
    add_to_checksum(crc, bytemuck::cast_slice(&bits));
    if cfg!(target_endian = "big") {
        bits.iter_mut().for_each(|x| *x = u32::from_le(*x));
    }
    Ok(if kind == WEIGHTS_U32 {
        Weights::U32(bits)
    } else {
        // Same size and alignment: the standard library collects in place, reusing the vector.
        Weights::F32(bits.into_iter().map(f32::from_bits).collect())
    })
}

/// Compressed lists are strictly increasing by construction (gaps are stored minus one), so
/// only self-loops remain to be refused, and for an undirected graph one-way edges (see
/// [`pair_hash`]), in the same decoding pass.
fn check_compressed_lists(graph: &CompressedGraph, path: &Path) -> Result<()> {
    use rayon::prelude::*;
    let (undirected, key) = (graph.is_undirected(), pair_key());
    let (bad, balance) = (0..graph.num_vertices() as u32)
        .into_par_iter()
        .with_min_len(1024)
        .map(|u| {
            let (mut self_loop, mut balance) = (false, 0u64);
            for v in graph.neighbors(u) {
                self_loop |= v == u;
                if undirected {
                    balance = balance.wrapping_add(pair_hash(key, u, v));
                }
            }
            (self_loop.then_some(u), balance)
        })
        .reduce(|| (None, 0), |a, b| (a.0.or(b.0), a.1.wrapping_add(b.1)));
    if let Some(v) = bad {
        return Err(Error::Format {
            path: path.to_path_buf(),
            problem: format!(
                "the neighbor list of vertex {v} holds a self-loop; the file was not written by warpath or is corrupt"
            ),
        });
    }
    if balance != 0 {
        return Err(one_way_error(&graph.decode(), path));
    }
    Ok(())
}

/// The reader skips the builder, so it checks what the builder would have guaranteed
/// (sorted lists, no repeats, no self-loops, and for an undirected graph every edge both
/// ways), in one pass: a correct checksum over a hand-made or buggy file does not make it valid.
fn check_lists(graph: &Graph, path: &Path) -> Result<()> {
    use rayon::prelude::*;
    let (undirected, key) = (graph.is_undirected(), pair_key());
    let (bad, balance) = (0..graph.num_vertices() as u32)
        .into_par_iter()
        .with_min_len(1024)
        .map(|u| {
            let list = graph.neighbors(u);
            let bad = is_bad_list(list, u);
            let balance =
                if undirected { list.iter().fold(0u64, |sum, &v| sum.wrapping_add(pair_hash(key, u, v))) } else { 0 };
            (bad.then_some(u), balance)
        })
        .reduce(|| (None, 0), |a, b| (a.0.or(b.0), a.1.wrapping_add(b.1)));
    if let Some(v) = bad {
        return Err(Error::Format {
            path: path.to_path_buf(),
            problem: format!(
                "the neighbor list of vertex {v} is not strictly increasing or holds a self-loop; \
                 the file was not written by warpath or is corrupt"
            ),
        });
    }
    if balance != 0 {
        return Err(one_way_error(graph, path));
    }
    Ok(())
}

/// Reads `buf.len()` bytes of `file` from byte `at` on.
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::FileExt::read_exact_at(file, buf, at);
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom};
        let mut file = file.try_clone()?;
        file.seek(SeekFrom::Start(at))?;
        file.read_exact(buf)
    }
}

/// Whether `list`, vertex `u`'s, is not strictly increasing or holds `u` itself.
fn is_bad_list(list: &[u32], u: u32) -> bool {
    list.windows(2).any(|w| w[0] >= w[1]) || list.binary_search(&u).is_ok()
}

/// A file flagged undirected must hold every edge both ways: BFS and the bottom-up kernels
/// rely on it, and a hand-made file with one-way lists and a valid checksum would give wrong
/// answers. Each edge adds a keyed hash of its unordered pair, positive from the smaller end
/// and negative from the larger, so the balance of a symmetric graph is zero; the lists are
/// searched for the one-way edge to name only when it is not. One multiply per edge, in the
/// pass that checks the lists anyway.
#[inline]
fn pair_hash(key: u64, u: u32, v: u32) -> u64 {
    let (low, high) = (u.min(v), u.max(v));
    let x = (((low as u64) << 32 | high as u64) ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let hash = x ^ (x >> 29);
    // Negated from the larger end (two's complement, without a branch).
    let larger_end = ((u > v) as u64).wrapping_neg();
    (hash ^ larger_end).wrapping_sub(larger_end)
}

/// The key of [`pair_hash`], random once per process, so that no file can be made to balance
/// without being symmetric.
fn pair_key() -> u64 {
    use std::hash::BuildHasher;
    use std::sync::OnceLock;
    static KEY: OnceLock<u64> = OnceLock::new();
    *KEY.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64))
}

/// The error naming the first one-way edge of a graph flagged undirected; called only when
/// its balance is not zero.
fn one_way_error(graph: &Graph, path: &Path) -> Error {
    use rayon::prelude::*;
    let one_way = (0..graph.num_vertices() as u32).into_par_iter().find_map_first(|u| {
        graph.neighbors(u).iter().find(|&&v| graph.neighbors(v).binary_search(&u).is_err()).map(|&v| (u, v))
    });
    let problem = match one_way {
        Some((u, v)) => format!(
            "says the graph is undirected, but vertex {} lists {} and not the other way round; \
             the file is corrupt or was not written by warpath",
            graph.external_id(u),
            graph.external_id(v)
        ),
        // Every edge has its reverse, yet the balance is not zero: a list holds repeats.
        None => "says the graph is undirected, but its lists do not hold each edge exactly once both ways; \
                 the file is corrupt or was not written by warpath"
            .to_string(),
    };
    Error::Format { path: path.to_path_buf(), problem }
}

/// Reads `count` values into `memory` (or a vector where it gives none): from a file of known
/// length (checked against the header's counts, so the count is real) allocated whole and
/// read by all cores ([`Source::fill`]); from a stream in bounded chunks (see [`read_streamed`]),
/// copied into `memory` after.
fn read_array<T: bytemuck::Pod + Send + Sync, R: Read>(
    input: &mut Source<R>,
    count: u64,
    path: &Path,
    what: &str,
    memory: MemoryProvider,
) -> Result<HostArray<T>> {
    if !input.is_file() {
        return Ok(HostArray::moved_into(read_streamed(input, count, path, what)?, memory));
    }
    // Zeroed lazily by the system for a vector (calloc), so the parallel reads first touch
    // its pages.
    let mut values = HostArray::<T>::zeroed(addressable(count, path, what)?, memory);
    input.fill(bytemuck::cast_slice_mut::<T, u8>(&mut values)).map_err(|e| read_failure(e, path, what))?;
    Ok(values)
}

/// Reads `count` values into a vector, as [`read_array`] reads them into memory of no provider.
fn read_vec<T: bytemuck::Pod + Send + Sync, R: Read>(
    input: &mut Source<R>,
    count: u64,
    path: &Path,
    what: &str,
) -> Result<Vec<T>> {
    read_array(input, count, path, what, None).map(HostArray::into_vec)
}

/// `count` as a `usize`, or the error saying this machine cannot hold that many.
fn addressable(count: u64, path: &Path, what: &str) -> Result<usize> {
    usize::try_from(count).map_err(|_| Error::Format {
        path: path.to_path_buf(),
        problem: format!("declares {count} {what}, more than this machine can address"),
    })
}

/// Reads `count` values from a stream in bounded chunks, so that a corrupt count in a gzip
/// stream (whose length is unknown) fails at end of input, not at allocation.
fn read_streamed<T: bytemuck::Pod, R: Read>(
    input: &mut Source<R>,
    count: u64,
    path: &Path,
    what: &str,
) -> Result<Vec<T>> {
    const CHUNK: usize = 1 << 24;
    let count = addressable(count, path, what)?;
    let mut values: Vec<T> = Vec::with_capacity(count.min(CHUNK));
    while values.len() < count {
        let start = values.len();
        let step = (count - start).min(CHUNK);
        values.resize(start + step, T::zeroed());
        input.fill(bytemuck::cast_slice_mut(&mut values[start..])).map_err(|e| read_failure(e, path, what))?;
    }
    Ok(values)
}

fn read_exact(input: &mut impl Read, buf: &mut [u8], path: &Path, what: &str) -> Result<()> {
    input.read_exact(buf).map_err(|e| read_failure(e, path, what))
}

/// A failed read of the `what` of `path`: the end of the input there means a truncated file.
fn read_failure(e: std::io::Error, path: &Path, what: &str) -> Error {
    if e.kind() == ErrorKind::UnexpectedEof {
        Error::Format {
            path: path.to_path_buf(),
            problem: format!("is truncated: it ends inside the {what}; write it again"),
        }
    } else {
        Error::io(path, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng::SplitMix64;

    /// Pieces summed apart and combined give the sequential CRC, whatever the sizes: empty,
    /// within one piece, a whole number of pieces, a ragged last piece, after earlier bytes.
    #[test]
    fn checksum_in_pieces_equals_the_sequential_one() {
        let mut rng = SplitMix64::new(23);
        let bytes: Vec<u8> = (0..100_003).map(|_| rng.next_u32() as u8).collect();
        for piece in [3, 4096, 10_000, 100_003, 1 << 20] {
            for len in [0, 1, 4095, 4096, 4097, 40_000, 100_003] {
                let mut crc = Hasher::new();
                crc.update(b"header");
                add_in_pieces(&mut crc, &bytes[..len], piece);
                let mut sequential = Hasher::new();
                sequential.update(b"header");
                sequential.update(&bytes[..len]);
                assert_eq!(crc.finalize(), sequential.finalize(), "{len} bytes in pieces of {piece}");
            }
        }
        let mut whole = Hasher::new();
        add_to_checksum(&mut whole, &bytes);
        assert_eq!(whole.finalize(), crc32fast::hash(&bytes));
    }
}
