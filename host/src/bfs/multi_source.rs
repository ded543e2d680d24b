//! Many breadth-first searches at once, one bit a source (MS-BFS: Then, Kaufmann, Chirigati et
//! al., "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2015; issue 55,
//! item 1): up to 64 sources a batch share every pass over the graph, each vertex holding a
//! 64-bit word of the sources that have seen it and one of those that reached it at the last
//! level. A level runs on every CPU core bottom-up (a vertex ORs its in-neighbors' frontier
//! words until every source it has not seen is there, and keeps the bits it had not seen: no
//! word written by two threads, nothing atomic), or top-down where asked (each frontier vertex
//! ORs its word into its out-neighbors' by `fetch_or`: [`ManyDirections::TopDown`]). The GPU
//! runs the same search (`bfs::gpu::multi_source`), switching between the two.
//!
//! On top of it, [`closeness`]: NetworkX's closeness centrality (Wasserman and Faust's
//! improvement where asked), exact, from one search a vertex.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{Graph, UNREACHED};

/// Sources a batch: the bits of a word.
pub const BATCH: usize = 64;

/// Graphs of at most this many vertices get exact closeness unless told otherwise
/// (`closeness --exact-up-to`, `bench --algorithm closeness`): one search a vertex costs vertices
/// times edges.
pub const EXACT_VERTICES: u64 = 100_000;

/// Vertices a check of closeness compares with one sequential search each ([`check_centrality`]),
/// chosen at random from the seed given xor [`CHECK_SEED`].
pub const CHECKED: usize = 16;

/// What the seed of the checked vertices differs from the run's seed by.
pub const CHECK_SEED: u64 = 0x5eed;

/// The warning of a sampled closeness asked of a GPU, or that could have used one.
pub const CPU_ONLY: &str = "sampled closeness runs on the CPU: the GPU computes exact closeness alone";

/// How the bit-parallel searches pick each level's direction over the joint frontier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ManyDirections {
    /// On the GPU, top-down while the frontier's out-list entries are few against the graph's
    /// edges, then bottom-up to the end: iBFS's switching over the joint frontier
    /// (`bfs::gpu::multi_source::pushes`); graphs of fewer than
    /// `bfs::gpu::multi_source::PUSH_FROM_EDGES` edges pull every level. On the CPU every level
    /// pulls (its push spares no pass: bench/NOTES.md 126).
    #[default]
    Switching,
    /// Every level bottom-up.
    BottomUp,
    /// Every level top-down (on the GPU where the out-lists are plain on the device; else
    /// bottom-up).
    TopDown,
}

/// List entries a CPU pull reads between two tests of its stop.
const PULL_CHUNK: usize = 16;

/// The most vertices for which batches run side by side ([`Spread::of`]): each batch holds three
/// words a vertex while it runs, so a core's share stays within 24 MiB.
const SIDE_BY_SIDE_MAX_VERTICES: usize = 1 << 20;

/// How a run of batches shares the cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spread {
    /// One batch after another, each level's passes over every core: few batches of a big graph.
    Levels,
    /// Batches side by side, each on one core from its first level to its last: many batches of a
    /// small graph, whose levels are too short to share out (a level's pass over a small graph is
    /// little work a core, about what sharing it out costs; bench/NOTES.md 128).
    Batches,
}

impl Spread {
    /// Side by side where there are batches for every core and their words fit
    /// ([`SIDE_BY_SIDE_MAX_VERTICES`]).
    fn of(vertices: usize, sources: usize) -> Spread {
        let batches = sources.div_ceil(BATCH);
        match batches >= rayon::current_num_threads() && vertices <= SIDE_BY_SIDE_MAX_VERTICES {
            true => Spread::Batches,
            false => Spread::Levels,
        }
    }

    /// `work(batch, pieces)` on every batch of [`BATCH`] of `sources`, side by side or one after
    /// another as this spread says, `pieces` the least vertices a piece of a level's passes takes
    /// ([`Self::vertex_pieces`]); the answers in the batches' order.
    fn each_batch<T: Send>(self, sources: &[u32], work: impl Fn(&[u32], usize) -> T + Sync + Send) -> Vec<T> {
        // Every batch a piece of its own side by side, all of them in one piece otherwise.
        let batch_pieces = match self {
            Spread::Batches => 1,
            Spread::Levels => usize::MAX,
        };
        sources.par_chunks(BATCH).with_min_len(batch_pieces).map(|batch| work(batch, self.vertex_pieces())).collect()
    }

