//! One rank's levels of the partitioned BFS on its own GPU ([`GpuPart`]): the rank's part is
//! placed once by the single-GPU runtime (its out-lists, and on a directed graph its in-lists,
//! in device memory), and each level runs the `bfs_part_*` kernels (`device/src/bfs/partitioned.rs`:
//! Merrill et al., section 6, for the level structure; Beamer et al. for bottom-up) under the
//! same level loop as the CPU ranks ([`run_levels`]).
//!
//! What crosses between ranks, per level:
//! - top-down: the ghosts this rank reached first, as (vertex, parent) pairs sent device to
//!   device to their owners ([`DeviceGather::all_to_all_v_on_device_known`]), the lengths
//!   all-gathered first, or, where the frontier has few out-edges, in as many slots as the
//!   pairs could need, fixed before the level (no host round trip for the lengths:
//!   [`PartitionedOptions::padded_pairs`]); where the cut delegates hubs ([`Hubs`]) and the
//!   frontier holds some, first the frontier's hubs, a bit a hub summed over the ranks, whose
//!   pieces every rank then expands itself, so a hub's edges send no pairs;
//! - bottom-up: every rank's share of the frontier bitmap, all-gathered device to device
//!   ([`DeviceGather`]: NCCL on the rank's stream, or staged through the host for ranks that
//!   are threads of one process) into the global bitmap (laid out there after the gather where
//!   the parts' ranges differ in length); or, for a frontier of at most one vertex in
//!   [`PartitionedOptions::sparse_frontier_share`], every rank's queue of ids, set in the
//!   cleared global bitmap (`bfs_part_scatter_ids`);
//! - the level's counters, one small all-gather at the level's end, summed on the host (with
//!   the hubs of the next frontier, where hubs are delegated), which also gives every rank's
//!   frontier length.
//!
//! A part of a 2D partition ([`Part::grid`]: Buluç and Madduri's 2D algorithm, `multi::bfs_2d`)
//! runs the same top-down levels over its block of the matrix ([`Column`]): before its kernels
//! each rank sends its frontier queue to the ranks of its processor column and receives theirs
//! (shifted onto its local ids, `bfs_part_shift_ids`), the kernels expand that column frontier,
//! and the pairs go to their owners, all in the rank's processor row.

mod kernels;

use std::time::{Duration, Instant};

use cudarc::driver::{CudaEvent, CudaSlice};
use warpath_interface::bfs::partitioned::{
    counters, long_list_capacity, BfsPartBeginLevelParams, BfsPartHubListsParams, BfsPartTopDownLongParams,
    LONG_LIST_WORDS, PARTITIONED_BLOCK,
};
use warpath_interface::bfs::partitioned::{lookup, BfsPartGlobalTargetsParams};
use warpath_interface::{names, DeviceAddress};

use crate::engine::{Workspace, VRAM_MARGIN};
use crate::error::{Error, Result};
use crate::gpu::launch::{blocks_of, grid_for, require, resident_blocks, Launch, Residency};
use crate::gpu::{DeviceGraph, GpuContext, GpuError};
use crate::multi::comm::{agree_on, Communicator};
use crate::multi::exchange::{DeviceGather, RowReadback};
use crate::multi::in_process::run_ranks;
use crate::multi::levels::{
    concatenate, run_levels, PartLists, PartitionedOptions, PartitionedTraversal, RankTraversal, RankWork, Step,
    COUNTS, FOUND, FOUND_EDGES, INSPECTED,
};
use crate::multi::partition::GridPlace;
use crate::multi::partition::{Delegation, Hubs, LocalGraph, Part, Partition};
use crate::multi::placement::place_part_lists;
use kernels::{launch_scatter_ids, launch_shift_ids};

/// One rank's part placed on its GPU, with the device buffers its levels use, allocated once
/// and reused by every traversal.
pub struct GpuPart<'p> {
    gpu: &'p GpuContext,
    part: &'p Part,
    out_lists: DeviceGraph,
    /// The in-lists, on a directed graph (an undirected graph's out-lists serve).
    in_lists: Option<DeviceGraph>,
    /// Global ids of the out-lists' ghosts, and of the in-lists' on a directed graph.
    ghosts: CudaSlice<u32>,
    in_ghosts: Option<CudaSlice<u32>>,
    /// How bottom-up levels name in-neighbors.
    in_names: InNames,
    /// This rank's pieces of the hubs' lists, when the part has them, every rank's device
    /// memory holds them and [`PartitionedOptions::delegation`] is not `Off`.
    delegates: Option<Delegates>,
    /// Local labels (owned vertices, then ghosts); parents as global ids.
    distances: CudaSlice<u32>,
    parents: CudaSlice<u32>,
    /// A bit a local vertex: claimed (labelled) this traversal.
    visited: CudaSlice<u32>,
    /// The frontier as a queue of owned local ids, packed from its share bits before a
    /// top-down level.
    frontier: CudaSlice<u32>,
    /// The level's table of long lists, which the long-list kernel expands
    /// ([`long_table_words`]), and that kernel's grid: the blocks resident at once.
    long_table: CudaSlice<u64>,
    long_blocks: u32,
    frontier_len: u32,
    /// The out-degrees of this rank's frontier vertices: what its top-down level inspects.
    frontier_edges: u64,
    /// The frontier exists as share bits only (every level writes bits): a top-down level packs
    /// the queue first.
    queue_stale: bool,
    /// The in-list entries this rank's last level read, when it was bottom-up: what the next
    /// bottom-up level is likely to read at most, which picks how it looks ghosts up.
    bottom_up_inspected: Option<u64>,
    /// The level under way is bottom-up.
    level_bottom_up: bool,
    /// Events around the level's exchange on the rank's stream, where the host did not wait
    /// for it (a bottom-up level's bitmap gather, a top-down level's fixed-size pairs): its time,
    /// read when the level ends.
    exchange_events: (CudaEvent, CudaEvent),
    exchange_on_stream: bool,
    /// How many of this rank's vertices each rank holds as ghosts, the most pairs it can send
    /// this one at a top-down level (settled by [`agree`](Self::agree); empty before).
    ghosts_here: Vec<u64>,
    /// The frontier's out-edges over every rank, from the last level's sums (at level 0 the
    /// source's out-degree, summed before the clock starts), and the most for which a top-down
    /// level sends fixed-size pair slots ([`PartitionedOptions::padded_pairs`]).
    frontier_edges_summed: Option<u64>,
    padded_pairs: u64,
    /// [`PartitionedOptions::sparse_frontier_share`].
    sparse_frontier_share: u64,
    pack_fill: CudaSlice<u32>,
    /// The frontier's share of the global bitmap, as `u32` words padded to the widest part,
    /// and the next level's.
    bits: CudaSlice<u32>,
    next_bits: CudaSlice<u32>,
    /// The ghosts a top-down level claimed, a bit a ghost, which `bfs_part_pack_ghosts` turns
    /// into pairs for their owners.
    ghost_bits: CudaSlice<u32>,
    /// Every rank's share, as gathered, where the parts' ranges differ in length; laid end to
    /// end into the global bitmap, one bit a global vertex. Where every range but the last is
    /// one share long ([`Partition`]'s equal ranges), the shares gathered in rank order are the
    /// global bitmap: the gather lands there, and there is no `gathered`.
    gathered: Option<CudaSlice<u32>>,
    global_bits: CudaSlice<u32>,
    /// [`PartitionedOptions::bottom_up_chunks`]: the launches of a bottom-up level.
    bottom_up_chunks: u32,
    /// Blocks a chunk's launch runs at most: those resident at once on every multiprocessor but
    /// [`PartitionedOptions::chunk_spare_sms`], which the collective beside it takes (no cap
    /// where none is spared); 0 where levels are not chunked.
    chunk_blocks: u32,
    /// The next frontier's global bitmap, gathered piece by piece while a chunked bottom-up
    /// level runs (`search_bottom_up`), and swapped with `global_bits` at the next level if
    /// that is bottom-up too; `None` where levels are not chunked (one chunk, a lone rank,
    /// ranges of unequal length).
    next_global_bits: Option<CudaSlice<u32>>,
    /// The words of the share that a chunked bottom-up level did not gather (its last piece's):
    /// the next level gathers them into `next_global_bits`, which holds the rest, if it is
    /// bottom-up; a top-down level drops them.
    pending_piece: Option<std::ops::Range<usize>>,
    /// Whether `global_bits` holds a frontier of this traversal (a bottom-up level gathered
    /// one): then the top-down kernels skip the ghosts set there.
    seen_gathered: bool,
    /// The frontier over the in-list graph's local ids, what bottom-up searches read.
    local_bits: CudaSlice<u32>,
    /// Ghost discoveries for their owners, and what the owners of other parts sent this one:
    /// (vertex, parent) pairs.
    sent: CudaSlice<u32>,
    received: CudaSlice<u32>,
    /// Pairs for each rank this level, and where each rank's region of `sent` starts (in
    /// pairs: the first index of its ghosts, which are contiguous), on the device and here.
    sent_counts: CudaSlice<u32>,
    /// Every rank's `sent_counts`, gathered at a counted top-down level: row `r` what rank `r`
    /// sends each rank.
    pair_counts: RowReadback,
    ghost_regions: CudaSlice<u32>,
    regions: Vec<u32>,
    counters: CudaSlice<u32>,
    /// The level's counters read back at its end, this rank's and every rank's.
    counts: RowReadback,
    /// Every rank's frontier length (its `NEXT_LEN` at the last level's end): what it sends
    /// where a level trades frontier queues (a 2D part's column, a sparse bottom-up frontier).
    frontier_lens: Vec<u64>,
    /// A 2D part's column ([`Part::grid`]); `None` for a 1D part.
    column: Option<Column>,
}

