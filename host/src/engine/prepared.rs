//! A graph prepared once for repeated traversals: on the GPU, the context and the graph
//! placed in its memory (with the transpose a directed graph needs for in-lists, and the list
//! heads beside zero-copy lists); on the CPU, the graph and its transpose. The GPU-or-CPU
//! choice and the fallback with its warning are made here, for every algorithm alike.

use std::time::{Duration, Instant};

use crate::engine::backend::{Backend, BackendUsed};
use crate::engine::placement::{choose_placement, vram_budget, PlacementOptions, Workspace};
use crate::error::Result;
use crate::gpu::{CopyStep, DeviceGraph, GpuContext, GpuError, Layout, Placement};
use crate::graph::{CompressedGraph, Graph, ListHeads};

/// The aligned range of vertex ids that [`GpuGraph::id_locality`] counts edges inside.
pub const LOCALITY_RANGE: u32 = 1024;

/// Graphs that span fewer ranges of [`LOCALITY_RANGE`] ids have no locality to speak of: on a
/// graph of one range every edge lies inside it, whatever its ids. kron:10 (one range) took
/// block-local linking at 0.092 ms against Afforest's 0.042; grid2d:64 (four) 0.033-0.037
/// against 0.055 (bench/NOTES.md 141).
pub const LOCALITY_MIN_RANGES: u64 = 4;

/// [`GpuGraph::id_locality`] of `graph`: its [`Graph::local_edge_share`] for ranges of
/// [`LOCALITY_RANGE`] ids, or 0 where it spans fewer than [`LOCALITY_MIN_RANGES`] of them.
pub fn id_locality_of(graph: &Graph) -> f64 {
    if (graph.num_vertices() as u64) < LOCALITY_MIN_RANGES * LOCALITY_RANGE as u64 {
        0.0
    } else {
        graph.local_edge_share(LOCALITY_RANGE)
    }
}

/// A graph ready for an algorithm on the backend it got.
pub enum Prepared {
    Gpu(GpuGraph),
    Cpu {
        /// The in-lists of a directed graph (None when undirected: its lists are both).
        transpose: Option<Graph>,
    },
}

/// The GPU context and the graph in (or mapped into) its memory.
pub struct GpuGraph {
    gpu: Box<GpuContext>,
    graph: Box<DeviceGraph>,
    /// The transpose of a directed graph (None when undirected, or when it did not fit).
    transpose: Option<Box<DeviceGraph>>,
    directed: bool,
    /// Found once here rather than by every traversal.
    max_out_degree: u64,
    /// The longest in-list (the transpose's longest list; the longest list when undirected).
    max_in_degree: u64,
    /// [`id_locality_of`] the graph, found once here.
    id_locality: f64,
    upload_time: Duration,
    /// The arrays the placement copied or pinned, each with its time.
    copies: Vec<CopyStep>,
}

impl GpuGraph {
    pub fn gpu(&self) -> &GpuContext {
        &self.gpu
    }

    /// The out-lists.
    pub fn graph(&self) -> &DeviceGraph {
        &self.graph
    }

    /// The in-lists: the transpose's for a directed graph, the graph's own when undirected;
    /// None for a directed graph whose transpose did not fit (its traversals stay top-down).
    pub fn in_lists(&self) -> Option<&DeviceGraph> {
        match &self.transpose {
            Some(transpose) => Some(transpose),
            None if self.directed => None,
            None => Some(&self.graph),
        }
    }

    /// Whether the graph is directed (its lists hold each edge once, at its source).
    pub fn is_directed(&self) -> bool {
        self.directed
    }

    pub fn max_out_degree(&self) -> u64 {
        self.max_out_degree
    }

    /// The longest in-list: of the transpose of a directed graph, else the longest list.
    pub fn max_in_degree(&self) -> u64 {
        self.max_in_degree
    }

    /// The share of the out-edges whose ends lie in one aligned range of [`LOCALITY_RANGE`]
    /// vertex ids ([`id_locality_of`]): high where the ids follow the geometry; 0 on graphs of
    /// fewer than [`LOCALITY_MIN_RANGES`] ranges.
    pub fn id_locality(&self) -> f64 {
        self.id_locality
    }

    /// Time to place the graph (and its transpose, list heads) on the device.
    pub fn upload_time(&self) -> Duration {
        self.upload_time
    }

    /// Where [`upload_time`](Self::upload_time) went: each array copied or pinned, with the
    /// time to allocate it and to copy it. What the arrays leave of the whole is host work
    /// (the bitmaps of empty lists, the list heads) and waiting.
    pub fn copies(&self) -> &[CopyStep] {
        &self.copies
    }

    /// Device bytes the graph and its transpose occupy.
    pub fn bytes(&self) -> u64 {
        self.graph.bytes() + self.transpose.as_ref().map_or(0, |t| t.bytes())
    }

