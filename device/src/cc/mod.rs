//! Connected components in one persistent kernel: every phase of Afforest (Sutton, Ben-Nun
//! and Barak, "Optimizing Parallel Graph Connectivity Computation via Subgraph Sampling",
//! IPDPS 2018, as the GAP Benchmark Suite's `cc` runs it; Moschou 2026, section 5) or of
//! Shiloach-Vishkin runs inside a single cooperative launch, separated by grid-wide barriers,
//! so no phase costs a launch.
//!
//! - Labels form a forest: `labels[v]` is `v`'s parent, a root labels itself. Linking two
//!   vertices finds their roots, compressing the paths it walks (ECL-CC's intermediate
//!   pointer jumping, Jaiganesh and Burtscher, HPDC 2018, section 3), and hooks the higher
//!   root under the lower one with a compare-and-swap on the root, retrying when another
//!   thread hooked it first (lock-free; ECL-CC's hooking, Sutton et al.'s link), so every
//!   tree's root is its smallest vertex and the last compression leaves the labels canonical.
//!   Why the walks' plain stores are safe: [`Labels::find_all`].
//! - Giant hooks ([`CcFlags::GIANT_HOOKS`], the host's default): the sampling runs after the
//!   first round, and from then on a tree that meets the sampled giant is hooked under the
//!   giant's root whatever their order, so no thread swaps on that root, where every thread
//!   of a skewed graph's second round would otherwise take turns (bench/NOTES.md 102). The
//!   giant's smallest vertex is tracked as trees join it and written as its label at the end
//!   ([`Labels::hook_order`]).
//! - Afforest's neighbor rounds: round `r` links every vertex to its `r`-th in-neighbor (for
//!   an undirected graph the in-lists are its lists); with ECL-CC's initialisation
//!   ([`CcFlags::SMALLER_NEIGHBOR_INIT`]) round 0 is a write of each vertex's first neighbor
//!   where it is smaller. No compression pass follows a round unless asked
//!   ([`CcFlags::ROUND_COMPRESSION`]): the finds keep the trees shallow. With list heads in
//!   device memory (which the host keeps for CC beside plain lists in either placement),
//!   rounds 0 and 1 read the neighbor there in one coalesced load, without the offsets and the
//!   list (and, with zero-copy lists, without crossing the bus).
//! - Sampling: block 0 alone walks `samples` vertices drawn by SplitMix64 to their roots and
//!   counts them in a shared-memory hash table (GAPBS's `SampleFrequentElement`): the most
//!   frequent root is the largest intermediate component, which the final link skips. Beside
//!   it every block points every label at its root, which the skip test compares with (after
//!   later rounds, by a walk).
//! - The final link: every vertex outside that component links its remaining
//!   in-neighbors (from index `neighbor_rounds` on) and, for a directed graph, every
//!   out-neighbor (weakly connected components, as GAPBS does for directed inputs). Lists are
//!   gathered by scan+warp+CTA (`operators::gather`, Merrill et al. section 4.1) so a
//!   high-degree vertex is shared out over a warp or the whole block; compressed lists are
//!   decoded by the warp or by their thread by length (`operators::gather_compressed`), from
//!   their start (the first `neighbor_rounds` neighbors are linked again, which changes
//!   nothing). A last compression makes every label its root (the giant's, its smallest vertex).
//! - Block-local linking (a non-zero `local_chunk`, plain lists; instead of Afforest's phases):
//!   each block takes aligned ranges of `local_chunk` vertex ids and joins the edges inside its
//!   range in a forest in shared memory, each thread walking its vertices' lists (the warp
//!   sharing long ones: `operators::gather`'s warp step), then writes the range's labels (each
//!   tree named by its smallest vertex, so a root of the global forest); one grid-wide link then
//!   joins only the edges between ranges, a compression points every label at its root, and a
//!   naming pass names each component by its smallest vertex (the link hooks roots in a
//!   pseudo-random order): four phases, four grid barriers. Where vertex ids follow the
//!   geometry, as in road networks and meshes, most edges lie inside a range (89% of
//!   USA-road-d.NY's for ranges of 1,024), so most joins happen in shared memory and the
//!   grid-wide link sees a tenth of the trees. It is the partitioned components' shape (local
//!   components, then the edges between parts: Moschou 2026, section 5; the merge of
//!   `partitioned`) with a block's shared memory as the part.
//! - Shiloach-Vishkin (flag [`CcFlags::SHILOACH_VISHKIN`], for comparison; Shiloach and
//!   Vishkin 1982 as GAPBS's `ShiloachVishkin`): hooking passes over every out-edge (a root
//!   label takes the smaller label of an edge's other end) and pointer jumping, until a pass
//!   changes nothing.
//!
//! The grid-wide loops take `VERTEX_BATCH` vertices a thread at once (`for_each_batch`): each
//! phase is chains of dependent reads (offsets, neighbor, labels up the tree), and batching
//! keeps several chains in flight per thread, which pays on meshes, whose short lists leave a
//! thread one chain a vertex. On graphs of many edges a vertex the host asks the neighbor rounds
//! for one vertex at a time ([`CcFlags::SINGLE_VERTICES`]): a thread's list walks keep its loads
//! in flight there, and a batch's finds meet on the same few hot roots (bench/NOTES.md 120); the
//! compressions and the naming pass, chains up shallow trees, keep four. The kernel is built for
//! both, one instantiation each. With [`CcFlags::SCATTERED_ROUNDS`] the neighbor rounds visit the
//! ids in tiles of a block's 256 in a scattered order rather than by id, so that the swaps and walks
//! of a mesh's rows in flight do not all land on the same few megabytes of labels
//! (`for_each_batch`).
//!
//! Block 0's thread 0 writes a trace record per phase (its phase and `%globaltimer` at its
//! start); every thread counts the graph bytes it read (and, built with the `cc-tallies`
//! feature, its walk steps, swaps and failed swaps), summed by warp and block, and added to
//! the record by one atomic a block.
//!
//! The partitioned components' merge kernels are in [`partitioned`].

pub mod partitioned;

use core::arch::asm;

use crate::operators::gather::{gather_tile, warp_gather, EdgeVisitor, TileScratch, BATCH};
use crate::operators::gather_compressed::{gather_compressed_lists, TargetVisitor};
use crate::prelude::*;
use warpath_interface::cc::{
    CcControl, CcFlags, CcPersistentCompressedParams, CcPersistentParams, TracePhase, CC_BLOCK, CC_TRACE_BYTES,
    CC_TRACE_FAILED_SWAPS, CC_TRACE_PHASE, CC_TRACE_STEPS, CC_TRACE_SWAPS, CC_TRACE_TIME, CC_TRACE_WORDS,
    GIANT_MIN_SHARE, HEAD_NEIGHBORS, LOCAL_CHUNK_MAX, MAX_SAMPLES, NO_COMPONENT, SCATTER_MULTIPLIER,
};

const BLOCK: usize = CC_BLOCK as usize;
const WARPS: usize = BLOCK / WARP_SIZE as usize;
/// Lists of this many edges or more are gathered by a warp (shorter ones by the block's scan).
const WARP_LIST_EDGES: u64 = WARP_SIZE as u64;
/// The counts of a [`Work`] a trace record sums: the bytes, and where tallied the three tallies.
const COUNTS: usize = if TALLIED { 4 } else { 1 };
/// Vertices a thread takes at once in the grid-wide loops (see [`for_each_batch`]), unless
/// [`CcFlags::SINGLE_VERTICES`] asks the neighbor rounds for one.
const VERTEX_BATCH: usize = 4;
/// Tiles (or warp rows) whose labels and offsets the final link reads at once: their
/// offsets stay live across the gathers, and four would spill registers under the launch
/// bounds.
const TILE_BATCH: usize = 2;

/// Writes a `u32` at GPU scope with no ordering (`st.relaxed.gpu`), the store that matches the
/// relaxed loads other threads read labels with.
///
/// # Safety
/// `ptr` is a valid, aligned global-memory address.
#[inline(always)]
unsafe fn store_relaxed_u32(ptr: *mut u32, value: u32) {
    // SAFETY: the caller guarantees `ptr`.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.relaxed.gpu.global.u32 [g], {v}; }}",
            p = in(reg64) ptr, v = in(reg32) value, options(nostack))
    };
}

/// The order in which block-local linking hooks roots, in shared memory and between ranges: a
/// multiplication by an odd constant, a bijection of `u32`, so no two vertices tie. Where ids
/// follow a road, hooking the higher root under the lower hooks each range's trees under the
/// previous range's at once: the link between ranges walked 44 steps a link on USA-road-d.NY;
/// in a pseudo-random order the trees stay shallow, as in random-mate hooking (in shared memory
/// the order made no measured difference: bench/NOTES.md 113).
#[inline(always)]
fn priority(x: u32) -> u32 {
    x.wrapping_mul(0x9E37_79B1)
}

