//! Single-source shortest paths: the delta-stepping kernel in one cooperative launch
//! (`sssp_delta_stepping`, which near-far shares as a mode), seed 002's worklist strategies
//! (`sssp_worklist`, one launch an iteration; `sssp_decomposed`, the workload decomposition),
//! the per-vertex initialisation (`sssp_init`), the parents pass (`sssp_parents`), the
//! weight sum the host chooses delta from (`sssp_weight_sum`) and the results' split for the
//! download (`sssp_unpack`): block size, flags, control
//! blocks and the trace record.
//!
//! Distances are `u64` on the device whatever the weights: integer sums exactly, `f32` sums as
//! the float's bits in the low word (non-negative floats order as their bits do, so one
//! `atom.min.u64` serves both), [`UNREACHED_DISTANCE`] for a vertex not reached.

/// `sssp_delta_stepping`'s `target` when the run has none.
pub const NO_TARGET: u32 = u32::MAX;

/// `sssp_delta_stepping`'s `defer_from` when no round defers its queueing.
pub const NEVER_DEFER: u32 = u32::MAX;

/// The widest an adaptive bucket grows, in buckets of the host's width (near-far's tail with a
/// `tail_growth` of 2, and delta-stepping's).
pub const MAX_SPAN: u32 = 16;

/// The widest near-far's tail buckets grow with a `tail_growth` above 2.
pub const MAX_TAIL_SPAN: u32 = 1024;

/// `sssp_delta_stepping`'s `apart_from` when no round runs apart.
pub const NEVER_APART: u32 = u32::MAX;

/// Threads per block of every SSSP kernel.
pub const SSSP_BLOCK: u32 = 256;

/// The distance of a vertex not reached, for integer and float distances alike (above every
/// float's bits).
pub const UNREACHED_DISTANCE: u64 = u64::MAX;

/// The flag word of the SSSP kernels.
pub mod flags {
    /// Bits 0-1: what a weight is. No weights array: every edge weighs 1.
    pub const WEIGHTS_UNIT: u32 = 0;
    /// `u32` weights, integer distances.
    pub const WEIGHTS_U32: u32 = 1;
    /// `f32` weights (by their bits), float distances.
    pub const WEIGHTS_F32: u32 = 2;
    pub const WEIGHTS_MASK: u32 = 3;
    /// Delta-stepping: every edge is heavy (delta at most the smallest weight, as unit weights
    /// with delta 1): a light round only settles its vertices, without reading their lists.
    pub const ALL_HEAVY: u32 = 1 << 2;
    /// Near-far (Davidson et al. 2014): every edge is relaxed as soon as its vertex is, the near
    /// pile being the current bucket; no heavy phase.
    pub const NEAR_FAR: u32 = 1 << 3;
    /// Block 0 runs the steps of small queues alone while the rest of the grid waits.
    pub const SMALL_PATH: u32 = 1 << 4;
    /// Hierarchical processing: this sub-iteration is the first of its super iteration, so
    /// every item starts at its list's first edge rather than at its `progress`.
    pub const FIRST_SUB: u32 = 1 << 5;
    /// Bucket fusion (Zhang, Brahmakshatriya et al., CGO 2020): block 0, running a light step
    /// alone, keeps relaxing the vertices it puts back into the current bucket in rounds of its
    /// own, their queue in shared memory, instead of one step of the grid's loop a round. Only
    /// on graphs whose lists are all short ([`FUSED_MAX_DEGREE`]).
    pub const BUCKET_FUSION: u32 = 1 << 6;
    /// `sssp_parents`: every tight edge ascends (unit weights, or integer weights of at least
    /// 1), so the owner of any tight edge is a parent, with no levels read or written, and
    /// one pass sets every reached vertex's parent.
    pub const PARENTS_ASCENDING: u32 = 1 << 7;
    /// Delta-stepping: each bucket's width adapts on the device to the work in flight (ADDS's
    /// dynamic Δ, Wang, Fussell and Lin, PPoPP 2021), in multiples of the given delta, which
    /// stays the narrowest. Ignored with [`NEAR_FAR`] and [`ALL_HEAVY`].
    pub const ADAPTIVE_DELTA: u32 = 1 << 8;
    /// Delta-stepping and near-far: each distance word holds the distance in its high 32 bits
    /// and the vertex it was relaxed from in its low 32 (a source: itself), so one
    /// `atom.min.u64` sets both and no parents pass runs (see [`packed_distance`]). Only where
    /// every distance fits 32 bits below `u32::MAX` and every tight edge ascends (integer
    /// weights of at least 1, or unit weights): a parent then always has the smaller
    /// distance, so the parents form a tree.
    pub const PACKED_PARENTS: u32 = 1 << 9;
    /// With [`BUCKET_FUSION`]: block 0's fused light step runs as one asynchronous worklist in
    /// shared memory (each warp takes the next entries as soon as they are queued, no block
    /// barrier between rounds) instead of rounds that wait for each other.
    pub const ASYNC_FUSION: u32 = 1 << 10;
    /// Delta-stepping and near-far, distances only: each distance is a 4-byte word (`u32::MAX`
    /// unreached) instead of 8, so a relaxation's random read and atomic touch half the bytes
    /// and twice the distances fit in L2. Only where every distance fits 32 bits below
    /// `u32::MAX` (integer weights whose largest times `n - 1` stays below it, or float weights,
    /// whose bits are 32) and without [`PACKED_PARENTS`]. `sssp_init` writes such words and
    /// `sssp_unpack` widens them into the 8-byte words the host reads.
    pub const NARROW_DISTANCES: u32 = 1 << 11;
    /// `sssp_delta_stepping`: this launch carries on a run whose last launch stopped before a
    /// round apart (`DeltaControl::stopped`), once `sssp_relax_apart` relaxed that round: it
    /// queues what the round lowered and goes on with the loop. Where nothing stopped, it
    /// returns at once.
    pub const RESUME: u32 = 1 << 12;
}

