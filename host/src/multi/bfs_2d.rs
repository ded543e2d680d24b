//! Top-down level-synchronous BFS over a 2D partition ([`partition_2d`](super::partition_2d)),
//! after Buluç and Madduri, "Parallel breadth-first search on distributed memory systems"
//! (SC 2011), its two-dimensional algorithm: expand along processor columns, a local sparse
//! matrix-vector product, fold along processor rows. A 2D part is a [`Part`] with its
//! [`GridPlace`]; the level loop is the 1D BFS's ([`run_levels`](super::bfs::run_levels), which
//! never turns a 2D part bottom-up), and [`GridRank`] is a CPU rank's share of a level (a GPU
//! rank's is `multi::gpu`'s, over the same parts). Per level, rank `(i, j)`:
//!
//! 1. **expand**: sends its frontier (the owned vertices labelled at the last level) to every
//!    rank of processor column `j`, which all hold edges out of them; it receives the frontier
//!    of column block `j` (4 bytes a vertex to each of the `rows - 1` other ranks of the column);
//! 2. **local product**: reads each of those vertices' lists (their edges into row block `i`);
//!    a target is sent at most once per traversal from a rank (a mark per local vertex), since
//!    its owner labels it at that level or already has;
//! 3. **fold**: sends each discovered target with its parent to its owner, in processor row `i`
//!    (8 bytes a pair); the owner labels what nobody labelled before, the next frontier;
//! 4. **all-reduce** of the level's counts (found, their edges, edges inspected): all ranks stop
//!    together when nothing was found.
//!
//! The row and column collectives are all-to-all-v calls of the world communicator with empty
//! lists for the ranks outside the row or column (NCCL's grouped send/receive does the same).
//! Top-down only: the direction-optimizing 2D BFS (Beamer, Buluç, Asanović and Patterson,
//! "Distributed memory breadth-first search revisited", 2013) is not built. The result is the
//! 1D BFS's ([`RankTraversal`]): rank `r` owns vertex block `r`, so the ranks' labels in rank
//! order are the whole tree.

use std::time::Instant;

use crate::error::{Error, Result};
use crate::graph::UNREACHED;
use crate::multi::levels::{RankWork, Step, COUNTS, FOUND, FOUND_EDGES, INSPECTED};
use crate::multi::comm::Communicator;
use crate::multi::partition::Part;
use crate::multi::partition::GridPlace;

/// A 2D rank's share of each level on its thread: its owned vertices' labels, its share of the
/// frontier, and which of its local vertices it has sent to their owners.
pub(crate) struct GridRank<'p> {
    part: &'p Part,
    place: &'p GridPlace,
    distances: Vec<u32>,
    /// Global ids.
    parents: Vec<u32>,
    /// Owned vertices labelled at the last level, global ids.
    frontier: Vec<u32>,
    /// A bit a local vertex: sent to its owner already this traversal.
    sent: Vec<u64>,
}

impl<'p> GridRank<'p> {
    pub(crate) fn new(part: &'p Part, place: &'p GridPlace) -> GridRank<'p> {
        GridRank {
            part,
            place,
            distances: vec![UNREACHED; part.owned as usize],
            parents: vec![UNREACHED; part.owned as usize],
            frontier: Vec::new(),
            sent: vec![0; (part.out_lists.graph.num_vertices() as usize).div_ceil(64)],
        }
    }

    fn label(&mut self, v: u32, parent: u32, distance: u32) {
        let local = (v - self.part.first) as usize;
        self.distances[local] = distance;
        self.parents[local] = parent;
        self.frontier.push(v);
    }
}

