//! 1D partitioning by vertex ranges: part `p` owns the vertices `first..first + owned`, their
//! out-lists and, on a directed graph, their in-lists (for bottom-up levels). The ranges are
//! cut where the edges divide evenly, at multiples of 64 vertices so that each part's share of
//! a frontier bitmap is whole words. (Merrill et al., section 6, stripe ownership instead,
//! vertex `v` on GPU `v mod p`; ranges keep each part's lists one contiguous piece of the CSR,
//! which is what a process loading only its own part reads.)
//!
//! Each part's lists form a [`Graph`] of its own, usable by the single-GPU machinery
//! (`engine::prepare`): local ids `0..owned` are the owned vertices, in order; the neighbors
//! they name outside the range become ghost vertices `owned..`, with empty lists, numbered in
//! the order of their global ids.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::bitmap::Bitmap;
use crate::graph::Graph;

/// A graph cut into parts, one per rank.
#[derive(Clone, Debug)]
pub struct Partition {
    /// `parts + 1` vertex ids: part `p` owns `bounds[p]..bounds[p + 1]`.
    pub bounds: Vec<u32>,
    pub parts: Vec<Part>,
}

/// What one rank owns, with what every rank needs to know of the whole graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub rank: usize,
    /// The first owned vertex (global id); owned vertices are `first..first + owned`.
    pub first: u32,
    pub owned: u32,
    /// Out-lists of the owned vertices.
    pub out_lists: LocalGraph,
    /// In-lists of the owned vertices, on a directed graph (an undirected graph's out-lists are
    /// its in-lists).
    pub in_lists: Option<LocalGraph>,
    /// Every part's range, as in [`Partition::bounds`].
    pub bounds: Vec<u32>,
    pub global: GlobalSizes,
    /// This part's pieces of the hubs' out-lists, when the partition has delegates
    /// ([`Partition::delegate_hubs`]).
    pub hubs: Option<Hubs>,
    /// Where the part sits on a grid of ranks, for a part of a 2D partition
    /// ([`partition_2d`](super::partition_2d::partition_2d)): its lists are then its block of
    /// the adjacency matrix, its ghosts whole vertex blocks of its processor row and column.
    pub grid: Option<GridPlace>,
}

/// Vertex delegates (Pearce, Gokhale and Amato, SC 2014): the graph's hubs, every vertex of
/// out-degree [`degree`](Self::degree) or more, and one part's piece of each hub's out-list,
/// the targets the part owns. A top-down level whose frontier holds a hub expands it on every
/// rank, each from its own piece, instead of on the hub's owner alone: the hub's edges are
/// spread over the ranks by their targets and none becomes a pair sent to another rank
/// (docs/multi-gpu.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hubs {
    /// Out-degree from which a vertex is a hub.
    pub degree: u64,
    /// The hubs' global ids, ascending; the same on every part.
    pub globals: Vec<u32>,
    /// Hub `i`'s piece is `targets[offsets[i]..offsets[i + 1]]`: local ids of owned vertices.
    pub offsets: Vec<u64>,
    pub targets: Vec<u32>,
}

impl Hubs {
    /// The hub indices of the vertices `first..first + owned` (the hubs are in id order).
    pub fn owned_range(&self, first: u32, owned: u32) -> std::ops::Range<usize> {
        let start = self.globals.partition_point(|&h| h < first);
        start..start + self.globals[start..].partition_point(|&h| h - first < owned)
    }

    /// The hub index of global vertex `v`, if it is a hub.
    pub fn index_of(&self, v: u32) -> Option<usize> {
        self.globals.binary_search(&v).ok()
    }
}

/// What the switching rule needs of the whole graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalSizes {
    pub vertices: u64,
    pub edges: u64,
    /// Vertices with at least one in-edge (a bottom-up pass's candidates).
    pub with_in_edges: u64,
}

/// A part's lists as a [`Graph`] over local ids, and the maps between local and global ids.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalGraph {
    pub graph: Graph,
    first: u32,
    owned: u32,
    /// Global ids of the ghosts, ascending: local id `owned + i` is `ghosts[i]`.
    ghosts: Vec<u32>,
    /// The part owning each ghost.
    ghost_owners: Vec<u32>,
}

