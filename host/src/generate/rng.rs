//! Counter-based random numbers, so that generators can run on any number of threads and
//! still produce the same graph: the random stream of edge `i` is a function of
//! `(seed, purpose, i)` alone, never of which thread got there first.

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

/// A uniformly random permutation of `0..n` (Fisher-Yates), the same for the same seed.
pub(crate) fn permutation(n: u32, seed: u64) -> Vec<u32> {
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
