//! Connected components: the labels every backend returns, the options of the GPU algorithms,
//! and the per-phase record of a run. The CPU code, the GPU host side and the verifier live in
//! this folder beside each other, as `bfs/` keeps them.

use std::time::Duration;

pub mod cpu_afforest;
pub mod cpu_reference;
pub mod cpu_shiloach_vishkin;
pub mod finder;
pub mod gpu;
pub mod verify;

pub use crate::engine::{Backend, BackendUsed};
pub use cpu_afforest::afforest;
pub use cpu_reference::components_sequential;
pub use cpu_shiloach_vishkin::shiloach_vishkin;
pub use finder::{connected_components, ComponentFinder, ComponentsRun, PinnedComponents};
/// The most vertices the GPU samples (its count table is one block's shared memory).
pub use warpath_interface::cc::MAX_SAMPLES;

/// Which connected-components algorithm the GPU runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CcAlgorithm {
    /// Afforest (Sutton, Ben-Nun and Barak, IPDPS 2018; Moschou section 5): neighbor rounds,
    /// sampling of the largest intermediate component, a final link of the rest.
    #[default]
    Afforest,
    /// Shiloach-Vishkin style hooking and pointer jumping over every edge, for comparison.
    ShiloachVishkin,
}

/// What a connected-components run is asked to do. Every parameter is settable; the defaults
/// are Afforest's (two neighbor rounds, 1024 samples).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcOptions {
    pub algorithm: CcAlgorithm,
    /// Afforest's neighbor rounds: round r links every vertex to its r-th neighbor.
    pub neighbor_rounds: u32,
    /// Vertices sampled to find the largest intermediate component; 0 turns sampling off (the
    /// final phase then visits every vertex's remaining neighbors).
    pub samples: u32,
    /// Seed of the sampling.
    pub seed: u64,
    /// How the GPU's Afforest starts its labels (the CPU starts every vertex as its own root).
    pub init: CcInit,
    /// GPU Afforest: every label pointed at its root after each neighbor round but the last,
    /// as the GAP suite's Afforest does (the GPU's walks otherwise compress as they go).
    pub round_compression: bool,
    /// GPU Afforest: sampling after the first neighbor round, then every tree that meets the
    /// sampled giant hooked under the giant's root (never swapped on); the labels stay
    /// canonical.
    pub giant_hooks: bool,
    /// GPU: block-local linking before anything else, in place of Afforest's rounds and
    /// sampling ([`LocalLink`]).
    pub local_link: LocalLink,
    /// GPU, plain lists: vertices a thread takes at once in the kernel's neighbor rounds
    /// ([`VertexBatch`]).
    pub vertex_batch: VertexBatch,
    /// GPU: the order in which the neighbor rounds visit the vertices ([`RoundOrder`]).
    pub round_order: RoundOrder,
}

/// The order in which the GPU's Afforest neighbor rounds visit the vertices: by id, a warp's 32
/// ids at a time, or scattered, a block's 256 at a time. Where ids follow a mesh's rows, the
/// grid's threads in id order hold a band of rows at once, so a round's swaps and walks all land
/// on a few megabytes of labels, each row's swaps on the words the next row reads. Scattered,
/// they spread over the whole array. The walks take the same steps in both orders
/// (bench/NOTES.md 136).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoundOrder {
    /// Scattered where at least [`SCATTER_MIN_LOCALITY`] of the edges lie inside ranges of
    /// [`LOCALITY_RANGE`] ids (meshes, roads), by id elsewhere.
    #[default]
    Auto,
    /// By id.
    Ids,
    /// Tiles of 256 ids, tile `t` at step `t * 2654435761 mod tiles`.
    Scattered,
}

/// [`RoundOrder::Auto`]'s bar: a 5000-wide grid has 0.5 of its edges inside ranges of 1,024
/// ids, road networks 0.87-0.90, Kronecker and uniform random graphs about none (whose ids carry
/// no geometry for an order to break up).
pub const SCATTER_MIN_LOCALITY: f64 = 0.25;

impl RoundOrder {
    /// Whether a graph whose edges lie inside ranges of [`LOCALITY_RANGE`] ids at this share
    /// takes the scattered order.
    pub fn scattered_for(self, id_locality: f64) -> bool {
        match self {
            RoundOrder::Ids => false,
            RoundOrder::Scattered => true,
            RoundOrder::Auto => id_locality >= SCATTER_MIN_LOCALITY,
        }
    }

    /// `auto`, `ids` or `scattered`.
    pub fn name(self) -> &'static str {
        match self {
            RoundOrder::Auto => "auto",
            RoundOrder::Ids => "ids",
            RoundOrder::Scattered => "scattered",
        }
    }
}

