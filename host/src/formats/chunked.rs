//! Reading a text graph file at disk speed: a thread reads (or inflates) the file in large
//! blocks that end at line ends, and the body of every block is cut into chunks at newlines
//! that rayon parses in parallel, each straight into its own slots of the edge vector.
//!
//! The headers stay sequential ([`Lines`] reads them from the same blocks); a
//! format hands the rest of the file to [`parse_body`] with a [`LineParser`] that says what a
//! body line holds. Errors keep naming the 1-based line: a chunk reports the byte offset of
//! its first bad line, and only then are the newlines before it counted.

use std::io::{ErrorKind, Read};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use rayon::prelude::*;

use super::text::{self, long_line, parse_error, read_error, MAX_LINE_BYTES};
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::graph::Weight;
use crate::memory::GraphSize;

/// The size blocks grow to. Each is parsed by every thread at once, so it must give each of
/// sixteen threads a few chunks of a megabyte or more; blocks in flight are few (the channel
/// holds two), so memory stays far below the edges'.
const BLOCK_BYTES: usize = 32 << 20;
/// The first block's size: small files (and the fuzzer's inputs) do not pay for a large
/// buffer; blocks double from here.
const FIRST_BLOCK_BYTES: usize = 64 << 10;
/// Parsed blocks' buffers kept for reuse: as many as can be in flight (two queued, one being
/// read into) so that a steady read allocates nothing.
const SPARE_BLOCKS: usize = 3;
/// The least a parallel chunk holds: below it, splitting costs more than it saves.
const MIN_CHUNK_BYTES: usize = 256 << 10;
/// An edge list at least this long is probed for heavy repeats each time it must grow
/// ([`Growth`]); shorter ones cost too little to matter.
const PROBE_FROM_ENTRIES: usize = if cfg!(test) { 1 << 12 } else { 1 << 20 };
/// Entries a probe looks at, spread over the list and again at its end.
const PROBE_ENTRIES: usize = 1 << 12;

/// A piece of the file: whole lines, ending in a newline unless it is the last piece.
pub(crate) struct Block {
    pub bytes: Vec<u8>,
    /// No block follows; the file ends here, possibly without a newline.
    pub last: bool,
}

/// The blocks of a file, read on a thread of their own so that reading (or inflating a gzip
/// stream) overlaps parsing.
pub(crate) struct BlockReader {
    receiver: Receiver<std::io::Result<Block>>,
    /// Parsed blocks' buffers go back to the reading thread: a fresh 32 MiB buffer per block
    /// costs eight thousand page faults, which on a virtual machine bound the read rate.
    spare: SyncSender<Vec<u8>>,
}

impl BlockReader {
    pub(crate) fn spawn(input: Box<dyn Read + Send>) -> BlockReader {
        // Two blocks wait while one is parsed: enough to hide the reads' jitter.
        let (sender, receiver) = sync_channel(2);
        let (spare, spares) = sync_channel(SPARE_BLOCKS);
        std::thread::spawn(move || {
            let mut blocks = Blocks { input, carry: Vec::new(), size: FIRST_BLOCK_BYTES, done: false, spares };
            while let Some(block) = blocks.next_block() {
                let stop = !matches!(block, Ok(Block { last: false, .. }));
                // A closed channel means the parser stopped (an error): stop reading too.
                if sender.send(block).is_err() || stop {
                    break;
                }
            }
        });
        BlockReader { receiver, spare }
    }

    /// Hands a parsed block's buffer back for the next read (dropped if enough are waiting).
    pub(crate) fn recycle(&self, buffer: Vec<u8>) {
        let _ = self.spare.try_send(buffer);
    }

    pub(crate) fn next(&self) -> std::io::Result<Block> {
        self.receiver
            .recv()
            .unwrap_or_else(|_| Err(std::io::Error::other("the thread reading the file stopped unexpectedly")))
    }
}

struct Blocks {
    input: Box<dyn Read + Send>,
    /// The start of a line that the previous block cut off.
    carry: Vec<u8>,
    size: usize,
    done: bool,
    /// Buffers of parsed blocks, reused before any new one is allocated.
    spares: Receiver<Vec<u8>>,
}

impl Blocks {
    fn next_block(&mut self) -> Option<std::io::Result<Block>> {
        while !self.done {
            let start = self.carry.len();
            let mut block = match self.spares.try_recv() {
                // The spare keeps its length: its old bytes are read over, and zeroing it
                // anew would cost this thread a pass over each block.
                Ok(mut spare) if spare.capacity() >= self.size && spare.len() >= start => {
                    spare[..start].copy_from_slice(&self.carry);
                    self.carry.clear();
                    spare
                }
                _ => std::mem::take(&mut self.carry),
            };
            block.resize(self.size.max(start + FIRST_BLOCK_BYTES), 0);
            let mut filled = start;
            while filled < block.len() {
                match self.input.read(&mut block[filled..]) {
                    Ok(0) => break,
                    Ok(read) => filled += read,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
            }
            let at_end = filled < block.len();
            block.truncate(filled);
            self.size = (self.size * 2).min(BLOCK_BYTES);
            if at_end {
                self.done = true;
                return Some(Ok(Block { bytes: block, last: true }));
            }
            match memchr::memrchr(b'\n', &block) {
                Some(newline) => {
                    self.carry = block[newline + 1..].to_vec();
                    block.truncate(newline + 1);
                    return Some(Ok(Block { bytes: block, last: false }));
                }
                // A line longer than any text graph file has: hand it over as the end of the
                // file, where it is refused, rather than read on (a file without newlines, a
                // gzip bomb).
                None if block.len() as u64 > MAX_LINE_BYTES => {
                    self.done = true;
                    return Some(Ok(Block { bytes: block, last: true }));
                }
                None => self.carry = block,
            }
        }
        None
    }
}

/// What went wrong on one body line.
pub(crate) struct LineProblem {
    /// What the line should have held (the text after "expected").
    pub expected: String,
    /// The line counts as an entry of a declared count, so that beyond the count it is
    /// reported as one too many rather than by what is wrong with it (the readers check the
    /// count first on such lines).
    pub entry: bool,
    /// The line is too short: when it is the file's last and has no newline, the error adds
    /// that the file looks truncated.
    pub short: bool,
}

impl LineProblem {
    pub(crate) fn entry(expected: String) -> LineProblem {
        LineProblem { expected, entry: true, short: false }
    }

