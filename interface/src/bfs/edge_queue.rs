//! The edge-queue BFS (`bfs_edge_queue`): block size, the `strategy` word, the control block
//! and the trace records.

/// Threads per block; the host launches the kernel with exactly this many.
pub const EDGE_QUEUE_BLOCK: u32 = 256;

/// How a level couples contraction and expansion (Merrill, Garland and Grimshaw, PPoPP 2012,
/// sections 5.2-5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum EdgeQueueKind {
    /// Contract-expand: fused, one grid barrier a level.
    ContractExpand = 0,
    /// Two-phase: contraction and expansion separated by a grid barrier.
    TwoPhase = 1,
    /// Two-phase when the edge queue holds more items than the grid has threads, else fused.
    Hybrid = 2,
}

/// The kernel's `strategy` parameter: the [`EdgeQueueKind`] in the low byte, bit 8
/// ([`Self::SPREAD_TILES`]) and the sub-grid tier's block count from bit 16.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeQueueStrategy(u32);

impl EdgeQueueStrategy {
    /// Spread a small level's tiles over the warps of every block; the host sets it for
    /// graphs with lists of 32 edges or more.
    const SPREAD_TILES: u32 = 1 << 8;
    const SUB_GRID_SHIFT: u32 = 16;
    /// The largest sub-grid tier the word holds.
    pub const MAX_SUB_GRID_BLOCKS: u32 = u32::MAX >> Self::SUB_GRID_SHIFT;

    /// `kind`, with tiles spread or not, without a sub-grid tier.
    pub const fn new(kind: EdgeQueueKind, spread_tiles: bool) -> EdgeQueueStrategy {
        EdgeQueueStrategy(kind as u32 | if spread_tiles { Self::SPREAD_TILES } else { 0 })
    }

    /// This strategy with a sub-grid tier of `blocks` blocks (0: none), at most
    /// [`Self::MAX_SUB_GRID_BLOCKS`].
    pub const fn with_sub_grid_blocks(self, blocks: u32) -> EdgeQueueStrategy {
        EdgeQueueStrategy(self.0 & ((1 << Self::SUB_GRID_SHIFT) - 1) | blocks << Self::SUB_GRID_SHIFT)
    }

    /// The word as the kernel takes it.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The strategy's kind (an unknown low byte, which [`Self::new`] never makes, reads as
    /// hybrid).
    #[inline(always)]
    pub const fn kind(self) -> EdgeQueueKind {
        match self.0 & 0xff {
            0 => EdgeQueueKind::ContractExpand,
            1 => EdgeQueueKind::TwoPhase,
            _ => EdgeQueueKind::Hybrid,
        }
    }

    #[inline(always)]
    pub const fn spread_tiles(self) -> bool {
        self.0 & Self::SPREAD_TILES != 0
    }

    /// Blocks of the sub-grid tier: the first blocks of the grid, which run the fused levels
    /// whose queue holds at most a thread's item each of theirs while the rest of the grid
    /// waits (0: no tier).
    #[inline(always)]
    pub const fn sub_grid_blocks(self) -> u32 {
        self.0 >> Self::SUB_GRID_SHIFT
    }
}

/// Bookkeeping shared by the grid, in global memory; the host zeroes it. Counters rotate over
/// three slots by level, as in the persistent kernel's control block: level `l` reads
/// `edge_count[l % 3]`, fills `edge_count[(l + 1) % 3]` and `vertex_count[l % 3]`, and clears
/// the slots that level `l + 1` fills, which nobody reads during level `l`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct EdgeQueueControl {
    /// Grid-barrier arrivals.
    pub barrier_arrivals: u32,
    /// Vertices claimed by the levels using each slot.
    pub vertex_count: [u32; 3],
    /// Edge-queue items written for the levels using each slot.
    pub edge_count: [u64; 3],
    /// Output: levels run, the source's included (the last one claims nothing or expands
    /// nothing).
    pub levels: u32,
    /// The level the grid goes on with after block 0 ran small levels alone, or the sub-grid
    /// medium ones.
    pub handoff_level: u32,
    /// The sub-grid's barrier arrivals.
    pub sub_grid_arrivals: u32,
    /// Unused: keeps the block a whole number of 8-byte words, as the host's copy needs.
    pub spare: u32,
}

