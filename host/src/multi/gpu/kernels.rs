//! The launchers of [`GpuPart`]'s kernels (`device/src/bfs/partitioned.rs`): each fills its
//! kernel's parameter struct from the part's buffers, checks the kernel's contract and launches
//! it on the rank's stream. The level's plumbing (what to launch when, the exchanges between
//! them) is in the parent module.

use cudarc::driver::CudaSlice;
use warpath_interface::bfs::partitioned::{
    counters, delegates, BfsPartBottomUpCompressedParams, BfsPartBottomUpParams, BfsPartHubFlagsParams,
    BfsPartInitParams, BfsPartLocalFrontierParams, BfsPartPackGhostsParams, BfsPartPackQueueParams,
    BfsPartReceiveParams, BfsPartScatterIdsParams, BfsPartShiftIdsParams, BfsPartTopDownCompressedParams,
    BfsPartTopDownLongCompressedParams, BfsPartTopDownLongParams, BfsPartTopDownParams, LONG_LIST_WORDS,
    PARTITIONED_BLOCK,
};
use warpath_interface::{names, DeviceAddress};

use crate::error::Result;
use crate::gpu::launch::{blocks_of, grid_for, require, Launch, Residency};
use crate::gpu::{DeviceGraph, GpuContext};

use super::{frontier_bitmap, Column, GpuPart, InNames};