    pub(crate) fn other(expected: String) -> LineProblem {
        LineProblem { expected, entry: false, short: false }
    }
}

/// The edge of a body line and its value (`()` where none is kept).
pub(crate) type Entry<W> = ((u32, u32), W);

/// What one body line of a format holds.
pub(crate) trait LineParser: Sync {
    /// Ordered as the builder orders weights, so that collapsing repeats keeps the lightest.
    type Weight: Weight;

    /// The common line, fast: parses the line at the start of `text` (which runs on to the
    /// end of the chunk) if it is plainly an entry, returning it and the bytes it took with its
    /// newline. `None` sends the line to [`LineParser::line`], which must then give the same
    /// entry or say what is wrong.
    fn fast(&self, text: &[u8]) -> Option<(Entry<Self::Weight>, usize)>;

    /// Any body line, without its line ending: an entry, `None` for a line without one
    /// (comments, blank lines), or what is wrong with it.
    fn line(&self, line: &[u8]) -> std::result::Result<Option<Entry<Self::Weight>>, LineProblem>;
}

/// The entries of a file's body, in file order.
pub(crate) struct Body<W> {
    /// The entries read, or fewer where repeats were collapsed ([`Growth`]).
    pub edges: Vec<(u32, u32)>,
    pub weights: Vec<W>,
    /// How many entries the body holds, repeats included: what a declared count is checked
    /// against.
    pub entries: u64,
    /// The largest id in `edges` (`None` without edges), found while parsing so that no
    /// sequential pass over the edges is needed for it.
    pub largest_id: Option<u32>,
    pub end: BodyEnd,
}

pub(crate) enum BodyEnd {
    /// The file ended after `lines` lines in all.
    Complete { lines: u64 },
    /// Line `line` holds an entry beyond the declared count; `shown` is the line as an error
    /// message shows it.
    OneMore { line: u64, shown: String },
}

/// Parses the rest of `lines` (the body) with `parser`, in parallel. With `limit`, parsing
/// stops at the first entry beyond it ([`BodyEnd::OneMore`]), so memory stays bounded by the
/// count a header declared (and the memory guard checked) plus one block. `reserve` is how
/// many entries to make room for at once. `growth` bounds the list as it grows (a stream
/// without a declared count has no other bound) and may collapse its repeats.
pub(crate) fn parse_body<P: LineParser>(
    lines: Lines<'_>,
    parser: &P,
    limit: Option<u64>,
    reserve: usize,
    mut growth: Growth,
) -> Result<Body<P::Weight>> {
    let (path, blocks, mut block, mut last, mut lines_before) = lines.into_rest();
    let mut out = Body {
        edges: Vec::new(),
        weights: Vec::new(),
        entries: 0,
        largest_id: None,
        end: BodyEnd::Complete { lines: 0 },
    };
    growth.reserve(&mut out, reserve, path, lines_before)?;
    loop {
        let text = &block.bytes[block.start..];
        let left = limit.map(|limit| limit.saturating_sub(out.entries));
        match parse_block(text, last, lines_before, parser, left, path, &mut out, &mut growth)? {
            BlockEnd::Parsed { newlines } => lines_before += newlines,
            BlockEnd::OneMore { line, shown } => {
                out.end = BodyEnd::OneMore { line, shown };
                return Ok(out);
            }
        }
        lines_before += u64::from(last && !text.is_empty() && !text.ends_with(b"\n"));
        if last {
            out.end = BodyEnd::Complete { lines: lines_before };
            return Ok(out);
        }
        let next = blocks.next().map_err(|e| text::read_error(path, e))?;
        last = next.last;
        blocks.recycle(std::mem::replace(&mut block, RestOfBlock { bytes: next.bytes, start: 0 }).bytes);
    }
}

/// How a body's edge list may grow. A stream (a `.gz` file, an edge list without a declared
/// count) has no length to check up front, so the memory guard is applied each time the list
/// must grow: a list that would outgrow the memory is refused, naming the file and the line,
/// before it is allocated (rather than aborting in an allocation). Repeated edges, which the
/// builder drops anyway, are collapsed in place first ([`collapse`]): when a cheap probe finds
/// the list heavily repeated, so that a file of one edge repeated for gigabytes reads in a few
/// blocks' memory, and once more before a list is refused.
pub(crate) struct Growth {
    /// The memory guard's bytes; `None` where nothing is known (the list then grows unchecked).
    available: Option<u64>,
    undirected: bool,
    /// The vertex count a header declared; otherwise the largest id read so far gives it.
    vertices: Option<u64>,
    /// The list's length after its last collapse: a collapse at the limit is worth its sort
    /// only when a quarter of the list came since (else the list is refused), which keeps a
    /// list of distinct edges near the limit from being sorted again at every block.
    collapsed_to: usize,
    /// Probes go on while their collapses pay (drop at least a quarter of the list).
    probing: bool,
}

impl Growth {
    /// The growth of an edge list read with `opts` (its memory limit), stored both ways when
    /// `undirected`, of `vertices` when a header declared them.
    pub(crate) fn new(opts: &ReadOptions, undirected: bool, vertices: Option<u64>) -> Growth {
        Growth {
            available: crate::memory::available(opts.memory_limit),
            undirected,
            vertices,
            collapsed_to: 0,
            probing: true,
        }
    }

