//! Kernels over a placed graph itself, for no algorithm in particular: the runtime runs them
//! while it places a graph.
//!
//! `graph_list_heads` gathers the list heads (the first `HEAD_NEIGHBORS` targets of every
//! list) from plain lists in device memory, where the host would otherwise build them in a
//! pass of its own over every list and copy them across the bus (bench/NOTES.md 140 and 141).
//! One thread a vertex: its two offsets, then its list's first targets, which share a sector.

use warpath_interface::graph::{GraphListHeadsParams, HEAD_NEIGHBORS};

use crate::prelude::*;

/// `graph_list_heads`: every vertex's first `HEAD_NEIGHBORS` targets, `u32::MAX` past the end
/// of a shorter list, one thread a vertex.
///
/// # Safety
/// `offsets` holds `n + 1` nondecreasing entries, `targets` every entry they bound, and
/// `heads` `HEAD_NEIGHBORS * n` words.
#[inline(always)]
pub unsafe fn list_heads(params: GraphListHeadsParams) {
    let GraphListHeadsParams { offsets, targets, heads, n } = params;
    for v in grid_stride(n as u64) {
        let v = v as usize;
        // SAFETY: `v < n`: its offsets and head slots exist, and so does every target below
        // its list's end (the contract).
        unsafe {
            let start = *offsets.add(v);
            let end = *offsets.add(v + 1);
            for k in 0..HEAD_NEIGHBORS {
                let edge = start + k as u64;
                *heads.add(HEAD_NEIGHBORS * v + k) = if edge < end { *targets.add(edge as usize) } else { u32::MAX };
            }
        }
    }
}

warpath_interface::graph_list_heads_fields!(warpath_interface::kernel_entry => list_heads);
