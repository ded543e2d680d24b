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
//! to claim a slot), so that a giant component cut by millions of edges yields one pair. The
//! host merges every rank's few pairs, and `cc_part_relabel` names each owned vertex by its
//! merged root (a binary search in the merged names).

use crate::prelude::*;
use warpath_interface::cc::partitioned::{CcPartJoinParams, CcPartNameGhostsParams, CcPartRelabelParams, EMPTY_SLOT};

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

/// Each owned vertex's component: its local component's name, or that name's merged root.
///
/// # Safety
/// `labels` and `ghost_globals` as for `cc_part_name_ghosts`; `names` holds `names_len`
/// ascending names and `roots` one root each; `components` room for `owned` words.
#[inline(always)]
unsafe fn relabel(params: CcPartRelabelParams) {
    let CcPartRelabelParams { labels, ghost_globals, owned, first, names, roots, names_len, components } = params;
    for v in grid_stride(owned as u64) {
        let v = v as usize;
        // SAFETY: `v < owned`; the search stays below `names_len` (the contract).
        unsafe {
            let name = name_of(*labels.add(v), owned, first, ghost_globals);
            let (mut low, mut high) = (0, names_len);
            while low < high {
                let middle = low + (high - low) / 2;
                if *names.add(middle as usize) < name {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            let merged = low < names_len && *names.add(low as usize) == name;
            *components.add(v) = if merged { *roots.add(low as usize) } else { name };
        }
    }
}

warpath_interface::cc_part_name_ghosts_fields!(warpath_interface::kernel_entry => name_ghosts);
warpath_interface::cc_part_join_fields!(warpath_interface::kernel_entry => join);
warpath_interface::cc_part_relabel_fields!(warpath_interface::kernel_entry => relabel);