    /// The most entries the list may hold, as the memory guard sees the graph now.
    fn most_entries<W>(&self, out: &Body<W>) -> Option<(u64, GraphSize)> {
        let vertices = self.vertices.unwrap_or(out.largest_id.map_or(0, |m| m as u64 + 1));
        let weight_bytes = std::mem::size_of::<W>() as u64;
        let size = GraphSize { vertices, edges: 0, undirected: self.undirected, weight_bytes };
        self.available.map(|available| (size.most_edges(available), size))
    }

    /// Room for `entries` at once, as far as the guard allows: a header's count is a hint, and
    /// the list is checked again when it grows.
    fn reserve<W: Weight>(&self, out: &mut Body<W>, entries: usize, path: &Path, line: u64) -> Result<()> {
        let most = self.most_entries(out).map_or(usize::MAX, |(most, _)| usize::try_from(most).unwrap_or(usize::MAX));
        reserve_exact(out, entries.min(most), path, line)
    }

    /// Room for `more` entries after the list's, which line `line` ends: collapsing repeats
    /// where that pays, growing the list by doubling up to what the guard allows, or refusing.
    fn make_room<W: Weight>(&mut self, out: &mut Body<W>, more: usize, path: &Path, line: u64) -> Result<()> {
        if out.edges.len() + more <= out.edges.capacity() {
            return Ok(());
        }
        if self.probing && out.edges.len() >= PROBE_FROM_ENTRIES && heavily_repeated(&out.edges) {
            let before = out.edges.len();
            self.collapse(out);
            self.probing = out.edges.len() <= before - before / 4;
            if out.edges.len() + more <= out.edges.capacity() {
                return Ok(());
            }
        }
        let most = self.most_entries(out);
        if let Some((most, size)) = most {
            let over = |out: &Body<W>| (out.edges.len() + more) as u64 > most;
            if over(out) && out.edges.len().saturating_sub(self.collapsed_to) >= out.edges.len() / 4 {
                self.collapse(out);
            }
            if over(out) {
                let edges = (out.edges.len() + more) as u64;
                let size = GraphSize { edges, ..size };
                return Err(Error::OutOfMemory {
                    what: format!("{} (its edges up to line {line})", path.display()),
                    needed: u64::try_from(size.build_bytes()).unwrap_or(u64::MAX),
                    vertices: size.vertices,
                    edges,
                    available: self.available.unwrap_or(0),
                });
            }
        }
        let needed = out.edges.len() + more;
        if needed > out.edges.capacity() {
            let doubled = (2 * out.edges.capacity()).max(needed);
            let cap = most.map_or(usize::MAX, |(most, _)| usize::try_from(most).unwrap_or(usize::MAX));
            reserve_exact(out, doubled.min(cap).max(needed), path, line)?;
        }
        Ok(())
    }

    fn collapse<W: Weight>(&mut self, out: &mut Body<W>) {
        collapse(&mut out.edges, &mut out.weights);
        self.collapsed_to = out.edges.len();
    }
}

/// Makes the list's capacity (and its weights') `capacity` entries, if it is less. The
/// system may refuse what the guard allowed (an address-space limit, `ulimit -v`, which the
/// guard does not see): that is an error naming the file, not an abort.
fn reserve_exact<W>(out: &mut Body<W>, capacity: usize, path: &Path, line: u64) -> Result<()> {
    let refused = |bytes: usize| Error::Format {
        path: path.to_path_buf(),
        problem: format!(
            "the system refused the {} more that its edges up to line {line} need (a process limit such as \
             `ulimit -v`?)",
            crate::error::show_bytes(bytes as u64)
        ),
    };
    let more = capacity.saturating_sub(out.edges.len());
    out.edges.try_reserve_exact(more).map_err(|_| refused(more.saturating_mul(8)))?;
    if std::mem::size_of::<W>() != 0 {
        let more = capacity.saturating_sub(out.weights.len());
        out.weights.try_reserve_exact(more).map_err(|_| refused(more.saturating_mul(std::mem::size_of::<W>())))?;
    }
    Ok(())
}

/// Whether at least half of a sample of `edges` repeats another entry of it: a sample spread
/// over the whole list finds edges repeated throughout the file, one at its end edges repeated
/// line after line. It costs two sorts of a few thousand entries; what it misses is still
/// collapsed at the memory limit.
fn heavily_repeated(edges: &[(u32, u32)]) -> bool {
    let repeated = |mut sample: Vec<(u32, u32)>| {
        let taken = sample.len();
        sample.sort_unstable();
        sample.dedup();
        2 * sample.len() <= taken
    };
    let stride = (edges.len() / PROBE_ENTRIES).max(1);
    let spread = edges.iter().step_by(stride).take(PROBE_ENTRIES).copied().collect();
    let end = edges[edges.len().saturating_sub(PROBE_ENTRIES)..].to_vec();
    repeated(spread) || repeated(end)
}

/// Drops the repeats of every edge from `edges`, keeping the smallest weight of each (as the
/// builder does, which would drop them anyway), in place. Unweighted, the list is sorted;
/// weighted, it keeps its order, and a sorted order of indices (4 bytes an entry, within
/// what the guard counts for building) finds the kept entries; a list of more than 2^32 entries
/// is collapsed in pieces of 2^32 - 1.
fn collapse<W: Weight>(edges: &mut Vec<(u32, u32)>, weights: &mut Vec<W>) {
    if std::mem::size_of::<W>() == 0 {
        edges.par_sort_unstable();
        edges.dedup();
        weights.truncate(edges.len());
        return;
    }
    let mut kept = 0;
    for start in (0..edges.len()).step_by(u32::MAX as usize) {
        let end = (start + u32::MAX as usize).min(edges.len());
        let (piece, piece_weights) = (&edges[start..end], &weights[start..end]);
        let mut order: Vec<u32> = (0..piece.len() as u32).into_par_iter().collect();
        order.par_sort_unstable_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            piece[a].cmp(&piece[b]).then_with(|| piece_weights[a].order(&piece_weights[b]))
        });
        // The first of each run of one edge is its lightest.
        let mut unique = 0;
        for i in 0..order.len() {
            if unique == 0 || piece[order[i] as usize] != piece[order[unique - 1] as usize] {
                order[unique] = order[i];
                unique += 1;
            }
        }
        order.truncate(unique);
        order.par_sort_unstable();
        // Kept entries move down to `kept`, never past an entry still to be read.
        for i in order {
            let i = start + i as usize;
            edges[kept] = edges[i];
            weights[kept] = weights[i];
            kept += 1;
        }
    }
    edges.truncate(kept);
    weights.truncate(kept);
}

