//! A compressed CSR: each sorted neighbor list stored as delta-varints (host side only; the
//! GPU kernels read the plain [`Graph`]).
//!
//! The list of vertex `v` with neighbors `t0 < t1 < ... < tk` is the byte string
//!
//! - `varint(zigzag(t0 - v))`: the first neighbor relative to the vertex id, as a signed
//!   difference (in `-(2^32 - 1) .. 2^32`) mapped to an unsigned value by zigzag
//!   (0, -1, 1, -2, ... → 0, 1, 2, 3, ...), so neighbors close to `v` on either side are small;
//! - then for each next neighbor `varint(t[i] - t[i-1] - 1)`. Lists are strictly increasing,
//!   so every gap is at least 1; storing it minus one lets gaps of 128 fit in one byte and
//!   makes a repeated neighbor impossible to encode.
//!
//! A varint is LEB128: 7-bit groups, least significant first, the high bit set on every
//! byte but the last. Values below 2^35 take 1 to 5 bytes; everything stored here is below
//! 2^34 (zigzagged differences of `u32` ids), so a 5th byte with its high bit set (a 6th
//! byte would follow) is always malformed.
//!
//! `byte_offsets[v]..byte_offsets[v + 1]` is the list of `v` in `bytes`; an empty list takes
//! no bytes. The degree is not stored: a list ends where its bytes end (the number of bytes
//! with the high bit clear).
//!
//! Compressed graphs are unweighted: they exist for BFS, which reads no weights, and weights
//! would not compress the way sorted ids do. Encoding a weighted [`Graph`] drops its weights
//! ([`CompressedGraph::encode`]).

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{Graph, MAX_VERTICES};

/// The longest varint: 5 bytes of 7 bits hold every value below 2^35.
pub const MAX_VARINT_BYTES: usize = 5;

/// Vertices per parallel work unit when encoding and decoding.
const CHUNK_VERTICES: usize = 1 << 13;

/// Maps a signed value to an unsigned one, small magnitudes to small values:
/// 0 → 0, -1 → 1, 1 → 2, -2 → 3, ...
pub fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// Appends `value` as a LEB128 varint. `value` must be below 2^35 (5 bytes at most); every
/// value the encoder produces is.
pub fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    debug_assert!(value < 1 << 35, "varint value {value} does not fit 5 bytes");
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Why a varint stream could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarintError {
    /// The bytes ended inside a varint (the last byte had its continuation bit set).
    Truncated,
    /// A 5th byte still had its continuation bit set: the varint would need 6 bytes or more.
    Overlong,
}

impl std::fmt::Display for VarintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VarintError::Truncated => f.write_str("the bytes end inside a varint"),
            VarintError::Overlong => write!(f, "a varint runs past {MAX_VARINT_BYTES} bytes"),
        }
    }
}

/// Reads one varint from `bytes[*pos..]` and advances `pos` past it. Never panics: a
/// position at or past the end is a truncated varint.
pub fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, VarintError> {
    let mut value = 0u64;
    for i in 0..MAX_VARINT_BYTES {
        let Some(&byte) = bytes.get(*pos + i) else {
            return Err(VarintError::Truncated);
        };
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            *pos += i + 1;
            return Ok(value);
        }
    }
    Err(VarintError::Overlong)
}

/// Appends the encoding of the neighbor list of `vertex` (strictly increasing) to `out`.
///
/// # Panics
/// If `list` is not strictly increasing, which a [`Graph`] built by the builder or read
/// from a file never has.
pub fn encode_list(vertex: u32, list: &[u32], out: &mut Vec<u8>) {
    let Some((&first, rest)) = list.split_first() else {
        return;
    };
    write_varint(out, zigzag(i64::from(first) - i64::from(vertex)));
    let mut prev = first;
    for &next in rest {
        assert!(next > prev, "the neighbor list of vertex {vertex} is not strictly increasing ({prev} then {next})");
        write_varint(out, u64::from(next - prev - 1));
        prev = next;
    }
}

