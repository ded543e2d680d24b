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
//! - [`gpu::components_in`]: on the GPU, the same three steps (trimming, the pivot's
//!   forward-backward searches, then coloring for every other component at once, both ways as
//!   ECL-SCC colors: `device/src/scc/mod.rs`), one pass a launch.
//!
//! [`SccFinder`] places a graph once (out- and in-lists) and runs on it as often as asked;
//! [`strongly_connected`] is the one-call form. An undirected graph's strongly connected
//! components are its connected components, and both paths find them as such (each edge is
//! stored both ways); the command answers those by [`crate::cc`].

pub mod cpu;
pub mod cpu_reference;
pub mod gpu;
pub mod verify;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cc::Components;
use crate::engine::{prepare, Backend, BackendUsed, PlacementOptions, Prepared};
use crate::graph::Graph;
use crate::Result;

/// Whether the GPU path searches forward and backward from a pivot before coloring (the CPU
/// always does).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PivotSearch {
    /// The BFS from the pivot, forward and backward, on the kernel the BFS's `auto` takes (the
    /// Hopper cluster on roads and meshes, else the persistent kernel): the fastest measured on
    /// every graph, roads and grids included (bench/NOTES.md 132, 134).
    #[default]
    Bfs,
    /// None: coloring from the start, every vertex its own key (ECL-SCC's way).
    Off,
}

impl std::str::FromStr for PivotSearch {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Self, String> {
        match text {
            "bfs" => Ok(PivotSearch::Bfs),
            "off" => Ok(PivotSearch::Off),
            other => Err(format!("{other:?}: the pivot search is bfs or off")),
        }
    }
}

/// A phase of the CPU algorithm, with its time and the vertices it decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SccPhase {
    /// On the CPU `trimming`, `forward-backward` or `coloring` (one record a round of each), or
    /// `tarjan` (the vertices left at the end, on one core); on the GPU `trimming`,
    /// `forward-backward`, `coloring` (one record a decision) and `labels`.
    pub name: &'static str,
    pub time: Duration,
    /// Vertices whose component the phase decided.
    pub decided: u64,
    /// The GPU's propagation rounds in the phase (0 on the CPU and in the GPU's other phases).
    pub rounds: u32,
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

/// Strongly connected components on `backend` (the GPU where [`Backend::Auto`] finds one that
/// takes the graph, else every CPU core), with their backend and time: [`SccFinder`] placing
/// the graph for one run.
pub fn strongly_connected(graph: &Graph, backend: Backend) -> Result<SccAnswer> {
    SccFinder::new(graph, backend)?.run()
}

/// A graph placed once for strongly connected components (its lists both ways on the GPU), run
/// as often as asked, the device arrays kept between runs.
pub struct SccFinder<'g> {
    graph: &'g Graph,
    prepared: Arc<Prepared>,
    warnings: Vec<String>,
    arrays: Mutex<gpu::SccArrays>,
}

impl<'g> SccFinder<'g> {
    /// Places `graph` for `backend` with the default placement ([`Backend::Auto`] falls back
    /// to the CPU, saying why in the runs' warnings).
    pub fn new(graph: &'g Graph, backend: Backend) -> Result<Self> {
        let (prepared, warnings) = match backend {
            // The CPU's searches build their own in-lists.
            Backend::Cpu => (Prepared::Cpu { transpose: None }, Vec::new()),
            _ => prepare(graph, backend, &PlacementOptions::default(), gpu::workspace(graph))?,
        };
        Ok(Self::on_prepared(graph, Arc::new(prepared), warnings))
    }

    /// A finder over a graph another owner placed (budgeted for at least [`gpu::workspace`]'s
    /// arrays), sharing its placement.
    pub(crate) fn on_prepared(graph: &'g Graph, prepared: Arc<Prepared>, warnings: Vec<String>) -> Self {
        SccFinder { graph, prepared, warnings, arrays: Mutex::new(gpu::SccArrays::default()) }
    }

    /// The graph as placed for the GPU (None on the CPU).
    pub fn placed(&self) -> Option<&crate::engine::GpuGraph> {
        self.prepared.gpu()
    }

    /// Frees the device arrays kept between runs (the next run makes them again).
    pub(crate) fn release_arrays(&self) {
        *self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = gpu::SccArrays::default();
    }

    /// The components, labels canonical, on the GPU where the graph is placed there and its
    /// lists are plain (else on the CPU, saying why in the warnings).
    pub fn run(&self) -> Result<SccAnswer> {
        self.run_with(PivotSearch::default())
    }

    /// [`run`](Self::run), the GPU's pivot search as `pivot_search` says.
    pub fn run_with(&self, pivot_search: PivotSearch) -> Result<SccAnswer> {
        let mut warnings = self.warnings.clone();
        let started = Instant::now();
        if let Some(on) = self.prepared.gpu() {
            match gpu::refusal(on) {
                None => {
                    let mut arrays = self.arrays.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    let (answer, download) = gpu::components_in(on, self.graph, &mut arrays, pivot_search)?;
                    return Ok(SccAnswer {
                        result: answer.result,
                        backend: self.prepared.backend(),
                        time: answer.time,
                        end_to_end_time: started.elapsed(),
                        download,
                        warnings,
                    });
                }
                Some(why) => warnings.push(format!("strongly connected components run on the CPU: {why}")),
            }
        }
        let result = cpu::strongly_connected(self.graph);
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
}