/// The part of a block the body starts in, after the header lines.
pub(crate) struct RestOfBlock {
    pub bytes: Vec<u8>,
    pub start: usize,
}

pub(crate) type Rest<'p> = (&'p Path, BlockReader, RestOfBlock, bool, u64);

/// How one chunk went: how many entries it wrote into its slots, the largest id among them,
/// and its first bad line.
struct ChunkResult {
    written: usize,
    largest_id: Option<u32>,
    problem: Option<(usize, LineProblem)>,
}

/// How a block went.
enum BlockEnd {
    /// Every entry was parsed; the block holds `newlines` newlines.
    Parsed { newlines: u64 },
    /// Line `line`, shown as `shown`, holds an entry beyond the limit.
    OneMore { line: u64, shown: String },
}

/// Parses one block's `text` into `out`, making room for it as `growth` allows.
#[allow(clippy::too_many_arguments)]
fn parse_block<P: LineParser>(
    text: &[u8],
    last: bool,
    lines_before: u64,
    parser: &P,
    left: Option<u64>,
    path: &Path,
    out: &mut Body<P::Weight>,
    growth: &mut Growth,
) -> Result<BlockEnd> {
    let chunks = split_at_lines(text);
    // One slot per line of each chunk: no line holds two entries. The counts also number the
    // lines, so the main thread never scans the text itself.
    let newlines: Vec<u64> = chunks.par_iter().map(|chunk| count_newlines(chunk)).collect();
    let slots: Vec<usize> = chunks
        .iter()
        .zip(&newlines)
        .map(|(chunk, &n)| n as usize + usize::from(!chunk.is_empty() && !chunk.ends_with(b"\n")))
        .collect();
    let total: usize = slots.iter().sum();
    growth.make_room(out, total, path, lines_before + newlines.iter().sum::<u64>())?;
    let base = out.edges.len();
    // The slots are zeroed by all threads, not by `resize` on this one: first touching the
    // pages of a vector of billions of edges is most of the work of growing it.
    out.edges.par_extend((0..total).into_par_iter().map(|_| (0, 0)));
    out.weights.par_extend((0..total).into_par_iter().map(|_| P::Weight::default()));
    let results: Vec<ChunkResult> = {
        let mut edge_slots = &mut out.edges[base..];
        let mut weight_slots = &mut out.weights[base..];
        let mut work = Vec::with_capacity(chunks.len());
        for (chunk, &count) in chunks.iter().zip(&slots) {
            let (edges, rest) = edge_slots.split_at_mut(count);
            let (weights, weight_rest) = weight_slots.split_at_mut(count);
            edge_slots = rest;
            weight_slots = weight_rest;
            work.push((*chunk, edges, weights));
        }
        work.into_par_iter().map(|(chunk, edges, weights)| parse_chunk(chunk, parser, edges, weights)).collect()
    };

    // Gather the chunks' entries to the front, in order, and find the first problem.
    let mut cursor = base;
    let mut slot = base;
    let mut left = left;
    let mut chunk_start = 0usize;
    let mut lines_at_chunk = lines_before;
    for (k, result) in results.into_iter().enumerate() {
        let chunk = chunks[k];
        let line_of = |offset: usize| lines_at_chunk + count_newlines(&chunk[..offset]) + 1;
        if let Some(left) = left {
            let beyond = if result.written as u64 > left {
                Some(nth_entry(chunk, parser, left as usize))
            } else if result.written as u64 == left {
                result.problem.as_ref().filter(|(_, p)| p.entry).map(|(offset, _)| *offset)
            } else {
                None
            };
            if let Some(offset) = beyond {
                return Ok(BlockEnd::OneMore { line: line_of(offset), shown: text::show(line_at(chunk, offset)) });
            }
        }
        if let Some((offset, problem)) = result.problem {
            let whole_line = line_at(chunk, offset);
            let unterminated_last =
                last && chunk_start + offset + whole_line.len() == text.len() && !text.ends_with(b"\n");
            let hint = if problem.short && unterminated_last { text::TRUNCATED_HINT } else { "" };
            return Err(parse_error(path, line_of(offset), format!("{}{hint}", problem.expected)));
        }
        if slot != cursor {
            out.edges.copy_within(slot..slot + result.written, cursor);
            out.weights.copy_within(slot..slot + result.written, cursor);
        }
        cursor += result.written;
        out.entries += result.written as u64;
        slot += slots[k];
        out.largest_id = out.largest_id.max(result.largest_id);
        left = left.map(|l| l - result.written as u64);
        chunk_start += chunk.len();
        lines_at_chunk += newlines[k];
    }
    out.edges.truncate(cursor);
    out.weights.truncate(cursor);
    Ok(BlockEnd::Parsed { newlines: newlines.iter().sum() })
}

