//! Strongly connected components of a directed graph (issue 55, item 3): every vertex labelled
//! by the smallest vertex of its component, as connected components are (one result shape,
//! [`Components`]), so that labels are the same on every backend and every run.
//!
//! - [`cpu::strongly_connected`]: on every CPU core. Trimming first (a vertex with no in-edge or
//!   no out-edge left among the undecided is a component of its own, peeled in rounds), then
//!   forward-backward reachability from one pivot, the vertex of the largest in-degree times
//!   out-degree (the giant component of a web or social graph is found in two searches:
//!   Fleischer, Hendrickson and Pınar, "On identifying strongly connected components in
//!   parallel", IPDPS workshops 2000), then coloring for the many small components that
//!   remain (Orzan's label propagation, as in Slota, Rajamanickam and Madduri, "BFS and
//!   coloring-based parallel algorithms for strongly connected components", IPDPS 2014):
//!   every undecided vertex takes the largest id that reaches it, each color's own vertex is
//!   its root, and the vertices of that color that reach the root backward are its component;
//!   once few vertices are left undecided, Tarjan's algorithm on one core decides them all (the
//!   Multistep method's last step, same paper).
//! - [`cpu_reference::tarjan`]: Tarjan's algorithm, sequential and iterative, the answer every
//!   other code is checked against ([`verify::compare_with_reference`]).
//!
//! An undirected graph's strongly connected components are its connected components: the
//! command answers those by [`crate::cc`]. There is no GPU path yet: [`strongly_connected`]
//! runs on the CPU whatever the backend asked, and says so in its warnings.

pub mod cpu;
pub mod cpu_reference;
pub mod verify;

use std::time::{Duration, Instant};

use crate::cc::Components;
use crate::engine::{Backend, BackendUsed};
use crate::graph::Graph;
use crate::Result;

/// A phase of the CPU algorithm, with its time and the vertices it decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SccPhase {
    /// `trimming`, `forward-backward` or `coloring` (one record a round of each), or `tarjan`
    /// (the vertices left at the end, on one core).
    pub name: &'static str,
    pub time: Duration,
    /// Vertices whose component the phase decided.
    pub decided: u64,
}

/// What a run finds: the components (labels canonical: each component's smallest vertex) and
/// the phases that found them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SccRun {
    pub components: Components,
    pub phases: Vec<SccPhase>,
}

/// The engine's run shape for strongly connected components.
pub type SccAnswer = crate::engine::Run<SccRun>;

/// Strongly connected components on the CPU (every core), with their backend and time.
/// `backend` is what was asked: the GPU has no path yet, which the run's warnings say where a GPU
/// was asked for or could have been used.
pub fn strongly_connected(graph: &Graph, backend: Backend) -> Result<SccAnswer> {
    let mut warnings = Vec::new();
    if backend != Backend::Cpu {
        warnings.push("strongly connected components run on the CPU: there is no GPU path yet".to_string());
    }
    let started = Instant::now();
    let result = cpu::strongly_connected(graph);
    let time = started.elapsed();
    Ok(SccAnswer {
        result,
        backend: BackendUsed::Cpu { threads: rayon::current_num_threads() },
        time,
        end_to_end_time: time,
        download: Default::default(),
        warnings,
    })
}