impl LocalGraph {
    /// Lists over local ids: `0..owned` the vertices `first..first + owned`, then the ghosts
    /// `ghosts` (ascending global ids), each owned by the part in `ghost_owners`.
    pub(crate) fn new(graph: Graph, first: u32, owned: u32, ghosts: Vec<u32>, ghost_owners: Vec<u32>) -> LocalGraph {
        debug_assert!(ghosts.windows(2).all(|w| w[0] < w[1]) && ghosts.len() == ghost_owners.len());
        LocalGraph { graph, first, owned, ghosts, ghost_owners }
    }

    /// The global id of local vertex `local`.
    #[inline]
    pub fn global_of(&self, local: u32) -> u32 {
        if local < self.owned {
            self.first + local
        } else {
            self.ghosts[(local - self.owned) as usize]
        }
    }

    /// The local id of global vertex `global`, if this part owns it or names it as a ghost.
    pub fn local_of(&self, global: u32) -> Option<u32> {
        if global.wrapping_sub(self.first) < self.owned {
            return Some(global - self.first);
        }
        self.ghosts.binary_search(&global).ok().map(|i| self.owned + i as u32)
    }

    pub fn ghosts(&self) -> &[u32] {
        &self.ghosts
    }

    /// The part that owns ghost `ghost` (an index into [`ghosts`](Self::ghosts)).
    #[inline]
    pub fn ghost_owner(&self, ghost: usize) -> usize {
        self.ghost_owners[ghost] as usize
    }
}

impl Part {
    /// The part owning global vertex `v`.
    pub fn owner_of(&self, v: u32) -> usize {
        owner_in(&self.bounds, v)
    }

    /// Whether this part owns global vertex `v`.
    pub fn owns(&self, v: u32) -> bool {
        v.wrapping_sub(self.first) < self.owned
    }

    /// The lists bottom-up levels search: the in-lists, which for an undirected graph are the
    /// out-lists.
    pub fn in_lists(&self) -> &LocalGraph {
        self.in_lists.as_ref().unwrap_or(&self.out_lists)
    }

    /// Where each rank's ghosts start among the out-lists' ghosts (`world + 1` indices, the
    /// last the ghost count): ghosts ascend by global id and parts are ranges, so each rank's
    /// ghosts are one stretch.
    pub fn ghost_starts(&self) -> Vec<usize> {
        let ghosts = self.out_lists.ghosts();
        self.bounds.iter().map(|&start| ghosts.partition_point(|&g| g < start)).collect()
    }

    /// Every rank's `mine` (one word an owned vertex, in order), through an all-gather of
    /// shares padded to the widest part: the words of all vertices, in global order, on every
    /// rank (for one process per GPU, where no rank sees the others' memory).
    pub fn gather_owned<C: crate::multi::Communicator>(&self, comm: &mut C, mine: &[u64]) -> Result<Vec<u64>> {
        let widest = self.bounds.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0);
        let mut share = vec![u64::MAX; widest];
        share[..mine.len()].copy_from_slice(mine);
        let mut all = vec![0u64; widest * comm.world_size()];
        comm.all_gather(&share, &mut all)?;
        let mut words = Vec::with_capacity(self.global.vertices as usize);
        for (p, share) in all.chunks(widest.max(1)).enumerate().take(comm.world_size()) {
            words.extend_from_slice(&share[..(self.bounds[p + 1] - self.bounds[p]) as usize]);
        }
        Ok(words)
    }

    /// An error unless a communicator of `world` ranks runs this partition, one rank a part.
    pub fn check_world(&self, world: usize) -> Result<()> {
        let parts = self.bounds.len() - 1;
        if world != parts {
            return Err(Error::InvalidArgument(format!(
                "the graph has {parts} parts but the communicator {world} ranks"
            )));
        }
        Ok(())
    }

    /// Words of the largest part's share of a frontier bitmap: what each rank contributes to
    /// the all-gather (NCCL gathers equal shares).
    pub fn bitmap_words_per_part(&self) -> usize {
        self.bounds.windows(2).map(|w| (w[1] - w[0]).div_ceil(64) as usize).max().unwrap_or(0)
    }
}

