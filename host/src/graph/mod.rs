//! The in-memory graph: compressed sparse row (CSR) adjacency with `u64` row offsets and
//! `u32` vertex ids, the builder that makes one from an edge list, and its delta-varint
//! compressed form ([`CompressedGraph`]); optional edge weights ([`Weights`]).

pub(crate) mod bitmap;
mod builder;
pub mod compressed;
mod csr;
pub mod heads;
pub mod host_array;
pub mod weights;

pub(crate) use builder::Weight;
pub use builder::{EdgeList, GraphBuilder};
pub use compressed::CompressedGraph;
pub(crate) use csr::first_decrease;
pub use csr::Graph;
pub use heads::ListHeads;
pub use host_array::{HostArray, HostBlock, HostMemory, MemoryProvider};
pub use weights::{WeightKind, WeightRange, WeightSlice, WeightValues, Weights};

/// The largest vertex count warpath accepts. `u32::MAX` itself is reserved as the
/// "unreached" / "no parent" marker in BFS results, so ids run `0..MAX_VERTICES`.
pub const MAX_VERTICES: u64 = u32::MAX as u64;

/// Marks an unreached vertex in distance and parent arrays.
pub const UNREACHED: u32 = u32::MAX;

/// A graph's vertices, ids and out-degrees from its CSR offsets and id base alone: what
/// choosing and checking a BFS source needs, of a graph held whole ([`Graph::degrees`]) or by a
/// process that read only some of its lists (`formats::wgr::WgrRows`).
#[derive(Clone, Copy, Debug)]
pub struct Degrees<'a> {
    offsets: &'a [u64],
    id_base: u32,
}

impl<'a> Degrees<'a> {
    /// `offsets` has one entry a vertex and one after the last (never empty).
    pub fn new(offsets: &'a [u64], id_base: u32) -> Degrees<'a> {
        assert!(!offsets.is_empty(), "CSR offsets hold at least the one after the last vertex");
        Degrees { offsets, id_base }
    }

    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn num_edges(&self) -> u64 {
        self.offsets[self.num_vertices()]
    }

    pub fn degree(&self, v: u32) -> u64 {
        self.offsets[v as usize + 1] - self.offsets[v as usize]
    }

    /// The internal id of the id the user's file used, if it names a vertex.
    pub fn internal_id(&self, external: u64) -> Option<u32> {
        let internal = external.checked_sub(self.id_base as u64)?;
        (internal < self.num_vertices() as u64).then_some(internal as u32)
    }

    /// The id the user's file used for internal id `internal`.
    pub fn external_id(&self, internal: u32) -> u64 {
        internal as u64 + self.id_base as u64
    }

    /// Why a vertex id outside the graph is refused, in the ids the user's file used:
    /// `is out of range: the graph has N vertices (ids A..=B)`, or `... has no vertices`.
    pub fn out_of_range(&self) -> String {
        match self.num_vertices() {
            0 => "is out of range: the graph has no vertices".to_string(),
            n => format!(
                "is out of range: the graph has {n} vertices (ids {}..={})",
                self.external_id(0),
                self.external_id((n - 1) as u32)
            ),
        }
    }
}

/// The vertices whose list is empty, from CSR offsets (edge or byte offsets alike: an empty
/// list takes no bytes either): bit `v % 32` of word `v / 32`, `ceil(n / 32)` words, the bits
/// past the last vertex clear. Of in-lists, these are the vertices no BFS reaches but from
/// themselves, which the GPU's bottom-up levels skip.
pub fn empty_list_bits(offsets: &[u64]) -> Vec<u32> {
    use rayon::prelude::*;
    let n = offsets.len().saturating_sub(1);
    let mut words = vec![0u32; n.div_ceil(32)];
    words.par_iter_mut().enumerate().with_min_len(1024).for_each(|(w, word)| {
        for v in 32 * w..(32 * w + 32).min(n) {
            if offsets[v] == offsets[v + 1] {
                *word |= 1 << (v % 32);
            }
        }
    });
    words
}

/// `per_edge` (one entry per edge, in list order) cut into pieces of whole lists of up to
/// `vertices_per_piece` vertices each, with the vertices each piece covers: for filling a
/// per-edge array in parallel, every piece knowing the source of each of its edges.
pub(crate) fn pieces_of_whole_lists<'a, T>(
    offsets: &[u64],
    per_edge: &'a mut [T],
    vertices_per_piece: usize,
) -> Vec<(std::ops::Range<usize>, &'a mut [T])> {
    let n = offsets.len().saturating_sub(1);
    let mut pieces = Vec::with_capacity(n.div_ceil(vertices_per_piece));
    let mut rest = per_edge;
    for start in (0..n).step_by(vertices_per_piece) {
        let end = (start + vertices_per_piece).min(n);
        let (head, tail) = rest.split_at_mut((offsets[end] - offsets[start]) as usize);
        pieces.push((start..end, head));
        rest = tail;
    }
    pieces
}

