//! The bit-parallel many-source BFS (MS-BFS, Then et al., VLDB 2015; iBFS's joint frontier,
//! Liu, Huang et al., SIGMOD 2016): `bfs_multi_source_level` launched once for a bottom-up level
//! and twice for a top-down one, up to [`MULTI_SOURCE_BATCH`] sources sharing it, one bit a
//! source in each vertex's words; each level's new words kept in a ring of
//! [`MULTI_SOURCE_LEVEL_RING`] levels, which `bfs_multi_source_distances` turns into each
//! source's distances a ring at a time (every distance written once, source by source, instead
//! of a scattered write a source a level); `bfs_multi_source_count` counts, source by source,
//! the vertices a level reached (the sums of distances closeness and harmonic centrality need,
//! without the distances leaving the device).

/// Sources a batch: the bits of a vertex's word.
pub const MULTI_SOURCE_BATCH: u32 = 64;

/// Threads per block of `bfs_multi_source_level`, `_count` and `_distances`.
pub const MULTI_SOURCE_BLOCK: u32 = 256;

/// Levels whose new words the ring holds (level `l`'s in slot `l % MULTI_SOURCE_LEVEL_RING`,
/// level 0's being the sources): `bfs_multi_source_distances` reads a whole ring of levels at
/// once, and a vertex's slot in it is four bits of four plane words.
pub const MULTI_SOURCE_LEVEL_RING: u32 = 16;

/// Lists longer than this are not walked by their vertex's warp but queued in pieces (`queue`,
/// its length in the level's third counter) and walked by the whole grid in a pass of their own
/// ([`MULTI_SOURCE_PULL_QUEUED`], [`MULTI_SOURCE_PUSH_QUEUED`]): node splitting (the
/// load-balancing paper's section on it), since a Kronecker hub's list walked by one warp holds
/// the level for a millisecond.
pub const MULTI_SOURCE_GRID_LIST: u64 = 4096;

/// Entries of a queued list's piece: a block walks one at a time.
pub const MULTI_SOURCE_PIECE: u64 = 4096;

/// Room the queue needs for the pieces of lists longer than [`MULTI_SOURCE_GRID_LIST`] among
/// `entries` list entries: each such list has at most one piece more than its entries' share.
pub const fn multi_source_queue_capacity(entries: u64) -> u64 {
    entries / MULTI_SOURCE_PIECE + entries / MULTI_SOURCE_GRID_LIST + 1
}

/// `BfsMultiSourceLevelParams::mode`: a bottom-up level, every vertex that has not seen every
/// source pulling its in-neighbors' frontier words (the level's words are final).
pub const MULTI_SOURCE_PULL: u32 = 0;
/// A top-down level's first pass: every frontier vertex ORs its frontier word into its
/// out-neighbors' next words (atomically), skipping the bits a target has seen.
pub const MULTI_SOURCE_PUSH: u32 = 1;
/// A top-down level's second pass: every vertex keeps the bits of its next word it had not
/// seen, as a bottom-up level does.
pub const MULTI_SOURCE_SETTLE: u32 = 2;
/// After a bottom-up pass: the whole grid ORs the frontier words along each queued list into
/// its vertex's next word (atomically, one a warp), for the bits the vertex has not seen.
pub const MULTI_SOURCE_PULL_QUEUED: u32 = 3;
/// After a top-down pass: the whole grid pushes each queued vertex's frontier word along its list.
pub const MULTI_SOURCE_PUSH_QUEUED: u32 = 4;
/// After [`MULTI_SOURCE_PULL_QUEUED`]: each queued vertex keeps its new bits, as a bottom-up
/// pass's vertices do, and is counted.
pub const MULTI_SOURCE_SETTLE_QUEUED: u32 = 5;

/// Counters of a level (`BfsMultiSourceLevelParams::counts`): the vertices it reached, their
/// out-list entries, and the lists it queued for the grid.
pub const MULTI_SOURCE_LEVEL_COUNTERS: usize = 3;

/// The field list of `bfs_multi_source_count`'s parameters.
#[macro_export]
macro_rules! bfs_multi_source_count_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_multi_source_count`'s parameters: every vertex's word of the sources that
            /// reached it at the last level (`words`, `n` of them), and [`MULTI_SOURCE_BATCH`]
            /// counters (`counts`: counter `i` gains the vertices whose word has bit `i`).
            kernel bfs_multi_source_count, in [$crate::bfs::multi_source], struct BfsMultiSourceCountParams {
                words: $crate::DevicePtr<u64>,
                counts: $crate::DevicePtrMut<u64>,
                n: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_multi_source_count_fields!(crate::kernel_params);

/// The field list of `bfs_multi_source_level`'s parameters.
#[macro_export]
macro_rules! bfs_multi_source_level_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_multi_source_level`'s parameters: the lists the level walks (`offsets`,
            /// `targets`: to pull, the in-lists, the graph's own when undirected, its
            /// transpose's when directed; to push, the out-lists), the out-lists' offsets (each
            /// reached vertex's out-degree is counted for the next level's direction), every
            /// vertex's word of the sources that have reached it (`seen`) and of those that
            /// reached it at the last level (`frontier`), the next level's words (`next`: the
            /// sources that reach each vertex first at this level), `count` sources, the
            /// level's [`MULTI_SOURCE_LEVEL_COUNTERS`] counters (the vertices it reached, their
            /// out-list entries, the lists it queued), the queue of lists longer than
            /// [`MULTI_SOURCE_GRID_LIST`] (their pieces, `v << 32 | piece`; room for
            /// [`multi_source_queue_capacity`] of the lists' entries) and the pass
            /// (`mode`: [`MULTI_SOURCE_PULL`], [`MULTI_SOURCE_PUSH`], [`MULTI_SOURCE_SETTLE`], or
            /// a queued lists' pass).
            kernel bfs_multi_source_level, in [$crate::bfs::multi_source], struct BfsMultiSourceLevelParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                out_offsets: $crate::DevicePtr<u64>,
                seen: $crate::DevicePtrMut<u64>,
                frontier: $crate::DevicePtr<u64>,
                next: $crate::DevicePtrMut<u64>,
                counts: $crate::DevicePtrMut<u64>,
                queue: $crate::DevicePtrMut<u64>,
                n: u32,
                count: u32,
                mode: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_multi_source_level_fields!(crate::kernel_params);

/// The field list of `bfs_multi_source_distances`'s parameters.
#[macro_export]
macro_rules! bfs_multi_source_distances_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_multi_source_distances`'s parameters: `levels` consecutive levels' new
            /// words (`words[j * n + v]`: the sources that reach vertex `v` first at level
            /// `first_level + j`; `levels <= MULTI_SOURCE_LEVEL_RING`), the distances of `count`
            /// sources (`distances[i * n + v]`: source `i`, vertex `v`), each written where its
            /// source's bit is in the window, and, where `fill` is not 0 (the window from level
            /// 0), every other distance written unreached.
            kernel bfs_multi_source_distances, in [$crate::bfs::multi_source], struct BfsMultiSourceDistancesParams {
                words: $crate::DevicePtr<u64>,
                distances: $crate::DevicePtrMut<u32>,
                n: u32,
                count: u32,
                first_level: u32,
                levels: u32,
                fill: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_multi_source_distances_fields!(crate::kernel_params);
