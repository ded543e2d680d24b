//! The merge of the partitioned connected components (the host's `multi::cc` launches these
//! after `cc_persistent` has found the components of the rank's part, and trades their results
//! between the launches).
//!
//! Technique: Afforest per partition, then the cross-partition edges merged (Moschou 2026,
//! section 5, Afforest; Sutton, Ben-Nun and Barak, IPDPS 2018), over Merrill et al.'s 1D
//! ownership (section 6). Instead of the cut edges themselves, only one pair a ghost crosses
//! to the ghost's owner: the name of the ghost's local component (`cc_part_name_ghosts`). The
//! owner compares it with its own name for the vertex and keeps each distinct pair of names
//! once in a hash table in device memory (`cc_part_join`: linear probing, one compare-and-swap
//! to claim a slot), so that a giant component cut by millions of edges yields one pair. Every
//! rank's pairs are gathered on every device, and `cc_part_union` merges them in a hash table
//! of names, each name's parent beside it (Afforest's hooking, the higher root under the lower,
//! then a compression: Sutton et al.), so that `cc_part_relabel` names each owned vertex by its
//! merged root with one lookup.

use crate::prelude::*;
use warpath_interface::cc::partitioned::{
    union_phase, CcPartJoinParams, CcPartNameGhostsParams, CcPartRelabelParams, CcPartUnionParams, EMPTY_NAME,
    EMPTY_SLOT,
};

/// The global name of the local component labelled `label`: its vertex's global id.
///
/// # Safety
/// `label < owned`, or `label - owned` indexes `ghost_globals`.
#[inline(always)]
unsafe fn name_of(label: u32, owned: u32, first: u32, ghost_globals: *const u32) -> u32 {
    if label < owned {
        first + label
    } else {
        // SAFETY: the caller's contract.
        unsafe { *ghost_globals.add((label - owned) as usize) }
    }
}

/// Each ghost's (global id, local component's name), in ghost order.
///
/// # Safety
/// `labels` holds `owned + ghosts` local labels, each a local id; `ghost_globals` the ghosts'
/// `ghosts` global ids; `sent` room for `2 * ghosts` words.
#[inline(always)]
unsafe fn name_ghosts(params: CcPartNameGhostsParams) {
    let CcPartNameGhostsParams { labels, ghost_globals, ghosts, owned, first, sent } = params;
    for i in grid_stride(ghosts as u64) {
        let i = i as usize;
        // SAFETY: `i < ghosts`; the labels are local ids (the contract).
        unsafe {
            let label = *labels.add(owned as usize + i);
            *sent.add(2 * i) = *ghost_globals.add(i);
            *sent.add(2 * i + 1) = name_of(label, owned, first, ghost_globals);
        }
    }
}

/// A slot of the hash table for `key` (Fibonacci hashing: the product's high word).
#[inline(always)]
fn slot_of(key: u64, mask: u32) -> u32 {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32 & mask
}

/// Keeps each distinct pair of names the received pairs join, once.
///
/// # Safety
/// `pairs` holds `pairs_len` pairs whose first word is a vertex this rank owns (`first..first +
/// owned`); `labels` and `ghost_globals` as for `cc_part_name_ghosts`; `table` holds
/// `table_mask + 1` slots (a power of two, more than the distinct pairs), zeroed; `joined` room
/// for `2 * pairs_len` words; `joined_len` one zeroed word.
#[inline(always)]
unsafe fn join(params: CcPartJoinParams) {
    let CcPartJoinParams {
        labels,
        ghost_globals,
        owned,
        first,
        pairs,
        pairs_len,
        table,
        table_mask,
        joined,
        joined_len,
    } = params;
    for i in grid_stride(pairs_len as u64) {
        let i = i as usize;
        // SAFETY: `i < pairs_len`; the vertex is owned, its label a local id (the contract).
        let (theirs, mine) = unsafe {
            let vertex = *pairs.add(2 * i);
            (*pairs.add(2 * i + 1), name_of(*labels.add((vertex - first) as usize), owned, first, ghost_globals))
        };
        if theirs == mine {
            continue;
        }
        let (low, high) = if theirs < mine { (theirs, mine) } else { (mine, theirs) };
        let key = (low as u64) << 32 | high as u64;
        let mut slot = slot_of(key, table_mask);
        // SAFETY: every slot is below `table_mask + 1`; the table has room for every distinct
        // pair, so the probe ends; `joined` has room for `pairs_len` pairs.
        unsafe {
            loop {
                let at = table.add(slot as usize);
                // A stale read only sends this thread to the compare-and-swap, which sees the truth.
                let held = core::ptr::read_volatile(at);
                if held == key {
                    break;
                }
                if held == EMPTY_SLOT {
                    let before = atomic_cas_u64(at, EMPTY_SLOT, key);
                    if before == EMPTY_SLOT {
                        let index = atomic_add_u32(joined_len, 1) as usize;
                        *joined.add(2 * index) = low;
                        *joined.add(2 * index + 1) = high;
                        break;
                    }
                    if before == key {
                        break;
                    }
                }
                slot = (slot + 1) & table_mask;
            }
        }
    }
}

/// A names-table slot: `name` with `parent`.
#[inline(always)]
fn name_entry(name: u32, parent: u32) -> u64 {
    (name as u64 + 1) << 32 | parent as u64
}

/// The slot of `name` in the names table, or the empty slot where its probe ended.
///
/// # Safety
/// `table` holds `mask + 1` slots, some empty (the table is never full).
#[inline(always)]
unsafe fn find_slot(table: *const u64, mask: u32, name: u32) -> (*mut u64, u64) {
    let key = name as u64 + 1;
    let mut slot = slot_of(key, mask);
    loop {
        // SAFETY: `slot <= mask` (the caller's contract).
        let at = unsafe { table.add(slot as usize) } as *mut u64;
        // SAFETY: as above. Volatile: other threads insert and relink while this one probes.
        let held = unsafe { core::ptr::read_volatile(at) };
        if held == EMPTY_NAME || held >> 32 == key {
            return (at, held);
        }
        slot = (slot + 1) & mask;
    }
}