impl<C: Communicator> RankWork<C> for GridRank<'_> {
    fn start(&mut self, source: u32) -> Result<u64> {
        if !self.part.owns(source) {
            return Ok(0);
        }
        self.label(source, source, 0);
        Ok(self.place.degrees[(source - self.part.first) as usize] as u64)
    }

    fn top_down(&mut self, comm: &mut C, level: u32) -> Result<Step> {
        let part = self.part;
        let lists = &part.out_lists;
        let mut counts = [0u64; COUNTS];
        let mut outgoing = vec![Vec::new(); comm.world_size()];

        // Expand: the column's frontier, from the ranks owning column block `col`'s vertices.
        let frontier = std::mem::take(&mut self.frontier);
        for r in self.place.column_ranks() {
            outgoing[r].clone_from(&frontier);
        }
        let exchanging = Instant::now();
        let mut column_frontier = Vec::new();
        comm.all_to_all_v(&outgoing, &mut column_frontier)?;
        let mut exchange = exchanging.elapsed();
        outgoing.iter_mut().for_each(Vec::clear);

        // Local product: the lists' targets, in the row block, each sent to its owner once per
        // traversal.
        for &u in &column_frontier {
            let source = lists.local_of(u).expect("the column's frontier is in the column block");
            let targets = lists.graph.neighbors(source);
            counts[INSPECTED] += targets.len() as u64;
            for &t in targets {
                let (word, bit) = (t as usize / 64, 1u64 << (t % 64));
                if self.sent[word] & bit == 0 {
                    self.sent[word] |= bit;
                    let v = lists.global_of(t);
                    outgoing[part.owner_of(v)].extend([v, u]);
                }
            }
        }

        // Fold: (vertex, parent) pairs to their owners in the row, who label the new ones.
        let exchanging = Instant::now();
        let mut discovered = Vec::new();
        comm.all_to_all_v(&outgoing, &mut discovered)?;
        exchange += exchanging.elapsed();
        for pair in discovered.chunks_exact(2) {
            let (v, parent) = (pair[0], pair[1]);
            let local = (v - part.first) as usize;
            if self.distances[local] == UNREACHED {
                self.label(v, parent, level + 1);
                counts[FOUND] += 1;
                counts[FOUND_EDGES] += self.place.degrees[local] as u64;
            }
        }
        Ok(Step { counts, exchange })
    }

    fn bottom_up(&mut self, _comm: &mut C, _level: u32) -> Result<Step> {
        Err(Error::InvalidArgument("a 2D part is traversed top-down only".into()))
    }

    fn labels(self) -> Result<(Vec<u32>, Vec<u32>)> {
        Ok((self.distances, self.parents))
    }
}

#[cfg(test)]
mod tests {
    use crate::bfs::bfs_sequential;
    use crate::generate::{generate, GeneratorSpec};
    use crate::multi::comm::Communicator;
    use crate::multi::in_process::run_ranks;
    use crate::multi::partition::Grid;
    use crate::multi::partition_2d::partition_2d;
    use crate::multi::{bfs_in_process, bfs_rank, PartitionedOptions};

    #[test]
    fn exchanges_are_the_column_frontier_and_the_row_discoveries() {
        let g = generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 2).unwrap();
        let source = crate::bfs::random_source(&g, 4).unwrap();
        let expected = bfs_sequential(&g, source);
        let options = PartitionedOptions::default();
        let run = |rows, cols| {
            bfs_in_process(&partition_2d(&g, Grid::new(rows, cols).unwrap()).unwrap(), source, &options).unwrap()
        };

        let single = run(1, 1);
        assert_eq!(single.result.distances, expected.distances);
        assert_eq!(single.exchange_bytes(), 0, "one rank sends nothing");

        // 1 x 3: the expand stays within each rank (columns of one), only the fold sends.
        let row = run(1, 3);
        assert_eq!(row.result.distances, expected.distances);
        for level in &row.levels {
            assert_eq!(level.exchange_bytes % 8, 0, "pairs of ids");
            assert!(level.exchange_bytes <= 8 * level.trace.edges_inspected);
        }

        // 3 x 1: one column; every frontier vertex goes to the 2 other ranks.
        let column = run(3, 1);
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
        let options = PartitionedOptions::default();
        let err = bfs_in_process(&partition, g.num_vertices() as u32, &options).unwrap_err();
        assert!(err.to_string().contains("is not a vertex"), "{err}");
        let answers = run_ranks(3, |comm| bfs_rank(comm, &partition.parts[comm.rank()], 0, &options));
        assert!(answers.iter().all(|a| a.as_ref().is_err_and(|e| e.to_string().contains("4 parts"))));
    }
}