/// Items a task of the CSR checks reads at once. The checks fold whole chunks without stopping
/// early, which the compiler turns into vector instructions; rayon's `find_first` over items
/// reads a shared flag at every item, and made the checks most of a partition's cut. Arrays of
/// one chunk or less are checked on the calling thread: no task is worth its start there, and a
/// small graph never starts rayon's threads for them (a fuzz target's leak check counts the
/// threads' first allocations as the input's).
pub(crate) const CHECK_CHUNK: usize = 1 << 16;

/// The index of the first of `items` that `bad` holds for, if any, on all cores: chunks of
/// [`CHECK_CHUNK`] items, each judged whole by `chunk_bad` (which folds without stopping early,
/// so that it vectorizes, and holds where `bad` holds for an item), then the first failing
/// chunk searched item by item.
pub(crate) fn first_where<T: Sync>(
    items: &[T],
    chunk_bad: impl Fn(&[T]) -> bool + Sync,
    bad: impl Fn(&T) -> bool,
) -> Option<usize> {
    use rayon::prelude::*;
    if items.len() <= CHECK_CHUNK {
        return items.iter().position(bad);
    }
    let (c, _) = items.par_chunks(CHECK_CHUNK).enumerate().find_first(|&(_, chunk)| chunk_bad(chunk))?;
    items[c * CHECK_CHUNK..].iter().position(bad).map(|i| c * CHECK_CHUNK + i)
}

/// How much longer than the average list (of the vertices with edges) the longest one is on a
/// skewed graph: Kronecker and social graphs thousands of times, uniform random graphs, meshes
/// and roads a few times.
pub const SKEWED_FROM_DEGREE_RATIO: f64 = 64.0;

/// Whether a graph of `edges` list entries over `with_edges` non-empty lists, the longest
/// `max_degree` long, is skewed ([`SKEWED_FROM_DEGREE_RATIO`]): the GPU's rule for near-far's
/// bucket width takes it.
pub fn is_skewed(max_degree: u64, edges: u64, with_edges: u64) -> bool {
    let degree = (edges as f64 / with_edges.max(1) as f64).max(1.0);
    max_degree as f64 >= SKEWED_FROM_DEGREE_RATIO * degree
}

/// How many lists are not empty, from CSR offsets (edge or byte offsets alike).
pub fn nonempty_lists(offsets: &[u64]) -> u32 {
    offsets.windows(2).filter(|w| w[0] != w[1]).count() as u32
}

#[cfg(test)]
mod tests {
    /// The error says the limit in its own words (the bottom room imports no graph constant).
    #[test]
    fn too_many_vertices_names_the_limit() {
        let message = crate::Error::TooManyVertices { vertices: super::MAX_VERTICES + 1 }.to_string();
        assert!(message.ends_with(&format!("at most {}", super::MAX_VERTICES)), "{message}");
    }

    #[test]
    fn skew_is_the_longest_list_against_the_average() {
        // kron:22: 4.2M vertices, 2.4M of them with edges, lists up to about 2^18.
        assert!(super::is_skewed(1 << 18, 128_303_788, 2_400_000));
        // urand:22: every list about 32 long, the longest about twice that.
        assert!(!super::is_skewed(70, 134_217_728, 4_194_304));
        // No edges: not skewed.
        assert!(!super::is_skewed(0, 0, 0));
    }

    #[test]
    fn empty_list_bits_mark_exactly_the_empty_lists() {
        // 35 vertices: lists of vertices 0, 3, 31, 32 and 34 are empty.
        let mut offsets = vec![0u64];
        for v in 0..35u64 {
            let degree = if [0, 3, 31, 32, 34].contains(&v) { 0 } else { 1 + v % 3 };
            offsets.push(offsets.last().unwrap() + degree);
        }
        let bits = super::empty_list_bits(&offsets);
        assert_eq!(bits, vec![1 | 1 << 3 | 1 << 31, 1 | 1 << 2]);
        assert_eq!(super::empty_list_bits(&[0]), Vec::<u32>::new());
    }
}