/// Why one list's bytes do not decode to a valid neighbor list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListError {
    Varint(VarintError),
    /// A decoded neighbor is not a vertex of the graph (negative, or `>= num_vertices`).
    OutOfRange(i64),
}

impl std::fmt::Display for ListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListError::Varint(e) => e.fmt(f),
            ListError::OutOfRange(id) => write!(f, "it decodes to neighbor {id}, which is not a vertex"),
        }
    }
}

/// Decodes the list of `vertex` from exactly `bytes`, calling `emit` per neighbor; checks
/// every id against `num_vertices`. Returns the number of neighbors.
pub fn decode_list(vertex: u32, bytes: &[u8], num_vertices: u64, mut emit: impl FnMut(u32)) -> Result<u64, ListError> {
    let mut pos = 0;
    let mut count = 0u64;
    let mut prev: i64 = -1;
    while pos < bytes.len() {
        let value = read_varint(bytes, &mut pos).map_err(ListError::Varint)?;
        // Every value is below 2^35, so none of these sums can overflow an i64.
        let id = if count == 0 { i64::from(vertex) + unzigzag(value) } else { prev + value as i64 + 1 };
        if id < 0 || id as u64 >= num_vertices {
            return Err(ListError::OutOfRange(id));
        }
        emit(id as u32);
        prev = id;
        count += 1;
    }
    Ok(count)
}

/// A graph whose neighbor lists are delta-varint encoded (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedGraph {
    byte_offsets: Vec<u64>,
    bytes: Vec<u8>,
    num_edges: u64,
    undirected: bool,
    id_base: u32,
}

impl CompressedGraph {
    /// Encodes every neighbor list of `graph`, in parallel chunks of vertices whose buffers
    /// are then concatenated. The graph's weights, if any, are dropped: `decode` gives back
    /// the unweighted graph.
    pub fn encode(graph: &Graph) -> CompressedGraph {
        Self::encode_lists(graph, false)
    }

    /// Encodes `graph` as [`encode`](Self::encode) does, whatever the order of each list: each
    /// is sorted first (a partition's lists over local ids are not in order, since the ghosts'
    /// ids follow the owned vertices'). No list may name a neighbor twice.
    pub fn encode_unordered(graph: &Graph) -> CompressedGraph {
        Self::encode_lists(graph, true)
    }

    /// [`encode`](Self::encode), each list sorted first when `sort`.
    fn encode_lists(graph: &Graph, sort: bool) -> CompressedGraph {
        let n = graph.num_vertices();
        let chunks: Vec<(Vec<u8>, Vec<u64>)> = (0..n.div_ceil(CHUNK_VERTICES))
            .into_par_iter()
            .map(|chunk| {
                let vertices = chunk * CHUNK_VERTICES..((chunk + 1) * CHUNK_VERTICES).min(n);
                let edges = graph.offsets()[vertices.end] - graph.offsets()[vertices.start];
                let mut bytes = Vec::with_capacity(edges as usize + edges as usize / 2);
                let mut ends = Vec::with_capacity(vertices.len());
                let mut sorted = Vec::new();
                for v in vertices {
                    let mut list = graph.neighbors(v as u32);
                    if sort && !list.is_sorted() {
                        sorted.clear();
                        sorted.extend_from_slice(list);
                        sorted.sort_unstable();
                        list = &sorted;
                    }
                    encode_list(v as u32, list, &mut bytes);
                    ends.push(bytes.len() as u64);
                }
                (bytes, ends)
            })
            .collect();
        // The join, in parallel too: each chunk's bytes and offsets go to their own slices of
        // the whole, at the sum of the chunks before it.
        let mut bases = Vec::with_capacity(chunks.len());
        let total = chunks.iter().fold(0usize, |base, (chunk_bytes, _)| {
            bases.push(base);
            base + chunk_bytes.len()
        });
        let mut bytes = vec![0u8; total];
        let mut byte_offsets = vec![0u64; n + 1];
        let byte_pieces = split_by_lengths(&mut bytes, chunks.iter().map(|(chunk_bytes, _)| chunk_bytes.len()));
        let offset_pieces = split_by_lengths(&mut byte_offsets[1..], chunks.iter().map(|(_, ends)| ends.len()));
        chunks.par_iter().zip(bases).zip(byte_pieces).zip(offset_pieces).for_each(
            |((((chunk_bytes, ends), base), to_bytes), to_offsets)| {
                to_bytes.copy_from_slice(chunk_bytes);
                to_offsets.iter_mut().zip(ends).for_each(|(to, end)| *to = base as u64 + end);
            },
        );
        CompressedGraph {
            byte_offsets,
            bytes,
            num_edges: graph.num_edges(),
            undirected: graph.is_undirected(),
            id_base: graph.id_base(),
        }
    }