/// The label forest, `n` words in global memory. Stores and the hooks' swaps are at GPU scope;
/// walks read through L1 ([`Labels::walk`]): a stale copy is an older ancestor, and a link's
/// retry still ends, since each failed swap means another thread joined two trees, which
/// happens finitely often (see [`Labels::hook_roots`]). Shiloach-Vishkin's hooks read at GPU scope ([`Labels::get`]).
///
/// `BY_PRIORITY` hooks roots in the pseudo-random order of [`priority`] instead of by id
/// ([`Labels::hook_order`]): block-local linking's link between ranges, whose roots name
/// their components by the smallest vertex only after [`Cc::name_components`].
#[derive(Clone, Copy)]
struct Labels<const BY_PRIORITY: bool = false> {
    words: *mut u32,
    /// The sampled giant's root under giant hooks ([`CcFlags::GIANT_HOOKS`]): every tree that
    /// joins it is hooked under it, and it is never hooked; [`NO_COMPONENT`] otherwise.
    giant: u32,
}

impl<const BY_PRIORITY: bool> Labels<BY_PRIORITY> {
    /// # Safety (all methods)
    /// Every vertex passed is below `n`, and so is every label (the forest's invariant).
    #[inline(always)]
    unsafe fn get(self, v: u32) -> u32 {
        // SAFETY: the caller's contract.
        unsafe { load_relaxed_u32(self.words.add(v as usize)) }
    }

    /// `v`'s label through L1: a walk's step. Labels only move toward the root (a label is
    /// always an ancestor in the same tree), so a stale copy is an older
    /// ancestor, and a walk from it still climbs to a root; the roots of a finished phase are
    /// read after a grid barrier, whose acquire fence invalidated L1.
    #[inline(always)]
    unsafe fn walk(self, v: u32) -> u32 {
        // SAFETY: the caller's contract.
        unsafe { load_cached_u32(self.words.add(v as usize)) }
    }

    #[inline(always)]
    unsafe fn set(self, v: u32, label: u32) {
        // SAFETY: the caller's contract.
        unsafe { store_relaxed_u32(self.words.add(v as usize), label) }
    }

    /// Swaps root `root`'s label from itself to `under`, counted; returns the label found. A
    /// tree hooked under the giant lowers the giant's smallest vertex to its root, which is
    /// its own smallest (see [`Labels::hook_order`]).
    #[inline(always)]
    unsafe fn swap_root(self, root: u32, under: u32, work: &mut Work) -> u32 {
        work.tally(SWAPS, 1);
        // SAFETY: the caller's contract.
        let seen = unsafe { atomic_cas_u32(self.words.add(root as usize), root, under) };
        work.tally(FAILED_SWAPS, (seen != root) as u32);
        if seen == root && under == self.giant {
            work.giant_min = work.giant_min.min(root);
        }
        seen
    }

    /// Which of two roots to hook under which: `(swapped, under)`. The higher under the lower,
    /// so every tree's root is its smallest vertex and labels end canonical; except that a
    /// tree meeting the giant is hooked under the giant whatever their order. The giant is then
    /// never the word of a swap: a hundred thousand threads that meet it no longer take turns
    /// on it (entry 102's failed swaps), and the forest stays acyclic, since the giant stays a
    /// root and every other hook goes from a higher root to a lower vertex. Other trees keep
    /// their smallest vertex as root; the giant's smallest vertex is the least of the giant
    /// and the roots hooked under it, which [`Labels::swap_root`] tracks and the last
    /// compression writes. `BY_PRIORITY`: the one of higher [`priority`] under the other.
    #[inline(always)]
    fn hook_order(self, a: u32, b: u32) -> (u32, u32) {
        if BY_PRIORITY {
            if priority(a) > priority(b) {
                (a, b)
            } else {
                (b, a)
            }
        } else if b == self.giant {
            (a, b)
        } else if a == self.giant || a < b {
            (b, a)
        } else {
            (a, b)
        }
    }

    /// The roots of `vertices`' trees, walked together (their loads in flight at once),
    /// compressing every path as it goes: each vertex passed takes its grandparent as its
    /// parent (ECL-CC's intermediate pointer jumping, Jaiganesh and Burtscher, HPDC 2018,
    /// section 3), so the trees that 100k threads hook at once stay shallow and a later walk
    /// over the same path takes a fraction of its steps.
    ///
    /// The stores are plain (relaxed) and race with other walks' and hooks, which is safe
    /// because labels are monotone: a vertex's label is always an ancestor in its own tree
    /// (roots hook under smaller roots or under the giant, [`Labels::hook_order`]; walks point
    /// vertices at ancestors), and a walk stores only into a vertex that already had a parent
    /// (no longer a root, so never the target of a hook's compare-and-swap). A racing store may
    /// put back a less compressed ancestor than another thread just wrote, never a vertex of
    /// another tree or a descendant, so the forest keeps its roots and has no cycle.
    #[inline(always)]
    unsafe fn find_all<const K: usize>(self, vertices: [u32; K], work: &mut Work) -> [u32; K] {
        // SAFETY (of every access): labels are vertices (the caller's contract).
        unsafe {
            let mut previous = vertices;
            let mut current: [u32; K] = core::array::from_fn(|k| self.walk(vertices[k]));
            let mut walking: [bool; K] = core::array::from_fn(|k| current[k] != vertices[k]);
            work.tally(STEPS, K as u32);
            while walking.iter().any(|&w| w) {
                let next: [u32; K] =
                    core::array::from_fn(|k| if walking[k] { self.walk(current[k]) } else { current[k] });
                work.tally(STEPS, walking.iter().filter(|&&w| w).count() as u32);
                for k in 0..K {
                    if walking[k] {
                        if next[k] == current[k] {
                            walking[k] = false;
                        } else {
                            self.set(previous[k], next[k]);
                            previous[k] = current[k];
                            current[k] = next[k];
                        }
                    }
                }
            }
            current
        }
    }

    /// The roots of `vertices`' trees, walked together without writing: for readers that run
    /// beside threads compressing (sampling) or that must not undo another thread's last
    /// store (the final compression, where every vertex is written by its own thread only).
    #[inline(always)]
    unsafe fn roots<const K: usize>(self, vertices: [u32; K], work: &mut Work) -> [u32; K] {
        // SAFETY (of every access): labels are vertices (the caller's contract).
        unsafe {
            let mut current: [u32; K] = core::array::from_fn(|k| self.walk(vertices[k]));
            loop {
                let next: [u32; K] = core::array::from_fn(|k| self.walk(current[k]));
                work.tally(STEPS, 2 * K as u32);
                // Element by element: an array comparison would call `memcmp`, which PTX lacks.
                if (0..K).all(|k| next[k] == current[k]) {
                    return current;
                }
                current = next;
            }
        }
    }

    /// Joins the trees of `u[k]` and `v[k]` for every `k` (pairs of equal vertices join
    /// nothing): finds their roots, compressing the paths, and hooks one root under the other
    /// ([`Labels::hook_order`]: the higher under the lower, or under the giant) by a
    /// compare-and-swap on the hooked root, all `K` at once; a swap that finds the root
    /// already hooked retries from its new root (ECL-CC's hooking, Jaiganesh and Burtscher,
    /// HPDC 2018, section 3; Sutton et al.'s link).
    #[inline(always)]
    unsafe fn link_all<const K: usize, const TWO_K: usize>(self, u: [u32; K], v: [u32; K], work: &mut Work) {
        // SAFETY (of every access): labels are vertices (the caller's contract).
        unsafe {
            let roots: [u32; TWO_K] =
                self.find_all(core::array::from_fn(|i| if i < K { u[i] } else { v[i - K] }), work);
            let order: [(u32, u32); K] = core::array::from_fn(|k| self.hook_order(roots[k], roots[K + k]));
            let high: [u32; K] = core::array::from_fn(|k| order[k].0);
            let low: [u32; K] = core::array::from_fn(|k| order[k].1);
            // Every swap is issued before any result is looked at.
            let seen: [u32; K] =
                core::array::from_fn(
                    |k| {
                        if high[k] != low[k] {
                            self.swap_root(high[k], low[k], work)
                        } else {
                            high[k]
                        }
                    },
                );
            for k in 0..K {
                if seen[k] != high[k] {
                    self.hook_roots(self.find_all([seen[k]], work)[0], low[k], work);
                }
            }
        }
    }

    /// Hooks root `a` or root `b` under the other ([`Labels::hook_order`]), retrying from the
    /// new root of the one that another thread hooked first. Hooking under a vertex that
    /// stopped being a root meanwhile is still right: it is in the other tree (and smaller, or
    /// the giant). Each failed swap means another thread hooked that root, and trees merge only
    /// finitely often, so the loop ends even where a walk read stale labels.
    #[inline(always)]
    unsafe fn hook_roots(self, mut a: u32, mut b: u32, work: &mut Work) {
        // SAFETY (of every access): labels are vertices (the caller's contract).
        unsafe {
            while a != b {
                let (high, low) = self.hook_order(a, b);
                let seen = self.swap_root(high, low, work);
                if seen == high {
                    return;
                }
                (a, b) = (self.find_all([seen], work)[0], low);
            }
        }
    }