/// A narrow distance word ([`flags::NARROW_DISTANCES`]) as the 8-byte distance it stands for.
#[inline(always)]
pub const fn widened(word: u32) -> u64 {
    if word == u32::MAX {
        UNREACHED_DISTANCE
    } else {
        word as u64
    }
}

/// The distance a packed word holds ([`flags::PACKED_PARENTS`]); [`UNREACHED_DISTANCE`] for an
/// unreached vertex (every bit set).
#[inline(always)]
pub const fn packed_distance(word: u64) -> u64 {
    if word == UNREACHED_DISTANCE {
        UNREACHED_DISTANCE
    } else {
        word >> 32
    }
}

/// The word for `distance` reached from `parent` ([`flags::PACKED_PARENTS`]).
#[inline(always)]
pub const fn packed_word(distance: u64, parent: u32) -> u64 {
    (distance << 32) | parent as u64
}

/// What a weight is, from the flag word.
#[inline(always)]
pub const fn weight_kind(flags: u32) -> u32 {
    flags & flags::WEIGHTS_MASK
}

/// Queues of at most this many vertices are run by block 0 alone (with [`flags::SMALL_PATH`]),
/// when their lists hold at most [`SMALL_QUEUE_EDGES`] edges.
pub const SMALL_QUEUE: u32 = 2 * SSSP_BLOCK;
/// The most edges a step block 0 runs alone expands: 16 block-wide rounds. A queue of a few
/// hub vertices goes to the whole grid, which shares their lists out.
pub const SMALL_QUEUE_EDGES: u64 = 16 * SSSP_BLOCK as u64;

/// Entries of each of bucket fusion's two shared-memory queues (a vertex and the distance it
/// was queued with): a round that queues more leaves the rest to the grid's next step.
pub const FUSED_QUEUE: u32 = SMALL_QUEUE;
/// Bucket fusion runs where no list is longer than this: one thread walks a vertex's whole
/// list, which pays on roads and meshes (degrees under 10) and would serialise a hub's.
pub const FUSED_MAX_DEGREE: u32 = 32;

