//! `cc_cluster`: connected components in one Hopper thread-block cluster, for small graphs
//! whose ids follow their geometry (roads, meshes). Issue 52's "small graphs without grid
//! barriers: a thread-block cluster with distributed shared memory runs the whole algorithm".
//!
//! It is block-local linking (`cc_persistent`'s `local_chunk`, bench/NOTES.md 113) with the
//! cluster as the block: the 16 blocks' shared memories are one distributed shared memory
//! that holds a parent word for every vertex, so no edge is left for a second, grid-wide link.
//! The linking itself is the union-find of ECL-CC (Jaiganesh and Burtscher, HPDC 2018,
//! section 3: hooking a root under the other by compare-and-swap, finds that halve their
//! paths as they walk) and of Afforest's link (Sutton et al., IPDPS 2018; Moschou section 5),
//! with every word in shared memory instead of global memory, and roots hooked by a
//! pseudo-random priority instead of by id (randomized linking; it needs the naming pass
//! below). bench/NOTES.md 118 has what bounds it: instruction issue on the 16 multiprocessors a
//! cluster holds, which is why `auto` does not take it.
//!
//! The design:
//! - block `b` owns the `span` consecutive ids from `b * span` and keeps their parents in its
//!   shared memory. On USA-road-d.NY (264k vertices, 66 KB a block) nearly every edge joins two
//!   vertices of one block: its finds and swaps stay in the block's own shared memory, and the
//!   rest reach another block's words through `mapa` and `.shared::cluster` accesses;
//! - phase 1: every parent is its vertex, every label in global memory its vertex; the cluster
//!   barrier;
//! - phase 2 (the link): each thread takes its block's vertices a block's width apart, four at
//!   a time (their list bounds, then the first four targets of each, all loads in flight
//!   together), and queues the edges it links in its warp's queue in shared memory; each time
//!   32 wait, every lane of the warp unites one edge's ends (the warp-based gathering of Merrill
//!   et al., section 4.1, with the union as the visit): the root of lower priority is swapped
//!   under the other. An undirected graph's edge is taken once, from its larger end; the
//!   cluster barrier;
//! - phase 3 (compression): every vertex is pointed at its root, and lowers its root's label
//!   to itself where it is smaller: into a word in the block's shared memory for the root of
//!   the block's first vertex (on a road, the giant component: one global atomic a block
//!   instead of one a vertex), by a global atomic minimum for any other root; the cluster
//!   barrier;
//! - phase 4 (naming): every vertex takes its root's label, the smallest vertex of its
//!   component (its root found again by a walk that writes nothing, one or two steps); a last
//!   cluster barrier keeps every block's shared memory alive while others may still read it.
//!
//! One launch, four cluster barriers (0.3 µs each, bench/NOTES.md 103) and no grid barrier.
//! The trace has three records: the link (with the initialisation), the compression and the
//! naming.

use warpath_interface::cc::cluster::{CcClusterParams, CC_CLUSTER_QUEUE_BYTES};
use warpath_interface::cc::{
    CcControl, CcFlags, TracePhase, CC_TRACE_BYTES, CC_TRACE_PHASE, CC_TRACE_TIME, CC_TRACE_WORDS,
};
use warpath_interface::cluster::CLUSTER_BLOCK;

use crate::prelude::*;

/// Vertices a thread reads together, a block's width apart.
const VERTICES_AT_ONCE: usize = 4;
/// Edges of each of those vertices whose targets are loaded before any union.
const EDGES_AT_ONCE: usize = 4;

/// `$body` once for each index, `$index` a constant in each: arrays indexed so stay in
/// registers (a loop the compiler does not unroll leaves them in local memory).
macro_rules! unrolled {
    ($index:ident in [$($value:literal),*] $body:block) => {
        $({
            const $index: usize = $value;
            $body
        })*
    };
}
const _: () = assert!(VERTICES_AT_ONCE == 4 && EDGES_AT_ONCE == 4, "as many indices as `unrolled!` is given");

/// The cluster's union-find forest: a parent word for every vertex, block `b`'s `span`
/// vertices from `b * span` in its dynamic shared memory.
struct Forest {
    /// The shared-window address of this block's first parent word (the same in every block).
    base: u32,
    span: u32,
    /// This block's first vertex.
    first: u32,
}