/// Parses the lines of `chunk` into `edges` and `weights`, stopping at the first bad line.
fn parse_chunk<P: LineParser>(
    chunk: &[u8],
    parser: &P,
    edges: &mut [(u32, u32)],
    weights: &mut [P::Weight],
) -> ChunkResult {
    let mut pos = 0;
    let mut written = 0;
    let mut largest = 0;
    let mut store = |((u, v), weight): Entry<P::Weight>, written: &mut usize| {
        edges[*written] = (u, v);
        weights[*written] = weight;
        largest = largest.max(u).max(v);
        *written += 1;
    };
    while pos < chunk.len() {
        if let Some((entry, used)) = parser.fast(&chunk[pos..]) {
            store(entry, &mut written);
            pos += used;
            continue;
        }
        let line = line_at(chunk, pos);
        let next = pos + line.len() + 1;
        match body_line(line).and_then(|line| parser.line(line)) {
            Ok(Some(entry)) => store(entry, &mut written),
            Ok(None) => {}
            Err(problem) => return ChunkResult { written, largest_id: None, problem: Some((pos, problem)) },
        }
        pos = next;
    }
    ChunkResult { written, largest_id: (written > 0).then_some(largest), problem: None }
}

/// A line as [`LineParser::line`] sees it: without `\r`, refused if longer than any text graph
/// file's (as [`Lines`] refuses it in a header).
fn body_line(line: &[u8]) -> std::result::Result<&[u8], LineProblem> {
    if line.len() as u64 > MAX_LINE_BYTES {
        return Err(LineProblem::other(text::long_line(line)));
    }
    Ok(line.strip_suffix(b"\r").unwrap_or(line))
}

/// Where the `n`-th entry (0-based) of `chunk` starts; the chunk holds more than `n`.
fn nth_entry<P: LineParser>(chunk: &[u8], parser: &P, n: usize) -> usize {
    let mut pos = 0;
    let mut seen = 0;
    loop {
        let line = line_at(chunk, pos);
        if matches!(body_line(line).map(|line| parser.line(line)), Ok(Ok(Some(_)))) {
            if seen == n {
                return pos;
            }
            seen += 1;
        }
        pos += line.len() + 1;
    }
}

/// The line starting at `offset` of `chunk`, without its newline.
fn line_at(chunk: &[u8], offset: usize) -> &[u8] {
    let rest = &chunk[offset..];
    &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
}

fn count_newlines(bytes: &[u8]) -> u64 {
    // memchr counts with SIMD: several times faster than a plain loop, which the compiler
    // does not vectorize well.
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Cuts `text` (whole lines) into chunks of whole lines, a few per thread.
fn split_at_lines(text: &[u8]) -> Vec<&[u8]> {
    let wanted = (text.len() / MIN_CHUNK_BYTES).clamp(1, 4 * rayon::current_num_threads());
    let mut chunks = Vec::with_capacity(wanted);
    let mut start = 0;
    for k in 1..wanted {
        let target = (text.len() * k / wanted).max(start);
        let end = match memchr::memchr(b'\n', &text[target..]) {
            Some(i) => target + i + 1,
            None => text.len(),
        };
        if end > start {
            chunks.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() || chunks.is_empty() {
        chunks.push(&text[start..]);
    }
    chunks
}

/// Fast-path pieces: each reads from `text[*pos..]` and moves `pos` past what it took, or
/// gives `None` for anything unusual (the line then goes to the careful parser).
pub(crate) mod fast {
    /// At most this many whitespace bytes between or after fields on the fast path; longer
    /// runs go to the careful parser, which also refuses overlong lines.
    const MAX_GAP: usize = 32;

    /// One to ten decimal digits as a number (at most 9999999999).
    #[inline(always)]
    pub(crate) fn digits(text: &[u8], pos: &mut usize) -> Option<u64> {
        let start = *pos;
        let mut value = 0u64;
        while let Some(&b) = text.get(*pos) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value * 10 + digit as u64;
            *pos += 1;
            if *pos - start > 10 {
                return None;
            }
        }
        (*pos > start).then_some(value)
    }

    /// One or more spaces or tabs.
    #[inline(always)]
    pub(crate) fn gap(text: &[u8], pos: &mut usize) -> Option<()> {
        let start = *pos;
        while matches!(text.get(*pos), Some(b' ' | b'\t')) {
            *pos += 1;
        }
        (*pos > start && *pos - start <= MAX_GAP).then_some(())
    }

    /// A token: one to 32 bytes up to whitespace.
    #[inline(always)]
    pub(crate) fn token<'t>(text: &'t [u8], pos: &mut usize) -> Option<&'t [u8]> {
        let start = *pos;
        while let Some(&b) = text.get(*pos) {
            if b.is_ascii_whitespace() || *pos - start >= 32 {
                break;
            }
            *pos += 1;
        }
        let token = &text[start..*pos];
        (!token.is_empty() && !text.get(*pos).is_some_and(|b| !b.is_ascii_whitespace())).then_some(token)
    }

    /// The end of the line: spaces or tabs, an optional `\r`, and the newline.
    #[inline(always)]
    pub(crate) fn line_end(text: &[u8], pos: &mut usize) -> Option<()> {
        let start = *pos;
        while matches!(text.get(*pos), Some(b' ' | b'\t')) {
            *pos += 1;
        }
        if *pos - start > MAX_GAP {
            return None;
        }
        if text.get(*pos) == Some(&b'\r') {
            *pos += 1;
        }
        (text.get(*pos) == Some(&b'\n')).then(|| *pos += 1)
    }

    /// The common body line of the edge-list formats: two ids, then the value `column` reads
    /// from a third token (none without a column), then the line's end. Returns the ids as
    /// written, the value and the bytes the line took with its newline.
    #[inline(always)]
    pub(crate) fn pair_line<C: super::text::Column>(
        text: &[u8],
        column: Option<&C>,
    ) -> Option<((u64, u64), C::Value, usize)> {
        let mut pos = 0;
        let first = digits(text, &mut pos)?;
        gap(text, &mut pos)?;
        let second = digits(text, &mut pos)?;
        let value = match column {
            Some(column) => {
                gap(text, &mut pos)?;
                column.value(token(text, &mut pos)?).ok()?
            }
            None => C::Value::default(),
        };
        line_end(text, &mut pos)?;
        Some(((first, second), value, pos))
    }
}