/// The part whose range in `bounds` holds vertex `v` (shared with the 2D partition's vertex
/// blocks).
pub(crate) fn owner_in(bounds: &[u32], v: u32) -> usize {
    // The last part whose range starts at or before v; empty parts share a start with the next.
    bounds[1..].partition_point(|&end| end <= v)
}

/// Cuts `graph` into `parts` vertex ranges of about equal edges (out-lists, plus in-lists on a
/// directed graph, plus one per vertex so that edgeless stretches are shared too), each
/// starting at a multiple of 64. `transpose` is `graph.transpose()` for a directed graph
/// (made here when `None`); an undirected graph needs none. Parts past the last vertex are
/// empty.
pub fn partition_1d(graph: &Graph, transpose: Option<&Graph>, parts: usize) -> Result<Partition> {
    let made;
    let transpose = match (graph.is_undirected(), transpose) {
        (true, _) => None,
        (false, Some(t)) => Some(t),
        (false, None) => {
            made = graph.transpose();
            Some(&made)
        }
    };
    let bounds = bounds_1d(graph.offsets(), transpose.map(Graph::offsets), parts)?;
    let global = global_sizes(graph);
    let parts = (0..parts)
        .into_par_iter()
        .map(|rank| part_1d(graph, transpose, &bounds, rank, global))
        .collect::<Result<Vec<_>>>()?;
    Ok(Partition { bounds, parts })
}

/// [`partition_1d`]'s ranges from the graph's `offsets` (and a directed graph's transpose's,
/// made by the caller).
pub(crate) fn bounds_1d(offsets: &[u64], transpose: Option<&[u64]>, parts: usize) -> Result<Vec<u32>> {
    if parts == 0 {
        return Err(Error::InvalidArgument("the graph needs at least one part".into()));
    }
    Ok(balanced_bounds(offsets, transpose, parts))
}

/// What the switching rule needs of `graph` whole.
pub(crate) fn global_sizes(graph: &Graph) -> GlobalSizes {
    GlobalSizes {
        vertices: graph.num_vertices() as u64,
        edges: graph.num_edges(),
        with_in_edges: graph.vertices_with_in_edges(),
    }
}

/// Rank `rank`'s part of [`partition_1d`], cut from `graph` (and a directed graph's
/// `transpose`) by `bounds`, with `graph`'s [`global_sizes`]; no hubs yet.
pub(crate) fn part_1d(
    graph: &Graph,
    transpose: Option<&Graph>,
    bounds: &[u32],
    rank: usize,
    global: GlobalSizes,
) -> Result<Part> {
    let (first, end) = (bounds[rank], bounds[rank + 1]);
    Ok(Part {
        rank,
        first,
        owned: end - first,
        out_lists: graph_lists(graph, bounds, rank)?,
        in_lists: transpose.map(|t| graph_lists(t, bounds, rank)).transpose()?,
        bounds: bounds.to_vec(),
        global,
        hubs: None,
        grid: None,
    })
}

/// Which vertices a 1D partition delegates ([`Partition::delegate_hubs`]): the rule's hubs
/// ([`hub_degree`]), every vertex of a given out-degree or more, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Delegation {
    #[default]
    Auto,
    Degree(u64),
    Off,
}

impl Delegation {
    /// The out-degree from which a vertex of `graph` cut into `parts` is a hub, if any is.
    pub fn degree(self, graph: &Graph, parts: usize) -> Option<u64> {
        self.degree_in(graph.offsets(), parts)
    }

    /// [`degree`](Self::degree), from the graph's offsets alone.
    pub(crate) fn degree_in(self, offsets: &[u64], parts: usize) -> Option<u64> {
        match self {
            Delegation::Auto => hub_degree_in(offsets, parts),
            Delegation::Degree(degree) => Some(degree),
            Delegation::Off => None,
        }
    }
}

/// At most this share of the vertices are hubs under [`hub_degree`]'s rule (one in 1,024).
const HUB_SHARE: u64 = 1024;

