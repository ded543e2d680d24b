//! The one shape every algorithm's run comes back in.

use std::ops::Deref;
use std::time::Duration;

use crate::engine::BackendUsed;
use crate::gpu::Download;

/// One run of an algorithm on a prepared graph: its answer and how the run went, the same for
/// every algorithm. A BFS gives a `Run<BfsResult>` ([`crate::bfs::Traversal`]), connected
/// components a `Run<CcRun>` ([`crate::cc::ComponentsRun`]), shortest paths a `Run<SsspRun>`
/// ([`crate::sssp::PathsRun`]).
#[derive(Clone, Debug)]
pub struct Run<T> {
    /// The algorithm's answer.
    pub result: T,
    /// Where it ran.
    pub backend: BackendUsed,
    /// The algorithm alone: CUDA-event time of its kernels on the GPU, wall time on the CPU.
    pub time: Duration,
    /// The whole call on a graph already placed: the algorithm, the results' download and the
    /// host work around them (`time` on the CPU). Placing the graph is paid once, before the
    /// first run.
    pub end_to_end_time: Duration,
    /// Reading the results back from the GPU: wall time and bytes; zero on the CPU.
    pub download: Download,
    /// Things the user should know, such as a fallback from the GPU to the CPU.
    pub warnings: Vec<String>,
}

/// An algorithm's answer and the time it took (its kernels' on the GPU, the wall time on the
/// CPU), as a backend returns it before a finder puts both in a [`Run`]; reads as the answer
/// itself.
#[derive(Clone, Debug, Default)]
pub struct Answer<T> {
    pub result: T,
    pub time: Duration,
}

impl<T> Deref for Answer<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.result
    }
}
