//! 2D partitioning of the adjacency matrix over a `rows x cols` grid of ranks (Buluç and
//! Madduri, "Parallel breadth-first search on distributed memory systems", SC 2011, the 2D
//! decomposition), rank `row * cols + col`.
//!
//! The vertex ids are cut into `rows * cols` vertex blocks, balanced by out-edges (plus one per
//! vertex) at multiples of 64 with the 1D cut's rule ([`balanced_bounds`]); rank `r` owns block
//! `r`: its vertices' labels and their share of the frontier. Blocks are grouped two ways:
//!
//! - row block `i` is the `cols` consecutive blocks `i * cols .. (i + 1) * cols`: one vertex
//!   range, whose owners are the ranks of processor row `i`;
//! - column block `j` is the `rows` blocks `j, j + cols, j + 2 cols, ...`: one block from each
//!   processor row, whose owners are the ranks of processor column `j`.
//!
//! Rank `(i, j)` holds the edges `u -> v` with `u` in column block `j` and `v` in row block `i`
//! (the matrix block `A_ij` of the paper, rows the targets), as the lists of a [`Part`] over
//! local ids ([`partition_2d`]): its own block, then the other blocks of its row (targets) and
//! of its column (sources), whole. Every edge is in exactly one rank's lists. A level then needs
//! only column and row collectives: the frontier of column block `j` is owned inside processor
//! column `j` (the expand), and the targets of row block `i` are owned inside processor row `i`
//! (the fold). Buluç and Madduri number column blocks consecutively too and move each rank's
//! frontier to its transposed rank first (their `TransposeVector`); interleaving the column
//! blocks makes that step unneeded, at the price of a column block being `rows` vertex ranges,
//! not one.
//!
//! Only out-lists are cut: the 2D BFS ([`bfs_2d`](super::bfs_2d), and a GPU rank's levels in
//! `multi::gpu`) is top-down only, so a directed graph needs no in-lists. Because a 2D part is a
//! [`Part`] like a 1D one, with its [`GridPlace`], the 1D machinery carries it: the level loop,
//! placement on a GPU, the top-down kernels, the pairs to owners, the gathered tree.

use std::str::FromStr;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::multi::partition::{
    balanced_bounds, bounds_1d, delegated_hubs, global_sizes, local_lists, owner_in, part_1d, partition_1d, Delegation,
    GlobalSizes, Grid, GridPlace, Hubs, LocalGraph, Part, Partition,
};

/// How a partitioned BFS cuts the graph: vertex ranges (1D, [`partition_1d`](super::partition_1d),
/// the direction-optimizing BFS on CPU or GPU ranks) or the adjacency matrix over a grid of
/// ranks (2D, [`partition_2d`], top-down on CPU ranks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PartitionLayout {
    #[default]
    OneD,
    /// `grid: None` takes the most square grid of the rank count ([`Grid::squarest`]).
    TwoD { grid: Option<Grid> },
}

impl PartitionLayout {
    /// The grid for `ranks` ranks, `None` for 1D; an explicit grid must have `ranks` ranks.
    pub fn grid_for(&self, ranks: usize) -> Result<Option<Grid>> {
        match self {
            PartitionLayout::OneD => Ok(None),
            PartitionLayout::TwoD { grid: None } => Grid::squarest(ranks).map(Some),
            PartitionLayout::TwoD { grid: Some(grid) } if grid.ranks() == ranks => Ok(Some(*grid)),
            PartitionLayout::TwoD { grid: Some(grid) } => Err(Error::InvalidArgument(format!(
                "a {grid} grid has {} ranks, not the {ranks} partitions asked for",
                grid.ranks()
            ))),
        }
    }
}

impl FromStr for PartitionLayout {
    type Err = Error;