/// Delta-stepping shares lists at least this long out to the whole grid in even ranges
/// (`operators::shared_lists`), whatever the step's size.
pub const SHARED_LIST_EDGES: u64 = SSSP_BLOCK as u64;
/// On a step whose queue gives no block a second tile, lists at least this long are shared
/// too (while the queue is shorter than the table), as the persistent BFS does on small levels.
pub const SMALL_STEP_SHARED_LIST_EDGES: u64 = 32;
/// Words per entry of the shared-list table (`operators::shared_lists::ENTRY_WORDS`).
pub const SHARED_LIST_WORDS: usize = 3;
/// Entries of delta-stepping's shared-list table for a graph of `n` vertices and `m` edges: one
/// per list of [`SHARED_LIST_EDGES`] edges or more (a step relaxes each list at most once), and
/// room for the short lists a small step shares (at least `min(n, 2^18)`, more than the
/// vertices of a queue that gives no block of today's GPUs a second tile).
pub const fn shared_list_capacity(n: u64, m: u64) -> u64 {
    let long = m / SHARED_LIST_EDGES;
    let small = if n < 1 << 18 { n } else { 1 << 18 };
    (if long > small { long } else { small }) + 1
}

/// Bookkeeping of the delta-stepping grid, in global memory: the host writes it before each
/// launch (near slot 0 holding the source, every `far_min` at `u64::MAX`). Near-queue
/// counters rotate over three slots by step (a step reads slot `s % 3`, fills `(s + 1) % 3`,
/// clears `(s + 2) % 3`), far-pile counters by split in the same way (the pile of split `j` is
/// filled before it, read by it; it fills pile `j + 1` and clears pile `j + 2`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct DeltaControl {
    /// Grid-barrier arrivals.
    pub barrier_arrivals: u32,
    /// Vertices in the near queue each slot's step reads.
    pub near_len: [u32; 3],
    /// Vertices of the current bucket settled so far (the heavy phase's list).
    pub settled_len: u32,
    /// Vertices in each far pile.
    pub far_len: [u32; 3],
    /// Output: buckets processed, and steps (light rounds, heavy phases, splits) taken.
    pub buckets: u32,
    pub steps: u32,
    /// Output: buckets traced (the trace holds the first `trace_capacity`).
    pub trace_records: u32,
    /// Runs of steps block 0 took alone (small queues); it also picks the handoff slot.
    pub small_runs: u32,
    /// The smallest bucket pushed into each far pile since it was last cleared (a lower bound
    /// of the bucket its live entries hold).
    pub far_min: [u64; 3],
    /// Output: edge relaxations attempted.
    pub relaxations: u64,
    /// The state block 0 leaves after running steps alone, by the parity of such runs:
    /// `[step, splits, heavy_done, rounds, bucket sequence, settled at the bucket's start,
    /// runs alone, span]` and the bucket.
    pub handoff: [[u32; 8]; 2],
    pub handoff_bucket: [u64; 2],
    /// The shared-list tally of each step's slot (entries and packed edges,
    /// `operators::shared_lists`), cleared two steps ahead as the near-queue counters are.
    pub shared_tally: [u64; 3],
    /// Output: `%globaltimer` when the bucket loop began (the trace's times count from it).
    pub started_ns: u64,
    /// The run's relaxations when the current bucket began (written by the grid leader at
    /// each split, for adaptive widths).
    pub bucket_relaxed: u64,
    /// Output: near-far's light rounds that deferred their queueing (`defer_from`).
    pub deferred_rounds: u64,
    /// The run's relaxations when the bucket before the current one began (written beside
    /// `bucket_relaxed`: near-far's adaptive widths compare a bucket with the one before it).
    pub previous_bucket_relaxed: u64,
    /// The state the launch stopped in before a round apart, as `handoff`'s words, with the
    /// bucket and the round's `share_from` (its registered lists' shortest length).
    pub apart_handoff: [u32; 8],
    /// 1 from a stop before a round apart until the resumed launch has read it (the host
    /// reads it after each pair of launches to learn whether another pair is due).
    pub stopped: u32,
    /// Output: deferred rounds run apart.
    pub rounds_apart: u32,
    pub apart_bucket: u64,
    pub apart_share_from: u64,
}