/// What a level of a 2D part adds to a 1D part's: the frontier it expands is its processor
/// column's, whose ranks hold lists of each other's vertices (each its edges into its own row
/// block), so each level starts by trading the frontier queues along the column.
struct Column {
    /// The ranks of the column, this one included, in rank order.
    ranks: Vec<usize>,
    /// The column's frontier as this part's local ids, and its length this level.
    queue: CudaSlice<u32>,
    len: u32,
    /// The whole graph's out-degree of each owned vertex ([`GridPlace::degrees`]): what a
    /// vertex labelled here adds to the next frontier's edges.
    degrees: CudaSlice<u32>,
}

impl Column {
    fn place(gpu: &GpuContext, part: &Part, place: &GridPlace) -> Result<Column> {
        let ranks: Vec<usize> = place.column_ranks().collect();
        let column_vertices: u32 = ranks.iter().map(|&r| part.bounds[r + 1] - part.bounds[r]).sum();
        let degrees = if place.degrees.is_empty() { &[0u32][..] } else { &place.degrees };
        Ok(Column {
            ranks,
            queue: gpu.alloc_zeros(column_vertices.max(1) as usize, "the column's frontier")?,
            len: 0,
            degrees: gpu.upload(degrees, "the owned vertices' out-degrees")?,
        })
    }

    /// The column's frontier at the coming level: its ranks' frontiers together.
    fn frontier_len(&self, frontier_lens: &[u64]) -> u64 {
        self.ranks.iter().map(|&r| frontier_lens[r]).sum()
    }
}

// The level's counts are the counters' first `u64`s, in the level loop's order: the level's
// end sums the gathered rows without unpacking them first.
const _: () = assert!(
    counters::NEXT_LEN == 2 * FOUND && counters::FOUND_EDGES == 2 * FOUND_EDGES && counters::INSPECTED == 2 * INSPECTED
);

/// A rank's pieces of the hubs' out-lists on its GPU (vertex delegates, [`Hubs`]), with the
/// buffers that carry which hubs are in the frontier.
struct Delegates {
    /// Out-degree from which a list is a hub's: the frontier kernel skips such a list.
    degree: u64,
    hubs: u32,
    globals: CudaSlice<u32>,
    piece_offsets: CudaSlice<u64>,
    pieces: CudaSlice<u32>,
    /// This rank's own hubs (local ids), hub indices `first_hub..first_hub + owned_len`.
    owned_hubs: CudaSlice<u32>,
    owned_len: u32,
    first_hub: u32,
    /// Own hubs not yet in a frontier this traversal: none left, the level's end flags none
    /// (each hub joins one frontier), and `flags` stays clear.
    owned_left: u64,
    flags_clear: bool,
    /// A bit a hub: this rank's own hubs in the next frontier (`bfs_part_hub_flags`), as
    /// `u64` pairs, and their sum over the ranks (each bit has one owner: the OR).
    flags: CudaSlice<u32>,
    summed_flags: CudaSlice<u64>,
    /// The table the frontier's hubs' pieces are registered in, an entry a hub and one more.
    table: CudaSlice<u64>,
    /// Blocks of the plain long-list kernel that walks the pieces, as many as fit at once (a
    /// compressed part's own long lists have another kernel).
    blocks: u32,
    /// Hubs in the frontier, over every rank.
    in_frontier: u64,
}

/// How a rank's bottom-up levels name the in-neighbors they read.
enum InNames {
    /// The placed in-lists' targets are global ids already (a part that starts at vertex 0 and
    /// has no ghosts: one rank).
    Global,
    /// A device copy of the in-lists' targets as global ids (`bfs_part_global_targets`): every
    /// in-neighbor is read in the global bitmap.
    GlobalCopy(CudaSlice<u32>),
    /// The in-lists' local ids: a ghost is read through the frontier over the local ids or at
    /// its global id (less device memory: no copy of the targets).
    Local,
}

/// Words of a part's long-list table: an entry for every out-list long enough to be one (a 2D
/// part's frontier holds its column's vertices, ghosts with lists, not only its own).
fn long_table_words(part: &Part) -> usize {
    let graph = &part.out_lists.graph;
    let listed = if part.grid.is_some() { graph.num_vertices() as u64 } else { part.owned as u64 };
    LONG_LIST_WORDS * long_list_capacity(listed, graph.num_edges()) as usize
}

