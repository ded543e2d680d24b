//! Seeded synthetic graphs, named on the command line by specs such as `kron:20`.
//!
//! Every generator is deterministic: the same spec and seed give the same graph on any
//! number of threads. All graphs have 0-based ids and are undirected but `dkron`'s.
//!
//! | spec | graph |
//! |---|---|
//! | `kron:SCALE[:EDGEFACTOR]` | Graph500 Kronecker, `2^SCALE` vertices, `EDGEFACTOR·2^SCALE` edges (default 16) |
//! | `dkron:SCALE[:EDGEFACTOR]` | the same edges directed, each from its row vertex to its column vertex (Graph500's tuples as drawn, not symmetrized) |
//! | `rmat:SCALE:EDGEFACTOR:A,B,C` | R-MAT with initiator probabilities A, B, C (D = 1 − A − B − C) |
//! | `urand:SCALE[:EDGEFACTOR]` | uniform random G(n, m) |
//! | `grid2d:W[xH]` | W×H 5-point grid (H defaults to W) |
//! | `grid3d:N` | N×N×N 7-point grid |
//!
//! Weights for any graph, generated or read, come from a [`WeightSpec`] (`uniform:1:255`,
//! `graph500`) through [`attach_weights`].

mod grid;
mod kronecker;
pub mod rng;
mod uniform;
mod weights;

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::graph::{EdgeList, Graph, GraphBuilder, MAX_VERTICES};
use crate::memory::GraphSize;

pub use kronecker::GRAPH500_ABC;
pub use weights::{attach_weights, WeightSpec};

/// Graph500's edge factor: edges per vertex before duplicates and self-loops are removed.
pub const DEFAULT_EDGE_FACTOR: u32 = 16;

/// The largest scale: `2^32` vertices would need id `u32::MAX`, which is reserved.
pub const MAX_SCALE: u32 = 31;

const NAMES: [&str; 6] = ["kron", "dkron", "rmat", "urand", "grid2d", "grid3d"];
const FORMS: &str = "kron:SCALE[:EDGEFACTOR], dkron:SCALE[:EDGEFACTOR], rmat:SCALE:EDGEFACTOR:A,B,C, \
                     urand:SCALE[:EDGEFACTOR], grid2d:W[xH] or grid3d:N";

/// A synthetic graph, as named by a spec string (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub enum GeneratorSpec {
    Kronecker {
        scale: u32,
        edge_factor: u32,
    },
    /// Kronecker's edges kept directed (`dkron`): the graph for strongly connected components.
    DirectedKronecker {
        scale: u32,
        edge_factor: u32,
    },
    Rmat {
        scale: u32,
        edge_factor: u32,
        a: f64,
        b: f64,
        c: f64,
    },
    Uniform {
        scale: u32,
        edge_factor: u32,
    },
    Grid2d {
        width: u64,
        height: u64,
    },
    Grid3d {
        n: u64,
    },
}

/// True when `s` reads as a generator spec rather than a file name: the part before the
/// first `:` is a generator's name.
pub fn looks_like_spec(s: &str) -> bool {
    s.split_once(':').is_some_and(|(name, _)| NAMES.contains(&name))
}

/// Makes the graph `spec` names, from `seed`.
pub fn generate(spec: &GeneratorSpec, seed: u64) -> Result<Graph> {
    GraphBuilder::new().build(generate_edges(spec, seed)?)
}

/// The edges of the graph `spec` names, from `seed`, before the builder cleans them.
pub fn generate_edges(spec: &GeneratorSpec, seed: u64) -> Result<EdgeList> {
    spec.validate()?;
    Ok(match *spec {
        GeneratorSpec::Kronecker { scale, edge_factor } => {
            kronecker::rmat_edges(scale, edge_factor, GRAPH500_ABC, seed, true)
        }
        GeneratorSpec::DirectedKronecker { scale, edge_factor } => {
            kronecker::rmat_edges(scale, edge_factor, GRAPH500_ABC, seed, false)
        }
        GeneratorSpec::Rmat { scale, edge_factor, a, b, c } => {
            kronecker::rmat_edges(scale, edge_factor, (a, b, c), seed, true)
        }
        GeneratorSpec::Uniform { scale, edge_factor } => uniform::uniform_edges(scale, edge_factor, seed),
        GeneratorSpec::Grid2d { width, height } => grid::grid2d_edges(width, height),
        GeneratorSpec::Grid3d { n } => grid::grid3d_edges(n),
    })
}

