//! What the host and the kernels that work on a placed graph itself, for no algorithm in
//! particular, agree on: the list heads ([`HEAD_NEIGHBORS`] first neighbors of every list, which
//! the BFS's bottom-up searches and Afforest's neighbor rounds read in one load) and the kernel
//! that gathers them from lists in device memory.

/// Neighbors kept per vertex in the list heads (the kernels' `in_heads` arrays), in list order,
/// padded with `u32::MAX` where a list is shorter.
pub const HEAD_NEIGHBORS: usize = 2;

/// Threads a block of the graph kernels.
pub const GRAPH_BLOCK: u32 = 256;

/// The field list of `graph_list_heads`' parameters.
#[macro_export]
macro_rules! graph_list_heads_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `graph_list_heads`' parameters: the first [`HEAD_NEIGHBORS`](crate::graph::HEAD_NEIGHBORS)
            /// targets of each of the `n` plain lists (`offsets`: n + 1 entries; `targets`: the
            /// lists) into `heads`, `HEAD_NEIGHBORS` words a vertex, `u32::MAX` past a list's end.
            kernel graph_list_heads, in [$crate::graph], struct GraphListHeadsParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                heads: $crate::DevicePtrMut<u32>,
                n: u32,
            }
            $(=> $run)?
        }
    };
}

crate::graph_list_heads_fields!(crate::kernel_params);
