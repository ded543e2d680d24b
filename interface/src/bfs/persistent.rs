//! The persistent direction-optimizing BFS (`bfs_persistent`, `bfs_persistent_compressed`,
//! and `bfs_persistent_init`, which the edge-queue kernel shares): block size, the shared-list
//! table, the control block, the flags and the trace records.

use crate::bfs::rule::RuleKind;

/// Threads per block; the host launches the persistent kernels with exactly this many.
pub const PERSISTENT_BLOCK: u32 = 256;

/// Adjacency lists at least this long are shared out to the whole grid (in a small frontier, a
/// few lists of a few thousand edges would otherwise keep one block busy for the whole level).
/// At least a block long, so one block-wide round of edges spans at most two shared lists; the
/// host's table needs more than `edges / SHARED_LIST_EDGES` entries.
pub const SHARED_LIST_EDGES: u64 = PERSISTENT_BLOCK as u64;

/// Words per entry of the shared-list table: the list's first edge in the level's packed edge
/// space, its first edge in the CSR, its owner.
pub const SHARED_LIST_WORDS: usize = 3;

pub use crate::compressed::RESTART_EDGES;

// The compressed kernel cuts every list it shares out to the grid at its restart points, so
// every such list must have them.
const _: () = assert!(crate::compressed::RESTART_MIN_EDGES <= SHARED_LIST_EDGES);

/// In-neighbors per vertex in the kernels' `in_heads` array (the host's list heads).
pub use crate::graph::HEAD_NEIGHBORS;

/// Bookkeeping shared by the grid, in global memory; the host zeroes it and seeds level 0.
/// Counters rotate over three slots by level: level `l` reads slot `l % 3`, fills slot
/// `(l + 1) % 3`, and clears slot `(l + 2) % 3`, which nobody touches during level `l`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct PersistentControl {
    /// Grid-barrier arrivals.
    pub barrier_arrivals: u32,
    /// Vertices in the frontier of the levels using each slot.
    pub frontier_len: [u32; 3],
    /// Vertices packed so far into the queue of a level that follows a bottom-up level.
    pub queue_fill: [u32; 3],
    /// Output: levels with a non-empty frontier (depth + 1).
    pub levels: u32,
    /// Where block 0 left off after expanding small frontiers alone.
    pub handoff_level: u32,
    pub handoff_previous_frontier: u32,
    pub handoff_unvisited_vertices: u32,
    /// Input: vertices whose in-list is not empty, the unvisited vertices a bottom-up pass
    /// searches at level 0 (the checks rule's `n_u`).
    pub in_listed_vertices: u32,
    /// Out-degree sums of the frontiers of the levels using each slot.
    pub frontier_edges: [u64; 3],
    /// Shared lists registered by the levels using each slot: entries << 40 | edges.
    pub shared_tally: [u64; 3],
    pub handoff_unvisited_edges: u64,
    /// Bitmap words fetched so far by the dynamically balanced bottom-up levels using each slot
    /// (beyond the first `warps * chunk` words, which need no atomic).
    pub bottom_up_fetched: [u64; 3],
    /// Vertices labeled asynchronously, two levels ahead, by the bottom-up pass before the
    /// levels using each slot: they wait in the pending bitmap, and only a bottom-up pass moves
    /// them into their frontier, so while it is non-zero the level must go bottom-up.
    pub async_pending: [u64; 3],
    /// The out-edges of the last frontier block 0 expanded alone (see `handoff_level`).
    pub handoff_previous_edges: u64,
    /// With the handoff words, the state a resumed launch starts from ([`HANDOFF_BOTTOM_UP`],
    /// [`HANDOFF_HAS_QUEUE`], [`HANDOFF_HAS_BITMAP`]; with [`HANDOFF_EMIT_QUEUE`], the level
    /// left to the split-level kernels also writes the next queue).
    pub handoff_flags: u32,
    /// Output: 1 when the persistent kernel returned before a level it left to the split-level
    /// kernels (flag [`PersistentFlags::SPLIT_BOTTOM_UP`]); the resumed launch clears it (the
    /// split-level kernel that ran the level clears the barrier word for it).
    pub stopped: u32,
}

