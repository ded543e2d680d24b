//! The connected-components kernels' interface: one cooperative launch runs a whole
//! Afforest (or Shiloach-Vishkin) computation, over plain lists (`cc_persistent`) or
//! delta-varint compressed ones (`cc_persistent_compressed`). Here: the block size, the
//! control block, the flags, the trace records and the parameter field lists. The partitioned
//! merge's kernels are in [`partitioned`], the Hopper cluster's in [`cluster`].

pub mod cluster;
pub mod partitioned;

/// Threads per block; the host launches the CC kernels with exactly this many.
pub const CC_BLOCK: u32 = 256;

/// The most vertices the sampling step samples: their roots are counted in a hash table of
/// this many slots in one block's shared memory.
pub const MAX_SAMPLES: u32 = 2048;

/// In-neighbors per vertex in the kernels' `in_heads` array (the host's list heads).
pub use crate::graph::HEAD_NEIGHBORS;

/// Giant hooks' test of the first sampling ([`CcFlags::GIANT_HOOKS`]): the most frequent root
/// after the first neighbor round becomes the giant only if it holds at least one sample in
/// this many. After one round a uniform random graph's largest tree holds too few vertices to
/// be the giant, and hooking toward it made urand:22 a third slower; Kronecker graphs, grids
/// and roads gain from giant hooks. Of 1,024 samples the most frequent root held 2 (urand:22),
/// 3 (urand:20), 9 (USA-road-d.NY), 52 (kron:22), 209 (kron:24) and all (grids): bench/NOTES.md
/// 106. Below the test, the kernel samples again after the last round, as without giant hooks.
pub const GIANT_MIN_SHARE: u32 = 256;

/// The largest aligned range of vertex ids a block links in its shared memory before anything
/// else (the kernels' `local_chunk`, [`CcFlags`]'s block-local linking): the block's array of
/// parents takes this many words.
pub const LOCAL_CHUNK_MAX: u32 = 2048;

/// The smallest `local_chunk`: one tile of the block's threads.
pub const LOCAL_CHUNK_MIN: u32 = CC_BLOCK;

/// [`CcFlags::SCATTERED_ROUNDS`]' step between tiles: a prime above 2^27, the most tiles of 32
/// ids (or more) a `u32` vertex count makes, so it is coprime to every tile count and
/// multiplying by it modulo the count visits every tile once (Knuth's multiplicative-hash
/// constant, 2654435761).
pub const SCATTER_MULTIPLIER: u64 = 2_654_435_761;

/// "No component" in [`CcControl::largest`]: sampling was off, every vertex takes part in the
/// final link.
pub const NO_COMPONENT: u32 = u32::MAX;

/// Bookkeeping shared by the grid, in global memory; the host zeroes it before the launch.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct CcControl {
    /// Grid-barrier arrivals.
    pub barrier_arrivals: u32,
    /// Output: the label that sampling found most frequent, or [`NO_COMPONENT`].
    pub largest: u32,
    /// Output: trace records written (the record after them holds only the end time).
    pub records: u32,
    /// Output: Shiloach-Vishkin hooking passes (0 for Afforest).
    pub passes: u32,
    /// Shiloach-Vishkin: whether a hooking pass changed a label, one word per pass, rotating
    /// over three (pass `p` sets word `p % 3`, which its leader cleared in pass `p - 1`).
    pub changed: [u32; 3],
    /// Giant hooks ([`CcFlags::GIANT_HOOKS`]): the smallest vertex of the sampled giant
    /// component found so far (the sampling writes the giant's root, hooks lower it).
    pub giant_min: u32,
    /// Output: 1 when the kernel counts walk steps and swaps into the trace (built with the
    /// device crate's `cc-tallies` feature), else 0.
    pub tallied: u32,
    pub spare: u32,
}

/// Words of 64 bits that hold a [`CcControl`] (the host allocates it as such).
pub const CC_CONTROL_WORDS: usize = core::mem::size_of::<CcControl>() / 8;

/// The CC kernels' `flags` parameter.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CcFlags(u32);