impl Forest {
    /// The shared-window address of `x`'s word in its owner, and the owner, or None where this
    /// block owns `x`, with the local address.
    #[inline(always)]
    fn place(&self, x: u32) -> Result<u32, u32> {
        let offset = x.wrapping_sub(self.first);
        if offset < self.span {
            Ok(self.base + 4 * offset)
        } else {
            let owner = x / self.span;
            Err(map_shared_rank(self.base + 4 * (x - owner * self.span), owner))
        }
    }

    /// `x`'s parent.
    ///
    /// # Safety
    /// `x < n`, inside the cluster's span; between the first and the last cluster barrier.
    #[inline(always)]
    unsafe fn parent(&self, x: u32) -> u32 {
        // SAFETY: `x`'s word is in its owner's dynamic shared memory (the contract sizes it).
        unsafe {
            match self.place(x) {
                Ok(local) => load_relaxed_shared_u32(local),
                Err(remote) => load_relaxed_cluster_u32(remote),
            }
        }
    }

    /// Points `x` (not a root) at `ancestor`, an ancestor of its parent: a racing write of
    /// another ancestor leaves the tree as valid.
    ///
    /// # Safety
    /// As for [`Forest::parent`].
    #[inline(always)]
    unsafe fn shortcut(&self, x: u32, ancestor: u32) {
        // SAFETY: as for `parent`.
        unsafe {
            match self.place(x) {
                Ok(local) => store_relaxed_shared_u32(local, ancestor),
                Err(remote) => store_relaxed_cluster_u32(remote, ancestor),
            }
        }
    }

    /// Hooks root `root` under `under`; returns `root`'s parent before: `root` itself where
    /// the swap took.
    ///
    /// # Safety
    /// As for [`Forest::parent`].
    #[inline(always)]
    unsafe fn hook(&self, root: u32, under: u32) -> u32 {
        // SAFETY: as for `parent`.
        unsafe {
            match self.place(root) {
                Ok(local) => cas_shared_u32(local, root, under),
                Err(remote) => cas_cluster_u32(remote, root, under),
            }
        }
    }

    /// `x`'s root, halving the path on the way (each vertex passed is pointed at its
    /// grandparent): a racing halving of another ancestor leaves the tree as valid, and a root
    /// stops being one only by a hook, which the caller's swap then fails on.
    ///
    /// # Safety
    /// As for [`Forest::parent`].
    #[inline(always)]
    unsafe fn find(&self, mut x: u32) -> u32 {
        // SAFETY: parents are vertices.
        unsafe {
            loop {
                let parent = self.parent(x);
                if parent == x {
                    return x;
                }
                let grandparent = self.parent(parent);
                if grandparent == parent {
                    return parent;
                }
                self.shortcut(x, grandparent);
                x = grandparent;
            }
        }
    }

    /// `x`'s root, by a walk that writes nothing (the trees no longer change).
    ///
    /// # Safety
    /// As for [`Forest::parent`].
    #[inline(always)]
    unsafe fn root_of(&self, mut x: u32) -> u32 {
        loop {
            // SAFETY: parents are vertices.
            let parent = unsafe { self.parent(x) };
            if parent == x {
                return x;
            }
            x = parent;
        }
    }

    /// Unites `a`'s and `b`'s trees: the root of lower [`priority`] goes under the other.
    /// Every hook raises a tree's root's priority, so no hook closes a cycle.
    ///
    /// # Safety
    /// As for [`Forest::parent`], for both.
    #[inline(always)]
    unsafe fn unite(&self, a: u32, b: u32) {
        // SAFETY: roots and parents are vertices.
        unsafe {
            let (mut a, mut b) = (self.find(a), self.find(b));
            while a != b {
                let (lower, higher) = if priority(a) < priority(b) { (a, b) } else { (b, a) };
                let before = self.hook(lower, higher);
                if before == lower {
                    return;
                }
                // `lower` was hooked meanwhile: go on from its new tree.
                a = self.find(before);
                b = self.find(higher);
            }
        }
    }
}

/// A vertex's rank for hooking: a bijection of the ids (a multiplication by an odd constant,
/// Knuth's), so that priorities never tie and the roots of a road's consecutive ids hook in no
/// order of the road's.
#[inline(always)]
fn priority(x: u32) -> u32 {
    x.wrapping_mul(0x9E37_79B1)
}