/// Words of 64 bits that hold a [`DeltaControl`].
pub const DELTA_CONTROL_WORDS: usize = core::mem::size_of::<DeltaControl>() / 8;
const _: () = assert!(core::mem::size_of::<DeltaControl>() % 8 == 0);

/// One trace record per bucket, in 64-bit words: the bucket's index (its first bucket of the
/// host's width), the vertices it settled, the light rounds it took, the relaxations of the
/// whole run so far (so a bucket's are the difference with the previous record),
/// `%globaltimer` when it settled, when its heavy phase began with the run's relaxations then
/// (both 0 where it had none: near-far), and its span in buckets of the host's width.
pub const DELTA_TRACE_WORDS: usize = 8;

/// Bookkeeping of a worklist iteration (seed 002's strategies), written by the host before each.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct WorklistControl {
    /// Grid-barrier arrivals (the cooperative workload decomposition).
    pub barrier_arrivals: u32,
    /// Output: items appended to the output worklist.
    pub out_len: u32,
    /// Output: items appended to the next sub-list (hierarchical processing).
    pub sub_len: u32,
    /// Output: whether any distance fell (the edge-based strategy has no output list).
    pub changed: u32,
    /// Output: edge relaxations attempted.
    pub relaxations: u64,
    /// Total edges of the worklist (workload decomposition, found by its scan).
    pub edges: u64,
}

/// Words of 64 bits that hold a [`WorklistControl`].
pub const WORKLIST_CONTROL_WORDS: usize = core::mem::size_of::<WorklistControl>() / 8;
const _: () = assert!(core::mem::size_of::<WorklistControl>() % 8 == 0);

/// What one `sssp_worklist` launch does with its items (seed 002, sections II and III).
pub mod worklist_mode {
    /// Node-based task distribution (section II-A): an item is a vertex, a thread relaxes all
    /// its edges.
    pub const NODE: u32 = 0;
    /// Edge-based task distribution (section II-B): a thread per edge of the graph (COO sources),
    /// relaxing those whose source is active this iteration.
    pub const EDGE: u32 = 1;
    /// Node splitting (section III-B): an item is a piece (a virtual vertex) of at most `mdt`
    /// edges of its owner's list.
    pub const PIECES: u32 = 2;
    /// Hierarchical processing (section III-C): an item is a vertex with edges left; a thread
    /// relaxes up to `mdt` of them and puts the vertex on the next sub-list if some remain.
    pub const SUB_ITERATION: u32 = 3;
}

