//! The bit-parallel many-source BFS (MS-BFS, Then et al., VLDB 2015; iBFS's joint frontier,
//! Liu, Huang et al., SIGMOD 2016): one `bfs_multi_source_level` launch a level, up to
//! [`MULTI_SOURCE_BATCH`] sources sharing it, one bit a source in each vertex's words.

/// Sources a batch: the bits of a vertex's word.
pub const MULTI_SOURCE_BATCH: u32 = 64;

/// Threads per block of `bfs_multi_source_level`.
pub const MULTI_SOURCE_BLOCK: u32 = 256;

/// The field list of `bfs_multi_source_level`'s parameters.
#[macro_export]
macro_rules! bfs_multi_source_level_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_multi_source_level`'s parameters: the in-lists (`offsets`, `targets`: the
            /// graph's own lists when undirected, its transpose's when directed), every vertex's
            /// word of the sources that have reached it (`seen`) and of those that reached it at
            /// the last level (`frontier`), the next level's words (`next`), the distances of
            /// `count` sources (`distances[i * n + v]`: source `i`, vertex `v`), the level being
            /// found (1, 2, ...; level 1 also writes every distance, 0 or unreached) and a word
            /// set to 1 where the level reached a vertex.
            kernel bfs_multi_source_level, in [$crate::bfs::multi_source], struct BfsMultiSourceLevelParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                seen: $crate::DevicePtrMut<u64>,
                frontier: $crate::DevicePtr<u64>,
                next: $crate::DevicePtrMut<u64>,
                distances: $crate::DevicePtrMut<u32>,
                reached: $crate::DevicePtrMut<u32>,
                n: u32,
                count: u32,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_multi_source_level_fields!(crate::kernel_params);