    /// The least vertices a piece of work takes in a level's passes: all of them in one piece (on
    /// the batch's own core) side by side, rayon's own splitting otherwise.
    fn vertex_pieces(self) -> usize {
        match self {
            Spread::Batches => usize::MAX,
            Spread::Levels => 1,
        }
    }
}

/// The lists a batch of searches walks: `pull`'s lists are the in-lists of the direction searched
/// (a vertex gathers from them), `push`'s their transpose (a frontier vertex gives along them);
/// for an undirected graph both are the graph.
#[derive(Clone, Copy)]
struct Lists<'a> {
    pull: &'a Graph,
    push: &'a Graph,
}

/// The searches from `sources` (at most [`BATCH`]) over `lists`, every level top-down where
/// `directions` is [`ManyDirections::TopDown`], else bottom-up: `on_level(level, words)`
/// gets, for every vertex, the bits of the sources that reached it at `level` (1, 2, ...), until a
/// level reaches nothing. A pull stops reading a vertex's list once every source it has not seen
/// is there. Each pass over the vertices is cut into pieces of at least `pieces` vertices.
fn search_batch(
    lists: Lists<'_>,
    directions: ManyDirections,
    sources: &[u32],
    pieces: usize,
    mut on_level: impl FnMut(u32, &[u64]),
) {
    assert!(sources.len() <= BATCH, "at most {BATCH} sources a batch");
    // The CPU's switching pulls every level: its push still passes over every vertex's word
    // (the frontier is not a queue), so it spares no pass, and pays the atomics and the clearing
    // (USA-road-d.NY's 64 roots on 2 cores: 943-949 ms switching, 887-890 bottom-up; urand:16
    // and kron:16 within noise: bench/NOTES.md 126).
    let top_down = directions == ManyDirections::TopDown;
    let Lists { pull, push } = lists;
    let n = pull.num_vertices();
    let everyone = if sources.len() == BATCH { u64::MAX } else { (1u64 << sources.len()) - 1 };
    let mut seen = vec![0u64; n];
    let mut frontier = vec![0u64; n];
    for (bit, &s) in sources.iter().enumerate() {
        seen[s as usize] |= 1 << bit;
        frontier[s as usize] |= 1 << bit;
    }
    let mut level = 0u32;
    loop {
        let next: Vec<u64> = if top_down {
            let given: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
            frontier.par_iter().with_min_len(pieces).enumerate().filter(|(_, &word)| word != 0).for_each(
                |(u, &word)| {
                    for &v in push.neighbors(u as u32) {
                        let add = word & !seen[v as usize];
                        // A relaxed read first: most targets have the bits already.
                        if add != 0 && given[v as usize].load(Ordering::Relaxed) & add != add {
                            given[v as usize].fetch_or(add, Ordering::Relaxed);
                        }
                    }
                },
            );
            // The pushes are over: each vertex now keeps what it was given and had not seen.
            given
                .into_par_iter()
                .with_min_len(pieces)
                .zip(&mut seen)
                .map(|(word, had)| {
                    let new = word.into_inner() & !*had;
                    *had |= new;
                    new
                })
                .collect()
        } else {
            // A vertex's pull reads its own seen word alone (and others' frontier words), so it
            // keeps its new bits in the same pass.
            seen.par_iter_mut()
                .with_min_len(pieces)
                .enumerate()
                .map(|(u, had)| {
                    let unseen = !*had & everyone;
                    let mut gathered = 0u64;
                    if unseen != 0 {
                        // The stop is tested a chunk at a time: within a chunk the ORs stay a
                        // tight loop with no branch between the loads.
                        for chunk in pull.neighbors(u as u32).chunks(PULL_CHUNK) {
                            gathered |= chunk.iter().fold(0u64, |acc, &v| acc | frontier[v as usize]);
                            if gathered & unseen == unseen {
                                break;
                            }
                        }
                    }
                    *had |= gathered & unseen;
                    gathered & unseen
                })
                .collect()
        };
        if !next.par_iter().with_min_len(pieces).any(|&word| word != 0) {
            return;
        }
        level += 1;
        on_level(level, &next);
        frontier = next;
    }
}