/// The field list of `sssp_init`'s parameters.
#[macro_export]
macro_rules! sssp_init_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_init`'s parameters: `n` distances unreached but the sources' (0, or with
            /// `flags::PACKED_PARENTS` in `word_flags` 0 from the source itself; with
            /// `flags::NARROW_DISTANCES` 4-byte words; `sources` holds `source_count` vertex
            /// ids, sorted ascending), and `marks` (`mark_words` words, the queues' marks) zeroed.
            kernel sssp_init, in [$crate::sssp], struct SsspInitParams {
                distances: $crate::DevicePtrMut<u64>,
                marks: $crate::DevicePtrMut<u32>,
                sources: $crate::DevicePtr<u32>,
                mark_words: u64,
                n: u32,
                source_count: u32,
                word_flags: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `sssp_delta_stepping`'s parameters.
#[macro_export]
macro_rules! sssp_delta_stepping_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::sssp_delta_common_fields! {
            $callback $(=> $run)?,
            /// `sssp_delta_stepping`'s parameters: a plain CSR with `weights` (null: unit), the
            /// distances `sssp_init` prepared, three mark words a vertex (`marks`: queued,
            /// settled, far), the near queues (`2 n`), the settled list (`n`), the far piles
            /// (`2 n`), the control block, the trace (`trace_capacity` records), the bucket
            /// width (`delta`: an integer, or an `f32`'s bits) and the flags; the shared-list
            /// table (`shared_list_capacity` entries of `SHARED_LIST_WORDS` words) and the
            /// graph's largest out-degree (capped at `u32::MAX`). The loop stops before a bucket
            /// that starts beyond `limit` (a distance in the kernels' form;
            /// [`UNREACHED_DISTANCE`] for none) or beyond the distance of `target` once it is
            /// final ([`NO_TARGET`] for none); distances beyond that are left tentative. With
            /// [`flags::NEAR_FAR`], a light round of the whole grid over at least `defer_from`
            /// queued vertices defers its queueing ([`NEVER_DEFER`]: none does), and a deferred
            /// round over at least `apart_from` vertices runs its relaxations apart, in
            /// `sssp_relax_apart` ([`NEVER_APART`]: none does): the launch stops before it.
            /// With [`flags::ADAPTIVE_DELTA`] and near-far, a bucket in the tail spans
            /// `tail_growth` (at least 2) times as many as the one before it, up to
            /// [`MAX_SPAN`] buckets of the host's width where it is 2, [`MAX_TAIL_SPAN`] where
            /// more.
            kernel sssp_delta_stepping, struct SsspDeltaSteppingParams
        }
    };
}

/// The field list of `sssp_relax_apart`'s parameters: `sssp_delta_stepping`'s.
#[macro_export]
macro_rules! sssp_relax_apart_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::sssp_delta_common_fields! {
            $callback $(=> $run)?,
            /// `sssp_relax_apart`'s parameters: `sssp_delta_stepping`'s, for the relaxations of
            /// the deferred round a launch of it stopped before (`apart_from`).
            kernel sssp_relax_apart, struct SsspRelaxApartParams
        }
    };
}

/// The fields `sssp_delta_stepping` and `sssp_relax_apart` share, handed to `$callback` under
/// the kernel and struct names given.
#[doc(hidden)]
#[macro_export]
macro_rules! sssp_delta_common_fields {
    (
        $callback:path $(=> $run:path)?,
        $(#[$meta:meta])*
        kernel $kernel:ident, struct $name:ident
    ) => {
        $callback! {
            $(#[$meta])*
            kernel $kernel, in [$crate::sssp], struct $name {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                weights: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u64>,
                marks: $crate::DevicePtrMut<u32>,
                near: $crate::DevicePtrMut<u32>,
                settled: $crate::DevicePtrMut<u32>,
                far: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<u64>,
                trace: $crate::DevicePtrMut<u64>,
                shared_lists: $crate::DevicePtrMut<u64>,
                delta: u64,
                n: u32,
                trace_capacity: u32,
                flags: u32,
                shared_list_capacity: u32,
                max_degree: u32,
                target: u32,
                defer_from: u32,
                apart_from: u32,
                tail_growth: u32,
                limit: u64,
            }
            $(=> $run)?
        }
    };
}

/// Bitmaps a block of `sssp_cluster` keeps: the worklists of the steps of each parity (the
/// cluster's shape and their layout are [`crate::cluster`]'s).
pub const SSSP_CLUSTER_BITMAPS: u32 = 2;

/// The field list of `sssp_cluster`'s parameters.
#[macro_export]
macro_rules! sssp_cluster_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_cluster`'s parameters (the sm_90 module; one thread-block cluster of
            /// `CLUSTER_BLOCKS` blocks of `CLUSTER_BLOCK` threads with
            /// `cluster_shared_bytes(SSSP_CLUSTER_BITMAPS, words, lists)` of dynamic shared
            /// memory each): near-far over a plain CSR with `weights` (null: unit) from the
            /// distances `sssp_init` prepared. `marks` holds a word a vertex (in the far pile),
            /// zeroed; `far` two piles of `n`, the first holding the sources. The control block
            /// is a [`DeltaControl`] whose `far_len[0]` counts the sources and whose
            /// `far_min[0]` is 0 and `far_min[1]` `u64::MAX`, all else zero: the kernel counts
            /// far entries in `far_len`, and leaves `buckets`, `steps`, `relaxations`,
            /// `trace_records` and `started_ns`. The trace (`trace_capacity` records of
            /// `DELTA_TRACE_WORDS`) is the delta-stepping kernel's, with the entries relaxed in
            /// a bucket where that has the vertices settled. `delta`, `flags` (weight kind,
            /// [`flags::PACKED_PARENTS`]), `target` and `limit` as `sssp_delta_stepping`'s;
            /// `words` and `lists` as `cluster_words` and `cluster_lists` (two bitmaps) give.
            kernel sssp_cluster, in [$crate::sssp], struct SsspClusterParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                weights: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u64>,
                marks: $crate::DevicePtrMut<u32>,
                far: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<u64>,
                trace: $crate::DevicePtrMut<u64>,
                delta: u64,
                limit: u64,
                n: u32,
                trace_capacity: u32,
                flags: u32,
                target: u32,
                words: u32,
                lists: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `sssp_worklist`'s parameters.