/// The block's shared bookkeeping (the forest is in dynamic shared memory).
#[derive(Clone, Copy)]
struct Shared {
    /// `[0]`: the root of the block's first vertex; `[1]`: the smallest of its tree's vertices
    /// this block holds.
    first_root: SharedArray<u32, 2>,
    /// Each warp's [`EdgeQueue`]: `QUEUE` edges, `(u << 32) | w`.
    edges: SharedArray<u64, { WARPS * QUEUE }>,
}

/// Warps in a block.
const WARPS: usize = (CLUSTER_BLOCK / 32) as usize;
/// Edges a warp's queue holds: what a push of 32 can bring it to before it drains.
const QUEUE: usize = 64;
const _: () = assert!(QUEUE as u32 * 8 * WARPS as u32 == CC_CLUSTER_QUEUE_BYTES);

/// A warp's edges waiting for their union, in shared memory: the lanes push the edges they
/// read (a ballot, then each its slot), and each time 32 are waiting, every lane unites one.
/// Lanes walk lists of different lengths and link only some of their edges (an undirected
/// graph's from the larger end), so uniting as they read would leave most lanes idle
/// (bench/NOTES.md 118). The count is the warp's, the same in every lane.
struct EdgeQueue {
    edges: SharedArray<u64, { WARPS * QUEUE }>,
    /// This warp's first slot.
    base: usize,
    head: u32,
    count: u32,
}

impl EdgeQueue {
    #[inline(always)]
    fn new(shared: &Shared) -> EdgeQueue {
        EdgeQueue { edges: shared.edges, base: (thread_idx() / 32) as usize * QUEUE, head: 0, count: 0 }
    }

    /// Queues this lane's edge `(u, w)` where `keep`, then unites 32 where that many wait.
    /// Every lane of the warp calls it together.
    ///
    /// # Safety
    /// Kept edges join vertices; as for [`Forest::parent`].
    #[inline(always)]
    unsafe fn push(&mut self, forest: &Forest, keep: bool, u: u32, w: u32) {
        let kept = ballot_sync(FULL_MASK, keep);
        if keep {
            let slot = (self.head + self.count + popc(kept & lanemask_lt())) as usize % QUEUE;
            self.edges.set(self.base + slot, (u as u64) << 32 | w as u64);
        }
        self.count += popc(kept);
        if self.count >= 32 {
            sync_warp(FULL_MASK);
            let edge = self.edges.get(self.base + (self.head + lane_id()) as usize % QUEUE);
            // The slots just read take pushes again only after every lane read its own.
            sync_warp(FULL_MASK);
            self.head = (self.head + 32) % QUEUE as u32;
            self.count -= 32;
            // SAFETY: forwarded from the caller.
            unsafe { forest.unite((edge >> 32) as u32, edge as u32) };
        }
    }

    /// Unites what is left (fewer than 32). Every lane of the warp calls it together.
    ///
    /// # Safety
    /// As for [`EdgeQueue::push`].
    #[inline(always)]
    unsafe fn finish(&mut self, forest: &Forest) {
        sync_warp(FULL_MASK);
        if lane_id() < self.count {
            let edge = self.edges.get(self.base + (self.head + lane_id()) as usize % QUEUE);
            // SAFETY: forwarded from the caller.
            unsafe { forest.unite((edge >> 32) as u32, edge as u32) };
        }
    }
}

struct ClusterCc {
    offsets: *const u64,
    targets: *const u32,
    labels: *mut u32,
    control: *mut CcControl,
    trace: *mut u64,
    n: u32,
    trace_capacity: u32,
    symmetric: bool,
    rank: u32,
    forest: Forest,
    shared: Shared,
}

impl ClusterCc {
    /// Opens trace record `record` for `phase` at the current time (the cluster's first
    /// thread).
    #[inline(always)]
    unsafe fn open(&self, record: u32, phase: TracePhase) {
        if self.rank == 0 && thread_idx() == 0 && record < self.trace_capacity {
            // SAFETY: the trace holds `trace_capacity + 1` records.
            unsafe {
                let at = self.trace.add(record as usize * CC_TRACE_WORDS);
                *at.add(CC_TRACE_PHASE) = phase.word();
                *at.add(CC_TRACE_TIME) = global_timer_ns();
            }
        }
    }

    /// Adds a thread's graph bytes to record `record`: a warp sum, one atomic a warp.
    #[inline(always)]
    unsafe fn add_bytes(&self, record: u32, bytes: u64) {
        let sum = warp_sum_u64(bytes);
        if lane_id() == 0 && sum > 0 && record < self.trace_capacity {
            // SAFETY: as in `open`.
            unsafe { atomic_add_u64(self.trace.add(record as usize * CC_TRACE_WORDS + CC_TRACE_BYTES), sum) };
        }
    }