/// Distances from each of `sources` (internal ids) to every vertex, as
/// [`crate::bfs::bfs_sequential`] gives them one at a time (`UNREACHED` where not reached),
/// computed [`BATCH`] sources a pass.
pub fn distances_from(graph: &Graph, sources: &[u32]) -> Vec<Vec<u32>> {
    distances_from_with(graph, sources, ManyDirections::default())
}

/// [`distances_from`], each level's direction as `directions` says.
pub fn distances_from_with(graph: &Graph, sources: &[u32], directions: ManyDirections) -> Vec<Vec<u32>> {
    distances_spread(graph, sources, directions, Spread::of(graph.num_vertices(), sources.len()))
}

/// [`distances_from_with`], its batches spread over the cores as `spread` says.
fn distances_spread(graph: &Graph, sources: &[u32], directions: ManyDirections, spread: Spread) -> Vec<Vec<u32>> {
    let inn = graph.in_lists();
    let lists = Lists { pull: &inn, push: graph };
    let n = graph.num_vertices();
    let batches = spread.each_batch(sources, |batch, pieces| {
        let mut distances = vec![vec![UNREACHED; n]; batch.len()];
        for (i, &s) in batch.iter().enumerate() {
            distances[i][s as usize] = 0;
        }
        search_batch(lists, directions, batch, pieces, |level, words| {
            for (u, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    distances[bits.trailing_zeros() as usize][u] = level;
                    bits &= bits - 1;
                }
            }
        });
        distances
    });
    batches.into_iter().flatten().collect()
}

/// Words a byte-lane count takes before its lanes could overflow.
const LANE_WORDS: usize = 255;

/// How many vertices each source (by its bit) reached in `words`, in pieces of at least `pieces`
/// runs of [`LANE_WORDS`] words. Each run is counted in byte lanes: eight words of eight lanes,
/// lane `k` of word `j` the count of bit `8k + j`, eight shifts, masks and adds a word where a
/// loop over the set bits takes one trip a bit (a vertex gains many sources at one level in a
/// small-world graph).
fn reached_by_bit(words: &[u64], pieces: usize) -> [u64; BATCH] {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    words
        .par_chunks(LANE_WORDS)
        .with_min_len(pieces)
        .fold(
            || [0u64; BATCH],
            |mut counts, run| {
                let mut lanes = [0u64; 8];
                for &word in run.iter().filter(|&&word| word != 0) {
                    for (j, lane) in lanes.iter_mut().enumerate() {
                        *lane += (word >> j) & LOW_BITS;
                    }
                }
                for (j, lane) in lanes.into_iter().enumerate() {
                    for k in 0..8 {
                        counts[8 * k + j] += (lane >> (8 * k)) & 0xff;
                    }
                }
                counts
            },
        )
        .reduce(
            || [0u64; BATCH],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// Every vertex's closeness and harmonic centrality (NetworkX's `closeness_centrality` and
/// `harmonic_centrality`), unweighted, by incoming distances in a directed graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Centrality {
    pub closeness: Vec<f64>,
    pub harmonic: Vec<f64>,
}

/// Every vertex's closeness centrality as NetworkX's `closeness_centrality(G, wf_improved=...)`
/// computes it, unweighted: for a vertex `u` that `r - 1` other vertices reach (by incoming
/// paths in a directed graph), `(r - 1) / d` where `d` is the sum of their distances to `u`, times
/// `(r - 1) / (n - 1)` with `wf_improved`; 0 where nothing else reaches `u`. One search a vertex,
/// [`BATCH`] at a time, over the reversed edges (whose in-lists are the graph's own lists).
pub fn closeness(graph: &Graph, wf_improved: bool) -> Vec<f64> {
    centrality(graph, wf_improved).closeness
}

/// [`closeness`] and, from the same searches, the harmonic centrality: the sum over the other
/// vertices of one over their distance to `u` (NetworkX sums the same terms vertex by vertex, so
/// the two agree to rounding, not bit for bit).
pub fn centrality(graph: &Graph, wf_improved: bool) -> Centrality {
    centrality_spread(graph, wf_improved, Spread::of(graph.num_vertices(), graph.num_vertices()))
}

/// [`centrality`], its batches spread over the cores as `spread` says.
fn centrality_spread(graph: &Graph, wf_improved: bool, spread: Spread) -> Centrality {
    let n = graph.num_vertices();
    let vertices: Vec<u32> = (0..n as u32).collect();
    let reverse = graph.in_lists();
    let lists = Lists { pull: graph, push: &reverse };
    let tallies = spread.each_batch(&vertices, |batch, pieces| {
        let mut tallies = SourceTallies::new(batch.len());
        search_batch(lists, ManyDirections::default(), batch, pieces, |level, words| {
            tallies.add_level(level, &reached_by_bit(words, pieces));
        });
        tallies
    });
    let mut found = Centrality { closeness: vec![0.0; n], harmonic: vec![0.0; n] };
    for (batch, tallies) in vertices.chunks(BATCH).zip(tallies) {
        tallies.store(batch, wf_improved, &mut found);
    }
    found
}

/// What one batch's searches sum, source by source (index `i`: the batch's source `i`): the
/// distances to the vertices it reached, how many it reached (itself left out), and the sum of
/// one over each of those distances, added level by level in the same order on the CPU and the
/// GPU (`bfs::gpu::GpuMultiSource::run_tallies`), so that both give the same floats.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceTallies {
    pub sums: Vec<u64>,
    pub reached: Vec<u64>,
    pub inverse: Vec<f64>,
}