#[macro_export]
macro_rules! sssp_worklist_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_worklist`'s parameters: one Bellman-Ford iteration of seed 002's `mode`
            /// ([`worklist_mode`](crate::sssp::worklist_mode)) over `items` (`items_len` of them;
            /// the edge-based mode takes the `sources` of all `m` edges instead), appending to
            /// `out` (vertices, or with node splitting their pieces) and, in a sub-iteration, to
            /// `sub` the vertices with edges left (`progress`: a vertex's next edge). `marks`
            /// dedupes the output by `iteration`; `pieces` (`n + 1`) and `piece_owner` describe
            /// the split lists; `mdt` is the maximum out-degree per thread.
            kernel sssp_worklist, in [$crate::sssp], struct SsspWorklistParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                weights: $crate::DevicePtr<u32>,
                sources: $crate::DevicePtr<u32>,
                pieces: $crate::DevicePtr<u32>,
                piece_owner: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u64>,
                marks: $crate::DevicePtrMut<u32>,
                progress: $crate::DevicePtrMut<u64>,
                items: $crate::DevicePtr<u32>,
                out: $crate::DevicePtrMut<u32>,
                sub: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<u64>,
                m: u64,
                items_len: u32,
                n: u32,
                iteration: u32,
                mdt: u32,
                mode: u32,
                flags: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `sssp_decomposed`'s parameters.
#[macro_export]
macro_rules! sssp_decomposed_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_decomposed`'s parameters (cooperative): one iteration of seed 002's workload
            /// decomposition over the `items_len` vertices of `items`, each from its edge
            /// `progress[v]` (or from its list's start when `progress` is null) to its list's
            /// end: a prefix sum of their degrees into `prefix` (`items_len`) and `block_sums`
            /// (a word a block), then an even split of the edges over the grid's threads.
            /// Output as `sssp_worklist`'s.
            kernel sssp_decomposed, in [$crate::sssp], struct SsspDecomposedParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                weights: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u64>,
                marks: $crate::DevicePtrMut<u32>,
                progress: $crate::DevicePtr<u64>,
                items: $crate::DevicePtr<u32>,
                prefix: $crate::DevicePtrMut<u32>,
                block_sums: $crate::DevicePtrMut<u32>,
                out: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<u64>,
                items_len: u32,
                n: u32,
                iteration: u32,
                flags: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `sssp_parents`'s parameters.
