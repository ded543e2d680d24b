//! What the kernels that run in one Hopper thread-block cluster (`bfs_cluster`, `sssp_cluster`,
//! in the sm_90 module) and their hosts agree on: the cluster's shape, and where a vertex's bits
//! and list bounds live in its owner block's shared memory.

/// Threads per block: the most a block holds.
pub const CLUSTER_BLOCK: u32 = 1024;
/// Blocks of the one cluster: 16, the most a Hopper cluster holds (a non-portable size). A
/// vertex `v` belongs to block `v % 16`, so a kernel finds its owner with a mask.
pub const CLUSTER_BLOCKS: u32 = 16;
/// Bitmap words a block may hold in each of its bitmaps: three bitmaps of 16,384 words are
/// 192 KiB of its 227 KiB of shared memory.
pub const CLUSTER_MAX_WORDS: u32 = 1 << 14;
/// The most vertices a cluster kernel holds: a bit a vertex in each bitmap of its owner.
pub const CLUSTER_MAX_VERTICES: u64 = CLUSTER_BLOCKS as u64 * 32 * CLUSTER_MAX_WORDS as u64;
/// Dynamic shared memory a block of the cluster may take on a Hopper GPU (227 KiB).
pub const CLUSTER_MAX_SHARED_BYTES: u32 = 227 * 1024;

/// Words in each of a block's bitmaps for `n` vertices: enough for its `ceil(n / 16)`
/// vertices, rounded up to a power of two so that a vertex's word and bit are a mask and a
/// shift (its local index `v / 16` sits in word `local % words`, bit `local / words`: the
/// vertices of one word lie `16 * words` ids apart, so a frontier of nearby ids spreads over
/// many words, and many threads). None when `n` exceeds [`CLUSTER_MAX_VERTICES`].
pub const fn cluster_words(n: u64) -> Option<u32> {
    if n > CLUSTER_MAX_VERTICES {
        return None;
    }
    let local = n.div_ceil(CLUSTER_BLOCKS as u64);
    let words = local.div_ceil(32);
    let words = if words <= 1 { 1 } else { words.next_power_of_two() };
    Some(words as u32)
}

/// Dynamic shared memory of one block for `bitmaps` bitmaps of `words` words and `lists` list
/// bounds (a first edge and a degree, 8 bytes each) after them.
pub const fn cluster_shared_bytes(bitmaps: u32, words: u32, lists: u32) -> u32 {
    bitmaps * 4 * words + 8 * lists
}

/// The list bounds each block keeps in shared memory for `n` vertices (those of its own
/// vertices, `ceil(n / 16)`), or 0 where they do not fit beside `bitmaps` bitmaps of `words`
/// words: then a kernel reads a vertex's offsets from global memory, one more dependent trip.
/// USA-road-d.NY's take 129 KiB a block.
pub const fn cluster_lists(n: u64, bitmaps: u32, words: u32) -> u32 {
    let lists = n.div_ceil(CLUSTER_BLOCKS as u64);
    if bitmaps as u64 * 4 * words as u64 + 8 * lists <= CLUSTER_MAX_SHARED_BYTES as u64 {
        lists as u32
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_holds_a_bit_for_each_of_its_vertices_in_a_power_of_two_of_words() {
        assert_eq!(cluster_words(0), Some(1));
        assert_eq!(cluster_words(1), Some(1));
        assert_eq!(cluster_words(16 * 32), Some(1));
        assert_eq!(cluster_words(16 * 32 + 1), Some(2));
        // USA-road-d.NY: 16,522 vertices a block, 517 words, 1,024 with the rounding.
        assert_eq!(cluster_words(264_346), Some(1024));
        assert_eq!(cluster_words(CLUSTER_MAX_VERTICES), Some(CLUSTER_MAX_WORDS));
        assert_eq!(cluster_words(CLUSTER_MAX_VERTICES + 1), None);
        for n in [1u64, 1000, 264_346, 1 << 20, CLUSTER_MAX_VERTICES] {
            let words = cluster_words(n).unwrap();
            assert!(words.is_power_of_two());
            assert!(32 * words as u64 * CLUSTER_BLOCKS as u64 >= n, "{n}");
        }
        // Three bitmaps fit the 227 KiB a Hopper block may take.
        assert!(cluster_shared_bytes(3, CLUSTER_MAX_WORDS, 0) <= CLUSTER_MAX_SHARED_BYTES);
    }

    #[test]
    fn list_bounds_go_to_shared_memory_where_they_fit_beside_the_bitmaps() {
        // USA-road-d.NY: 16,522 a block, 129 KiB beside 12 KiB of bitmaps.
        assert_eq!(cluster_lists(264_346, 3, 1024), 16_522);
        assert_eq!(cluster_shared_bytes(3, 1024, 16_522), 12_288 + 132_176);
        assert_eq!(cluster_lists(1 << 20, 3, cluster_words(1 << 20).unwrap()), 0);
        for bitmaps in [2, 3] {
            for n in [1u64, 5_000, 264_346, 400_000, 1 << 20, CLUSTER_MAX_VERTICES] {
                let words = cluster_words(n).unwrap();
                let lists = cluster_lists(n, bitmaps, words);
                assert!(cluster_shared_bytes(bitmaps, words, lists) <= CLUSTER_MAX_SHARED_BYTES, "{n}");
                assert!(lists == 0 || lists as u64 * CLUSTER_BLOCKS as u64 >= n, "{n}");
            }
        }
    }
}