impl SourceTallies {
    /// Nothing reached yet, for `sources` sources.
    pub fn new(sources: usize) -> SourceTallies {
        SourceTallies { sums: vec![0; sources], reached: vec![0; sources], inverse: vec![0.0; sources] }
    }

    /// Adds a level: `counts[i]` vertices first reached by source `i` at distance `level` (counts
    /// past the batch's sources are left out).
    pub fn add_level(&mut self, level: u32, counts: &[u64]) {
        for (i, &count) in counts.iter().take(self.sums.len()).enumerate() {
            self.sums[i] += level as u64 * count;
            self.reached[i] += count;
            self.inverse[i] += count as f64 / level as f64;
        }
    }

    /// Writes the closeness (NetworkX's, [`closeness_of`]) and harmonic centrality of each of
    /// `batch`'s sources into `found`, whose length is the graph's vertices.
    pub fn store(&self, batch: &[u32], wf_improved: bool, found: &mut Centrality) {
        let n = found.closeness.len();
        for (i, &u) in batch.iter().enumerate() {
            found.harmonic[u as usize] = self.inverse[i];
            found.closeness[u as usize] = closeness_of(self.reached[i], self.sums[i], n, wf_improved);
        }
    }
}

/// NetworkX's closeness of a vertex that `others` other vertices reach at distances summing to
/// `sum`, in a graph of `n` vertices, with its order of operations (so the floats agree): 0
/// where nothing reaches it.
fn closeness_of(others: u64, sum: u64, n: usize, wf_improved: bool) -> f64 {
    if sum == 0 {
        return 0.0;
    }
    let value = others as f64 / sum as f64;
    if wf_improved {
        value * (others as f64 / (n - 1) as f64)
    } else {
        value
    }
}

/// Centralities estimated from a sample of sources, and how far off they may be.
#[derive(Clone, Debug)]
pub struct SampledCentrality {
    pub estimate: Centrality,
    /// The sources searched from (internal ids).
    pub sources: Vec<u32>,
    /// With probability at least 1 - `confidence_gap` at once for every vertex (Hoeffding's
    /// bound over each vertex's mean of bounded samples, a union bound over the vertices): the
    /// share of the other vertices that reach it within `epsilon`, its mean distance from them
    /// within `epsilon` times `max_distance`, and its harmonic centrality over `n - 1` within
    /// `epsilon`.
    pub epsilon: f64,
    pub confidence_gap: f64,
    /// The longest distance any search found (a lower bound of the diameter; the bound above
    /// holds with the diameter in its place).
    pub max_distance: u32,
}