    /// `1d`, `2d` (the most square grid) or a grid `RxC`.
    fn from_str(text: &str) -> Result<PartitionLayout> {
        match text.to_ascii_lowercase().as_str() {
            "1d" => Ok(PartitionLayout::OneD),
            "2d" => Ok(PartitionLayout::TwoD { grid: None }),
            _ => text.parse::<Grid>().map(|grid| PartitionLayout::TwoD { grid: Some(grid) }).map_err(|_| {
                Error::InvalidArgument(format!("`{text}` is not a layout: 1d, 2d or a grid ROWSxCOLS such as 2x3"))
            }),
        }
    }
}

/// `graph` cut for a partitioned BFS of `ranks` ranks: over `grid` where there is one (of
/// `ranks` ranks, [`partition_2d`]), else into vertex ranges ([`partition_1d`]) with the hubs
/// `delegation` names delegated.
pub fn cut(graph: &Graph, ranks: usize, grid: Option<Grid>, delegation: Delegation) -> Result<Partition> {
    match grid_of(grid, ranks)? {
        Some(grid) => partition_2d(graph, grid),
        None => {
            let mut partition = partition_1d(graph, None, ranks)?;
            if let Some(degree) = delegation.degree(graph, ranks) {
                partition.delegate_hubs(graph, degree);
            }
            Ok(partition)
        }
    }
}

/// Rank `rank`'s part of [`cut`]`(graph, ranks, grid, delegation)`, the same, cutting no other
/// part: what one process of a job of one process per GPU keeps (the others' parts are their
/// processes' to cut), in a part's time and memory instead of every part's.
pub fn cut_part(graph: &Graph, ranks: usize, grid: Option<Grid>, delegation: Delegation, rank: usize) -> Result<Part> {
    check_rank(rank, ranks)?;
    match grid_of(grid, ranks)? {
        Some(grid) => {
            let bounds = balanced_bounds(graph.offsets(), None, ranks);
            part_of_grid(graph, graph.offsets(), &bounds, grid, rank, global_sizes(graph))
        }
        None => {
            let transpose = (!graph.is_undirected()).then(|| graph.transpose());
            let bounds = bounds_1d(graph.offsets(), transpose.as_ref().map(Graph::offsets), ranks)?;
            let mut part = part_1d(graph, transpose.as_ref(), &bounds, rank, global_sizes(graph))?;
            drop(transpose);
            if let Some(degree) = delegation.degree(graph, ranks) {
                if let Some(globals) = delegated_hubs(graph.offsets(), ranks, degree) {
                    part.hubs = Some(Hubs::pieces(graph, degree, &globals, &part));
                }
            }
            Ok(part)
        }
    }
}

/// What a part cut alone reads of a graph it does not hold ([`cut_part_by_rows`]): a `.wgr`
/// file's lists ([`WgrRows`](crate::formats::wgr::WgrRows) has a method for each), or in tests a
/// graph's.
pub trait RowSource {
    /// The graph's offsets: its vertices' out-degrees.
    fn offsets(&self) -> &[u64];
    fn is_undirected(&self) -> bool;
    /// The targets of the lists of vertices `first..end`, in order, as stored (sorted lists):
    /// the part's own vertices' (a file's reader may check them as its share of the file).
    fn rows(&self, first: u32, end: u32) -> Result<Vec<u32>>;
    /// [`rows`](Self::rows) of another rank's vertices (a 2D part's column blocks), read but not
    /// counted as this rank's own.
    fn other_rows(&self, first: u32, end: u32) -> Result<Vec<u32>>;
    /// The entries in `first..end` of each of `vertices`' lists, less `first`, in order.
    fn pieces(&self, vertices: &[u32], first: u32, end: u32) -> Result<Vec<Vec<u32>>>;
    /// A directed graph's transpose's offsets: every vertex's in-degree.
    fn in_offsets(&self) -> Result<Vec<u64>>;
    /// A directed graph's in-lists of vertices `first..end` (sources ascending), in order, where
    /// `in_offsets` places them.
    fn in_rows(&self, in_offsets: &[u64], first: u32, end: u32) -> Result<Vec<u32>>;
}

