//! Kernels that exercise the device prelude and the operators, one per feature, so the host
//! can check each against values it computes itself (`tests/gpu_prelude.rs`). They ship in
//! the PTX with the real kernels: a user can run the same checks on their own GPU.

use crate::operators::gather::{gather_tile, EdgeVisitor, TileScratch, BATCH};
use crate::operators::shared_lists::{ListWindow, SharedLists, Tally};
use crate::prelude::*;

/// Per thread, 8 words: thread, block, block size, grid size, lane, warp, total threads,
/// lanemask_lt.
///
/// # Safety
/// `out` holds `8 * n` words.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_indices(out: *mut u32, n: u32) {
    let i = global_idx();
    if i < n {
        let values = [
            thread_idx(),
            block_idx(),
            block_dim(),
            grid_dim(),
            lane_id(),
            warp_in_block(),
            global_threads(),
            lanemask_lt(),
        ];
        for (k, value) in values.into_iter().enumerate() {
            // SAFETY: `i < n` and `out` holds 8 words per thread.
            unsafe { *out.add(i as usize * 8 + k) = value };
        }
    }
}

/// Per thread, 5 words: ballot, any, all over `input[i] != 0`; the active mask inside a branch
/// taken by even lanes only (0 for odd lanes); a ballot over that partial mask.
///
/// # Safety
/// `input` holds `n` words, `out` `5 * n`; `n` is the exact thread count, a multiple of 32.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_warp_vote(input: *const u32, out: *mut u32) {
    let i = global_idx() as usize;
    // SAFETY: one thread per element.
    let predicate = unsafe { *input.add(i) } != 0;
    let ballot = ballot_sync(FULL_MASK, predicate);
    let any = any_sync(FULL_MASK, predicate) as u32;
    let all = all_sync(FULL_MASK, predicate) as u32;
    let (mut partial_mask, mut partial_ballot) = (0, 0);
    if lane_id().is_multiple_of(2) {
        partial_mask = active_mask();
        partial_ballot = ballot_sync(partial_mask, predicate);
    }
    for (k, value) in [ballot, any, all, partial_mask, partial_ballot].into_iter().enumerate() {
        // SAFETY: `out` holds 5 words per thread.
        unsafe { *out.add(i * 5 + k) = value };
    }
}

/// Per thread, 2 words: the lanes of its warp holding the same `input` value
/// (`match_any_sync`), and the smallest lane index among them (`reduce_min_sync` over that
/// group).
///
/// # Safety
/// `input` holds `n` words, `out` `2 * n`; `n` is the exact thread count, a multiple of 32.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_warp_match(input: *const u32, out: *mut u32) {
    let i = global_idx() as usize;
    // SAFETY: one thread per element.
    let group = match_any_sync(FULL_MASK, unsafe { *input.add(i) });
    let lowest = reduce_min_sync(group, lane_id());
    // SAFETY: `out` holds 2 words per thread.
    unsafe {
        *out.add(2 * i) = group;
        *out.add(2 * i + 1) = lowest;
    }
}

/// Per thread, 5 words: shfl idx (from lane `delta`), up, down and xor by `delta`, and the low
/// word of a 64-bit idx shuffle of `input[i] << 32 | i`'s high half swapped in.
///
/// # Safety
/// `input` holds `n` words, `out` `5 * n`; `n` is the exact thread count, a multiple of 32.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_shuffle(input: *const u32, out: *mut u32, delta: u32) {
    let i = global_idx() as usize;
    // SAFETY: one thread per element.
    let x = unsafe { *input.add(i) };
    let wide = ((x as u64) << 32) | i as u64;
    let wide_from_lane = shfl_idx_sync_u64(FULL_MASK, wide, delta);
    let values = [
        shfl_idx_sync(FULL_MASK, x, delta),
        shfl_up_sync(FULL_MASK, x, delta),
        shfl_down_sync(FULL_MASK, x, delta),
        shfl_xor_sync(FULL_MASK, x, delta),
        (wide_from_lane >> 32) as u32 ^ wide_from_lane as u32,
    ];
    for (k, value) in values.into_iter().enumerate() {
        // SAFETY: `out` holds 5 words per thread.
        unsafe { *out.add(i * 5 + k) = value };
    }
}