/// The hub degree a partition into `parts` ranks delegates by default: the smallest power of
/// two at which at most one vertex in 1,024 (`HUB_SHARE`) is a hub, and at least 32 edges a
/// rank (a warp's worth: a shorter piece is not worth a hub's bookkeeping); `None` for one
/// part, which has nobody to delegate to, or a graph without such hubs. On Kronecker graphs one
/// vertex in 1,024 holds about a quarter of the edges (kron:22 17%, kron:24 27%), which is the
/// memory the pieces add.
pub fn hub_degree(graph: &Graph, parts: usize) -> Option<u64> {
    hub_degree_in(graph.offsets(), parts)
}

/// [`hub_degree`] from the graph's offsets alone.
fn hub_degree_in(offsets: &[u64], parts: usize) -> Option<u64> {
    if parts < 2 {
        return None;
    }
    // Vertices by the power of two of their out-degree.
    let histogram = offsets
        .par_windows(2)
        .fold(
            || [0u64; 65],
            |mut counts, list| {
                counts[64 - (list[1] - list[0]).leading_zeros() as usize] += 1;
                counts
            },
        )
        .reduce(|| [0u64; 65], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let allowed = (offsets.len() as u64).saturating_sub(1) / HUB_SHARE;
    let floor = (32 * parts as u64).next_power_of_two();
    // Bucket b holds degrees in 2^(b-1)..2^b; at or above 2^k are the buckets from k + 1 on.
    let mut at_least = 0u64;
    let mut degree = None;
    for k in (0..64).rev() {
        at_least += histogram[k + 1];
        if at_least > allowed || 1u64 << k < floor {
            break;
        }
        if at_least > 0 {
            degree = Some(1u64 << k);
        }
    }
    degree
}

impl Partition {
    /// The grid of ranks of a 2D partition; `None` for vertex ranges.
    pub fn grid(&self) -> Option<Grid> {
        self.parts.first().and_then(|part| part.grid.as_ref()).map(|place| place.grid)
    }

    /// Gives every part its pieces of the out-lists of `graph`'s vertices of out-degree
    /// `degree` or more ([`Hubs`]; `graph` is the one cut). Nothing for one part or no hub.
    pub fn delegate_hubs(&mut self, graph: &Graph, degree: u64) {
        let Some(globals) = delegated_hubs(graph.offsets(), self.parts.len(), degree) else { return };
        self.parts.par_iter_mut().for_each(|part| part.hubs = Some(Hubs::pieces(graph, degree, &globals, part)));
    }
}

/// The hubs of the graph of `offsets` cut into `ranks` parts, the vertices of out-degree
/// `degree` or more, ascending ([`Partition::delegate_hubs`]); `None` for one part, which has
/// nobody to delegate to, or where no vertex is a hub.
pub(crate) fn delegated_hubs(offsets: &[u64], ranks: usize, degree: u64) -> Option<Vec<u32>> {
    if ranks < 2 {
        return None;
    }
    let globals: Vec<u32> = offsets
        .par_windows(2)
        .enumerate()
        .filter(|(_, list)| list[1] - list[0] >= degree)
        .map(|(v, _)| v as u32)
        .collect();
    (!globals.is_empty()).then_some(globals)
}

impl Hubs {
    /// `part`'s pieces of the out-lists of the hubs `globals` (of out-degree `degree` or more)
    /// in `graph`: the targets it owns, as local ids.
    pub(crate) fn pieces(graph: &Graph, degree: u64, globals: &[u32], part: &Part) -> Hubs {
        let (first, owned) = (part.first, part.owned);
        let pieces = globals
            .par_iter()
            .map(|&h| {
                graph.neighbors(h).iter().filter(|&&t| t.wrapping_sub(first) < owned).map(|&t| t - first).collect()
            })
            .collect();
        Hubs::of_pieces(degree, globals, pieces)
    }

    /// The hubs `globals` (of out-degree `degree` or more) with a part's piece of each one's
    /// out-list, `pieces[i]` hub `i`'s targets the part owns as local ids: from the lists in
    /// memory ([`pieces`](Self::pieces)) or read from a file
    /// ([`WgrRows::pieces_of`](crate::formats::wgr::WgrRows::pieces_of)).
    pub(crate) fn of_pieces(degree: u64, globals: &[u32], pieces: Vec<Vec<u32>>) -> Hubs {
        assert_eq!(pieces.len(), globals.len(), "a piece a hub");
        let offsets = std::iter::once(0)
            .chain(pieces.iter().scan(0u64, |at, piece| {
                *at += piece.len() as u64;
                Some(*at)
            }))
            .collect();
        Hubs { degree, globals: globals.to_vec(), offsets, targets: pieces.concat() }
    }
}

/// The cuts: the vertex where the running cost first reaches `p / parts` of the total, rounded
/// to a multiple of 64 (the last bound is the vertex count), or equal ranges where they are
/// about as balanced ([`equal_if_balanced`]). The 2D partition cuts its vertex blocks with it
/// too.
pub(crate) fn balanced_bounds(offsets: &[u64], transpose: Option<&[u64]>, parts: usize) -> Vec<u32> {
    equal_if_balanced(offsets, transpose, edge_balanced_bounds(offsets, transpose, parts))
}

/// What a cut weighs the vertices before `v` by: their edges (`offsets`, and a directed
/// graph's `transpose`'s), both directions, and themselves.
fn cost_before(offsets: &[u64], transpose: Option<&[u64]>, v: usize) -> u64 {
    offsets[v] + transpose.map_or(0, |t| t[v]) + v as u64
}

fn edge_balanced_bounds(offsets: &[u64], transpose: Option<&[u64]>, parts: usize) -> Vec<u32> {
    let n = offsets.len() - 1;
    let cost_before = |v: usize| cost_before(offsets, transpose, v);
    let total = cost_before(n);
    let mut bounds = vec![0u32];
    for p in 1..parts {
        let target = (total as u128 * p as u128 / parts as u128) as u64;
        let (mut cut, mut above) = (0, n);
        while cut < above {
            let mid = (cut + above) / 2;
            if cost_before(mid) < target {
                cut = mid + 1;
            } else {
                above = mid;
            }
        }
        let aligned = (cut.div_ceil(64) * 64).min(n) as u32;
        bounds.push(aligned.max(*bounds.last().unwrap()));
    }
    bounds.push(n as u32);
    bounds
}

/// Vertex ranges of equal length (a multiple of 64; the last part takes the rest) instead of
/// `balanced` when their heaviest part costs at most 1% of an even share more than the
/// balanced cut's heaviest, as on a graph whose ids are shuffled (Graph500's Kronecker
/// graphs). Equal ranges make every part's share of a frontier bitmap the same words, so the
/// shares all-gathered in rank order are the global bitmap as they land: a GPU rank's
/// bottom-up level then lays nothing out after its gather.
fn equal_if_balanced(offsets: &[u64], transpose: Option<&[u64]>, balanced: Vec<u32>) -> Vec<u32> {
    let n = offsets.len() - 1;
    let parts = balanced.len() - 1;
    let cost_before = |v: u32| cost_before(offsets, transpose, v as usize);
    let heaviest = |bounds: &[u32]| bounds.windows(2).map(|w| cost_before(w[1]) - cost_before(w[0])).max();
    let width = n.div_ceil(parts).div_ceil(64) * 64;
    let equal: Vec<u32> = (0..parts).map(|p| (p * width).min(n) as u32).chain([n as u32]).collect();
    let slack = cost_before(n as u32) / (100 * parts as u64);
    match (heaviest(&equal), heaviest(&balanced)) {
        (Some(equal_max), Some(balanced_max)) if equal_max <= balanced_max + slack => equal,
        _ => balanced,
    }
}

/// The lists of part `rank`'s vertices in `graph` over local ids, with their ghosts.
fn graph_lists(graph: &Graph, bounds: &[u32], rank: usize) -> Result<LocalGraph> {
    let offsets = graph.offsets();
    let (first, end) = (bounds[rank] as usize, bounds[rank + 1] as usize);
    let rows = &graph.targets()[offsets[first] as usize..offsets[end] as usize];
    local_lists(&offsets[first..=end], rows, graph.num_vertices(), bounds, rank)
}

/// The lists of part `rank`'s vertices over local ids, with their ghosts, from its rows of a
/// graph of `vertices` vertices: `row_offsets` the graph's offsets of its vertices and the one
/// after them, `rows` their lists' targets (global ids).
pub(crate) fn local_lists(
    row_offsets: &[u64],
    rows: &[u32],
    vertices: usize,
    bounds: &[u32],
    rank: usize,
) -> Result<LocalGraph> {
    let (first, end) = (bounds[rank], bounds[rank + 1]);
    let owned = end - first;
    let start = row_offsets[0];
    let is_ghost = |v: u32| v.wrapping_sub(first) >= owned;
    let index = GhostIndex::of(rows, vertices, is_ghost);
    let ghosts = index.ghosts();
    let targets: Vec<u32> =
        rows.par_iter().map(|&v| if is_ghost(v) { owned + index.rank_of(v) } else { v - first }).collect();
    let mut local_offsets: Vec<u64> = row_offsets.iter().map(|&o| o - start).collect();
    // Ghosts have empty lists here: their own part holds them.
    local_offsets.resize(local_offsets.len() + ghosts.len(), rows.len() as u64);
    let ghost_owners = ghosts.par_iter().map(|&v| owner_in(bounds, v) as u32).collect();
    Ok(LocalGraph::new(Graph::from_csr(local_offsets, targets, false, 0)?, first, owned, ghosts, ghost_owners))
}

/// A part's ghosts as a bitmap over the global ids, with the count of ghosts before each word:
/// a ghost's index among the ghosts (ascending global ids) is one lookup. Sorting the lists'
/// ghost entries and searching them per edge cost a kron:28 cut 81 s (NOTES 63).
struct GhostIndex {
    words: Vec<u64>,
    before: Vec<u32>,
}

impl GhostIndex {
    /// Marks every `targets` entry that `is_ghost` says lies outside the part, on all cores.
    fn of(targets: &[u32], vertices: usize, is_ghost: impl Fn(u32) -> bool + Sync) -> GhostIndex {
        let marks = Bitmap::new(vertices);
        // A hub is named by many lists: read before writing, so its word stays shared.
        targets.par_iter().filter(|&&v| is_ghost(v) && !marks.get(v)).for_each(|&v| marks.set(v));
        let words = marks.into_words();
        let before =
            words.iter().scan(0u32, |count, word| Some(std::mem::replace(count, *count + word.count_ones()))).collect();
        GhostIndex { words, before }
    }

    /// The ghosts' global ids, ascending.
    fn ghosts(&self) -> Vec<u32> {
        self.words
            .par_iter()
            .enumerate()
            .flat_map_iter(|(w, &word)| {
                let mut bits = word;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let bit = bits.trailing_zeros();
                        bits &= bits - 1;
                        w as u32 * 64 + bit
                    })
                })
            })
            .collect()
    }

    /// The index of ghost `v` among the ghosts.
    #[inline]
    fn rank_of(&self, v: u32) -> u32 {
        let (w, bit) = (v as usize / 64, v % 64);
        self.before[w] + (self.words[w] & ((1u64 << bit) - 1)).count_ones()
    }
}

