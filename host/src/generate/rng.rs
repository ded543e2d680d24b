//! Counter-based random numbers, so that generators can run on any number of threads and
//! still produce the same graph: the random stream of edge `i` is a function of
//! `(seed, purpose, i)` alone, never of which thread got there first.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

/// The SplitMix64 output function (Steele, Lea & Flood 2014): a bijection on `u64` that
/// scrambles nearby inputs into unrelated outputs.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Separate purposes draw from separate streams, so e.g. the vertex permutation does not
/// correlate with the edges made from the same seed.
#[derive(Clone, Copy)]
pub(crate) enum Purpose {
    Edges = 1,
    Permutation = 2,
    Weights = 3,
}

/// A small sequential generator: SplitMix64, the one warpath uses everywhere (generators,
/// root choice, tests).
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The plain sequence from state `seed` (Steele, Lea & Flood's own seeding).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The stream for item `index` of `purpose` under `seed`.
    pub(crate) fn stream(seed: u64, purpose: Purpose, index: u64) -> Self {
        let key = mix64(seed ^ mix64(purpose as u64));
        SplitMix64 { state: mix64(key.wrapping_add(index.wrapping_mul(GOLDEN_GAMMA))) }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix64(self.state)
    }

    /// The generator `draws` draws further on: SplitMix64's state moves by a constant a draw.
    pub(crate) fn ahead(&self, draws: u64) -> Self {
        SplitMix64 { state: self.state.wrapping_add(draws.wrapping_mul(GOLDEN_GAMMA)) }
    }

    /// The high half of [`Self::next_u64`].
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `[0, 1)`, with the 53 bits an `f64` can hold.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[0, 1)` with the 24 bits an `f32` holds exactly, so it never rounds up to 1.
    pub(crate) fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// Uniform in `0..bound` by multiply-and-shift (Lemire). The bias is below
    /// `bound / 2^64`, under 2^-32 for any vertex count warpath accepts.
    pub fn next_below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}

/// A uniformly random permutation of `0..n`, the same for the same seed: Fisher-Yates (for `i`
/// from `n - 1` down to 1, swap positions `i` and `j <= i`, `j` the stream's next draw below
/// `i + 1`), its swaps run on every core by deterministic reservations (Shun, Gu, Blelloch,
/// Fineman and Gibbons, "Sequential Random Permutation, List Contraction and Tree Contraction
/// are Highly Parallel", SODA 2015, section 3): each round, every pending swap reserves its two
/// positions, the one first in the sequential order winning a position; a swap that holds both
/// of its positions has no earlier swap left touching them, so it commits, and the result is
/// the sequential one. The others wait for the next round, with the next swaps in order.
/// Reserving, checking and clearing touch every position about three times as often as the
/// sequential swaps do, so with fewer than [`PARALLEL_SWAP_THREADS`] threads the swaps run one
/// after the other instead (the same permutation either way).
pub(crate) fn permutation(n: u32, seed: u64) -> Vec<u32> {
    if rayon::current_num_threads() < PARALLEL_SWAP_THREADS {
        return sequential_permutation(n, seed);
    }
    let stream = SplitMix64::stream(seed, Purpose::Permutation, 0);
    // The stream is counter-based: swap i takes draw n - 1 - i, computed wherever it is needed.
    let swap = |i: u32| (i, stream.ahead(u64::from(n - 1 - i)).next_below(u64::from(i) + 1) as u32);
    let perm: Vec<AtomicU32> = (0..n).into_par_iter().map(AtomicU32::new).collect();
    // The first swap in the sequential order (the highest `i`) to reserve each position; 0 for
    // none, as swap 0 does not exist.
    let reserved: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
    let round = (n as usize / 64).max(1 << 14);
    let mut pending: Vec<(u32, u32)> = Vec::new();
    let mut next = n.saturating_sub(1);
    while next > 0 || !pending.is_empty() {
        let fresh = round.saturating_sub(pending.len()).min(next as usize) as u32;
        let start = pending.len();
        pending.par_extend((0..fresh).into_par_iter().map(|k| swap(next - k)));
        debug_assert!(pending[start..].windows(2).all(|w| w[0].0 > w[1].0));
        next -= fresh;
        pending.par_iter().for_each(|&(i, j)| {
            reserved[i as usize].fetch_max(i, Relaxed);
            reserved[j as usize].fetch_max(i, Relaxed);
        });
        let waiting: Vec<(u32, u32)> = pending
            .par_iter()
            .copied()
            .filter(|&(i, j)| {
                let holds = reserved[i as usize].load(Relaxed) == i && reserved[j as usize].load(Relaxed) == i;
                if holds {
                    // No other committing swap touches positions i or j this round.
                    let at_j = perm[j as usize].load(Relaxed);
                    perm[j as usize].store(perm[i as usize].load(Relaxed), Relaxed);
                    perm[i as usize].store(at_j, Relaxed);
                }
                !holds
            })
            .collect();
        pending.par_iter().for_each(|&(i, j)| {
            reserved[i as usize].store(0, Relaxed);
            reserved[j as usize].store(0, Relaxed);
        });
        pending = waiting;
    }
    perm.into_par_iter().map(AtomicU32::into_inner).collect()
}

/// Threads from which [`permutation`] swaps in parallel.
const PARALLEL_SWAP_THREADS: usize = 8;

/// Fisher-Yates one swap after the other.
fn sequential_permutation(n: u32, seed: u64) -> Vec<u32> {
    let mut perm: Vec<u32> = (0..n).collect();
    let mut rng = SplitMix64::stream(seed, Purpose::Permutation, 0);
    for i in (1..perm.len()).rev() {
        let j = rng.next_below(i as u64 + 1) as usize;
        perm.swap(i, j);
    }
    perm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_index_and_purpose() {
        let a = SplitMix64::stream(7, Purpose::Edges, 0).next_u64();
        let b = SplitMix64::stream(7, Purpose::Edges, 1).next_u64();
        let c = SplitMix64::stream(7, Purpose::Permutation, 0).next_u64();
        assert!(a != b && a != c && b != c);
        assert_eq!(a, SplitMix64::stream(7, Purpose::Edges, 0).next_u64());
    }

    #[test]
    fn permutation_is_a_permutation() {
        let mut p = permutation(1000, 3);
        assert_ne!(p, (0..1000).collect::<Vec<u32>>());
        p.sort_unstable();
        assert_eq!(p, (0..1000).collect::<Vec<u32>>());
    }

    /// The parallel swaps (on a pool of 8 threads, whatever the machine has) give the
    /// sequential Fisher-Yates permutation, so the graphs of a seed stay what they were.
    #[test]
    fn parallel_permutation_equals_the_sequential_one() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(PARALLEL_SWAP_THREADS).build().unwrap();
        // Below one round, exactly one, a ragged last round, many rounds with conflicts.
        let sizes = [(0, 1), (1, 1), (2, 9), (1000, 3), (1 << 14, 5), ((1 << 14) + 1, 6), (100_003, 7), (1 << 21, 8)];
        for (n, seed) in sizes {
            let parallel = pool.install(|| permutation(n, seed));
            assert_eq!(parallel, sequential_permutation(n, seed), "n = {n}, seed {seed}");
        }
        assert_eq!(permutation(1000, 3), sequential_permutation(1000, 3));
    }

    #[test]
    fn ahead_skips_draws() {
        let mut rng = SplitMix64::stream(4, Purpose::Permutation, 0);
        let skipped = rng.ahead(5).next_u64();
        let draws: Vec<u64> = (0..6).map(|_| rng.next_u64()).collect();
        assert_eq!(skipped, draws[5]);
    }

    #[test]
    fn floats_stay_in_unit_interval_and_spread() {
        let mut rng = SplitMix64::stream(1, Purpose::Edges, 0);
        let draws: Vec<f64> = (0..10_000).map(|_| rng.next_f64()).collect();
        assert!(draws.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
        let singles: Vec<f32> = (0..10_000).map(|_| rng.next_f32()).collect();
        assert!(singles.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = singles.iter().sum::<f32>() / singles.len() as f32;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
    }
}