/// [`PersistentControl::handoff_flags`]: the level before the resumed one went bottom-up.
pub const HANDOFF_BOTTOM_UP: u32 = 1;
/// [`PersistentControl::handoff_flags`]: the resumed level's frontier is in its queue.
pub const HANDOFF_HAS_QUEUE: u32 = 2;
/// [`PersistentControl::handoff_flags`]: the resumed level's frontier is in its bitmap.
pub const HANDOFF_HAS_BITMAP: u32 = 4;
/// [`PersistentControl::handoff_flags`]: the level left to the split-level kernels emits
/// its discoveries into the next queue too (the next level is predicted top-down).
pub const HANDOFF_EMIT_QUEUE: u32 = 8;

/// Words of 64 bits that hold a [`PersistentControl`] (the host allocates it as such).
pub const CONTROL_WORDS: usize = core::mem::size_of::<PersistentControl>() / 8;

/// How a bottom-up level shares its bitmap words out among the warps (XBFS, Gaihre et al.,
/// HPDC 2019, section 5.1). Whatever the strategy, one warp handles a whole word, so it writes
/// the word of the next frontier and of the visited bitmap alone, without atomics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Balance {
    /// XBFS's static solution: warp `w` takes words `w, w + warps, ...` (grid stride), one
    /// lane per vertex.
    Static = 0,
    /// Thread-centric dynamic fetching (XBFS Algorithm 1): one lane per vertex, but a warp that
    /// finishes its words fetches the next ones from a grid-wide work counter, so warps with
    /// long searches do not hold up the level. The fetch is warp-aggregated (lane 0 adds,
    /// a shuffle broadcasts; XBFS's refinement in Algorithm 2), since a word is a warp's unit.
    Thread = 1,
    /// Warp-centric search (XBFS Algorithm 2's dynamic fetching, with the warp cooperating on
    /// one vertex at a time as in XBFS's intra-warp work donation): a fetched word's unvisited
    /// vertices are searched one after another, each by all 32 lanes, 32 in-neighbors a round,
    /// so a vertex with a long search no longer idles 31 lanes.
    Warp = 2,
}

/// Bitmap words a warp takes at once in a synchronous, statically balanced bottom-up level:
/// the kernel's choice from the graph's size, or a power of two up to 32 (1 is the
/// word-by-word loop). Graphs read over the bus always take 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BottomUpChunk {
    /// 0 for the kernel's choice, `k` in 1..=6 for `2^(k - 1)` words.
    code: u32,
}

impl BottomUpChunk {
    /// The chunk widths the kernel takes, in words: 0 (its choice) and the powers of two to 32.
    pub const WORDS: [u32; 7] = [0, 1, 2, 4, 8, 16, 32];
    pub const KERNEL_CHOICE: BottomUpChunk = BottomUpChunk { code: 0 };

    /// The chunk of `words` bitmap words, 0 for the kernel's choice; `None` for other widths.
    pub const fn from_words(words: u32) -> Option<BottomUpChunk> {
        if words == 0 {
            Some(BottomUpChunk::KERNEL_CHOICE)
        } else if words.is_power_of_two() && words <= 32 {
            Some(BottomUpChunk { code: words.trailing_zeros() + 1 })
        } else {
            None
        }
    }

    /// Words per chunk, 0 for the kernel's choice.
    #[inline(always)]
    pub const fn words(self) -> u32 {
        match self.code {
            0 => 0,
            k => 1 << (if k < 6 { k } else { 6 } - 1),
        }
    }
}

/// The persistent kernels' `flags` parameter: named bits, the bottom-up [`Balance`] in bits
/// 4-5 and the [`BottomUpChunk`] in bits 11-13.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PersistentFlags(u32);

