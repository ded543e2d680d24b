use crate::error::{Error, Result};

/// A graph in compressed sparse row form.
///
/// The neighbors of vertex `v` are `targets[offsets[v]..offsets[v + 1]]`, sorted ascending,
/// with no self-loops and no repeats (the builder guarantees this). Offsets are `u64` so a
/// graph may hold more than 4 billion edges; vertex ids are `u32`.
///
/// `id_base` records how the source file numbered its vertices (1 for Matrix Market and
/// DIMACS, 0 otherwise), so ids shown to the user match the file: external id = internal + base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    offsets: Vec<u64>,
    targets: Vec<u32>,
    undirected: bool,
    id_base: u32,
}

impl Graph {
    /// Assembles a graph from raw CSR arrays, checking that they describe a valid CSR:
    /// offsets start at 0, never decrease, end at `targets.len()`, and every target is a vertex.
    /// Neighbor order and uniqueness are not checked here; [`GraphBuilder`](crate::graph::GraphBuilder)
    /// establishes them.
    pub fn from_csr(offsets: Vec<u64>, targets: Vec<u32>, undirected: bool, id_base: u32) -> Result<Self> {
        let invalid = |problem: String| Err(Error::InvalidArgument(format!("invalid CSR: {problem}")));
        if offsets.is_empty() {
            return invalid("the offsets array is empty (it needs one entry per vertex plus one)".into());
        }
        let num_vertices = (offsets.len() - 1) as u64;
        if num_vertices > crate::graph::MAX_VERTICES {
            return Err(Error::TooManyVertices { vertices: num_vertices });
        }
        if offsets[0] != 0 {
            return invalid(format!("offsets[0] is {}, not 0", offsets[0]));
        }
        if let Some(v) = offsets.windows(2).position(|w| w[0] > w[1]) {
            return invalid(format!("offsets decrease at vertex {v}"));
        }
        if *offsets.last().unwrap() != targets.len() as u64 {
            return invalid(format!(
                "the last offset is {} but there are {} targets",
                offsets.last().unwrap(),
                targets.len()
            ));
        }
        if let Some(&t) = targets.iter().find(|&&t| t as u64 >= num_vertices) {
            return invalid(format!("target {t} is not a vertex (the graph has {num_vertices})"));
        }
        Ok(Graph { offsets, targets, undirected, id_base })
    }

    /// Builds without re-checking; for the builder, which constructs valid arrays by design.
    pub(crate) fn from_valid_csr(offsets: Vec<u64>, targets: Vec<u32>, undirected: bool, id_base: u32) -> Self {
        debug_assert_eq!(*offsets.last().unwrap(), targets.len() as u64);
        Graph { offsets, targets, undirected, id_base }
    }

    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Directed edges stored: an undirected edge counts twice, once in each direction.
    pub fn num_edges(&self) -> u64 {
        self.targets.len() as u64
    }

    pub fn neighbors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    pub fn degree(&self, v: u32) -> u64 {
        let v = v as usize;
        self.offsets[v + 1] - self.offsets[v]
    }

    /// The largest out-degree (0 for an edgeless graph).
    pub fn max_degree(&self) -> u64 {
        self.offsets.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0)
    }

    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// True when the graph was built as undirected (every edge stored in both directions).
    pub fn is_undirected(&self) -> bool {
        self.undirected
    }

    /// 0 or 1: the number the source file gave its first vertex.
    pub fn id_base(&self) -> u32 {
        self.id_base
    }

    /// Converts a user-facing vertex id (as written in the file) to the internal id.
    pub fn internal_id(&self, external: u64) -> Option<u32> {
        let internal = external.checked_sub(self.id_base as u64)?;
        (internal < self.num_vertices() as u64).then_some(internal as u32)
    }

    /// Converts an internal id to the id the user's file used.
    pub fn external_id(&self, internal: u32) -> u64 {
        internal as u64 + self.id_base as u64
    }

    /// How many vertices some edge points to: those with in-edges.
    pub fn vertices_with_in_edges(&self) -> u64 {
        if self.undirected {
            return super::nonempty_lists(self.offsets()) as u64;
        }
        let mut seen = vec![false; self.num_vertices()];
        for &v in self.targets() {
            seen[v as usize] = true;
        }
        seen.into_iter().filter(|&s| s).count() as u64
    }

    /// Checks whether every edge `u -> v` has its reverse `v -> u` (binary search in sorted lists).
    pub fn is_symmetric(&self) -> bool {
        use rayon::prelude::*;
        if self.undirected {
            return true;
        }
        (0..self.num_vertices() as u32)
            .into_par_iter()
            .all(|u| self.neighbors(u).iter().all(|&v| self.neighbors(v).binary_search(&u).is_ok()))
    }

    /// The graph with every edge reversed (in-edges become out-edges). An undirected graph
    /// is its own transpose; this returns a clone for it.
    pub fn transpose(&self) -> Graph {
        if self.undirected {
            return self.clone();
        }
        let n = self.num_vertices();
        let mut offsets = vec![0u64; n + 1];
        for &t in &self.targets {
            offsets[t as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut cursor: Vec<u64> = offsets[..n].to_vec();
        let mut targets = vec![0u32; self.targets.len()];
        // Visiting sources in ascending order leaves every reversed list sorted.
        for u in 0..n as u32 {
            for &v in self.neighbors(u) {
                let slot = &mut cursor[v as usize];
                targets[*slot as usize] = u;
                *slot += 1;
            }
        }
        Graph::from_valid_csr(offsets, targets, false, self.id_base)
    }
}
