//! Top-down level-synchronous BFS over a 2D partition ([`partition_2d`](super::partition_2d)),
//! after Buluç and Madduri, "Parallel breadth-first search on distributed memory systems"
//! (SC 2011), its two-dimensional algorithm: expand along processor columns, a local sparse
//! matrix-vector product, fold along processor rows. Every rank of a `rows x cols` grid runs
//! [`bfs_2d_rank`] on its own [`Part2d`] and the world [`Communicator`]; per level, rank
//! `(i, j)`:
//!
//! 1. **expand**: sends its frontier (the owned vertices labelled at the last level) to every
//!    rank of processor column `j`, which all hold edges out of them; it receives the frontier
//!    of column block `j` (4 bytes a vertex to each of the `rows - 1` other ranks of the column);
//! 2. **local product**: looks each of those vertices up in its block and takes the targets,
//!    all in row block `i`; a target is sent at most once per traversal from a rank (a mark per
//!    row-block vertex), since its owner labels it at that level or already has;
//! 3. **fold**: sends each discovered target with its parent to its owner, in processor row `i`
//!    (8 bytes a pair); the owner labels what nobody labelled before, the next frontier;
//! 4. **all-reduce** of the level's counts (found, their edges, edges inspected): all ranks stop
//!    together when nothing was found.
//!
//! The row and column collectives are all-to-all-v calls of the world communicator with empty
//! lists for the ranks outside the row or column (NCCL's grouped send/receive does the same).
//! Top-down only: the direction-optimizing 2D BFS (Beamer, Buluç, Asanović and Patterson,
//! "Distributed memory breadth-first search revisited", 2013) is not built. The result is the
//! 1D BFS's ([`PartitionedTraversal`], per level [`PartitionedLevel`]): rank `r` owns vertex
//! block `r`, so the ranks' labels in rank order are the whole tree
//! ([`concatenate`](super::bfs::concatenate)).

use std::time::{Duration, Instant};

use crate::bfs::trace::Direction;
use crate::error::{Error, Result};
use crate::graph::UNREACHED;
use crate::multi::bfs::{concatenate, finish_levels, PartitionedLevel, PartitionedTraversal, RankTraversal};
use crate::multi::bfs::{COUNTS, FOUND, FOUND_EDGES, INSPECTED};
use crate::multi::comm::{Communicator, ReduceOp};
use crate::multi::in_process::run_ranks;
use crate::multi::partition_2d::{Part2d, Partition2d};

/// Runs the 2D BFS from global vertex `source` on one thread per rank of `partition`'s grid,
/// communicating [`InProcess`](crate::multi::InProcess), and gathers the tree.
pub fn bfs_2d_in_process(partition: &Partition2d, source: u32) -> Result<PartitionedTraversal> {
    let ranks = run_ranks(partition.parts.len(), |comm| bfs_2d_rank(comm, &partition.parts[comm.rank()], source));
    Ok(concatenate(ranks.into_iter().collect::<Result<Vec<_>>>()?, source))
}