/// A `rows x cols` grid of ranks; rank `row * cols + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
}

impl Grid {
    pub fn new(rows: usize, cols: usize) -> Result<Grid> {
        if rows == 0 || cols == 0 {
            return Err(Error::InvalidArgument(format!(
                "a {rows}x{cols} grid has no ranks: both sides must be at least 1"
            )));
        }
        Ok(Grid { rows, cols })
    }

    /// The most square grid of `ranks` ranks, never taller than wide: 4 is 2x2, 6 is 2x3, 2 is
    /// 1x2, a prime `p` is 1xp.
    pub fn squarest(ranks: usize) -> Result<Grid> {
        if ranks == 0 {
            return Err(Error::InvalidArgument("the graph needs at least one part".into()));
        }
        let rows = (1..=ranks).take_while(|r| r * r <= ranks).filter(|r| ranks % r == 0).max().unwrap_or(1);
        Grid::new(rows, ranks / rows)
    }

    pub fn ranks(&self) -> usize {
        self.rows * self.cols
    }

    pub fn rank_of(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// `(row, col)` of `rank`.
    pub fn position(&self, rank: usize) -> (usize, usize) {
        (rank / self.cols, rank % self.cols)
    }

    /// The vertex blocks of column block `col`, in processor-row order (each is owned by the
    /// rank of the same number, in processor column `col`).
    pub fn column_blocks(&self, col: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.rows).map(move |row| self.rank_of(row, col))
    }