/// Closeness and harmonic centrality estimated from `sources.len()` searches (Eppstein and
/// Wang, "Fast approximation of centrality", SODA 2001): each sampled source's distance to
/// every vertex, by [`BATCH`]-source passes forward along the edges; a vertex's share of the
/// vertices that reach it, its mean distance from them and its mean inverse distance are taken
/// from the sources other than itself, then put into NetworkX's formulas.
pub fn sampled_centrality(graph: &Graph, wf_improved: bool, sources: &[u32]) -> SampledCentrality {
    let n = graph.num_vertices();
    let inn = graph.in_lists();
    let lists = Lists { pull: &inn, push: graph };
    let mut count = vec![0u32; n];
    let mut sum = vec![0u64; n];
    let mut inverse = vec![0.0f64; n];
    let mut max_distance = 0;
    for batch in sources.chunks(BATCH) {
        search_batch(lists, ManyDirections::default(), batch, Spread::Levels.vertex_pieces(), |level, words| {
            max_distance = level;
            count.par_iter_mut().zip(&mut sum).zip(&mut inverse).zip(words).for_each(|(((c, s), h), &word)| {
                let hits = word.count_ones();
                *c += hits;
                *s += level as u64 * hits as u64;
                *h += hits as f64 / level as f64;
            });
        });
    }
    let mut sampled = vec![false; n];
    for &s in sources {
        sampled[s as usize] = true;
    }
    let mut closeness = vec![0.0; n];
    let mut harmonic = vec![0.0; n];
    for u in 0..n {
        // The sources that could reach `u`: every one but `u` itself.
        let others = sources.len() as f64 - if sampled[u] { 1.0 } else { 0.0 };
        if others <= 0.0 || count[u] == 0 {
            continue;
        }
        let reach_share = count[u] as f64 / others;
        let mean = sum[u] as f64 / count[u] as f64;
        closeness[u] = if wf_improved { reach_share / mean } else { 1.0 / mean };
        harmonic[u] = inverse[u] / others * (n - 1) as f64;
    }
    let confidence_gap = 0.05;
    let epsilon = ((2.0 * n.max(1) as f64 / confidence_gap).ln() / (2.0 * sources.len().max(1) as f64)).sqrt();
    SampledCentrality {
        estimate: Centrality { closeness, harmonic },
        sources: sources.to_vec(),
        epsilon,
        confidence_gap,
        max_distance,
    }
}

/// Closeness and harmonic centrality of `vertices` alone, each from one sequential BFS over the
/// reversed edges (NetworkX's order of summation for the harmonic): the reference the tests and
/// `closeness --verify` check the bit-parallel searches against.
pub fn centrality_of(graph: &Graph, wf_improved: bool, vertices: &[u32]) -> Vec<(f64, f64)> {
    // A search over the in-lists walks the edges backward: distances to the source.
    let reversed = graph.in_lists();
    let n = graph.num_vertices();
    vertices
        .par_iter()
        .map(|&u| {
            let distances = crate::bfs::bfs_sequential(&reversed, u).distances;
            let (mut others, mut sum, mut harmonic) = (0u64, 0u64, 0.0f64);
            for &d in &distances {
                if d != UNREACHED && d > 0 {
                    others += 1;
                    sum += d as u64;
                    harmonic += 1.0 / d as f64;
                }
            }
            (closeness_of(others, sum, n, wf_improved), harmonic)
        })
        .collect()
}

/// Checks `found` at `vertices` against one sequential search each ([`centrality_of`]): where
/// exact (`epsilon` None) the closeness equal and the harmonic to rounding (within `n` units in
/// the last place of the sum, relatively: two orders of summing `n - 1` positive terms differ by
/// at most about that much; 1e-12 failed soc-Slashdot0902's 82,168 terms), where sampled the
/// harmonic over `n - 1` within `epsilon`. [`Error::Verification`] names the first vertex off, as
/// the graph's input numbers it.
pub fn check_centrality(
    graph: &Graph,
    wf_improved: bool,
    found: &Centrality,
    vertices: &[u32],
    epsilon: Option<f64>,
) -> Result<()> {
    let others = graph.num_vertices().saturating_sub(1).max(1) as f64;
    let rounding = graph.num_vertices().max(1) as f64 * f64::EPSILON;
    for (&v, (closeness, harmonic)) in vertices.iter().zip(centrality_of(graph, wf_improved, vertices)) {
        let (got_c, got_h) = (found.closeness[v as usize], found.harmonic[v as usize]);
        let ok = match epsilon {
            None => got_c == closeness && (got_h - harmonic).abs() <= rounding * harmonic.max(1.0),
            Some(epsilon) => (got_h - harmonic).abs() / others <= epsilon,
        };
        if !ok {
            return Err(Error::Verification(format!(
                "closeness check failed at vertex {}: found closeness {got_c}, harmonic {got_h}; one BFS gives \
                 {closeness}, {harmonic}",
                graph.external_id(v)
            )));
        }
    }
    Ok(())
}

