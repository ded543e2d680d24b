//! Deferred rounds apart: the relaxations of near-far's biggest rounds as a launch of their own
//! (`sssp_relax_apart`), at more warps an SM than the cooperative bucket loop holds.
//!
//! `sssp_delta_stepping` keeps every path of the bucket loop in one kernel, so it takes 80
//! registers a thread and runs 24 warps an SM (3 blocks); its big rounds are chains of
//! dependent trips to memory (the queue entry, its list's bounds, the tile's scan, the targets
//! and weights, the distance words) that more warps in flight would hide (bench/NOTES.md 127).
//! The persistent BFS met the same limit on its bottom-up levels and ran them apart (NOTES
//! 135, after the partitioned rank's separate launches); this is that for SSSP. A deferred
//! round needs no grid barrier inside its relaxations, only before its queueing pass, so the
//! launch boundary serves as that barrier:
//!
//! 1. `sssp_delta_stepping`, deciding a deferred round over at least `apart_from` vertices,
//!    registers its long lists (the grid-shared lists of the operators, Merrill et al. 2012
//!    section 4.1 with the persistent BFS's sharing) and stops: the grid leader writes the
//!    state and sets `stopped` ([`Delta::stop_before_apart`]).
//! 2. `sssp_relax_apart` relaxes the round (the operators' scan+warp+CTA gathering, with
//!    `red.min` and a plain mark, as a deferred round relaxes) on any grid, at up to 64 warps an
//!    SM.
//! 3. `sssp_delta_stepping` with `flags::RESUME` queues what the round lowered (the deferred
//!    pass) and carries on with the loop ([`Delta::resume_after_apart`]).
//!
//! The host queues pairs of launches 2 and 3 without waiting on each stop: each returns at
//! once where `stopped` is 0, and the host reads it after a few pairs.

use super::*;

/// The visitor of a round apart: every edge relaxed as a deferred round does.
struct ApartRelaxer<'a> {
    delta: &'a Delta,
    /// The mark the round leaves on what it lowers: the next step's queued mark.
    lowered_mark: u32,
    relaxations: u32,
}

impl EdgeVisitor for ApartRelaxer<'_> {
    type Loaded = ([u32; BATCH], [u32; BATCH]);

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        let mut loaded = Self::Loaded::default();
        if valid {
            // SAFETY: a valid edge lies in `owner`'s list.
            unsafe {
                loaded.0[0] = *self.delta.targets.add(edge as usize);
                loaded.1[0] = self.delta.reader.weight(edge);
            }
        }
        // SAFETY: slot 0 is an edge of `owner` where `valid`; slot 1 is not visited.
        unsafe { self.visit_loaded([valid, false], loaded, [owner; BATCH]) };
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> Self::Loaded {
        // SAFETY: forwarded from the caller.
        unsafe { self.delta.load_edges(edges) }
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: Self::Loaded, owners: [u32; BATCH]) {
        // SAFETY: forwarded from the caller.
        self.relaxations += unsafe { self.delta.relax_deferred_batch(valid, loaded, owners, self.lowered_mark) };
    }
}

impl Delta {
    /// Whether `step`, a step of the whole grid, is a deferred round that runs apart: over at
    /// least `apart_from` vertices. Every thread decides the same.
    #[inline(always)]
    pub(super) fn runs_apart(&self, step: Step) -> bool {
        self.apart_from != NEVER_APART && self.defers(step, false) && step.work() >= self.apart_from
    }

    /// The grid leader, stopping the launch before a round apart: the state, the round's
    /// `share_from`, and `stopped` for the launches after this one.
    ///
    /// # Safety
    /// The grid leader only; the control block obeys the kernel contract.
    #[inline(always)]
    pub(super) unsafe fn stop_before_apart(&self, state: &State, share_from: u64) {
        let c = self.control;
        // SAFETY: forwarded from the caller; nothing else writes these words in this launch.
        unsafe {
            for (k, word) in handoff_words(state).into_iter().enumerate() {
                core::ptr::write_volatile(addr_of_mut!((*c).apart_handoff[k]), word);
            }
            core::ptr::write_volatile(addr_of_mut!((*c).apart_bucket), state.bucket);
            core::ptr::write_volatile(addr_of_mut!((*c).apart_share_from), share_from);
            let rounds = addr_of_mut!((*c).rounds_apart);
            core::ptr::write_volatile(rounds, core::ptr::read_volatile(rounds) + 1);
            core::ptr::write_volatile(addr_of_mut!((*c).stopped), 1);
        }
    }

    /// Whether the launch before this one stopped before a round apart.
    ///
    /// # Safety
    /// The control block obeys the kernel contract.
    #[inline(always)]
    unsafe fn stopped(&self) -> bool {
        // SAFETY: forwarded from the caller; written by an earlier launch.
        unsafe { core::ptr::read_volatile(addr_of!((*self.control).stopped)) != 0 }
    }