impl PersistentFlags {
    pub const NONE: PersistentFlags = PersistentFlags(0);
    /// Bottom-up levels are allowed (else every level is top-down).
    pub const BOTTOM_UP: PersistentFlags = PersistentFlags(1 << 0);
    /// Block 0 may expand small frontiers alone (Luo et al.'s hierarchical arrangement).
    pub const SMALL_FRONTIERS: PersistentFlags = PersistentFlags(1 << 1);
    /// The offsets are in mapped host memory (for the trace's bus figures).
    pub const OFFSETS_MAPPED: PersistentFlags = PersistentFlags(1 << 2);
    /// The lists are in mapped host memory (for the trace's bus figures).
    pub const LISTS_MAPPED: PersistentFlags = PersistentFlags(1 << 3);
    /// Asynchronous bottom-up labeling (XBFS section 5.2, Algorithm 3).
    pub const ASYNC_BOTTOM_UP: PersistentFlags = PersistentFlags(1 << 6);
    /// Distances only: no parent is written anywhere, and `parents` may be null.
    pub const DISTANCES_ONLY: PersistentFlags = PersistentFlags(1 << 7);
    /// Switch directions by XBFS's edge-check rule (section 4.3) instead of Beamer's.
    pub const SWITCH_XBFS: PersistentFlags = PersistentFlags(1 << 8);
    /// Adaptive frontier generation (XBFS section 4: single-scan before a predicted switch to
    /// bottom-up, direct emission before a predicted switch back); without it every top-down
    /// level enqueues and every bottom-up level writes only its bitmap.
    pub const ADAPTIVE_FRONTIER: PersistentFlags = PersistentFlags(1 << 9);
    /// Bottom-up levels over a queue of the unvisited vertices built by XBFS's double-scan
    /// (section 4.2) instead of over the visited bitmap's words. Synchronous bottom-up with
    /// static balance, on a graph in device memory, only (the host refuses other combinations).
    pub const DOUBLE_SCAN: PersistentFlags = PersistentFlags(1 << 10);
    /// Switch directions by the checks rule ([`RuleKind::Checks`]).
    pub const SWITCH_CHECKS: PersistentFlags = PersistentFlags(1 << 14);
    /// The first bottom-up level of each bottom-up stretch runs as a launch of its own
    /// (`bfs_persistent_bottom_up` or `bfs_persistent_bottom_up_words`, as
    /// [`split_level_by_words`] picks, at more warps an SM than the cooperative launch holds):
    /// the persistent kernel records the next level's state in the handoff words, sets `stopped`
    /// and returns before the level; the host then queues both split-level kernels and the
    /// persistent kernel again with [`Self::RESUME`]. Synchronous bottom-up levels over a
    /// plain CSR only (neither [`Self::ASYNC_BOTTOM_UP`] nor [`Self::DOUBLE_SCAN`]).
    pub const SPLIT_BOTTOM_UP: PersistentFlags = PersistentFlags(1 << 15);
    /// Start from the state the handoff words hold (a launch after the split-level kernels)
    /// instead of level 0.
    pub const RESUME: PersistentFlags = PersistentFlags(1 << 16);
    /// With [`Self::SPLIT_BOTTOM_UP`]: every bottom-up level runs apart, not only the first of
    /// each stretch (the persistent kernel stops before each).
    pub const SPLIT_EVERY_BOTTOM_UP: PersistentFlags = PersistentFlags(1 << 17);

    const BALANCE_SHIFT: u32 = 4;
    const CHUNK_SHIFT: u32 = 11;

    /// The flag word as the kernels take it.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every bit of `other` is set.
    #[inline(always)]
    pub const fn contains(self, other: PersistentFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// These flags with `other`'s bits set too where `on`.
    #[inline(always)]
    pub const fn with(self, other: PersistentFlags, on: bool) -> PersistentFlags {
        PersistentFlags(if on { self.0 | other.0 } else { self.0 & !other.0 })
    }

    /// These flags with bits 4-5 set to `balance`.
    pub const fn with_balance(self, balance: Balance) -> PersistentFlags {
        PersistentFlags(self.0 & !(3 << Self::BALANCE_SHIFT) | (balance as u32) << Self::BALANCE_SHIFT)
    }

    /// The bottom-up balance of bits 4-5 (3, which no host sets, reads as static).
    #[inline(always)]
    pub const fn balance(self) -> Balance {
        match (self.0 >> Self::BALANCE_SHIFT) & 3 {
            1 => Balance::Thread,
            2 => Balance::Warp,
            _ => Balance::Static,
        }
    }

    /// These flags with bits 11-13 set to `chunk`.
    pub const fn with_chunk(self, chunk: BottomUpChunk) -> PersistentFlags {
        PersistentFlags(self.0 & !(7 << Self::CHUNK_SHIFT) | chunk.code << Self::CHUNK_SHIFT)
    }

    /// The bottom-up chunk of bits 11-13 (7 reads as 6, 32 words).
    #[inline(always)]
    pub const fn chunk(self) -> BottomUpChunk {
        BottomUpChunk { code: (self.0 >> Self::CHUNK_SHIFT) & 7 }
    }

    /// These flags with the switching rule's bits ([`Self::SWITCH_XBFS`],
    /// [`Self::SWITCH_CHECKS`]) set for `rule`.
    pub const fn with_rule(self, rule: RuleKind) -> PersistentFlags {
        self.with(PersistentFlags::SWITCH_XBFS, matches!(rule, RuleKind::Xbfs))
            .with(PersistentFlags::SWITCH_CHECKS, matches!(rule, RuleKind::Checks))
    }

    /// The switching rule the flags pick (checks before XBFS, Beamer's without either).
    #[inline(always)]
    pub const fn rule(self) -> RuleKind {
        if self.contains(PersistentFlags::SWITCH_CHECKS) {
            RuleKind::Checks
        } else if self.contains(PersistentFlags::SWITCH_XBFS) {
            RuleKind::Xbfs
        } else {
            RuleKind::Beamer
        }
    }
}

impl core::ops::BitOr for PersistentFlags {
    type Output = PersistentFlags;