/// Rank `rank`'s part of the vertex ranges [`cut`] makes (no grid), the same, from what
/// `source` reads of the graph, not the graph: its offsets, the lists of the part's vertices,
/// where the cut delegates hubs the part's pieces of the hubs' lists, and for a directed graph
/// every vertex's in-degree and the in-lists of the part's vertices. What a process of a job of
/// one process per GPU reads of a `.wgr` file, in its part's memory (and a stretch of lists a
/// core at a time) instead of the graph's. Reading the hubs' lists costs a read of the hubs'
/// edges; finding the pieces in the part's own lists instead (an undirected hub lists a vertex
/// where the vertex lists it) took two passes over the part's edges and a transpose, 1.8 times
/// the whole cut's time on kron:28 (bench/NOTES.md 84, 86). A directed graph's in-degrees and
/// in-lists take two passes over every list: its in-edges are in every part of the file.
pub fn cut_part_by_rows(
    ranks: usize,
    grid: Option<Grid>,
    delegation: Delegation,
    rank: usize,
    source: &impl RowSource,
) -> Result<Part> {
    check_rank(rank, ranks)?;
    if let Some(grid) = grid_of(grid, ranks)? {
        return grid_part_by_rows(grid, rank, source);
    }
    let offsets = source.offsets();
    let in_offsets = match source.is_undirected() {
        true => None,
        false => Some(source.in_offsets()?),
    };
    let bounds = bounds_1d(offsets, in_offsets.as_deref(), ranks)?;
    let (first, end) = (bounds[rank], bounds[rank + 1]);
    let vertices = offsets.len() - 1;
    let global = GlobalSizes {
        vertices: vertices as u64,
        edges: offsets[vertices],
        // Undirected: a vertex has in-edges where it has out-edges.
        with_in_edges: crate::graph::nonempty_lists(in_offsets.as_deref().unwrap_or(offsets)) as u64,
    };
    let owned = first as usize..=end as usize;
    let rows = source.rows(first, end)?;
    let out_lists = local_lists(&offsets[owned.clone()], &rows, vertices, &bounds, rank)?;
    drop(rows);
    let in_lists = match &in_offsets {
        None => None,
        Some(in_offsets) => {
            let rows = source.in_rows(in_offsets, first, end)?;
            Some(local_lists(&in_offsets[owned], &rows, vertices, &bounds, rank)?)
        }
    };
    let mut part =
        Part { rank, first, owned: end - first, out_lists, in_lists, bounds, global, hubs: None, grid: None };
    if let Some(degree) = delegation.degree_in(offsets, ranks) {
        if let Some(globals) = delegated_hubs(offsets, ranks, degree) {
            part.hubs = Some(Hubs::of_pieces(degree, &globals, source.pieces(&globals, first, end)?));
        }
    }
    Ok(part)
}

/// Rank `rank`'s part of a `grid` cut from what `source` reads: the offsets, and the lists of
/// the vertex blocks of the rank's processor column (its own block's as its own rows), a
/// `1 / cols` share of the lists; a directed graph's in-degrees too, for the count of vertices
/// with in-edges.
fn grid_part_by_rows(grid: Grid, rank: usize, source: &impl RowSource) -> Result<Part> {
    let offsets = source.offsets();
    let bounds = balanced_bounds(offsets, None, grid.ranks());
    let vertices = offsets.len() - 1;
    let with_in_edges = match source.is_undirected() {
        // Undirected: a vertex has in-edges where it has out-edges.
        true => crate::graph::nonempty_lists(offsets),
        false => crate::graph::nonempty_lists(&source.in_offsets()?),
    };
    let global =
        GlobalSizes { vertices: vertices as u64, edges: offsets[vertices], with_in_edges: with_in_edges as u64 };
    let blocks = grid
        .column_blocks(grid.position(rank).1)
        .map(|block| {
            let (first, end) = (bounds[block], bounds[block + 1]);
            let targets = if block == rank { source.rows(first, end)? } else { source.other_rows(first, end)? };
            Ok(ColumnBlock { first, end, targets })
        })
        .collect::<Result<Vec<_>>>()?;
    part_of_grid(&ColumnRows { offsets, blocks }, offsets, &bounds, grid, rank, global)
}