    /// The ranks of processor row `row`, which own row block `row`'s vertex blocks.
    pub fn row_ranks(&self, row: usize) -> std::ops::Range<usize> {
        self.rank_of(row, 0)..self.rank_of(row, 0) + self.cols
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Grid {
    type Err = Error;

    /// `RxC`, such as `2x3`.
    fn from_str(text: &str) -> Result<Grid> {
        let bad = || Error::InvalidArgument(format!("`{text}` is not a grid: write ROWSxCOLS, such as 2x3"));
        let (rows, cols) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        Grid::new(rows.trim().parse().map_err(|_| bad())?, cols.trim().parse().map_err(|_| bad())?)
    }
}

/// Where a part of a 2D partition sits ([`Part::grid`]), and what its block of the matrix does
/// not say: the whole graph's out-degree of each owned vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridPlace {
    pub grid: Grid,
    pub row: usize,
    pub col: usize,
    /// The whole graph's out-degree of each owned vertex (the part's lists hold only their
    /// edges into its row block): what a vertex the rank labels adds to the next frontier's
    /// edges.
    pub degrees: Vec<u32>,
}

impl GridPlace {
    /// The ranks of this part's processor column, itself included, in rank order: the ranks
    /// that hold lists of this part's vertices, to which its frontier goes.
    pub fn column_ranks(&self) -> impl Iterator<Item = usize> + '_ {
        self.grid.column_blocks(self.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};

