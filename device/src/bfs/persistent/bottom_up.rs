//! Bottom-up levels and the conversions between a frontier queue and a frontier bitmap.

use super::top_down::Gather;
use super::*;
use crate::operators::frontier::{clear_bitmap, pack_bitmap_words, scatter_queue_to_bitmap};

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    /// Zeroes the frontier bitmap of `level`, shared out over the grid (the caller passes a
    /// grid barrier before anyone sets a bit).
    #[inline(always)]
    pub(super) unsafe fn clear_frontier_bitmap(&self, level: u32) {
        // SAFETY: the frontier bitmaps hold `words` words each.
        unsafe { clear_bitmap(self.frontier_bitmap(level), self.words) };
    }

    /// Fills the frontier bitmap of `level` from its queue: clear, barrier, set, barrier.
    #[inline(always)]
    pub(super) unsafe fn build_frontier_bitmap(&self, level: u32, frontier: u32, barrier: &mut GridBarrier) {
        let bits = self.frontier_bitmap(level);
        let queue = self.queue(level);
        // SAFETY: forwarded from the kernel contract.
        unsafe { self.clear_frontier_bitmap(level) };
        barrier.sync();
        // SAFETY: the queue holds the frontier's `frontier` vertices, each `< n`.
        unsafe { scatter_queue_to_bitmap(queue, frontier, bits) };
        barrier.sync();
    }

    /// One bottom-up level: every unvisited vertex looks for a parent among its in-neighbors
    /// in the frontier bitmap of `level`, stopping at the first (in list order). Each warp owns
    /// whole bitmap words, taken as [`Balance`] says (`static`: a grid-stride walk; the others
    /// through [`WordClaims`]), and searches their
    /// vertices one per lane (`static`, `thread`) or one after another with the whole warp
    /// (`warp`). Either way the parent found is the vertex's first in-neighbor in the frontier,
    /// so all three strategies label the same parents.
    ///
    /// # Asynchronous bottom-up (XBFS, section 5.2, Algorithm 3)
    ///
    /// With `label_ahead`, a vertex `v` that scanned its whole in-list without finding a
    /// neighbor in the current frontier `F` (bitmap of `level`) also remembers its first
    /// in-neighbor `u` whose bit is set in `N`, the bitmap of `level + 1` that this very pass is
    /// writing, and if there is one takes distance `level + 2` and parent `u` at once. Why that
    /// is exact, with `l = level`:
    /// - `v` is unvisited when its warp claims its word, so no in-neighbor of `v` has distance
    ///   `< l` (a vertex at distance `k < l` was in frontier `k` and, top-down or bottom-up,
    ///   labeled all its unvisited out-neighbors at level `k`); `v` has no in-neighbor in `F`,
    ///   so none at distance `l`. Hence `dist(v) >= l + 2`.
    /// - A bit read from `N` is either from a word written during this pass (its owner's
    ///   ballot, vertices at distance `l + 1`, ORed with the pending vertices of the previous
    ///   pass, also at distance `l + 1`) or from the word as it stood before: the bitmap's
    ///   storage last held an earlier frontier of this traversal (every writer writes all of a
    ///   bitmap: [`Self::build_frontier_bitmap`] and a single-scan top-down level clear then
    ///   fill it, a bottom-up pass writes every word once; other top-down levels and
    ///   [`Self::build_queue_from_bitmap`] only read it)
    ///   or the zeros of `bfs_persistent_init`. An earlier frontier has parity `l - 1`, so it is
    ///   frontier `k <= l - 1`, vertices at distance `< l`, which cannot be in-neighbors of `v`.
    ///   So a hit names `u` at distance exactly `l + 1`: `dist(v) = l + 2`, and `u` is a valid
    ///   parent (the edge `u -> v` is in `v`'s in-list).
    /// - The read races with the owner's store of that word: an aligned 32-bit word is never
    ///   torn, so the read sees the old word or the new one (or an older copy of it from the
    ///   cache, which is also some earlier content of this traversal), each safe by the above.
    ///   A late read only misses an opportunity; it never mislabels.
    ///
    /// Vertices labeled ahead belong to frontier `l + 2`, which the next pass writes; until then
    /// they wait in the pending bitmap ([`Self::pending_bitmap`]). They are marked visited now,
    /// so no later pass searches them. The warp that owns word `w` (exactly one per pass, under
    /// every balancing) reads `p = pending[w]` (what the previous pass labeled ahead, distance
    /// `l + 1`), then writes `N[w] = found | p`, `pending[w] =` what this pass labels ahead,
    /// and `visited[w] = seen | found | ahead`. `p` counts in this level's discovered total and
    /// next-frontier edges here, in the pass that puts it into a frontier, not when it was
    /// labeled. The count of vertices labeled ahead goes to `async_pending` of the next level's
    /// slot, and [`Self::choose_bottom_up`] forces that level bottom-up while it is non-zero:
    /// a top-down level would never enqueue those visited vertices. A pass that labels nothing
    /// ahead leaves the pending bitmap all zero, so the first pass of every bottom-up stretch
    /// finds it empty (the init kernel zeroes it for the first).
    ///
    /// Probes of `N` are bitmap reads, not graph reads, so the trace's edges and bytes are
    /// unchanged for the searches that happen; the edges saved are those of the vertices the
    /// next pass no longer searches.
    #[inline(always)]
    ///
    /// # Direct emission
    ///
    /// With `emit_queue` (the next level is predicted top-down), every word's next-frontier
    /// bits also go straight into the next queue: lane 0 reserves their slots with one atomic
    /// on the next frontier's length, the lanes holding a bit write their vertex (Moschou 2026,
    /// section 3.1: warp-aggregated atomics). The top-down level then starts from the queue
    /// with no scan of the bitmap (XBFS Observation 2).
    pub(super) unsafe fn bottom_up_level<const ASYNC: bool>(&self, level: u32, label_ahead: bool, emit_queue: bool) {
        let label_ahead = ASYNC && label_ahead;
        let lane = lane_id();
        let pending = self.pending_bitmap();
        let mut tally = BottomUpTally { next_edges: 0, reads: self.reads(), discovered: 0, labeled_ahead: 0 };
        let chunk_words = self.chunk_words();
        if !ASYNC && self.balance == Balance::Static && chunk_words > 1 {
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.bottom_up_chunks(level, chunk_words, emit_queue, &mut tally) };
        } else {
            // SAFETY (of each call): `word < words`; every bitmap holds `words` words, and this
            // warp alone writes `word` of the visited and pending bitmaps during the level.
            let mut search = |word: u32| unsafe {
                let carried = if ASYNC { *pending.add(word as usize) } else { 0 };
                let seen = *self.visited.add(word as usize);
                self.bottom_up_word::<ASYNC>(level, word, seen, carried, label_ahead, emit_queue, &mut tally)
            };
            if self.balance == Balance::Static {
                // `WordClaims`' static share, word `w` of warp `w` and then a grid's warps apart,
                // without its state: in the split-level kernels, whose balance is static, that
                // state took registers the word loop spilled for (bench/NOTES.md entry 142).
                let warps = global_threads() / WARP_SIZE;
                let mut word = global_idx() / WARP_SIZE;
                while word < self.words {
                    search(word);
                    word += warps;
                }
            } else {
                // SAFETY: `control` is valid; slot `level % 3` was cleared two levels ago (or by the host).
                let fetched =
                    unsafe { core::ptr::addr_of_mut!((*self.control).bottom_up_fetched[(level % 3) as usize]) };
                let mut claims = WordClaims::new(self.balance, fetched);
                while let Some(word) = claims.next_word(self.words) {
                    search(word);
                }
            }
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe {
            self.record_next_edges(level, tally.next_edges);
            self.record_reads(level, tally.reads);
            let total = warp_sum_u64(tally.discovered as u64);
            let ahead_total = if ASYNC { warp_sum_u64(tally.labeled_ahead as u64) } else { 0 };
            let slot = ((level + 1) % 3) as usize;
            // Emitted words counted themselves while reserving their queue slots.
            if lane == 0 && total > 0 && !emit_queue {
                atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), total as u32);
            }
            if lane == 0 && ahead_total > 0 {
                atomic_add_u64(core::ptr::addr_of_mut!((*self.control).async_pending[slot]), ahead_total);
            }
        }
    }

    /// Bottom-up over bitmap word `word`, whose visited bits are `seen` and whose vertices the
    /// previous pass labeled ahead are `carried` (see [`Self::bottom_up_level`]): the warp
    /// searches its unvisited vertices and writes the word of every bitmap. All 32 lanes call
    /// it together.
    ///
    /// # Safety
    /// `word < words`, and this warp alone writes `word` of the visited and pending bitmaps
    /// during the level.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn bottom_up_word<const ASYNC: bool>(
        &self,
        level: u32,
        word: u32,
        seen: u32,
        carried: u32,
        label_ahead: bool,
        emit_queue: bool,
        tally: &mut BottomUpTally,
    ) {
        let lane = lane_id();
        let current = self.frontier_bitmap(level);
        let next = self.frontier_bitmap(level + 1);
        let pending = self.pending_bitmap();
        let v = word * WARP_SIZE + lane;
        // The vertices the previous pass labeled ahead (distance `level + 1`) join the next
        // frontier now, and their edges with them.
        if carried & (1 << lane) != 0 {
            tally.next_edges += self.out_degree(v);
        }
        if lane == 0 {
            tally.discovered += popc(carried);
        }
        if seen == u32::MAX {
            if lane == 0 {
                // SAFETY: `word < words`, and this warp alone writes it (the caller's contract).
                unsafe {
                    *next.add(word as usize) = carried;
                    if carried != 0 {
                        *pending.add(word as usize) = 0;
                    }
                }
            }
            if emit_queue && carried != 0 {
                // SAFETY: the next frontier's vertices are fewer than n, the queue's size.
                unsafe { self.emit_word(level, word, carried) };
            }
            return;
        }
        // SAFETY: `word < words`; the frontier bitmap of `level` is complete and read-only,
        // the next one is only ever probed for bits (see the proof above).
        let (parent, ahead_parent) = unsafe {
            if self.balance == Balance::Warp {
                self.search_word_by_warp(word, seen, current, next, label_ahead, &mut tally.reads)
            } else {
                let searching = v < self.n && seen & (1 << lane) == 0;
                self.search_by_lane(v, searching, current, next, label_ahead, &mut tally.reads)
            }
        };
        let found = parent != UNREACHED;
        let ahead = ahead_parent != UNREACHED;
        let discovered = ballot_sync(FULL_MASK, found);
        // The vote is inline assembly, which the compiler keeps even when `ahead` is false.
        let labeled_ahead = if ASYNC { ballot_sync(FULL_MASK, ahead) } else { 0 };
        if lane == 0 {
            // SAFETY: this warp alone writes `word` of these bitmaps during the level (it
            // claimed the word, and every word is claimed once).
            unsafe {
                *next.add(word as usize) = discovered | carried;
                // Unwritten, the word still holds `carried`, here zero.
                if carried | labeled_ahead != 0 {
                    *pending.add(word as usize) = labeled_ahead;
                }
                if discovered | labeled_ahead != 0 {
                    *self.visited.add(word as usize) = seen | discovered | labeled_ahead;
                }
            }
        }
        if found {
            // SAFETY: `v < n` (only vertices below n search).
            unsafe {
                *self.distances.add(v as usize) = level + 1;
                self.record_parent(v, parent);
            }
            tally.next_edges += self.out_degree(v);
        }
        if ahead {
            // SAFETY: `v < n`, as above. Its edges count in the pass that puts it into a frontier.
            unsafe {
                *self.distances.add(v as usize) = level + 2;
                self.record_parent(v, ahead_parent);
            }
        }
        if emit_queue && discovered | carried != 0 {
            // SAFETY: the next frontier's vertices are fewer than n, the queue's size.
            unsafe { self.emit_word(level, word, discovered | carried) };
        }
        if lane == 0 {
            tally.discovered += popc(discovered);
            tally.labeled_ahead += popc(labeled_ahead);
        }
    }

    /// Bitmap words a warp takes at once in a synchronous, statically balanced bottom-up level
    /// ([`Self::bottom_up_chunks`]): the host's choice if it made one; otherwise the largest
    /// power of two up to 32 that still gives every warp of the grid a chunk, or 1 (the
    /// word-by-word loop) when that is under 4 (a small graph, whose words are fewer than four
    /// a warp). Always 1 when the graph is read over the bus: its read accounting counts the
    /// sectors of a warp's consecutive vertices.
    #[inline(always)]
    pub(super) fn chunk_words(&self) -> u32 {
        if self.offsets_mapped || self.lists_mapped {
            return 1;
        }
        if self.chunk_choice != 0 {
            return self.chunk_choice;
        }
        let per_warp = (self.words / (global_threads() / WARP_SIZE)).min(WARP_SIZE);
        if per_warp < 4 {
            1
        } else {
            1 << (31 - per_warp.leading_zeros())
        }
    }

    /// A synchronous bottom-up level with static balance, `chunk_words` consecutive bitmap
    /// words at a time per warp (grid-stride over the chunks). Lane `i` loads word `i` of the
    /// chunk, so one coalesced read replaces a dependent read per word, and full words cost
    /// nothing more. The warp then searches the chunk's unvisited vertices one of two ways:
    /// - dense (e.g. the first bottom-up level of a Kronecker graph, every word holding a dozen
    ///   unvisited vertices or more): word by word, one lane per vertex, as
    ///   [`Self::bottom_up_word`] does, over the words with unvisited vertices only;
    /// - sparse (a later level, where a word holds a vertex or two left unvisited): each lane
    ///   walks the unvisited vertices of its own word, one search after another, so a round
    ///   searches up to 32 vertices of 32 words where the word-by-word loop spent a round of
    ///   dependent reads (offsets, list, frontier bit) on each word for one or two lanes'
    ///   vertices. The rounds are as many as the most unvisited vertices in one word; a chunk
    ///   goes sparse when [`SPARSE_ROUND_COST`] times that is at most its open words.
    ///
    /// Either way each word of the visited and next-frontier bitmaps has one writer (the word's
    /// lane, or lane 0 of the warp for a dense word), every next-frontier word is written (a
    /// full word gets 0), and each vertex's parent is its first in-neighbor in the frontier
    /// (the search is [`Self::search_by_lane`]'s), so the labels are the word-by-word loop's.
    /// With `emit_queue`, a sparse chunk's discoveries go to the next queue with one atomic per
    /// chunk, each lane writing its word's vertices in ascending order.
    ///
    /// # Safety
    /// As for [`Self::bottom_up_level`]: the frontier bitmap of `level` is complete.
    #[inline(always)]
    unsafe fn bottom_up_chunks(&self, level: u32, chunk_words: u32, emit_queue: bool, tally: &mut BottomUpTally) {
        let lane = lane_id();
        let current = self.frontier_bitmap(level);
        let next = self.frontier_bitmap(level + 1);
        let chunks = self.words.div_ceil(chunk_words);
        let warps = global_threads() / WARP_SIZE;
        let mut chunk = global_idx() / WARP_SIZE;
        while chunk < chunks {
            let word = chunk * chunk_words + lane;
            let owns_word = lane < chunk_words && word < self.words;
            // SAFETY: `word < words`.
            let seen = if owns_word { unsafe { *self.visited.add(word as usize) } } else { u32::MAX };
            let unvisited = if owns_word { !seen & self.vertex_bits(word) } else { 0 };
            let open_words = ballot_sync(FULL_MASK, unvisited != 0);
            // Sparse takes as many rounds as the fullest word has unvisited vertices, dense one
            // round per open word; a sparse round's reads are scattered over 32 words, where a
            // dense round's are side by side, and measured about three times dearer (NOTES 42).
            if SPARSE_ROUND_COST * warp_max(popc(unvisited)) > popc(open_words) {
                if owns_word && unvisited == 0 {
                    // SAFETY: `word < words`; this lane alone writes it, no warp searches it.
                    unsafe { *next.add(word as usize) = 0 };
                }
                let mut remaining = open_words;
                while remaining != 0 {
                    let j = remaining.trailing_zeros();
                    remaining &= remaining - 1;
                    let open_seen = shfl_idx_sync(FULL_MASK, seen, j);
                    // SAFETY: word `chunk * chunk_words + j` exists (its lane found unvisited
                    // vertices in it) and this warp alone handles it this level.
                    unsafe {
                        self.bottom_up_word::<false>(
                            level,
                            chunk * chunk_words + j,
                            open_seen,
                            0,
                            false,
                            emit_queue,
                            tally,
                        )
                    };
                }
            } else {
                let mut searching_bits = unvisited;
                let mut found_bits = 0u32;
                while ballot_sync(FULL_MASK, searching_bits != 0) != 0 {
                    let searching = searching_bits != 0;
                    let bit = searching_bits.trailing_zeros() % WARP_SIZE;
                    searching_bits &= searching_bits.wrapping_sub(1);
                    let v = word * WARP_SIZE + bit;
                    // SAFETY: a searching lane's `v` is an unvisited vertex below n; the
                    // frontier bitmaps hold `words` words (`next` is not probed: no labeling
                    // ahead).
                    let (parent, _) =
                        unsafe { self.search_by_lane(v, searching, current, next, false, &mut tally.reads) };
                    if parent != UNREACHED {
                        // SAFETY: `v < n`.
                        unsafe {
                            *self.distances.add(v as usize) = level + 1;
                            self.record_parent(v, parent);
                        }
                        tally.next_edges += self.out_degree(v);
                        found_bits |= 1 << bit;
                    }
                }
                if owns_word {
                    // SAFETY: `word < words`, and this lane alone writes it this level.
                    unsafe {
                        *next.add(word as usize) = found_bits;
                        if found_bits != 0 {
                            *self.visited.add(word as usize) = seen | found_bits;
                        }
                    }
                }
                tally.discovered += popc(found_bits);
                if emit_queue {
                    // SAFETY: the next frontier holds fewer than n vertices, the queue's size.
                    unsafe { self.emit_words(level, word, found_bits) };
                }
            }
            chunk += warps;
        }
    }

    /// Appends each lane's vertices of bitmap word `word` whose bits `bits` sets to the queue
    /// of `level + 1` (a lane's in ascending order, lanes in order), with one atomic for the
    /// warp; nothing when no lane has any. All 32 lanes call it together.
    ///
    /// # Safety
    /// The queue has room: the next frontier holds fewer than n vertices.
    #[inline(always)]
    unsafe fn emit_words(&self, level: u32, word: u32, bits: u32) {
        let count = popc(bits);
        let through = warp_inclusive_scan(count);
        let total = shfl_idx_sync(FULL_MASK, through, WARP_SIZE - 1);
        if total == 0 {
            return;
        }
        let mut position = 0;
        if lane_id() == 0 {
            let slot = ((level + 1) % 3) as usize;
            // SAFETY: `control` is valid.
            position = unsafe { atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), total) };
        }
        let mut position = shfl_idx_sync(FULL_MASK, position, 0) + through - count;
        let mut remaining = bits;
        let queue = self.queue(level + 1);
        while remaining != 0 {
            // SAFETY: the caller's contract.
            unsafe { *queue.add(position as usize) = word * WARP_SIZE + remaining.trailing_zeros() };
            remaining &= remaining - 1;
            position += 1;
        }
    }

    /// One lane per vertex (`static` and `thread`): when `searching`, this lane's vertex `v`
    /// scans its own in-list and returns its first in-neighbor in the frontier bitmap `current`
    /// (or `UNREACHED`), and, with `label_ahead`, when there is none, its first in-neighbor in
    /// the next frontier's bitmap `next`, which this pass is writing (or `UNREACHED`): the
    /// asynchronous parent of [`Self::bottom_up_level`]. All 32 lanes call it together (for the
    /// read accounting).
    ///
    /// With list heads in device memory (`Edges::in_heads`, given when the lists are read over
    /// the bus), the first `HEAD_NEIGHBORS` in-neighbors are tried from there, and the list
    /// itself is read, from just after them, only when none is in the frontier: most searches
    /// end at the first or second in-neighbor, and each would otherwise cost a 32-byte sector
    /// over the bus for the few bytes it needs. The order of the search, and so the parent,
    /// does not change. Heads are not graph bytes read: they are not counted in `reads`.
    ///
    /// # Safety
    /// `searching` only for `v < n`; `current` and `next` are frontier bitmaps of `words` words.
    #[inline(always)]
    unsafe fn search_by_lane(
        &self,
        v: u32,
        searching: bool,
        current: *const u32,
        next: *const u32,
        label_ahead: bool,
        reads: &mut Reads,
    ) -> (u32, u32) {
        let mut parent = UNREACHED;
        let mut ahead_parent = UNREACHED;
        // Bytes `read.0..read.1` of the list array, holding `read.2` edges.
        let mut read = (0u64, 0u64, 0u64);
        if searching {
            // SAFETY: in-neighbors are vertices, so their words exist.
            let in_frontier = |u: u32| unsafe { *current.add(u as usize / 32) & (1 << (u % 32)) != 0 };
            // SAFETY: as above; a racy read of a word another warp may be storing (see
            // `bottom_up_level` for why any value it returns is safe).
            let in_next = |u: u32| unsafe { *next.add(u as usize / 32) & (1 << (u % 32)) != 0 };
            let (start, end) = self.in_range(v);
            // Where the search of the list proper starts (edges or bytes), and from what.
            let mut from = start;
            let mut resume = ListStart::list(v);
            let mut checked = 0u64;
            if !self.edges.in_heads.is_null() {
                // SAFETY: `v < n`; `in_heads` holds HEAD_NEIGHBORS words per vertex.
                let heads = unsafe { self.edges.in_heads.add(HEAD_NEIGHBORS * v as usize) };
                let mut last = UNREACHED;
                for k in 0..HEAD_NEIGHBORS {
                    // SAFETY: as above, `k < HEAD_NEIGHBORS`.
                    let u = unsafe { *heads.add(k) };
                    if u == UNREACHED {
                        break;
                    }
                    checked += 1;
                    last = u;
                    if in_frontier(u) {
                        parent = u;
                        break;
                    }
                    if label_ahead && ahead_parent == UNREACHED && in_next(u) {
                        ahead_parent = u;
                    }
                }
                from = if COMPRESSED {
                    // SAFETY: `v < n`; the compressed kernel's heads come with n skips.
                    start + unsafe { *self.edges.in_head_skips.add(v as usize) } as u64
                } else {
                    (start + HEAD_NEIGHBORS as u64).min(end)
                };
                resume = ListStart { vertex: v, previous: last, at_list_start: false };
            }
            if parent != UNREACHED {
                // Found among the heads: nothing read from the list.
                let at = if COMPRESSED { start } else { 4 * start };
                read = (at, at, checked);
            } else if COMPRESSED {
                // Sorted lists decode in order, so the search still stops at the first
                // parent (Moschou 2026, section 2.1).
                // SAFETY: `from..end` is the rest of `v`'s in-list in the byte array, starting
                // at a varint (the skip covers whole varints).
                let mut decoder = unsafe { ThreadDecoder::new(self.edges.in_edges, from, end, resume) };
                while decoder.has_next() {
                    let u = decoder.next();
                    checked += 1;
                    if in_frontier(u) {
                        parent = u;
                        break;
                    }
                    if label_ahead && ahead_parent == UNREACHED && in_next(u) {
                        ahead_parent = u;
                    }
                }
                read = (from, decoder.pos, checked);
            } else {
                let targets = self.edges.in_edges.cast::<u32>();
                let mut edge = from;
                while edge < end {
                    // SAFETY: `edge < end`, inside the transpose's targets.
                    let u = unsafe { *targets.add(edge as usize) };
                    edge += 1;
                    if in_frontier(u) {
                        parent = u;
                        break;
                    }
                    if label_ahead && ahead_parent == UNREACHED && in_next(u) {
                        ahead_parent = u;
                    }
                }
                read = (4 * from, 4 * edge, checked + edge - from);
            }
        }
        reads.warp_round(searching, v, read.0, read.1, read.2);
        // Only a whole scan without a parent proves the distance is at least two more.
        if parent != UNREACHED {
            ahead_parent = UNREACHED;
        }
        (parent, ahead_parent)
    }

    /// The warp-centric search ([`Balance::Warp`]) of bitmap word `word`, whose visited bits
    /// are `seen`: the word's unvisited vertices, in ascending order, each have their whole
    /// in-list searched by the warp, 32 neighbors a round, until a round finds frontier
    /// neighbors; the lowest such lane holds the first in list order, which becomes the parent.
    /// With `label_ahead`, rounds without a frontier neighbor also look for in-neighbors in the
    /// next frontier's bitmap `next` (until one round finds some; its lowest lane is the first
    /// in list order), the asynchronous parent of [`Self::bottom_up_level`] if the whole list
    /// holds no frontier neighbor. Returns the parent and the asynchronous parent found for
    /// this lane's vertex (each or both `UNREACHED`). All 32 lanes call it together.
    ///
    /// Compressed lists are decoded by the warp-cooperative decoder ([`warp_decode_until`], 32
    /// bytes a round), which yields a round's neighbors in list order across the lanes, so the
    /// same first-hit rule applies and the search stops after the round that hits.
    ///
    /// Accounting: bytes and edges of whole rounds (the warp loads and checks a full round even
    /// when its first lane hits), bus sectors per list with a sector shared by consecutive
    /// lists counted once ([`Reads::warp_search`]), offsets per word ([`Reads::word_offsets`]).
    ///
    /// # Safety
    /// `word < words`; `current` and `next` are frontier bitmaps of `words` words.
    #[inline(always)]
    unsafe fn search_word_by_warp(
        &self,
        word: u32,
        seen: u32,
        current: *const u32,
        next: *const u32,
        label_ahead: bool,
        reads: &mut Reads,
    ) -> (u32, u32) {
        let lane = lane_id();
        let first_vertex = word * WARP_SIZE;
        let unvisited = !seen & self.vertex_bits(word);
        // SAFETY: in-neighbors are vertices, so their words exist.
        let in_frontier = |u: u32| unsafe { *current.add(u as usize / 32) & (1 << (u % 32)) != 0 };
        // SAFETY: as above; a racy read of a word another warp may be storing (see
        // `bottom_up_level` for why any value it returns is safe).
        let in_next = |u: u32| unsafe { *next.add(u as usize / 32) & (1 << (u % 32)) != 0 };
        let mut my_parent = UNREACHED;
        let mut my_ahead_parent = UNREACHED;
        let mut previous_last_sector = u64::MAX;
        let mut remaining = unvisited;
        while remaining != 0 {
            let bit = remaining.trailing_zeros();
            remaining &= remaining - 1;
            let v = first_vertex + bit;
            let (start, end) = self.in_range(v);
            let mut parent = UNREACHED;
            // Warp-uniform: set from a shuffle, probed under a warp-uniform condition.
            let mut ahead_parent = UNREACHED;
            let (read_start, read_end, checked) = if COMPRESSED {
                let mut checked = 0u64;
                // SAFETY: `start..end` is `v`'s in-list in the byte array, whole varints.
                let loaded_end = unsafe {
                    warp_decode_until(self.edges.in_edges, start, end, ListStart::list(v), |valid, u| {
                        checked += popc(ballot_sync(FULL_MASK, valid)) as u64;
                        let hits = ballot_sync(FULL_MASK, valid && in_frontier(u));
                        if hits != 0 {
                            parent = shfl_idx_sync(FULL_MASK, u, ffs(hits) - 1);
                        } else if label_ahead && ahead_parent == UNREACHED {
                            let ahead = ballot_sync(FULL_MASK, valid && in_next(u));
                            if ahead != 0 {
                                ahead_parent = shfl_idx_sync(FULL_MASK, u, ffs(ahead) - 1);
                            }
                        }
                        hits != 0
                    })
                };
                (start, loaded_end, checked)
            } else {
                let targets = self.edges.in_edges.cast::<u32>();
                let mut round = start;
                while round < end {
                    let edge = round + lane as u64;
                    let valid = edge < end;
                    // SAFETY: `edge < end`, inside the transpose's targets.
                    let u = if valid { unsafe { *targets.add(edge as usize) } } else { 0 };
                    let hits = ballot_sync(FULL_MASK, valid && in_frontier(u));
                    round = (round + WARP_SIZE as u64).min(end);
                    if hits != 0 {
                        parent = shfl_idx_sync(FULL_MASK, u, ffs(hits) - 1);
                        break;
                    }
                    if label_ahead && ahead_parent == UNREACHED {
                        let ahead = ballot_sync(FULL_MASK, valid && in_next(u));
                        if ahead != 0 {
                            ahead_parent = shfl_idx_sync(FULL_MASK, u, ffs(ahead) - 1);
                        }
                    }
                }
                (4 * start, 4 * round, round - start)
            };
            reads.warp_search(read_start, read_end, checked, &mut previous_last_sector);
            if lane == bit {
                my_parent = parent;
                // Only a whole scan without a parent proves the distance is at least two more.
                my_ahead_parent = if parent == UNREACHED { ahead_parent } else { UNREACHED };
            }
        }
        if unvisited != 0 {
            reads
                .word_offsets(first_vertex + unvisited.trailing_zeros(), first_vertex + 31 - unvisited.leading_zeros());
        }
        (my_parent, my_ahead_parent)
    }

    /// The bits of bitmap word `word < words` that stand for vertices: all of them but in the
    /// last word, whose bits past n stand for none.
    #[inline(always)]
    fn vertex_bits(&self, word: u32) -> u32 {
        let first_vertex = word * WARP_SIZE;
        if self.n - first_vertex >= WARP_SIZE {
            u32::MAX
        } else {
            (1 << (self.n - first_vertex)) - 1
        }
    }

    /// Where the in-list of `v` starts and ends in `in_edges` (edges or bytes).
    #[inline(always)]
    fn in_range(&self, v: u32) -> (u64, u64) {
        // SAFETY: `v < n` and `in_offsets` holds n + 1 entries.
        unsafe { (*self.edges.in_offsets.add(v as usize), *self.edges.in_offsets.add(v as usize + 1)) }
    }

    /// Appends the vertices of bitmap word `word` whose bits are set in `bits` to the queue of
    /// `level + 1`, in ascending order, with one atomic (see "Direct emission" in
    /// [`Self::bottom_up_level`]). All 32 lanes call it together.
    ///
    /// # Safety
    /// The queue has room: the next frontier holds fewer than n vertices.
    #[inline(always)]
    unsafe fn emit_word(&self, level: u32, word: u32, bits: u32) {
        let lane = lane_id();
        let mut position = 0;
        if lane == 0 {
            let slot = ((level + 1) % 3) as usize;
            // SAFETY: `control` is valid.
            position =
                unsafe { atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), popc(bits)) };
        }
        position = shfl_idx_sync(FULL_MASK, position, 0);
        if bits & (1 << lane) != 0 {
            let rank = popc(bits & lanemask_lt());
            // SAFETY: the caller's contract.
            unsafe { *self.queue(level + 1).add((position + rank) as usize) = word * WARP_SIZE + lane };
        }
    }

    /// Packs the frontier bitmap of `level` into its queue: each block takes `BLOCK` words at a
    /// time, a block-wide scan of their popcounts places every vertex, and one atomic per block
    /// and round reserves the space. Ends with a grid barrier.
    ///
    /// Bottom-up levels emit a queue only when the next level is predicted top-down (see
    /// "Direct emission" in [`Self::bottom_up_level`]); otherwise a queue is needed only when
    /// top-down resumes unforeseen, and packing it once from the bitmap costs a few hundred
    /// atomics, where emitting it from every bottom-up level would cost one per warp and word
    /// (hundreds of thousands, NOTES entry 4).
    #[inline(always)]
    pub(super) unsafe fn build_queue_from_bitmap(&self, gather: &Gather, level: u32, barrier: &mut GridBarrier) {
        let bits = self.frontier_bitmap(level);
        // SAFETY: `w < words`; the bitmap holds exactly the frontier's vertices, fewer than n.
        unsafe { self.pack_words(gather, level, |w| *bits.add(w as usize)) };
        barrier.sync();
    }

    /// XBFS's double-scan (section 4.2) for the bottom-up level `level`: packs the unvisited
    /// vertices, in ascending order within each block-round of `BLOCK` bitmap words, into the
    /// queue of `level` (free at a bottom-up level once its frontier is a bitmap), and clears
    /// the next frontier's bitmap on the way, for the level's atomic ORs. Scan I counts a
    /// round's unvisited vertices word by word and a block-wide prefix sum places each word;
    /// scan II writes them: XBFS's global prefix over segments is one atomic per round here
    /// (so rounds land in any order, each sorted and contiguous, which keeps the coalesced
    /// reads XBFS builds the queue for). Ends with a grid barrier; the queue's length is then
    /// this level's `queue_fill`.
    #[inline(always)]
    pub(super) unsafe fn build_unvisited_queue(&self, gather: &Gather, level: u32, barrier: &mut GridBarrier) {
        let next = self.frontier_bitmap(level + 1);
        // SAFETY: `w < words`, each word read by one thread; nobody reads the next frontier's
        // bitmap before the barrier below.
        unsafe {
            self.pack_words(gather, level, |w| {
                *next.add(w as usize) = 0;
                !*self.visited.add(w as usize) & self.vertex_bits(w)
            })
        };
        barrier.sync();
    }

    /// Packs the vertices whose bits `word_at(w)` sets, over all `words` bitmap words, into the
    /// queue of `level`: each block takes `BLOCK` words at a time, a block-wide scan of their
    /// popcounts places every vertex, and one atomic per block and round (on the level's
    /// `queue_fill`) reserves the space. `word_at` runs once per word, in one thread.
    ///
    /// # Safety
    /// `word_at` is safe to call for every `w < words`, and its bits name fewer than n
    /// vertices in all.
    #[inline(always)]
    unsafe fn pack_words(&self, gather: &Gather, level: u32, word_at: impl Fn(u32) -> u32) {
        let fill = core::ptr::addr_of_mut!((*self.control).queue_fill[(level % 3) as usize]);
        // SAFETY: every thread calls it; `fill` is this level's zeroed counter, and the queue
        // holds n entries, more than the words name (the caller's contract).
        unsafe {
            pack_bitmap_words::<BLOCK>(
                self.words,
                self.queue(level),
                fill,
                &gather.tile.scan,
                &gather.tile.enlisted,
                word_at,
            )
        };
    }

    /// A bottom-up level over the queue of unvisited vertices that
    /// [`Self::build_unvisited_queue`] packed (double-scan): warps take 32 queue entries at a
    /// time in grid-stride order, one lane per vertex, so every lane searches (where the
    /// bitmap-word loop idles the lanes of visited vertices). A warp's vertices may share
    /// bitmap words with another warp's, so discoveries set their bits in the visited and the
    /// next frontier's bitmaps by atomic OR (the next one was cleared by the double-scan).
    /// Synchronous, static balance and device-resident graphs only (the host checks): the
    /// asynchronous labeling and the dynamic balancing rely on a warp owning whole words, and
    /// the bus accounting of mapped graphs on a warp's vertices being consecutive. With
    /// `emit_queue`, discoveries also go to the next queue, one warp-aggregated append per
    /// round with any.
    #[inline(always)]
    pub(super) unsafe fn bottom_up_queue_level(&self, level: u32, emit_queue: bool) {
        let lane = lane_id();
        let current = self.frontier_bitmap(level);
        let next = self.frontier_bitmap(level + 1);
        let unvisited = self.queue(level);
        // SAFETY: `control` is valid; the double-scan filled it before the last barrier.
        let length = unsafe { load_acquire_u32(core::ptr::addr_of!((*self.control).queue_fill[(level % 3) as usize])) };
        let slot = ((level + 1) % 3) as usize;
        let mut next_edges = 0u64;
        let mut reads = self.reads();
        let mut discovered_total = 0u64;
        let mut base = global_idx() - lane;
        while base < length {
            let i = base + lane;
            let searching = i < length;
            // SAFETY: `i < length`, the entries the double-scan wrote.
            let v = if searching { unsafe { *unvisited.add(i as usize) } } else { 0 };
            // SAFETY: a searching lane's `v` is a vertex; `current` and `next` are frontier
            // bitmaps of `words` words (`next` is not probed: no labeling ahead).
            let (parent, _) = unsafe { self.search_by_lane(v, searching, current, next, false, &mut reads) };
            let found = parent != UNREACHED;
            if found {
                let bit = 1u32 << (v % 32);
                // SAFETY: `v < n`: its word exists in both bitmaps, its labels in the arrays.
                unsafe {
                    atomic_or_u32(next.add(v as usize / 32), bit);
                    atomic_or_u32(self.visited.add(v as usize / 32), bit);
                    *self.distances.add(v as usize) = level + 1;
                    self.record_parent(v, parent);
                }
                next_edges += self.out_degree(v);
            }
            let discovered = ballot_sync(FULL_MASK, found);
            if emit_queue && discovered != 0 {
                let mut position = 0;
                if lane == 0 {
                    // SAFETY: `control` is valid.
                    position = unsafe {
                        atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), popc(discovered))
                    };
                }
                position = shfl_idx_sync(FULL_MASK, position, 0);
                if found {
                    // SAFETY: the next frontier holds fewer than n vertices, the queue's size.
                    unsafe { *self.queue(level + 1).add((position + popc(discovered & lanemask_lt())) as usize) = v };
                }
            }
            if lane == 0 {
                discovered_total += popc(discovered) as u64;
            }
            base += global_threads();
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe {
            self.record_next_edges(level, next_edges);
            self.record_reads(level, reads);
            let total = warp_sum_u64(discovered_total);
            // Emitted vertices counted themselves while reserving their queue slots.
            if lane == 0 && total > 0 && !emit_queue {
                atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), total as u32);
            }
        }
    }
}