/// What a part's level buffers take in device memory (as [`GpuPart::place`] allocates them,
/// in round figures): labels a local vertex, queues an owned one, the bitmaps.
fn level_buffers(part: &Part) -> Workspace {
    let local = part.out_lists.graph.num_vertices() as u64;
    let ghosts = part.out_lists.ghosts().len() as u64;
    let world = (part.bounds.len() - 1) as u64;
    // The global bitmap, the next one of chunked bottom-up levels, their vertices' bits.
    let bitmaps = (world + 4) * 8 * part.bitmap_words_per_part() as u64 + 3 * part.global.vertices / 8;
    let long_table = 8 * long_table_words(part) as u64;
    let labels = 8 * local + local / 8;
    Workspace::new(
        labels + 4 * part.owned as u64 + 8 * ghosts + ghosts / 8 + bitmaps + long_table,
        "the part's level buffers",
    )
}

/// The frontier's bits over every global id that bottom-up levels read: the gathered global
/// bitmap, or a lone rank's own share bits (`GpuPart::alone`), which are all of it.
fn frontier_bitmap<'b>(alone: bool, share: &'b CudaSlice<u32>, global: &'b CudaSlice<u32>) -> &'b CudaSlice<u32> {
    if alone {
        share
    } else {
        global
    }
}

/// `u64` counter at word `index` of the counters read back.
fn wide(words: &[u32], index: usize) -> u64 {
    words[index] as u64 | (words[index + 1] as u64) << 32
}

/// This rank's frontier queue (`queue`: its buffer and length) to each of `ranks` (this one
/// included, its copy made on the device) and theirs from them, `lens[r]` ids from rank `r`
/// (every rank's frontier length, from the last level's counters), into `into` in rank order;
/// then `each(into, r, start, len)` for every rank's stretch that is not empty. Returns the ids
/// received.
fn trade_queues<C: DeviceGather>(
    comm: &mut C,
    gpu: &GpuContext,
    (queue, len): (&CudaSlice<u32>, u32),
    ranks: &[usize],
    lens: &[u64],
    into: &mut CudaSlice<u32>,
    mut each: impl FnMut(&mut CudaSlice<u32>, usize, usize, usize) -> Result<()>,
) -> Result<usize> {
    let world = comm.world_size();
    let (mut regions, mut from) = (vec![(0, 0); world], vec![0; world]);
    for &r in ranks {
        regions[r] = (0, len as usize);
        from[r] = lens[r] as usize;
    }
    let words = comm.all_to_all_v_on_device_known(gpu, queue, &regions, &from, into)?;
    let mut at = 0;
    for (r, &len) in from.iter().enumerate() {
        if len > 0 {
            each(into, r, at, len)?;
        }
        at += len;
    }
    Ok(words)
}

/// A chunked bottom-up level's pieces: the share's `share_words` words in `chunks` runs of
/// about equal length, each with the owned vertices its words hold (empty past `owned`). The
/// shares are equally long on every rank (chunked levels need equal ranges), so every rank
/// gathers the same pieces, whatever it owns.
fn chunk_pieces(owned: u32, share_words: usize, chunks: u32) -> Vec<(std::ops::Range<u32>, std::ops::Range<usize>)> {
    let chunks = chunks.max(1) as usize;
    let word_at = |c: usize| share_words * c / chunks;
    let vertex_at = |word: usize| (32 * word as u64).min(owned as u64) as u32;
    (0..chunks)
        .map(|c| {
            let words = word_at(c)..word_at(c + 1);
            (vertex_at(words.start)..vertex_at(words.end), words)
        })
        .collect()
}

