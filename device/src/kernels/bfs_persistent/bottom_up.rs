//! Bottom-up levels and the conversions between a frontier queue and a frontier bitmap.

use super::top_down::Gather;
use super::*;

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    /// Fills the frontier bitmap of `level` from its queue: clear, barrier, set, barrier.
    #[inline(always)]
    pub(super) unsafe fn build_frontier_bitmap(&self, level: u32, frontier: u32, barrier: &mut GridBarrier) {
        let bits = self.frontier_bitmap(level);
        let queue = self.queue(level);
        for w in grid_stride(self.words as u64) {
            // SAFETY: `w < words`.
            unsafe { *bits.add(w as usize) = 0 };
        }
        barrier.sync();
        for i in grid_stride(frontier as u64) {
            // SAFETY: `i < frontier`, the queue's length; entries are vertices.
            unsafe {
                let v = *queue.add(i as usize);
                atomic_or_u32(bits.add(v as usize / 32), 1 << (v % 32));
            }
        }
        barrier.sync();
    }

    /// One bottom-up level: every unvisited vertex looks for a parent among its in-neighbors
    /// in the frontier bitmap of `level`, stopping at the first. Each warp owns bitmap words.
    #[inline(always)]
    pub(super) unsafe fn bottom_up_level(&self, level: u32) {
        let lane = lane_id();
        let current = self.frontier_bitmap(level);
        let next = self.frontier_bitmap(level + 1);
        let warps = global_threads() / WARP_SIZE;
        let mut word = global_idx() / WARP_SIZE;
        let mut next_edges = 0u64;
        let mut reads = self.reads();
        let mut discovered_total = 0u64;
        while word < self.words {
            // SAFETY: `word < words`; every bitmap holds `words` words.
            let seen = unsafe { *self.visited.add(word as usize) };
            if seen == u32::MAX {
                if lane == 0 {
                    // SAFETY: as above.
                    unsafe { *next.add(word as usize) = 0 };
                }
                word += warps;
                continue;
            }
            let v = word * WARP_SIZE + lane;
            let mut parent = UNREACHED;
            let reading = v < self.n && seen & (1 << lane) == 0;
            // Bytes `read.0..read.1` of the list array, holding `read.2` edges.
            let mut read = (0u64, 0u64, 0u64);
            if reading {
                // SAFETY: `v < n`; in-neighbors are vertices, so their words exist.
                let in_frontier = |u: u32| unsafe { *current.add(u as usize / 32) & (1 << (u % 32)) != 0 };
                // SAFETY: `v < n` and `in_offsets` holds n + 1 entries.
                let (start, end) =
                    unsafe { (*self.edges.in_offsets.add(v as usize), *self.edges.in_offsets.add(v as usize + 1)) };
                if COMPRESSED {
                    // Sorted lists decode in order, so the search still stops at the first
                    // parent (Moschou 2026, section 2.1).
                    // SAFETY: `start..end` is `v`'s in-list in the byte array.
                    let mut decoder = unsafe { ThreadDecoder::new(self.edges.in_edges, start, end, ListStart::list(v)) };
                    let mut checked = 0;
                    while decoder.has_next() {
                        let u = decoder.next();
                        checked += 1;
                        if in_frontier(u) {
                            parent = u;
                            break;
                        }
                    }
                    read = (start, decoder.pos, checked);
                } else {
                    let targets = self.edges.in_edges.cast::<u32>();
                    let mut edge = start;
                    while edge < end {
                        // SAFETY: `edge < end`, inside the transpose's targets.
                        let u = unsafe { *targets.add(edge as usize) };
                        edge += 1;
                        if in_frontier(u) {
                            parent = u;
                            break;
                        }
                    }
                    read = (4 * start, 4 * edge, edge - start);
                }
            }
            reads.warp_round(reading, v, read.0, read.1, read.2);
            let found = parent != UNREACHED;
            let discovered = ballot_sync(FULL_MASK, found);
            if lane == 0 {
                // SAFETY: this warp alone writes `word` of these bitmaps during the level.
                unsafe {
                    *next.add(word as usize) = discovered;
                    if discovered != 0 {
                        *self.visited.add(word as usize) = seen | discovered;
                    }
                }
            }
            if found {
                // SAFETY: `v < n`.
                unsafe {
                    *self.distances.add(v as usize) = level + 1;
                    *self.parents.add(v as usize) = parent;
                }
                next_edges += self.out_degree(v);
            }
            if lane == 0 {
                discovered_total += popc(discovered) as u64;
            }
            word += warps;
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe {
            self.record_next_edges(level, next_edges);
            self.record_reads(level, reads);
            let total = warp_sum_u64(discovered_total);
            let slot = ((level + 1) % 3) as usize;
            if lane == 0 && total > 0 {
                atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), total as u32);
            }
        }
    }

    /// Packs the frontier bitmap of `level` into its queue: each block takes `BLOCK` words at a
    /// time, a block-wide scan of their popcounts places every vertex, and one atomic per block
    /// and round reserves the space. Ends with a grid barrier.
    ///
    /// Bottom-up levels only count what they discover: a queue is needed only when top-down
    /// resumes, and packing it once from the bitmap costs a few hundred atomics, where emitting
    /// it from every bottom-up level cost one per warp and word (hundreds of thousands).
    #[inline(always)]
    pub(super) unsafe fn build_queue_from_bitmap(&self, gather: &Gather, level: u32, barrier: &mut GridBarrier) {
        let tid = thread_idx();
        let bits = self.frontier_bitmap(level);
        let queue = self.queue(level);
        let fill = core::ptr::addr_of_mut!((*self.control).queue_fill[(level % 3) as usize]);
        let rounds = self.words.div_ceil(BLOCK);
        let mut round = block_idx();
        while round < rounds {
            let w = round * BLOCK + tid;
            // SAFETY: `w < words`.
            let word = if w < self.words { unsafe { *bits.add(w as usize) } } else { 0 };
            let (offset, total) = block_exclusive_scan(popc(word), &gather.scan);
            if tid == 0 && total > 0 {
                // SAFETY: `fill` is this level's zeroed counter.
                gather.enlisted.set(0, unsafe { atomic_add_u32(fill, total) });
            }
            sync_threads();
            let mut position = gather.enlisted.get(0).wrapping_add(offset);
            let mut remaining = word;
            while remaining != 0 {
                // SAFETY: the bitmap holds exactly the frontier's vertices, fewer than n.
                unsafe { *queue.add(position as usize) = w * 32 + remaining.trailing_zeros() };
                position += 1;
                remaining &= remaining - 1;
            }
            sync_threads();
            round += grid_dim();
        }
        barrier.sync();
    }

}