    /// Assembles a compressed graph from stored parts (a file), checking everything: the
    /// offsets start at 0, never decrease and end at `bytes.len()`; every list decodes (no
    /// truncated or overlong varint, every id a vertex); the lists hold `num_edges` in all.
    /// Errors are [`Error::InvalidArgument`] describing the first problem found.
    pub fn from_parts(
        byte_offsets: Vec<u64>,
        bytes: Vec<u8>,
        num_edges: u64,
        undirected: bool,
        id_base: u32,
    ) -> Result<CompressedGraph> {
        let invalid = |problem: String| Err(Error::InvalidArgument(format!("invalid compressed CSR: {problem}")));
        if byte_offsets.is_empty() {
            return invalid("the byte offsets array is empty (it needs one entry per vertex plus one)".into());
        }
        let n = (byte_offsets.len() - 1) as u64;
        if n > MAX_VERTICES {
            return Err(Error::TooManyVertices { vertices: n });
        }
        if byte_offsets[0] != 0 {
            return invalid(format!("byte_offsets[0] is {}, not 0", byte_offsets[0]));
        }
        if let Some(v) = crate::graph::csr::first_decrease(&byte_offsets) {
            return invalid(format!("byte offsets decrease at vertex {v}"));
        }
        let last = byte_offsets[n as usize];
        if last != bytes.len() as u64 {
            return invalid(format!("the last byte offset is {last} but there are {} bytes", bytes.len()));
        }
        let graph = CompressedGraph { byte_offsets, bytes, num_edges, undirected, id_base };
        let degrees = graph.checked_degrees().map_err(|(v, e)| {
            Error::InvalidArgument(format!("invalid compressed CSR: the neighbor list of vertex {v} is malformed: {e}"))
        })?;
        let total: u64 = degrees.iter().sum();
        if total != num_edges {
            return invalid(format!("the lists hold {total} edges but {num_edges} were declared"));
        }
        Ok(graph)
    }

    /// The degree of every vertex, decoding (and checking) every list in parallel;
    /// on failure the first bad vertex and why.
    fn checked_degrees(&self) -> Result<Vec<u64>, (u32, ListError)> {
        let n = self.num_vertices() as u64;
        (0..self.num_vertices() as u32)
            .into_par_iter()
            .with_min_len(1024)
            .map(|v| decode_list(v, self.list_bytes(v), n, |_| {}).map_err(|e| (v, e)))
            .collect()
    }

    fn list_bytes(&self, v: u32) -> &[u8] {
        let v = v as usize;
        &self.bytes[self.byte_offsets[v] as usize..self.byte_offsets[v + 1] as usize]
    }

    /// The plain CSR graph, decoded in parallel. The lists were checked when this graph
    /// was made, so decoding cannot fail.
    pub fn decode(&self) -> Graph {
        self.decode_into(None)
    }