/// Vertices a thread of the GPU kernel takes at once in Afforest's neighbor rounds (plain
/// lists; the compressions, the naming pass and the compressed kernel always take four).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VertexBatch {
    /// One where the lists average at least [`SINGLE_VERTEX_MIN_DEGREE`] edges a vertex, four
    /// below (meshes and roads).
    #[default]
    Auto,
    One,
    Four,
}

/// [`VertexBatch::Auto`]'s bar, between the meshes and roads (2.4 to 4 entries a vertex), where
/// four vertices a thread measured as fast or faster, and the Kronecker and uniform graphs (30
/// to 32), where one was faster (the sweep of every batch and register cap: bench/NOTES.md 120).
pub const SINGLE_VERTEX_MIN_DEGREE: f64 = 8.0;

impl VertexBatch {
    /// Whether a graph of `n` vertices and `m` list entries takes one vertex a thread.
    pub fn single_for(self, n: u64, m: u64) -> bool {
        match self {
            VertexBatch::One => true,
            VertexBatch::Four => false,
            VertexBatch::Auto => m as f64 >= SINGLE_VERTEX_MIN_DEGREE * n.max(1) as f64,
        }
    }

    /// `auto`, `1` or `4`.
    pub fn name(self) -> &'static str {
        match self {
            VertexBatch::Auto => "auto",
            VertexBatch::One => "1",
            VertexBatch::Four => "4",
        }
    }
}

/// GPU block-local linking: each block joins the edges inside an aligned range of vertex ids
/// in its shared memory, then one grid-wide link joins the edges between ranges, a compression
/// points every label at its root and a last pass names each component by its smallest vertex
/// (four phases in place of Afforest's five). It pays where the ids follow the graph's geometry
/// (road networks, meshes), where most edges lie inside a range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LocalLink {
    /// On, with ranges of [`AUTO_LOCAL_RANGE`] ids, where the lists are plain and in device
    /// memory and at least [`LOCAL_LINK_MIN_SHARE`] of the edges lie inside ranges of
    /// [`LOCALITY_RANGE`] ids
    /// ([`GpuGraph::id_locality`](crate::engine::GpuGraph::id_locality)); off otherwise. Never
    /// the cluster, which was slower on every graph measured (bench/NOTES.md 118).
    #[default]
    Auto,
    Off,
    /// On, with ranges of this many ids: a power of two from [`LOCAL_RANGE_MIN`] to
    /// [`LOCAL_RANGE_MAX`] (ignored for compressed lists, which the kernel links by Afforest).
    Range(u32),
    /// The whole graph in one Hopper thread-block cluster (`cc_cluster`): its 16 blocks own
    /// consecutive ranges of ids and link every edge in their shared memories, which reach
    /// each other, then name each component by its smallest vertex, in one launch with no grid
    /// barrier. Needs compute capability 9.0, plain
    /// lists and at most [`CLUSTER_MAX_VERTICES`] vertices; refused otherwise.
    Cluster,
}

pub use crate::engine::LOCALITY_RANGE;
/// The fewest ids, and the most, that block-local linking's ranges take (one tile of a block's
/// threads; a block's shared-memory forest).
pub use warpath_interface::cc::{LOCAL_CHUNK_MAX as LOCAL_RANGE_MAX, LOCAL_CHUNK_MIN as LOCAL_RANGE_MIN};

/// The most vertices [`LocalLink::Cluster`] takes: a parent word each in the cluster's shared
/// memory.
pub use warpath_interface::cc::cluster::CC_CLUSTER_MAX_VERTICES as CLUSTER_MAX_VERTICES;

/// Whether block-local linking can take ranges of `range` ids.
pub fn valid_local_range(range: u32) -> bool {
    range.is_power_of_two() && (LOCAL_RANGE_MIN..=LOCAL_RANGE_MAX).contains(&range)
}

/// [`LocalLink::Auto`]'s bar: the share of edges inside ranges of [`LOCALITY_RANGE`] ids from
/// which block-local linking runs. USA-road-d.NY has 0.89, luxembourg_osm 0.90, usroads-48
/// 0.87, a 5000-wide grid 0.5 (its rows' edges), Kronecker and uniform random graphs about 0.
/// Measured against Afforest (bench/NOTES.md 113): the roads 1.4-3.3x faster, grid2d:5000
/// (forced on) 1.3x slower, Kronecker and uniform graphs 3-18x slower.
pub const LOCAL_LINK_MIN_SHARE: f64 = 0.75;

/// [`LocalLink::Auto`]'s ranges: the fastest of 256 to 2048 on the three road graphs measured
/// (bench/NOTES.md 113: every block busy, two ranges each on USA-road-d.NY).
pub const AUTO_LOCAL_RANGE: u32 = 256;

