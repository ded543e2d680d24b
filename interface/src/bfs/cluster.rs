//! The BFS in one Hopper thread-block cluster (`bfs_cluster`, the sm_90 module): its launch
//! shape, the layout of its bitmaps in distributed shared memory, and the largest graph they
//! hold. Its trace records are the edge-queue kernel's ([`crate::bfs::edge_queue::EdgeTraceRecord`],
//! flagged [`crate::bfs::edge_queue::EdgeTraceFlags::CLUSTER`]).

/// Threads per block: the most a block holds.
pub const BFS_CLUSTER_BLOCK: u32 = 1024;
/// Blocks of the one cluster: 16, the most a Hopper cluster holds (a non-portable size). A
/// vertex `v` belongs to block `v % 16`, so the kernel finds its owner with a mask.
pub const BFS_CLUSTER_BLOCKS: u32 = 16;
/// Bitmap words a block may hold in each of its three bitmaps (visited, and the candidates of
/// two levels): three bitmaps of 16,384 words are 192 KiB of its 227 KiB of shared memory.
pub const BFS_CLUSTER_MAX_WORDS: u32 = 1 << 14;
/// The most vertices the cluster holds: a bit a vertex in each bitmap of its owner.
pub const BFS_CLUSTER_MAX_VERTICES: u64 = BFS_CLUSTER_BLOCKS as u64 * 32 * BFS_CLUSTER_MAX_WORDS as u64;

/// Words in each of a block's bitmaps for `n` vertices: enough for its `ceil(n / 16)`
/// vertices, rounded up to a power of two so that a vertex's word and bit are a mask and a
/// shift (its local index `v / 16` sits in word `local % words`, bit `local / words`: the
/// vertices of one word lie `16 * words` ids apart, so a frontier of nearby ids spreads over
/// many words, and many threads). None when `n` exceeds [`BFS_CLUSTER_MAX_VERTICES`].
pub const fn bfs_cluster_words(n: u64) -> Option<u32> {
    if n > BFS_CLUSTER_MAX_VERTICES {
        return None;
    }
    let local = n.div_ceil(BFS_CLUSTER_BLOCKS as u64);
    let words = local.div_ceil(32);
    let words = if words <= 1 { 1 } else { words.next_power_of_two() };
    Some(words as u32)
}

/// Dynamic shared memory a block of the cluster may take on a Hopper GPU (227 KiB).
pub const BFS_CLUSTER_MAX_SHARED_BYTES: u32 = 227 * 1024;

/// Dynamic shared memory of one block for bitmaps of `words` words (three of them) and
/// `lists` list bounds (a first edge and a degree, 8 bytes each).
pub const fn bfs_cluster_shared_bytes(words: u32, lists: u32) -> u32 {
    3 * 4 * words + 8 * lists
}

/// The list bounds each block keeps in shared memory for `n` vertices (those of its own
/// vertices, `ceil(n / 16)`), or 0 where they do not fit beside the bitmaps of `words` words:
/// then a level reads each claimed vertex's offsets from global memory, one more dependent
/// trip. USA-road-d.NY's take 129 KiB a block.
pub const fn bfs_cluster_lists(n: u64, words: u32) -> u32 {
    let lists = n.div_ceil(BFS_CLUSTER_BLOCKS as u64);
    if 3 * 4 * words as u64 + 8 * lists <= BFS_CLUSTER_MAX_SHARED_BYTES as u64 {
        lists as u32
    } else {
        0
    }
}

/// The field list of `bfs_cluster`'s parameters.
#[macro_export]
macro_rules! bfs_cluster_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_cluster`'s parameters (the sm_90 module; one thread-block cluster of
            /// [`BFS_CLUSTER_BLOCKS`] blocks of [`BFS_CLUSTER_BLOCK`] threads, with
            /// [`bfs_cluster_shared_bytes`]`(words)` of dynamic shared memory each): a plain
            /// CSR; the labels `bfs_persistent_init` prepared (`parents` null for distances
            /// only); `candidates`, two parent slots a vertex (`2 n` words, null with
            /// `parents`), written before they are read; `levels`, one word the kernel sets to
            /// the levels it ran; the edge-queue kernel's trace records (`trace_capacity + 1`
            /// of them); `words` as [`bfs_cluster_words`] gives for `n`; `lists` as
            /// [`bfs_cluster_lists`] gives (0: none in shared memory).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_holds_a_bit_for_each_of_its_vertices_in_a_power_of_two_of_words() {
        assert_eq!(bfs_cluster_words(0), Some(1));
        assert_eq!(bfs_cluster_words(1), Some(1));
        assert_eq!(bfs_cluster_words(16 * 32), Some(1));
        assert_eq!(bfs_cluster_words(16 * 32 + 1), Some(2));
        // USA-road-d.NY: 16,522 vertices a block, 517 words, 1,024 with the rounding.
        assert_eq!(bfs_cluster_words(264_346), Some(1024));
        assert_eq!(bfs_cluster_words(BFS_CLUSTER_MAX_VERTICES), Some(BFS_CLUSTER_MAX_WORDS));
        assert_eq!(bfs_cluster_words(BFS_CLUSTER_MAX_VERTICES + 1), None);
        for n in [1u64, 1000, 264_346, 1 << 20, BFS_CLUSTER_MAX_VERTICES] {
            let words = bfs_cluster_words(n).unwrap();
            assert!(words.is_power_of_two());
            assert!(32 * words as u64 * BFS_CLUSTER_BLOCKS as u64 >= n, "{n}");
        }
        // Three bitmaps fit the 227 KiB a Hopper block may take.
        assert!(bfs_cluster_shared_bytes(BFS_CLUSTER_MAX_WORDS, 0) <= BFS_CLUSTER_MAX_SHARED_BYTES);
    }

    #[test]
    fn list_bounds_go_to_shared_memory_where_they_fit_beside_the_bitmaps() {
        // USA-road-d.NY: 16,522 a block, 129 KiB beside 12 KiB of bitmaps.
        assert_eq!(bfs_cluster_lists(264_346, 1024), 16_522);
        assert_eq!(bfs_cluster_shared_bytes(1024, 16_522), 12_288 + 132_176);
        assert_eq!(bfs_cluster_lists(1 << 20, bfs_cluster_words(1 << 20).unwrap()), 0);
        for n in [1u64, 5_000, 264_346, 400_000, 1 << 20, BFS_CLUSTER_MAX_VERTICES] {
            let words = bfs_cluster_words(n).unwrap();
            let lists = bfs_cluster_lists(n, words);
            assert!(bfs_cluster_shared_bytes(words, lists) <= BFS_CLUSTER_MAX_SHARED_BYTES, "{n}");
            assert!(lists == 0 || lists as u64 * BFS_CLUSTER_BLOCKS as u64 >= n, "{n}");
        }
    }
}