    /// Bytes of the offsets and lists of the graph and its transpose as the GPU holds them,
    /// wherever they are placed: compressed or plain.
    pub fn stored_bytes(&self) -> u64 {
        self.graph.csr_bytes() + self.transpose.as_ref().map_or(0, |t| t.csr_bytes())
    }

    /// Whether the first in-neighbors of the in-lists are in device memory beside zero-copy
    /// lists.
    pub fn has_list_heads(&self) -> bool {
        self.in_lists().is_some_and(DeviceGraph::has_list_heads)
    }
}

impl Prepared {
    /// Where it runs.
    pub fn backend(&self) -> BackendUsed {
        match self {
            Prepared::Gpu(prepared) => BackendUsed::Gpu { device: prepared.gpu.name().to_string() },
            Prepared::Cpu { .. } => BackendUsed::Cpu { threads: rayon::current_num_threads() },
        }
    }

    pub fn gpu(&self) -> Option<&GpuGraph> {
        match self {
            Prepared::Gpu(prepared) => Some(prepared),
            Prepared::Cpu { .. } => None,
        }
    }
}

/// Prepares `graph` for `backend`, its device memory budgeted for the graph and the
/// algorithm's `workspace`. With [`Backend::Auto`], a missing GPU or one without room for the
/// graph falls back to the CPU; the warnings returned say why, and anything else the caller
/// should know (the placement chosen, the transpose that did not fit).
pub fn prepare(
    graph: &Graph,
    backend: Backend,
    options: &PlacementOptions,
    workspace: Workspace,
) -> Result<(Prepared, Vec<String>)> {
    let mut warnings = Vec::new();
    if backend != Backend::Cpu {
        match place_on_gpu(graph, options, workspace, &mut warnings) {
            Ok(prepared) => return Ok((Prepared::Gpu(prepared), warnings)),
            Err(err) if backend == Backend::Auto => {
                if err.is_unavailable() {
                    warnings.push(format!("no usable GPU ({err}); running on the CPU"));
                } else {
                    warnings.push(format!("the GPU could not take this graph ({err}); falling back to the CPU"));
                }
            }
            Err(err) => return Err(err.into()),
        }
    }
    if options.compressed {
        warnings.push("compressed lists are read by the GPU kernels only: the CPU traverses the plain CSR".into());
    }
    let transpose = (workspace.in_lists && !graph.is_undirected()).then(|| graph.transpose());
    Ok((Prepared::Cpu { transpose }, warnings))
}