    /// This block's vertices: from its first to the end of its span or of the graph.
    #[inline(always)]
    fn end(&self) -> u32 {
        (self.forest.first + self.forest.span).min(self.n)
    }

    /// Phase 2 for this thread's vertices; returns the graph bytes it read. A lane's edges go
    /// through its warp's queue ([`EdgeQueue`]), so that the unions run 32 at a time.
    ///
    /// # Safety
    /// The kernel's contract; after the initialisation's cluster barrier.
    #[inline(always)]
    unsafe fn link(&self) -> u64 {
        const HELD: usize = VERTICES_AT_ONCE * EDGES_AT_ONCE;
        let end = self.end();
        let mut queue = EdgeQueue::new(&self.shared);
        let mut bytes = 0u64;
        let mut v = self.forest.first + thread_idx();
        // Warp-uniform: a warp's lanes hold consecutive vertices, so its first lane's says
        // whether any has one.
        while ballot_sync(FULL_MASK, v < end) != 0 {
            let mut begin = [0u32; VERTICES_AT_ONCE];
            let mut stop = [0u32; VERTICES_AT_ONCE];
            unrolled!(J in [0, 1, 2, 3] {
                let u = v + (J as u32) * CLUSTER_BLOCK;
                if u < end {
                    // SAFETY: `u < n`; `offsets` has `n + 1` entries below 2^32 (the contract).
                    unsafe {
                        begin[J] = *self.offsets.add(u as usize) as u32;
                        stop[J] = *self.offsets.add(u as usize + 1) as u32;
                    }
                }
            });
            // The first targets of each list, all in flight at once; `held`'s bit `i` says
            // whether `target[i]` (vertex `i / EDGES_AT_ONCE`) holds one.
            let mut target = [0u32; HELD];
            let mut held = 0u32;
            unrolled!(J in [0, 1, 2, 3] {
                unrolled!(K in [0, 1, 2, 3] {
                    if begin[J] + (K as u32) < stop[J] {
                        // SAFETY: inside the list of vertex `J`.
                        target[J * EDGES_AT_ONCE + K] = unsafe { *self.targets.add(begin[J] as usize + K) };
                        held |= 1 << (J * EDGES_AT_ONCE + K);
                    }
                });
            });
            // Queued from the front, the rest shifted down, so that every index is a constant
            // and the targets stay in registers; the loop is the warp's, its lanes together.
            for i in 0..HELD as u32 {
                let w = target[0];
                for x in 0..HELD - 1 {
                    target[x] = target[x + 1];
                }
                let u = v + (i / EDGES_AT_ONCE as u32) * CLUSTER_BLOCK;
                // SAFETY: held targets are vertices (the contract).
                unsafe { queue.push(&self.forest, held & 1 != 0 && self.links(u, w), u, w) };
                held >>= 1;
            }
            // The rest of the lists longer than `EDGES_AT_ONCE`, an edge a lane a step.
            for j in 0..VERTICES_AT_ONCE as u32 {
                let (first, last) = (begin[0], stop[0]);
                for x in 0..VERTICES_AT_ONCE - 1 {
                    begin[x] = begin[x + 1];
                    stop[x] = stop[x + 1];
                }
                let u = v + j * CLUSTER_BLOCK;
                if u < end {
                    bytes += 8 + 4 * (last - first) as u64;
                }
                let mut edge = first + EDGES_AT_ONCE as u32;
                while ballot_sync(FULL_MASK, edge < last) != 0 {
                    let more = edge < last;
                    // SAFETY: inside `u`'s list.
                    let w = if more { unsafe { *self.targets.add(edge as usize) } } else { 0 };
                    // SAFETY: targets are vertices.
                    unsafe { queue.push(&self.forest, more && self.links(u, w), u, w) };
                    edge += more as u32;
                }
            }
            v += (VERTICES_AT_ONCE as u32) * CLUSTER_BLOCK;
        }
        // SAFETY: queued edges join vertices.
        unsafe { queue.finish(&self.forest) };
        bytes
    }

    /// Whether edge `(u, w)` is linked: an undirected graph's only from its larger end.
    #[inline(always)]
    fn links(&self, u: u32, w: u32) -> bool {
        !self.symmetric || w < u
    }

