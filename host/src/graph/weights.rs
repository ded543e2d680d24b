//! Edge weights: one value per stored edge, parallel to a graph's targets (or to an edge
//! list's edges), either integers (`u32`: DIMACS `.gr`, Matrix Market `integer`, GAPBS
//! `.wel`) or reals (`f32`: Matrix Market `real`, Graph500's kernel 3).
//!
//! Weights are never negative, NaN or infinite: shortest-path algorithms (Dijkstra,
//! delta-stepping) are only correct on non-negative weights, so every way in (readers,
//! builder, [`Graph::with_weights`](crate::Graph::with_weights)) refuses such values.

use std::fmt;
use std::ops::Range;

use rayon::prelude::*;

/// One weight per edge, in edge order.
///
/// Equality compares `f32` weights bit for bit, which makes it a true equivalence (NaN is
/// refused anyway, and readers store `-0` as `0`).
#[derive(Clone, Debug)]
pub enum Weights {
    U32(Vec<u32>),
    F32(Vec<f32>),
}

/// The type of a graph's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightKind {
    U32,
    F32,
}

/// A borrowed run of weights, such as those of one neighbor list
/// ([`Graph::neighbor_weights`](crate::Graph::neighbor_weights)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightSlice<'a> {
    U32(&'a [u32]),
    F32(&'a [f32]),
}

/// The smallest and largest weight of a graph, in the graph's weight type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightRange {
    U32 { min: u32, max: u32 },
    F32 { min: f32, max: f32 },
}

impl Weights {
    pub fn len(&self) -> usize {
        match self {
            Weights::U32(w) => w.len(),
            Weights::F32(w) => w.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn kind(&self) -> WeightKind {
        match self {
            Weights::U32(_) => WeightKind::U32,
            Weights::F32(_) => WeightKind::F32,
        }
    }

    /// All the weights, borrowed.
    pub fn as_slice(&self) -> WeightSlice<'_> {
        self.slice(0..self.len())
    }

    /// The weights of edges `range`.
    pub fn slice(&self, range: Range<usize>) -> WeightSlice<'_> {
        match self {
            Weights::U32(w) => WeightSlice::U32(&w[range]),
            Weights::F32(w) => WeightSlice::F32(&w[range]),
        }
    }

    /// Smallest and largest weight; `None` when there are none.
    pub fn range(&self) -> Option<WeightRange> {
        if self.is_empty() {
            return None;
        }
        Some(match self {
            Weights::U32(w) => WeightRange::U32 {
                min: w.par_iter().copied().min().unwrap(),
                max: w.par_iter().copied().max().unwrap(),
            },
            Weights::F32(w) => WeightRange::F32 {
                min: w.par_iter().copied().reduce(|| f32::INFINITY, f32::min),
                max: w.par_iter().copied().reduce(|| f32::NEG_INFINITY, f32::max),
            },
        })
    }

    /// The first weight that is not a valid edge weight (negative, NaN or infinite) with its
    /// index; `None` when all are valid. Integer weights are always valid.
    pub fn first_invalid(&self) -> Option<(usize, f32)> {
        match self {
            Weights::U32(_) => None,
            Weights::F32(w) => {
                // Valid: not NaN (which fails every comparison), not below zero, finite.
                let any_invalid =
                    |chunk: &[f32]| chunk.iter().fold(false, |bad, &x| bad | !(x >= 0.0 && x.is_finite()));
                let first = crate::graph::first_where(w, any_invalid, |&x| weight_problem(x).is_some());
                first.map(|i| (i, w[i]))
            }
        }
    }
}

impl PartialEq for Weights {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Weights::U32(a), Weights::U32(b)) => a == b,
            (Weights::F32(a), Weights::F32(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            _ => false,
        }
    }
}

impl Eq for Weights {}

impl WeightSlice<'_> {
    pub fn len(&self) -> usize {
        match self {
            WeightSlice::U32(w) => w.len(),
            WeightSlice::F32(w) => w.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn kind(&self) -> WeightKind {
        match self {
            WeightSlice::U32(_) => WeightKind::U32,
            WeightSlice::F32(_) => WeightKind::F32,
        }
    }

    /// Weight `i` as an `f64`, which holds every `u32` and every `f32` exactly.
    pub fn get(&self, i: usize) -> f64 {
        match self {
            WeightSlice::U32(w) => w[i] as f64,
            WeightSlice::F32(w) => w[i] as f64,
        }
    }

    pub fn as_u32(&self) -> Option<&[u32]> {
        match *self {
            WeightSlice::U32(w) => Some(w),
            WeightSlice::F32(_) => None,
        }
    }

    pub fn as_f32(&self) -> Option<&[f32]> {
        match *self {
            WeightSlice::F32(w) => Some(w),
            WeightSlice::U32(_) => None,
        }
    }
}

impl WeightKind {
    /// `u32` or `f32`.
    pub fn name(self) -> &'static str {
        match self {
            WeightKind::U32 => "u32",
            WeightKind::F32 => "f32",
        }
    }
}

impl fmt::Display for WeightKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl WeightRange {
    pub fn kind(&self) -> WeightKind {
        match self {
            WeightRange::U32 { .. } => WeightKind::U32,
            WeightRange::F32 { .. } => WeightKind::F32,
        }
    }