    /// The state [`Delta::stop_before_apart`] wrote, and the round's `share_from`.
    ///
    /// # Safety
    /// After a launch that stopped; the control block obeys the kernel contract.
    #[inline(always)]
    unsafe fn apart_state(&self) -> (State, u64) {
        let c = self.control;
        // SAFETY: forwarded from the caller; written by an earlier launch.
        unsafe {
            let words = core::array::from_fn(|k| core::ptr::read_volatile(addr_of!((*c).apart_handoff[k])));
            let bucket = core::ptr::read_volatile(addr_of!((*c).apart_bucket));
            (self.state_of(words, bucket), core::ptr::read_volatile(addr_of!((*c).apart_share_from)))
        }
    }

    /// A `RESUME` launch's start: where the launch before it stopped before a round apart
    /// (which `sssp_relax_apart` has relaxed since), the state it stopped in, the round's
    /// queueing being the loop's next step; None (every block alike) where nothing stopped,
    /// and the run is over. All threads of the grid call it.
    ///
    /// # Safety
    /// The kernel contract, launched after `sssp_relax_apart`.
    #[inline(always)]
    pub(super) unsafe fn resumed_state(&self, barrier: &mut GridBarrier) -> Option<State> {
        // SAFETY: forwarded from the caller.
        if !unsafe { self.stopped() } {
            return None;
        }
        // SAFETY: as above.
        let (state, _) = unsafe { self.apart_state() };
        // Every block has read `stopped` once the barrier passes.
        barrier.sync();
        if is_grid_leader() {
            // SAFETY: as above.
            unsafe { core::ptr::write_volatile(addr_of_mut!((*self.control).stopped), 0) };
        }
        Some(state)
    }

    /// `sssp_relax_apart`'s body: the relaxations of the round the launch before stopped
    /// before, its registered long lists first (shared out over the whole grid), then its
    /// queue's tiles, as [`Delta::run_step`] relaxes a deferred round. Returns at once where
    /// nothing stopped. Clears the barrier word for the resumed launch.
    ///
    /// # Safety
    /// `sssp_relax_apart`'s contract.
    #[inline(always)]
    unsafe fn relax_round_apart(&self, tile: &TileScratch<BLOCK>, window: &ListWindow) {
        let c = self.control;
        // SAFETY (throughout): the control block, queues and lists obey the kernel contract;
        // queue entries are vertex ids `< n`.
        unsafe {
            if !self.stopped() {
                return;
            }
            let (state, share_from) = self.apart_state();
            if is_grid_leader() {
                core::ptr::write_volatile(addr_of_mut!((*c).barrier_arrivals), 0);
            }
            let len = Counters { control: c, local: None }.read(Count::Near(state.step));
            let mut relaxer = ApartRelaxer { delta: self, lowered_mark: state.step + 1, relaxations: 0 };
            if share_from != NO_SHARING {
                let tally = Tally::read(self.tally(state.step));
                self.table().gather::<BLOCK, _>(tally, window, &mut relaxer);
            }
            let input = self.near_area(state.step);
            let blocks = grid_dim();
            let warp_list_edges = warp_list_edges(len, blocks);
            // The tiles of `run_step`'s heavy phase, over the near queue.
            for_tiles!(len, blocks, block_idx(), spread_tile(len, blocks), |i, valid| {
                let u = if valid { *input.add(i as usize) } else { 0 };
                let (mut start, end) = if valid { self.list_of(u) } else { (0, 0) };
                if end - start >= share_from {
                    start = end; // registered: gathered above
                }
                gather_tile(tile, u, start, end, warp_list_edges, &mut relaxer);
            });
            self.add_relaxations(relaxer.relaxations);
        }
    }
}

/// `sssp_relax_apart`: the relaxations of the deferred round a launch of
/// `sssp_delta_stepping` stopped before (see the module documentation).
///
/// # Safety
/// `sssp_delta_stepping`'s contract, on the same parameters as the launch before it (which, if
/// it stopped, left the round's queue and registered lists), before its `RESUME` launch; any
/// grid of blocks of `SSSP_BLOCK` threads.
#[inline(always)]
pub unsafe fn relax_apart(params: SsspRelaxApartParams) {
    // SAFETY: declared once each, before any control flow.
    let (tile, window) = unsafe { (TileScratch::declare(), ListWindow::declare()) };
    let params = SsspDeltaSteppingParams::from(params);
    // SAFETY: forwarded from the caller.
    unsafe {
        if params.flags & flags::NARROW_DISTANCES != 0 {
            Delta::new(params, true).relax_round_apart(&tile, &window)
        } else {
            Delta::new(params, false).relax_round_apart(&tile, &window)
        }
    }
}

warpath_interface::sssp_relax_apart_fields!(warpath_interface::kernel_entry => relax_apart);