    fn kron(scale: u32) -> Graph {
        generate(&format!("kron:{scale}").parse::<GeneratorSpec>().unwrap(), 1).unwrap()
    }

    #[test]
    fn ranges_cover_the_graph_at_word_boundaries_and_balance_edges() {
        let g = kron(12);
        for parts in [1, 2, 3, 4, 7] {
            let partition = partition_1d(&g, None, parts).unwrap();
            let b = &partition.bounds;
            assert_eq!((b[0], *b.last().unwrap()), (0, g.num_vertices() as u32));
            assert!(b.windows(2).all(|w| w[0] <= w[1]));
            assert!(b[..parts].iter().all(|&x| x % 64 == 0), "{b:?}");
            let edges: Vec<u64> = partition.parts.iter().map(|p| p.out_lists.graph.num_edges()).collect();
            assert_eq!(edges.iter().sum::<u64>(), g.num_edges());
            let ideal = (g.num_edges() + g.num_vertices() as u64) / parts as u64;
            // A cut moves by at most 63 vertices, whose lists a kron:12 hub can make long.
            let slack = 64 + g.max_degree() * 2;
            assert!(edges.iter().all(|&e| e <= ideal + slack), "{edges:?} against {ideal}");
        }
    }

    #[test]
    fn local_lists_name_the_same_neighbors_as_the_graph() {
        let g = kron(10);
        let partition = partition_1d(&g, None, 3).unwrap();
        for part in &partition.parts {
            let local = &part.out_lists;
            for v in part.first..part.first + part.owned {
                let lv = local.local_of(v).unwrap();
                let mapped: Vec<u32> = local.graph.neighbors(lv).iter().map(|&u| local.global_of(u)).collect();
                assert_eq!(mapped, g.neighbors(v));
                assert_eq!(part.owner_of(v), part.rank);
            }
            for (i, &ghost) in local.ghosts().iter().enumerate() {
                assert!(!part.owns(ghost));
                assert_eq!(local.local_of(ghost), Some(part.owned + i as u32));
                assert_eq!(local.ghost_owner(i), part.owner_of(ghost));
                assert!(partition.parts[local.ghost_owner(i)].owns(ghost));
            }
        }
    }