    /// Phase 3 for this thread's vertices: each pointed at its root, and its root's label
    /// lowered to it where it is smaller.
    ///
    /// # Safety
    /// The kernel's contract; after the link's cluster barrier.
    #[inline(always)]
    unsafe fn compress(&self) {
        let end = self.end();
        let sh = &self.shared;
        // SAFETY (throughout): the kernel's contract; labels hold every vertex.
        unsafe {
            if thread_idx() == 0 && self.forest.first < end {
                sh.first_root.set(0, self.forest.find(self.forest.first));
                sh.first_root.set(1, u32::MAX);
            }
            sync_threads();
            let first_root = sh.first_root.get(0);
            let mut v = self.forest.first + thread_idx();
            while v < end {
                let root = self.forest.find(v);
                self.forest.shortcut(v, root);
                if v < root {
                    if root == first_root {
                        sh.first_root.fetch_min(1, v);
                    } else {
                        atomic_min_u32(self.labels.add(root as usize), v);
                    }
                }
                v += CLUSTER_BLOCK;
            }
            sync_threads();
            let smallest = sh.first_root.get(1);
            if thread_idx() == 0 && smallest != u32::MAX {
                atomic_min_u32(self.labels.add(first_root as usize), smallest);
            }
        }
    }

    /// The whole computation, in every thread of the cluster.
    #[inline(always)]
    unsafe fn run(&self) {
        // SAFETY (throughout): the kernel's contract; the forest is used between the first
        // and the last cluster barrier only.
        unsafe {
            self.open(0, TracePhase::ClusterLink);
            let end = self.end();
            let mut offset = thread_idx();
            while offset < self.forest.span {
                let v = self.forest.first + offset;
                store_shared_u32(self.forest.base + 4 * offset, v);
                if v < end {
                    *self.labels.add(v as usize) = v;
                }
                offset += CLUSTER_BLOCK;
            }
            cluster_sync();
            let bytes = self.link();
            self.add_bytes(0, bytes);
            cluster_sync();
            self.open(1, TracePhase::Compression);
            self.compress();
            cluster_sync();
            self.open(2, TracePhase::Naming);
            let mut v = self.forest.first + thread_idx();
            while v < end {
                // A walk that writes nothing: a racing halving in the compression may have left
                // `v` one step short of its root. The root's label is final at the barrier.
                let root = self.forest.root_of(v);
                if root != v {
                    *self.labels.add(v as usize) = *self.labels.add(root as usize);
                }
                v += CLUSTER_BLOCK;
            }
            cluster_sync();
            if self.rank == 0 && thread_idx() == 0 {
                let records = 3;
                (*self.control).records = records;
                let at = records.min(self.trace_capacity) as usize * CC_TRACE_WORDS;
                *self.trace.add(at + CC_TRACE_TIME) = global_timer_ns();
            }
        }
    }
}

/// `cc_cluster`: the connected components of a plain CSR in one thread-block cluster (see the
/// module documentation).
///
/// # Safety
/// Launched as one cluster of `CLUSTER_BLOCKS` blocks of `CLUSTER_BLOCK` threads (the grid
/// being the cluster) with `cc_cluster_shared_bytes(span)` of dynamic shared memory a block;
/// `span` is `cc_cluster_span(n)`; `offsets` has `n + 1` entries below 2^32, every target is
/// below `n`; `labels` holds `n` words; `control` is a zeroed `CcControl`; `trace` holds
/// `trace_capacity + 1` zeroed records.
#[inline(always)]
pub unsafe fn cluster(params: CcClusterParams) {
    let rank = cluster_rank();
    let kernel = ClusterCc {
        offsets: params.offsets,
        targets: params.targets,
        labels: params.labels,
        control: params.control,
        trace: params.trace,
        n: params.n,
        trace_capacity: params.trace_capacity,
        symmetric: params.flags.contains(CcFlags::SYMMETRIC),
        rank,
        forest: Forest { base: dynamic_shared_base(), span: params.span, first: rank * params.span },
        // SAFETY: declared once, before any control flow.
        shared: unsafe { Shared { first_root: SharedArray::declare(), edges: SharedArray::declare() } },
    };
    // SAFETY: forwarded from the caller.
    unsafe { kernel.run() };
}

warpath_interface::cc_cluster_fields!(warpath_interface::kernel_entry => cluster);