/// Per element, 2 words: popc and ffs of `input[i]`.
///
/// # Safety
/// `input` holds `n` words, `out` `2 * n`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_bits(input: *const u32, out: *mut u32, n: u32) {
    for i in grid_stride(n as u64) {
        let i = i as usize;
        // SAFETY: `i < n`.
        unsafe {
            let x = *input.add(i);
            *out.add(2 * i) = popc(x);
            *out.add(2 * i + 1) = ffs(x);
        }
    }
}

const REVERSE_BLOCK: usize = 256;

/// Reverses each block's 256 elements through a shared array, and writes the block's sum
/// (a shared-memory tree reduction) to `sums[block]`.
///
/// # Safety
/// Launched with 256 threads a block; `input` and `out` hold `256 * blocks` words, `sums`
/// `blocks` words.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_shared_reverse(input: *const u32, out: *mut u32, sums: *mut u32) {
    // SAFETY: declared once, before any control flow.
    let staged = unsafe { SharedArray::<u32, REVERSE_BLOCK>::declare() };
    // SAFETY: as above; a second, distinct array.
    let partial = unsafe { SharedArray::<u32, REVERSE_BLOCK>::declare() };
    let t = thread_idx() as usize;
    let base = block_idx() as usize * REVERSE_BLOCK;
    // SAFETY: `base + t` is inside this block's slice of `input`.
    let x = unsafe { *input.add(base + t) };
    staged.set(t, x);
    partial.set(t, x);
    sync_threads();
    // SAFETY: as above.
    unsafe { *out.add(base + t) = staged.get(REVERSE_BLOCK - 1 - t) };
    let mut width = REVERSE_BLOCK / 2;
    while width > 0 {
        if t < width {
            partial.set(t, partial.get(t).wrapping_add(partial.get(t + width)));
        }
        sync_threads();
        width /= 2;
    }
    if t == 0 {
        // SAFETY: one sum per block.
        unsafe { *sums.add(block_idx() as usize) = partial.get(0) };
    }
}

macro_rules! atomics_test_kernel {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $add:ident, $min:ident, $max:ident, $or:ident, $exch:ident, $cas:ident) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `values` and `exchanged` hold `n` words; `cells` holds 6 words in global memory.
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(values: *const $ty, n: u32, cells: *mut $ty, exchanged: *mut $ty) {
            const BITS: $ty = <$ty>::BITS as $ty;
            for i in grid_stride(n as u64) {
                // SAFETY: `i < n`; `cells` holds 6 words.
                unsafe {
                    let v = *values.add(i as usize);
                    $add(cells, v);
                    $min(cells.add(1), v);
                    $max(cells.add(2), v);
                    $or(cells.add(3), 1 << (v % BITS));
                    *exchanged.add(i as usize) = $exch(cells.add(4), v);
                    let mut seen = cells.add(5).read_volatile();
                    loop {
                        let old = $cas(cells.add(5), seen, seen.wrapping_add(v));
                        if old == seen {
                            break;
                        }
                        seen = old;
                    }
                }
            }
        }
    };
}

atomics_test_kernel!(
    /// Applies every u32 atomic to `cells` with each input value: add, min, max, or (of bit
    /// `v % 32`), exch (old values to `exchanged[i]`), and an add done by a compare-and-swap loop.
    test_atomics_u32, u32, atomic_add_u32, atomic_min_u32, atomic_max_u32, atomic_or_u32, atomic_exch_u32, atomic_cas_u32);
atomics_test_kernel!(
    /// The 64-bit twin of [`test_atomics_u32`] (or uses bit `v % 64`).
    test_atomics_u64, u64, atomic_add_u64, atomic_min_u64, atomic_max_u64, atomic_or_u64, atomic_exch_u64, atomic_cas_u64);

/// Lowers `cells[i % cells_len]` to `values[i]` for every `i < n` by `reduce_min_u64`, whose
/// answer nobody awaits: many threads on each cell at once.
///
/// # Safety
/// `values` holds `n` words, `cells` `cells_len` (at least 1) in global memory.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_reduce_min_u64(values: *const u64, n: u32, cells: *mut u64, cells_len: u32) {
    for i in grid_stride(n as u64) {
        // SAFETY: `i < n`; `i % cells_len < cells_len`.
        unsafe { reduce_min_u64(cells.add((i % cells_len as u64) as usize), *values.add(i as usize)) };
    }
}

