//! Connected components in one Hopper thread-block cluster (`cc_cluster` in
//! `device/src/cc/cluster.rs`, which documents the technique): when it can run, and its launch.
//! [`super::components_in`] takes it for [`LocalLink::Cluster`](crate::cc::LocalLink::Cluster)
//! and where `auto` finds a graph it suits.

use cudarc::driver::LaunchConfig;
use warpath_interface::cc::cluster::{
    cc_cluster_shared_bytes, cc_cluster_span, CcClusterParams, CC_CLUSTER_MAX_VERTICES,
};
use warpath_interface::cc::{CcFlags, CC_CONTROL_WORDS, CC_TRACE_WORDS};
use warpath_interface::cluster::{CLUSTER_BLOCK, CLUSTER_BLOCKS};
use warpath_interface::{names, DeviceAddress};

use super::CcBuffers;
use crate::gpu::launch::{self, require, Launch, Residency};
use crate::gpu::{DeviceGraph, GpuContext, GpuError};

/// Why the cluster kernel cannot run on `lists` on `gpu`, or None when it can
/// ([`launch::cluster_refusal`]: compute capability 9.0, plain lists, fewer than 2^32 edges),
/// and at most [`CC_CLUSTER_MAX_VERTICES`] vertices (a parent word each in the cluster's
/// shared memory).
pub fn cluster_refusal(gpu: &GpuContext, lists: &DeviceGraph) -> Option<String> {
    launch::cluster_refusal(gpu, lists, "the cluster CC", CC_CLUSTER_MAX_VERTICES)
}

/// `cc_cluster` over `lists` (every edge in both lists where `symmetric`), into the zeroed
/// control block and trace of `buffers`, after checking the kernel's contract; its device
/// time from just before it is queued ([`Launch::run_timed`]).
pub fn cc_cluster(
    gpu: &GpuContext,
    lists: &DeviceGraph,
    buffers: &mut CcBuffers,
    symmetric: bool,
) -> Result<std::time::Duration, GpuError> {
    let kernel = names::CC_CLUSTER;
    let n = lists.num_vertices();
    let span = cc_cluster_span(n as u64);
    require(kernel, !lists.is_compressed(), || "a compressed graph: it reads plain CSR lists".into())?;
    require(
        kernel,
        span.is_some()
            && lists.num_edges() < 1 << 32
            && buffers.labels.len() >= n as usize
            && buffers.control.len() >= CC_CONTROL_WORDS
            && buffers.trace.len() >= CC_TRACE_WORDS,
        || format!("{n} vertices and {} edges, or buffers too small", lists.num_edges()),
    )?;
    let span = span.unwrap_or(1);
    let trace_capacity = (buffers.trace.len() / CC_TRACE_WORDS - 1) as u32;
    let stream = gpu.stream();
    let CcBuffers { labels, control, trace } = buffers;
    let mut launch = Launch::new(gpu);
    let params = CcClusterParams {
        offsets: DeviceAddress::new(lists.offsets.device_ptr(stream)),
        targets: DeviceAddress::new(lists.targets.device_ptr(stream)),
        labels: launch.write(labels),
        control: DeviceAddress::new(launch.write(control).address),
        trace: launch.write(trace),
        n,
        span,
        trace_capacity,
        flags: CcFlags::NONE.with(CcFlags::SYMMETRIC, symmetric),
    };
    let config = LaunchConfig {
        grid_dim: (CLUSTER_BLOCKS, 1, 1),
        block_dim: (CLUSTER_BLOCK, 1, 1),
        shared_mem_bytes: cc_cluster_shared_bytes(span),
    };
    launch.run_timed(config, Residency::Cluster, &params)
}
