//! Seeded edge weights for any graph, generated or read from a file.
//!
//! | spec | weights |
//! |---|---|
//! | `uniform:LO:HI` | `u32`, uniform in `[LO, HI]` (GAPBS gives its `.wel` graphs `uniform:1:255`) |
//! | `uniform` | `uniform:1:255` |
//! | `graph500` | `f32`, uniform in `[0, 1)`, as Graph500's kernel 3 (SSSP) weights |
//!
//! The weight of an edge is drawn from its own random stream, keyed by the seed and its
//! endpoints, so it is the same on any number of threads; an undirected edge is keyed by its
//! endpoints in ascending order, so both directions get the same weight.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use super::rng::{Purpose, SplitMix64};
use crate::error::{Error, Result};
use crate::graph::{Graph, Weights};

/// How to weight a graph's edges (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightSpec {
    /// `u32` weights uniform in `[lo, hi]`.
    Uniform { lo: u32, hi: u32 },
    /// `f32` weights uniform in `[0, 1)`.
    Graph500,
}

const FORMS: &str = "uniform:LO:HI (integers uniform in [LO, HI], e.g. uniform:1:255), uniform (the same as \
                     uniform:1:255) or graph500 (reals uniform in [0, 1))";

impl WeightSpec {
    /// GAPBS's weights: integers from 1 to 255.
    pub const GAPBS: WeightSpec = WeightSpec::Uniform { lo: 1, hi: 255 };

    /// Checks the parameters, for specs built in code as well as parsed ones.
    pub fn validate(&self) -> Result<()> {
        match *self {
            WeightSpec::Uniform { lo, hi } if lo > hi => Err(Error::InvalidArgument(format!(
                "weight spec {self}: the lowest weight {lo} is above the highest {hi}"
            ))),
            _ => Ok(()),
        }
    }
}

impl FromStr for WeightSpec {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let usage = || Error::InvalidArgument(format!("cannot read weight spec `{s}`: expected {FORMS}"));
        let parts: Vec<&str> = s.split(':').map(str::trim).collect();
        let spec = match parts[..] {
            ["graph500"] => WeightSpec::Graph500,
            ["uniform"] => WeightSpec::GAPBS,
            ["uniform", lo, hi] => {
                WeightSpec::Uniform { lo: lo.parse().map_err(|_| usage())?, hi: hi.parse().map_err(|_| usage())? }
            }
            _ => return Err(usage()),
        };
        spec.validate()?;
        Ok(spec)
    }
}

impl fmt::Display for WeightSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WeightSpec::Uniform { lo, hi } => write!(f, "uniform:{lo}:{hi}"),
            WeightSpec::Graph500 => f.write_str("graph500"),
        }
    }
}

/// Vertices per parallel piece of work.
const CHUNK_VERTICES: usize = 4096;

/// `graph` with seeded weights from `spec` on every edge, replacing any it had.
pub fn attach_weights(graph: Graph, spec: &WeightSpec, seed: u64) -> Result<Graph> {
    spec.validate()?;
    let weights = match *spec {
        WeightSpec::Uniform { lo, hi } => {
            let span = (hi - lo) as u64 + 1;
            Weights::U32(draw(&graph, seed, |rng| lo + rng.next_below(span) as u32))
        }
        WeightSpec::Graph500 => Weights::F32(draw(&graph, seed, |rng| rng.next_f32())),
    };
    Ok(graph.with_valid_weights(Some(weights)))
}

/// One weight per stored edge, in CSR order, each from the stream of its key.
fn draw<W: Copy + Default + Send>(graph: &Graph, seed: u64, weight: impl Fn(&mut SplitMix64) -> W + Sync) -> Vec<W> {
    let offsets = graph.offsets();
    let undirected = graph.is_undirected();
    let mut weights = vec![W::default(); graph.targets().len()];
    crate::graph::pieces_of_whole_lists(offsets, &mut weights, CHUNK_VERTICES).into_par_iter().for_each(
        |(vertices, out)| {
            let mut at = 0;
            for u in vertices {
                for &v in graph.neighbors(u as u32) {
                    let (a, b) = if undirected && v < u as u32 { (v, u as u32) } else { (u as u32, v) };
                    let mut rng = SplitMix64::stream(seed, Purpose::Weights, (a as u64) << 32 | b as u64);
                    out[at] = weight(&mut rng);
                    at += 1;
                }
            }
        },
    );
    weights
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_print_and_refuse_nonsense() {
        assert_eq!("uniform:1:255".parse::<WeightSpec>().unwrap(), WeightSpec::Uniform { lo: 1, hi: 255 });
        assert_eq!("uniform".parse::<WeightSpec>().unwrap(), WeightSpec::GAPBS);
        assert_eq!("graph500".parse::<WeightSpec>().unwrap(), WeightSpec::Graph500);
        assert_eq!(WeightSpec::Uniform { lo: 0, hi: 9 }.to_string(), "uniform:0:9");
        for bad in ["uniform:5:1", "uniform:-1:4", "uniform:1", "graph500:2", "normal", ""] {
            let err = bad.parse::<WeightSpec>().unwrap_err().to_string();
            assert!(err.contains("weight spec"), "{bad}: {err}");
        }
        assert!("uniform:5:1".parse::<WeightSpec>().unwrap_err().to_string().contains("above the highest"));
    }
}
