//! Grid-shared long lists (ours; bench/NOTES.md entries 38-39): on a level of a few long
//! adjacency lists, the block that draws one in its tile would gather it alone while the rest
//! of the grid waits at the level's barrier. Instead, every long list of the frontier is first
//! registered in a table in global memory ([`SharedLists::register`], one atomic per warp);
//! after a grid barrier their edges, packed end to end, are cut into one even range per block
//! ([`SharedLists::gather`]), with no atomics. Lists that cannot be indexed by edge
//! (compressed ones) register pieces instead of edges and find each piece's entry with
//! [`SharedLists::find`].
//!
//! The table is the algorithm's (it sizes it: every frontier vertex registers at most one
//! entry), as is the tally word, which the level must clear before registering.

use super::gather::{EdgeVisitor, BATCH};
use crate::prelude::{
    atomic_add_u64, block_idx, grid_dim, lane_id, lanemask_lt, last_at_most, load_acquire_u64, popc, shfl_idx_sync_u64,
    sync_threads, thread_idx, warp_inclusive_scan_u64, SharedArray, FULL_MASK, WARP_SIZE,
};

/// Words per entry of the table: the entry's first position in the level's packed edge (or
/// piece) space, the list's first edge (or the algorithm's own start, such as a restart
/// point's index), its owner.
pub const ENTRY_WORDS: usize = 3;
/// The tally packs entries (high bits) and packed edges (low bits) into one word, so a single
/// atomic numbers an entry and places its edges consistently.
pub const TALLY_EDGE_BITS: u32 = 40;
/// Entries a block loads into shared memory at a time in [`SharedLists::gather`].
pub const WINDOW: usize = 32;
/// The most edges a block walks from one window load: positions inside a window are 32-bit
/// offsets (any bound under 2^32 minus a round would do).
const WINDOW_SPAN: u32 = 1 << 31;

/// A level's table of long lists: `capacity` entries of [`ENTRY_WORDS`] words at `table`.
#[derive(Clone, Copy)]
pub struct SharedLists {
    pub table: *mut u64,
    pub capacity: u32,
}

/// What a level registered: its entries and the packed edges (or pieces) they hold.
#[derive(Clone, Copy)]
pub struct Tally {
    pub entries: u64,
    pub total: u64,
}

impl Tally {
    /// Reads the tally word, after the grid barrier that followed the registrations.
    ///
    /// # Safety
    /// `word` is valid.
    #[inline(always)]
    pub unsafe fn read(word: *const u64) -> Tally {
        // SAFETY: forwarded from the caller.
        let tally = unsafe { load_acquire_u64(word) };
        Tally { entries: tally >> TALLY_EDGE_BITS, total: tally & ((1 << TALLY_EDGE_BITS) - 1) }
    }
}

/// One entry, as [`SharedLists::find`] reads it.
#[derive(Clone, Copy)]
pub struct Entry {
    /// Its first position in the packed space, and the next entry's (or the total).
    pub base: u64,
    pub next_base: u64,
    /// Its second word, as registered.
    pub start: u64,
    pub owner: u32,
}

/// Block-shared arrays for [`SharedLists::gather`], declared once at the kernel's top: the
/// window's entries' first edges in the packed space, counted from where the block stands (0
/// for an entry begun before it; and the next window's first), their first edges in the lists
/// (moved to match), their owners.
pub struct ListWindow {
    pub bases: SharedArray<u32, { WINDOW + 1 }>,
    pub starts: SharedArray<u64, WINDOW>,
    pub owners: SharedArray<u32, WINDOW>,
}

impl ListWindow {
    /// Declares the arrays.
    ///
    /// # Safety
    /// As for `SharedArray::declare`: once per kernel, before any control flow.
    #[inline(always)]
    pub unsafe fn declare() -> ListWindow {
        // SAFETY: forwarded from the caller.
        unsafe {
            ListWindow { bases: SharedArray::declare(), starts: SharedArray::declare(), owners: SharedArray::declare() }
        }
    }
}