impl LocalLink {
    /// The kernel's range for a graph with this locality and these lists: 0 for off (and for
    /// the cluster, which is another kernel).
    pub fn range_for(self, id_locality: f64, plain_in_device_memory: bool) -> u32 {
        match self {
            LocalLink::Off | LocalLink::Cluster => 0,
            LocalLink::Range(range) => range,
            LocalLink::Auto if plain_in_device_memory && id_locality >= LOCAL_LINK_MIN_SHARE => AUTO_LOCAL_RANGE,
            LocalLink::Auto => 0,
        }
    }

    /// Whether the run takes the cluster kernel: only where asked for (`Auto` does not: it was
    /// slower than ranges of 256 on every graph measured, bench/NOTES.md 118).
    pub fn takes_cluster(self) -> bool {
        self == LocalLink::Cluster
    }

    /// `N` for a range, or `auto`, `off`, `cluster`.
    pub fn name(self) -> String {
        match self {
            LocalLink::Auto => "auto".into(),
            LocalLink::Off => "off".into(),
            LocalLink::Range(range) => range.to_string(),
            LocalLink::Cluster => "cluster".into(),
        }
    }
}

impl Default for CcOptions {
    fn default() -> Self {
        CcOptions {
            algorithm: CcAlgorithm::Afforest,
            neighbor_rounds: 2,
            samples: 1024,
            seed: 27491095,
            init: CcInit::Vertex,
            round_compression: false,
            giant_hooks: true,
            local_link: LocalLink::Auto,
            vertex_batch: VertexBatch::Auto,
            round_order: RoundOrder::Auto,
        }
    }
}

/// How the GPU's Afforest starts its labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CcInit {
    /// Every vertex its own root; round 0 links every vertex to its first neighbor.
    #[default]
    Vertex,
    /// ECL-CC's initialisation (Jaiganesh and Burtscher, HPDC 2018, section 3): a vertex's
    /// label is its first (smallest) neighbor where that is smaller than the vertex, written
    /// without a walk or a swap; it stands in for round 0, and round 1 links the vertices
    /// whose first neighbor is larger. With no neighbor rounds, every vertex is its own root.
    SmallerNeighbor,
}

impl CcInit {
    pub const ALL: [CcInit; 2] = [CcInit::Vertex, CcInit::SmallerNeighbor];

    /// The name the CLI and the reports use.
    pub fn name(self) -> &'static str {
        match self {
            CcInit::Vertex => "vertex",
            CcInit::SmallerNeighbor => "smaller-neighbor",
        }
    }
}

/// One phase of a run, as the trace reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcPhase {
    /// Afforest's r-th neighbor round (0-based): on the CPU its compression included; the
    /// GPU's finds compress as they walk.
    NeighborRound(u32),
    /// Finding the largest intermediate component by sampling (on the GPU, with every label
    /// pointed at its root beside it).
    Sampling,
    /// Linking the remaining neighbors of the vertices outside the largest component (or, for
    /// Shiloach-Vishkin, every hooking pass).
    FinalLink,
    /// The last pointer-jumping compression.
    Compression,
    /// Block-local linking's first phase (each block's ranges, in shared memory).
    LocalLink,
    /// Block-local linking's last phase: every component named by its smallest vertex.
    Naming,
    /// One Hopper thread-block cluster links every edge in its distributed shared memory
    /// ([`LocalLink::Cluster`]).
    ClusterLink,
}

/// How long a phase took and how many graph bytes it read (lists and offsets; labels apart),
/// and on the GPU what its walks and hooks did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseTrace {
    pub phase: CcPhase,
    pub time: Duration,
    pub graph_bytes_read: u64,
    /// The GPU's counts, from kernels built to count them (the device crate's `cc-tallies`
    /// feature, `scripts/tallied-cubin`); `None` otherwise and on the CPU.
    pub links: Option<LinkCounts>,
}

/// What a GPU phase's walks and hooks did, summed over the grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkCounts {
    /// Label reads of the walks to roots, each a dependent trip to memory.
    pub steps: u64,
    /// Compare-and-swaps on roots.
    pub swaps: u64,
    /// Swaps that found the root already hooked by another thread, and retried.
    pub failed_swaps: u64,
}

impl CcPhase {
    /// The phase's name in reports: `neighbor round 1` (1-based), `sampling`, `final link`,
    /// `compression`.
    pub fn name(&self) -> String {
        match self {
            CcPhase::NeighborRound(round) => format!("neighbor round {}", round + 1),
            CcPhase::Sampling => "sampling".into(),
            CcPhase::FinalLink => "final link".into(),
            CcPhase::Compression => "compression".into(),
            CcPhase::LocalLink => "local link".into(),
            CcPhase::Naming => "naming".into(),
            CcPhase::ClusterLink => "cluster link".into(),
        }
    }
}

impl CcAlgorithm {
    pub const ALL: [CcAlgorithm; 2] = [CcAlgorithm::Afforest, CcAlgorithm::ShiloachVishkin];