    /// Shiloach-Vishkin hooking of the edge `u`-`v`: when their labels differ and the higher
    /// one is a root, it takes the lower label. Returns whether it hooked.
    #[inline(always)]
    unsafe fn hook(self, u: u32, v: u32) -> bool {
        // SAFETY (of every access): labels are vertices.
        unsafe {
            let (lu, lv) = (self.get(u), self.get(v));
            if lu == lv {
                return false;
            }
            let (high, low) = if lu > lv { (lu, lv) } else { (lv, lu) };
            if self.get(high) == high {
                self.set(high, low);
                return true;
            }
            false
        }
    }
}

/// What a thread did during a phase, for the trace: the graph bytes it read (offsets, lists as
/// stored, degrees and list heads), the label reads of its walks, and its swaps on roots and
/// how many of them found the root already hooked; and under giant hooks the least root it
/// hooked under the giant. The bytes (32 bits: one thread's of one phase; long lists are shared
/// by a warp or the block) and that root are registers; the three tallies, counted only in
/// kernels built with the `cc-tallies` feature, are the thread's own words in shared memory,
/// since as registers they spilled the walks' state.
#[derive(Clone, Copy)]
struct Work {
    bytes: u32,
    /// The least root this thread hooked under the giant (`u32::MAX`: none).
    giant_min: u32,
    tallies: SharedArray<u32, { TALLIES * BLOCK }>,
}

/// The tallies of a [`Work`], each `BLOCK` words, a thread's at its index.
const STEPS: usize = 0;
const SWAPS: usize = 1;
const FAILED_SWAPS: usize = 2;
const TALLIES: usize = 3;
/// Whether the tallies are counted (the device crate's `cc-tallies` feature); the bytes always are.
const TALLIED: bool = cfg!(feature = "cc-tallies");

impl Work {
    /// A phase's work, its tallies zeroed (every thread writes its own words only).
    #[inline(always)]
    fn new(scratch: &Scratch) -> Work {
        let work = Work { bytes: 0, giant_min: u32::MAX, tallies: scratch.tallies };
        if TALLIED {
            for which in 0..TALLIES {
                work.tallies.set(which * BLOCK + thread_idx() as usize, 0);
            }
        }
        work
    }

    #[inline(always)]
    fn tally(&mut self, which: usize, count: u32) {
        if TALLIED {
            let at = which * BLOCK + thread_idx() as usize;
            self.tallies.set(at, self.tallies.get(at) + count);
        }
    }

    #[inline(always)]
    fn take(&self, which: usize) -> u32 {
        if TALLIED {
            self.tallies.get(which * BLOCK + thread_idx() as usize)
        } else {
            0
        }
    }
}

/// Links a gathered edge's target to its owner (Afforest), or hooks them (Shiloach-Vishkin,
/// `HOOK`), over plain `u32` lists.
struct LinkEdges<const HOOK: bool> {
    targets: *const u32,
    labels: Labels,
    work: Work,
    /// Shiloach-Vishkin: a hook happened.
    changed: bool,
}

impl<const HOOK: bool> LinkEdges<HOOK> {
    /// Joins `owner` and `target`; the caller counts the bytes that gave `target`.
    #[inline(always)]
    unsafe fn join(&mut self, owner: u32, target: u32) {
        // SAFETY: owner and target are vertices (the lists' contract).
        unsafe {
            if HOOK {
                self.changed |= self.labels.hook(owner, target);
            } else {
                self.labels.link_all::<1, 2>([owner], [target], &mut self.work);
            }
        }
    }
}

impl<const HOOK: bool> EdgeVisitor for LinkEdges<HOOK> {
    type Loaded = [u32; BATCH];

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        if valid {
            // SAFETY: a valid edge lies inside a list.
            unsafe {
                let target = load_streaming_u32(self.targets.add(edge as usize));
                self.work.bytes += 4;
                self.join(owner, target);
            }
        }
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> [u32; BATCH] {
        // SAFETY: every slot's edge lies inside a list.
        core::array::from_fn(|k| unsafe { load_streaming_u32(self.targets.add(edges[k] as usize)) })
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: [u32; BATCH], owners: [u32; BATCH]) {
        self.work.bytes += 4 * valid.iter().filter(|&&v| v).count() as u32;
        if HOOK {
            for k in 0..BATCH {
                if valid[k] {
                    // SAFETY: the targets were read from the owners' lists.
                    unsafe { self.join(owners[k], loaded[k]) };
                }
            }
        } else {
            // The batch's links walk and swap together; an empty slot joins vertex 0 to itself,
            // which reads a root and writes nothing.
            let owners = core::array::from_fn(|k| if valid[k] { owners[k] } else { 0 });
            let targets = core::array::from_fn(|k| if valid[k] { loaded[k] } else { 0 });
            // SAFETY: the targets were read from the owners' lists.
            unsafe { self.labels.link_all::<BATCH, { 2 * BATCH }>(owners, targets, &mut self.work) };
        }
    }
}

impl<const HOOK: bool> TargetVisitor for LinkEdges<HOOK> {
    #[inline(always)]
    unsafe fn visit_target(&mut self, valid: bool, target: u32, owner: u32) {
        if valid {
            // SAFETY: a decoded neighbor is a vertex; its bytes are counted by the caller.
            unsafe { self.join(owner, target) };
        }
    }
}

/// Block-local linking's forest in shared memory, over offsets into the block's range: a
/// parent each, a root its own. Two roots join by a compare-and-swap that hooks the one of
/// higher [`priority`] under the other, so roots are not their trees' smallest members:
/// [`LocalForest::find_smallest`] finds those. Finds halve the paths they walk with plain stores,
/// which is safe for the reason [`Labels::find_all`] gives (a vertex with a parent only ever
/// takes an ancestor).
#[derive(Clone, Copy)]
struct LocalForest {
    parents: SharedArray<u32, { LOCAL_CHUNK_MAX as usize }>,
    /// Each root's smallest member, once [`LocalForest::find_smallest`] ran.
    smallest: SharedArray<u64, { MAX_SAMPLES as usize }>,
}

impl LocalForest {
    /// `x`'s root, halving the path: each vertex passed takes its grandparent.
    #[inline(always)]
    fn root(self, mut x: u32) -> u32 {
        loop {
            let parent = self.parents.get_volatile(x as usize);
            if parent == x {
                return x;
            }
            let grandparent = self.parents.get_volatile(parent as usize);
            if grandparent != parent {
                self.parents.set_volatile(x as usize, grandparent);
            }
            x = grandparent;
        }
    }

    /// Joins the trees of `a` and `b`, retrying when another thread hooked a root first.
    #[inline(always)]
    fn join(self, a: u32, b: u32) {
        loop {
            let (a, b) = (self.root(a), self.root(b));
            if a == b {
                return;
            }
            let (high, low) = if priority(a) > priority(b) { (a, b) } else { (b, a) };
            if self.parents.compare_exchange(high as usize, high, low) == high {
                return;
            }
        }
    }

    /// Every root's smallest member, after the last join (a block barrier ago): the block's
    /// threads lower their offsets' roots' words to their offsets, `size` offsets from 0. The
    /// words were set to `u64::MAX` with the parents. Ends with a block barrier.
    #[inline(always)]
    fn find_smallest(self, size: u32) {
        let mut i = thread_idx();
        while i < size {
            self.smallest.fetch_min(self.root(i) as usize, i as u64);
            i += CC_BLOCK;
        }
        sync_threads();
    }
}

/// Visits every edge of `owner`'s list `start..end` (empty for a lane without one) as
/// `visit(owner, target)`: lists of 32 edges or more shared out over the warp (Merrill et al.'s
/// warp step, [`warp_gather`]), the rest walked by their thread. All 32 lanes call it.
/// Block-local linking's lists are short (roads, meshes): a block-wide scan per tile, as
/// [`gather_tile`] does, cost twice as much there (bench/NOTES.md 113). Returns the bytes read.
///
/// # Safety
/// `start..end` lies inside the lists of `targets`.
#[inline(always)]
unsafe fn for_each_edge(targets: *const u32, start: u64, end: u64, owner: u32, mut visit: impl FnMut(u32, u32)) -> u32 {
    let mut start = start;
    let mut bytes = 0;
    warp_gather(&mut start, end, owner, |valid, edge, owner| {
        if valid {
            // SAFETY: a valid edge lies inside the enlisted list.
            visit(owner, unsafe { load_streaming_u32(targets.add(edge as usize)) });
            bytes += 4;
        }
    });
    bytes += 4 * (end - start) as u32;
    while start < end {
        // SAFETY: inside the caller's list.
        visit(owner, unsafe { load_streaming_u32(targets.add(start as usize)) });
        start += 1;
    }
    bytes
}

/// One direction of the graph as the kernel reads it: offsets counting edges into `u32`
/// targets, or (compressed) bytes into delta-varint lists with the degrees beside them.
#[derive(Clone, Copy)]
struct Lists {
    offsets: *const u64,
    edges: *const u8,
    degrees: *const u32,
}