/// Adds `3 * i + 1` to `out[i]` for every `i < n` through the grid-stride loop, so an index
/// visited twice or never shows in the result.
///
/// # Safety
/// `out` holds `n` words.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_grid_stride(out: *mut u32, n: u32) {
    for i in grid_stride(n as u64) {
        // SAFETY: `i < n`.
        unsafe { *out.add(i as usize) += 3 * i as u32 + 1 };
    }
}

/// Appends every `i` with `flags[i] != 0` to `queue` with warp-aggregated atomics inside a
/// divergent grid-stride loop (mask from `active_mask`).
///
/// # Safety
/// `flags` holds `n` words, `queue` room for `n`, `counter` one word, 0 at launch.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_warp_append(flags: *const u32, n: u32, queue: *mut u32, counter: *mut u32) {
    for i in grid_stride(n as u64) {
        // SAFETY: `i < n`; each wanted index gets its own slot below `n`.
        unsafe {
            let want = *flags.add(i as usize) != 0;
            if let Some(slot) = warp_aggregated_append(active_mask(), want, counter) {
                *queue.add(slot as usize) = i as u32;
            }
        }
    }
}

/// Block-wide exclusive scan of `input` in blocks of `block_dim()` threads: each thread writes
/// its exclusive prefix to `out[i]` and thread 0 the block total to `totals[block]`.
///
/// # Safety
/// `input` and `out` hold `block_dim * blocks` words, `totals` `blocks`; block size a multiple
/// of 32.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_block_scan(input: *const u32, out: *mut u32, totals: *mut u32) {
    // SAFETY: declared once, before any control flow.
    let scratch = unsafe { ScanScratch::declare() };
    let i = global_idx() as usize;
    // SAFETY: one thread per element.
    let value = unsafe { *input.add(i) };
    let (exclusive, total) = block_exclusive_scan(value, &scratch);
    // Scan twice through the same scratch: the second call must not race with the first.
    let (again, _) = block_exclusive_scan(value.wrapping_mul(2), &scratch);
    // SAFETY: as above; one total per block.
    unsafe {
        *out.add(i) = exclusive;
        if thread_idx() == 0 {
            *totals.add(block_idx() as usize) = total;
        }
        if again != exclusive.wrapping_mul(2) {
            *out.add(i) = u32::MAX;
        }
    }
}

const SEARCH_WINDOW: usize = 32;
const SEARCH_TABLE: usize = 256;

/// [`last_at_most`] three ways, as the gathering loops use it, for key `keys[i]` of thread `i`
/// (blocks of 256 threads): over the first 32 of `sorted64` in a shared `u64` array (a
/// shared-list window), over the 256 of `sorted32` in a shared `u32` array (a tile's scanned
/// offsets), and over the first `len` of `sorted64` in global memory (a run-time length). Writes
/// the three indices to `out[3i..3i + 3]`.
///
/// # Safety
/// Launched with 256 threads a block; `sorted64` holds at least `max(32, len)` words, `len <=
/// 256`, `sorted32` 256; `keys` one word and `out` three a thread.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_search(
    sorted64: *const u64,
    sorted32: *const u32,
    len: u32,
    keys: *const u64,
    out: *mut u32,
) {
    // SAFETY: declared once, before any control flow.
    let window = unsafe { SharedArray::<u64, SEARCH_WINDOW>::declare() };
    // SAFETY: as above; a second, distinct array.
    let table = unsafe { SharedArray::<u32, SEARCH_TABLE>::declare() };
    let t = thread_idx() as usize;
    // SAFETY: `t < 256`, inside both inputs.
    unsafe {
        if t < SEARCH_WINDOW {
            window.set(t, *sorted64.add(t));
        }
        table.set(t, *sorted32.add(t));
    }
    sync_threads();
    let i = global_idx() as usize;
    // SAFETY: one key and three outputs a thread.
    let key = unsafe { *keys.add(i) };
    let in_window = last_at_most(SEARCH_WINDOW as u32, |j| window.get(j as usize) <= key);
    let key32 = key.min(u32::MAX as u64) as u32;
    let in_table = last_at_most(SEARCH_TABLE as u32, |j| table.get(j as usize) <= key32);
    // SAFETY: `last_at_most` asks only about `j < len`, inside `sorted64`.
    let in_global = last_at_most(len, |j| unsafe { *sorted64.add(j as usize) } <= key);
    // SAFETY: as above.
    unsafe {
        *out.add(3 * i) = in_window;
        *out.add(3 * i + 1) = in_table;
        *out.add(3 * i + 2) = in_global;
    }
}