impl GeneratorSpec {
    /// The number of vertices the graph will have.
    pub fn num_vertices(&self) -> u64 {
        match *self {
            GeneratorSpec::Kronecker { scale, .. }
            | GeneratorSpec::DirectedKronecker { scale, .. }
            | GeneratorSpec::Rmat { scale, .. }
            | GeneratorSpec::Uniform { scale, .. } => 1u64.checked_shl(scale).unwrap_or(u64::MAX),
            GeneratorSpec::Grid2d { width, height } => width.saturating_mul(height),
            GeneratorSpec::Grid3d { n } => n.saturating_mul(n).saturating_mul(n),
        }
    }

    /// The number of edges the generator lists, before self-loops and repeats are dropped
    /// (saturating, for specs too big to make).
    pub fn num_edges(&self) -> u64 {
        match *self {
            GeneratorSpec::Kronecker { scale, edge_factor }
            | GeneratorSpec::DirectedKronecker { scale, edge_factor }
            | GeneratorSpec::Rmat { scale, edge_factor, .. }
            | GeneratorSpec::Uniform { scale, edge_factor } => {
                (edge_factor as u64).checked_shl(scale).filter(|m| m >> scale == edge_factor as u64).unwrap_or(u64::MAX)
            }
            GeneratorSpec::Grid2d { width, height } => {
                (width - 1).saturating_mul(height).saturating_add(width.saturating_mul(height - 1))
            }
            GeneratorSpec::Grid3d { n } => 3u64.saturating_mul(n).saturating_mul(n).saturating_mul(n - 1),
        }
    }

    /// What the graph takes to generate and build, for the memory guard; `weighted` when
    /// weights will be attached.
    pub fn size(&self, weighted: bool) -> GraphSize {
        GraphSize {
            vertices: self.num_vertices(),
            edges: self.num_edges(),
            undirected: !matches!(self, GeneratorSpec::DirectedKronecker { .. }),
            weight_bytes: if weighted { 4 } else { 0 },
        }
    }

    /// Checks the parameters, for specs built in code as well as parsed ones.
    pub fn validate(&self) -> Result<()> {
        let invalid = |message: String| Err(Error::InvalidArgument(message));
        match *self {
            GeneratorSpec::Kronecker { scale, edge_factor }
            | GeneratorSpec::DirectedKronecker { scale, edge_factor }
            | GeneratorSpec::Rmat { scale, edge_factor, .. }
            | GeneratorSpec::Uniform { scale, edge_factor } => {
                if scale > MAX_SCALE {
                    return Err(Error::TooManyVertices { vertices: self.num_vertices() });
                }
                if edge_factor == 0 {
                    return invalid(format!("{self}: the edge factor must be at least 1"));
                }
                // Refused here rather than left to abort the process inside an allocation.
                let edge_list_bytes = (edge_factor as u128) << scale << 3;
                if edge_list_bytes > isize::MAX as u128 {
                    return invalid(format!(
                        "{self}: {} edges cannot be held in memory; lower the scale or the edge factor",
                        (edge_factor as u128) << scale
                    ));
                }
            }
            GeneratorSpec::Grid2d { width, height } => {
                if width == 0 || height == 0 {
                    return invalid(format!("{self}: a grid needs a width and height of at least 1"));
                }
            }
            GeneratorSpec::Grid3d { n } => {
                if n == 0 {
                    return invalid(format!("{self}: a grid needs a side of at least 1"));
                }
            }
        }
        if let GeneratorSpec::Rmat { a, b, c, .. } = *self {
            if ![a, b, c].iter().all(|p| p.is_finite() && *p >= 0.0) || a + b + c >= 1.0 {
                return invalid(format!(
                    "{self}: the R-MAT probabilities A, B, C must be non-negative and sum to less than 1 \
                     (D = 1 - A - B - C), e.g. rmat:20:16:0.57,0.19,0.19"
                ));
            }
        }
        if self.num_vertices() > MAX_VERTICES {
            return Err(Error::TooManyVertices { vertices: self.num_vertices() });
        }
        Ok(())
    }
}