    fn bitor(self, other: PersistentFlags) -> PersistentFlags {
        PersistentFlags(self.0 | other.0)
    }
}

/// One per-level trace record of the persistent kernels. The record after the last level
/// holds only the end time (`start_time`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct TraceRecord {
    /// [`TraceFlags`] bits.
    pub flags: u64,
    /// Frontier vertices.
    pub frontier: u64,
    /// Edges inspected.
    pub edges: u64,
    /// Graph bytes read (offsets and lists as stored).
    pub bytes: u64,
    /// The same reads rounded out to the memory system's 32-byte sectors: what crosses the bus
    /// when the graph is in mapped host memory (0 when it is in device memory).
    pub bus_bytes: u64,
    /// The frontier's out-edges `m_f` that the switching rule saw.
    pub frontier_edges: u64,
    /// The unvisited vertices' out-edges `m_u` that the switching rule saw.
    pub unvisited_edges: u64,
    /// `%globaltimer` at the level's start.
    pub start_time: u64,
}

/// Words per [`TraceRecord`], and the index of each field's word in a record.
pub const TRACE_WORDS: usize = core::mem::size_of::<TraceRecord>() / 8;
pub const TRACE_FLAGS: usize = core::mem::offset_of!(TraceRecord, flags) / 8;
pub const TRACE_FRONTIER: usize = core::mem::offset_of!(TraceRecord, frontier) / 8;
pub const TRACE_EDGES: usize = core::mem::offset_of!(TraceRecord, edges) / 8;
pub const TRACE_BYTES: usize = core::mem::offset_of!(TraceRecord, bytes) / 8;
pub const TRACE_BUS_BYTES: usize = core::mem::offset_of!(TraceRecord, bus_bytes) / 8;
pub const TRACE_FRONTIER_EDGES: usize = core::mem::offset_of!(TraceRecord, frontier_edges) / 8;
pub const TRACE_UNVISITED_EDGES: usize = core::mem::offset_of!(TraceRecord, unvisited_edges) / 8;
pub const TRACE_TIME: usize = core::mem::offset_of!(TraceRecord, start_time) / 8;

/// The flags word of a persistent [`TraceRecord`].
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TraceFlags(pub u64);