impl Lists {
    /// `v`'s list: edges (plain) or bytes (compressed).
    #[inline(always)]
    unsafe fn range(&self, v: u32) -> (u64, u64) {
        // SAFETY: `v < n`; offsets hold n + 1 entries.
        unsafe { (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1)) }
    }
}

/// Everything the phases need, gathered once per thread.
/// `B` vertices a thread at once in the neighbor rounds (`for_each_batch`), `TWO_B` twice that
/// (the ends of a batch's edges); the compressions and the naming take `VERTEX_BATCH`.
struct Cc<const COMPRESSED: bool, const B: usize, const TWO_B: usize> {
    out_lists: Lists,
    in_lists: Lists,
    /// Null, or the first `HEAD_NEIGHBORS` in-neighbors of every vertex in device memory (and,
    /// compressed, the bytes they take).
    in_heads: *const u32,
    in_head_skips: *const u8,
    n: u32,
    labels: Labels,
    control: *mut CcControl,
    trace: *mut u64,
    trace_capacity: u32,
    neighbor_rounds: u32,
    samples: u32,
    seed: u64,
    directed: bool,
    shiloach_vishkin: bool,
    /// Round 0 is ECL-CC's initialisation ([`CcFlags::SMALLER_NEIGHBOR_INIT`]).
    smaller_neighbor_init: bool,
    /// A compression after every neighbor round but the last ([`CcFlags::ROUND_COMPRESSION`]).
    round_compression: bool,
    /// Sampling after the first round, and hooks toward the sampled giant
    /// ([`CcFlags::GIANT_HOOKS`]).
    giant_hooks: bool,
    /// Block-local linking's range of ids (0: off; plain lists only, see the module documentation).
    local_chunk: u32,
    /// Every edge is in both ends' lists ([`CcFlags::SYMMETRIC`]).
    symmetric: bool,
    /// The neighbor rounds visit tiles in a scattered order ([`CcFlags::SCATTERED_ROUNDS`]).
    scattered_rounds: bool,
}

/// Block-shared arrays, declared once at the kernel's top.
struct Scratch {
    tile: TileScratch<BLOCK>,
    /// The sampling's hash table: a count and a root a slot.
    counts: SharedArray<u64, { MAX_SAMPLES as usize }>,
    /// Per-warp sums of the trace's counts (`COUNTS` a warp), or the sampling's per-warp
    /// largest slots.
    sums: SharedArray<u64, { COUNTS * WARPS }>,
    /// Every thread's tallies of the phase ([`Work`]).
    tallies: SharedArray<u32, { TALLIES * BLOCK }>,
    /// Block-local linking's forest: a vertex's parent, both as offsets into the block's range.
    local: SharedArray<u32, { LOCAL_CHUNK_MAX as usize }>,
}

impl Scratch {
    /// Declares the arrays.
    ///
    /// # Safety
    /// Once per kernel, at its top level, before any control flow ([`SharedArray::declare`]).
    #[inline(always)]
    unsafe fn declare() -> Scratch {
        // SAFETY: forwarded from the caller.
        unsafe {
            Scratch {
                tile: TileScratch::declare(),
                counts: SharedArray::declare(),
                sums: SharedArray::declare(),
                tallies: SharedArray::declare(),
                local: SharedArray::declare(),
            }
        }
    }
}

/// The trace record being filled: uniform across the grid, every thread keeps its own copy.
struct Tracer {
    record: u32,
    /// The first phase's record was opened (with the start time of the whole run) before the
    /// labels were initialized, and waits for its phase word.
    first_pending: bool,
}

