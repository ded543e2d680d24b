//! The per-level BFS kernels: `bfs_init` labels, then one `bfs_topdown_expand` launch a level.

/// Threads per block of the per-level kernels: a multiple of 32, as they require.
pub const PER_LEVEL_BLOCK: u32 = 256;

/// The field list of `bfs_init`'s parameters, for [`kernel_params!`](crate::kernel_params)
/// and the device's [`kernel_entry!`](crate::kernel_entry).
#[macro_export]
macro_rules! bfs_init_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_init`'s parameters: `n` distances and parents, all unreached but `source`.
            kernel bfs_init, in [$crate::bfs::per_level], struct BfsInitParams {
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                n: u32,
                source: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_topdown_expand`'s parameters.
#[macro_export]
macro_rules! bfs_topdown_expand_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_topdown_expand`'s parameters: a plain CSR (`offsets`, `targets`), the labels,
            /// the frontier at distance `level` and the next frontier with its length.
            kernel bfs_topdown_expand, in [$crate::bfs::per_level], struct BfsTopdownExpandParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                frontier: $crate::DevicePtr<u32>,
                frontier_len: u32,
                next: $crate::DevicePtrMut<u32>,
                next_len: $crate::DevicePtrMut<u32>,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_init_fields!(crate::kernel_params);
crate::bfs_topdown_expand_fields!(crate::kernel_params);