impl TraceFlags {
    /// The level went bottom-up.
    pub const BOTTOM_UP: TraceFlags = TraceFlags(1);
    /// Block 0 expanded it alone.
    pub const ALONE: TraceFlags = TraceFlags(2);
    /// Its frontier queue was packed from the bitmap by one scan first.
    pub const PACKED_QUEUE: TraceFlags = TraceFlags(4);
    /// Its frontier bitmap was scattered from the queue first.
    pub const BUILT_BITMAP: TraceFlags = TraceFlags(8);
    /// It wrote the next frontier as a queue.
    pub const WROTE_QUEUE: TraceFlags = TraceFlags(16);
    /// It wrote the next frontier as a bitmap.
    pub const WROTE_BITMAP: TraceFlags = TraceFlags(32);
    /// The rule's `lambda` predicted that the next level switches direction.
    pub const PREDICTED_SWITCH: TraceFlags = TraceFlags(64);
    /// A bottom-up level ran over the double-scan's queue of unvisited vertices.
    pub const DOUBLE_SCAN: TraceFlags = TraceFlags(128);

    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    #[inline(always)]
    pub const fn contains(self, other: TraceFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

/// The field list of `bfs_persistent_init`'s parameters.
#[macro_export]
macro_rules! bfs_persistent_init_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_persistent_init`'s parameters: the labels (`parents` may be null), the
            /// visited bitmap, the three frontier bitmaps (or null, for the edge-queue
            /// kernel), the first queue, and `unreachable`, a bitmap of the vertices with an
            /// empty in-list, or null.
            kernel bfs_persistent_init, in [$crate::bfs::persistent], struct BfsPersistentInitParams {
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                frontier_bits: $crate::DevicePtrMut<u32>,
                queue: $crate::DevicePtrMut<u32>,
                n: u32,
                source: u32,
                unreachable: $crate::DevicePtr<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_persistent`'s parameters: the plain CSR, then what both persistent
/// kernels take ([`bfs_persistent_common_fields!`](crate::bfs_persistent_common_fields)).
#[macro_export]
macro_rules! bfs_persistent_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::bfs_persistent_common_fields! {
            $callback $(=> $run)?,
            /// `bfs_persistent`'s parameters: a plain CSR (`out_*`) and its transpose (`in_*`;
            /// the same arrays for an undirected graph), then the traversal's buffers and tuning.
            kernel bfs_persistent, struct BfsPersistentParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_targets: $crate::DevicePtr<u32>,
                in_offsets: $crate::DevicePtr<u64>,
                in_targets: $crate::DevicePtr<u32>,
            }
        }
    };
}

/// The field list of `bfs_persistent_bottom_up`'s parameters: `bfs_persistent`'s.
#[macro_export]
macro_rules! bfs_persistent_bottom_up_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::bfs_persistent_common_fields! {
            $callback $(=> $run)?,
            /// `bfs_persistent_bottom_up`'s parameters: `bfs_persistent`'s, for the one level
            /// a [`PersistentFlags::SPLIT_BOTTOM_UP`] launch left to it.
            kernel bfs_persistent_bottom_up, struct BfsPersistentBottomUpParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_targets: $crate::DevicePtr<u32>,
                in_offsets: $crate::DevicePtr<u64>,
                in_targets: $crate::DevicePtr<u32>,
            }
        }
    };
}

/// The field list of `bfs_persistent_bottom_up_words`' parameters: `bfs_persistent`'s.
#[macro_export]
macro_rules! bfs_persistent_bottom_up_words_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::bfs_persistent_common_fields! {
            $callback $(=> $run)?,
            /// `bfs_persistent_bottom_up_words`' parameters: `bfs_persistent`'s, for the one
            /// level a [`PersistentFlags::SPLIT_BOTTOM_UP`] launch left to it, where its searches
            /// are long ([`split_level_by_words`]).
            kernel bfs_persistent_bottom_up_words, struct BfsPersistentBottomUpWordsParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_targets: $crate::DevicePtr<u32>,
                in_offsets: $crate::DevicePtr<u64>,
                in_targets: $crate::DevicePtr<u32>,
            }
        }
    };
}

/// Which of the two split-level kernels runs a level a [`PersistentFlags::SPLIT_BOTTOM_UP`]
/// launch left: word by word (`bfs_persistent_bottom_up_words`, a warp a bitmap word in
/// grid-stride order, 64 warps an SM) or in chunks of words (`bfs_persistent_bottom_up`, 48
/// warps an SM). A chunk the host chose decides it (`chunk_words`, as
/// [`BottomUpChunk::words`] gives it): 1 is the word-by-word loop, which the first kernel runs
/// in fewer registers than the second (bench/NOTES.md entry 142). The kernel's choice (0)
/// goes by the level's frontier and the vertices still unvisited after it: word by word where
/// fewer than one vertex in 32 of those is in the frontier, so most searches read far into
/// their in-lists and the level is bound by how many are in flight; else chunks, whose
/// coalesced reads of the visited words pay where searches end early (entry 135). Both kernels
/// launch; the one not chosen returns at once.
pub const fn split_level_by_words(chunk_words: u32, frontier: u32, unvisited_after: u32) -> bool {
    match chunk_words {
        0 => (frontier as u64) * 32 < unvisited_after as u64,
        words => words == 1,
    }
}