    /// [`decode`](Self::decode), the plain offsets and targets in `memory` (see
    /// [`HostMemory`](crate::graph::HostMemory)).
    pub fn decode_into(&self, memory: crate::graph::MemoryProvider) -> Graph {
        let n = self.num_vertices();
        // The byte ranges are valid (checked at construction), so the number of varints in
        // a list is the number of its bytes without the continuation bit.
        let degrees: Vec<u64> = (0..n as u32)
            .into_par_iter()
            .with_min_len(1024)
            .map(|v| self.list_bytes(v).iter().filter(|&&b| b & 0x80 == 0).count() as u64)
            .collect();
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u64);
        let mut sum = 0;
        for d in &degrees {
            sum += d;
            offsets.push(sum);
        }
        let mut targets = crate::graph::HostArray::<u32>::zeroed(sum as usize, memory);
        crate::graph::pieces_of_whole_lists(&offsets, &mut targets, CHUNK_VERTICES).into_par_iter().for_each(
            |(vertices, out)| {
                let mut at = 0;
                for v in vertices {
                    for t in self.neighbors(v as u32) {
                        out[at] = t;
                        at += 1;
                    }
                }
            },
        );
        let offsets = crate::graph::HostArray::moved_into(offsets, memory);
        Graph::from_valid_csr(offsets, targets, self.undirected, self.id_base).with_host_memory(memory)
    }

    /// The neighbors of `v`, decoded as they are iterated.
    pub fn neighbors(&self, v: u32) -> Neighbors<'_> {
        Neighbors { vertex: v, bytes: self.list_bytes(v), pos: 0, prev: None }
    }

    pub fn num_vertices(&self) -> usize {
        self.byte_offsets.len() - 1
    }

    /// Directed edges stored, as [`Graph::num_edges`].
    pub fn num_edges(&self) -> u64 {
        self.num_edges
    }

    pub fn is_undirected(&self) -> bool {
        self.undirected
    }

    pub fn id_base(&self) -> u32 {
        self.id_base
    }

    /// Where each list starts in [`bytes`](Self::bytes); `num_vertices + 1` entries.
    pub fn byte_offsets(&self) -> &[u64] {
        &self.byte_offsets
    }

    /// The encoded lists, back to back.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// What this representation takes: the `u64` byte offsets plus the varint bytes.
    pub fn compressed_bytes(&self) -> u64 {
        8 * self.byte_offsets.len() as u64 + self.bytes.len() as u64
    }

    /// Device bytes a placed copy keeps beside its lists, in device memory whatever their
    /// placement (`GpuContext::place_compressed`): the out-degrees, a word a vertex, and about
    /// one restart point (two words) every `RESTART_EDGES` (256) edges.
    pub fn resident_extra_bytes(&self) -> u64 {
        4 * self.num_vertices() as u64 + self.num_edges() / 16
    }

    /// What the plain CSR of the same graph takes: `u64` offsets and `u32` targets,
    /// `8(n+1) + 4m` bytes.
    pub fn raw_bytes(&self) -> u64 {
        8 * self.byte_offsets.len() as u64 + 4 * self.num_edges
    }

    /// The out-degree of every vertex, counted as the varints (bytes with the high bit clear)
    /// of its list: the compressed form does not store degrees.
    pub fn degrees(&self) -> Vec<u32> {
        (0..self.num_vertices())
            .into_par_iter()
            .map(|v| self.list_bytes(v as u32).iter().map(|&b| u32::from(b < 0x80)).sum::<u32>())
            .collect()
    }

    /// Restart points of every list of `min_degree` edges or more, one every `interval`
    /// edges: for a list of `d` edges, points at edges `interval, 2 * interval, ...` below `d`.
    /// `degrees` are the lists' lengths ([`degrees`](Self::degrees), which reads every byte:
    /// a placement needs them too, so it counts them once).
    ///
    /// # Panics
    /// If `interval` is 0, `degrees` is not one a vertex, or the points outnumber `u32::MAX`
    /// (more than 2^32 * `interval` edges).
    pub fn restart_points(&self, degrees: &[u32], min_degree: u64, interval: u64) -> RestartPoints {
        assert!(interval > 0, "restart interval 0");
        assert_eq!(degrees.len(), self.num_vertices(), "one degree a vertex");
        let vertices: Vec<u32> = (0..self.num_vertices() as u32)
            .into_par_iter()
            .filter(|&v| degrees[v as usize] as u64 >= min_degree.max(1))
            .collect();
        let per_vertex: Vec<Vec<u64>> = vertices
            .par_iter()
            .map(|&v| {
                let base = self.byte_offsets[v as usize];
                let bytes = self.list_bytes(v);
                let mut points = Vec::with_capacity(2 * (u64::from(degrees[v as usize]) / interval) as usize);
                let (mut pos, mut previous) = (0usize, None::<u32>);
                // Edges left before the next point (a countdown: a division an edge cost more
                // than the decoding).
                let mut until_point = interval;
                while pos < bytes.len() {
                    if until_point == 0 {
                        points.extend([base + pos as u64, previous.unwrap_or(0) as u64]);
                        until_point = interval;
                    }
                    let value = read_varint(bytes, &mut pos).expect("lists are checked when the graph is made");
                    let id = match previous {
                        None => i64::from(v) + unzigzag(value),
                        Some(prev) => i64::from(prev) + value as i64 + 1,
                    };
                    previous = Some(id as u32);
                    until_point -= 1;
                }
                points
            })
            .collect();
        let mut first = Vec::with_capacity(vertices.len() + 1);
        let mut total = 0u64;
        for points in &per_vertex {
            first.push(u32::try_from(total).expect("more than 2^32 restart points"));
            total += points.len() as u64 / 2;
        }
        first.push(u32::try_from(total).expect("more than 2^32 restart points"));
        RestartPoints { vertices, first, points: per_vertex.concat() }
    }

    /// `compressed_bytes / raw_bytes`: below 1 when compression saves space (1 for an empty graph).
    pub fn ratio(&self) -> f64 {
        self.compressed_bytes() as f64 / self.raw_bytes() as f64
    }
}

