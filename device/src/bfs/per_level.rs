//! Level-synchronous top-down BFS over a frontier queue.
//!
//! Technique: one expansion kernel per level (Merrill, Garland and Grimshaw, "Scalable GPU
//! Graph Traversal", PPoPP 2012, section 3: the frontier queue of the level-synchronous
//! approach) with two of their gathering modes from section 4.1: a warp cooperatively
//! enlists any adjacency list of 32 or more neighbors ("warp-based gathering"), and the
//! remaining short lists are walked one per thread. Discovered vertices are appended to the
//! next frontier with warp-aggregated atomics (Moschou 2026, section 3.2). A vertex is claimed
//! by a compare-and-swap on its distance, so the next frontier holds no duplicates and the
//! parent written is that of the claiming edge.

use crate::operators::gather::warp_gather;
use crate::prelude::*;
use warpath_interface::bfs::per_level::{BfsInitParams, BfsTopdownExpandParams};

/// Sets every distance and parent to `UNREACHED`, then labels `source` as its own parent at
/// distance 0.
///
/// # Safety
/// `distances` and `parents` hold `n` elements in global memory; `source < n`.
#[inline(always)]
unsafe fn init(params: BfsInitParams) {
    let BfsInitParams { distances, parents, n, source } = params;
    for v in grid_stride(n as u64) {
        let (distance, parent) = if v == source as u64 { (0, source) } else { (UNREACHED, UNREACHED) };
        // SAFETY: `v < n`, the length of both arrays.
        unsafe {
            *distances.add(v as usize) = distance;
            *parents.add(v as usize) = parent;
        }
    }
}

/// Expands one BFS level: every vertex of `frontier` (at distance `level`) claims its
/// unvisited neighbors at distance `level + 1` and appends them to `next`.
///
/// # Safety
/// `offsets` has `n + 1` entries and `targets` `offsets[n]`, all vertex ids `< n`;
/// `distances` and `parents` hold `n` entries; `frontier` holds `frontier_len` vertex ids;
/// `next` has room for `n` ids and `*next_len` counts its entries (0 at launch). The block
/// size is a multiple of 32, so that whole warps take every loop below together.
#[inline(always)]
unsafe fn topdown_expand(params: BfsTopdownExpandParams) {
    let BfsTopdownExpandParams { offsets, targets, distances, parents, frontier, frontier_len, next, next_len, level } =
        params;
    let lane = lane_id();
    let graph = Adjacency { targets, distances, parents, next, next_len, next_level: level + 1 };
    // Iterate by warp so the loop condition is uniform across the warp: the full-mask votes
    // below are only legal when all 32 lanes reach them.
    let mut warp_base = global_idx() - lane;
    while warp_base < frontier_len {
        let slot = warp_base + lane;
        let (mut start, end, vertex) = if slot < frontier_len {
            // SAFETY: `slot < frontier_len`; the vertex id indexes `offsets` (n + 1 entries).
            unsafe {
                let u = *frontier.add(slot as usize);
                (*offsets.add(u as usize), *offsets.add(u as usize + 1), u)
            }
        } else {
            (0, 0, 0)
        };

        // Warp-based gathering: one long list at a time, 32 consecutive edges per step.
        // SAFETY (of each visit): forwarded from this kernel's contract.
        warp_gather(&mut start, end, vertex, |valid, edge, owner| unsafe { graph.visit(valid, edge, owner) });

        // Short lists, one per thread, for as many steps as the warp's longest (< 32) one.
        let steps = warp_max((end - start) as u32);
        for step in 0..steps as u64 {
            let edge = start + step;
            // SAFETY: forwarded from this kernel's contract.
            unsafe { graph.visit(edge < end, edge, vertex) };
        }
        warp_base += global_threads();
    }
}

/// What one edge visit needs; kept together so the visit is one call with three arguments.
struct Adjacency {
    targets: *const u32,
    distances: *mut u32,
    parents: *mut u32,
    next: *mut u32,
    next_len: *mut u32,
    next_level: u32,
}

impl Adjacency {
    /// Visits edge `edge` of `owner` when `valid`. Called by all 32 lanes together.
    ///
    /// # Safety
    /// When `valid`, `edge` indexes `targets`; the pointers obey `bfs_topdown_expand`'s contract.
    #[inline(always)]
    unsafe fn visit(&self, valid: bool, edge: u64, owner: u32) {
        let mut claimed = false;
        let mut v = 0;
        if valid {
            // SAFETY: `edge` indexes `targets`, and every target is a vertex (< n).
            unsafe {
                v = *self.targets.add(edge as usize);
                // A plain read first: most neighbors of a big frontier are already visited, and a
                // read is far cheaper than a failed compare-and-swap.
                let distance = self.distances.add(v as usize);
                if distance.read_volatile() == UNREACHED
                    && atomic_cas_u32(distance, UNREACHED, self.next_level) == UNREACHED
                {
                    *self.parents.add(v as usize) = owner;
                    claimed = true;
                }
            }
        }
        // SAFETY: `next_len` is the next frontier's counter; each claimed vertex gets one slot
        // and at most n vertices are ever claimed, the size of `next`.
        unsafe {
            if let Some(slot) = warp_aggregated_append(FULL_MASK, claimed, self.next_len) {
                *self.next.add(slot as usize) = v;
            }
        }
    }
}

// The entry points, named and with the parameters of their field lists in the interface crate.
warpath_interface::bfs_init_fields!(warpath_interface::kernel_entry => init);
warpath_interface::bfs_topdown_expand_fields!(warpath_interface::kernel_entry => topdown_expand);