/// The longest shortest path of a graph in hops, over the pairs where one reaches the other
/// (a disconnected graph's longest within its components), with its ends (internal ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diameter {
    pub hops: u32,
    pub from: u32,
    pub to: u32,
    /// The diameter itself ([`diameter_exact`]), or a lower bound ([`diameter_double_sweep`]).
    pub exact: bool,
    /// Searches run.
    pub searches: usize,
}

/// The diameter from every vertex's eccentricity: a search from every vertex, [`BATCH`] a pass
/// forward along the edges, each source's eccentricity the last level its bit reaches.
pub fn diameter_exact(graph: &Graph) -> Diameter {
    diameter_spread(graph, Spread::of(graph.num_vertices(), graph.num_vertices()))
}

/// [`diameter_exact`], its batches spread over the cores as `spread` says.
fn diameter_spread(graph: &Graph, spread: Spread) -> Diameter {
    let n = graph.num_vertices();
    let inn = graph.in_lists();
    let lists = Lists { pull: &inn, push: graph };
    let vertices: Vec<u32> = (0..n as u32).collect();
    let none = Diameter { hops: 0, from: 0, to: 0, exact: true, searches: n };
    // Each batch's farthest pair, then the farthest of all: the first batch among equals, so that
    // the answer does not depend on which batch ends first.
    let farthest = spread.each_batch(&vertices, |batch, pieces| {
        let mut best = none;
        search_batch(lists, ManyDirections::default(), batch, pieces, |level, words| {
            // The first vertex a level reaches, and the lowest source bit that reached it.
            let first = words.par_iter().with_min_len(pieces).enumerate().find_first(|(_, &w)| w != 0);
            if let Some((u, &word)) = first {
                best = Diameter { hops: level, from: batch[word.trailing_zeros() as usize], to: u as u32, ..best };
            }
        });
        best
    });
    farthest.into_iter().fold(none, |best, batch| if batch.hops > best.hops { batch } else { best })
}