/// This rank's side of the 2D BFS from global vertex `source`; every rank of `comm` calls it
/// with its own part of one [`Partition2d`]. Returns its owned vertices' labels (parents as
/// global ids) and the levels, counts summed over the ranks and times the slowest rank's.
pub fn bfs_2d_rank<C: Communicator>(comm: &mut C, part: &Part2d, source: u32) -> Result<RankTraversal> {
    let n = part.global.vertices;
    if source as u64 >= n {
        return Err(Error::InvalidArgument(format!("BFS source {source} is not a vertex (the graph has {n})")));
    }
    if comm.world_size() != part.grid.ranks() {
        return Err(Error::InvalidArgument(format!(
            "the graph is cut over a {} grid ({} ranks) but the communicator has {} ranks",
            part.grid,
            part.grid.ranks(),
            comm.world_size()
        )));
    }
    let mut rank = Rank2d::new(part, comm.world_size());
    let mut counts = rank.start(source);
    comm.barrier()?;
    let started = Instant::now();
    comm.all_reduce(&mut counts, ReduceOp::Sum)?;

    let mut levels = Vec::new();
    let mut level_times = Vec::new();
    let mut unvisited_edges = part.global.edges - counts[FOUND_EDGES];
    while counts[FOUND] > 0 {
        let level_started = Instant::now();
        let level = levels.len() as u32;
        let bytes_before = comm.bytes_sent();
        let (mut summed, exchange) = rank.level(comm, level)?;
        let exchange_bytes = comm.bytes_sent() - bytes_before;
        comm.all_reduce(&mut summed, ReduceOp::Sum)?;
        levels.push(PartitionedLevel::counted(
            level,
            Direction::TopDown,
            counts,
            summed,
            unvisited_edges,
            exchange_bytes,
        ));
        level_times.extend([level_started.elapsed().as_nanos() as u64, exchange.as_nanos() as u64]);
        counts = [summed[FOUND], summed[FOUND_EDGES], 0];
        unvisited_edges = unvisited_edges.saturating_sub(counts[FOUND_EDGES]);
    }
    let time = finish_levels(comm, &mut levels, &mut level_times, started)?;
    Ok(RankTraversal { first: part.first, distances: rank.distances, parents: rank.parents, levels, time, lists: None })
}

/// One rank's state: its owned vertices' labels, its share of the frontier, and which row-block
/// targets it has sent.
struct Rank2d<'p> {
    part: &'p Part2d,
    distances: Vec<u32>,
    /// Global ids.
    parents: Vec<u32>,
    /// Owned vertices labelled at the last level, global ids.
    frontier: Vec<u32>,
    /// One bit per vertex of the row block: sent to its owner already.
    sent: Vec<u64>,
    /// One list per rank of the world, reused every level; only the column's (expand) or the
    /// row's (fold) are ever filled.
    outgoing: Vec<Vec<u32>>,
}

