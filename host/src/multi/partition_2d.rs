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
//! (the matrix block `A_ij` of the paper, rows the targets), as a local CSR ([`Block`]): sources
//! numbered through column block `j`'s vertex blocks one after another, targets by their offset
//! in row block `i`'s range. Every edge is in exactly one rank's block. A level then needs only
//! column and row collectives: the frontier of column block `j` is owned inside processor column
//! `j` (the expand), and the targets of row block `i` are owned inside processor row `i` (the
//! fold). Buluç and Madduri number column blocks consecutively too and move each rank's frontier
//! to its transposed rank first (their `TransposeVector`); interleaving the column blocks makes
//! that step unneeded, at the price of a column block being `rows` vertex ranges, not one.
//!
//! Only out-lists are cut: the 2D BFS ([`bfs_2d`](super::bfs_2d)) is top-down only, so a directed
//! graph needs no in-lists.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::multi::partition::{balanced_bounds, owner_in, partition_1d, Delegation, GlobalSizes, Partition};

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

/// A graph cut for a partitioned BFS, in either layout.
#[derive(Clone, Debug)]
pub enum Cut {
    /// Vertex ranges ([`partition_1d`]), the hubs delegated ([`Partition::delegate_hubs`]).
    Ranges(Partition),
    /// The adjacency matrix over a grid ([`partition_2d`]).
    Grid(Partition2d),
}

impl Cut {
    /// `graph` cut into `ranks` vertex ranges, the hubs `delegation` names delegated, or over
    /// `grid` where there is one (of `ranks` ranks).
    pub fn of(graph: &Graph, ranks: usize, grid: Option<Grid>, delegation: Delegation) -> Result<Cut> {
        match grid {
            Some(grid) if grid.ranks() != ranks => {
                Err(Error::InvalidArgument(format!("a {grid} grid has {} ranks, not {ranks}", grid.ranks())))
            }
            Some(grid) => partition_2d(graph, grid).map(Cut::Grid),
            None => {
                let mut partition = partition_1d(graph, None, ranks)?;
                if let Some(degree) = delegation.degree(graph, ranks) {
                    partition.delegate_hubs(graph, degree);
                }
                Ok(Cut::Ranges(partition))
            }
        }
    }

    /// `ranks + 1` vertex ids: rank `r` owns `bounds[r]..bounds[r + 1]`, in both layouts.
    pub fn bounds(&self) -> &[u32] {
        match self {
            Cut::Ranges(partition) => &partition.bounds,
            Cut::Grid(partition) => &partition.bounds,
        }
    }
}

/// A graph cut over a grid of ranks.
#[derive(Clone, Debug)]
pub struct Partition2d {
    pub grid: Grid,
    /// `rows * cols + 1` vertex ids: vertex block `b` (owned by rank `b`) is
    /// `bounds[b]..bounds[b + 1]`.
    pub bounds: Vec<u32>,
    pub parts: Vec<Part2d>,
}

/// What rank `(row, col)` holds.
#[derive(Clone, Debug)]
pub struct Part2d {
    pub rank: usize,
    pub row: usize,
    pub col: usize,
    pub grid: Grid,
    /// The first owned vertex (global id); owned vertices are `first..first + owned` (vertex
    /// block `rank`).
    pub first: u32,
    pub owned: u32,
    /// The whole graph's out-degree of each owned vertex (what a discovered vertex adds to the
    /// next frontier's edges; the block holds only part of its list).
    pub owned_degrees: Vec<u64>,
    /// The edges from column block `col` to row block `row`.
    pub block: Block,
    /// Every vertex block, as in [`Partition2d::bounds`].
    pub bounds: Vec<u32>,
    pub global: GlobalSizes,
}

impl Part2d {
    /// The rank owning global vertex `v`.
    pub fn owner_of(&self, v: u32) -> usize {
        owner_in(&self.bounds, v)
    }

    /// Whether this rank owns global vertex `v`.
    pub fn owns(&self, v: u32) -> bool {
        v.wrapping_sub(self.first) < self.owned
    }
}

/// One rank's block of the adjacency matrix as a CSR over local ids: source `s` is the `s`-th
/// vertex of its column block (the column's vertex blocks one after another), a target is its
/// offset from the start of the row block.
#[derive(Clone, Debug)]
pub struct Block {
    /// The global range of each of the column's vertex blocks, `source_starts[k]..source_ends[k]`
    /// (ascending, not adjacent to each other).
    source_starts: Vec<u32>,
    source_ends: Vec<u32>,
    /// `local_starts[k]`: the local id of the first vertex of the column's `k`-th vertex block.
    local_starts: Vec<u32>,
    /// Row block: targets are `target_first..target_first + target_count`.
    target_first: u32,
    target_count: u32,
    offsets: Vec<u64>,
    targets: Vec<u32>,
}

impl Block {
    /// Vertices of the column block: the local source ids are `0..sources()`.
    pub fn sources(&self) -> u32 {
        *self.local_starts.last().unwrap_or(&0)
    }

    /// Vertices of the row block: the local target ids are `0..targets()`.
    pub fn targets(&self) -> u32 {
        self.target_count
    }

    pub fn edges(&self) -> u64 {
        self.targets.len() as u64
    }

    /// The local source id of global vertex `u`, if it is in the column block.
    pub fn source_local(&self, u: u32) -> Option<u32> {
        let k = self.source_ends.partition_point(|&end| end <= u);
        (k < self.source_starts.len() && u >= self.source_starts[k])
            .then(|| self.local_starts[k] + (u - self.source_starts[k]))
    }