/// Reads the header lines of a text file one at a time, counting lines for error messages,
/// from the blocks of a [`BlockReader`]; [`Lines::into_rest`] hands what follows to the
/// parallel body parser.
pub(crate) struct Lines<'p> {
    blocks: BlockReader,
    path: &'p Path,
    block: RestOfBlock,
    /// `block` is the file's last.
    last: bool,
    line: u64,
    /// No block has been read yet: the first may start with a byte-order mark.
    at_start: bool,
}

/// The UTF-8 byte-order mark some editors (Windows Notepad) put at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

impl<'p> Lines<'p> {
    pub(crate) fn new(input: Box<dyn Read + Send>, path: &'p Path) -> Self {
        Lines {
            blocks: BlockReader::spawn(input),
            path,
            block: RestOfBlock { bytes: Vec::new(), start: 0 },
            last: false,
            line: 0,
            at_start: true,
        }
    }

    /// The next line with its 1-based number, without the `\n` or `\r\n` ending
    /// (Windows line endings are common in SNAP downloads), left unread: the next call
    /// returns it again until [`Lines::advance`]. A line longer than [`MAX_LINE_BYTES`] is an
    /// error.
    pub(crate) fn peek_line(&mut self) -> Result<Option<(u64, &[u8])>> {
        Ok(self.locate()?.map(|(start, length)| (self.line + 1, &self.block.bytes[start..start + length])))
    }

    /// Moves past the line [`Lines::peek_line`] returned.
    pub(crate) fn advance(&mut self) {
        let rest = &self.block.bytes[self.block.start..];
        self.block.start += memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        self.line += 1;
    }

    /// The next line with its 1-based number, without its ending (see [`Lines::peek_line`]).
    pub(crate) fn next_line(&mut self) -> Result<Option<(u64, &[u8])>> {
        let Some((start, length)) = self.locate()? else { return Ok(None) };
        self.advance();
        Ok(Some((self.line, &self.block.bytes[start..start + length])))
    }

    /// Where the next line starts in the block and its length without its ending, reading
    /// the next block when this one is used up.
    fn locate(&mut self) -> Result<Option<(usize, usize)>> {
        while self.block.start >= self.block.bytes.len() {
            if self.last {
                return Ok(None);
            }
            let next = self.blocks.next().map_err(|e| read_error(self.path, e))?;
            self.block = RestOfBlock { bytes: next.bytes, start: 0 };
            self.last = next.last;
            // A byte-order mark says nothing about a graph: skipped, it does not turn the
            // first line into an error that shows an invisible character. (The first block
            // holds all of the first line, so all of the mark.)
            if std::mem::take(&mut self.at_start) && self.block.bytes.starts_with(BYTE_ORDER_MARK) {
                self.block.start = BYTE_ORDER_MARK.len();
            }
        }
        let start = self.block.start;
        let rest = &self.block.bytes[start..];
        let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        if line.len() as u64 > MAX_LINE_BYTES {
            return Err(parse_error(self.path, self.line + 1, long_line(line)));
        }
        Ok(Some((start, line.strip_suffix(b"\r").unwrap_or(line).len())))
    }

    /// How many lines have been read so far.
    pub(crate) fn lines_read(&self) -> u64 {
        self.line
    }

    /// The path, the blocks, the unread rest of the current block, whether it is the last,
    /// and the lines read so far: what the body parser goes on from.
    pub(crate) fn into_rest(self) -> Rest<'p> {
        (self.path, self.blocks, self.block, self.last, self.line)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;
    use std::path::Path;

    use crate::formats::{dimacs, matrix_market, snap, ReadOptions};
    use crate::generate::rng::SplitMix64;

    /// A SNAP edge list of `lines` edges over many blocks and chunks, with comments, blank
    /// lines, tabs and Windows line endings mixed in, and the edges it holds.
    fn mixed_edge_list(lines: usize) -> (String, Vec<(u32, u32)>) {
        let mut rng = SplitMix64::new(7);
        let (mut text, mut edges) = (String::from("# Directed graph\n"), Vec::new());
        for i in 0..lines {
            let (u, v) = (rng.next_below(1 << 20) as u32, rng.next_below(1 << 20) as u32);
            match i % 97 {
                0 => writeln!(text, "# a comment in the body {i}").unwrap(),
                1 => text.push_str("\n   \n"),
                2 => {
                    write!(text, "{u}\t{v}\r\n").unwrap();
                    edges.push((u, v));
                }
                3 => {
                    writeln!(text, "  {u}   {v}  ").unwrap();
                    edges.push((u, v));
                }
                _ => {}
            }
            writeln!(text, "{u} {v}").unwrap();
            edges.push((u, v));
        }
        (text, edges)
    }