impl SharedLists {
    /// Registers the long lists of a warp's lanes: `long_lanes` is the warp's ballot of
    /// `long` (the caller skips the call when it is 0, and may then work out the entries), and
    /// a lane with `long` set registers an entry of `owner` with second word `start` and
    /// `length` packed edges (or pieces; 0 on the other lanes). A warp scan places the lengths
    /// and one add on `tally` reserves entries and packed space for all of them (an entry's
    /// index and place still grow together, as gathering needs). All 32 lanes call it together.
    ///
    /// # Safety
    /// `tally` is valid; the table has room for every entry registered this level (a full
    /// table traps).
    #[inline(always)]
    pub unsafe fn register(&self, tally: *mut u64, long_lanes: u32, long: bool, start: u64, length: u64, owner: u32) {
        let through = warp_inclusive_scan_u64(length);
        let warp_total = shfl_idx_sync_u64(FULL_MASK, through, WARP_SIZE - 1);
        let mut old = 0;
        if lane_id() == 0 {
            // SAFETY: `tally` is valid (caller's contract).
            old = unsafe { atomic_add_u64(tally, ((popc(long_lanes) as u64) << TALLY_EDGE_BITS) | warp_total) };
        }
        let old = shfl_idx_sync_u64(FULL_MASK, old, 0);
        if long {
            let entry = (old >> TALLY_EDGE_BITS) + popc(long_lanes & lanemask_lt()) as u64;
            let packed = (old & ((1 << TALLY_EDGE_BITS) - 1)) + through - length;
            if entry >= self.capacity as u64 {
                // Unreachable under the contract; trap rather than lose the list.
                // SAFETY: `trap` takes no operands and never returns.
                unsafe { core::arch::asm!("trap;", options(noreturn)) };
            }
            // SAFETY: `entry` is below the capacity.
            unsafe {
                let record = self.table.add(entry as usize * ENTRY_WORDS);
                *record = packed;
                *record.add(1) = start;
                *record.add(2) = owner as u64;
            }
        }
    }

    /// Word `word` of entry `entry`.
    ///
    /// # Safety
    /// `entry` was registered before the last grid barrier.
    #[inline(always)]
    unsafe fn word(&self, entry: u64, word: usize) -> u64 {
        // SAFETY: forwarded from the caller.
        unsafe { *self.table.add(entry as usize * ENTRY_WORDS + word) }
    }

    /// Entry `entry`'s first packed position, or the total past the last entry.
    ///
    /// # Safety
    /// As for [`SharedLists::find`].
    #[inline(always)]
    unsafe fn base(&self, tally: Tally, entry: u64) -> u64 {
        // SAFETY: entries below `tally.entries` were registered.
        if entry < tally.entries {
            unsafe { self.word(entry, 0) }
        } else {
            tally.total
        }
    }

    /// The entry that holds packed position `position`, by binary search of the table.
    ///
    /// # Safety
    /// `tally` was read after the registrations' grid barrier; `position < tally.total`.
    #[inline(always)]
    pub unsafe fn find(&self, tally: Tally, position: u64) -> Entry {
        // `entries` fits 32 bits: registration traps before it passes the table's u32 capacity.
        // SAFETY (of every read): forwarded from the caller; `low` is a registered entry.
        let low =
            last_at_most(tally.entries as u32, |entry| unsafe { self.base(tally, entry as u64) } <= position) as u64;
        let (base, start, owner) = unsafe { (self.word(low, 0), self.word(low, 1), self.word(low, 2) as u32) };
        let next_base = unsafe { self.base(tally, low + 1) };
        Entry { base, next_base, start, owner }
    }

