//! Direction-optimizing BFS over a 1D partition (Merrill et al., section 6, for the level
//! structure: expand, trade discovered neighbors with their owners, agree on the next level;
//! Beamer et al. for bottom-up levels). Every rank runs [`bfs_rank`] on its own [`Part`] and
//! the same [`Communicator`]; per level:
//!
//! - top-down: the rank expands its frontier queue; a neighbor it owns is labelled at once, a
//!   ghost is sent once per traversal, with its parent, to its owner (all-to-all-v, 8 bytes a
//!   discovery: vertex and parent), who labels it if nobody did first;
//! - bottom-up: the ranks all-gather the frontier bitmap (each its own share, `owned / 8`
//!   bytes), and each unvisited owned vertex searches its in-list for a frontier vertex;
//! - one all-reduce of the level's counts, from which every rank takes the same decision for
//!   the next level with the single-GPU rule ([`Switching`], the persistent kernel's).
//!
//! The per-rank work runs on the rank's thread ([`bfs_rank`]: one core a rank, as one GPU a rank
//! would be) or on the rank's GPU (`multi::gpu`), under the same level loop.

use std::time::Instant;

use crate::error::Result;
use crate::graph::UNREACHED;
use crate::multi::bfs_2d::GridRank;
use crate::multi::comm::Communicator;
use crate::multi::in_process::run_ranks;
use crate::multi::levels::{
    concatenate, run_levels, PartitionedOptions, PartitionedTraversal, RankTraversal, RankWork, Step, COUNTS, FOUND,
    FOUND_EDGES, INSPECTED,
};
use crate::multi::partition::{Part, Partition};

/// Runs the partitioned BFS from global vertex `source` on one thread per part of `partition`,
/// communicating [`InProcess`](crate::multi::InProcess), and gathers the tree.
pub fn bfs_in_process(
    partition: &Partition,
    source: u32,
    options: &PartitionedOptions,
) -> Result<PartitionedTraversal> {
    let ranks = run_ranks(partition.parts.len(), |comm| bfs_rank(comm, &partition.parts[comm.rank()], source, options));
    let ranks = ranks.into_iter().collect::<Result<Vec<_>>>()?;
    Ok(concatenate(ranks, source))
}

/// This rank's side of the partitioned BFS from global vertex `source`, on the rank's thread;
/// every rank of `comm` calls it with its own part of one [`Partition`].
pub fn bfs_rank<C: Communicator>(
    comm: &mut C,
    part: &Part,
    source: u32,
    options: &PartitionedOptions,
) -> Result<RankTraversal> {
    match &part.grid {
        Some(place) => run_levels(comm, part, source, options, GridRank::new(part, place)),
        None => run_levels(comm, part, source, options, CpuRank::new(part)),
    }
}

/// A rank's levels on its own thread: labels, frontier and ghost marks in host memory.
struct CpuRank<'p> {
    part: &'p Part,
    labels: Labels,
    frontier: Frontier,
    ghost_sent: Vec<bool>,
    global_bitmap: Vec<u64>,
}

impl<'p> CpuRank<'p> {
    fn new(part: &'p Part) -> CpuRank<'p> {
        CpuRank {
            part,
            labels: Labels::new(part),
            frontier: Frontier::Queue(Vec::new()),
            ghost_sent: vec![false; part.out_lists.ghosts().len()],
            global_bitmap: Vec::new(),
        }
    }
}

impl<C: Communicator> RankWork<C> for CpuRank<'_> {
    fn start(&mut self, source: u32) -> Result<u64> {
        let part = self.part;
        if !part.owns(source) {
            return Ok(0);
        }
        let local = source - part.first;
        self.labels.label(local, source, 0);
        self.frontier = Frontier::Queue(vec![local]);
        Ok(part.out_lists.graph.degree(local))
    }