    #[test]
    fn edge_lists_over_many_blocks_and_chunks_keep_every_edge_in_order() {
        let (text, expected) = mixed_edge_list(400_000);
        assert!(text.len() > 4 * super::FIRST_BLOCK_BYTES + 2 * super::MIN_CHUNK_BYTES);
        let list =
            snap::read(std::io::Cursor::new(text.into_bytes()), Path::new("x.txt"), &ReadOptions::DEFAULT).unwrap();
        assert_eq!(list.edges, expected);
        assert_eq!(list.num_vertices, expected.iter().map(|&(u, v)| u.max(v)).max().unwrap() as u64 + 1);
    }

    #[test]
    fn errors_far_into_a_file_name_their_line() {
        let (mut text, _) = mixed_edge_list(300_000);
        let lines_before = text.matches('\n').count();
        text.push_str("12 x\n");
        text.push_str(&mixed_edge_list(1000).0);
        let err = snap::read(std::io::Cursor::new(text.into_bytes()), Path::new("x.txt"), &ReadOptions::DEFAULT)
            .unwrap_err()
            .to_string();
        let wanted = format!("x.txt:{}: expected a vertex id (a non-negative integer), found `x`", lines_before + 1);
        assert!(err.starts_with(&wanted), "{err}\nwanted {wanted}");
    }

