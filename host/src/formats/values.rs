//! A weight column read to describe it ([`ReadOptions::describe_weights`]) rather than to run on
//! it: values that are no valid edge weight (negative, not finite, beyond the weight type) are
//! not refused but noted, with the range of all the column's values, so that `info` can say
//! what a matrix of signed values holds. A graph never holds such a weight: where one is
//! found, the reader drops the column and gives back a [`WeightValues`] instead.
//!
//! [`ReadOptions::describe_weights`]: super::ReadOptions::describe_weights

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::text::{self, Column};
use crate::graph::{WeightKind, WeightValues, Weights};

/// `keep`'s column, read as it is, or where `describe` is set, each value's number also noted
/// in the column's range and a value `keep` refuses (a number, but no edge weight) taken as a
/// placeholder instead of an error. What is not a number at all is still refused, with
/// `keep`'s words.
///
/// The body is parsed by all cores at once, so the range is kept in atomics; each is written
/// only when a value widens it, which after the first lines is rare, so the threads mostly
/// read a shared cache line.
pub(crate) struct Described<C> {
    keep: C,
    kind: WeightKind,
    /// Off, the column is `keep` behind one branch that always goes the same way.
    describe: bool,
    /// The smallest and largest value seen, as [`order_key`]s.
    min: AtomicU64,
    max: AtomicU64,
    invalid: AtomicBool,
    not_a_number: AtomicBool,
}

impl<C: Column> Described<C> {
    pub(crate) fn new(keep: C, kind: WeightKind, describe: bool) -> Self {
        Described {
            keep,
            kind,
            describe,
            min: AtomicU64::new(u64::MAX),
            max: AtomicU64::new(0),
            invalid: AtomicBool::new(false),
            not_a_number: AtomicBool::new(false),
        }
    }

    /// The column's values, where some were no edge weight; `None` when every one is a weight
    /// (the weights read are then the column's, as `keep` reads them).
    pub(crate) fn values(&self) -> Option<WeightValues> {
        if !self.invalid.load(Relaxed) {
            return None;
        }
        let (min, max) = (self.min.load(Relaxed), self.max.load(Relaxed));
        Some(WeightValues {
            kind: self.kind,
            range: (min <= max).then(|| (from_order_key(min), from_order_key(max))),
            not_a_number: self.not_a_number.load(Relaxed),
        })
    }

    /// The weights read (`wrap`ped into [`Weights`]), or where some value was no edge weight,
    /// none and what the column held.
    pub(crate) fn kept(
        &self,
        weights: Vec<C::Value>,
        wrap: impl FnOnce(Vec<C::Value>) -> Weights,
    ) -> (Option<Weights>, Option<WeightValues>) {
        match self.values() {
            Some(values) => (None, Some(values)),
            None => (Some(wrap(weights)), None),
        }
    }

    fn note(&self, x: f64) {
        if x.is_nan() {
            self.not_a_number.store(true, Relaxed);
            return;
        }
        // + 0.0 makes -0 a 0, as the readers store it.
        let key = order_key(x + 0.0);
        // A value is seen again when the fast path hands its line to the careful parser:
        // taking the minimum and maximum twice changes nothing.
        if key < self.min.load(Relaxed) {
            self.min.fetch_min(key, Relaxed);
        }
        if key > self.max.load(Relaxed) {
            self.max.fetch_max(key, Relaxed);
        }
    }
}

impl<C: Column> Column for Described<C> {
    type Value = C::Value;

    #[inline]
    fn value(&self, token: &[u8]) -> Result<C::Value, String> {
        if !self.describe {
            return self.keep.value(token);
        }
        let number = match self.kind {
            WeightKind::U32 => text::parse_i64(token).map(|x| x as f64),
            WeightKind::F32 => text::parse_real(token),
        };
        let Some(x) = number else { return self.keep.value(token) };
        self.note(x);
        Ok(self.keep.value(token).unwrap_or_else(|_| {
            self.invalid.store(true, Relaxed);
            C::Value::default()
        }))
    }
}

/// `x`'s bits, made to order as the numbers do (negative ones reversed below the positive),
/// so that atomic integer minima and maxima find the smallest and largest number.
fn order_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

fn from_order_key(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 { key & !(1 << 63) } else { !key })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_keys_order_as_the_numbers_and_come_back() {
        let numbers = [f64::NEG_INFINITY, -1e300, -3.25, -1e-300, 0.0, 1e-300, 2.0, 1e300, f64::INFINITY];
        for pair in numbers.windows(2) {
            assert!(order_key(pair[0]) < order_key(pair[1]), "{pair:?}");
        }
        for x in numbers {
            assert_eq!(from_order_key(order_key(x)), x);
        }
    }

    #[test]
    fn a_described_column_notes_every_value_and_refuses_only_what_is_no_number() {
        let column = Described::new(text::KeepReal("value"), WeightKind::F32, true);
        assert_eq!(column.value(b"2.5"), Ok(2.5));
        assert_eq!(column.values(), None, "every value so far is a weight");
        assert_eq!(column.value(b"-3.25"), Ok(0.0));
        assert_eq!(column.value(b"-0"), Ok(0.0));
        assert!(column.value(b"x").unwrap_err().contains("a real number"));
        assert_eq!(
            column.values(),
            Some(WeightValues { kind: WeightKind::F32, range: Some((-3.25, 2.5)), not_a_number: false })
        );
        assert_eq!(column.values().unwrap().problem(), "negative");

        let integers = Described::new(text::KeepInteger("weight"), WeightKind::U32, true);
        assert_eq!(integers.value(b"7"), Ok(7));
        assert_eq!(integers.value(b"5000000000"), Ok(0));
        assert!(integers.value(b"1.5").is_err());
        let values = integers.values().unwrap();
        assert_eq!((values.range, values.problem()), (Some((7.0, 5e9)), "too large for u32"));

        let plain = Described::new(text::KeepReal("value"), WeightKind::F32, false);
        assert!(plain.value(b"-3.25").unwrap_err().contains("(negative)"), "not describing, the column refuses");
        assert_eq!(plain.values(), None);

        let nan = Described::new(text::KeepReal("value"), WeightKind::F32, true);
        assert_eq!(nan.value(b"nan"), Ok(0.0));
        let values = nan.values().unwrap();
        assert_eq!((values.range, values.not_a_number, values.problem()), (None, true, "not a number"));
    }
}