    fn top_down(&mut self, comm: &mut C, level: u32) -> Result<Step> {
        let part = self.part;
        let mut step = [0u64; COUNTS];
        let queue = std::mem::replace(&mut self.frontier, Frontier::Queue(Vec::new())).into_queue();
        let mut outgoing = vec![Vec::new(); comm.world_size()];
        let mut next = self.labels.top_down(
            part,
            &queue,
            level + 1,
            &self.global_bitmap,
            &mut self.ghost_sent,
            &mut outgoing,
            &mut step,
        );
        let exchanging = Instant::now();
        let mut incoming = Vec::new();
        comm.all_to_all_v(&outgoing, &mut incoming)?;
        let exchange = exchanging.elapsed();
        for pair in incoming.chunks_exact(2) {
            let local = pair[0] - part.first;
            if self.labels.distances[local as usize] == UNREACHED {
                self.labels.label(local, pair[1], level + 1);
                next.push(local);
                step[FOUND] += 1;
                step[FOUND_EDGES] += part.out_lists.graph.degree(local);
            }
        }
        self.frontier = Frontier::Queue(next);
        Ok(Step { counts: step, exchange })
    }

    fn bottom_up(&mut self, comm: &mut C, level: u32) -> Result<Step> {
        let part = self.part;
        let mut step = [0u64; COUNTS];
        let local_bitmap = std::mem::replace(&mut self.frontier, Frontier::Queue(Vec::new())).into_bitmap(part.owned);
        let exchanging = Instant::now();
        gather_bitmap(comm, part, &local_bitmap, &mut self.global_bitmap)?;
        let exchange = exchanging.elapsed();
        self.frontier = Frontier::Bitmap(self.labels.bottom_up(part, &self.global_bitmap, level + 1, &mut step));
        Ok(Step { counts: step, exchange })
    }

    fn labels(self) -> Result<(Vec<u32>, Vec<u32>)> {
        Ok((self.labels.distances, self.labels.parents))
    }
}

/// Whether `bitmap` (one bit a global vertex, empty where there is none) holds vertex `v`.
fn bit_is_set(bitmap: &[u64], v: u32) -> bool {
    bitmap.get(v as usize / 64).is_some_and(|word| word & (1 << (v % 64)) != 0)
}

/// Every rank's share of the frontier bitmap into `global` (one bit per global vertex): the
/// shares, padded to the widest part, all-gathered, then laid end to end (each part starts at
/// a multiple of 64, so a share is whole words of the global bitmap).
fn gather_bitmap<C: Communicator>(comm: &mut C, part: &Part, local: &[u64], global: &mut Vec<u64>) -> Result<()> {
    let widest = part.bitmap_words_per_part();
    let mut mine = local.to_vec();
    mine.resize(widest, 0);
    let mut gathered = vec![0u64; widest * comm.world_size()];
    comm.all_gather(&mine, &mut gathered)?;
    global.clear();
    global.resize((part.global.vertices as usize).div_ceil(64), 0);
    for (p, share) in gathered.chunks(widest.max(1)).enumerate().take(comm.world_size()) {
        let (start, end) = (part.bounds[p] as usize, part.bounds[p + 1] as usize);
        let words = (end - start).div_ceil(64);
        global[start / 64..start / 64 + words].copy_from_slice(&share[..words]);
    }
    Ok(())
}

/// The frontier in the form the last level wrote it: a queue of owned local ids (top-down) or
/// a bitmap over the owned vertices (bottom-up).
enum Frontier {
    Queue(Vec<u32>),
    Bitmap(Vec<u64>),
}

impl Frontier {
    fn into_bitmap(self, owned: u32) -> Vec<u64> {
        match self {
            Frontier::Bitmap(bits) => bits,
            Frontier::Queue(queue) => {
                let mut bits = vec![0u64; owned.div_ceil(64) as usize];
                for v in queue {
                    bits[v as usize / 64] |= 1 << (v % 64);
                }
                bits
            }
        }
    }

    fn into_queue(self) -> Vec<u32> {
        match self {
            Frontier::Queue(queue) => queue,
            Frontier::Bitmap(bits) => {
                let mut queue = Vec::new();
                for (w, &word) in bits.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        queue.push(w as u32 * 64 + word.trailing_zeros());
                        word &= word - 1;
                    }
                }
                queue
            }
        }
    }
}

/// The owned vertices' labels.
struct Labels {
    distances: Vec<u32>,
    /// Global ids.
    parents: Vec<u32>,
}

impl Labels {
    fn new(part: &Part) -> Labels {
        Labels { distances: vec![UNREACHED; part.owned as usize], parents: vec![UNREACHED; part.owned as usize] }
    }

