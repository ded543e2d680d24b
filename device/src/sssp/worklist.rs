//! Seed 002's work distributions for SSSP (and BFS, with unit weights), as the seed runs
//! them: Bellman-Ford-style iterations over a worklist of active vertices, one launch an
//! iteration, the host reading the output list's length between launches. Every strategy
//! relaxes by `atom.min` and pushes a lowered vertex once per output list (its mark); a push
//! stands for all the vertex's edges, so it is one atomic per vertex's edges (the seed's work
//! chunking, section II-B), and with warp-aggregated appends one per warp.
//! - `sssp_worklist`, mode `NODE`: node-based task distribution (section II-A), a thread per
//!   active vertex walking its whole list;
//! - mode `EDGE`: edge-based task distribution (section II-B), a thread per edge of the graph
//!   reading its source from a COO array, relaxing the edges of active sources;
//! - mode `PIECES`: node splitting (section III-B), a thread per piece of at most MDT edges of
//!   an active vertex (the split CSR the host builds once per graph); a lowered vertex pushes
//!   all its pieces with one atomic;
//! - mode `SUB_ITERATION`: hierarchical processing (section III-C), a sub-iteration relaxing
//!   up to MDT edges of every vertex of the sub-list and listing those with edges left;
//! - `sssp_decomposed`: workload decomposition (section III-A), in one cooperative launch: a
//!   prefix sum of the active vertices' degrees, then every thread a contiguous, even share of
//!   their edges, finding its first vertex by binary search (hierarchical processing hands it
//!   the sub-lists smaller than a block).

use crate::prelude::*;
use crate::sssp::{distance_of, first_to_mark, relax, WeightReader, UNREACHED};
use warpath_interface::sssp::{
    flags, weight_kind, worklist_mode, SsspDecomposedParams, SsspWorklistParams, WorklistControl, SSSP_BLOCK,
};

use core::ptr::addr_of_mut;

/// What every strategy does with a candidate: lower the target and push it (or its pieces).
struct Pusher {
    distances: *mut u64,
    marks: *mut u32,
    out: *mut u32,
    control: *mut WorklistControl,
    iteration: u32,
    /// Node splitting: the pieces of each vertex (`n + 1` entries), or null.
    pieces: *const u32,
    /// The edge-based strategy marks active vertices instead of listing them.
    edge_based: bool,
}

impl Pusher {
    /// Offers `candidate` to `v` where `want`. Called by the lanes that are active together
    /// (`mask`), which must all call it.
    ///
    /// # Safety
    /// `v < n` where `want`; the arrays obey the kernel contract.
    #[inline(always)]
    unsafe fn offer(&self, mask: u32, want: bool, v: u32, candidate: u64) {
        // SAFETY: forwarded from the caller.
        unsafe {
            let lowered = want && relax(self.distances, v, candidate);
            if self.edge_based {
                if lowered {
                    // The next iteration's mark: a racing reader of this iteration skips the
                    // vertex, which the next iteration relaxes with its newer distance.
                    core::ptr::write_volatile(self.marks.add(v as usize), self.iteration + 1);
                    core::ptr::write_volatile(addr_of_mut!((*self.control).changed), 1);
                }
                return;
            }
            let push = lowered && first_to_mark(self.marks, v, self.iteration + 1);
            if self.pieces.is_null() {
                if let Some(slot) = warp_aggregated_append(mask, push, addr_of_mut!((*self.control).out_len)) {
                    *self.out.add(slot as usize) = v;
                }
            } else if push {
                // Work chunking: all of the vertex's pieces with one atomic.
                let first = *self.pieces.add(v as usize);
                let count = *self.pieces.add(v as usize + 1) - first;
                let slot = atomic_add_u32(addr_of_mut!((*self.control).out_len), count);
                for k in 0..count {
                    *self.out.add((slot + k) as usize) = first + k;
                }
            }
        }
    }

    /// Adds this warp's relaxations (the lanes of `mask`) to the control block.
    #[inline(always)]
    unsafe fn count(&self, relaxations: u32) {
        let total = warp_sum_u64(relaxations as u64);
        if lane_id() == 0 && total > 0 {
            // SAFETY: the control block is a global struct.
            unsafe { atomic_add_u64(addr_of_mut!((*self.control).relaxations), total) };
        }
    }
}