/// Decodes every list of a compressed CSR twice: thread `v` alone with [`ThreadDecoder`] into
/// `by_thread`, and warp `v` together with [`warp_decode`] into `by_warp`, each neighbor at its
/// edge index `edge_offsets[v] + k`. Lists whose `resume[v]` is nonzero are decoded from a
/// mid-list point instead (the byte offset `resume[v]`, after neighbor `resume_previous[v]`,
/// the first `resume_skip[v]` edges left unwritten), as the BFS does from restart points.
///
/// # Safety
/// `byte_offsets` and `edge_offsets` hold n + 1 entries describing `bytes` (8-byte aligned,
/// padded to a multiple of 8); `resume*` hold n entries; the outputs hold `edge_offsets[n]`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_varint_decode(
    bytes: *const u8,
    byte_offsets: *const u64,
    edge_offsets: *const u64,
    resume: *const u64,
    resume_previous: *const u32,
    resume_skip: *const u32,
    n: u32,
    by_thread: *mut u32,
    by_warp: *mut u32,
) {
    // SAFETY: `v < n` for every list read below.
    let list = |v: u32| unsafe {
        let skip = *resume_skip.add(v as usize) as u64;
        let (start, state) = if *resume.add(v as usize) != 0 {
            (
                *resume.add(v as usize),
                ListStart { vertex: v, previous: *resume_previous.add(v as usize), at_list_start: false },
            )
        } else {
            (*byte_offsets.add(v as usize), ListStart::list(v))
        };
        (start, *byte_offsets.add(v as usize + 1), *edge_offsets.add(v as usize) + skip, state)
    };
    for v in grid_stride(n as u64) {
        let (start, end, first_edge, state) = list(v as u32);
        // SAFETY: the list lies inside `bytes`; one output per decoded neighbor.
        unsafe {
            let mut decoder = ThreadDecoder::new(bytes, start, end, state);
            let mut edge = first_edge;
            while decoder.has_next() {
                *by_thread.add(edge as usize) = decoder.next();
                edge += 1;
            }
        }
    }
    let warps = global_threads() / WARP_SIZE;
    let mut v = global_idx() / WARP_SIZE;
    while v < n {
        let (start, end, first_edge, state) = list(v);
        let mut edge = first_edge;
        // SAFETY: as above.
        unsafe {
            warp_decode(bytes, start, end, state, |valid, neighbor| {
                let found = ballot_sync(FULL_MASK, valid);
                if valid {
                    *by_warp.add((edge + popc(found & lanemask_lt()) as u64) as usize) = neighbor;
                }
                edge += popc(found) as u64;
            })
        };
        v += warps;
    }
}

/// Threads per block of the operator tests.
const OPERATOR_TEST_BLOCK: usize = 256;

/// An [`EdgeVisitor`] that counts each visited edge in `hits[edge]` and stores its owner in
/// `owners[edge]`, so the host sees which edges the operators handed out, how often, and to
/// whom. Its batch's [`EdgeVisitor::load`] reads nothing: the edges themselves are the batch.
struct CountingVisitor {
    hits: *mut u32,
    owners: *mut u32,
}

impl CountingVisitor {
    /// # Safety
    /// `edge` indexes `hits` and `owners`.
    #[inline(always)]
    unsafe fn count(&mut self, edge: u64, owner: u32) {
        // SAFETY: forwarded from the caller.
        unsafe {
            atomic_add_u32(self.hits.add(edge as usize), 1);
            *self.owners.add(edge as usize) = owner;
        }
    }
}

impl EdgeVisitor for CountingVisitor {
    type Loaded = [u64; BATCH];

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        if valid {
            // SAFETY: a valid edge lies in a list, and `hits`/`owners` hold one word an edge.
            unsafe { self.count(edge, owner) };
        }
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> [u64; BATCH] {
        edges
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], edges: [u64; BATCH], owners: [u32; BATCH]) {
        for k in 0..BATCH {
            // SAFETY: as in `visit`.
            unsafe { self.visit(valid[k], edges[k], owners[k]) };
        }
    }
}