/// Bitmap words fetched per claim by the dynamic strategies: one atomic per four words (128
/// vertices) keeps the work counter's traffic at a quarter of XBFS's one atomic per 32
/// vertices, and a level of a graph worth the GPU still has many claims per warp.
const FETCH_WORDS: u32 = 4;

/// The bitmap words one warp handles in a bottom-up level, claimed `chunk` at a time. All
/// strategies start from a static share, warp `w` taking words `w * chunk ..` (XBFS's first
/// range, which needs no atomics). After that, `static` strides by the grid (`chunk = 1`);
/// `thread` and `warp` fetch from the level's work counter (lane 0 adds `chunk`, a shuffle
/// broadcasts the old value; the counted words lie past the static share). Each word is
/// claimed by exactly one warp either way. [`Bfs::bottom_up_level`] walks `static`'s words
/// itself, without this state, so only the dynamic strategies reach it now; its static branch
/// goes once a device run of `gpu_bfs` can check the change (bench/NOTES.md entry 142).
struct WordClaims {
    next: u32,
    end: u32,
    chunk: u32,
    warps: u32,
    dynamic: bool,
    fetched: *mut u64,
}

impl WordClaims {
    /// `fetched` is the level's zeroed work counter (used by the dynamic strategies only).
    #[inline(always)]
    fn new(balance: Balance, fetched: *mut u64) -> WordClaims {
        let dynamic = balance != Balance::Static;
        let chunk = if dynamic { FETCH_WORDS } else { 1 };
        let first = global_idx() / WARP_SIZE * chunk;
        WordClaims { next: first, end: first + chunk, chunk, warps: global_threads() / WARP_SIZE, dynamic, fetched }
    }