/// The root of `name`'s tree in the names table, and the root's slot.
///
/// # Safety
/// As for `find_slot`; `name` and every name up its tree are in the table.
#[inline(always)]
unsafe fn root_of(table: *const u64, mask: u32, name: u32) -> (u32, *mut u64) {
    let mut name = name;
    loop {
        // SAFETY: the caller's contract.
        let (at, held) = unsafe { find_slot(table, mask, name) };
        let parent = held as u32;
        if parent == name {
            return (name, at);
        }
        name = parent;
    }
}

/// Merges every gathered pair of names in the names table, one phase a launch: inserts both
/// names (each its own parent), links the two trees (the higher root hooked under the lower by
/// one compare-and-swap, retried from the new roots when another thread moved one first: the
/// root of a tree is always its smallest name, as Afforest's and the host's union-find keep
/// it), or points every name at its root. Afforest's hooking (Sutton et al.) over a hash table
/// instead of an array a vertex: the table holds only the names the pairs join, a few per cut
/// component, whatever the graph's size.
///
/// # Safety
/// `pairs` holds `pairs_len` pairs; `table` holds `table_mask + 1` slots (a power of two, more
/// than twice the pairs' distinct names), zeroed before `INSERT`, the phases launched in order.
#[inline(always)]
unsafe fn union(params: CcPartUnionParams) {
    let CcPartUnionParams { pairs, pairs_len, table, table_mask, phase } = params;
    for i in grid_stride(pairs_len as u64) {
        let i = i as usize;
        // SAFETY: `i < pairs_len`.
        let (a, b) = unsafe { (*pairs.add(2 * i), *pairs.add(2 * i + 1)) };
        // SAFETY (of every table access): the table is never full (the contract); `INSERT` put
        // every name of every pair in it before the later phases.
        unsafe {
            if phase == union_phase::INSERT {
                for name in [a, b] {
                    loop {
                        let (at, held) = find_slot(table, table_mask, name);
                        if held != EMPTY_NAME {
                            break;
                        }
                        let before = atomic_cas_u64(at, EMPTY_NAME, name_entry(name, name));
                        if before == EMPTY_NAME || before >> 32 == name as u64 + 1 {
                            break;
                        }
                        // Another name took the slot first: probe on from it.
                    }
                }
            } else if phase == union_phase::LINK {
                loop {
                    let ((root_a, at_a), (root_b, at_b)) =
                        (root_of(table, table_mask, a), root_of(table, table_mask, b));
                    if root_a == root_b {
                        break;
                    }
                    let (low, high, at) = if root_a < root_b { (root_a, root_b, at_b) } else { (root_b, root_a, at_a) };
                    if atomic_cas_u64(at, name_entry(high, high), name_entry(high, low)) == name_entry(high, high) {
                        break;
                    }
                }
            } else {
                for name in [a, b] {
                    let (root, _) = root_of(table, table_mask, name);
                    let (at, _) = find_slot(table, table_mask, name);
                    core::ptr::write_volatile(at, name_entry(name, root));
                }
            }
        }
    }
}

/// Each owned vertex's component: its local component's name, or where the names table holds
/// that name (a name some pair joined), its root there. Most of a part's vertices share a few
/// names (its largest local components'), so a warp looks each distinct name up once, by the
/// first lane holding it (`match.any`), and hands the answer to the others: not every lane of
/// the grid probing the same slot.
///
/// # Safety
/// `labels` and `ghost_globals` as for `cc_part_name_ghosts`; `table` is null (no pair joined
/// anything) or holds `table_mask + 1` slots, compressed by `cc_part_union`; `components` room
/// for `owned` words. The block size is a multiple of 32.
#[inline(always)]
unsafe fn relabel(params: CcPartRelabelParams) {
    let CcPartRelabelParams { labels, ghost_globals, owned, first, table, table_mask, components } = params;
    let lane = lane_id();
    // By warp, so that every lane reaches the full-mask match and shuffle together.
    let mut warp_base = global_idx() - lane;
    while warp_base < owned {
        let v = warp_base + lane;
        let active = v < owned;
        // SAFETY: `v < owned`; the labels are local ids (the contract).
        let name =
            if active { unsafe { name_of(*labels.add(v as usize), owned, first, ghost_globals) } } else { u32::MAX };
        // Without a table (no pair was merged) every name stands: no match, no shuffle. The
        // branch is the same for every lane of the grid.
        let merged = if table.is_null() {
            name
        } else {
            let leader = ffs(match_any_sync(FULL_MASK, name)) - 1;
            let mut merged = name;
            if lane == leader && active {
                // SAFETY: the table is never full (the contract).
                let (_, held) = unsafe { find_slot(table, table_mask, name) };
                if held != EMPTY_NAME {
                    merged = held as u32;
                }
            }
            shfl_idx_sync(FULL_MASK, merged, leader)
        };
        if active {
            // SAFETY: `v < owned`.
            unsafe { *components.add(v as usize) = merged };
        }
        warp_base += global_threads();
    }
}

warpath_interface::cc_part_name_ghosts_fields!(warpath_interface::kernel_entry => name_ghosts);
warpath_interface::cc_part_join_fields!(warpath_interface::kernel_entry => join);
warpath_interface::cc_part_union_fields!(warpath_interface::kernel_entry => union);
warpath_interface::cc_part_relabel_fields!(warpath_interface::kernel_entry => relabel);