/// Where [`part_of_grid`] finds the lists of its column's vertices: the whole graph, or the
/// column's blocks read alone ([`ColumnRows`]).
trait ColumnLists: Sync {
    /// Vertex `u`'s list; `u` is in the part's processor column.
    fn neighbors(&self, u: u32) -> &[u32];
}

impl ColumnLists for Graph {
    fn neighbors(&self, u: u32) -> &[u32] {
        Graph::neighbors(self, u)
    }
}

/// The lists of a processor column's vertex blocks, each block's read as one stretch.
struct ColumnRows<'o> {
    offsets: &'o [u64],
    blocks: Vec<ColumnBlock>,
}

struct ColumnBlock {
    first: u32,
    end: u32,
    targets: Vec<u32>,
}

impl ColumnLists for ColumnRows<'_> {
    fn neighbors(&self, u: u32) -> &[u32] {
        let block = self
            .blocks
            .iter()
            .find(|block| (block.first..block.end).contains(&u))
            .expect("a part reads only its column's lists");
        let start = self.offsets[block.first as usize];
        let (from, to) = (self.offsets[u as usize] - start, self.offsets[u as usize + 1] - start);
        &block.targets[from as usize..to as usize]
    }
}

/// An error where `rank` is not one of `ranks` ranks.
fn check_rank(rank: usize, ranks: usize) -> Result<()> {
    if rank >= ranks {
        return Err(Error::InvalidArgument(format!("rank {rank} is not one of {ranks} ranks")));
    }
    Ok(())
}

/// `grid`, where it has `ranks` ranks (an error where it has not).
fn grid_of(grid: Option<Grid>, ranks: usize) -> Result<Option<Grid>> {
    match grid {
        Some(grid) if grid.ranks() != ranks => {
            Err(Error::InvalidArgument(format!("a {grid} grid has {} ranks, not {ranks}", grid.ranks())))
        }
        _ => Ok(grid),
    }
}

/// Cuts `graph` over `grid`: `grid.ranks()` vertex blocks balanced by out-edges at multiples of
/// 64, and rank `(i, j)` a [`Part`] whose lists are its block of the matrix, the edges from
/// column block `j` to row block `i`, over local ids:
/// - `0..owned`: its own vertex block (in both row block `i` and column block `j`), whose lists
///   hold their edges into the row block;
/// - then, as ghosts in rank order, every other vertex block of its processor row (targets of
///   its lists, with empty lists: their owners label them) and of its processor column (with
///   their lists' edges into the row block, never targets). Ghost blocks are whole, so a
///   block's vertex `v` is local `owned + start + (v - first)`: the column's frontier, sent as
///   each owner's local ids, needs one addition per sender (`bfs_part_shift_ids`).
///
/// Each edge is in exactly one part's lists. The parts carry their [`GridPlace`]; they have no
/// in-lists (the 2D BFS is top-down only) and no hubs.
pub fn partition_2d(graph: &Graph, grid: Grid) -> Result<Partition> {
    let ranks = grid.ranks();
    // The 2D BFS reads out-lists only, so in-edges do not weigh in the balance.
    let bounds = balanced_bounds(graph.offsets(), None, ranks);
    let global = global_sizes(graph);
    // One part at a time, each on all cores: a part's lists are the big allocation.
    let parts = (0..ranks)
        .map(|rank| part_of_grid(graph, graph.offsets(), &bounds, grid, rank, global))
        .collect::<Result<_>>()?;
    Ok(Partition { bounds, parts })
}