/// The field list of `bfs_persistent_compressed`'s parameters: the compressed CSR with its
/// degrees and restart table, then what both persistent kernels take.
#[macro_export]
macro_rules! bfs_persistent_compressed_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::bfs_persistent_common_fields! {
            $callback $(=> $run)?,
            /// `bfs_persistent_compressed`'s parameters: a delta-varint compressed CSR
            /// (`*_offsets` count bytes into `*_bytes`), the out-degrees, and the restart
            /// points of the long lists (`restart_points`, `long_vertices`, `long_first`,
            /// `long_count`), then the traversal's buffers and tuning.
            kernel bfs_persistent_compressed, struct BfsPersistentCompressedParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_bytes: $crate::DevicePtr<u8>,
                in_offsets: $crate::DevicePtr<u64>,
                in_bytes: $crate::DevicePtr<u8>,
                degrees: $crate::DevicePtr<u32>,
                restart_points: $crate::DevicePtr<u64>,
                long_vertices: $crate::DevicePtr<u32>,
                long_first: $crate::DevicePtr<u32>,
                long_count: u32,
            }
        }
    };
}

/// Appends the parameters both persistent kernels take, after their graph arrays, to a field
/// list and hands it to `$callback`.
#[doc(hidden)]
#[macro_export]
macro_rules! bfs_persistent_common_fields {
    (
        $callback:path $(=> $run:path)?,
        $(#[$meta:meta])*
        kernel $kernel:ident, struct $name:ident { $($graph:tt)* }
    ) => {
        $callback! {
            $(#[$meta])*
            kernel $kernel, in [$crate::bfs::persistent], struct $name {
                $($graph)*
                n: u32,
                total_edges: u64,
                max_out_degree: u64,
                distances: $crate::DevicePtrMut<u32>,
                /// Null, and never touched, with [`PersistentFlags::DISTANCES_ONLY`].
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                frontier_bits: $crate::DevicePtrMut<u32>,
                queues: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<$crate::bfs::persistent::PersistentControl>,
                shared_lists: $crate::DevicePtrMut<u64>,
                shared_list_capacity: u32,
                trace: $crate::DevicePtrMut<u64>,
                trace_capacity: u32,
                alpha: f32,
                beta: f32,
                flags: $crate::bfs::persistent::PersistentFlags,
                /// Null, or the first `HEAD_NEIGHBORS` in-neighbors of every vertex.
                in_heads: $crate::DevicePtr<u32>,
                /// Null, or (compressed lists) the bytes those neighbors take in each in-list.
                in_head_skips: $crate::DevicePtr<u8>,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_persistent_init_fields!(crate::kernel_params);
crate::bfs_persistent_fields!(crate::kernel_params);
crate::bfs_persistent_compressed_fields!(crate::kernel_params);
crate::bfs_persistent_bottom_up_fields!(crate::kernel_params);
crate::bfs_persistent_bottom_up_words_fields!(crate::kernel_params);

/// The split-level kernels' parameters are `bfs_persistent`'s fields: each converts from and to
/// [`BfsPersistentParams`], field by field, from its field list.
macro_rules! same_fields_as_plain {
    (
        $(#[$meta:meta])*
        kernel $kernel:ident, in [$($module:tt)*], struct $name:ident {
            $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        impl From<BfsPersistentParams> for $name {
            fn from(plain: BfsPersistentParams) -> $name {
                $name { $($field: plain.$field),* }
            }
        }

        impl From<$name> for BfsPersistentParams {
            fn from(split: $name) -> BfsPersistentParams {
                BfsPersistentParams { $($field: split.$field),* }
            }
        }
    };
}
crate::bfs_persistent_bottom_up_fields!(same_fields_as_plain);
crate::bfs_persistent_bottom_up_words_fields!(same_fields_as_plain);

const _: () = assert!(core::mem::size_of::<PersistentControl>() == 8 * 21);
const _: () = assert!(core::mem::size_of::<TraceRecord>() == 8 * 8);