/// Points where a long compressed list can be decoded from the middle: the GPU cuts each
/// long list into pieces there, so that many warps decode one list at once
/// ([`CompressedGraph::restart_points`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RestartPoints {
    /// The vertices whose lists have points, ascending.
    pub vertices: Vec<u32>,
    /// Per vertex of `vertices`, the index of its first point; one more entry at the end.
    pub first: Vec<u32>,
    /// Two words per point: the byte offset (into [`CompressedGraph::bytes`]) of the varint
    /// that starts a piece, and the neighbor just before it.
    pub points: Vec<u64>,
}

/// Iterator over one compressed neighbor list ([`CompressedGraph::neighbors`]). The graph's
/// lists are checked when it is made; were the bytes malformed anyway, the iterator would
/// stop early rather than panic.
#[derive(Clone, Debug)]
pub struct Neighbors<'a> {
    vertex: u32,
    bytes: &'a [u8],
    pos: usize,
    prev: Option<u32>,
}

impl Iterator for Neighbors<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let Ok(value) = read_varint(self.bytes, &mut self.pos) else {
            self.pos = self.bytes.len();
            return None;
        };
        let id = match self.prev {
            None => i64::from(self.vertex) + unzigzag(value),
            Some(prev) => i64::from(prev) + value as i64 + 1,
        };
        let Ok(id) = u32::try_from(id) else {
            self.pos = self.bytes.len();
            return None;
        };
        self.prev = Some(id);
        Some(id)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.bytes.len() - self.pos;
        (left.div_ceil(MAX_VARINT_BYTES), Some(left))
    }
}

impl std::iter::FusedIterator for Neighbors<'_> {}