fn place_on_gpu(
    graph: &Graph,
    options: &PlacementOptions,
    workspace: Workspace,
    warnings: &mut Vec<String>,
) -> std::result::Result<GpuGraph, GpuError> {
    // The context started while the graph loaded, or a new one.
    let gpu = options.early_gpu.take().unwrap_or_else(GpuContext::new)?;
    let budget = vram_budget(&gpu, options.vram_budget)?;
    let weighted = workspace.edge_weights && graph.is_weighted();
    // An algorithm that reads weights reads plain lists, weighted or not (unit weights then).
    if workspace.edge_weights && options.compressed {
        return Err(GpuError::Unsupported(
            "compressed lists hold no edge weights, and this algorithm reads them: place the plain lists".into(),
        ));
    }
    // A directed graph brings its transpose (in-lists) when the algorithm reads them, as big
    // again.
    let transpose = (workspace.in_lists && !graph.is_undirected()).then(|| graph.transpose());
    let compressed =
        options.compressed.then(|| (CompressedGraph::encode(graph), transpose.as_ref().map(CompressedGraph::encode)));
    let copies = if transpose.is_some() { 2 } else { 1 };
    // Every placed graph keeps its bitmap of empty lists in device memory.
    let empty_lists = copies * crate::gpu::empty_lists_bytes(graph.num_vertices());
    let (graph_bytes, resident_extras) = match &compressed {
        Some((out, inbound)) => {
            let both = [Some(out), inbound.as_ref()];
            let bytes = both.iter().flatten().map(|c| c.compressed_bytes()).sum::<u64>();
            // Degrees and restart points stay in device memory whatever the placement.
            let extras = both.iter().flatten().map(|c| c.resident_extra_bytes()).sum::<u64>();
            (bytes, extras + empty_lists)
        }
        None => {
            let weights = if weighted { 4 * graph.num_edges() } else { 0 };
            (copies * (graph.csr_bytes() + weights), empty_lists)
        }
    };
    let resident = Workspace { bytes: workspace.bytes + resident_extras, ..workspace };
    let placement = choose_placement(graph_bytes, resident, budget, options.placement)?;
    // Zero-copy lists still get their offsets in device memory when those fit: every
    // bottom-up step reads the offsets of every unvisited vertex.
    let offsets_bytes = 8 * (graph.num_vertices() as u64 + 1) * copies;
    let offsets = if placement == Placement::Device || resident.bytes + offsets_bytes <= budget {
        Placement::Device
    } else {
        Placement::ZeroCopy
    };
    let layout = Layout { offsets, lists: placement };
    if placement == Placement::ZeroCopy && options.placement.is_none() {
        warnings.push(format!(
            "the graph ({graph_bytes} bytes) and {} ({} bytes) exceed the {budget}-byte VRAM budget: \
             the neighbor lists stay in pinned host memory mapped into the GPU (zero-copy), read over the bus; \
             the offsets are in {} memory",
            workspace.what,
            resident.bytes,
            if offsets == Placement::Device { "device" } else { "host" }
        ));
    }
    // The list heads go with the in-lists: the transpose's for a directed graph, else the graph's.
    let heads_bytes = ListHeads::bytes_for(graph.num_vertices() as u64, options.compressed);
    let resident_bytes = resident.bytes + if offsets == Placement::Device { offsets_bytes } else { 0 };
    let placed_lists = if placement == Placement::Device { graph_bytes } else { 0 };
    let heads_wanted = options.list_heads.kept_for(placement, workspace.list_heads)
        && resident_bytes + placed_lists + heads_bytes <= budget;
    // Beside plain lists in device memory the GPU gathers the heads from the placed lists;
    // beside compressed or zero-copy lists the host builds them while the lists are copied.
    let heads_on_device = heads_wanted && compressed.is_none() && layout == Layout::from(Placement::Device);
    let started = Instant::now();
    // The longest list, the ids' locality and the host's list heads are host work: found on
    // other cores while the arrays are copied.
    let ((max_out_degree, max_in_degree, id_locality), (placed, copies)) = std::thread::scope(|scope| {
        let host_work = scope.spawn(|| {
            let longest = graph.max_degree();
            (longest, transpose.as_ref().map_or(longest, Graph::max_degree), id_locality_of(graph))
        });
        let heads = (heads_wanted && !heads_on_device).then(|| {
            scope.spawn(|| match compressed.as_ref().map(|(out, inbound)| inbound.as_ref().unwrap_or(out)) {
                Some(packed) => ListHeads::of_compressed(packed),
                None => ListHeads::of_graph(transpose.as_ref().unwrap_or(graph)),
            })
        });
        let placed = gpu.record_copies(|| -> std::result::Result<_, GpuError> {
            let place = |plain: &Graph, packed: Option<&CompressedGraph>| match packed {
                Some(packed) => gpu.place_compressed(packed, layout),
                None => {
                    let mut placed = gpu.place_graph(plain, layout)?;
                    if let (true, Some(weights)) = (weighted, plain.weights()) {
                        gpu.attach_weights(&mut placed, weights)?;
                    }
                    Ok(placed)
                }
            };
            let mut device_graph = place(graph, compressed.as_ref().map(|(out, _)| out))?;
            let mut device_transpose = match &transpose {
                None => None,
                Some(transpose) => {
                    match place(transpose, compressed.as_ref().and_then(|(_, inbound)| inbound.as_ref())) {
                        Ok(placed) => Some(Box::new(placed)),
                        Err(err) => {
                            warnings.push(format!(
                                "no room for the transpose of this directed graph ({err}); the GPU has no in-lists, \
                         so traversals stay top-down"
                            ));
                            None
                        }
                    }
                }
            };
            let inbound = match (&mut device_transpose, &transpose) {
                (Some(placed), Some(_)) => Some(&mut **placed),
                (None, Some(_)) => None,
                (_, None) => Some(&mut device_graph),
            };
            let heads = heads.map(|built| built.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            match (inbound, heads) {
                (Some(placed), Some(heads)) => gpu.attach_list_heads(placed, &heads)?,
                (Some(placed), None) if heads_on_device => gpu.gather_list_heads(placed)?,
                _ => {}
            }
            gpu.synchronize()?;
            Ok((device_graph, device_transpose))
        });
        (host_work.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), placed)
    });
    let (device_graph, device_transpose) = placed?;
    Ok(GpuGraph {
        gpu: Box::new(gpu),
        graph: Box::new(device_graph),
        transpose: device_transpose,
        directed: !graph.is_undirected(),
        max_out_degree,
        max_in_degree,
        id_locality,
        upload_time: started.elapsed(),
        copies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};

    fn graph(spec: &str) -> Graph {
        generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap()
    }

    #[test]
    fn graphs_of_few_ranges_have_no_locality() {
        // kron:10 lies in one range of ids: every edge inside it, no locality for all that.
        assert_eq!(graph("kron:10").local_edge_share(LOCALITY_RANGE), 1.0);
        assert_eq!(id_locality_of(&graph("kron:10")), 0.0);
        // A 64-wide grid spans four ranges, its rows' and most columns' edges inside one.
        assert!(id_locality_of(&graph("grid2d:64")) > 0.9);
        assert!(id_locality_of(&graph("kron:14")) < 0.1);
    }
}