    fn label(&mut self, local: u32, parent: u32, distance: u32) {
        self.distances[local as usize] = distance;
        self.parents[local as usize] = parent;
    }

    /// Expands `queue`: owned neighbors are labelled and queued, ghosts not sent before go to
    /// their owners as (vertex, parent) pairs, unless `seen` (a frontier gathered earlier in
    /// the traversal, one bit a global id; empty before the first) holds them: their owners
    /// reached them already, in a bottom-up level this rank took no part in.
    #[allow(clippy::too_many_arguments)]
    fn top_down(
        &mut self,
        part: &Part,
        queue: &[u32],
        distance: u32,
        seen: &[u64],
        ghost_sent: &mut [bool],
        outgoing: &mut [Vec<u32>],
        step: &mut [u64; COUNTS],
    ) -> Vec<u32> {
        let lists = &part.out_lists;
        let mut next = Vec::new();
        for &u in queue {
            let neighbors = lists.graph.neighbors(u);
            step[INSPECTED] += neighbors.len() as u64;
            let parent = part.first + u;
            for &v in neighbors {
                if v < part.owned {
                    if self.distances[v as usize] == UNREACHED {
                        self.label(v, parent, distance);
                        next.push(v);
                        step[FOUND] += 1;
                        step[FOUND_EDGES] += lists.graph.degree(v);
                    }
                } else {
                    let ghost = (v - part.owned) as usize;
                    if !ghost_sent[ghost] {
                        // Once is enough: its owner labels it at this level or already has.
                        ghost_sent[ghost] = true;
                        let global = lists.global_of(v);
                        if !bit_is_set(seen, global) {
                            outgoing[lists.ghost_owner(ghost)].extend([global, parent]);
                        }
                    }
                }
            }
        }
        next
    }

    /// Every unvisited owned vertex looks for a parent in the global frontier `bitmap`;
    /// returns the next frontier over the owned vertices.
    fn bottom_up(&mut self, part: &Part, bitmap: &[u64], distance: u32, step: &mut [u64; COUNTS]) -> Vec<u64> {
        let lists = part.in_lists();
        let mut next = vec![0u64; part.owned.div_ceil(64) as usize];
        for v in 0..part.owned {
            if self.distances[v as usize] != UNREACHED {
                continue;
            }
            for &u in lists.graph.neighbors(v) {
                step[INSPECTED] += 1;
                let global = lists.global_of(u);
                if bit_is_set(bitmap, global) {
                    self.label(v, global, distance);
                    next[v as usize / 64] |= 1 << (v % 64);
                    step[FOUND] += 1;
                    step[FOUND_EDGES] += part.out_lists.graph.degree(v);
                    break;
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};
    use crate::multi::partition_1d;

    #[test]
    fn top_down_sends_no_ghost_a_gathered_frontier_holds() {
        let g = generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        let partition = partition_1d(&g, None, 2).unwrap();
        let part = &partition.parts[0];
        let lists = &part.out_lists;
        let has_ghost = |u: u32| lists.graph.neighbors(u).iter().any(|&v| v >= part.owned);
        let queue: Vec<u32> = (0..part.owned).filter(|&u| has_ghost(u)).take(8).collect();
        assert!(!queue.is_empty(), "kron:10's first part names a ghost");
        let expand = |seen: &[u64]| {
            let mut labels = Labels::new(part);
            let mut sent = vec![false; lists.ghosts().len()];
            let (mut outgoing, mut step) = (vec![Vec::new(); 2], [0u64; COUNTS]);
            let next = labels.top_down(part, &queue, 1, seen, &mut sent, &mut outgoing, &mut step);
            (next, outgoing, sent)
        };
        let (next, outgoing, sent) = expand(&[]);
        assert!(!outgoing[1].is_empty());
        // Every vertex gathered: the owned neighbors are labelled all the same, no ghost is sent,
        // and each is marked as sent, so no later level sends it either.
        let all = vec![u64::MAX; (g.num_vertices() as usize).div_ceil(64)];
        let (next_seen, outgoing_seen, sent_seen) = expand(&all);
        assert_eq!(next_seen, next);
        assert!(outgoing_seen.iter().all(Vec::is_empty), "{outgoing_seen:?}");
        assert_eq!(sent_seen, sent);
    }
}