    #[test]
    fn hubs_pieces_are_their_lists_cut_by_owner() {
        let g = kron(12);
        let mut partition = partition_1d(&g, None, 3).unwrap();
        partition.delegate_hubs(&g, 40);
        let hubs: Vec<u32> = (0..g.num_vertices() as u32).filter(|&v| g.degree(v) >= 40).collect();
        assert!(!hubs.is_empty());
        let mut pieces = vec![Vec::new(); hubs.len()];
        for part in &partition.parts {
            let delegated = part.hubs.as_ref().unwrap();
            assert_eq!(delegated.globals, hubs);
            let owned = delegated.owned_range(part.first, part.owned);
            assert!(delegated.globals[owned.clone()].iter().all(|&h| part.owns(h)));
            assert_eq!(owned.len(), hubs.iter().filter(|&&h| part.owns(h)).count());
            for (i, piece) in pieces.iter_mut().enumerate() {
                let range = delegated.offsets[i] as usize..delegated.offsets[i + 1] as usize;
                assert!(delegated.targets[range.clone()].iter().all(|&t| t < part.owned));
                piece.extend(delegated.targets[range].iter().map(|&t| part.first + t));
            }
        }
        for (piece, &hub) in pieces.iter_mut().zip(&hubs) {
            piece.sort_unstable();
            let mut list = g.neighbors(hub).to_vec();
            list.sort_unstable();
            assert_eq!(*piece, list, "hub {hub}");
        }
        // One part, or a degree no vertex has: nothing to delegate.
        let mut one = partition_1d(&g, None, 1).unwrap();
        one.delegate_hubs(&g, 1);
        assert!(one.parts[0].hubs.is_none());
        let mut none = partition_1d(&g, None, 2).unwrap();
        none.delegate_hubs(&g, g.max_degree() + 1);
        assert!(none.parts.iter().all(|p| p.hubs.is_none()));
    }

    #[test]
    fn the_hub_degree_keeps_hubs_rare() {
        let g = kron(16);
        assert_eq!(hub_degree(&g, 1), None);
        let degree = hub_degree(&g, 4).unwrap();
        assert!(degree.is_power_of_two() && degree >= 128);
        let hubs = (0..g.num_vertices() as u32).filter(|&v| g.degree(v) >= degree).count() as u64;
        assert!(hubs >= 1 && hubs <= g.num_vertices() as u64 / HUB_SHARE, "{hubs} hubs at degree {degree}");
        // Half the degree would make too many hubs, or fall under the floor.
        let halved = (0..g.num_vertices() as u32).filter(|&v| g.degree(v) >= degree / 2).count() as u64;
        assert!(halved > g.num_vertices() as u64 / HUB_SHARE || degree / 2 < 128);
    }

    #[test]
    fn more_parts_than_words_leave_some_empty() {
        let edges = (1..100).map(|v| (v - 1, v)).collect();
        let g = crate::graph::GraphBuilder::new().build(crate::graph::EdgeList::new(100, edges, false)).unwrap();
        let partition = partition_1d(&g, None, 7).unwrap();
        let owned: u32 = partition.parts.iter().map(|p| p.owned).sum();
        assert_eq!(owned, 100);
        assert!(partition.parts.iter().any(|p| p.owned == 0));
        // Directed: each part has its in-lists too, and they hold every edge once.
        let in_edges: u64 = partition.parts.iter().map(|p| p.in_lists.as_ref().unwrap().graph.num_edges()).sum();
        assert_eq!(in_edges, 99);
        assert!(partition_1d(&g, None, 0).is_err());
    }

    #[test]
    fn shuffled_ids_get_equal_ranges_and_skewed_ones_balanced_ones() {
        // Graph500's generator shuffles the ids: the edge-balanced cut is within a hair of
        // equal ranges, which are taken.
        let g = kron(16);
        assert_ne!(edge_balanced_bounds(g.offsets(), None, 4), vec![0, 16384, 32768, 49152, 65536]);
        assert_eq!(partition_1d(&g, None, 4).unwrap().bounds, vec![0, 16384, 32768, 49152, 65536]);
        // A star on vertex 0 and a path beyond: the first range must be short.
        let mut edges: Vec<(u32, u32)> = (1..2000).map(|v| (0, v)).collect();
        edges.extend((2001..4000).map(|v| (v - 1, v)));
        let star = crate::graph::GraphBuilder::new().build(crate::graph::EdgeList::new(4000, edges, true)).unwrap();
        let b = partition_1d(&star, None, 4).unwrap().bounds;
        assert!(b[1] < 1000, "{b:?}");
    }
}
