//! The BFS in one Hopper thread-block cluster (`bfs_cluster`, the sm_90 module): its bitmaps
//! (the cluster's shape and their layout are [`crate::cluster`]'s) and its parameters. Its
//! trace records are the edge-queue kernel's ([`crate::bfs::edge_queue::EdgeTraceRecord`],
//! flagged [`crate::bfs::edge_queue::EdgeTraceFlags::CLUSTER`]).

/// Bitmaps a block of `bfs_cluster` keeps: visited, and the candidates of two levels.
pub const BFS_CLUSTER_BITMAPS: u32 = 3;

/// The field list of `bfs_cluster`'s parameters.
#[macro_export]
macro_rules! bfs_cluster_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_cluster`'s parameters (the sm_90 module; one thread-block cluster of
            /// `CLUSTER_BLOCKS` blocks of `CLUSTER_BLOCK` threads, with
            /// `cluster_shared_bytes(BFS_CLUSTER_BITMAPS, words, lists)` of dynamic shared
            /// memory each): a plain
            /// CSR; the labels `bfs_persistent_init` prepared (`parents` null for distances
            /// only); `candidates`, two parent slots a vertex (`2 n` words, null with
            /// `parents`), written before they are read; `levels`, one word the kernel sets to
            /// the levels it ran; the edge-queue kernel's trace records (`trace_capacity + 1`
            /// of them); `words` as `cluster_words` gives for `n`; `lists` as `cluster_lists`
            /// gives for three bitmaps (0: none in shared memory).
            kernel bfs_cluster, in [$crate::bfs::cluster], struct BfsClusterParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                candidates: $crate::DevicePtrMut<u32>,
                levels: $crate::DevicePtrMut<u32>,
                trace: $crate::DevicePtrMut<u64>,
                n: u32,
                words: u32,
                lists: u32,
                trace_capacity: u32,
                source: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_cluster_fields!(crate::kernel_params);