    /// The smallest weight as an `f64` (exact for both kinds).
    pub fn min(&self) -> f64 {
        match *self {
            WeightRange::U32 { min, .. } => min as f64,
            WeightRange::F32 { min, .. } => min as f64,
        }
    }

    /// The largest weight as an `f64` (exact for both kinds).
    pub fn max(&self) -> f64 {
        match *self {
            WeightRange::U32 { max, .. } => max as f64,
            WeightRange::F32 { max, .. } => max as f64,
        }
    }
}

/// `u32 weights from 1 to 255`, `f32 weights from 0.00012 to 0.99987`.
impl fmt::Display for WeightRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WeightRange::U32 { min, max } => write!(f, "u32 weights from {min} to {max}"),
            WeightRange::F32 { min, max } => write!(f, "f32 weights from {min} to {max}"),
        }
    }
}

/// What a file's weight column held when some of its values are no valid edge weight, read to
/// describe the file ([`ReadOptions::describe_weights`](crate::formats::ReadOptions)) rather
/// than refused: the graph is then built without weights, and this says what they were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightValues {
    /// The weight type the column gives: `u32` for integers, `f32` for reals.
    pub kind: WeightKind,
    /// The smallest and largest value, as written (`None` when no value is a number).
    pub range: Option<(f64, f64)>,
    /// Some value is NaN, which no range holds.
    pub not_a_number: bool,
}

impl WeightValues {
    /// What makes the values no edge weights, the first of: `negative`, `infinite`, `not a
    /// number`, or too large for the weight type.
    pub fn problem(&self) -> &'static str {
        let (min, max) = self.range.unwrap_or((0.0, 0.0));
        if min < 0.0 {
            "negative"
        } else if max.is_infinite() {
            "infinite"
        } else if self.not_a_number {
            "not a number"
        } else {
            match self.kind {
                WeightKind::U32 => "too large for u32",
                WeightKind::F32 => "too large for f32",
            }
        }
    }
}

/// Why `x` is not a valid edge weight, or `None` when it is.
pub(crate) fn weight_problem(x: f32) -> Option<&'static str> {
    if x.is_nan() {
        Some("not a number")
    } else if x.is_infinite() {
        Some("infinite")
    } else if x < 0.0 {
        Some("negative")
    } else {
        None
    }
}

/// A real weight read from text as `f64`, made an `f32` edge weight: refused when negative,
/// NaN, infinite or beyond `f32`'s range; `-0` becomes `0` so that equal weights have equal bits.
pub(crate) fn f32_weight(x: f64) -> Result<f32, &'static str> {
    if x.is_nan() {
        return Err("not a number");
    }
    if x.is_infinite() {
        return Err("infinite");
    }
    if x < 0.0 {
        return Err("negative");
    }
    let single = x as f32;
    if single.is_infinite() {
        return Err("too large for an f32 weight");
    }
    // Adding +0 turns -0 into +0 and leaves every other value alone.
    Ok(single + 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_slices() {
        let w = Weights::U32(vec![5, 1, 9, 3]);
        assert_eq!(w.range(), Some(WeightRange::U32 { min: 1, max: 9 }));
        assert_eq!(w.slice(1..3), WeightSlice::U32(&[1, 9]));
        assert_eq!(w.slice(1..3).get(1), 9.0);
        assert_eq!(w.range().unwrap().to_string(), "u32 weights from 1 to 9");
        let f = Weights::F32(vec![0.5, 0.25]);
        assert_eq!(f.range(), Some(WeightRange::F32 { min: 0.25, max: 0.5 }));
        assert_eq!(f.range().unwrap().min(), 0.25);
        assert_eq!(f.as_slice().as_f32(), Some(&[0.5f32, 0.25][..]));
        assert_eq!(f.as_slice().as_u32(), None);
        assert_eq!(Weights::F32(vec![]).range(), None);
    }

    #[test]
    fn invalid_values_are_found_and_named() {
        assert_eq!(Weights::F32(vec![1.0, -2.0, f32::NAN]).first_invalid(), Some((1, -2.0)));
        assert_eq!(Weights::F32(vec![0.0, 3.5]).first_invalid(), None);
        // Past the first chunks the checks read whole (-0.0 is a zero weight, valid).
        let mut many = vec![-0.0f32; 200_000];
        assert_eq!(Weights::F32(many.clone()).first_invalid(), None);
        (many[150_001], many[150_000], many[199_999]) = (f32::NEG_INFINITY, f32::NAN, -1.0);
        assert_eq!(Weights::F32(many).first_invalid().map(|(i, _)| i), Some(150_000));
        assert_eq!(weight_problem(f32::INFINITY), Some("infinite"));
        assert_eq!(f32_weight(-1.0), Err("negative"));
        assert_eq!(f32_weight(1e300), Err("too large for an f32 weight"));
        assert_eq!(f32_weight(f64::NAN), Err("not a number"));
        assert_eq!(f32_weight(-0.0).unwrap().to_bits(), 0.0f32.to_bits());
    }

    #[test]
    fn equality_is_by_kind_and_bits() {
        assert_eq!(Weights::F32(vec![1.5]), Weights::F32(vec![1.5]));
        assert_ne!(Weights::F32(vec![1.0]), Weights::U32(vec![1]));
        assert_ne!(Weights::F32(vec![0.0]), Weights::F32(vec![-0.0]));
    }
}