/// `whole` cut into consecutive slices of `lengths` (which add up to at most its length).
fn split_by_lengths<T>(mut whole: &mut [T], lengths: impl Iterator<Item = usize>) -> Vec<&mut [T]> {
    lengths
        .map(|length| {
            let (head, tail) = std::mem::take(&mut whole).split_at_mut(length);
            whole = tail;
            head
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    /// The parallel join gives what encoding every list in turn into one buffer gives: no
    /// chunk, one, a ragged last one, many (R-MAT lists, empty ones among them).
    #[test]
    fn encoding_equals_the_sequential_encoding() {
        let empty = GraphBuilder::new().build(EdgeList::new(0, Vec::new(), true)).unwrap();
        let kron = |scale: u32| crate::generate::generate(&format!("kron:{scale}").parse().unwrap(), 3).unwrap();
        for graph in [empty, kron(4), kron(13), kron(15)] {
            let (mut bytes, mut byte_offsets) = (Vec::new(), vec![0u64]);
            for v in 0..graph.num_vertices() as u32 {
                encode_list(v, graph.neighbors(v), &mut bytes);
                byte_offsets.push(bytes.len() as u64);
            }
            let compressed = CompressedGraph::encode(&graph);
            let n = graph.num_vertices();
            assert_eq!(
                (compressed.bytes(), compressed.byte_offsets()),
                (&bytes[..], &byte_offsets[..]),
                "{n} vertices"
            );
            assert_eq!(compressed.decode(), graph);
        }
        let ragged = EdgeList::new(3 * CHUNK_VERTICES as u64 + 5, vec![(1, 2)], true);
        let ragged = GraphBuilder::new().build(ragged).unwrap();
        let compressed = CompressedGraph::encode(&ragged);
        assert_eq!(compressed.byte_offsets().len(), 3 * CHUNK_VERTICES + 6);
        assert_eq!(compressed.decode(), ragged);
    }

    /// Lists out of order (a partition's local ids) encode as their sorted selves.
    #[test]
    fn unordered_lists_encode_sorted() {
        let graph = crate::generate::generate(&"kron:10".parse().unwrap(), 5).unwrap();
        let mut reversed = graph.targets().to_vec();
        for v in 0..graph.num_vertices() {
            reversed[graph.offsets()[v] as usize..graph.offsets()[v + 1] as usize].reverse();
        }
        let unordered = Graph::from_csr(graph.offsets().to_vec(), reversed, false, 0).unwrap();
        assert!((0..graph.num_vertices() as u32).any(|v| !unordered.neighbors(v).is_sorted()));
        let compressed = CompressedGraph::encode_unordered(&unordered);
        assert_eq!(compressed.bytes(), CompressedGraph::encode(&graph).bytes());
    }

    #[test]
    fn restart_points_resume_decoding_mid_list() {
        // Vertex 0 has every other vertex as neighbor; vertex 5 has 40; the rest fewer.
        let n = 3000u32;
        let mut edges: Vec<(u32, u32)> = (1..n).map(|v| (0, v)).collect();
        edges.extend((0..40).map(|k| (5, 100 + 7 * k)));
        let graph = GraphBuilder::new().build(EdgeList::new(n as u64, edges, true)).unwrap();
        let compressed = CompressedGraph::encode(&graph);
        let degrees = compressed.degrees();
        assert!(degrees.iter().enumerate().all(|(v, &d)| d as u64 == graph.degree(v as u32)));
        let restarts = compressed.restart_points(&compressed.degrees(), 32, 16);
        let long: Vec<u32> = (0..n).filter(|&v| graph.degree(v) >= 32).collect();
        assert_eq!(restarts.vertices, long);
        for (i, &v) in restarts.vertices.iter().enumerate() {
            let list = graph.neighbors(v);
            let points = restarts.first[i]..restarts.first[i + 1];
            assert_eq!(points.len(), (list.len() - 1) / 16, "points of vertex {v}");
            for (j, point) in points.enumerate() {
                let (byte, previous) = (restarts.points[2 * point as usize], restarts.points[2 * point as usize + 1]);
                let edge = 16 * (j + 1);
                assert_eq!(previous, list[edge - 1] as u64, "vertex {v}, point {j}");
                // Decoding from the point gives the rest of the list.
                let mut pos = byte as usize;
                let end = compressed.byte_offsets()[v as usize + 1] as usize;
                let mut prev = previous as i64;
                let mut rest = Vec::new();
                while pos < end {
                    prev += read_varint(compressed.bytes(), &mut pos).unwrap() as i64 + 1;
                    rest.push(prev as u32);
                }
                assert_eq!(rest, &list[edge..], "vertex {v}, point {j}");
            }
        }
    }

    fn varint_bytes(value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        write_varint(&mut out, value);
        out
    }

    #[test]
    fn zigzag_maps_small_magnitudes_to_small_values() {
        assert_eq!([0, -1, 1, -2, 2].map(zigzag), [0, 1, 2, 3, 4]);
        let extremes = [u32::MAX as i64, -(u32::MAX as i64), u32::MAX as i64 - 1, -(u32::MAX as i64) + 1];
        for x in extremes {
            assert_eq!(unzigzag(zigzag(x)), x);
            assert!(zigzag(x) < 1 << 33, "{x}");
        }
    }

    #[test]
    fn varint_lengths_and_round_trip() {
        for (value, len) in [(0u64, 1), (127, 1), (128, 2), (16383, 2), (16384, 3), (u32::MAX as u64, 5)] {
            let bytes = varint_bytes(value);
            assert_eq!(bytes.len(), len, "{value}");
            let mut pos = 0;
            assert_eq!(read_varint(&bytes, &mut pos), Ok(value));
            assert_eq!(pos, len);
        }
        let biggest = (1u64 << 35) - 1;
        assert_eq!(varint_bytes(biggest), [0xff, 0xff, 0xff, 0xff, 0x7f]);
        assert_eq!(read_varint(&varint_bytes(biggest), &mut 0), Ok(biggest));
    }

    #[test]
    fn malformed_varints_are_errors() {
        assert_eq!(read_varint(&[], &mut 0), Err(VarintError::Truncated));
        assert_eq!(read_varint(&[0x80, 0x80], &mut 0), Err(VarintError::Truncated));
        assert_eq!(read_varint(&[0x80; 6], &mut 0), Err(VarintError::Overlong));
        assert_eq!(read_varint(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01], &mut 0), Err(VarintError::Overlong));
    }

    #[test]
    fn lists_encode_as_documented() {
        // Vertex 5: first neighbor 3 (difference -2, zigzag 3), then 4 (gap 1, stored 0),
        // then 200 (gap 196, stored 195 = 0xc3 0x01).
        let mut out = Vec::new();
        encode_list(5, &[3, 4, 200], &mut out);
        assert_eq!(out, [3, 0, 0xc3, 0x01]);
        let mut back = Vec::new();
        assert_eq!(decode_list(5, &out, 201, |t| back.push(t)), Ok(3));
        assert_eq!(back, [3, 4, 200]);
        assert_eq!(decode_list(5, &out, 200, |_| {}), Err(ListError::OutOfRange(200)));
    }

    #[test]
    fn graph_round_trips_with_empty_lists() {
        let list = EdgeList::new(6, vec![(0, 5), (0, 1), (2, 4), (3, 0)], false);
        let g = GraphBuilder::new().build(list).unwrap();
        let c = CompressedGraph::encode(&g);
        assert_eq!(c.decode(), g);
        assert_eq!(c.neighbors(0).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(c.neighbors(5).count(), 0);
        assert_eq!(c.raw_bytes(), 8 * 7 + 4 * 4);
        assert_eq!(c.compressed_bytes(), 8 * 7 + c.bytes().len() as u64);
        assert_eq!(c.bytes().len(), 4);
        let parts = c.clone();
        let again = CompressedGraph::from_parts(parts.byte_offsets, parts.bytes, 4, false, 0).unwrap();
        assert_eq!(again, c);
    }

    #[test]
    #[should_panic(expected = "not strictly increasing")]
    fn unsorted_lists_are_refused_by_the_encoder() {
        encode_list(0, &[3, 2], &mut Vec::new());
    }
}