impl<'p> GpuPart<'p> {
    /// Places `part` on `gpu` ([`place_part_lists`], where `options.placement` says) and
    /// allocates the level buffers; with `options.global_in_ids`, a copy of the in-lists'
    /// targets as global ids too when device memory holds it after all that.
    pub fn place(gpu: &'p GpuContext, part: &'p Part, options: &PartitionedOptions) -> Result<GpuPart<'p>> {
        let mut lists = vec![&part.out_lists.graph];
        lists.extend(part.in_lists.as_ref().map(|l| &l.graph));
        let mut placed = place_part_lists(gpu, &lists, level_buffers(part), &options.placement)?.into_iter();
        let out_lists = placed.next().expect("the out-lists placed");
        let in_lists = placed.next();
        let ghost_ids = |lists: &LocalGraph| -> std::result::Result<CudaSlice<u32>, GpuError> {
            let ids = if lists.ghosts().is_empty() { &[0u32][..] } else { lists.ghosts() };
            gpu.upload(ids, "the ghosts' global ids")
        };
        let local = out_lists.num_vertices().max(1) as usize;
        let local_in = in_lists.as_ref().unwrap_or(&out_lists).num_vertices().max(1) as usize;
        let owned = (part.owned as usize).max(1);
        let share_words = 2 * part.bitmap_words_per_part().max(1);
        let world = part.bounds.len() - 1;
        let n = part.global.vertices as usize;
        let equal_ranges = (0..world).all(|p| part.bounds[p] as usize == (32 * share_words * p).min(n));
        let global_words = if equal_ranges { share_words * world } else { 2 * n.div_ceil(64).max(1) };
        let gathered = match equal_ranges {
            true => None,
            false => Some(gpu.alloc_zeros(share_words * world, "the gathered frontier shares")?),
        };
        let ghosts = part.out_lists.ghosts().len().max(1);
        let regions: Vec<u32> = part.ghost_starts().into_iter().map(|start| start as u32).collect();
        let long_kernel = match out_lists.is_compressed() {
            true => names::BFS_PART_TOP_DOWN_LONG_COMPRESSED,
            false => names::BFS_PART_TOP_DOWN_LONG,
        };
        let bottom_up_kernel = match in_lists.as_ref().unwrap_or(&out_lists).is_compressed() {
            true => names::BFS_PART_BOTTOM_UP_COMPRESSED,
            false => names::BFS_PART_BOTTOM_UP,
        };
        // A 2D part has no bottom-up levels; a lone rank and unequal ranges gather no pieces.
        let chunked =
            options.bottom_up && options.bottom_up_chunks > 1 && world > 1 && equal_ranges && part.grid.is_none();
        let chunk_blocks = match chunked {
            true => {
                // None spared: the ordinary grid, whose blocks the collective follows as they end.
                let sms = gpu.multiprocessors();
                match options.chunk_spare_sms {
                    0 => u32::MAX,
                    spare => {
                        resident_blocks(gpu, bottom_up_kernel, PARTITIONED_BLOCK)? / sms
                            * sms.saturating_sub(spare).max(1)
                    }
                }
            }
            false => 0,
        };
        let next_global_bits = match chunk_blocks > 0 {
            true => Some(gpu.alloc_zeros(global_words, "the next frontier's global bitmap")?),
            false => None,
        };
        let mut placed = GpuPart {
            gpu,
            part,
            in_names: InNames::Local,
            delegates: None,
            ghosts: ghost_ids(&part.out_lists)?,
            in_ghosts: part.in_lists.as_ref().map(ghost_ids).transpose()?,
            out_lists,
            in_lists,
            distances: gpu.alloc_zeros(local, "the part's distances")?,
            parents: gpu.alloc_zeros(local, "the part's parents")?,
            visited: gpu.alloc_zeros(local.div_ceil(32), "the part's visited bits")?,
            frontier: gpu.alloc_zeros(owned, "the part's frontier queue")?,
            long_table: gpu.alloc_zeros(long_table_words(part), "the part's table of long lists")?,
            long_blocks: resident_blocks(gpu, long_kernel, PARTITIONED_BLOCK)?,
            frontier_len: 0,
            frontier_edges: 0,
            queue_stale: false,
            bottom_up_inspected: None,
            level_bottom_up: false,
            exchange_events: (gpu.record_event()?, gpu.record_event()?),
            exchange_on_stream: false,
            ghosts_here: Vec::new(),
            frontier_edges_summed: None,
            padded_pairs: options.padded_pairs,
            sparse_frontier_share: options.sparse_frontier_share,
            pack_fill: gpu.alloc_zeros(1, "the queue's fill")?,
            bits: gpu.alloc_zeros(share_words, "the part's frontier bits")?,
            next_bits: gpu.alloc_zeros(share_words, "the part's next frontier bits")?,
            ghost_bits: gpu.alloc_zeros(ghosts.div_ceil(32), "the ghosts claimed at a level")?,
            gathered,
            global_bits: gpu.alloc_zeros(global_words, "the global frontier bitmap")?,
            bottom_up_chunks: options.bottom_up_chunks.max(1),
            chunk_blocks,
            next_global_bits,
            pending_piece: None,
            seen_gathered: false,
            local_bits: gpu.alloc_zeros(local_in.div_ceil(32), "the frontier over local ids")?,
            sent: gpu.alloc_zeros(2 * ghosts, "the ghost discoveries")?,
            received: gpu.alloc_zeros(2, "the discoveries received")?,
            sent_counts: gpu.alloc_zeros(world, "the discoveries per rank")?,
            pair_counts: RowReadback::new(gpu, world, world, "every rank's discoveries per rank")?,
            ghost_regions: gpu.upload(&regions, "the ghosts' regions")?,
            regions,
            counters: gpu.alloc_zeros(counters::WORDS, "the level counters")?,
            counts: RowReadback::new(gpu, counters::WORDS, world, "the level counters read back")?,
            frontier_lens: vec![0; world],
            column: part.grid.as_ref().map(|place| Column::place(gpu, part, place)).transpose()?,
        };
        // A 2D part has no bottom-up levels to name in-neighbors for.
        if options.global_in_ids && part.grid.is_none() {
            placed.in_names = placed.global_in_names()?;
        }
        if let (false, Some(hubs)) = (options.delegation == Delegation::Off, &part.hubs) {
            placed.delegates = placed.place_delegates(hubs)?;
        }
        Ok(placed)
    }

    /// Whether `bytes` more fit in the free device memory beside [`VRAM_MARGIN`] and room for
    /// what grows during traversals: the pairs other ranks send this one (at most one a vertex
    /// this rank owns from each, two words each) in the received buffer and in the
    /// communicator's landing buffers (grown to a power of two).
    fn fits_beside_growth(&self, bytes: u64) -> Result<bool> {
        let part = self.part;
        let world = (part.bounds.len() - 1) as u64;
        let growth = 24 * part.owned as u64 * world.saturating_sub(1);
        let (free, _) = self.gpu.memory_info()?;
        Ok(bytes + growth + VRAM_MARGIN <= free)
    }

    /// This rank's pieces of the hubs' lists on the device, where device memory holds them
    /// ([`fits_beside_growth`](Self::fits_beside_growth)). They are plain lists whatever the
    /// part's format (a compressed part's hubs are its longest lists, which compress least, and
    /// the pieces kernel is the plain long-list kernel).
    fn place_delegates(&self, hubs: &Hubs) -> Result<Option<Delegates>> {
        let (gpu, part) = (self.gpu, self.part);
        let count = hubs.globals.len();
        if count == 0 {
            return Ok(None);
        }
        let flag_words = count.div_ceil(64);
        let owned = hubs.owned_range(part.first, part.owned);
        let bytes = 4 * hubs.targets.len() as u64
            + 12 * (count as u64 + 1)
            + 4 * owned.len() as u64
            + 16 * flag_words as u64
            + 8 * (LONG_LIST_WORDS * (count + 1)) as u64;
        if !self.fits_beside_growth(bytes)? {
            return Ok(None);
        }
        let owned_hubs: Vec<u32> = hubs.globals[owned.clone()].iter().map(|&h| h - part.first).collect();
        let pieces = if hubs.targets.is_empty() { &[0u32][..] } else { &hubs.targets };
        let owned_locals = if owned_hubs.is_empty() { &[0u32][..] } else { &owned_hubs };
        Ok(Some(Delegates {
            degree: hubs.degree,
            hubs: count as u32,
            globals: gpu.upload(&hubs.globals, "the hubs' global ids")?,
            piece_offsets: gpu.upload(&hubs.offsets, "the hubs' piece offsets")?,
            pieces: gpu.upload(pieces, "the hubs' pieces")?,
            owned_hubs: gpu.upload(owned_locals, "the part's own hubs")?,
            owned_len: owned.len() as u32,
            first_hub: owned.start as u32,
            owned_left: 0,
            flags_clear: true,
            flags: gpu.alloc_zeros(2 * flag_words, "the frontier's hubs")?,
            summed_flags: gpu.alloc_zeros(flag_words, "the frontier's hubs over the ranks")?,
            table: gpu.alloc_zeros(LONG_LIST_WORDS * (count + 1), "the table of hubs' pieces")?,
            blocks: resident_blocks(gpu, names::BFS_PART_TOP_DOWN_LONG, PARTITIONED_BLOCK)?,
            in_frontier: 0,
        }))
    }

    /// Global in-neighbor names for bottom-up levels, where they cost no copy or the copy fits
    /// ([`fits_beside_growth`](Self::fits_beside_growth)); else the local ids.
    fn global_in_names(&self) -> Result<InNames> {
        let (gpu, part) = (self.gpu, self.part);
        let in_part = part.in_lists.as_ref().unwrap_or(&part.out_lists);
        let in_lists = self.in_lists.as_ref().unwrap_or(&self.out_lists);
        if in_lists.is_compressed() {
            return Ok(InNames::Local);
        }
        if part.first == 0 && in_part.ghosts().is_empty() {
            return Ok(InNames::Global);
        }
        let edges = in_lists.num_edges();
        if !self.fits_beside_growth(4 * edges.max(1))? {
            return Ok(InNames::Local);
        }
        let mut copy = gpu.alloc_zeros::<u32>(edges.max(1) as usize, "the in-lists' targets as global ids")?;
        let stream = gpu.stream();
        let mut launch = Launch::new(gpu);
        let params = BfsPartGlobalTargetsParams {
            targets: DeviceAddress::new(in_lists.targets.device_ptr(stream)),
            edges,
            ghost_globals: launch.read(self.in_ghosts.as_ref().unwrap_or(&self.ghosts)),
            first: part.first,
            owned: part.owned,
            global_targets: launch.write(&mut copy),
        };
        // Contract: the placed in-lists hold `edges` targets, local ids of the in-list graph
        // (owned vertices, then its ghosts, whose global ids these are); the copy as many.
        launch.run(grid_for(gpu, edges, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(InNames::GlobalCopy(copy))
    }

    /// What the ranks settle together once a placement, in one all-gather, before they
    /// traverse:
    /// - the hubs' pieces stay only if every rank placed its own (a rank whose device memory
    ///   did not hold them, or whose part has none): a rank without them expands its hubs itself
    ///   and never joins the sum of the frontier's hubs, which the others would wait for;
    /// - how many of this rank's vertices each rank holds as ghosts: the most pairs it can send
    ///   this one, which sizes a top-down level's fixed-size exchange
    ///   ([`PartitionedOptions::padded_pairs`]).
    pub fn agree<C: Communicator>(&mut self, comm: &mut C) -> Result<()> {
        let (me, world) = (comm.rank(), comm.world_size());
        let mut mine: Vec<u64> = self.regions.windows(2).map(|w| (w[1] - w[0]) as u64).collect();
        mine.push(self.delegates.is_none() as u64);
        let mut all = vec![0u64; mine.len() * world];
        comm.all_gather(&mine, &mut all)?;
        let rows = all.chunks_exact(mine.len());
        if rows.clone().any(|row| row[world] > 0) {
            self.delegates = None;
        }
        self.ghosts_here = rows.map(|row| row[me]).collect();
        Ok(())
    }

    pub fn part(&self) -> &Part {
        self.part
    }

    /// How the part's lists are held: where, in what format, their bytes.
    pub fn lists(&self) -> PartLists {
        let placed = std::iter::once(&self.out_lists).chain(&self.in_lists);
        let plain = std::iter::once(&self.part.out_lists).chain(&self.part.in_lists);
        PartLists {
            placement: self.out_lists.placement(),
            compressed: self.out_lists.is_compressed(),
            stored_bytes: placed.clone().map(DeviceGraph::csr_bytes).sum(),
            plain_bytes: plain.map(|lists| lists.graph.csr_bytes()).sum(),
            device_bytes: placed.map(DeviceGraph::bytes).sum(),
        }
    }

    /// Whether this rank is the only one: its part is the whole graph, with no ghost, so a
    /// level trades nothing, its counters are the sums and its share bits the whole frontier.
    fn alone(&self) -> bool {
        self.regions.len() == 2
    }

    /// Clears what the level's kernels count and mark into, in one launch
    /// (`bfs_part_begin_level`): the counters (`INSPECTED` set to `start`'s), the send counts,
    /// the next frontier's bits, the queue's fill, and as `start` asks the claimed ghosts' bits
    /// and the fixed-size pair slots.
    fn begin_level(&mut self, start: LevelStart) -> Result<()> {
        let gpu = self.gpu;
        let world = self.regions.len() - 1;
        let ghost_words = if start.clear_ghosts { self.ghost_bits.len() } else { 0 };
        let slot_pairs = u32::try_from(start.slot_pairs).unwrap_or(u32::MAX);
        require(
            names::BFS_PART_BEGIN_LEVEL,
            self.counters.len() == counters::WORDS
                && self.sent_counts.len() >= world
                && self.ghost_regions.len() == world + 1
                && (slot_pairs == 0 || self.sent.len() >= 2 * self.regions[world] as usize),
            || {
                format!(
                    "{} counters, {} send counts, {} regions and {} pair words for {world} ranks",
                    self.counters.len(),
                    self.sent_counts.len(),
                    self.ghost_regions.len(),
                    self.sent.len()
                )
            },
        )?;
        let widest = self.next_bits.len().max(ghost_words).max(counters::WORDS).max(2 * slot_pairs as usize);
        let mut launch = Launch::new(gpu);
        let params = BfsPartBeginLevelParams {
            counters: launch.write(&mut self.counters),
            inspected: start.inspected,
            sent_counts: launch.write(&mut self.sent_counts),
            world: world as u32,
            rank: start.rank as u32,
            next_words: self.next_bits.len() as u32,
            next_bits: launch.write(&mut self.next_bits),
            ghost_bits: launch.write(&mut self.ghost_bits),
            ghost_words: ghost_words as u32,
            pack_fill: launch.write(&mut self.pack_fill),
            ghost_regions: launch.read(&self.ghost_regions),
            slot_pairs,
            sent: launch.write(&mut self.sent),
        };
        // Contract: checked above; the regions ascend from ghost 0 to the ghost count (`place`),
        // `sent` two words a ghost, the fill one word.
        launch.run(grid_for(gpu, widest as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// The level is over: the next frontier's bits become the frontier (its queue packed when
    /// a top-down level needs it).
    fn end_level(&mut self, counted: &[u32]) {
        std::mem::swap(&mut self.bits, &mut self.next_bits);
        self.queue_stale = true;
        self.frontier_len = counted[counters::NEXT_LEN];
        self.frontier_edges = wide(counted, counters::FOUND_EDGES);
        self.bottom_up_inspected = self.level_bottom_up.then(|| wide(counted, counters::INSPECTED));
    }

    /// Expands this rank's pieces of the frontier's hubs (vertex delegates): which hubs are in
    /// the frontier summed over the ranks, their pieces registered in the hubs' table
    /// (`bfs_part_hub_lists`), then walked by the long-list kernel with the hubs' global ids as
    /// parents.
    fn expand_hubs<C: DeviceGather>(&mut self, comm: &mut C, level: u32) -> Result<()> {
        let (gpu, part) = (self.gpu, self.part);
        let Some(mut hubs) = self.delegates.take() else { return Ok(()) };
        let words = hubs.summed_flags.len();
        comm.sum_counts_on_device(gpu, &hubs.flags, 0, words, &mut hubs.summed_flags)?;
        let stream = gpu.stream();
        let capacity = (hubs.table.len() / LONG_LIST_WORDS) as u32;
        let mut launch = Launch::new(gpu);
        let params = BfsPartHubListsParams {
            flags: launch.read(&hubs.summed_flags),
            hubs: hubs.hubs,
            hub_globals: launch.read(&hubs.globals),
            piece_offsets: launch.read(&hubs.piece_offsets),
            table: launch.write(&mut hubs.table),
            capacity,
            counters: launch.write(&mut self.counters),
        };
        // Contract: the flags have a bit a hub (`2 * words` u32 words), the offsets `hubs + 1`
        // entries, the table an entry a hub and one more; `HUB_TALLY` zeroed by `begin_level`.
        launch.run(grid_for(gpu, hubs.hubs as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        let mut launch = Launch::new(gpu);
        let params = BfsPartTopDownLongParams {
            offsets: DeviceAddress::new(self.out_lists.offsets.device_ptr(stream)),
            // A compressed part's degrees: its offsets are its lists' bytes.
            degrees: launch.read_or_null(self.out_lists.compressed.as_ref().map(|extras| &extras.degrees)),
            targets: launch.read(&hubs.pieces),
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            long_table: launch.read(&hubs.table),
            tally_word: counters::HUB_TALLY as u32,
            next_bits: launch.write(&mut self.next_bits),
            ghost_bits: launch.write(&mut self.ghost_bits),
            // The pieces' targets are owned: no ghost to look up.
            ghost_globals: DeviceAddress::NULL,
            seen_bits: DeviceAddress::NULL,
            counters: launch.write(&mut self.counters),
            first: 0,
            owned: part.owned,
            level,
        };
        // Contract: the pieces' targets are owned local ids (`Partition::delegate_hubs`), the
        // entries' owners global ids (hence `first` 0: the parent written is the hub); the
        // rest as for the long lists.
        launch.run(blocks_of(hubs.blocks, PARTITIONED_BLOCK), Residency::Any, &params)?;
        self.delegates = Some(hubs);
        Ok(())
    }

    /// The words of pair slots this rank sends each rank and receives from each at a top-down
    /// level, where they can be fixed before it ([`PartitionedOptions::padded_pairs`]): every
    /// rank knows the frontier's out-edges over all ranks (the last level's sums, or the
    /// source's degree) and how many of each rank's vertices each holds as ghosts
    /// ([`agree`](Self::agree)), and a rank claims at most one ghost an out-edge of its
    /// frontier, each once. None on one rank or above the bound.
    fn padded_slots(&self, me: usize) -> Option<PairSlots> {
        let world = self.regions.len() - 1;
        let edges = self.frontier_edges_summed.filter(|&edges| edges <= self.padded_pairs)?;
        if world < 2 || self.ghosts_here.len() != world {
            return None;
        }
        let slots = |r: usize, ghosts: u64| if r == me { 0 } else { 2 * ghosts.min(edges) as usize };
        let sends = (0..world).map(|r| slots(r, (self.regions[r + 1] - self.regions[r]) as u64)).collect();
        let receives = (0..world).map(|r| slots(r, self.ghosts_here[r])).collect();
        Some(PairSlots { pairs: edges, sends, receives })
    }

    /// Records the start (`true`) or the end of the level's exchange on the rank's stream.
    fn record_exchange_event(&mut self, start: bool) -> Result<()> {
        let event = if start { &mut self.exchange_events.0 } else { &mut self.exchange_events.1 };
        event.record(self.gpu.stream()).map_err(|e| Error::Gpu(GpuError::driver("cuEventRecord", e)))
    }

    /// A bottom-up level's search: one launch, or where levels are chunked
    /// ([`PartitionedOptions::bottom_up_chunks`]) one launch a stretch of the owned vertices on
    /// the side stream, each stretch's words of the next frontier all-gathered on the rank's
    /// stream while the next stretch is searched, the last stretch's left to the next level
    /// (`pending_piece`), which needs them only if it is bottom-up too.
    fn search_bottom_up<C: DeviceGather>(&mut self, comm: &mut C, level: u32, lookup: u32) -> Result<()> {
        let owned = self.part.owned;
        let pieces = chunk_pieces(owned, self.next_bits.len(), self.bottom_up_chunks);
        if self.next_global_bits.is_none() || pieces.len() < 2 {
            return match owned {
                0 => Ok(()),
                _ => self.launch_bottom_up(level, lookup, 0..owned, false),
            };
        }
        let gpu = self.gpu;
        gpu.side_waits_for_main()?;
        for (at, (vertices, words)) in pieces.iter().enumerate() {
            if !vertices.is_empty() {
                self.launch_bottom_up(level, lookup, vertices.clone(), true)?;
            }
            if at + 1 == pieces.len() {
                self.pending_piece = Some(words.clone());
                break;
            }
            if !words.is_empty() {
                gpu.main_waits_for_side()?;
                let next = self.next_global_bits.as_mut().expect("checked above");
                comm.all_gather_words_on_device(gpu, &self.next_bits, words.clone(), next)?;
            }
        }
        gpu.main_waits_for_side()?;
        Ok(())
    }

    /// A 2D part's start of a level: this rank's frontier queue to the ranks of its processor
    /// column and theirs here, in rank order, each shifted from its owner's local ids onto this
    /// part's (the owner's block is one stretch of ghosts here, whole). Nothing for a 1D part.
    fn expand_column<C: DeviceGather>(&mut self, comm: &mut C) -> Result<()> {
        let (gpu, part, me) = (self.gpu, self.part, comm.rank());
        let Some(column) = self.column.as_mut() else { return Ok(()) };
        let queue = (&self.frontier, self.frontier_len);
        let ghost_starts = &self.regions;
        let words = trade_queues(
            comm,
            gpu,
            queue,
            &column.ranks,
            &self.frontier_lens,
            &mut column.queue,
            |ids, r, at, len| match r == me {
                true => Ok(()),
                false => launch_shift_ids(gpu, ids, at, len, part.owned + ghost_starts[r]),
            },
        )?;
        column.len = words as u32;
        Ok(())
    }

    /// A sparse bottom-up frontier into the global bitmap
    /// ([`PartitionedOptions::sparse_frontier_share`]): every
    /// rank's frontier as its queue of owned local ids (packed from its share bits first where
    /// no top-down level packed it), to every rank, sized by the last level's rows; then the
    /// bitmap cleared and each rank's queue set in it from its first vertex on.
    fn scatter_frontier<C: DeviceGather>(&mut self, comm: &mut C) -> Result<()> {
        let gpu = self.gpu;
        if std::mem::take(&mut self.queue_stale) && self.frontier_len > 0 {
            self.launch_pack_queue()?;
        }
        gpu.zero(&mut self.global_bits)?;
        let (queue, bounds, bits) = ((&self.frontier, self.frontier_len), &self.part.bounds, &mut self.global_bits);
        let every_rank: Vec<usize> = (0..comm.world_size()).collect();
        trade_queues(comm, gpu, queue, &every_rank, &self.frontier_lens, &mut self.received, |ids, r, at, len| {
            launch_scatter_ids(gpu, ids, at, len, bounds[r], bits)
        })?;
        Ok(())
    }

    /// All-gathers the frontier's shares into the global bitmap: straight there where the
    /// ranges are equal, else into `gathered` and then laid end to end (each part starts at a
    /// multiple of 64 vertices, so its share is whole words there).
    fn gather_global_bits<C: DeviceGather>(&mut self, comm: &mut C) -> Result<()> {
        let Some(gathered) = self.gathered.as_mut() else {
            return comm.all_gather_on_device(self.gpu, &self.bits, &mut self.global_bits);
        };
        comm.all_gather_on_device(self.gpu, &self.bits, gathered)?;
        let bounds = &self.part.bounds;
        let share = self.bits.len();
        for p in 0..bounds.len() - 1 {
            let words = (bounds[p + 1] - bounds[p]).div_ceil(32) as usize;
            let at = bounds[p] as usize / 32;
            self.gpu.copy_on_device(gathered, p * share, &mut self.global_bits, at, words)?;
        }
        Ok(())
    }
}

/// A top-down level's fixed-size pair slots (`GpuPart::padded_slots`): the pairs a slot holds,
/// and the words this rank sends each rank and receives from each.
struct PairSlots {
    pairs: u64,
    sends: Vec<usize>,
    receives: Vec<usize>,
}

/// What a level's start clears besides what every level does (`GpuPart::begin_level`).
struct LevelStart {
    /// The rank's number, whose own slot is never sent.
    rank: usize,
    /// A top-down level's frontier out-edges, counted on the host (0 bottom-up: its kernel
    /// counts the in-list entries it reads).
    inspected: u64,
    /// The claimed ghosts' bits: cleared before a top-down level with a frontier.
    clear_ghosts: bool,
    /// The pairs each fixed-size slot holds (`padded_slots`; 0 where the level counts its
    /// pairs).
    slot_pairs: u64,
}

impl<C: DeviceGather> RankWork<C> for &mut GpuPart<'_> {
    fn start(&mut self, source: u32) -> Result<u64> {
        let part = self.part;
        self.init(source)?;
        self.gpu.zero(&mut self.bits)?;
        (self.queue_stale, self.bottom_up_inspected, self.seen_gathered) = (false, None, false);
        self.pending_piece = None;
        (self.frontier_len, self.frontier_edges, self.frontier_edges_summed) = (0, 0, None);
        if let (Some(delegated), Some(hubs)) = (self.delegates.as_mut(), part.hubs.as_ref()) {
            // A hub source is expanded from every rank's piece at level 0.
            self.gpu.zero(&mut delegated.flags)?;
            (delegated.in_frontier, delegated.owned_left, delegated.flags_clear) =
                (0, delegated.owned_len as u64, true);
            if let Some(hub) = hubs.index_of(source) {
                delegated.in_frontier = 1;
                if part.owns(source) {
                    self.gpu.copy_into_at(&[1u32 << (hub % 32)], &mut delegated.flags, hub / 32)?;
                    (delegated.owned_left, delegated.flags_clear) = (delegated.owned_left - 1, false);
                }
            }
        }
        if part.owns(source) {
            let local = source - part.first;
            self.gpu.copy_into(&[local], &mut self.frontier)?;
            self.gpu.copy_into_at(&[1u32 << (local % 32)], &mut self.bits, local as usize / 32)?;
            self.frontier_len = 1;
            self.frontier_edges = match &part.grid {
                // A 2D part holds its block's share of the list; the whole graph's degree is kept
                // beside it.
                Some(place) => place.degrees[local as usize] as u64,
                None => part.out_lists.graph.degree(local),
            };
        }
        self.frontier_lens.fill(0);
        self.frontier_lens[part.owner_of(source)] = 1;
        Ok(self.frontier_edges)
    }

    fn source_degree(&mut self, degree: u64) {
        // Level 0 then sends fixed-size slots where the degree allows (`padded_slots`).
        self.frontier_edges_summed = Some(degree);
    }

    fn top_down(&mut self, comm: &mut C, level: u32) -> Result<Step> {
        if level == 0 {
            // The traversal's first exchanges follow: the links up first, inside its time.
            comm.wake_links(self.gpu)?;
        }
        // A chunked bottom-up level's last piece is needed by a bottom-up level only.
        self.pending_piece = None;
        let padded = self.padded_slots(comm.rank());
        // The vertices this rank expands: its frontier, or a 2D part's column's.
        let expanded = self.column.as_ref().map_or(self.frontier_len as u64, |c| c.frontier_len(&self.frontier_lens));
        self.begin_level(LevelStart {
            rank: comm.rank(),
            // A top-down level inspects its frontier's out-edges: the count the level's end sums
            // (a 2D part's kernels count their block's share of the lists themselves).
            inspected: if self.column.is_some() { 0 } else { self.frontier_edges },
            clear_ghosts: expanded > 0,
            // Marked empty before the pack fills them: slots past the level's pairs stay so.
            slot_pairs: padded.as_ref().map_or(0, |slots| slots.pairs),
        })?;
        if std::mem::take(&mut self.queue_stale) && self.frontier_len > 0 {
            self.launch_pack_queue()?;
        }
        self.expand_column(comm)?;
        self.level_bottom_up = false;
        if expanded > 0 {
            self.launch_top_down(level)?;
        }
        if self.delegates.as_ref().is_some_and(|d| d.in_frontier > 0) {
            self.expand_hubs(comm, level)?;
        }
        let exchanging = Instant::now();
        if self.alone() {
            // Nothing to trade: no ghost, so no pair and no count of pairs (which would cost
            // the host a wait).
            return Ok(Step { counts: [0; COUNTS], exchange: exchanging.elapsed() });
        }
        let world = self.regions.len() - 1;
        let (sends, receives) = match padded {
            Some(slots) => {
                // No count crosses first, so the host queues the exchange without waiting:
                // timed on the stream.
                self.exchange_on_stream = true;
                self.record_exchange_event(true)?;
                (slots.sends, slots.receives)
            }
            None => {
                // Every rank's pairs for every rank, read back with one wait (`gather_rows`):
                // this rank's row says what it sends, its column what it receives.
                comm.gather_rows(self.gpu, &self.sent_counts, &mut self.pair_counts)?;
                let matrix = self.pair_counts.rows();
                let me = comm.rank();
                let row = (0..world).map(|r| 2 * matrix[me * world + r] as usize).collect();
                (row, (0..world).map(|r| 2 * matrix[r * world + me] as usize).collect())
            }
        };
        let regions: Vec<(usize, usize)> =
            sends.iter().enumerate().map(|(r, &words)| (2 * self.regions[r] as usize, words)).collect();
        let words = comm.all_to_all_v_on_device_known(self.gpu, &self.sent, &regions, &receives, &mut self.received)?;
        if self.exchange_on_stream {
            self.record_exchange_event(false)?;
        }
        let exchange = exchanging.elapsed();
        if words > 0 {
            self.launch_receive((words / 2) as u32, level)?;
        }
        // The counts stay in the counters until `sum_counts`, which ends the level.
        Ok(Step { counts: [0; COUNTS], exchange })
    }

    fn bottom_up(&mut self, comm: &mut C, level: u32) -> Result<Step> {
        self.begin_level(LevelStart { rank: comm.rank(), inspected: 0, clear_ghosts: false, slot_pairs: 0 })?;
        // Timed on the stream: the level's kernels queue behind the exchange without the host
        // waiting for it.
        self.exchange_on_stream = true;
        self.record_exchange_event(true)?;
        let frontier: u64 = self.frontier_lens.iter().sum();
        let share = self.sparse_frontier_share;
        if self.alone() {
            // Its share is the whole frontier (`frontier_bitmap`): nothing to gather.
        } else if let Some(words) = self.pending_piece.take() {
            // The last level gathered all of this frontier but its last piece while it ran.
            let next = self.next_global_bits.as_mut().expect("a chunked level's bitmap");
            if !words.is_empty() {
                comm.all_gather_words_on_device(self.gpu, &self.bits, words, next)?;
            }
            std::mem::swap(&mut self.global_bits, next);
            self.seen_gathered = true;
        } else if share > 0 && frontier <= self.part.global.vertices / share {
            self.scatter_frontier(comm)?;
            self.seen_gathered = true;
        } else {
            self.gather_global_bits(comm)?;
            self.seen_gathered = true;
        }
        self.record_exchange_event(false)?;
        self.level_bottom_up = true;
        // Every rank searches, even one owning no vertex: a chunked level's pieces are
        // collectives every rank joins.
        let lookup = match self.in_names {
            InNames::Global | InNames::GlobalCopy(_) => lookup::GLOBAL_IDS,
            InNames::Local => {
                // The local frontier reads every ghost's id once; looking ghosts up by id
                // reads one an inspected ghost entry. The last bottom-up level's reads bound
                // this one's.
                let ghosts = self.part.in_lists.as_ref().unwrap_or(&self.part.out_lists).ghosts().len() as u64;
                match self.bottom_up_inspected {
                    Some(inspected) if inspected < ghosts => lookup::GHOST_IDS,
                    _ => lookup::LOCAL_FRONTIER,
                }
            }
        };
        if lookup == lookup::LOCAL_FRONTIER && self.part.owned > 0 {
            self.launch_local_frontier()?;
        }
        self.search_bottom_up(comm, level, lookup)?;
        Ok(Step { counts: [0; COUNTS], exchange: Duration::ZERO })
    }

    fn exchange_time(&mut self, measured: Duration) -> Result<Duration> {
        if !std::mem::take(&mut self.exchange_on_stream) {
            return Ok(measured);
        }
        let (start, end) = &self.exchange_events;
        let ms = start.elapsed_ms(end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))?;
        Ok(Duration::from_secs_f64(ms as f64 / 1e3))
    }

    fn sum_counts(&mut self, comm: &mut C, _counts: [u64; COUNTS]) -> Result<[u64; COUNTS]> {
        // The counters hold this rank's counts (the level's kernels, and a top-down level's
        // inspected edges written before them): read back behind the level's kernels, the host
        // waiting once, with every rank's rows (`gather_rows`). The sums are the rows' totals;
        // each row's frontier length sizes the queues a coming level trades.
        let gpu = self.gpu;
        self.launch_hub_flags()?;
        if self.alone() {
            self.counts.read_alone(gpu, &self.counters)?;
        } else {
            comm.gather_rows(gpu, &self.counters, &mut self.counts)?;
        }
        let rows = self.counts.rows();
        let total = |word: usize| -> u64 { rows.chunks_exact(counters::WORDS).map(|row| wide(row, word)).sum() };
        let mut summed = [0; COUNTS];
        summed[FOUND] = total(counters::NEXT_LEN);
        summed[FOUND_EDGES] = total(counters::FOUND_EDGES);
        summed[INSPECTED] = total(counters::INSPECTED);
        let hubs_summed = total(counters::HUBS);
        for (len, row) in self.frontier_lens.iter_mut().zip(rows.chunks_exact(counters::WORDS)) {
            *len = wide(row, counters::NEXT_LEN);
        }
        let counted: [u32; counters::WORDS] = self.counts.own()?.try_into().expect("the counters' length");
        self.end_level(&counted);
        self.frontier_edges_summed = Some(summed[FOUND_EDGES]);
        if let Some(hubs) = self.delegates.as_mut() {
            hubs.in_frontier = hubs_summed;
            hubs.owned_left = hubs.owned_left.saturating_sub(wide(&counted, counters::HUBS));
        }
        Ok(summed)
    }

    fn labels(self) -> Result<(Vec<u32>, Vec<u32>)> {
        let owned = self.part.owned as usize;
        let (mut distances, mut parents) = (vec![0u32; owned], vec![0u32; owned]);
        self.gpu.download_into(&self.distances, &mut distances)?;
        self.gpu.download_into(&self.parents, &mut parents)?;
        Ok((distances, parents))
    }
}

/// This rank's side of the partitioned BFS from global vertex `source`, its levels on its GPU.
pub fn bfs_rank_gpu<C: DeviceGather>(
    comm: &mut C,
    placed: &mut GpuPart<'_>,
    source: u32,
    options: &PartitionedOptions,
) -> Result<RankTraversal> {
    let part = placed.part;
    let lists = placed.lists();
    Ok(RankTraversal { lists: Some(lists), ..run_levels(comm, part, source, options, placed)? })
}

/// Places this rank's `part` on `gpu` and runs the partitioned BFS from each of `sources`, in
/// order, the part placed once for all, after one untimed warm-up traversal from the first.
pub fn bfs_sources_on_gpu<C: DeviceGather>(
    comm: &mut C,
    gpu: &GpuContext,
    part: &Part,
    sources: &[u32],
    options: &PartitionedOptions,
) -> Result<Vec<RankTraversal>> {
    // A rank whose GPU could not hold its part stops every rank here, not in an exchange.
    let mut placed = agree_on(comm, GpuPart::place(gpu, part, options))?;
    placed.agree(comm)?;
    // NCCL connects a pair of ranks at their first exchange (0.13 s of a one-shot kron:30 BFS
    // on 4 GPUs, NOTES 63): one untimed traversal from the first source pays for it.
    if let Some(&first) = sources.first() {
        bfs_rank_gpu(comm, &mut placed, first, options)?;
    }
    sources.iter().map(|&source| bfs_rank_gpu(comm, &mut placed, source, options)).collect()
}

/// The partitioned BFS from each of `sources` with every part on the first GPU, one thread and
/// one context a rank ([`InProcess`] communication): the multi-GPU code path on one GPU, for
/// tests and for measuring what partitioning costs. Each part is placed once for all sources.
pub fn bfs_gpu_in_process(
    partition: &Partition,
    sources: &[u32],
    options: &PartitionedOptions,
) -> Result<Vec<PartitionedTraversal>> {
    let ranks = run_ranks(partition.parts.len(), |comm| -> Result<Vec<RankTraversal>> {
        let gpu = GpuContext::new()?;
        bfs_sources_on_gpu(comm, &gpu, &partition.parts[comm.rank()], sources, options)
    });
    let ranks = ranks.into_iter().collect::<Result<Vec<_>>>()?;
    Ok(by_source(ranks, sources))
}

/// Per-rank lists of traversals (one a source) turned into one gathered traversal a source.
pub fn by_source(mut ranks: Vec<Vec<RankTraversal>>, sources: &[u32]) -> Vec<PartitionedTraversal> {
    let mut traversals = Vec::with_capacity(sources.len());
    for &source in sources.iter().rev() {
        let last: Vec<RankTraversal> = ranks.iter_mut().map(|r| r.pop().expect("one traversal a source")).collect();
        traversals.push(concatenate(last, source));
    }
    traversals.reverse();
    traversals
}

#[cfg(test)]
mod tests {
    use super::kernels::check_stretch;
    use super::*;

    #[test]
    fn chunk_pieces_cover_the_share_and_the_owned_vertices_in_whole_words() {
        for (owned, share_words, chunks) in [
            (0, 2, 4),
            (1, 2, 4),
            (31, 2, 3),
            (32, 2, 4),
            (100, 4, 1),
            (1_000, 32, 4),
            (1_000_003, 31_252, 7),
            (65, 4, 64),
        ] {
            let pieces = chunk_pieces(owned, share_words, chunks);
            assert_eq!(pieces.len(), chunks as usize);
            let (mut vertex, mut word) = (0, 0);
            for (vertices, words) in &pieces {
                assert_eq!((vertices.start, words.start), (vertex, word), "{owned} {share_words} {chunks}: {pieces:?}");
                if !vertices.is_empty() {
                    assert!(check_stretch("test", vertices, owned).is_ok(), "{vertices:?} of {owned}");
                    assert_eq!(vertices.start as usize, 32 * words.start);
                }
                (vertex, word) = (vertices.end, words.end);
            }
            assert_eq!((vertex, word), (owned, share_words), "{owned} {share_words} {chunks}: {pieces:?}");
        }
        // Ranks of equal shares gather the same pieces, whatever they own.
        let words = |owned| chunk_pieces(owned, 8, 4).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
        assert_eq!(words(256), words(40));
        assert_eq!(chunk_pieces(256, 8, 4)[1], (64..128, 2..4));
        assert!(check_stretch("test", &(16..32), 64).is_err());
        assert!(check_stretch("test", &(0..40), 64).is_err());
        assert!(check_stretch("test", &(0..40), 40).is_ok());
    }
}