#[macro_export]
macro_rules! sssp_parents_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_parents`'s parameters: pass `pass` of the shortest-path tree over the settled
            /// `distances`: pass 0 sets `parents` and their `levels` (`n` each) to every source
            /// (`sources`, `source_count` ids sorted ascending) its own parent at level 0 and the
            /// rest unset; passes 1, 2, ... set parents, adding their number to `control[0]`.
            kernel sssp_parents, in [$crate::sssp], struct SsspParentsParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                weights: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtr<u64>,
                parents: $crate::DevicePtrMut<u32>,
                levels: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<u64>,
                sources: $crate::DevicePtr<u32>,
                n: u32,
                source_count: u32,
                pass: u32,
                flags: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `sssp_weight_sum`'s parameters.
#[macro_export]
macro_rules! sssp_weight_sum_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_weight_sum`'s parameters: adds the `m` weights into `sum[0]` (integers as
            /// they are, floats in units of 2^-16, each capped at 2^32) and the smallest into
            /// `sum[1]` (the same units; the host sets it to `u64::MAX` first).
            kernel sssp_weight_sum, in [$crate::sssp], struct SsspWeightSumParams {
                weights: $crate::DevicePtr<u32>,
                sum: $crate::DevicePtrMut<u64>,
                m: u64,
                flags: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `sssp_unpack`'s parameters.
#[macro_export]
macro_rules! sssp_unpack_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `sssp_unpack`'s parameters: turns the `n` distance words a run left into the
            /// arrays the caller reads, on the device, so that they come back over the bus with
            /// no pass of the host's. With [`flags::PACKED_PARENTS`] in `flags`, each word's
            /// parent goes to `parents` (`u32::MAX` where unreached) and its distance stays in
            /// `words`; with [`flags::WEIGHTS_F32`], each word's float distance goes to `floats`
            /// (infinity where unreached). A null `parents` skips them. With
            /// [`flags::NARROW_DISTANCES`], each word is first widened from `narrow`'s.
            kernel sssp_unpack, in [$crate::sssp], struct SsspUnpackParams {
                narrow: $crate::DevicePtr<u32>,
                words: $crate::DevicePtrMut<u64>,
                parents: $crate::DevicePtrMut<u32>,
                floats: $crate::DevicePtrMut<f32>,
                n: u32,
                flags: u32,
            }
            $(=> $run)?
        }
    };
}

/// Float weights are summed in these units (2^-16), so the sum is an integer.
pub const FLOAT_WEIGHT_SCALE: f32 = 65536.0;

crate::sssp_init_fields!(crate::kernel_params);
crate::sssp_delta_stepping_fields!(crate::kernel_params);
crate::sssp_relax_apart_fields!(crate::kernel_params);
crate::sssp_cluster_fields!(crate::kernel_params);
crate::sssp_worklist_fields!(crate::kernel_params);
crate::sssp_decomposed_fields!(crate::kernel_params);
crate::sssp_parents_fields!(crate::kernel_params);
crate::sssp_weight_sum_fields!(crate::kernel_params);
crate::sssp_unpack_fields!(crate::kernel_params);

/// `sssp_relax_apart` takes `sssp_delta_stepping`'s fields: its parameters convert from the
/// latter's field by field.
macro_rules! same_fields_as_delta_stepping {
    (
        $(#[$meta:meta])*
        kernel $kernel:ident, in [$($module:tt)*], struct $name:ident {
            $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        impl From<SsspDeltaSteppingParams> for $name {
            fn from(params: SsspDeltaSteppingParams) -> $name {
                $name { $($field: params.$field),* }
            }
        }

        impl From<$name> for SsspDeltaSteppingParams {
            fn from(params: $name) -> SsspDeltaSteppingParams {
                SsspDeltaSteppingParams { $($field: params.$field),* }
            }
        }
    };
}
crate::sssp_relax_apart_fields!(same_fields_as_delta_stepping);
