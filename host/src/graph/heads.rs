//! The first neighbors of every list, for keeping in device memory when the lists themselves
//! are read over the bus (zero-copy). A bottom-up step stops at a vertex's first in-neighbor in
//! the frontier, which on low-diameter graphs is usually its first or second: served from
//! device memory, that search never crosses the bus, where it would otherwise move a whole
//! 32-byte sector for the 4 to 8 bytes it needs. Afforest's first two neighbor rounds read
//! them too, beside lists in device memory as well: one coalesced load a vertex in place of its
//! offsets and then its list. This is the host's build, for compressed and zero-copy lists;
//! beside plain lists in device memory the GPU gathers them from the placed lists
//! (`GpuContext::gather_list_heads`).

use rayon::prelude::*;

use crate::graph::{CompressedGraph, Graph, UNREACHED};

/// Neighbors kept per vertex (the kernels read as many).
pub use warpath_interface::graph::HEAD_NEIGHBORS;

/// The first [`HEAD_NEIGHBORS`] neighbors of every vertex's list, in list order, padded with
/// [`UNREACHED`]; for a compressed graph also where the rest of each list starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListHeads {
    /// `HEAD_NEIGHBORS` entries per vertex.
    pub neighbors: Vec<u32>,
    /// Compressed lists only: bytes taken by each list's first `HEAD_NEIGHBORS` varints (the
    /// whole list when it is shorter), so decoding can resume after them. At most 10.
    pub skips: Option<Vec<u8>>,
}

impl ListHeads {
    /// Heads of a plain CSR graph (the rest of a list resumes `HEAD_NEIGHBORS` edges in).
    pub fn of_graph(graph: &Graph) -> ListHeads {
        // Zeroed, so the allocator hands over untouched pages that the threads below fault in
        // as they write every slot (a fill with UNREACHED first was one thread's pass over
        // 8 bytes a vertex).
        let mut neighbors = vec![0u32; HEAD_NEIGHBORS * graph.num_vertices()];
        neighbors.par_chunks_mut(HEAD_NEIGHBORS).enumerate().for_each(|(v, head)| {
            let list = graph.neighbors(v as u32);
            for (k, slot) in head.iter_mut().enumerate() {
                *slot = list.get(k).copied().unwrap_or(UNREACHED);
            }
        });
        ListHeads { neighbors, skips: None }
    }

    /// Heads of a compressed graph, with the bytes to skip.
    pub fn of_compressed(graph: &CompressedGraph) -> ListHeads {
        let n = graph.num_vertices();
        // Zeroed and every slot written, as in `of_graph`.
        let mut neighbors = vec![0u32; HEAD_NEIGHBORS * n];
        let mut skips = vec![0u8; n];
        let offsets = graph.byte_offsets();
        neighbors.par_chunks_mut(HEAD_NEIGHBORS).zip(skips.par_iter_mut()).enumerate().for_each(|(v, (head, skip))| {
            let mut listed = graph.neighbors(v as u32);
            for slot in head.iter_mut() {
                *slot = listed.next().unwrap_or(UNREACHED);
            }
            // A varint ends at a byte without the continuation bit.
            let list = &graph.bytes()[offsets[v] as usize..offsets[v + 1] as usize];
            let mut ended = 0;
            let mut taken = list.len();
            for (i, byte) in list.iter().enumerate() {
                ended += (byte & 0x80 == 0) as usize;
                if ended == HEAD_NEIGHBORS {
                    taken = i + 1;
                    break;
                }
            }
            *skip = taken as u8;
        });
        ListHeads { neighbors, skips: Some(skips) }
    }

    /// Device bytes the heads of `vertices` vertices take (`compressed`: with the skips).
    pub fn bytes_for(vertices: u64, compressed: bool) -> u64 {
        vertices * (4 * HEAD_NEIGHBORS as u64 + compressed as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn plain_and_compressed_heads_agree_and_skips_resume_the_lists() {
        // Vertex 0 has a long list with ids far apart (multi-byte varints), 3 has one
        // neighbor, 4 none.
        let edges = vec![(0, 1), (0, 300), (0, 70_000), (0, 2), (1, 2), (3, 2), (2, 70_000)];
        let graph = GraphBuilder::new().build(EdgeList::new(70_001, edges, false)).unwrap();
        let plain = ListHeads::of_graph(&graph);
        let packed = CompressedGraph::encode(&graph);
        let compressed = ListHeads::of_compressed(&packed);
        assert_eq!(plain.neighbors, compressed.neighbors);
        assert_eq!(&plain.neighbors[0..2], &[1, 2]);
        assert_eq!(&plain.neighbors[6..8], &[2, UNREACHED]);
        assert_eq!(&plain.neighbors[8..10], &[UNREACHED, UNREACHED]);
        let skips = compressed.skips.unwrap();
        for v in 0..graph.num_vertices() {
            let offsets = packed.byte_offsets();
            let list = &packed.bytes()[offsets[v] as usize..offsets[v + 1] as usize];
            let skip = skips[v] as usize;
            // What follows the skip decodes, as gaps after the second neighbor, to the rest.
            let mut previous = plain.neighbors[HEAD_NEIGHBORS * v + 1];
            let mut pos = skip;
            let mut rest = Vec::new();
            while pos < list.len() {
                let gap = crate::graph::compressed::read_varint(list, &mut pos).unwrap();
                previous += gap as u32 + 1;
                rest.push(previous);
            }
            let expected: Vec<u32> = graph.neighbors(v as u32).iter().skip(HEAD_NEIGHBORS).copied().collect();
            assert_eq!(rest, expected, "vertex {v}");
            if graph.degree(v as u32) <= HEAD_NEIGHBORS as u64 {
                assert_eq!(skip, list.len(), "vertex {v}: a short list is skipped whole");
            }
        }
        assert_eq!(ListHeads::bytes_for(10, true), 90);
        assert_eq!(ListHeads::bytes_for(10, false), 80);
    }
}