/// [`gather_tile`] over the lists of a CSR's `vertices` vertices (`offsets` holds
/// `vertices + 1` edge offsets): block `b` gathers the tile of vertices `256 b ..`, with warp
/// enlistment from `warp_list_edges` edges on, and counts every edge it visits in `hits` and
/// its owner in `owners` (one word an edge, `hits` zeroed).
///
/// # Safety
/// Launched with 256 threads a block and at least `ceil(vertices / 256)` blocks; the arrays
/// as above; `warp_list_edges >= 32`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_gather_tile(
    offsets: *const u64,
    vertices: u32,
    warp_list_edges: u64,
    hits: *mut u32,
    owners: *mut u32,
) {
    // SAFETY: declared once, before any control flow.
    let scratch = unsafe { TileScratch::<OPERATOR_TEST_BLOCK>::declare() };
    let v = global_idx();
    let (start, end) = if v < vertices {
        // SAFETY: `v < vertices`, and `offsets` holds `vertices + 1` words.
        unsafe { (*offsets.add(v as usize), *offsets.add(v as usize + 1)) }
    } else {
        (0, 0)
    };
    let mut visitor = CountingVisitor { hits, owners };
    // SAFETY: every list lies inside the CSR, whose edges `hits` and `owners` cover.
    unsafe { gather_tile(&scratch, v, start, end, warp_list_edges, &mut visitor) };
}

/// The grid-shared lists over a CSR of `vertices` vertices (`offsets`, `vertices + 1` edge
/// offsets), one step a launch (the launches stand in for the grid barriers): `step` 0
/// registers every list of `min_edges` edges or more in `table` (`capacity` entries) and
/// `tally` (zeroed); step 1 gathers them with [`SharedLists::gather`]; step 2 visits every
/// packed position `i` through [`SharedLists::find`] (edge `start + i - base` of the found
/// entry). Steps 1 and 2 count the edges they visit in `hits` and their owners in `owners`.
///
/// # Safety
/// Launched with 256 threads a block; the arrays as above, `hits` and `owners` one word an
/// edge; `capacity` above the number of long lists.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn test_shared_lists(
    offsets: *const u64,
    vertices: u32,
    min_edges: u64,
    table: *mut u64,
    capacity: u32,
    tally: *mut u64,
    step: u32,
    hits: *mut u32,
    owners: *mut u32,
) {
    // SAFETY: declared once, before any control flow.
    let window = unsafe { ListWindow::declare() };
    let lists = SharedLists { table, capacity };
    let mut visitor = CountingVisitor { hits, owners };
    match step {
        0 => {
            let lane = lane_id();
            let mut warp_base = global_idx() - lane;
            while warp_base < vertices {
                let v = warp_base + lane;
                let (start, end) = if v < vertices {
                    // SAFETY: `v < vertices`, and `offsets` holds `vertices + 1` words.
                    unsafe { (*offsets.add(v as usize), *offsets.add(v as usize + 1)) }
                } else {
                    (0, 0)
                };
                let long = end - start >= min_edges;
                let long_lanes = ballot_sync(FULL_MASK, long);
                if long_lanes != 0 {
                    let length = if long { end - start } else { 0 };
                    // SAFETY: `tally` is valid and the table holds every long list.
                    unsafe { lists.register(tally, long_lanes, long, start, length, v) };
                }
                warp_base += global_threads();
            }
        }
        1 => {
            // SAFETY: the registering launch has ended; registered lists lie in the CSR.
            unsafe { lists.gather::<OPERATOR_TEST_BLOCK, _>(Tally::read(tally), &window, &mut visitor) };
        }
        _ => {
            // SAFETY: the registering launch has ended.
            let tally = unsafe { Tally::read(tally) };
            let mut position = global_idx() as u64;
            while position < tally.total {
                // SAFETY: `position < total`; the found entry's list holds the edge.
                unsafe {
                    let entry = lists.find(tally, position);
                    visitor.visit(true, entry.start + (position - entry.base), entry.owner);
                }
                position += global_threads() as u64;
            }
        }
    }
}