impl FromStr for GeneratorSpec {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let parts: Vec<&str> = s.split(':').collect();
        let usage = |form: &str| Error::InvalidArgument(format!("cannot read generator spec `{s}`: expected {form}"));
        let number = |text: &str, form: &str| text.trim().parse::<u64>().map_err(|_| usage(form));
        let small = |text: &str, form: &str| text.trim().parse::<u32>().map_err(|_| usage(form));
        let spec = match parts[..] {
            ["kron", scale] => {
                GeneratorSpec::Kronecker { scale: small(scale, KRON)?, edge_factor: DEFAULT_EDGE_FACTOR }
            }
            ["kron", scale, edge_factor] => {
                GeneratorSpec::Kronecker { scale: small(scale, KRON)?, edge_factor: small(edge_factor, KRON)? }
            }
            ["kron", ..] => return Err(usage(KRON)),
            ["dkron", scale] => {
                GeneratorSpec::DirectedKronecker { scale: small(scale, DKRON)?, edge_factor: DEFAULT_EDGE_FACTOR }
            }
            ["dkron", scale, edge_factor] => GeneratorSpec::DirectedKronecker {
                scale: small(scale, DKRON)?,
                edge_factor: small(edge_factor, DKRON)?,
            },
            ["dkron", ..] => return Err(usage(DKRON)),
            ["rmat", scale, edge_factor, abc] => {
                let probabilities: Vec<f64> = abc
                    .split(',')
                    .map(|p| p.trim().parse::<f64>())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| usage(RMAT))?;
                let [a, b, c] = probabilities[..] else { return Err(usage(RMAT)) };
                GeneratorSpec::Rmat { scale: small(scale, RMAT)?, edge_factor: small(edge_factor, RMAT)?, a, b, c }
            }
            ["rmat", ..] => return Err(usage(RMAT)),
            ["urand", scale] => {
                GeneratorSpec::Uniform { scale: small(scale, URAND)?, edge_factor: DEFAULT_EDGE_FACTOR }
            }
            ["urand", scale, edge_factor] => {
                GeneratorSpec::Uniform { scale: small(scale, URAND)?, edge_factor: small(edge_factor, URAND)? }
            }
            ["urand", ..] => return Err(usage(URAND)),
            ["grid2d", size] => match size.split_once(['x', 'X']) {
                Some((width, height)) => {
                    GeneratorSpec::Grid2d { width: number(width, GRID2D)?, height: number(height, GRID2D)? }
                }
                None => {
                    let side = number(size, GRID2D)?;
                    GeneratorSpec::Grid2d { width: side, height: side }
                }
            },
            ["grid2d", ..] => return Err(usage(GRID2D)),
            ["grid3d", side] => GeneratorSpec::Grid3d { n: number(side, GRID3D)? },
            ["grid3d", ..] => return Err(usage(GRID3D)),
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "`{s}` is not a generator spec; the generators are {FORMS}"
                )))
            }
        };
        spec.validate()?;
        Ok(spec)
    }
}

const KRON: &str = "kron:SCALE[:EDGEFACTOR] (e.g. kron:20 or kron:20:16; SCALE at most 31)";
const DKRON: &str = "dkron:SCALE[:EDGEFACTOR] (e.g. dkron:20 or dkron:20:16; SCALE at most 31)";
const RMAT: &str = "rmat:SCALE:EDGEFACTOR:A,B,C (e.g. rmat:20:16:0.45,0.15,0.15)";
const URAND: &str = "urand:SCALE[:EDGEFACTOR] (e.g. urand:20 or urand:20:16; SCALE at most 31)";
const GRID2D: &str = "grid2d:W[xH] (e.g. grid2d:1000 or grid2d:1000x500)";
const GRID3D: &str = "grid3d:N (e.g. grid3d:100)";

impl fmt::Display for GeneratorSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GeneratorSpec::Kronecker { scale, edge_factor } => write!(f, "kron:{scale}:{edge_factor}"),
            GeneratorSpec::DirectedKronecker { scale, edge_factor } => write!(f, "dkron:{scale}:{edge_factor}"),
            GeneratorSpec::Rmat { scale, edge_factor, a, b, c } => write!(f, "rmat:{scale}:{edge_factor}:{a},{b},{c}"),
            GeneratorSpec::Uniform { scale, edge_factor } => write!(f, "urand:{scale}:{edge_factor}"),
            GeneratorSpec::Grid2d { width, height } => write!(f, "grid2d:{width}x{height}"),
            GeneratorSpec::Grid3d { n } => write!(f, "grid3d:{n}"),
        }
    }
}