/// Words of 64 bits that hold an [`EdgeQueueControl`].
pub const EDGE_QUEUE_CONTROL_WORDS: usize = core::mem::size_of::<EdgeQueueControl>() / 8;

/// One per-level trace record of the edge-queue kernel. The record after the last level holds
/// only the end time (`start_time`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct EdgeTraceRecord {
    /// [`EdgeTraceFlags`] bits.
    pub flags: u64,
    /// Edge-queue items contracted.
    pub items: u64,
    /// Vertices claimed (the level's frontier).
    pub claimed: u64,
    /// `%globaltimer` at the level's start.
    pub start_time: u64,
}

/// Words per [`EdgeTraceRecord`], and the index of each field's word in a record.
pub const EDGE_TRACE_WORDS: usize = core::mem::size_of::<EdgeTraceRecord>() / 8;
pub const EDGE_TRACE_FLAGS: usize = core::mem::offset_of!(EdgeTraceRecord, flags) / 8;
pub const EDGE_TRACE_ITEMS: usize = core::mem::offset_of!(EdgeTraceRecord, items) / 8;
pub const EDGE_TRACE_CLAIMED: usize = core::mem::offset_of!(EdgeTraceRecord, claimed) / 8;
pub const EDGE_TRACE_TIME: usize = core::mem::offset_of!(EdgeTraceRecord, start_time) / 8;

/// The flags word of an [`EdgeTraceRecord`].
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EdgeTraceFlags(pub u64);

impl EdgeTraceFlags {
    /// The level contracted and expanded in one fused pass (contract-expand); else two-phase.
    pub const FUSED: EdgeTraceFlags = EdgeTraceFlags(1);
    /// Block 0 ran the level alone (the small-queue path).
    pub const ALONE: EdgeTraceFlags = EdgeTraceFlags(2);
    /// The sub-grid ran the level (the medium-queue path).
    pub const SUB_GRID: EdgeTraceFlags = EdgeTraceFlags(4);
    /// A level of `bfs_cluster` (the one-cluster kernel, which writes these records too).
    pub const CLUSTER: EdgeTraceFlags = EdgeTraceFlags(8);

    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    #[inline(always)]
    pub const fn contains(self, other: EdgeTraceFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

/// The field list of `bfs_edge_queue`'s parameters.
#[macro_export]
macro_rules! bfs_edge_queue_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_edge_queue`'s parameters: a plain CSR, the labels (`parents` and
            /// `parent_queues` null for a distances-only BFS), the visited bitmap, the vertex
            /// queue, two edge queues of `edge_capacity` entries back to back (the parent
            /// queues alike), the control block, the trace and the strategy.
            kernel bfs_edge_queue, in [$crate::bfs::edge_queue], struct BfsEdgeQueueParams {
                offsets: $crate::DevicePtr<u64>,
                targets: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                vertex_queue: $crate::DevicePtrMut<u32>,
                edge_queues: $crate::DevicePtrMut<u32>,
                parent_queues: $crate::DevicePtrMut<u32>,
                edge_capacity: u64,
                control: $crate::DevicePtrMut<$crate::bfs::edge_queue::EdgeQueueControl>,
                trace: $crate::DevicePtrMut<u64>,
                trace_capacity: u32,
                strategy: $crate::bfs::edge_queue::EdgeQueueStrategy,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_edge_queue_fields!(crate::kernel_params);

const _: () = assert!(core::mem::size_of::<EdgeQueueControl>() == 8 * 7);
const _: () = assert!(core::mem::size_of::<EdgeTraceRecord>() == 8 * 4);