impl CcFlags {
    pub const NONE: CcFlags = CcFlags(0);
    /// The graph is directed: the in-lists are its transpose, and the final link also reads
    /// every out-list whole (weakly connected components).
    pub const DIRECTED: CcFlags = CcFlags(1 << 0);
    /// Run Shiloach-Vishkin hooking and pointer jumping over every edge instead of Afforest.
    pub const SHILOACH_VISHKIN: CcFlags = CcFlags(1 << 1);
    /// Afforest's first neighbor round is ECL-CC's initialisation: every vertex's label is its
    /// first (smallest) in-neighbor where that is smaller than the vertex, written without a
    /// walk or a swap; the edges to a larger first neighbor are linked in the next round.
    pub const SMALLER_NEIGHBOR_INIT: CcFlags = CcFlags(1 << 3);
    /// Every label is pointed at its root after each neighbor round but the last (as the GAP
    /// suite's Afforest compresses), so the next round's walks start one step from the root.
    pub const ROUND_COMPRESSION: CcFlags = CcFlags(1 << 4);
    /// Afforest samples after the first neighbor round and, when the most frequent root holds
    /// at least one sample in [`GIANT_MIN_SHARE`], hooks every tree that meets that giant under
    /// the giant's root, whatever their order, so that the giant's root is never swapped on;
    /// the last compression names the giant by its smallest vertex. A smaller most frequent
    /// tree is sampled again after the last round, as without this flag.
    pub const GIANT_HOOKS: CcFlags = CcFlags(1 << 5);
    /// Every edge is in the lists of both its ends (an undirected graph): block-local linking
    /// and its cross link take each edge once, from its larger end.
    pub const SYMMETRIC: CcFlags = CcFlags(1 << 6);
    /// The plain kernel's neighbor rounds take one vertex a thread at a time instead of a batch
    /// of four: on graphs of many edges a vertex, where a thread's list walks keep its loads in
    /// flight and four vertices' finds meet on the same hot roots (bench/NOTES.md 120). The
    /// compressions and the naming pass keep four; the compressed kernel always batches.
    pub const SINGLE_VERTICES: CcFlags = CcFlags(1 << 7);
    /// Afforest's neighbor rounds visit the graph's tiles of `CC_BLOCK` vertex ids (a block's
    /// at a time) in a scattered order (tile `t` at step `t * SCATTER_MULTIPLIER mod tiles`)
    /// instead of warp by warp in id order: where ids follow a mesh's rows, the swaps and walks
    /// of the rows in flight no longer all land on the same few megabytes of labels
    /// (bench/NOTES.md 136).
    pub const SCATTERED_ROUNDS: CcFlags = CcFlags(1 << 8);

    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    #[inline(always)]
    pub const fn contains(self, other: CcFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// These flags with `other`'s bits set too where `on`.
    #[inline(always)]
    pub const fn with(self, other: CcFlags, on: bool) -> CcFlags {
        CcFlags(if on { self.0 | other.0 } else { self.0 & !other.0 })
    }
}

/// What a trace record's phase word names: [`TracePhase::code`] in the low byte, the round in
/// the bits above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TracePhase {
    /// Afforest's neighbor round `r` (round 0 also initializes the labels).
    NeighborRound(u32),
    /// Sampling the largest intermediate component (block 0) and, beside it, pointing every
    /// label at its root (every block) for the final link's skip test.
    Sampling,
    /// Afforest's final link, or one Shiloach-Vishkin hooking pass.
    FinalLink,
    /// Pointer jumping: Afforest's last compression, or one Shiloach-Vishkin pass's.
    Compression,
    /// Block-local linking: each block joins the edges inside its aligned range of vertex ids
    /// in shared memory and writes the range's labels.
    LocalLink,
    /// Block-local linking's last phase: every component named by its smallest vertex.
    Naming,
    /// `cc_cluster`: one thread-block cluster links every edge in its distributed shared
    /// memory (its compression and naming are [`TracePhase::Compression`] and
    /// [`TracePhase::Naming`]).
    ClusterLink,
}

impl TracePhase {
    /// The record's phase word.
    #[inline(always)]
    pub const fn word(self) -> u64 {
        match self {
            TracePhase::NeighborRound(round) => (round as u64) << 8,
            TracePhase::Sampling => 1,
            TracePhase::FinalLink => 2,
            TracePhase::Compression => 3,
            TracePhase::LocalLink => 4,
            TracePhase::Naming => 5,
            TracePhase::ClusterLink => 6,
        }
    }

    /// The phase a record's word names; `None` for a word no kernel writes.
    pub const fn from_word(word: u64) -> Option<TracePhase> {
        match word & 0xff {
            0 => Some(TracePhase::NeighborRound((word >> 8) as u32)),
            1 => Some(TracePhase::Sampling),
            2 => Some(TracePhase::FinalLink),
            3 => Some(TracePhase::Compression),
            4 => Some(TracePhase::LocalLink),
            5 => Some(TracePhase::Naming),
            6 => Some(TracePhase::ClusterLink),
            _ => None,
        }
    }
}

/// One per-phase trace record of the CC kernels, written by block 0's thread 0 (phase, start
/// time) and every block (its reads, walks and swaps, summed per block and added by one atomic
/// each). The record after the last phase holds only the end time.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct CcTraceRecord {
    /// [`TracePhase::word`].
    pub phase: u64,
    /// Graph bytes read: offsets, lists as stored, and list heads.
    pub bytes: u64,
    /// `%globaltimer` at the phase's start.
    pub start_time: u64,
    /// Label reads of the phase's walks to roots (each a dependent trip).
    pub steps: u64,
    /// Compare-and-swaps on roots issued.
    pub swaps: u64,
    /// Of those, the ones that found the root already hooked and retried.
    pub failed_swaps: u64,
}