    /// The next word below `words` for this warp, or `None` when the level has none left for
    /// it. All 32 lanes call it together and get the same answer.
    #[inline(always)]
    fn next_word(&mut self, words: u32) -> Option<u32> {
        if self.next == self.end {
            let static_share = self.warps as u64 * self.chunk as u64;
            let start = if self.dynamic {
                let mut old = 0;
                if lane_id() == 0 {
                    // SAFETY: `fetched` is the level's work counter in the control block, only
                    // added to atomically during the level.
                    old = unsafe { atomic_add_u64(self.fetched, self.chunk as u64) };
                }
                static_share + shfl_idx_sync_u64(FULL_MASK, old, 0)
            } else {
                (self.end - self.chunk) as u64 + static_share
            };
            // Past the last word, every later claim is too: clamp rather than wrap.
            self.next = start.min(words as u64) as u32;
            self.end = (start + self.chunk as u64).min(u32::MAX as u64) as u32;
        }
        if self.next >= words {
            return None;
        }
        let word = self.next;
        self.next += 1;
        Some(word)
    }
}

/// How many dense rounds one sparse round of [`Bfs::bottom_up_chunks`] costs: its reads land
/// in 32 different words' offsets, lists and labels instead of side by side. Measured on an
/// H100 (NOTES 42): a threshold that sent kron:22's third level (about 8 unvisited vertices
/// a word) sparse cost it 45%, one that kept kron:24's (about 1.3) dense lost a third of the
/// gain there.
const SPARSE_ROUND_COST: u32 = 3;

/// What a warp's lanes add up over a bottom-up level: next-frontier edges, graph reads, and
/// the vertices discovered and labeled ahead (summed over the warp at the level's end).
struct BottomUpTally {
    next_edges: u64,
    reads: Reads,
    discovered: u32,
    labeled_ahead: u32,
}