/// Sets the bits of the `len` ids at `start` of `ids`, each plus `add`, in `bits`
/// (`bfs_part_scatter_ids`).
pub(super) fn launch_scatter_ids(
    gpu: &GpuContext,
    ids: &CudaSlice<u32>,
    start: usize,
    len: usize,
    add: u32,
    bits: &mut CudaSlice<u32>,
) -> Result<()> {
    require(names::BFS_PART_SCATTER_IDS, start + len <= ids.len() && len <= u32::MAX as usize, || {
        format!("{len} ids from {start} of {}", ids.len())
    })?;
    let mut launch = Launch::new(gpu);
    let params =
        BfsPartScatterIdsParams { ids: launch.read_from(ids, start), len: len as u32, add, bits: launch.write(bits) };
    // Contract: the range checked above; the ids are one rank's owned local ids (its frontier
    // queue), `add` its first vertex, so each id plus `add` is a global vertex, which the global
    // bitmap has a bit for (`place`).
    launch.run(grid_for(gpu, len as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
    Ok(())
}

/// Adds `add` to the `len` ids at `start` of `ids` (`bfs_part_shift_ids`).
pub(super) fn launch_shift_ids(
    gpu: &GpuContext,
    ids: &mut CudaSlice<u32>,
    start: usize,
    len: usize,
    add: u32,
) -> Result<()> {
    require(names::BFS_PART_SHIFT_IDS, start + len <= ids.len() && len <= u32::MAX as usize, || {
        format!("{len} ids from {start} of {}", ids.len())
    })?;
    let mut launch = Launch::new(gpu);
    let params = BfsPartShiftIdsParams { ids: launch.write_from(ids, start), len: len as u32, add };
    // Contract: checked above.
    launch.run(grid_for(gpu, len as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
    Ok(())
}

/// The queue a top-down level of `kernel` expands and its length: a 2D part's column frontier
/// (ghosts too, any of `lists`' vertices), else the rank's `own` (owned vertices), checked
/// against the vertices it may hold and the queue's room.
pub(super) fn expanded_queue<'q>(
    kernel: &'static str,
    column: &'q Option<Column>,
    own: (&'q CudaSlice<u32>, u32),
    lists: &DeviceGraph,
    owned: u32,
) -> Result<(&'q CudaSlice<u32>, u32)> {
    let (queue, len, vertices) = match column {
        Some(column) => (&column.queue, column.len, lists.num_vertices() as u64),
        None => (own.0, own.1, owned as u64),
    };
    require(kernel, len as u64 <= vertices && len as usize <= queue.len(), || {
        format!("frontier of {len} in a part of {vertices} vertices with lists")
    })?;
    Ok((queue, len))
}

/// A bottom-up launch's stretch of owned vertices: `begin` a multiple of 32 (whole words of the
/// bitmaps), `end` one too or `owned`.
pub(super) fn check_stretch(kernel: &'static str, vertices: &std::ops::Range<u32>, owned: u32) -> Result<()> {
    let whole = |v: u32| v.is_multiple_of(32);
    let ok = vertices.start <= vertices.end
        && vertices.end <= owned
        && whole(vertices.start)
        && (whole(vertices.end) || vertices.end == owned);
    Ok(require(kernel, ok, || format!("vertices {vertices:?} of {owned} owned"))?)
}

impl<'p> GpuPart<'p> {
    pub(super) fn init(&mut self, source: u32) -> Result<()> {
        let part = self.part;
        let n = self.distances.len();
        let source_local = if part.owns(source) { source - part.first } else { u32::MAX };
        let mut launch = Launch::new(self.gpu);
        let params = BfsPartInitParams {
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            n: n as u32,
            source_local,
            source_global: source,
        };
        // Contract: both label arrays hold `n` entries and the visited bits `n` bits (allocated
        // together in `place`).
        launch.run(grid_for(self.gpu, n as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// The level's top-down kernels over the out-lists, plain or compressed, then the ghosts
    /// they claimed packed for their owners.
    pub(super) fn launch_top_down(&mut self, level: u32) -> Result<()> {
        if self.out_lists.is_compressed() {
            self.launch_top_down_compressed(level)?;
        } else {
            self.launch_top_down_plain(level)?;
        }
        if !self.part.out_lists.ghosts().is_empty() {
            self.launch_pack_ghosts()?;
        }
        Ok(())
    }

    pub(super) fn launch_top_down_plain(&mut self, level: u32) -> Result<()> {
        let (gpu, part) = (self.gpu, self.part);
        let graph = &self.out_lists;
        require(names::BFS_PART_TOP_DOWN, !graph.is_compressed(), || "compressed out-lists".into())?;
        let own = (&self.frontier, self.frontier_len);
        let (frontier, frontier_len) = expanded_queue(names::BFS_PART_TOP_DOWN, &self.column, own, graph, part.owned)?;
        let stream = gpu.stream();
        let long_capacity = (self.long_table.len() / LONG_LIST_WORDS) as u32;
        let mut launch = Launch::new(gpu);
        let params = BfsPartTopDownParams {
            offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
            degrees: launch.read_or_null(self.column.as_ref().map(|column| &column.degrees)),
            targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            frontier: launch.read(frontier),
            frontier_len,
            next_bits: launch.write(&mut self.next_bits),
            ghost_bits: launch.write(&mut self.ghost_bits),
            ghost_globals: launch.read(&self.ghosts),
            seen_bits: launch.read_or_null(self.seen_gathered.then_some(&self.global_bits)),
            long_table: launch.write(&mut self.long_table),
            long_capacity,
            counters: launch.write(&mut self.counters),
            first: part.first,
            owned: part.owned,
            level,
            count_inspected: self.column.is_some() as u32,
            hub_degree: self.delegates.as_ref().map_or(delegates::NONE, |d| d.degree),
        };
        // Contract: the local graph was placed from `part.out_lists` (owned + ghosts vertices,
        // ghosts' lists empty but a 2D part's column's, targets local ids), the labels have one
        // entry and one visited bit a local vertex, the share bits one bit an owned vertex, the
        // ghost bits one a ghost, the table an entry for every list of `LONG_LIST_EDGES` or more
        // (`long_list_capacity` of the vertices with lists), its tally zeroed with the counters
        // (`begin_level`); the ghosts' global ids one a ghost (or one word where there are
        // none, never read), the global bitmap a bit a global id (`place`), a 2D part's degrees
        // one an owned vertex (`Column::place`).
        launch.run(grid_for(gpu, frontier_len as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        let mut launch = Launch::new(gpu);
        let params = BfsPartTopDownLongParams {
            offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
            degrees: launch.read_or_null(self.column.as_ref().map(|column| &column.degrees)),
            targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            long_table: launch.read(&self.long_table),
            tally_word: counters::LONG_TALLY as u32,
            next_bits: launch.write(&mut self.next_bits),
            ghost_bits: launch.write(&mut self.ghost_bits),
            ghost_globals: launch.read(&self.ghosts),
            seen_bits: launch.read_or_null(self.seen_gathered.then_some(&self.global_bits)),
            counters: launch.write(&mut self.counters),
            first: part.first,
            owned: part.owned,
            level,
        };
        // Contract: as above, after the frontier kernel registered the long lists and their
        // tally, in stream order; blocks of `PARTITIONED_BLOCK` threads, as many as fit at
        // once (the edges are cut into one range a block: a block that waited for a slot would
        // be the level's tail).
        launch.run(blocks_of(self.long_blocks, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// `launch_top_down_plain`'s two kernels over compressed out-lists: the frontier's lists
    /// decoded, the long ones registered by their pieces, then the pieces decoded.
    pub(super) fn launch_top_down_compressed(&mut self, level: u32) -> Result<()> {
        let (gpu, part) = (self.gpu, self.part);
        let graph = &self.out_lists;
        let Some(extras) = graph.compressed.as_ref() else {
            return Ok(require(names::BFS_PART_TOP_DOWN_COMPRESSED, false, || "plain out-lists".into())?);
        };
        let own = (&self.frontier, self.frontier_len);
        let (frontier, frontier_len) =
            expanded_queue(names::BFS_PART_TOP_DOWN_COMPRESSED, &self.column, own, graph, part.owned)?;
        let column_degrees = self.column.as_ref().map(|column| &column.degrees);
        let stream = gpu.stream();
        let long_capacity = (self.long_table.len() / LONG_LIST_WORDS) as u32;
        let mut launch = Launch::new(gpu);
        let params = BfsPartTopDownCompressedParams {
            byte_offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
            bytes: DeviceAddress::new(graph.targets.device_ptr(stream)),
            degrees: launch.read(&extras.degrees),
            column_degrees: launch.read_or_null(column_degrees),
            long_vertices: launch.read(&extras.long_vertices),
            long_first: launch.read(&extras.long_first),
            long_count: extras.long_count,
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            frontier: launch.read(frontier),
            frontier_len,
            next_bits: launch.write(&mut self.next_bits),
            ghost_bits: launch.write(&mut self.ghost_bits),
            ghost_globals: launch.read(&self.ghosts),
            seen_bits: launch.read_or_null(self.seen_gathered.then_some(&self.global_bits)),
            long_table: launch.write(&mut self.long_table),
            long_capacity,
            counters: launch.write(&mut self.counters),
            first: part.first,
            owned: part.owned,
            level,
            count_inspected: self.column.is_some() as u32,
            hub_degree: self.delegates.as_ref().map_or(delegates::NONE, |d| d.degree),
        };
        // Contract: as `launch_top_down_plain`'s, the lists placed by `place_compressed` from
        // the part's out-lists (each encoded relative to its local id, the bytes padded to 8),
        // with a degree a local vertex and the restart points of every list of
        // `RESTART_MIN_EDGES` (at most `LONG_LIST_EDGES`) edges or more.
        launch.run(grid_for(gpu, frontier_len as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        let mut launch = Launch::new(gpu);
        let params = BfsPartTopDownLongCompressedParams {
            byte_offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
            bytes: DeviceAddress::new(graph.targets.device_ptr(stream)),
            degrees: launch.read(&extras.degrees),
            column_degrees: launch.read_or_null(column_degrees),
            restart_points: launch.read(&extras.restart_points),
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            long_table: launch.read(&self.long_table),
            next_bits: launch.write(&mut self.next_bits),
            ghost_bits: launch.write(&mut self.ghost_bits),
            ghost_globals: launch.read(&self.ghosts),
            seen_bits: launch.read_or_null(self.seen_gathered.then_some(&self.global_bits)),
            counters: launch.write(&mut self.counters),
            first: part.first,
            owned: part.owned,
            level,
        };
        // Contract: as above, after the frontier kernel registered the pieces, in stream order.
        launch.run(blocks_of(self.long_blocks, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// Flags the rank's own hubs that the next frontier holds and counts them
    /// (`bfs_part_hub_flags`), at the level's end.
    pub(super) fn launch_hub_flags(&mut self) -> Result<()> {
        let gpu = self.gpu;
        let Some(hubs) = self.delegates.as_mut() else { return Ok(()) };
        if hubs.owned_left == 0 {
            // The last level's flags were read by this one, if it was top-down.
            if !std::mem::replace(&mut hubs.flags_clear, true) {
                gpu.zero(&mut hubs.flags)?;
            }
            return Ok(());
        }
        gpu.zero(&mut hubs.flags)?;
        hubs.flags_clear = false;
        let mut launch = Launch::new(gpu);
        let params = BfsPartHubFlagsParams {
            owned_hubs: launch.read(&hubs.owned_hubs),
            owned_len: hubs.owned_len,
            first_hub: hubs.first_hub,
            next_bits: launch.read(&self.next_bits),
            flags: launch.write(&mut hubs.flags),
            counters: launch.write(&mut self.counters),
        };
        // Contract: the own hubs are owned local ids with share bits, their indices from
        // `first_hub` within the flags' bits.
        launch.run(grid_for(gpu, hubs.owned_len as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// Packs the ghosts the level claimed into pairs for their owners.
    pub(super) fn launch_pack_ghosts(&mut self) -> Result<()> {
        let gpu = self.gpu;
        let ghosts = self.part.out_lists.ghosts().len();
        require(
            names::BFS_PART_PACK_GHOSTS,
            self.sent.len() >= 2 * ghosts && self.ghost_bits.len() >= ghosts.div_ceil(32),
            || format!("{} pair words and {} bit words for {ghosts} ghosts", self.sent.len(), self.ghost_bits.len()),
        )?;
        let mut launch = Launch::new(gpu);
        let params = BfsPartPackGhostsParams {
            ghost_bits: launch.read(&self.ghost_bits),
            ghost_globals: launch.read(&self.ghosts),
            parents: launch.read(&self.parents),
            owned: self.part.owned,
            ghost_regions: launch.read(&self.ghost_regions),
            world: self.regions.len() as u32 - 1,
            sent: launch.write(&mut self.sent),
            sent_counts: launch.write(&mut self.sent_counts),
        };
        // Contract: the regions run from ghost 0 to the ghost count in rank order, `sent` has
        // two words a ghost, `sent_counts` was zeroed by `begin_level`; blocks of
        // `PARTITIONED_BLOCK` threads, a word a thread.
        launch.run(grid_for(gpu, ghosts.div_ceil(32) as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    pub(super) fn launch_receive(&mut self, pairs: u32, level: u32) -> Result<()> {
        let (gpu, part) = (self.gpu, self.part);
        require(names::BFS_PART_RECEIVE, 2 * pairs as usize <= self.received.len(), || {
            format!("{pairs} pairs in a buffer of {} words", self.received.len())
        })?;
        let stream = gpu.stream();
        let mut launch = Launch::new(gpu);
        let params = BfsPartReceiveParams {
            offsets: DeviceAddress::new(self.out_lists.offsets.device_ptr(stream)),
            // The owned vertices' out-degrees where the offsets do not give them: a compressed
            // part's (its offsets count bytes) or a 2D part's (its lists are a block's share).
            degrees: launch.read_or_null(
                self.column.as_ref().map(|column| &column.degrees).or(self
                    .out_lists
                    .compressed
                    .as_ref()
                    .map(|extras| &extras.degrees)),
            ),
            pairs: launch.read(&self.received),
            pairs_len: pairs,
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            next_bits: launch.write(&mut self.next_bits),
            counters: launch.write(&mut self.counters),
            first: part.first,
            level,
        };
        // Contract: every pair's vertex is owned here (the sender bucketed it by owner); the
        // out-degrees are the compressed lists' own, or null for plain ones.
        launch.run(grid_for(gpu, pairs as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// Copies the gathered frontier onto the in-list graph's ghosts' local ids.
    pub(super) fn launch_local_frontier(&mut self) -> Result<()> {
        let alone = self.alone();
        let gpu = self.gpu;
        let in_lists = self.in_lists.as_ref().unwrap_or(&self.out_lists);
        let in_ghosts = self.in_ghosts.as_ref().unwrap_or(&self.ghosts);
        let local_n = in_lists.num_vertices();
        require(names::BFS_PART_LOCAL_FRONTIER, self.local_bits.len() >= local_n.div_ceil(32) as usize, || {
            format!("{} words for {local_n} local vertices", self.local_bits.len())
        })?;
        let mut launch = Launch::new(gpu);
        let params = BfsPartLocalFrontierParams {
            share_bits: launch.read(&self.bits),
            global_bits: launch.read(frontier_bitmap(alone, &self.bits, &self.global_bits)),
            ghost_globals: launch.read(in_ghosts),
            local_bits: launch.write(&mut self.local_bits),
            owned: self.part.owned,
            local_n,
        };
        // Contract: the share has the owned vertices' bits, the global bitmap every vertex's,
        // the in-list graph's ghosts are its vertices past `owned`; a warp a word from the
        // one where the ghosts begin.
        let words = local_n.div_ceil(32) - self.part.owned / 32;
        launch.run(grid_for(gpu, 32 * words as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// The bottom-up kernel, naming in-neighbors as `lookup` says
    /// ([`lookup`](warpath_interface::bfs::partitioned::lookup)).
    /// The owned vertices `vertices` only (`begin` a multiple of 32, `end` one too or `owned`),
    /// on the side stream in `chunk_blocks` blocks where `side` says so.
    pub(super) fn launch_bottom_up(
        &mut self,
        level: u32,
        lookup: u32,
        vertices: std::ops::Range<u32>,
        side: bool,
    ) -> Result<()> {
        let alone = self.alone();
        let (gpu, part) = (self.gpu, self.part);
        let stream = gpu.stream();
        // An undirected graph's out-lists are its in-lists.
        let in_lists = self.in_lists.as_ref().unwrap_or(&self.out_lists);
        let in_ghosts = self.in_ghosts.as_ref().unwrap_or(&self.ghosts);
        check_stretch(names::BFS_PART_BOTTOM_UP, &vertices, part.owned)?;
        if in_lists.is_compressed() {
            return self.launch_bottom_up_compressed(level, lookup, vertices, side);
        }
        let in_offsets = in_lists.offsets.device_ptr(stream);
        let config = self.bottom_up_grid(&vertices, side);
        let mut launch = if side { Launch::on_side(gpu)? } else { Launch::new(gpu) };
        let in_targets = match &self.in_names {
            InNames::GlobalCopy(copy) => launch.read(copy),
            InNames::Global | InNames::Local => DeviceAddress::new(in_lists.targets.device_ptr(stream)),
        };
        let params = BfsPartBottomUpParams {
            in_offsets: DeviceAddress::new(in_offsets),
            in_targets,
            in_ghost_globals: launch.read(in_ghosts),
            out_offsets: DeviceAddress::new(self.out_lists.offsets.device_ptr(stream)),
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            share_bits: launch.read(&self.bits),
            frontier_bits: launch.read(&self.local_bits),
            global_bits: launch.read(frontier_bitmap(alone, &self.bits, &self.global_bits)),
            lookup,
            next_bits: launch.write(&mut self.next_bits),
            counters: launch.write(&mut self.counters),
            first: part.first,
            owned: part.owned,
            begin: vertices.start,
            end: vertices.end,
            level,
        };
        // Contract: the in-lists were placed from the part's in-list graph, whose ghosts'
        // global ids are `in_ghosts`, and the targets read are global ids where `lookup` says
        // so (`in_names`); the share has a bit for every owned vertex, the global bitmap for
        // every vertex (the whole frontier: `gather_global_bits`), and the local frontier
        // (read when `lookup` is `LOCAL_FRONTIER`) for each of the in-list graph's vertices;
        // the stretch checked above.
        launch.run(config, Residency::Any, &params)?;
        Ok(())
    }

    /// A bottom-up launch's grid over `vertices`: on the side stream at most `chunk_blocks`
    /// blocks, which leave the collective beside it its multiprocessors.
    pub(super) fn bottom_up_grid(&self, vertices: &std::ops::Range<u32>, side: bool) -> cudarc::driver::LaunchConfig {
        let mut config = grid_for(self.gpu, vertices.len() as u64, PARTITIONED_BLOCK);
        if side {
            config.grid_dim.0 = config.grid_dim.0.min(self.chunk_blocks.max(1));
        }
        config
    }

    /// `launch_bottom_up` over compressed in-lists (local ids: no copy with global ids).
    pub(super) fn launch_bottom_up_compressed(
        &mut self,
        level: u32,
        lookup: u32,
        vertices: std::ops::Range<u32>,
        side: bool,
    ) -> Result<()> {
        let alone = self.alone();
        let (gpu, part) = (self.gpu, self.part);
        let stream = gpu.stream();
        let in_lists = self.in_lists.as_ref().unwrap_or(&self.out_lists);
        let in_ghosts = self.in_ghosts.as_ref().unwrap_or(&self.ghosts);
        let Some(out_extras) = self.out_lists.compressed.as_ref() else {
            return Ok(require(names::BFS_PART_BOTTOM_UP_COMPRESSED, false, || "plain out-lists".into())?);
        };
        require(
            names::BFS_PART_BOTTOM_UP_COMPRESSED,
            matches!(self.in_names, InNames::Local | InNames::Global),
            || "in-lists named by a copy with global ids".into(),
        )?;
        let config = self.bottom_up_grid(&vertices, side);
        let mut launch = if side { Launch::on_side(gpu)? } else { Launch::new(gpu) };
        let params = BfsPartBottomUpCompressedParams {
            in_byte_offsets: DeviceAddress::new(in_lists.offsets.device_ptr(stream)),
            in_bytes: DeviceAddress::new(in_lists.targets.device_ptr(stream)),
            in_ghost_globals: launch.read(in_ghosts),
            out_degrees: launch.read(&out_extras.degrees),
            distances: launch.write(&mut self.distances),
            parents: launch.write(&mut self.parents),
            visited: launch.write(&mut self.visited),
            share_bits: launch.read(&self.bits),
            frontier_bits: launch.read(&self.local_bits),
            global_bits: launch.read(frontier_bitmap(alone, &self.bits, &self.global_bits)),
            lookup,
            next_bits: launch.write(&mut self.next_bits),
            counters: launch.write(&mut self.counters),
            first: part.first,
            owned: part.owned,
            begin: vertices.start,
            end: vertices.end,
            level,
        };
        // Contract: as `launch_bottom_up`'s, the in-lists placed by `place_compressed` (each
        // list encoded relative to its local id, local-id entries; global ids only where the
        // part's local ids are the global ids: `InNames::Global`), a degree an out-list.
        launch.run(config, Residency::Any, &params)?;
        Ok(())
    }

    /// Packs the frontier's share bits into its queue.
    pub(super) fn launch_pack_queue(&mut self) -> Result<()> {
        let gpu = self.gpu;
        let words = self.part.owned.div_ceil(32);
        require(names::BFS_PART_PACK_QUEUE, self.frontier.len() >= self.part.owned as usize, || {
            format!("a queue of {} for {} vertices", self.frontier.len(), self.part.owned)
        })?;
        let mut launch = Launch::new(gpu);
        let params = BfsPartPackQueueParams {
            bits: launch.read(&self.bits),
            words,
            queue: launch.write(&mut self.frontier),
            fill: launch.write(&mut self.pack_fill),
        };
        // Contract: the share has `words` words naming owned vertices only, the queue room for
        // all of them, the fill zeroed by `begin_level`.
        launch.run(grid_for(gpu, words as u64, PARTITIONED_BLOCK), Residency::Any, &params)?;
        Ok(())
    }
}