    #[test]
    fn an_entry_beyond_the_declared_count_is_named_wherever_it_falls() {
        let mut body = String::new();
        for i in 0..200_000u64 {
            writeln!(body, "{} {} {}", i % 1000 + 1, i % 997 + 1, i % 7).unwrap();
        }
        let header = "%%MatrixMarket matrix coordinate integer general\n% comment\n1000 1000 150000\n";
        let path = Path::new("x.mtx");
        let err = matrix_market::read(
            std::io::Cursor::new(format!("{header}{body}").into_bytes()),
            path,
            &ReadOptions::DEFAULT,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("x.mtx:150004: expected no more entries: the size line (line 3) declares 150000"),
            "{err}"
        );
        let exact = format!("%%MatrixMarket matrix coordinate integer general\n1000 1000 200000\n{body}");
        let list = matrix_market::read(std::io::Cursor::new(exact.into_bytes()), path, &ReadOptions::DEFAULT).unwrap();
        assert_eq!(list.edges.len(), 200_000);
        assert_eq!(list.edges[199_999], ((199_999 % 1000) as u32, (199_999 % 997) as u32));
        let Some(crate::graph::Weights::U32(weights)) = list.weights else { panic!("u32 weights expected") };
        assert_eq!(weights[199_999], (199_999 % 7) as u32);
        // An arc beyond the count that is also malformed is reported as one too many, as before.
        let mut arcs = String::from("p sp 10 100000\n");
        for i in 0..100_000u64 {
            writeln!(arcs, "a {} {} 1", i % 10 + 1, i % 9 + 1).unwrap();
        }
        arcs.push_str("a 1 99 1\n");
        let err = dimacs::read(std::io::Cursor::new(arcs.into_bytes()), Path::new("x.gr"), &ReadOptions::DEFAULT)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("x.gr:100002: expected no more arcs: the `p` line (line 1) declares 100000"), "{err}");
    }

    #[test]
    fn chunks_end_at_newlines_and_cover_the_text() {
        let text: Vec<u8> = (0..200_000).flat_map(|i: u32| format!("{i} {}\n", i + 1).into_bytes()).collect();
        let chunks = super::split_at_lines(&text);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.ends_with(b"\n")));
        assert_eq!(chunks.concat(), text);
        assert_eq!(super::split_at_lines(b"1 2"), vec![&b"1 2"[..]]);
    }

    #[test]
    fn recycled_buffers_hold_nothing_of_their_last_use() {
        let text = mixed_edge_list(100_000).0.into_bytes();
        let (give_back, spares) = std::sync::mpsc::sync_channel(super::SPARE_BLOCKS);
        let input = Box::new(std::io::Cursor::new(text.clone()));
        let mut blocks =
            super::Blocks { input, carry: Vec::new(), size: super::FIRST_BLOCK_BYTES, done: false, spares };
        let (mut read, mut count) = (Vec::new(), 0);
        loop {
            // A used buffer larger than any block here, full of digits that would parse as edges.
            give_back.try_send(vec![b'7'; 4 * text.len() / 3]).unwrap();
            let block = blocks.next_block().unwrap().unwrap();
            assert!(block.last || block.bytes.ends_with(b"\n"));
            read.extend_from_slice(&block.bytes);
            count += 1;
            if block.last {
                break;
            }
            let _ = blocks.spares.try_recv();
        }
        assert!(count > 3, "{count} blocks");
        assert!(read == text);
    }

    #[test]
    fn the_largest_id_may_be_on_a_line_off_the_fast_path() {
        let mut text = mixed_edge_list(50_000).0;
        text.push_str("  3\t 2000000  \r\n");
        text.push_str(&mixed_edge_list(50_000).0);
        let list =
            snap::read(std::io::Cursor::new(text.into_bytes()), Path::new("x.txt"), &ReadOptions::DEFAULT).unwrap();
        assert_eq!(list.num_vertices, 2_000_001);
        let empty = snap::read(&b"# nothing\n\n"[..], Path::new("x.txt"), &ReadOptions::DEFAULT).unwrap();
        assert_eq!((empty.num_vertices, empty.edges.len()), (0, 0));
    }

    /// A list of `len` entries over `vertices` vertices, most of them repeats, self-loops
    /// among them, with weights from `weight` of a few values so that repeats differ in weight.
    fn repeated_list<W>(len: usize, vertices: u64, weight: impl Fn(u64) -> W) -> (Vec<(u32, u32)>, Vec<W>) {
        let mut rng = SplitMix64::new(11);
        (0..len)
            .map(|_| {
                let (u, v) = (rng.next_below(vertices) as u32, rng.next_below(vertices) as u32);
                ((u, v), weight(rng.next_below(5)))
            })
            .unzip()
    }

    /// The graph the builder makes of `edges`, directed or undirected.
    fn built(
        edges: &[(u32, u32)],
        weights: Option<crate::graph::Weights>,
        undirected: bool,
        n: u64,
    ) -> crate::graph::Graph {
        let list = crate::graph::EdgeList { num_vertices: n, edges: edges.to_vec(), undirected, id_base: 0, weights };
        crate::graph::GraphBuilder::new().build(list).unwrap()
    }

    #[test]
    fn collapsing_keeps_the_lightest_repeat_and_builds_the_same_graph() {
        use crate::graph::Weights;
        let (edges, weights) =
            (vec![(1, 2), (0, 1), (1, 2), (0, 1), (3, 3), (1, 2), (3, 3)], vec![5u32, 7, 2, 7, 4, 9, 1]);
        let (mut kept, mut kept_weights) = (edges.clone(), weights.clone());
        super::collapse(&mut kept, &mut kept_weights);
        let mut pairs: Vec<_> = kept.into_iter().zip(kept_weights).collect();
        pairs.sort_unstable();
        assert_eq!(pairs, vec![((0, 1), 7), ((1, 2), 2), ((3, 3), 1)]);

        for undirected in [false, true] {
            let (edges, weights) = repeated_list(20_000, 40, |w| w as u32 * 3);
            let (mut kept, mut kept_weights) = (edges.clone(), weights.clone());
            super::collapse(&mut kept, &mut kept_weights);
            assert!(kept.len() <= 40 * 40 && kept.len() == kept_weights.len());
            let whole = built(&edges, Some(Weights::U32(weights)), undirected, 40);
            assert_eq!(built(&kept, Some(Weights::U32(kept_weights)), undirected, 40), whole);

            let (edges, weights) = repeated_list(20_000, 40, |w| w as f32 * 0.25);
            let (mut kept, mut kept_weights) = (edges.clone(), weights.clone());
            super::collapse(&mut kept, &mut kept_weights);
            let whole = built(&edges, Some(Weights::F32(weights)), undirected, 40);
            assert_eq!(built(&kept, Some(Weights::F32(kept_weights)), undirected, 40), whole);

            let (edges, units) = repeated_list(20_000, 40, |_| ());
            let (mut kept, mut kept_units) = (edges.clone(), units);
            super::collapse(&mut kept, &mut kept_units);
            assert!(kept.windows(2).all(|pair| pair[0] < pair[1]) && kept_units.len() == kept.len());
            assert_eq!(built(&kept, None, undirected, 40), built(&edges, None, undirected, 40));
        }
    }

    #[test]
    fn the_probe_finds_repeats_throughout_or_at_the_end() {
        let distinct: Vec<(u32, u32)> = (0..100_000).map(|i| (i, i + 1)).collect();
        assert!(!super::heavily_repeated(&distinct));
        let throughout: Vec<(u32, u32)> = (0..100_000).map(|i| (i % 7, 1)).collect();
        assert!(super::heavily_repeated(&throughout));
        let mut at_the_end = distinct.clone();
        at_the_end.extend(std::iter::repeat_n((5, 6), super::PROBE_ENTRIES));
        assert!(super::heavily_repeated(&at_the_end));
    }

    #[test]
    fn a_repeated_weighted_stream_is_collapsed_as_it_grows_and_keeps_the_lightest() {
        // Ten times the probe's threshold of two lines, the heavier first: the list is
        // collapsed whenever it must grow, so it never holds all of them.
        let lines = 10 * super::PROBE_FROM_ENTRIES;
        let text = "0 1 9\n0 1 4\n".repeat(lines / 2) + "1 2 3\n";
        let list =
            snap::read_weighted(std::io::Cursor::new(text.into_bytes()), Path::new("x.wel"), &ReadOptions::DEFAULT)
                .unwrap();
        assert!(list.edges.capacity() < lines, "{} entries of room for {lines} lines", list.edges.capacity());
        let graph = crate::graph::GraphBuilder::new().build(list).unwrap();
        assert_eq!((graph.num_vertices(), graph.num_edges()), (3, 2));
        assert_eq!(graph.weights(), Some(&crate::graph::Weights::U32(vec![4, 3])));
    }

    #[test]
    fn room_the_system_refuses_is_an_error_naming_the_file() {
        let mut out: super::Body<u32> = super::Body {
            edges: vec![(0, 1)],
            weights: vec![3],
            entries: 1,
            largest_id: Some(1),
            end: super::BodyEnd::Complete { lines: 0 },
        };
        // More than any address space holds: the allocation fails rather than aborting.
        let err = super::reserve_exact(&mut out, usize::MAX / 4, Path::new("g.wel.gz"), 12).unwrap_err().to_string();
        assert!(err.starts_with("g.wel.gz: the system refused the "), "{err}");
        assert!(err.contains("its edges up to line 12 need"), "{err}");
        assert_eq!(out.edges, vec![(0, 1)]);
    }

}