/// A lower bound of the diameter by repeated double sweeps (Magnien, Latapy and Habib,
/// "Fast computation of empirically tight bounds for the diameter of massive graphs", JEA 2009):
/// a BFS from `start`, then from the farthest vertex it found (the smallest id among ties), and
/// so on while the distance grows, at most `sweeps` searches. Exact on trees; on road networks and
/// meshes it usually is too.
pub fn diameter_double_sweep(graph: &Graph, start: u32, sweeps: usize) -> Diameter {
    let transpose = (!graph.is_undirected()).then(|| graph.transpose());
    let mut best = Diameter { hops: 0, from: start, to: start, exact: false, searches: 0 };
    let mut from = start;
    while best.searches < sweeps.max(1) {
        let distances = crate::bfs::bfs_parallel(graph, transpose.as_ref(), from).distances;
        best.searches += 1;
        let (to, hops) = distances
            .par_iter()
            .enumerate()
            .filter(|(_, &d)| d != UNREACHED)
            .map(|(v, &d)| (v as u32, d))
            .reduce(|| (from, 0), |a, b| if b.1 > a.1 || (b.1 == a.1 && b.0 < a.0) { b } else { a });
        if hops <= best.hops && best.searches > 1 {
            break;
        }
        best = Diameter { hops, from, to, ..best };
        from = to;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::bfs_sequential;
    use crate::generate::{generate, GeneratorSpec};
    use crate::graph::{EdgeList, GraphBuilder};

    fn random_directed(n: u32, m: usize, seed: u64) -> Graph {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32 % n
        };
        let edges = (0..m).map(|_| (next(), next())).collect();
        GraphBuilder::new().build(EdgeList::new(n as u64, edges, false)).unwrap()
    }

    #[test]
    fn every_source_of_a_batch_gets_the_sequential_bfs_distances_in_every_direction() {
        let kron = generate(&"kron:9".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let grid = generate(&"grid2d:30x20".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for graph in [kron, grid, random_directed(300, 700, 4)] {
            let sources: Vec<u32> = (0..graph.num_vertices() as u32).step_by(3).collect();
            assert!(sources.len() > BATCH, "more than one batch");
            for directions in [ManyDirections::Switching, ManyDirections::BottomUp, ManyDirections::TopDown] {
                for (&s, got) in sources.iter().zip(distances_from_with(&graph, &sources, directions)) {
                    assert_eq!(got, bfs_sequential(&graph, s).distances, "{directions:?}, source {s}");
                }
            }
        }
    }

    #[test]
    fn batches_side_by_side_give_what_levels_over_every_core_give() {
        let kron = generate(&"kron:9".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        for graph in [kron, random_directed(300, 700, 4)] {
            let n = graph.num_vertices();
            let sources: Vec<u32> = (0..n as u32).step_by(2).collect();
            let by = |spread| {
                (
                    distances_spread(&graph, &sources, ManyDirections::TopDown, spread),
                    distances_spread(&graph, &sources, ManyDirections::BottomUp, spread),
                    centrality_spread(&graph, true, spread),
                    diameter_spread(&graph, spread),
                )
            };
            assert_eq!(by(Spread::Batches), by(Spread::Levels));
        }
        // Side by side only where batches are enough for every core and small enough.
        let threads = rayon::current_num_threads();
        assert_eq!(Spread::of(1000, threads * BATCH), Spread::Batches);
        assert_eq!(Spread::of(SIDE_BY_SIDE_MAX_VERTICES + 1, threads * BATCH), Spread::Levels);
        if threads > 1 {
            assert_eq!(Spread::of(1000, BATCH), Spread::Levels);
        }
    }

    #[test]
    fn closeness_is_networkxs_formula_exactly_and_harmonic_to_rounding() {
        let grid = generate(&"grid2d:13x7".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for graph in [grid, random_directed(200, 500, 6)] {
            let all: Vec<u32> = (0..graph.num_vertices() as u32).collect();
            for wf_improved in [true, false] {
                let found = centrality(&graph, wf_improved);
                let reference = centrality_of(&graph, wf_improved, &all);
                assert_eq!(found.closeness, reference.iter().map(|r| r.0).collect::<Vec<_>>());
                for (got, want) in found.harmonic.iter().zip(&reference) {
                    assert!((got - want.1).abs() <= 1e-12 * want.1.max(1.0), "{got} against {}", want.1);
                }
            }
        }
    }

    #[test]
    fn the_exact_diameter_is_the_largest_eccentricity_and_double_sweeps_bound_it() {
        let grid = generate(&"grid2d:13x7".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        let kron = generate(&"kron:9".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        for graph in [grid, kron, random_directed(300, 700, 4)] {
            let n = graph.num_vertices() as u32;
            let eccentricity =
                |v: u32| bfs_sequential(&graph, v).distances.into_iter().filter(|&d| d != UNREACHED).max().unwrap_or(0);
            let exact = diameter_exact(&graph);
            assert_eq!(exact.hops, (0..n).map(eccentricity).max().unwrap());
            assert_eq!(bfs_sequential(&graph, exact.from).distances[exact.to as usize], exact.hops);
            let start = (0..n).find(|&v| graph.degree(v) > 0).unwrap();
            let swept = diameter_double_sweep(&graph, start, 4);
            assert!(!swept.exact && swept.hops <= exact.hops && swept.searches <= 4);
            assert_eq!(bfs_sequential(&graph, swept.from).distances[swept.to as usize], swept.hops);
        }
        // A mesh's double sweep finds the corner-to-corner path.
        let grid = generate(&"grid2d:13x7".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        assert_eq!(diameter_double_sweep(&grid, 40, 4).hops, 12 + 6);
    }

    #[test]
    fn sampling_every_vertex_gives_the_exact_values_and_a_sample_stays_within_its_bound() {
        let grid = generate(&"grid2d:20x15".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for graph in [grid, random_directed(300, 900, 7)] {
            let n = graph.num_vertices();
            let all: Vec<u32> = (0..n as u32).collect();
            let exact = centrality(&graph, true);
            let whole = sampled_centrality(&graph, true, &all);
            for (got, want) in whole.estimate.closeness.iter().zip(&exact.closeness) {
                assert!((got - want).abs() <= 1e-12, "{got} against {want}");
            }
            for (got, want) in whole.estimate.harmonic.iter().zip(&exact.harmonic) {
                assert!((got - want).abs() <= 1e-9, "{got} against {want}");
            }
            // Every third vertex: each harmonic estimate over n - 1 within epsilon.
            let some: Vec<u32> = all.iter().copied().step_by(3).collect();
            let sample = sampled_centrality(&graph, true, &some);
            for (got, want) in sample.estimate.harmonic.iter().zip(&exact.harmonic) {
                assert!((got - want).abs() / (n - 1) as f64 <= sample.epsilon, "{got} against {want}");
            }
        }
    }
}