    /// The name the CLI and the reports use.
    pub fn name(self) -> &'static str {
        match self {
            CcAlgorithm::Afforest => "afforest",
            CcAlgorithm::ShiloachVishkin => "shiloach-vishkin",
        }
    }
}

impl std::fmt::Display for CcAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The components of a graph: `labels[v]` names the component of vertex `v` (internal ids) by
/// its smallest vertex, so labels are the same on every backend and every run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components {
    pub labels: Vec<u32>,
}

impl Components {
    /// Components, counting isolated vertices (each its own component).
    pub fn count(&self) -> u64 {
        self.labels.iter().enumerate().filter(|&(v, &label)| label as usize == v).count() as u64
    }

    /// The size of every component, indexed by its label (zero for ids that name none).
    pub fn sizes(&self) -> Vec<u64> {
        let mut sizes = vec![0u64; self.labels.len()];
        for &label in &self.labels {
            sizes[label as usize] += 1;
        }
        sizes
    }

    /// The largest component's label and size; `None` for a graph without vertices.
    pub fn largest(&self) -> Option<(u32, u64)> {
        let sizes = self.sizes();
        (0..sizes.len()).max_by_key(|&v| (sizes[v], std::cmp::Reverse(v))).map(|v| (v as u32, sizes[v]))
    }
}

/// Vertices without an edge in either direction: each is a component of its own.
pub fn isolated_vertices(graph: &crate::graph::Graph) -> u64 {
    if graph.is_undirected() {
        return (0..graph.num_vertices() as u32).filter(|&v| graph.degree(v) == 0).count() as u64;
    }
    let mut touched = vec![false; graph.num_vertices()];
    for u in 0..graph.num_vertices() as u32 {
        let list = graph.neighbors(u);
        touched[u as usize] |= !list.is_empty();
        for &v in list {
            touched[v as usize] = true;
        }
    }
    touched.iter().filter(|&&t| !t).count() as u64
}

/// What one run finds: the components and, where the backend records them, its phases. The
/// run's time is the [`crate::engine::Run`]'s that holds it (the backends return it beside).
#[derive(Clone, Debug, Default)]
pub struct CcRun {
    pub components: Components,
    pub phases: Vec<PhaseTrace>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_sizes_and_largest_of_canonical_labels() {
        // {0, 2}, {1, 3, 4}, {5}
        let components = Components { labels: vec![0, 1, 0, 1, 1, 5] };
        assert_eq!(components.count(), 3);
        assert_eq!(components.sizes(), vec![2, 3, 0, 0, 0, 1]);
        assert_eq!(components.largest(), Some((1, 3)));
        assert_eq!(Components { labels: vec![] }.largest(), None);
    }

    #[test]
    fn local_linking_runs_where_asked_or_where_ids_follow_the_geometry() {
        assert_eq!(LocalLink::Off.range_for(1.0, true), 0);
        assert_eq!(LocalLink::Range(512).range_for(0.0, false), 512, "asked for: whatever the graph");
        assert_eq!(LocalLink::Auto.range_for(LOCAL_LINK_MIN_SHARE, true), AUTO_LOCAL_RANGE);
        assert_eq!(LocalLink::Auto.range_for(0.5, true), 0, "a grid's rows only");
        assert_eq!(LocalLink::Auto.range_for(0.9, false), 0, "compressed or zero-copy lists");
        assert!(valid_local_range(LOCAL_RANGE_MIN) && valid_local_range(LOCAL_RANGE_MAX) && valid_local_range(1024));
        assert!(!valid_local_range(0) && !valid_local_range(300) && !valid_local_range(2 * LOCAL_RANGE_MAX));
        assert!(!valid_local_range(LOCAL_RANGE_MIN / 2));
        assert_eq!(
            [LocalLink::Auto.name(), LocalLink::Off.name(), LocalLink::Range(256).name()],
            ["auto", "off", "256"]
        );
        assert_eq!(LocalLink::Cluster.name(), "cluster");
    }

    #[test]
    fn the_cluster_runs_only_where_asked() {
        assert!(LocalLink::Cluster.takes_cluster(), "asked for: refused later where it cannot run");
        assert!(!LocalLink::Auto.takes_cluster() && !LocalLink::Off.takes_cluster());
        assert!(!LocalLink::Range(256).takes_cluster());
        assert_eq!(LocalLink::Cluster.range_for(1.0, true), 0, "another kernel");
    }

    #[test]
    fn isolated_vertices_count_both_directions_of_a_directed_graph() {
        use crate::graph::{EdgeList, GraphBuilder};
        // 0 -> 1: 1 has no out-edge but is not isolated; 2 is.
        let graph = GraphBuilder::new().build(EdgeList::new(3, vec![(0, 1)], false)).unwrap();
        assert_eq!(isolated_vertices(&graph), 1);
    }
}