/// Relaxes edges `start..end` of `u`, a thread alone; returns the relaxations.
///
/// # Safety
/// `u < n` and `start..end` lies in its list.
#[inline(always)]
unsafe fn relax_range(
    targets: *const u32,
    reader: &WeightReader,
    pusher: &Pusher,
    u: u32,
    start: u64,
    end: u64,
) -> u32 {
    // SAFETY: forwarded from the caller.
    unsafe {
        let d = distance_of(pusher.distances, u);
        // The edge-based strategy's first iteration holds every vertex active.
        if d == UNREACHED {
            return 0;
        }
        for e in start..end {
            let v = *targets.add(e as usize);
            let candidate = reader.extend(d, reader.weight(e));
            pusher.offer(active_mask(), true, v, candidate);
        }
    }
    (end - start) as u32
}

/// `sssp_worklist`: one iteration of `mode` (see the module documentation).
///
/// # Safety
/// Blocks of `SSSP_BLOCK` threads. `offsets` has `n + 1` entries and `targets` (and `weights`,
/// unless unit) `m = offsets[n]`, every target `< n`; `distances` and `marks` hold `n`
/// entries; `items` `items_len` entries: vertices (`NODE`, `SUB_ITERATION`) or pieces
/// (`PIECES`, with `pieces` `n + 1` prefix counts and `piece_owner` an owner a piece); `EDGE`
/// reads `sources` (`m`) instead, a vertex being active when its mark is `iteration`; `out`
/// has room for `n` vertices (or every piece), `sub` and `progress` (`SUB_ITERATION`) for `n`;
/// `control` is a `WorklistControl`; `mdt >= 1` for `PIECES` and `SUB_ITERATION`.
#[inline(always)]
pub unsafe fn worklist(params: SsspWorklistParams) {
    let SsspWorklistParams {
        offsets,
        targets,
        weights,
        sources,
        pieces,
        piece_owner,
        distances,
        marks,
        progress,
        items,
        out,
        sub,
        control,
        m,
        items_len,
        n: _,
        iteration,
        mdt,
        mode,
        flags: flag_word,
    } = params;
    let control = control.cast::<WorklistControl>();
    let reader = WeightReader { kind: weight_kind(flag_word), weights };
    let pusher = Pusher {
        distances,
        marks,
        out,
        control,
        iteration,
        pieces: if mode == worklist_mode::PIECES { pieces } else { core::ptr::null() },
        edge_based: mode == worklist_mode::EDGE,
    };
    let mut relaxations = 0u32;
    // SAFETY (throughout): indices stay below the lengths of the kernel contract.
    unsafe {
        if mode == worklist_mode::EDGE {
            for e in grid_stride(m) {
                let u = *sources.add(e as usize);
                if core::ptr::read_volatile(marks.add(u as usize)) == iteration {
                    relaxations += relax_range(targets, &reader, &pusher, u, e, e + 1);
                }
            }
        } else {
            for i in grid_stride(items_len as u64) {
                let item = *items.add(i as usize);
                let (u, start, end) = match mode {
                    worklist_mode::PIECES => {
                        let u = *piece_owner.add(item as usize);
                        let list_end = *offsets.add(u as usize + 1);
                        let rank = (item - *pieces.add(u as usize)) as u64;
                        let start = *offsets.add(u as usize) + rank * mdt as u64;
                        (u, start, list_end.min(start + mdt as u64))
                    }
                    worklist_mode::SUB_ITERATION => {
                        let list_end = *offsets.add(item as usize + 1);
                        let start = if flag_word & flags::FIRST_SUB != 0 {
                            *offsets.add(item as usize)
                        } else {
                            *progress.add(item as usize)
                        };
                        let end = list_end.min(start + mdt as u64);
                        let left = end < list_end;
                        if left {
                            *progress.add(item as usize) = end;
                        }
                        if let Some(slot) =
                            warp_aggregated_append(active_mask(), left, addr_of_mut!((*control).sub_len))
                        {
                            *sub.add(slot as usize) = item;
                        }
                        (item, start, end)
                    }
                    _ => (item, *offsets.add(item as usize), *offsets.add(item as usize + 1)),
                };
                relaxations += relax_range(targets, &reader, &pusher, u, start, end);
            }
        }
        pusher.count(relaxations);
    }
}