impl<'p> Rank2d<'p> {
    fn new(part: &'p Part2d, world: usize) -> Rank2d<'p> {
        Rank2d {
            part,
            distances: vec![UNREACHED; part.owned as usize],
            parents: vec![UNREACHED; part.owned as usize],
            frontier: Vec::new(),
            sent: vec![0; part.block.targets().div_ceil(64) as usize],
            outgoing: vec![Vec::new(); world],
        }
    }

    /// Labels `source` where this rank owns it; this rank's counts of the first frontier.
    fn start(&mut self, source: u32) -> [u64; COUNTS] {
        let mut counts = [0; COUNTS];
        if self.part.owns(source) {
            self.label(source, source, 0);
            counts[FOUND] = 1;
            counts[FOUND_EDGES] = self.part.owned_degrees[(source - self.part.first) as usize];
        }
        counts
    }

    fn label(&mut self, v: u32, parent: u32, distance: u32) {
        let local = (v - self.part.first) as usize;
        self.distances[local] = distance;
        self.parents[local] = parent;
        self.frontier.push(v);
    }

    /// Expands the frontier at distance `level`: this rank's counts, and its time in the two
    /// exchanges.
    fn level<C: Communicator>(&mut self, comm: &mut C, level: u32) -> Result<([u64; COUNTS], Duration)> {
        let (part, grid) = (self.part, self.part.grid);
        let mut counts = [0u64; COUNTS];

        // Expand: the column's frontier, from the ranks owning column block `col`'s vertices.
        let frontier = std::mem::take(&mut self.frontier);
        for r in grid.column_blocks(part.col) {
            self.outgoing[r].clone_from(&frontier);
        }
        let exchanging = Instant::now();
        let mut column_frontier = Vec::new();
        comm.all_to_all_v(&self.outgoing, &mut column_frontier)?;
        let mut exchange = exchanging.elapsed();
        self.outgoing.iter_mut().for_each(Vec::clear);

        // Local product: targets in the row block, each sent to its owner once per traversal.
        let block = &part.block;
        for &u in &column_frontier {
            let source = block.source_local(u).expect("the column's frontier is in the column block");
            let targets = block.neighbors(source);
            counts[INSPECTED] += targets.len() as u64;
            for &t in targets {
                let (word, bit) = (t as usize / 64, 1u64 << (t % 64));
                if self.sent[word] & bit == 0 {
                    self.sent[word] |= bit;
                    let v = block.target_global(t);
                    self.outgoing[part.owner_of(v)].extend([v, u]);
                }
            }
        }

        // Fold: (vertex, parent) pairs to their owners in the row, who label the new ones.
        let exchanging = Instant::now();
        let mut discovered = Vec::new();
        comm.all_to_all_v(&self.outgoing, &mut discovered)?;
        exchange += exchanging.elapsed();
        self.outgoing.iter_mut().for_each(Vec::clear);
        for pair in discovered.chunks_exact(2) {
            let (v, parent) = (pair[0], pair[1]);
            if self.distances[(v - part.first) as usize] == UNREACHED {
                self.label(v, parent, level + 1);
                counts[FOUND] += 1;
                counts[FOUND_EDGES] += part.owned_degrees[(v - part.first) as usize];
            }
        }
        Ok((counts, exchange))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::bfs_sequential;
    use crate::generate::{generate, GeneratorSpec};
    use crate::multi::partition_2d::{partition_2d, Grid};

    #[test]
    fn exchanges_are_the_column_frontier_and_the_row_discoveries() {
        let g = generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 2).unwrap();
        let source = crate::bfs::random_source(&g, 4).unwrap();
        let expected = bfs_sequential(&g, source);

        let single = bfs_2d_in_process(&partition_2d(&g, Grid::new(1, 1).unwrap()).unwrap(), source).unwrap();
        assert_eq!(single.result.distances, expected.distances);
        assert_eq!(single.exchange_bytes(), 0, "one rank sends nothing");

        // 1 x 3: the expand stays within each rank (columns of one), only the fold sends.
        let row = bfs_2d_in_process(&partition_2d(&g, Grid::new(1, 3).unwrap()).unwrap(), source).unwrap();
        assert_eq!(row.result.distances, expected.distances);
        for level in &row.levels {
            assert_eq!(level.exchange_bytes % 8, 0, "pairs of ids");
            assert!(level.exchange_bytes <= 8 * level.trace.edges_inspected);
        }

        // 3 x 1: one column; every frontier vertex goes to the 2 other ranks.
        let column = bfs_2d_in_process(&partition_2d(&g, Grid::new(3, 1).unwrap()).unwrap(), source).unwrap();
        assert_eq!(column.result.distances, expected.distances);
        for level in &column.levels {
            assert!(level.exchange_bytes >= 4 * 2 * level.trace.frontier);
            assert!(level.exchange_time <= level.trace.time);
            assert!(level.trace.decision.is_none(), "top-down only: no rule decides");
        }
        // Every out-edge of a reached vertex is in one block, whose rank inspects it once.
        for run in [&single, &row, &column] {
            let inspected: u64 = run.levels.iter().map(|l| l.trace.edges_inspected).sum();
            assert_eq!(inspected, run.result.edges_in_component(&g));
        }
    }

    #[test]
    fn bad_sources_and_mismatched_worlds_are_errors() {
        let g = generate(&"urand:8".parse::<GeneratorSpec>().unwrap(), 2).unwrap();
        let partition = partition_2d(&g, Grid::new(2, 2).unwrap()).unwrap();
        let err = bfs_2d_in_process(&partition, g.num_vertices() as u32).unwrap_err();
        assert!(err.to_string().contains("is not a vertex"), "{err}");
        let answers = run_ranks(3, |comm| bfs_2d_rank(comm, &partition.parts[comm.rank()], 0));
        assert!(answers.iter().all(|a| a.as_ref().is_err_and(|e| e.to_string().contains("2x2 grid"))));
    }
}
