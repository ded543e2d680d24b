//! The statistics a benchmark reports: minimum, median and maximum of times, and the harmonic
//! mean of rates (Graph500 summarizes TEPS by their harmonic mean, since the mean of a rate over
//! equal amounts of work is harmonic). Pure functions, tested against hand-computed cases.

use serde::{Deserialize, Serialize};

/// Minimum, median and maximum of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `values`; `None` when there are none. NaN values are not allowed.
    pub fn of(values: &[f64]) -> Option<Spread> {
        let median = median(values)?;
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(Spread { min, median, max })
    }
}

/// The median: the middle value of the sorted sample, or the mean of the two middle values when
/// the sample has an even size (as Graph500's reference code computes it). `None` when empty.
///
/// Panics if a value is NaN.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).expect("median of a sample with NaN"));
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 { sorted[mid] } else { (sorted[mid - 1] + sorted[mid]) / 2.0 })
}

/// The harmonic mean `n / Σ 1/x`. `None` when empty or when a value is negative or NaN. A zero
/// value makes the mean zero; an infinite one (a rate over a time too short to measure)
/// contributes nothing to the sum of reciprocals.
pub fn harmonic_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|x| x.is_nan() || *x < 0.0) {
        return None;
    }
    if values.contains(&0.0) {
        return Some(0.0);
    }
    let reciprocals: f64 = values.iter().map(|x| 1.0 / x).sum();
    Some(if reciprocals == 0.0 { f64::INFINITY } else { values.len() as f64 / reciprocals })
}

/// Traversed edges per second in billions (GTEPS): `edges / seconds / 1e9`; infinite for a zero
/// time with edges, zero for no edges.
pub fn gteps(edges: u64, seconds: f64) -> f64 {
    if edges == 0 {
        0.0
    } else {
        edges as f64 / seconds / 1e9
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_samples() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        // Sorted: 1, 2, 4, 10 -> (2 + 4) / 2.
        assert_eq!(median(&[10.0, 2.0, 1.0, 4.0]), Some(3.0));
        assert_eq!(median(&[7.5]), Some(7.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn spread_of_a_sample() {
        let s = Spread::of(&[5.0, 1.0, 9.0, 3.0]).unwrap();
        assert_eq!(s, Spread { min: 1.0, median: 4.0, max: 9.0 });
        assert!(Spread::of(&[]).is_none());
    }

    #[test]
    fn harmonic_mean_by_hand() {
        // 2 / (1/1 + 1/4) = 2 / 1.25 = 1.6
        assert_eq!(harmonic_mean(&[1.0, 4.0]), Some(1.6));
        // 3 / (1/2 + 1/3 + 1/6) = 3 / 1 = 3
        assert!((harmonic_mean(&[2.0, 3.0, 6.0]).unwrap() - 3.0).abs() < 1e-12);
        assert_eq!(harmonic_mean(&[5.0]), Some(5.0));
        assert_eq!(harmonic_mean(&[0.0, 5.0]), Some(0.0));
        assert_eq!(harmonic_mean(&[f64::INFINITY, 2.0]), Some(4.0));
        assert_eq!(harmonic_mean(&[]), None);
        assert_eq!(harmonic_mean(&[-1.0, 2.0]), None);
    }

    #[test]
    fn gteps_by_hand() {
        assert_eq!(gteps(2_000_000_000, 2.0), 1.0);
        assert_eq!(gteps(0, 0.0), 0.0);
        assert_eq!(gteps(5, 0.0), f64::INFINITY);
    }
}