    /// The global id of local source `local`.
    pub fn source_global(&self, local: u32) -> u32 {
        let k = self.local_starts[1..].partition_point(|&end| end <= local);
        self.source_starts[k] + (local - self.local_starts[k])
    }

    /// The global id of local target `local`.
    pub fn target_global(&self, local: u32) -> u32 {
        self.target_first + local
    }

    /// The local targets of local source `local` (the part of its out-list in the row block).
    pub fn neighbors(&self, local: u32) -> &[u32] {
        let (start, end) = (self.offsets[local as usize], self.offsets[local as usize + 1]);
        &self.targets[start as usize..end as usize]
    }
}

/// Cuts `graph` over `grid`: `grid.ranks()` vertex blocks balanced by out-edges at multiples of
/// 64, and rank `(i, j)`'s block of the edges from column block `j` to row block `i`.
pub fn partition_2d(graph: &Graph, grid: Grid) -> Result<Partition2d> {
    let ranks = grid.ranks();
    // The 2D BFS reads out-lists only, so in-edges do not weigh in the balance.
    let bounds = balanced_bounds(graph, None, ranks);
    let global = GlobalSizes {
        vertices: graph.num_vertices() as u64,
        edges: graph.num_edges(),
        with_in_edges: graph.vertices_with_in_edges(),
    };
    let parts = (0..ranks)
        .into_par_iter()
        .map(|rank| {
            let (row, col) = grid.position(rank);
            let (first, end) = (bounds[rank], bounds[rank + 1]);
            Part2d {
                rank,
                row,
                col,
                grid,
                first,
                owned: end - first,
                owned_degrees: (first..end).map(|v| graph.degree(v)).collect(),
                block: block_of(graph, &bounds, grid, row, col),
                bounds: bounds.clone(),
                global,
            }
        })
        .collect();
    Ok(Partition2d { grid, bounds, parts })
}

/// The edges of `graph` from column block `col` to row block `row`.
fn block_of(graph: &Graph, bounds: &[u32], grid: Grid, row: usize, col: usize) -> Block {
    let rows = grid.row_ranks(row);
    let (target_first, target_end) = (bounds[rows.start], bounds[rows.end]);
    let in_row = |v: u32| v.wrapping_sub(target_first) < target_end - target_first;
    let (mut source_starts, mut source_ends, mut local_starts) = (Vec::new(), Vec::new(), vec![0u32]);
    let (mut offsets, mut targets) = (vec![0u64], Vec::new());
    for vertex_block in grid.column_blocks(col) {
        let (start, end) = (bounds[vertex_block], bounds[vertex_block + 1]);
        source_starts.push(start);
        source_ends.push(end);
        local_starts.push(local_starts.last().unwrap() + (end - start));
        for u in start..end {
            targets.extend(graph.neighbors(u).iter().filter(|&&v| in_row(v)).map(|&v| v - target_first));
            offsets.push(targets.len() as u64);
        }
    }
    Block {
        source_starts,
        source_ends,
        local_starts,
        target_first,
        target_count: target_end - target_first,
        offsets,
        targets,
    }
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
        let ranges = Cut::of(&g, 4, None, Delegation::Auto).unwrap();
        assert!(matches!(&ranges, Cut::Ranges(p) if p.parts.len() == 4));
        let grid = Cut::of(&g, 4, Some(Grid::new(2, 2).unwrap()), Delegation::Auto).unwrap();
        assert!(matches!(&grid, Cut::Grid(p) if p.parts.len() == 4 && p.grid == Grid::new(2, 2).unwrap()));
        // Undirected: both layouts balance the same out-edges, so the vertex blocks are the same.
        assert_eq!(ranges.bounds(), grid.bounds());
        let err = Cut::of(&g, 6, Some(Grid::new(2, 2).unwrap()), Delegation::Auto).unwrap_err();
        assert!(err.to_string().contains("2x2 grid has 4 ranks, not 6"), "{err}");
    }

    /// Every edge of `g` is in exactly one block: the one of its source's column and its
    /// target's row; and every vertex is owned once, inside its row block and its column block.
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
            assert_eq!(grid.position(part.rank), (part.row, part.col));
            let block = &part.block;
            for s in 0..block.sources() {
                let u = block.source_global(s);
                assert_eq!(block.source_local(u), Some(s));
                // The source's owner is in this rank's processor column.
                assert_eq!(grid.position(part.owner_of(u)).1, part.col);
                for &t in block.neighbors(s) {
                    assert!(t < block.targets());
                    let v = block.target_global(t);
                    // The target's owner is in this rank's processor row: the fold stays in the row.
                    assert_eq!(grid.position(part.owner_of(v)).0, part.row);
                    blocked.push((u, v));
                }
            }
            for v in part.first..part.first + part.owned {
                owned[v as usize] += 1;
                assert!(part.owns(v));
                assert_eq!(part.owner_of(v), part.rank);
                assert_eq!(part.owned_degrees[(v - part.first) as usize], g.degree(v));
            }
        }
        assert!(owned.iter().all(|&n| n == 1));
        let held: u64 = partition.parts.iter().map(|p| p.block.edges()).sum();
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
        assert!(partition.parts.iter().any(|p| p.owned == 0 && p.block.sources() == 0));
    }
}