    /// Grid-level load-balanced gathering of the registered lists, whose second word is their
    /// first edge: their edges, packed end to end, are cut into one contiguous range per block,
    /// so every block visits the same number of edges with no atomics. A block finds its first
    /// entry by binary search, then loads the entries in windows of [`WINDOW`] into shared
    /// memory (one load per lane of warp 0) and walks the window's edges `BATCH` block-wide
    /// rows at a time, each thread finding its edges' entries by binary search in the window.
    /// Software-pipelined by one round: the next round's [`EdgeVisitor::load`] is issued before
    /// this round's [`EdgeVisitor::visit_loaded`], so the two phases' latencies overlap. All
    /// `BLOCK` threads of every block call it together.
    ///
    /// # Safety
    /// As for [`SharedLists::find`]; every registered list lies inside the graph's lists; the
    /// visitor's own contract holds.
    #[inline(always)]
    pub unsafe fn gather<const BLOCK: usize, V: EdgeVisitor>(
        &self,
        tally: Tally,
        window: &ListWindow,
        visitor: &mut V,
    ) {
        let tid = thread_idx();
        let block = BLOCK as u32;
        let Tally { entries, total } = tally;
        let blocks = grid_dim() as u64;
        let first = total * block_idx() as u64 / blocks;
        let last = total * (block_idx() as u64 + 1) / blocks;
        if first >= last {
            return;
        }
        // SAFETY (of every `base`): forwarded from the caller.
        let base_of = |entry: u64| -> u64 { unsafe { self.base(tally, entry) } };
        // Every thread searches alike (the same addresses: one load per warp and step).
        // `entries` fits 32 bits: registration traps before it passes the table's u32 capacity.
        let mut window_first = last_at_most(entries as u32, |entry| base_of(entry as u64) <= first) as u64;
        let mut position = first;
        while position < last {
            // The window's positions are counted from `position` in 32 bits, which spares the
            // search and the row arithmetic below their 64-bit halves: an entry that starts
            // before `position` is entered as starting there (its first edge moved to match),
            // and a window covers at most `WINDOW_SPAN` edges (a longer one is walked in
            // pieces, reloading the same entries).
            if tid <= WINDOW as u32 {
                let entry = window_first + tid as u64;
                let base = base_of(entry);
                let from = base.max(position);
                window.bases.set(tid as usize, (from - position).min(u32::MAX as u64) as u32);
                if tid < WINDOW as u32 && entry < entries {
                    // SAFETY: `entry` was registered.
                    unsafe {
                        window.starts.set(tid as usize, self.word(entry, 1) + (from - base));
                        window.owners.set(tid as usize, self.word(entry, 2) as u32);
                    }
                }
            }
            sync_threads();
            // The window's entries cover `position..position + span`; the first entry's base is
            // 0, and past the last entry the base stands for `total`.
            let window_bases_end = window.bases.get(WINDOW);
            let span = window_bases_end.min((last - position).min(WINDOW_SPAN as u64) as u32);
            // The edges of the window's rows from `row_start` on: slot k takes row
            // `row_start + k * BLOCK`; slots past the window repeat slot 0's edge, invalid.
            let locate = |row_start: u32| {
                let mut valid = [false; BATCH];
                let mut edges = [0u64; BATCH];
                let mut owners = [0u32; BATCH];
                for k in 0..BATCH {
                    let row = row_start + k as u32 * block;
                    if row >= span {
                        edges[k] = edges[0];
                        continue;
                    }
                    let packed = row + tid;
                    valid[k] = packed < span;
                    let packed = packed.min(span - 1);
                    let j = last_at_most(WINDOW as u32, |i| window.bases.get(i as usize) <= packed) as usize;
                    edges[k] = window.starts.get(j) + (packed - window.bases.get(j)) as u64;
                    owners[k] = window.owners.get(j);
                }
                (valid, edges, owners)
            };
            let (mut valid, edges, mut owners) = locate(0);
            // SAFETY: every slot's edge lies inside a registered list.
            let mut loaded = unsafe { visitor.load(edges) };
            let mut row = 0;
            while row < span {
                let next = row + BATCH as u32 * block;
                let (mut next_valid, mut next_loaded, mut next_owners) =
                    ([false; BATCH], V::Loaded::default(), [0u32; BATCH]);
                if next < span {
                    let next_edges;
                    (next_valid, next_edges, next_owners) = locate(next);
                    // SAFETY: as above.
                    next_loaded = unsafe { visitor.load(next_edges) };
                }
                // SAFETY: `loaded` was read from edges of `owners`.
                unsafe { visitor.visit_loaded(valid, loaded, owners) };
                (valid, loaded, owners) = (next_valid, next_loaded, next_owners);
                row = next;
            }
            position += span as u64;
            if span == window_bases_end {
                window_first += WINDOW as u64;
            }
            sync_threads();
        }
    }
}