/// `sssp_decomposed`: one iteration of workload decomposition (see the module documentation).
///
/// # Safety
/// Launched cooperatively with blocks of `SSSP_BLOCK` threads. The graph, `distances`,
/// `marks`, `out` and `control` as for `sssp_worklist`; `items` holds `items_len` vertices,
/// each from edge `progress[v]` (or its list's start, `progress` null) to its list's end, the
/// sum of those lengths below 2^32; `prefix` holds `items_len` words and `block_sums` one a
/// block.
#[inline(always)]
pub unsafe fn decomposed(params: SsspDecomposedParams) {
    // SAFETY: declared once, before any control flow.
    let scan = unsafe { ScanScratch::declare() };
    let SsspDecomposedParams {
        offsets,
        targets,
        weights,
        distances,
        marks,
        progress,
        items,
        prefix,
        block_sums,
        out,
        control,
        items_len,
        n: _,
        iteration,
        flags: flag_word,
    } = params;
    let control = control.cast::<WorklistControl>();
    let reader = WeightReader { kind: weight_kind(flag_word), weights };
    let pusher =
        Pusher { distances, marks, out, control, iteration, pieces: core::ptr::null(), edge_based: false };
    // SAFETY: the barrier word is zero at launch.
    let mut barrier = unsafe { GridBarrier::new(addr_of_mut!((*control).barrier_arrivals)) };
    let blocks = grid_dim();
    let block = block_idx();
    let tid = thread_idx();
    let range = |i: u32| -> (u64, u64) {
        // SAFETY: `i < items_len`.
        unsafe {
            let v = *items.add(i as usize);
            let end = *offsets.add(v as usize + 1);
            let start = if progress.is_null() { *offsets.add(v as usize) } else { *progress.add(v as usize) };
            (start, end)
        }
    };
    // 1. Each block scans the degrees of its contiguous chunk of the worklist.
    let chunk = items_len.div_ceil(blocks);
    let (first, last) = ((block * chunk).min(items_len), ((block + 1) * chunk).min(items_len));
    let mut running = 0u32;
    let mut base = first;
    while base < last {
        let i = base + tid;
        let degree = if i < last {
            let (start, end) = range(i);
            (end - start) as u32
        } else {
            0
        };
        let (offset, total) = block_exclusive_scan(degree, &scan);
        if i < last {
            // SAFETY: `i < items_len`.
            unsafe { *prefix.add(i as usize) = running + offset };
        }
        running += total;
        base += SSSP_BLOCK;
    }
    if tid == 0 {
        // SAFETY: one word a block.
        unsafe { *block_sums.add(block as usize) = running };
    }
    barrier.sync();
    // 2. Every block finds the edges before its chunk and the total, from the block sums.
    let (mut before, mut all) = (0u32, 0u32);
    let mut b = tid;
    while b < blocks {
        // SAFETY: `b < blocks`.
        let sum = unsafe { core::ptr::read_volatile(block_sums.add(b as usize)) };
        all += sum;
        if b < block {
            before += sum;
        }
        b += SSSP_BLOCK;
    }
    let (_, before) = block_exclusive_scan(before, &scan);
    let (_, total) = block_exclusive_scan(all, &scan);
    let mut i = first + tid;
    while i < last {
        // SAFETY: `i < items_len`.
        unsafe { *prefix.add(i as usize) += before };
        i += SSSP_BLOCK;
    }
    if is_grid_leader() {
        // SAFETY: the control block is a global struct.
        unsafe { (*control).edges = total as u64 };
    }
    barrier.sync();
    // 3. An even, contiguous share of the edges a thread (Fig. 4 of the seed).
    let threads = global_threads();
    let share = total.div_ceil(threads);
    let mut edge = global_idx().saturating_mul(share).min(total);
    let stop = edge.saturating_add(share).min(total);
    let mut relaxations = 0u32;
    if edge < stop {
        // SAFETY (throughout): `prefix` is the scan of the items' degrees.
        unsafe {
            let read_prefix = |i: u32| core::ptr::read_volatile(prefix.add(i as usize));
            let mut item = last_at_most(items_len, |i| read_prefix(i) <= edge);
            while edge < stop {
                let item_end = if item + 1 < items_len { read_prefix(item + 1) } else { total };
                if edge >= item_end {
                    item += 1;
                    continue;
                }
                let (start, _) = range(item);
                let v = *items.add(item as usize);
                let until = stop.min(item_end);
                let from = start + (edge - read_prefix(item)) as u64;
                relaxations += relax_range(targets, &reader, &pusher, v, from, from + (until - edge) as u64);
                edge = until;
            }
        }
    }
    // SAFETY: the control block is a global struct.
    unsafe { pusher.count(relaxations) };
}

warpath_interface::sssp_worklist_fields!(warpath_interface::kernel_entry => worklist);
warpath_interface::sssp_decomposed_fields!(warpath_interface::kernel_entry => decomposed);