/// Words per [`CcTraceRecord`], and the index of each field's word in a record.
pub const CC_TRACE_WORDS: usize = core::mem::size_of::<CcTraceRecord>() / 8;
pub const CC_TRACE_PHASE: usize = core::mem::offset_of!(CcTraceRecord, phase) / 8;
pub const CC_TRACE_BYTES: usize = core::mem::offset_of!(CcTraceRecord, bytes) / 8;
pub const CC_TRACE_TIME: usize = core::mem::offset_of!(CcTraceRecord, start_time) / 8;
pub const CC_TRACE_STEPS: usize = core::mem::offset_of!(CcTraceRecord, steps) / 8;
pub const CC_TRACE_SWAPS: usize = core::mem::offset_of!(CcTraceRecord, swaps) / 8;
pub const CC_TRACE_FAILED_SWAPS: usize = core::mem::offset_of!(CcTraceRecord, failed_swaps) / 8;

/// The field list of `cc_persistent`'s parameters: the plain CSR, then what both CC kernels
/// take.
#[macro_export]
macro_rules! cc_persistent_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::cc_common_fields! {
            $callback $(=> $run)?,
            /// `cc_persistent`'s parameters: a plain CSR (`out_*`) and its transpose (`in_*`; the
            /// same arrays for an undirected graph), then the run's buffers and options.
            kernel cc_persistent, struct CcPersistentParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_targets: $crate::DevicePtr<u32>,
                in_offsets: $crate::DevicePtr<u64>,
                in_targets: $crate::DevicePtr<u32>,
            }
        }
    };
}

/// The field list of `cc_persistent_compressed`'s parameters: the compressed CSR and its
/// transpose with their degrees, then what both CC kernels take.
#[macro_export]
macro_rules! cc_persistent_compressed_fields {
    ($callback:path $(=> $run:path)?) => {
        $crate::cc_common_fields! {
            $callback $(=> $run)?,
            /// `cc_persistent_compressed`'s parameters: a delta-varint compressed CSR and its
            /// transpose (`*_offsets` count bytes into `*_bytes`; the same arrays for an
            /// undirected graph) with the degrees of each, then the run's buffers and options.
            kernel cc_persistent_compressed, struct CcPersistentCompressedParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_bytes: $crate::DevicePtr<u8>,
                out_degrees: $crate::DevicePtr<u32>,
                in_offsets: $crate::DevicePtr<u64>,
                in_bytes: $crate::DevicePtr<u8>,
                in_degrees: $crate::DevicePtr<u32>,
            }
        }
    };
}

/// Appends the parameters both CC kernels take, after their graph arrays, to a field list and
/// hands it to `$callback`.
#[doc(hidden)]
#[macro_export]
macro_rules! cc_common_fields {
    (
        $callback:path $(=> $run:path)?,
        $(#[$meta:meta])*
        kernel $kernel:ident, struct $name:ident { $($graph:tt)* }
    ) => {
        $callback! {
            $(#[$meta])*
            kernel $kernel, in [$crate::cc], struct $name {
                $($graph)*
                n: u32,
                labels: $crate::DevicePtrMut<u32>,
                control: $crate::DevicePtrMut<$crate::cc::CcControl>,
                trace: $crate::DevicePtrMut<u64>,
                trace_capacity: u32,
                neighbor_rounds: u32,
                samples: u32,
                seed: u64,
                flags: $crate::cc::CcFlags,
                /// 0, or block-local linking's range of vertex ids: a power of two from
                /// `LOCAL_CHUNK_MIN` to `LOCAL_CHUNK_MAX` (plain lists only).
                local_chunk: u32,
                /// Null, or the first `HEAD_NEIGHBORS` in-neighbors of every vertex.
                in_heads: $crate::DevicePtr<u32>,
                /// Null, or (compressed lists) the bytes those neighbors take in each in-list.
                in_head_skips: $crate::DevicePtr<u8>,
            }
            $(=> $run)?
        }
    };
}

crate::cc_persistent_fields!(crate::kernel_params);
crate::cc_persistent_compressed_fields!(crate::kernel_params);

const _: () = assert!(core::mem::size_of::<CcControl>() == 8 * 5);
const _: () = assert!(core::mem::size_of::<CcTraceRecord>() == 8 * 6);
const _: () = assert!(MAX_SAMPLES.is_power_of_two() && MAX_SAMPLES % CC_BLOCK == 0);
const _: () = assert!(LOCAL_CHUNK_MAX.is_power_of_two() && LOCAL_CHUNK_MIN.is_power_of_two());
// Block-local linking keeps its trees' smallest members in the sampling's table.
const _: () = assert!(LOCAL_CHUNK_MAX <= MAX_SAMPLES);

#[cfg(test)]
mod tests;
