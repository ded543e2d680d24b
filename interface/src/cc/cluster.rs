//! Connected components in one Hopper thread-block cluster (`cc_cluster`, the sm_90 module):
//! how the cluster's blocks share the vertices, and the kernel's parameters. The cluster's
//! shape is [`crate::cluster`]'s; the control block, flags and trace records are the other
//! CC kernels' ([`crate::cc`]).

use crate::cluster::{CLUSTER_BLOCKS, CLUSTER_MAX_SHARED_BYTES};

/// Static shared memory of a `cc_cluster` block: its warps' edge queues (32 warps of 64
/// edges, 8 bytes each), beside a few words.
pub const CC_CLUSTER_QUEUE_BYTES: u32 = 32 * 64 * 8;
/// The most vertices one block of `cc_cluster` owns: a 4-byte parent word each fills the
/// 227 KiB of shared memory a Hopper block may take, less the queues and 256 bytes for the
/// rest.
pub const CC_CLUSTER_MAX_SPAN: u32 = (CLUSTER_MAX_SHARED_BYTES - CC_CLUSTER_QUEUE_BYTES - 256) / 4;
/// The most vertices `cc_cluster` takes.
pub const CC_CLUSTER_MAX_VERTICES: u64 = CLUSTER_BLOCKS as u64 * CC_CLUSTER_MAX_SPAN as u64;

/// The vertices each block of `cc_cluster` owns for a graph of `n`: block `b` owns the
/// consecutive ids from `b * span`, so that where ids follow a graph's geometry (roads,
/// meshes) nearly every edge joins two vertices of one block. None beyond
/// [`CC_CLUSTER_MAX_VERTICES`].
pub const fn cc_cluster_span(n: u64) -> Option<u32> {
    if n > CC_CLUSTER_MAX_VERTICES {
        return None;
    }
    let span = n.div_ceil(CLUSTER_BLOCKS as u64);
    Some(if span == 0 { 1 } else { span as u32 })
}

/// Dynamic shared memory of one `cc_cluster` block: a parent word for each vertex it owns.
pub const fn cc_cluster_shared_bytes(span: u32) -> u32 {
    4 * span
}

/// The field list of `cc_cluster`'s parameters.
#[macro_export]
macro_rules! cc_cluster_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `cc_cluster`'s parameters (the sm_90 module; one thread-block cluster of
            /// `CLUSTER_BLOCKS` blocks of `CLUSTER_BLOCK` threads, with
            /// `cc_cluster_shared_bytes(span)` of dynamic shared memory each): a plain CSR of
            /// `n` vertices (fewer than 2^32 edges), `span` as `cc_cluster_span` gives; the
            /// labels it writes (each component named by its smallest vertex); a zeroed
            /// [`CcControl`](crate::cc::CcControl) whose `records` it sets; the CC trace
            /// records (`trace_capacity + 1` of them), zeroed; `flags`, of which it reads
            /// [`CcFlags::SYMMETRIC`](crate::cc::CcFlags::SYMMETRIC) (every edge in both
            /// lists: each is linked once, from its larger end).
            kernel cc_cluster, in [$crate::cc::cluster], struct CcClusterParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                labels: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<$crate::cc::CcControl>,
                trace: $crate::DevicePtrMut<u64>,
                n: u32,
                span: u32,
                trace_capacity: u32,
                flags: $crate::cc::CcFlags,
            }
            $(=> $run)?
        }
    };
}

crate::cc_cluster_fields!(crate::kernel_params);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_own_consecutive_ids_that_fit_their_shared_memory() {
        assert_eq!(cc_cluster_span(0), Some(1));
        assert_eq!(cc_cluster_span(1), Some(1));
        assert_eq!(cc_cluster_span(17), Some(2));
        // USA-road-d.NY: 16,522 vertices a block, 66 KB of parents.
        assert_eq!(cc_cluster_span(264_346), Some(16_522));
        assert_eq!(cc_cluster_span(CC_CLUSTER_MAX_VERTICES), Some(CC_CLUSTER_MAX_SPAN));
        assert_eq!(cc_cluster_span(CC_CLUSTER_MAX_VERTICES + 1), None);
        assert!(cc_cluster_shared_bytes(CC_CLUSTER_MAX_SPAN) + CC_CLUSTER_QUEUE_BYTES < CLUSTER_MAX_SHARED_BYTES);
        for n in [1u64, 1000, 264_346, CC_CLUSTER_MAX_VERTICES] {
            let span = cc_cluster_span(n).unwrap() as u64;
            assert!(span * CLUSTER_BLOCKS as u64 >= n && (span - 1) * (CLUSTER_BLOCKS as u64) < n.max(1), "{n}");
        }
    }
}