/// A SplitMix64 output: the `i`-th of the generator seeded with `seed` (the host's
/// `generate::rng::SplitMix64`).
#[inline(always)]
fn splitmix64(seed: u64, i: u32) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut z = seed.wrapping_add(GAMMA.wrapping_mul(i as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<const COMPRESSED: bool, const B: usize, const TWO_B: usize> Cc<COMPRESSED, B, TWO_B> {
    /// The whole computation, in every thread of the grid.
    #[inline(always)]
    unsafe fn run(&self, scratch: Scratch) {
        // SAFETY: the control block's barrier word is zero at launch and reserved for this.
        let mut barrier = unsafe { GridBarrier::new(core::ptr::addr_of_mut!((*self.control).barrier_arrivals)) };
        let mut tracer = Tracer { record: 0, first_pending: true };
        if is_grid_leader() && self.trace_capacity > 0 {
            // SAFETY: the trace holds `trace_capacity + 1` records.
            unsafe { *self.trace.add(CC_TRACE_TIME) = global_timer_ns() };
        }
        let local = self.local_chunk != 0 && !COMPRESSED && !self.shiloach_vishkin;
        let smaller_neighbor_init =
            self.smaller_neighbor_init && !self.shiloach_vishkin && !local && self.neighbor_rounds > 0;
        if local {
            // SAFETY: the kernel's contract; every label is written by its range's block.
            unsafe { self.link_in_ranges(&scratch, &mut tracer) };
        } else if smaller_neighbor_init {
            // Round 0 (its record opened with the run's start time): every vertex takes its
            // first in-neighbor where that is smaller, each thread writing its own vertices'
            // labels only; the edges to a larger first neighbor wait for round 1.
            self.open(&mut tracer, TracePhase::NeighborRound(0));
            let mut work = Work::new(&scratch);
            // Each thread writes its own vertices' labels only: the order cannot matter.
            for_each_batch::<B>(self.n, false, |vertices, valid| {
                // SAFETY: valid vertices are below `n`; a first neighbor is a vertex.
                unsafe {
                    let first = self.neighbors(vertices, valid, 0, &mut work);
                    for k in 0..B {
                        if valid[k] {
                            self.labels.set(vertices[k], first[k].map_or(vertices[k], |u| u.min(vertices[k])));
                        }
                    }
                }
            });
            // SAFETY: every thread of the block calls it.
            unsafe { self.record(&scratch, &tracer, work) };
        } else {
            for v in grid_stride(self.n as u64) {
                // SAFETY: `v < n`.
                unsafe { self.labels.set(v as u32, v as u32) };
            }
        }
        barrier.sync();
        // SAFETY: the kernel's contract holds throughout.
        unsafe {
            if local {
                self.link_between_ranges(&scratch, &mut barrier, &mut tracer);
            } else if self.shiloach_vishkin {
                self.shiloach_vishkin(&scratch, &mut barrier, &mut tracer);
            } else {
                self.afforest(&scratch, &mut barrier, &mut tracer, smaller_neighbor_init);
            }
            if is_grid_leader() {
                let records = if tracer.first_pending { 0 } else { tracer.record + 1 };
                (*self.control).records = records;
                (*self.control).tallied = TALLIED as u32;
                let end = records.min(self.trace_capacity) as usize * CC_TRACE_WORDS;
                *self.trace.add(end + CC_TRACE_TIME) = global_timer_ns();
            }
        }
    }

    /// Afforest's phases (see the module documentation); with `smaller_neighbor_init`, round 0
    /// was the initialisation, and round 1 also links every vertex to a first neighbor larger
    /// than itself. Sampling comes after the last round, or under giant hooks after the first
    /// (so that the later rounds hook toward the giant), with a compression beside it.
    #[inline(always)]
    unsafe fn afforest(
        &self,
        scratch: &Scratch,
        barrier: &mut GridBarrier,
        tracer: &mut Tracer,
        smaller_neighbor_init: bool,
    ) {
        let rounds = self.neighbor_rounds;
        let sampling = self.samples > 0 && self.n > 0;
        // Under giant hooks the first sampling comes after the first round; it names a giant
        // only when its tree is big enough (`GIANT_MIN_SHARE`), and otherwise the sampling
        // runs again after the last round, as without giant hooks.
        let mut giant_hooks = sampling && self.giant_hooks;
        let mut sample_before = if giant_hooks { rounds.min(1) } else { rounds };
        let mut labels = self.labels;
        let mut largest = NO_COMPONENT;
        // SAFETY (of everything below): the kernel's contract.
        unsafe {
            for round in smaller_neighbor_init as u32..=rounds {
                if sampling && round == sample_before {
                    // The rounds' finds left paths short but not every label a root: the final
                    // link's skip test compares roots, so every label is made its root here,
                    // while block 0 first samples the roots (which this compression leaves
                    // alone).
                    self.open(tracer, TracePhase::Sampling);
                    let mut work = Work::new(scratch);
                    let first_look = giant_hooks && round < rounds;
                    if block_idx() == 0 {
                        let min_count = if first_look { self.samples.min(MAX_SAMPLES) / GIANT_MIN_SHARE } else { 0 };
                        self.sample_largest(scratch, &mut work, min_count);
                    }
                    self.compress_all(&mut work);
                    self.record(scratch, tracer, work);
                    barrier.sync();
                    largest = load_relaxed_u32(core::ptr::addr_of!((*self.control).largest));
                    if first_look && largest == NO_COMPONENT {
                        giant_hooks = false;
                        sample_before = rounds;
                    }
                    if giant_hooks {
                        labels.giant = largest;
                    }
                } else if self.round_compression && round > 0 && round < rounds {
                    self.compression(scratch, barrier, tracer);
                }
                if round == rounds {
                    break;
                }
                self.open(tracer, TracePhase::NeighborRound(round));
                let mut work = Work::new(scratch);
                for_each_batch::<B>(self.n, self.scattered_rounds, |vertices, valid| {
                    let neighbors = self.neighbors(vertices, valid, round, &mut work);
                    // A vertex without a neighbor number `round` joins itself: nothing.
                    let neighbors = core::array::from_fn(|k| neighbors[k].unwrap_or(vertices[k]));
                    labels.link_all::<B, TWO_B>(vertices, neighbors, &mut work);
                });
                if smaller_neighbor_init && round == 1 {
                    // A pass of its own: inside the one above it would keep both batches' state
                    // live and spill registers.
                    for_each_batch::<B>(self.n, self.scattered_rounds, |vertices, valid| {
                        let first = self.neighbors(vertices, valid, 0, &mut work);
                        let larger = core::array::from_fn(|k| match first[k] {
                            Some(u) if u > vertices[k] => u,
                            _ => vertices[k],
                        });
                        labels.link_all::<B, TWO_B>(vertices, larger, &mut work);
                    });
                }
                self.record(scratch, tracer, work);
                barrier.sync();
            }
            self.open(tracer, TracePhase::FinalLink);
            let mut linker =
                LinkEdges::<false> { targets: core::ptr::null(), labels, work: Work::new(scratch), changed: false };
            // The in-lists past the rounds' neighbors; for a directed graph the out-lists too.
            // With one round that was the initialisation, the edges to larger first neighbors
            // were not linked: every in-list is linked whole.
            let linked = if smaller_neighbor_init && rounds == 1 { 0 } else { rounds };
            self.link_lists(scratch, &self.in_lists, linked as u64, largest, giant_hooks, &mut linker);
            if self.directed {
                self.link_lists(scratch, &self.out_lists, 0, largest, giant_hooks, &mut linker);
            }
            self.record(scratch, tracer, linker.work);
            barrier.sync();
            self.open(tracer, TracePhase::Compression);
            let mut work = Work::new(scratch);
            if giant_hooks {
                // The giant's label becomes its smallest vertex, which the phases' records
                // lowered (the barrier above published the last of them). Its root word is
                // left for last, after a barrier: written here, a walk from below could
                // climb from it back into the giant's tree before that vertex's own label
                // was rewritten.
                let smallest = load_relaxed_u32(core::ptr::addr_of!((*self.control).giant_min));
                self.compress_all_relabel(&mut work, largest, smallest);
                self.record(scratch, tracer, work);
                if smallest != largest {
                    barrier.sync();
                    if is_grid_leader() {
                        self.labels.set(largest, smallest);
                    }
                }
            } else {
                self.compress_all(&mut work);
                self.record(scratch, tracer, work);
            }
        }
    }

    /// Shiloach-Vishkin: hooking over every out-edge and pointer jumping, pass after pass,
    /// until a pass hooks nothing.
    #[inline(always)]
    unsafe fn shiloach_vishkin(&self, scratch: &Scratch, barrier: &mut GridBarrier, tracer: &mut Tracer) {
        let mut pass = 0u32;
        // SAFETY (of everything below): the kernel's contract.
        unsafe {
            loop {
                self.open(tracer, TracePhase::FinalLink);
                let changed_words = core::ptr::addr_of_mut!((*self.control).changed) as *mut u32;
                if is_grid_leader() {
                    // Nobody reads this word until the next pass has written it (see `CcControl`).
                    store_relaxed_u32(changed_words.add(((pass + 1) % 3) as usize), 0);
                }
                let mut hooker = LinkEdges::<true> {
                    targets: core::ptr::null(),
                    labels: self.labels,
                    work: Work::new(scratch),
                    changed: false,
                };
                self.link_lists(scratch, &self.out_lists, 0, NO_COMPONENT, false, &mut hooker);
                if sync_threads_or(hooker.changed) && thread_idx() == 0 {
                    store_relaxed_u32(changed_words.add((pass % 3) as usize), 1);
                }
                self.record(scratch, tracer, hooker.work);
                barrier.sync();
                self.compression(scratch, barrier, tracer);
                let changed = load_relaxed_u32(changed_words.add((pass % 3) as usize));
                pass += 1;
                if changed == 0 {
                    break;
                }
            }
            if is_grid_leader() {
                (*self.control).passes = pass;
            }
        }
    }

    /// Block-local linking's first phase (see the module documentation): every block takes the
    /// aligned ranges of `local_chunk` ids numbered from its own by the grid's size, joins the
    /// edges inside each range in the shared forest (each thread its tile's vertices' lists,
    /// [`for_each_edge`]; a symmetric graph's edges from their larger end), and writes each
    /// vertex's label as the smallest vertex of its tree in the range, which names itself: a
    /// root of the global forest. Every vertex below `n` is written, so no other initialisation
    /// runs.
    #[inline(always)]
    unsafe fn link_in_ranges(&self, scratch: &Scratch, tracer: &mut Tracer) {
        self.open(tracer, TracePhase::LocalLink);
        let chunk = self.local_chunk;
        let shift = chunk.trailing_zeros();
        // The sampling's table is free in this path: it holds the roots' smallest members.
        let forest = LocalForest { parents: scratch.local, smallest: scratch.counts };
        let targets = self.out_lists.edges as *const u32;
        let tid = thread_idx();
        let mut bytes = 0;
        let mut range = block_idx();
        while range < self.n.div_ceil(chunk) {
            let base = range * chunk;
            let size = chunk.min(self.n - base);
            let mut i = tid;
            while i < chunk {
                forest.parents.set(i as usize, i);
                forest.smallest.set(i as usize, u64::MAX);
                i += CC_BLOCK;
            }
            sync_threads();
            // Block-uniform (`chunk` is a multiple of the block), so every lane of a warp
            // takes part in the warp's gathering.
            let mut tile = 0;
            while tile < chunk {
                let v = base + tile + tid;
                let (start, end) = if tile + tid < size {
                    bytes += 16;
                    // SAFETY: `v < n`; offsets hold n + 1 entries.
                    unsafe { self.out_lists.range(v) }
                } else {
                    (0, 0)
                };
                // SAFETY: the list lies inside the graph's lists.
                bytes += unsafe {
                    for_each_edge(targets, start, end, v, |owner, target| {
                        if (owner ^ target) >> shift == 0 && self.takes(owner, target) {
                            forest.join(owner - base, target - base);
                        }
                    })
                };
                tile += CC_BLOCK;
            }
            sync_threads();
            forest.find_smallest(size);
            let mut i = tid;
            while i < size {
                let smallest = forest.smallest.get(forest.root(i) as usize) as u32;
                // SAFETY: `base + i < n`, and so is the smallest member of its tree.
                unsafe { self.labels.set(base + i, base + smallest) };
                i += CC_BLOCK;
            }
            // The next range's first writes must not meet this range's last walks.
            sync_threads();
            range += grid_dim();
        }
        let work = Work { bytes, ..Work::new(scratch) };
        // SAFETY: every thread of the block calls it.
        unsafe { self.record(scratch, tracer, work) };
    }

    /// Block-local linking's later phases, after the ranges' labels were published by a grid
    /// barrier: a link of the edges between ranges, each thread its vertices' out-lists (a
    /// directed graph's out-lists hold every edge once), hooking roots by [`priority`]; a
    /// compression; and [`Cc::name_components`].
    #[inline(always)]
    unsafe fn link_between_ranges(&self, scratch: &Scratch, barrier: &mut GridBarrier, tracer: &mut Tracer) {
        self.open(tracer, TracePhase::FinalLink);
        let shift = self.local_chunk.trailing_zeros();
        let labels = Labels::<true> { words: self.labels.words, giant: NO_COMPONENT };
        let targets = self.out_lists.edges as *const u32;
        let mut work = Work::new(scratch);
        // SAFETY (of everything below): the kernel's contract.
        unsafe {
            // Every lane takes part in the warp's gathering.
            for_each_warp_row(self.n, |v, valid| {
                let (start, end) = if valid {
                    work.bytes += 16;
                    self.out_lists.range(v as u32)
                } else {
                    (0, 0)
                };
                let bytes = for_each_edge(targets, start, end, v as u32, |owner, target| {
                    if (owner ^ target) >> shift != 0 && self.takes(owner, target) {
                        labels.link_all::<1, 2>([owner], [target], &mut work);
                    }
                });
                work.bytes += bytes;
            });
            self.record(scratch, tracer, work);
            barrier.sync();
            self.compression(scratch, barrier, tracer);
            self.name_components(scratch, barrier, tracer);
        }
    }

    /// Names every component by its smallest vertex once every label is its root (a grid
    /// barrier after [`Cc::compress_all`]) but the roots are not the smallest vertices (hooks by
    /// [`priority`]): each vertex smaller than its root lowers the root's word to itself, one
    /// atomic minimum a root and warp; after a barrier, every vertex takes its root's word
    /// (the least of it and the root, which covers the root, whose word its smallest vertex
    /// reads in the same pass). A root's own thread may read its word already lowered and lower
    /// the smallest vertex's word, which names that root, to the root: no change.
    #[inline(always)]
    unsafe fn name_components(&self, scratch: &Scratch, barrier: &mut GridBarrier, tracer: &mut Tracer) {
        self.open(tracer, TracePhase::Naming);
        let words = self.labels.words;
        // The warp's votes and reductions need every lane.
        for_each_warp_row(self.n, |v, valid| {
            // A lane past the end reads the last vertex's word and does nothing with it.
            let v = v.min(self.n as u64 - 1) as u32;
            // SAFETY: labels are vertices.
            let root = unsafe { self.labels.get(v) };
            let mut pending = valid && v < root;
            // One atomic a root among the warp's lanes: most lanes share one.
            loop {
                let waiting = ballot_sync(FULL_MASK, pending);
                if waiting == 0 {
                    break;
                }
                let leader = ffs(waiting) - 1;
                let leader_root = shfl_idx_sync(FULL_MASK, root, leader);
                let mine = pending && root == leader_root;
                let smallest = reduce_min_sync(FULL_MASK, if mine { v } else { u32::MAX });
                if lane_id() == leader {
                    // SAFETY: the root is a vertex.
                    unsafe { atomic_min_u32(words.add(leader_root as usize), smallest) };
                }
                pending &= !mine;
            }
        });
        barrier.sync();
        for_each_batch::<VERTEX_BATCH>(self.n, false, |vertices, valid| {
            // SAFETY: labels are vertices.
            unsafe {
                let roots: [u32; VERTEX_BATCH] = core::array::from_fn(|k| self.labels.get(vertices[k]));
                let named: [u32; VERTEX_BATCH] = core::array::from_fn(|k| self.labels.get(roots[k]).min(roots[k]));
                for k in 0..VERTEX_BATCH {
                    if valid[k] && named[k] != roots[k] {
                        self.labels.set(vertices[k], named[k]);
                    }
                }
            }
        });
        // SAFETY: every thread of the block calls it.
        unsafe { self.record(scratch, tracer, Work::new(scratch)) };
    }

    /// Opens the trace record of `phase` (the grid leader writes it).
    #[inline(always)]
    unsafe fn open(&self, tracer: &mut Tracer, phase: TracePhase) {
        if tracer.first_pending {
            tracer.first_pending = false;
        } else {
            tracer.record += 1;
        }
        if is_grid_leader() && tracer.record < self.trace_capacity {
            // SAFETY: the record exists (below the capacity).
            unsafe {
                let record = self.trace.add(tracer.record as usize * CC_TRACE_WORDS);
                *record.add(CC_TRACE_PHASE) = phase.word();
                if tracer.record > 0 {
                    *record.add(CC_TRACE_TIME) = global_timer_ns();
                }
            }
        }
    }

    /// Adds this block's work to the open record: warp sums, then one atomic a count and
    /// block. Every thread of the block calls it.
    #[inline(always)]
    unsafe fn record(&self, scratch: &Scratch, tracer: &Tracer, work: Work) {
        const WORDS: [usize; 4] = [CC_TRACE_BYTES, CC_TRACE_STEPS, CC_TRACE_SWAPS, CC_TRACE_FAILED_SWAPS];
        // Loops over a constant count with the counts chosen by `match`: unrolled, so no array
        // of them is put in local memory.
        let count = |i: usize| -> u64 {
            match i {
                0 => work.bytes as u64,
                1 => work.take(STEPS) as u64,
                2 => work.take(SWAPS) as u64,
                _ => work.take(FAILED_SWAPS) as u64,
            }
        };
        for i in 0..COUNTS {
            let sum = warp_sum_u64(count(i));
            if lane_id() == 0 {
                scratch.sums.set(COUNTS * warp_in_block() as usize + i, sum);
            }
        }
        // The least root hooked under the giant: one swap of the control word a warp that hooked.
        let giant_min = reduce_min_sync(FULL_MASK, work.giant_min);
        if lane_id() == 0 && giant_min != u32::MAX {
            // SAFETY: `control` is valid; the sampling wrote the word a barrier ago.
            unsafe { atomic_min_u32(core::ptr::addr_of_mut!((*self.control).giant_min), giant_min) };
        }
        sync_threads();
        if thread_idx() == 0 && tracer.record < self.trace_capacity {
            for i in 0..COUNTS {
                let total: u64 = (0..WARPS).map(|w| scratch.sums.get(COUNTS * w + i)).sum();
                if total > 0 {
                    // SAFETY: the record exists (below the capacity).
                    unsafe {
                        atomic_add_u64(self.trace.add(tracer.record as usize * CC_TRACE_WORDS + WORDS[i]), total)
                    };
                }
            }
        }
        sync_threads();
    }

    /// Whether block-local linking takes the edge `owner` -> `target` from this end: a
    /// symmetric graph's edges from their larger end only (the other copy joins the same trees).
    #[inline(always)]
    fn takes(&self, owner: u32, target: u32) -> bool {
        !self.symmetric || target < owner
    }

    /// A compression phase of its own: [`Cc::compress_all`], traced, then a grid barrier.
    #[inline(always)]
    unsafe fn compression(&self, scratch: &Scratch, barrier: &mut GridBarrier, tracer: &mut Tracer) {
        self.open(tracer, TracePhase::Compression);
        let mut work = Work::new(scratch);
        // SAFETY (of both): the kernel's contract; every thread of the grid calls it.
        unsafe {
            self.compress_all(&mut work);
            self.record(scratch, tracer, work);
        }
        barrier.sync();
    }

    /// Points every vertex's label at its root. Each vertex is written by its own thread
    /// only, after a walk that writes nothing: a walk's store into another vertex could undo
    /// that vertex's last store here and leave it short of its root, which the labels, read as
    /// the components once the kernel ends, must not be.
    #[inline(always)]
    unsafe fn compress_all(&self, work: &mut Work) {
        for_each_batch::<VERTEX_BATCH>(self.n, false, |vertices, valid| {
            // SAFETY: labels are vertices; an invalid slot is vertex 0, a root.
            unsafe {
                let labels: [u32; VERTEX_BATCH] = core::array::from_fn(|k| self.labels.get(vertices[k]));
                let roots = self.labels.roots(labels, work);
                for k in 0..VERTEX_BATCH {
                    if valid[k] && roots[k] != labels[k] {
                        self.labels.set(vertices[k], roots[k]);
                    }
                }
            }
        });
    }

    /// [`compress_all`](Self::compress_all), but every vertex whose root is `giant` takes
    /// `smallest` instead, except `giant` itself, whose word stays its own so that no walk of
    /// this pass climbs past it.
    #[inline(always)]
    unsafe fn compress_all_relabel(&self, work: &mut Work, giant: u32, smallest: u32) {
        for_each_batch::<VERTEX_BATCH>(self.n, false, |vertices, valid| {
            // SAFETY: labels are vertices; an invalid slot is vertex 0, a root.
            unsafe {
                let labels: [u32; VERTEX_BATCH] = core::array::from_fn(|k| self.labels.get(vertices[k]));
                let roots = self.labels.roots(labels, work);
                for k in 0..VERTEX_BATCH {
                    let label = if roots[k] == giant { smallest } else { roots[k] };
                    if valid[k] && vertices[k] != giant && label != labels[k] {
                        self.labels.set(vertices[k], label);
                    }
                }
            }
        });
    }

    /// The in-neighbor number `round` of each valid vertex of a batch that has one, read
    /// together: from the list heads in device memory when they hold it (zero-copy lists:
    /// rounds 0 and 1 never cross the bus), else from the lists, for plain ones every offset
    /// pair before any neighbor.
    #[inline(always)]
    unsafe fn neighbors(&self, vertices: [u32; B], valid: [bool; B], round: u32, work: &mut Work) -> [Option<u32>; B] {
        // SAFETY (of every read): valid vertices are below `n`, and the arrays hold what the
        // contract says.
        unsafe {
            if !self.in_heads.is_null() && (round as usize) < HEAD_NEIGHBORS {
                return core::array::from_fn(|k| {
                    if !valid[k] {
                        return None;
                    }
                    work.bytes += 4;
                    let neighbor = *self.in_heads.add(HEAD_NEIGHBORS * vertices[k] as usize + round as usize);
                    (neighbor != UNREACHED).then_some(neighbor)
                });
            }
            if COMPRESSED {
                // Decoding is a loop the compiler does not unroll: the batch is shifted through
                // rather than indexed, so it stays in registers (see `take_first`).
                let (mut vertices, mut valid) = (vertices, valid);
                let mut neighbors = [None; B];
                for _ in 0..B {
                    let (v, valid) = (take_first(&mut vertices), take_first(&mut valid));
                    let neighbor = if valid { self.compressed_neighbor(v, round, work) } else { None };
                    push_last(&mut neighbors, neighbor);
                }
                return neighbors;
            }
            let ranges: [(u64, u64); B] =
                core::array::from_fn(|k| if valid[k] { self.in_lists.range(vertices[k]) } else { (0, 0) });
            core::array::from_fn(|k| {
                let (start, end) = ranges[k];
                if valid[k] {
                    work.bytes += 16;
                }
                (start + (round as u64) < end).then(|| {
                    work.bytes += 4;
                    *(self.in_lists.edges as *const u32).add((start + round as u64) as usize)
                })
            })
        }
    }

    /// `v`'s in-neighbor number `round` in a compressed in-list, if it has one: decoded from
    /// the list's start, or with list heads in device memory from after the bytes they take.
    #[inline(always)]
    unsafe fn compressed_neighbor(&self, v: u32, round: u32, work: &mut Work) -> Option<u32> {
        let heads = !self.in_heads.is_null();
        // SAFETY (of every read): `v < n`, and the arrays hold what the contract says.
        unsafe {
            work.bytes += 4;
            if round >= *self.in_lists.degrees.add(v as usize) {
                return None;
            }
            let (start, end) = self.in_lists.range(v);
            work.bytes += 16;
            // With heads, decoding resumes after the bytes they take, from the second head.
            let (from, list_start, skip) = if heads {
                let resume = start + *self.in_head_skips.add(v as usize) as u64;
                let previous = *self.in_heads.add(HEAD_NEIGHBORS * v as usize + HEAD_NEIGHBORS - 1);
                (resume, ListStart { vertex: v, previous, at_list_start: false }, round - HEAD_NEIGHBORS as u32)
            } else {
                (start, ListStart::list(v), round)
            };
            let mut decoder = ThreadDecoder::new(self.in_lists.edges, from, end, list_start);
            let mut neighbor = decoder.next();
            for _ in 0..skip {
                neighbor = decoder.next();
            }
            work.bytes += (decoder.pos - from) as u32;
            Some(neighbor)
        }
    }

    /// Links (or hooks) the edges of `lists` from index `skip` on, of every vertex whose label
    /// is not `largest` (with `roots_moved`, whose root is not: rounds ran since the labels
    /// were last made roots); every thread of the grid calls it.
    #[inline(always)]
    unsafe fn link_lists<const HOOK: bool>(
        &self,
        scratch: &Scratch,
        lists: &Lists,
        skip: u64,
        largest: u32,
        roots_moved: bool,
        linker: &mut LinkEdges<HOOK>,
    ) {
        linker.targets = lists.edges as *const u32;
        let (n, threads) = (self.n as u64, global_threads() as u64);
        // The vertices this thread holds in the next `TILE_BATCH` tiles (or warp rows), their
        // labels and offsets read together, so the skip test and the offsets cost one round
        // trip a batch rather than one a tile.
        let batch_ranges = |vertices: [u64; TILE_BATCH], work: &mut Work| -> [(u64, u64); TILE_BATCH] {
            // SAFETY: labels and offsets of vertices below `n` only.
            unsafe {
                let labels: [u32; TILE_BATCH] =
                    core::array::from_fn(
                        |k| if vertices[k] < n { self.labels.get(vertices[k] as u32) } else { largest },
                    );
                // Rounds after the sampling moved labels off their roots: the test walks.
                let labels = if roots_moved { self.labels.roots(labels, work) } else { labels };
                core::array::from_fn(|k| {
                    if vertices[k] < n && labels[k] != largest {
                        work.bytes += 16;
                        lists.range(vertices[k] as u32)
                    } else {
                        (0, 0)
                    }
                })
            }
        };
        // SAFETY (of every read): vertices below `n`, lists inside the graph.
        unsafe {
            if COMPRESSED {
                // A warp's lanes hold consecutive vertices; the warp decodes together.
                let mut first = (global_idx() - lane_id()) as u64;
                while first < n {
                    let mut vertices = core::array::from_fn(|k| first + k as u64 * threads + lane_id() as u64);
                    let mut ranges = batch_ranges(vertices, &mut linker.work);
                    for k in 0..TILE_BATCH {
                        let (v, (start, end)) = (take_first(&mut vertices), take_first(&mut ranges));
                        linker.work.bytes += (end - start) as u32;
                        // Warp-uniform: the row's first vertex.
                        if first + (k as u64) * threads < n {
                            gather_compressed_lists(lists.edges, v as u32, start, end, linker);
                        }
                    }
                    first += TILE_BATCH as u64 * threads;
                }
            } else {
                let tiles = n.div_ceil(CC_BLOCK as u64);
                let grid = grid_dim() as u64;
                let mut tile = block_idx() as u64;
                while tile < tiles {
                    let mut vertices =
                        core::array::from_fn(|k| (tile + k as u64 * grid) * CC_BLOCK as u64 + thread_idx() as u64);
                    let mut ranges = batch_ranges(vertices, &mut linker.work);
                    for k in 0..TILE_BATCH {
                        let (v, (start, end)) = (take_first(&mut vertices), take_first(&mut ranges));
                        let start = (start + skip).min(end);
                        // Block-uniform; a tile whose lists are all skipped or used up by the
                        // rounds (every tile of a grid's giant component) costs one barrier.
                        if tile + (k as u64) * grid < tiles && sync_threads_or(start < end) {
                            gather_tile(&scratch.tile, v as u32, start, end, WARP_LIST_EDGES, linker);
                        }
                    }
                    tile += TILE_BATCH as u64 * grid;
                }
            }
        }
    }

    /// Block 0 alone: the most frequent root among `samples` vertices drawn by SplitMix64
    /// (GAPBS's `SampleFrequentElement`, by a hash count as there), into the control block, or
    /// [`NO_COMPONENT`] when it holds fewer than `min_count` samples.
    /// Each warp counts its equal roots with one match instruction and its lowest lane adds
    /// the count to the root's slot of an open-addressing table in shared memory, so the giant
    /// component's hundreds of samples cost a few atomics; the slot with the highest count
    /// wins. Three block barriers, where a sort of the samples took fifty-five.
    #[inline(always)]
    unsafe fn sample_largest(&self, scratch: &Scratch, work: &mut Work, min_count: u32) {
        // A slot holds its count in the high word and its root in the low one, so the largest
        // slot is the most frequent root (the highest root among equals); an empty slot counts
        // nothing and names no component.
        const EMPTY: u64 = NO_COMPONENT as u64;
        const SLOTS: u32 = MAX_SAMPLES;
        const PER_THREAD: usize = (MAX_SAMPLES / CC_BLOCK) as usize;
        let tid = thread_idx();
        let count = self.samples.min(MAX_SAMPLES);
        let mut slot = tid;
        while slot < SLOTS {
            scratch.counts.set(slot as usize, EMPTY);
            slot += CC_BLOCK;
        }
        let sample = |k: usize| tid + k as u32 * CC_BLOCK;
        // Slots past `count` walk from vertex 0, a root, and are dropped below.
        let vertices: [u32; PER_THREAD] = core::array::from_fn(|k| {
            if sample(k) < count {
                (splitmix64(self.seed, sample(k)) % self.n as u64) as u32
            } else {
                0
            }
        });
        // SAFETY: every vertex is below `n`; the walk writes nothing, so it may run beside the
        // other blocks' compression.
        let mut roots = unsafe { self.labels.roots(vertices, work) };
        sync_threads();
        for k in 0..PER_THREAD {
            let root = take_first(&mut roots);
            let root = if sample(k) < count { root } else { NO_COMPONENT };
            let same = match_any_sync(FULL_MASK, root);
            if root != NO_COMPONENT && lane_id() == ffs(same) - 1 {
                let added = (popc(same) as u64) << 32;
                // At most `SLOTS` distinct roots: the probe always finds their slot or a free one.
                let mut slot = root.wrapping_mul(0x9E37_79B1) >> (32 - SLOTS.trailing_zeros());
                loop {
                    let seen = scratch.counts.compare_exchange(slot as usize, EMPTY, added | root as u64);
                    if seen == EMPTY {
                        break;
                    }
                    if seen as u32 == root {
                        scratch.counts.fetch_add(slot as usize, added);
                        break;
                    }
                    slot = (slot + 1) % SLOTS;
                }
            }
        }
        sync_threads();
        let mut best = EMPTY;
        let mut slot = tid;
        while slot < SLOTS {
            best = best.max(scratch.counts.get(slot as usize));
            slot += CC_BLOCK;
        }
        let mut delta = WARP_SIZE / 2;
        while delta > 0 {
            best = best.max(shfl_idx_sync_u64(FULL_MASK, best, lane_id() ^ delta));
            delta /= 2;
        }
        if lane_id() == 0 {
            scratch.sums.set(warp_in_block() as usize, best);
        }
        sync_threads();
        if tid == 0 {
            let best = (0..WARPS).map(|w| scratch.sums.get(w)).max().unwrap_or(EMPTY);
            let best = if (best >> 32) as u32 >= min_count { best } else { EMPTY };
            // SAFETY: `control` is valid; the grid barrier after this publishes both words, and
            // no block lowers the giant's smallest vertex before it.
            unsafe {
                (*self.control).largest = best as u32;
                (*self.control).giant_min = best as u32;
            }
        }
        // The phase's record reuses `sums` once every warp is past here.
        sync_threads();
    }
}

/// Removes and returns `batch`'s first element, shifting the rest down: a loop over a batch
/// that takes its elements this way indexes it by constants only, so the batch stays in
/// registers where indexing it by the loop's counter would put it in local memory.
#[inline(always)]
fn take_first<T: Copy, const K: usize>(batch: &mut [T; K]) -> T {
    let first = batch[0];
    for i in 1..K {
        batch[i - 1] = batch[i];
    }
    first
}

/// Shifts `batch` down by one and puts `value` last: after `K` calls the batch holds the
/// values in the order they came, built with constant indices only (see [`take_first`]).
#[inline(always)]
fn push_last<T: Copy, const K: usize>(batch: &mut [T; K], value: T) {
    for i in 1..K {
        batch[i - 1] = batch[i];
    }
    batch[K - 1] = value;
}

/// Walks this thread's vertices of `0..n`, `B` at a time, `f` taking each batch and which of
/// its slots hold a vertex (the others hold vertex 0). The ids come in tiles of 32, one a warp:
/// step `j` of a warp takes tile `warp + j * warps` of the grid's `warps`, so each slot's loads
/// are coalesced over the warp and a batch's slots, a grid apart, are in flight together (the
/// phases are chains of dependent reads, and one thread walking its vertices one by one would
/// wait out each chain's latency in turn).
///
/// `scattered` ([`CcFlags::SCATTERED_ROUNDS`]): the tiles are a block's `BLOCK` ids, step `j`
/// of a block takes tile `(block + j * blocks) * SCATTER_MULTIPLIER mod tiles`, a permutation
/// of the tiles (the multiplier is a prime above any tile count), kept as a running sum so a
/// step costs an add and a compare. In id order the grid's threads hold a band of a mesh's rows
/// at once, about a hundred, so every swap and walk of the round lands on a few megabytes of
/// labels, each row's swaps on the words the next row is reading. Scattered, they spread over
/// the whole array. The walks take the same steps in both orders: what changes is where they
/// meet. A block's tile keeps a block's loads within a few kilobytes of each other, which the
/// Kronecker and uniform graphs, whose ids carry no geometry, lose less of than with a warp's.
#[inline(always)]
fn for_each_batch<const B: usize>(n: u32, scattered: bool, mut f: impl FnMut([u32; B], [bool; B])) {
    // Tiles number below 2^27 and a tile's ids fit a `u32`, so everything but the two products
    // that start a scattered walk stays 32-bit (registers: the loop runs inside every phase).
    let (ids, first, walkers) = if scattered {
        (BLOCK as u32, block_idx(), grid_dim())
    } else {
        (WARP_SIZE, global_idx() / WARP_SIZE, global_threads() / WARP_SIZE)
    };
    let tiles = n.div_ceil(ids);
    if tiles == 0 {
        return;
    }
    // The tile of step `first + j * walkers`: itself, or its multiple modulo `tiles`, kept as
    // `tile` and advanced by `advance` (below `tiles`, so one subtraction wraps it).
    let (mut tile, advance) = if scattered {
        let times = |x: u32| ((x as u64 * SCATTER_MULTIPLIER) % tiles as u64) as u32;
        (times(first), times(walkers))
    } else {
        (first, walkers)
    };
    let mut step = first;
    while step < tiles {
        let mut vertices = [0u32; B];
        let mut valid = [false; B];
        for k in 0..B {
            let v = tile * ids + if scattered { thread_idx() } else { lane_id() };
            valid[k] = step < tiles && v < n;
            vertices[k] = if valid[k] { v } else { 0 };
            step += walkers;
            tile += advance;
            if scattered && tile >= tiles {
                tile -= tiles;
            }
        }
        f(vertices, valid);
    }
}

/// Walks `0..n` a warp row at a time, `f` taking this lane's index in the row's span and
/// whether it is a vertex (below `n`): the rows are warp-uniform, so every lane of a warp
/// calls `f` together, as warp votes and [`warp_gather`] need, where [`for_each_batch`]'s
/// lanes leave their loop one by one.
#[inline(always)]
fn for_each_warp_row(n: u32, mut f: impl FnMut(u64, bool)) {
    let (n, threads) = (n as u64, global_threads() as u64);
    let mut row = (global_idx() - lane_id()) as u64;
    while row < n {
        let v = row + lane_id() as u64;
        f(v, v < n);
        row += threads;
    }
}

/// A kernel's [`Cc`]: its two directions' lists, then the fields both kernels' parameters
/// share (see `cc_common_fields!` in the interface crate), taken from `$params` by name.
macro_rules! cc_from_params {
    ($params:ident, $out_lists:expr, $in_lists:expr) => {
        Cc {
            out_lists: $out_lists,
            in_lists: $in_lists,
            in_heads: $params.in_heads,
            in_head_skips: $params.in_head_skips,
            n: $params.n,
            labels: Labels { words: $params.labels, giant: NO_COMPONENT },
            control: $params.control,
            trace: $params.trace,
            trace_capacity: $params.trace_capacity,
            neighbor_rounds: $params.neighbor_rounds,
            samples: $params.samples,
            seed: $params.seed,
            directed: $params.flags.contains(CcFlags::DIRECTED),
            shiloach_vishkin: $params.flags.contains(CcFlags::SHILOACH_VISHKIN),
            smaller_neighbor_init: $params.flags.contains(CcFlags::SMALLER_NEIGHBOR_INIT),
            round_compression: $params.flags.contains(CcFlags::ROUND_COMPRESSION),
            giant_hooks: $params.flags.contains(CcFlags::GIANT_HOOKS),
            local_chunk: $params.local_chunk,
            symmetric: $params.flags.contains(CcFlags::SYMMETRIC),
            scattered_rounds: $params.flags.contains(CcFlags::SCATTERED_ROUNDS),
        }
    };
}

/// Connected components of a plain CSR in one cooperative launch of `CC_BLOCK`-thread blocks
/// (Afforest, Sutton et al., IPDPS 2018, and Moschou 2026, section 5; or Shiloach-Vishkin by
/// flag bit 1; see the module documentation).
///
/// # Safety
/// Launched cooperatively (all blocks resident) with `CC_BLOCK` threads per block.
/// `out_*` is the CSR (n + 1 offsets, targets < n), `in_*` its transpose (the same arrays for
/// an undirected graph, or for a directed one without [`CcFlags::DIRECTED`], whose out-lists
/// then stand in for in-lists: the host turns sampling off for it); `labels` holds n words;
/// `control` is zeroed; `trace` holds `CC_TRACE_WORDS * (trace_capacity + 1)` zeroed words;
/// `in_heads` is null or holds `HEAD_NEIGHBORS * n` words (the first in-neighbors of every
/// vertex in list order, `UNREACHED` where the list is shorter).
#[inline(always)]
unsafe fn persistent(params: CcPersistentParams) {
    // SAFETY: declared once each, before any control flow (both instantiations share them).
    let scratch = unsafe { Scratch::declare() };
    let plain =
        |offsets: *const u64, targets: *const u32| Lists { offsets, edges: targets.cast(), degrees: core::ptr::null() };
    let (out_lists, in_lists) =
        (plain(params.out_offsets, params.out_targets), plain(params.in_offsets, params.in_targets));
    if params.flags.contains(CcFlags::SINGLE_VERTICES) {
        let cc: Cc<false, 1, 2> = cc_from_params!(params, out_lists, in_lists);
        // SAFETY: forwarded from this kernel's contract.
        unsafe { cc.run(scratch) }
    } else {
        let cc: Cc<false, VERTEX_BATCH, { 2 * VERTEX_BATCH }> = cc_from_params!(params, out_lists, in_lists);
        // SAFETY: forwarded from this kernel's contract.
        unsafe { cc.run(scratch) }
    }
}

/// [`cc_persistent`] over a delta-varint compressed CSR and its transpose (Moschou 2026,
/// section 2.1): `*_offsets` count bytes into `*_bytes`, `*_degrees` hold the n degrees.
///
/// # Safety
/// As for [`cc_persistent`], with the lists in the host's compressed format, both byte arrays
/// 8-byte aligned and padded to a multiple of 8 bytes; `in_head_skips` is null exactly when
/// `in_heads` is, and otherwise holds n bytes (how many bytes of each in-list its heads take).
#[inline(always)]
unsafe fn persistent_compressed(params: CcPersistentCompressedParams) {
    // SAFETY: declared once each, before any control flow.
    let scratch = unsafe { Scratch::declare() };
    let cc: Cc<true, VERTEX_BATCH, { 2 * VERTEX_BATCH }> = cc_from_params!(
        params,
        Lists { offsets: params.out_offsets, edges: params.out_bytes, degrees: params.out_degrees },
        Lists { offsets: params.in_offsets, edges: params.in_bytes, degrees: params.in_degrees }
    );
    // SAFETY: forwarded from this kernel's contract.
    unsafe { cc.run(scratch) }
}

// The entry points, named and with the parameters of their field lists in the interface crate.
warpath_interface::cc_persistent_fields!(warpath_interface::kernel_entry => persistent);
warpath_interface::cc_persistent_compressed_fields!(warpath_interface::kernel_entry => persistent_compressed);