/// Rank `rank`'s part of `graph` over `grid` ([`partition_2d`]).
fn part_of_grid(
    lists: &impl ColumnLists,
    degrees_from: &[u64],
    bounds: &[u32],
    grid: Grid,
    rank: usize,
    global: GlobalSizes,
) -> Result<Part> {
    let (row, col) = grid.position(rank);
    let (first, owned) = (bounds[rank], bounds[rank + 1] - bounds[rank]);
    let block_len = |b: usize| bounds[b + 1] - bounds[b];
    // The row's and the column's other blocks, in rank order (they share only this rank's).
    let mut ghost_blocks: Vec<usize> =
        grid.row_ranks(row).chain(grid.column_blocks(col)).filter(|&b| b != rank).collect();
    ghost_blocks.sort_unstable();
    let mut local_start = vec![0u32; grid.ranks()];
    let mut next = owned;
    for &b in &ghost_blocks {
        local_start[b] = next;
        next += block_len(b);
    }
    let local_n = next as usize;
    let ghosts: Vec<u32> = ghost_blocks.iter().flat_map(|&b| bounds[b]..bounds[b + 1]).collect();
    let ghost_owners: Vec<u32> =
        ghost_blocks.iter().flat_map(|&b| std::iter::repeat_n(b as u32, block_len(b) as usize)).collect();
    let rows = grid.row_ranks(row);
    let (row_first, row_end) = (bounds[rows.start], bounds[rows.end]);
    let in_row = |v: u32| v.wrapping_sub(row_first) < row_end - row_first;
    let to_local = |v: u32| {
        let b = owner_in(bounds, v);
        local_start[b] + (v - bounds[b])
    };
    // The global id of local vertex `l`, where it has a list here (a column block's vertex).
    let source_of = |l: usize| -> Option<u32> {
        if l < owned as usize {
            return Some(first + l as u32);
        }
        let owner = ghost_owners[l - owned as usize] as usize;
        (grid.position(owner).1 == col).then(|| ghosts[l - owned as usize])
    };
    let degrees: Vec<u64> = (0..local_n)
        .into_par_iter()
        .map(|l| source_of(l).map_or(0, |u| lists.neighbors(u).iter().filter(|&&v| in_row(v)).count() as u64))
        .collect();
    let mut offsets = Vec::with_capacity(local_n + 1);
    offsets.push(0u64);
    for d in &degrees {
        offsets.push(offsets.last().unwrap() + d);
    }
    drop(degrees);
    // Filled in chunks of vertices on all cores, each chunk its own stretch of the targets.
    let mut targets = vec![0u32; *offsets.last().unwrap() as usize];
    const CHUNK: usize = 1 << 14;
    let mut stretches = Vec::with_capacity(local_n.div_ceil(CHUNK));
    let mut rest = targets.as_mut_slice();
    for start in (0..local_n).step_by(CHUNK) {
        let end = (start + CHUNK).min(local_n);
        let (stretch, tail) = rest.split_at_mut((offsets[end] - offsets[start]) as usize);
        stretches.push((start..end, stretch));
        rest = tail;
    }
    stretches.into_par_iter().for_each(|(locals, stretch)| {
        let mut at = 0;
        for u in locals.filter_map(source_of) {
            for &v in lists.neighbors(u).iter().filter(|&&v| in_row(v)) {
                stretch[at] = to_local(v);
                at += 1;
            }
        }
    });
    let degrees = (first..first + owned)
        .map(|v| {
            let degree = degrees_from[v as usize + 1] - degrees_from[v as usize];
            u32::try_from(degree).map_err(|_| {
                Error::InvalidArgument(format!("vertex {v} has {degree} out-edges, more than a 2D part counts"))
            })
        })
        .collect::<Result<_>>()?;
    let lists = Graph::from_csr(offsets, targets, false, 0)?;
    Ok(Part {
        rank,
        first,
        owned,
        out_lists: LocalGraph::new(lists, first, owned, ghosts, ghost_owners),
        in_lists: None,
        bounds: bounds.to_vec(),
        global,
        hubs: None,
        grid: Some(GridPlace { grid, row, col, degrees }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};
    use crate::graph::{EdgeList, GraphBuilder};

    fn generated(spec: &str) -> Graph {
        generate(&spec.parse::<GeneratorSpec>().unwrap(), 3).unwrap()
    }

    #[test]
    fn the_squarest_grid_is_never_taller_than_wide() {
        let shapes: Vec<(usize, usize)> = [1, 2, 3, 4, 6, 7, 8, 9, 12, 16]
            .iter()
            .map(|&p| Grid::squarest(p).unwrap())
            .map(|g| (g.rows, g.cols))
            .collect();
        assert_eq!(shapes, [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (1, 7), (2, 4), (3, 3), (3, 4), (4, 4)]);
        assert!(Grid::squarest(0).is_err());
        assert!(Grid::new(0, 3).is_err());
    }

    #[test]
    fn layouts_and_grids_parse_and_check_the_rank_count() {
        assert_eq!("1d".parse::<PartitionLayout>().unwrap(), PartitionLayout::OneD);
        assert_eq!("2D".parse::<PartitionLayout>().unwrap(), PartitionLayout::TwoD { grid: None });
        let explicit = "3x2".parse::<PartitionLayout>().unwrap();
        assert_eq!(explicit, PartitionLayout::TwoD { grid: Some(Grid { rows: 3, cols: 2 }) });
        assert_eq!(explicit.grid_for(6).unwrap(), Some(Grid { rows: 3, cols: 2 }));
        assert!(explicit.grid_for(4).unwrap_err().to_string().contains("3x2 grid has 6 ranks"));
        assert_eq!(PartitionLayout::TwoD { grid: None }.grid_for(6).unwrap(), Some(Grid { rows: 2, cols: 3 }));
        assert_eq!(PartitionLayout::OneD.grid_for(6).unwrap(), None);
        for bad in ["3d", "2x", "x2", "0x4", "axb", ""] {
            assert!(bad.parse::<PartitionLayout>().is_err(), "{bad}");
        }
        assert_eq!(Grid { rows: 2, cols: 5 }.to_string(), "2x5");
    }

    #[test]
    fn a_cut_of_either_layout_gives_its_bounds() {
        let g = generated("kron:9");
        let ranges = cut(&g, 4, None, Delegation::Auto).unwrap();
        assert!(ranges.parts.len() == 4 && ranges.parts.iter().all(|p| p.grid.is_none()));
        let grid = cut(&g, 4, Some(Grid::new(2, 2).unwrap()), Delegation::Auto).unwrap();
        assert_eq!(grid.grid(), Some(Grid::new(2, 2).unwrap()));
        assert!(grid.parts.iter().all(|p| p.hubs.is_none() && p.in_lists.is_none()));
        // Undirected: both layouts balance the same out-edges, so the vertex blocks are the same.
        assert_eq!(ranges.bounds, grid.bounds);
        let err = cut(&g, 6, Some(Grid::new(2, 2).unwrap()), Delegation::Auto).unwrap_err();
        assert!(err.to_string().contains("2x2 grid has 4 ranks, not 6"), "{err}");
    }

    #[test]
    fn a_part_cut_alone_is_the_same_part_as_in_the_whole_cut() {
        let undirected = generated("kron:10");
        // A directed graph: each vertex to a few seeded others, some of them twice as hubs.
        let mut rng = crate::generate::rng::SplitMix64::new(5);
        let edges: Vec<(u32, u32)> = (0..4000)
            .map(|_| (rng.next_below(600) as u32, (rng.next_below(600) as u32).min(rng.next_below(600) as u32)))
            .collect();
        let directed = crate::graph::GraphBuilder::new().build(crate::graph::EdgeList::new(600, edges, false)).unwrap();
        assert!(!directed.is_undirected());
        let grid2 = Grid::new(2, 2).unwrap();
        let cases: [(&str, &Graph, usize, Option<Grid>, Delegation); 9] = [
            ("undirected, hubs by the rule", &undirected, 4, None, Delegation::Auto),
            ("undirected, hubs of 8 edges or more", &undirected, 3, None, Delegation::Degree(8)),
            ("undirected, no hubs", &undirected, 5, None, Delegation::Off),
            ("undirected, one rank", &undirected, 1, None, Delegation::Degree(8)),
            ("directed, in-lists too", &directed, 3, None, Delegation::Degree(4)),
            ("a 2x2 grid", &undirected, 4, Some(grid2), Delegation::Auto),
            ("a 1x3 grid, directed", &directed, 3, Some(Grid::new(1, 3).unwrap()), Delegation::Off),
            ("a 3x2 grid", &undirected, 6, Some(Grid::new(3, 2).unwrap()), Delegation::Auto),
            ("a 2x1 grid, directed", &directed, 2, Some(Grid::new(2, 1).unwrap()), Delegation::Off),
        ];
        let mut with_hubs = 0;
        for (case, g, ranks, grid, delegation) in cases {
            let whole = cut(g, ranks, grid, delegation).unwrap();
            let source = GraphRows { graph: g, transpose: (!g.is_undirected()).then(|| g.transpose()) };
            with_hubs += whole.parts.iter().any(|p| p.hubs.is_some()) as usize;
            for rank in 0..ranks {
                let alone = cut_part(g, ranks, grid, delegation, rank).unwrap();
                assert!(alone == whole.parts[rank], "{case}: rank {rank}'s part differs");
                // From what a `--rank` process reads of a file: the offsets, the part's own
                // rows, the hubs' lists, a directed graph's in-degrees and in-lists; of a grid,
                // its column's blocks' rows.
                let by_rows = cut_part_by_rows(ranks, grid, delegation, rank, &source).unwrap();
                assert!(by_rows == whole.parts[rank], "{case}: rank {rank}'s part by its rows differs");
            }
        }
        // The hubs' pieces are cut alone too (both cases that name a degree have hubs).
        assert!(with_hubs >= 2, "{with_hubs} cases with hubs");
        assert!(cut_part(&undirected, 4, None, Delegation::Auto, 4).is_err());
        let source = GraphRows { graph: &undirected, transpose: None };
        assert!(cut_part_by_rows(4, None, Delegation::Auto, 4, &source).is_err());
        let err = cut_part_by_rows(6, Some(grid2), Delegation::Auto, 0, &source).unwrap_err();
        assert!(err.to_string().contains("2x2 grid has 4 ranks, not 6"), "{err}");
        let err = cut_part(&undirected, 6, Some(grid2), Delegation::Auto, 0).unwrap_err();
        assert!(err.to_string().contains("2x2 grid has 4 ranks, not 6"), "{err}");
    }

    /// A graph's lists as a [`RowSource`], as `WgrRows` reads them of a file.
    struct GraphRows<'g> {
        graph: &'g Graph,
        transpose: Option<Graph>,
    }

    impl RowSource for GraphRows<'_> {
        fn offsets(&self) -> &[u64] {
            self.graph.offsets()
        }

        fn is_undirected(&self) -> bool {
            self.graph.is_undirected()
        }

        fn rows(&self, first: u32, end: u32) -> Result<Vec<u32>> {
            let offsets = self.graph.offsets();
            Ok(self.graph.targets()[offsets[first as usize] as usize..offsets[end as usize] as usize].to_vec())
        }

        fn other_rows(&self, first: u32, end: u32) -> Result<Vec<u32>> {
            self.rows(first, end)
        }

        fn pieces(&self, vertices: &[u32], first: u32, end: u32) -> Result<Vec<Vec<u32>>> {
            let inside = |&&t: &&u32| (first..end).contains(&t);
            Ok(vertices
                .iter()
                .map(|&v| self.graph.neighbors(v).iter().filter(inside).map(|&t| t - first).collect())
                .collect())
        }

        fn in_offsets(&self) -> Result<Vec<u64>> {
            Ok(self.transpose.as_ref().expect("a directed graph's transpose").offsets().to_vec())
        }

        fn in_rows(&self, in_offsets: &[u64], first: u32, end: u32) -> Result<Vec<u32>> {
            let transpose = self.transpose.as_ref().expect("a directed graph's transpose");
            assert_eq!(in_offsets, transpose.offsets());
            GraphRows { graph: transpose, transpose: None }.rows(first, end)
        }
    }

    /// Every edge of `g` is in exactly one part's lists: the one of its source's column and its
    /// target's row; every vertex is owned once; a part's lists are its own block's and its
    /// column's, its other ghosts (its row's) have none, and every ghost block is whole.
    fn check_cover(g: &Graph, grid: Grid) {
        let partition = partition_2d(g, grid).unwrap();
        let b = &partition.bounds;
        assert_eq!(b.len(), grid.ranks() + 1);
        assert_eq!((b[0], *b.last().unwrap()), (0, g.num_vertices() as u32));
        assert!(b.windows(2).all(|w| w[0] <= w[1]));
        assert!(b.iter().all(|&x| x % 64 == 0 || x == g.num_vertices() as u32), "{b:?}");
        let mut blocked: Vec<(u32, u32)> = Vec::new();
        let mut owned = vec![0u32; g.num_vertices()];
        for part in &partition.parts {
            let place = part.grid.as_ref().unwrap();
            assert_eq!(grid.position(part.rank), (place.row, place.col));
            let lists = &part.out_lists;
            let starts = part.ghost_starts();
            for r in 0..grid.ranks() {
                let held = starts[r + 1] - starts[r];
                let (row, col) = grid.position(r);
                let expected =
                    if r != part.rank && (row == place.row || col == place.col) { b[r + 1] - b[r] } else { 0 };
                assert_eq!(
                    held as u32, expected,
                    "{grid}: rank {} holds rank {r}'s block whole or not at all",
                    part.rank
                );
            }
            for local in 0..lists.graph.num_vertices() as u32 {
                let u = lists.global_of(local);
                assert_eq!(lists.local_of(u), Some(local));
                let neighbors = lists.graph.neighbors(local);
                if !neighbors.is_empty() {
                    // The source's owner is in this rank's processor column.
                    assert_eq!(grid.position(part.owner_of(u)).1, place.col);
                }
                for &t in neighbors {
                    let v = lists.global_of(t);
                    // The target's owner is in this rank's processor row: the fold stays in the row.
                    assert_eq!(grid.position(part.owner_of(v)).0, place.row);
                    blocked.push((u, v));
                }
            }
            for v in part.first..part.first + part.owned {
                owned[v as usize] += 1;
                assert!(part.owns(v));
                assert_eq!(part.owner_of(v), part.rank);
                assert_eq!(place.degrees[(v - part.first) as usize] as u64, g.degree(v));
            }
        }
        assert!(owned.iter().all(|&n| n == 1));
        let held: u64 = partition.parts.iter().map(|p| p.out_lists.graph.num_edges()).sum();
        assert_eq!(held, g.num_edges());
        let mut edges: Vec<(u32, u32)> =
            (0..g.num_vertices() as u32).flat_map(|u| g.neighbors(u).iter().map(move |&v| (u, v))).collect();
        blocked.sort_unstable();
        edges.sort_unstable();
        assert_eq!(blocked, edges, "{grid}");
    }

    #[test]
    fn every_edge_is_in_one_block_and_every_vertex_has_one_owner() {
        let kron = generated("kron:10");
        let directed = GraphBuilder::new()
            .build(EdgeList::new(700, (0..699u32).map(|v| (v, (v * 37 + 11) % 700)).collect(), false))
            .unwrap();
        for (rows, cols) in [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3)] {
            let grid = Grid::new(rows, cols).unwrap();
            check_cover(&kron, grid);
            check_cover(&directed, grid);
        }
        // More blocks than 64-vertex words: some blocks own nothing, and some blocks are empty.
        let small = GraphBuilder::new().build(EdgeList::new(100, vec![(0, 99), (50, 70)], true)).unwrap();
        check_cover(&small, Grid::new(3, 3).unwrap());
        let partition = partition_2d(&small, Grid::new(3, 3).unwrap()).unwrap();
        assert!(partition.parts.iter().any(|p| p.owned == 0 && p.out_lists.graph.num_edges() == 0));
    }
}
