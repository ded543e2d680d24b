//! The partitioned BFS's per-rank kernels (the host's `multi::gpu`): one rank owns a range of
//! vertices and keeps a local graph whose ids are `0..owned` for its own vertices and
//! `owned..` for the ghosts its lists name; `first` is the global id of local vertex 0.
//! Parents are written as global ids. Every level writes the next frontier as bits of the
//! rank's share of the global bitmap (the ranks all-gather the shares for bottom-up), which
//! `bfs_part_pack_queue` packs into a queue of owned local ids before a top-down level; a
//! top-down level also sets the bits of the ghosts it claimed, which `bfs_part_pack_ghosts`
//! packs into pairs for their owners.
//!
//! Every kernel that labels vertices claims them in `visited`, one bit a local id: a top-down
//! probe reads a bitmap that stays in the L2 cache instead of a label array 32 times its size
//! (Merrill et al., section 4.2, the status-lookup bitmask; here updated atomically, so it
//! decides), and bottom-up skips 32 visited vertices with one read.

/// Threads per block of the partitioned kernels: a multiple of 32, as they require.
pub const PARTITIONED_BLOCK: u32 = 256;

/// Lists of at least this many edges are not expanded by the warp that meets them in
/// `bfs_part_top_down` but registered in the level's table of long lists, whose edges, packed
/// end to end, `bfs_part_top_down_long` cuts into one even range a block (the device operators'
/// `shared_lists`; node splitting and the edge-based split of the load-balancing paper): a
/// block's worth of edges, so that no warp takes more than eight rounds over a list of its own.
pub const LONG_LIST_EDGES: u64 = PARTITIONED_BLOCK as u64;

/// Words per entry of the long-list table (`operators::shared_lists::ENTRY_WORDS`).
pub const LONG_LIST_WORDS: usize = 3;

/// Entries of a rank's long-list table, for a part of `owned` vertices whose out-lists hold
/// `edges` edges: one per list of [`LONG_LIST_EDGES`] edges or more (a level expands each list
/// at most once), never more than the owned vertices, and one to spare.
pub const fn long_list_capacity(owned: u64, edges: u64) -> u64 {
    let long = edges / LONG_LIST_EDGES;
    (if long < owned { long } else { owned }) + 1
}

/// The words of the counters every partitioned kernel adds to (`u32`s; the `u64` counts are
/// pairs of words at an even index, the buffer 8-byte aligned).
pub mod counters {
    /// Owned vertices appended to the next frontier (the queue's length).
    pub const NEXT_LEN: usize = 0;
    // Word 1 is padding: the `u64` counts start at even words.
    /// `u64`: the out-degrees of the next frontier's vertices.
    pub const FOUND_EDGES: usize = 2;
    /// `u64`: in-list entries bottom-up read.
    pub const INSPECTED: usize = 4;
    /// `u64`: hubs of the rank's next frontier (`bfs_part_hub_flags`), whose lists every rank
    /// expands at a top-down level from its own piece ([`delegates`](super::delegates)).
    pub const HUBS: usize = 6;
    /// `u64`: the long-list table's tally (`operators::shared_lists::Tally`: entries and
    /// packed edges registered this level).
    pub const LONG_TALLY: usize = 8;
    /// `u64`: the hub-list table's tally (`bfs_part_hub_lists`' registrations), as
    /// `LONG_TALLY` for the frontier's long lists.
    pub const HUB_TALLY: usize = 10;
    /// The counters buffer's length in words.
    pub const WORDS: usize = 12;
}

/// Vertex delegates (Pearce, Gokhale and Amato, "Faster Parallel Traversal of Scale Free
/// Graphs at Extreme Scale with Vertex Delegates", SC 2014), applied to the 1D partition: every
/// rank keeps, for each hub (an out-degree of at least the partition's hub degree), the piece
/// of the hub's out-list that names its own vertices. At a top-down level whose frontier holds
/// hubs, every rank expands its pieces (`bfs_part_hub_lists` registers them in a table of their
/// own, `bfs_part_top_down_long` walks it with the hub's global id as the parent) and the hub's
/// owner skips the hub's whole list (`bfs_part_top_down`'s `hub_degree`): a hub's edges are
/// spread over the ranks by their targets and none of them becomes a (vertex, parent) pair for
/// another rank. Which hubs are in the frontier travels as bits, a bit a hub, each set only
/// by the hub's owner (`bfs_part_hub_flags`), so that the ranks' sum of the words is their OR.
pub mod delegates {
    /// `bfs_part_top_down`'s `hub_degree` where no list is a hub's.
    pub const NONE: u64 = u64::MAX;
}

/// A pair slot that holds no pair: its vertex word. A top-down level whose frontier has few
/// out-edges sends each owner a fixed number of slots, the most pairs it could need (so that no
/// rank waits on the host for the level's counts before sending), the unused ones marked so;
/// `bfs_part_receive` passes over them. No vertex has this id (ids are below the vertex count,
/// itself below `u32::MAX`).
pub const NO_PAIR: u32 = u32::MAX;

/// The field list of `bfs_part_init`'s parameters.
#[macro_export]
macro_rules! bfs_part_init_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_init`'s parameters: `n` local labels unreached and their visited bits
            /// (`n` bits) clear, then, when `source_local < n`, that vertex at distance 0 with
            /// parent `source_global`, its bit set.
            kernel bfs_part_init, in [$crate::bfs::partitioned], struct BfsPartInitParams {
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                n: u32,
                source_local: u32,
                source_global: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_top_down`'s parameters.
#[macro_export]
macro_rules! bfs_part_top_down_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_top_down`'s parameters: the local out-lists (`offsets`, `targets` over
            /// `owned + ghosts` local ids, ghosts' lists empty), the local labels and visited
            /// bits, the frontier queue at distance `level`, the next frontier's share bits,
            /// this level's ghost bits (a bit a ghost), the table of long lists
            /// (`long_capacity` entries of `LONG_LIST_WORDS` words), the counters; lists of
            /// `hub_degree` edges or more are hubs', which their pieces expand
            /// ([`delegates`](crate::bfs::partitioned::delegates); `delegates::NONE`: no hubs).
            /// `seen_bits`, where not null, is a frontier already all-gathered in this traversal
            /// (a bit a global id): a ghost set there was reached, whoever owns it, so it is
            /// neither claimed nor sent (its global id read from `ghost_globals`).
            ///
            /// A 2D rank's level (`multi::partition_2d`) passes its column's frontier: ghosts
            /// too, whose lists the rank holds, and whose global ids, read from `ghost_globals`,
            /// are the parents written. It passes `degrees`, where not null the whole graph's
            /// out-degree of each owned vertex (the part holds only its block's share of each
            /// list), and `count_inspected` 1: the kernel adds the lengths of the lists it reads
            /// to the `INSPECTED` counter (elsewhere the host counts them before the level).
            kernel bfs_part_top_down, in [$crate::bfs::partitioned], struct BfsPartTopDownParams {
                offsets: $crate::DevicePtr<u64>,
                degrees: $crate::DevicePtr<u32>,
                targets: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                frontier: $crate::DevicePtr<u32>,
                frontier_len: u32,
                next_bits: $crate::DevicePtrMut<u32>,
                ghost_bits: $crate::DevicePtrMut<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                seen_bits: $crate::DevicePtr<u32>,
                long_table: $crate::DevicePtrMut<u64>,
                long_capacity: u32,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                owned: u32,
                level: u32,
                count_inspected: u32,
                hub_degree: u64,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_top_down_long`'s parameters.
#[macro_export]
macro_rules! bfs_part_top_down_long_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_top_down_long`'s parameters: as `bfs_part_top_down`'s, with a table of
            /// lists and its tally (at word `tally_word` of the counters) in place of the
            /// frontier: the long lists `bfs_part_top_down` registered (`targets` the out-lists'),
            /// or the hubs' pieces `bfs_part_hub_lists` registered (`targets` the pieces', every
            /// one an owned local id; `first` 0, the entries' owners the hubs' global ids);
            /// `seen_bits` as `bfs_part_top_down`'s. A vertex's out-degree is the difference of
            /// its `offsets`, or where `degrees` is not null its entry there (a compressed part's
            /// hubs' pieces are plain lists, its offsets a compressed list's bytes).
            kernel bfs_part_top_down_long, in [$crate::bfs::partitioned], struct BfsPartTopDownLongParams {
                offsets: $crate::DevicePtr<u64>,
                degrees: $crate::DevicePtr<u32>,
                targets: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                long_table: $crate::DevicePtr<u64>,
                tally_word: u32,
                next_bits: $crate::DevicePtrMut<u32>,
                ghost_bits: $crate::DevicePtrMut<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                seen_bits: $crate::DevicePtr<u32>,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                owned: u32,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_top_down_compressed`'s parameters.
#[macro_export]
macro_rules! bfs_part_top_down_compressed_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_top_down_compressed`'s parameters: `bfs_part_top_down`'s over
            /// delta-varint out-lists (`byte_offsets` into `bytes`, each list encoded relative to
            /// its local id; `degrees` the out-degrees), with the long lists' restart table
            /// (`long_vertices` ascending, `long_first` their first restart points, `long_count`
            /// of them: [`compressed`](crate::compressed)) so that a list of
            /// [`LONG_LIST_EDGES`](crate::bfs::partitioned::LONG_LIST_EDGES) or more is
            /// registered by its pieces. Lists of `hub_degree` edges or more are hubs', as for
            /// `bfs_part_top_down` (their pieces are plain lists, walked by
            /// `bfs_part_top_down_long`). A 2D rank passes its column's frontier, the whole
            /// graph's out-degrees of its owned vertices in `column_degrees` (null elsewhere:
            /// `degrees` are the out-degrees) and `count_inspected` 1, as `bfs_part_top_down`'s.
            kernel bfs_part_top_down_compressed, in [$crate::bfs::partitioned],
            struct BfsPartTopDownCompressedParams {
                byte_offsets: $crate::DevicePtr<u64>,
                bytes: $crate::DevicePtr<u8>,
                degrees: $crate::DevicePtr<u32>,
                column_degrees: $crate::DevicePtr<u32>,
                long_vertices: $crate::DevicePtr<u32>,
                long_first: $crate::DevicePtr<u32>,
                long_count: u32,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                frontier: $crate::DevicePtr<u32>,
                frontier_len: u32,
                next_bits: $crate::DevicePtrMut<u32>,
                ghost_bits: $crate::DevicePtrMut<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                seen_bits: $crate::DevicePtr<u32>,
                long_table: $crate::DevicePtrMut<u64>,
                long_capacity: u32,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                owned: u32,
                level: u32,
                count_inspected: u32,
                hub_degree: u64,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_top_down_long_compressed`'s parameters.
#[macro_export]
macro_rules! bfs_part_top_down_long_compressed_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_top_down_long_compressed`'s parameters: `bfs_part_top_down_long`'s over
            /// the compressed out-lists of `bfs_part_top_down_compressed`, whose table entries
            /// are the long lists' pieces (an entry's start its first restart point in
            /// `restart_points`, its length its pieces); `column_degrees` as there.
            kernel bfs_part_top_down_long_compressed, in [$crate::bfs::partitioned],
            struct BfsPartTopDownLongCompressedParams {
                byte_offsets: $crate::DevicePtr<u64>,
                bytes: $crate::DevicePtr<u8>,
                degrees: $crate::DevicePtr<u32>,
                column_degrees: $crate::DevicePtr<u32>,
                restart_points: $crate::DevicePtr<u64>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                long_table: $crate::DevicePtr<u64>,
                next_bits: $crate::DevicePtrMut<u32>,
                ghost_bits: $crate::DevicePtrMut<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                seen_bits: $crate::DevicePtr<u32>,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                owned: u32,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_hub_flags`' parameters.
#[macro_export]
macro_rules! bfs_part_hub_flags_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_hub_flags`' parameters: the rank's own hubs (`owned_hubs`, local ids,
            /// `owned_len` of them, hub indices from `first_hub` on) that the next frontier's
            /// share bits hold, set in `flags` (a bit a hub of the whole graph, zeroed before)
            /// and counted in the counters' `HUBS`.
            kernel bfs_part_hub_flags, in [$crate::bfs::partitioned], struct BfsPartHubFlagsParams {
                owned_hubs: $crate::DevicePtr<u32>,
                owned_len: u32,
                first_hub: u32,
                next_bits: $crate::DevicePtr<u32>,
                flags: $crate::DevicePtrMut<u32>,
                counters: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_hub_lists`' parameters.
#[macro_export]
macro_rules! bfs_part_hub_lists_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_hub_lists`' parameters: the frontier's hubs (`flags`, a bit each of the
            /// `hubs` hubs, `bfs_part_hub_flags`' words summed over the ranks as `u64`s), their
            /// global ids (`hub_globals`) and this rank's pieces of their lists
            /// (`piece_offsets`, `hubs + 1` entries), each non-empty piece registered in `table`
            /// (`capacity` entries of `LONG_LIST_WORDS` words) with the tally at the counters'
            /// `HUB_TALLY`.
            kernel bfs_part_hub_lists, in [$crate::bfs::partitioned], struct BfsPartHubListsParams {
                flags: $crate::DevicePtr<u64>,
                hubs: u32,
                hub_globals: $crate::DevicePtr<u32>,
                piece_offsets: $crate::DevicePtr<u64>,
                table: $crate::DevicePtrMut<u64>,
                capacity: u32,
                counters: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_pack_ghosts`' parameters.
#[macro_export]
macro_rules! bfs_part_pack_ghosts_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_pack_ghosts`' parameters: the ghosts a top-down level claimed
            /// (`ghost_bits`), their global ids and parents (the labels past `owned`), packed as
            /// (vertex, parent) pairs for their owners: rank `r`'s ghosts are ghost indices
            /// `ghost_regions[r]..ghost_regions[r + 1]` (`world + 1` entries), its pairs go to
            /// `sent` from pair `ghost_regions[r]` on, `sent_counts[r]` of them.
            kernel bfs_part_pack_ghosts, in [$crate::bfs::partitioned], struct BfsPartPackGhostsParams {
                ghost_bits: $crate::DevicePtr<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                parents: $crate::DevicePtr<u32>,
                owned: u32,
                ghost_regions: $crate::DevicePtr<u32>,
                world: u32,
                sent: $crate::DevicePtrMut<u32>,
                sent_counts: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_receive`'s parameters.
#[macro_export]
macro_rules! bfs_part_receive_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_receive`'s parameters: `pairs_len` (global vertex, global parent) pairs
            /// other ranks found for this one, labelled at distance `level + 1` where unvisited
            /// and set in the next frontier's share bits; a slot whose vertex is [`NO_PAIR`]
            /// holds none. The found edges are the out-degrees `degrees` holds, or, where it is
            /// null (plain lists), the differences of `offsets`.
            kernel bfs_part_receive, in [$crate::bfs::partitioned], struct BfsPartReceiveParams {
                offsets: $crate::DevicePtr<u64>,
                degrees: $crate::DevicePtr<u32>,
                pairs: $crate::DevicePtr<u32>,
                pairs_len: u32,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                next_bits: $crate::DevicePtrMut<u32>,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_local_frontier`'s parameters.
#[macro_export]
macro_rules! bfs_part_local_frontier_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_local_frontier`'s parameters: the frontier over the ghosts of an in-list
            /// graph of `local_n` local ids (`local_bits`, its words from the one where the
            /// ghosts begin), from the global bitmap at the ghosts' global ids and, in that first
            /// word, the rank's own share (`share_bits`, for the `owned` vertices).
            kernel bfs_part_local_frontier, in [$crate::bfs::partitioned], struct BfsPartLocalFrontierParams {
                share_bits: $crate::DevicePtr<u32>,
                global_bits: $crate::DevicePtr<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                local_bits: $crate::DevicePtrMut<u32>,
                owned: u32,
                local_n: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_global_targets`' parameters.
#[macro_export]
macro_rules! bfs_part_global_targets_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_global_targets`' parameters: the `edges` targets of an in-list graph
            /// (local ids: `0..owned` the rank's own vertices, from `first` on in global ids,
            /// the ghosts past them, their global ids in `ghost_globals`) written as global ids
            /// into `global_targets`.
            kernel bfs_part_global_targets, in [$crate::bfs::partitioned], struct BfsPartGlobalTargetsParams {
                targets: $crate::DevicePtr<u32>,
                edges: u64,
                ghost_globals: $crate::DevicePtr<u32>,
                first: u32,
                owned: u32,
                global_targets: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// How `bfs_part_bottom_up` finds out whether an in-neighbor is in the frontier
/// (`BfsPartBottomUpParams::lookup`).
pub mod lookup {
    /// In-list targets are local ids: an owned one is read in the rank's share, a ghost in the
    /// frontier over the in-list graph's local ids (`bfs_part_local_frontier`'s).
    pub const LOCAL_FRONTIER: u32 = 0;
    /// In-list targets are local ids: an owned one is read in the rank's share, a ghost in the
    /// global bitmap at its global id.
    pub const GHOST_IDS: u32 = 1;
    /// In-list targets are global ids (`bfs_part_global_targets`' copy): every in-neighbor is
    /// read in the global bitmap, as on one GPU.
    pub const GLOBAL_IDS: u32 = 2;
}

/// The field list of `bfs_part_begin_level`'s parameters.
#[macro_export]
macro_rules! bfs_part_begin_level_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_begin_level`'s parameters: what a level clears before its kernels,
            /// written by one launch instead of a memset or copy each. The counters block
            /// zeroed but for `INSPECTED`, which gets `inspected` (a top-down level's frontier
            /// out-edges; 0 for bottom-up, whose kernel counts them); `world` words of
            /// `sent_counts`, `next_words` of `next_bits`, `ghost_words` of `ghost_bits` and
            /// the queue's `pack_fill` zeroed; when `slot_pairs` is not 0, the fixed-size pair
            /// slots of every other rank `r` (pair `ghost_regions[r]` on, `min(slot_pairs, its
            /// ghosts)` pairs) marked empty in `sent`, all bits one.
            kernel bfs_part_begin_level, in [$crate::bfs::partitioned], struct BfsPartBeginLevelParams {
                counters: $crate::DevicePtrMut<u32>,
                inspected: u64,
                sent_counts: $crate::DevicePtrMut<u32>,
                world: u32,
                rank: u32,
                next_bits: $crate::DevicePtrMut<u32>,
                next_words: u32,
                ghost_bits: $crate::DevicePtrMut<u32>,
                ghost_words: u32,
                pack_fill: $crate::DevicePtrMut<u32>,
                ghost_regions: $crate::DevicePtr<u32>,
                slot_pairs: u32,
                sent: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_pack_queue`'s parameters.
#[macro_export]
macro_rules! bfs_part_pack_queue_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_pack_queue`'s parameters: the owned vertices whose bits `words` words of
            /// `bits` set, packed into `queue`, its length counted in `fill` (zero at launch).
            kernel bfs_part_pack_queue, in [$crate::bfs::partitioned], struct BfsPartPackQueueParams {
                bits: $crate::DevicePtr<u32>,
                words: u32,
                queue: $crate::DevicePtrMut<u32>,
                fill: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_shift_ids`' parameters.
#[macro_export]
macro_rules! bfs_part_shift_ids_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_shift_ids`' parameters: `add` added to each of the `len` ids at `ids`
            /// (a 2D rank's column frontier: a column member's owned local ids become the
            /// receiver's local ids of that member's block, `owned` plus where its ghosts start).
            kernel bfs_part_shift_ids, in [$crate::bfs::partitioned], struct BfsPartShiftIdsParams {
                ids: $crate::DevicePtrMut<u32>,
                len: u32,
                add: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_scatter_ids`' parameters.
#[macro_export]
macro_rules! bfs_part_scatter_ids_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_scatter_ids`' parameters: the bit of `ids[i] + add` set in `bits` for
            /// each of the `len` ids (a sparse bottom-up frontier: one rank's queue of owned
            /// local ids, `add` its first vertex, into the global bitmap).
            kernel bfs_part_scatter_ids, in [$crate::bfs::partitioned], struct BfsPartScatterIdsParams {
                ids: $crate::DevicePtr<u32>,
                len: u32,
                add: u32,
                bits: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_bottom_up`'s parameters.
#[macro_export]
macro_rules! bfs_part_bottom_up_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_bottom_up`'s parameters: the owned vertices' in-lists (global ids when
            /// `lookup` is [`lookup::GLOBAL_IDS`](crate::bfs::partitioned::lookup), else local
            /// ids of the in-list graph, whose ghosts' global ids are `in_ghost_globals`), the
            /// out-list offsets (for the found edges), the labels and visited bits, the frontier
            /// at distance `level` as `lookup` reads it: the rank's share (`share_bits`, its
            /// owned vertices), the frontier over the in-list graph's local ids
            /// (`frontier_bits`, from `bfs_part_local_frontier`), the global bitmap
            /// (`global_bits`); the next share bits (no queue: `bfs_part_pack_queue` makes one if
            /// a top-down level follows), the counters. The level covers the owned vertices
            /// `begin..end` (`begin` a multiple of 32, `end` one too or `owned`): a level in
            /// several launches writes whole words of `next_bits` in each, which can be traded
            /// while the next launch runs.
            kernel bfs_part_bottom_up, in [$crate::bfs::partitioned], struct BfsPartBottomUpParams {
                in_offsets: $crate::DevicePtr<u64>,
                in_targets: $crate::DevicePtr<u32>,
                in_ghost_globals: $crate::DevicePtr<u32>,
                out_offsets: $crate::DevicePtr<u64>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                share_bits: $crate::DevicePtr<u32>,
                frontier_bits: $crate::DevicePtr<u32>,
                global_bits: $crate::DevicePtr<u32>,
                lookup: u32,
                next_bits: $crate::DevicePtrMut<u32>,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                owned: u32,
                begin: u32,
                end: u32,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `bfs_part_bottom_up_compressed`'s parameters.
#[macro_export]
macro_rules! bfs_part_bottom_up_compressed_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `bfs_part_bottom_up_compressed`'s parameters: `bfs_part_bottom_up`'s over
            /// delta-varint in-lists (`in_byte_offsets` into `in_bytes`, each list encoded
            /// relative to its local id, its entries local ids of the in-list graph), with the
            /// out-degrees (`out_degrees`) for the found edges. `lookup` is `LOCAL_FRONTIER`,
            /// `GHOST_IDS` or, on a part whose local ids are the global ids, `GLOBAL_IDS`.
            kernel bfs_part_bottom_up_compressed, in [$crate::bfs::partitioned],
            struct BfsPartBottomUpCompressedParams {
                in_byte_offsets: $crate::DevicePtr<u64>,
                in_bytes: $crate::DevicePtr<u8>,
                in_ghost_globals: $crate::DevicePtr<u32>,
                out_degrees: $crate::DevicePtr<u32>,
                distances: $crate::DevicePtrMut<u32>,
                parents: $crate::DevicePtrMut<u32>,
                visited: $crate::DevicePtrMut<u32>,
                share_bits: $crate::DevicePtr<u32>,
                frontier_bits: $crate::DevicePtr<u32>,
                global_bits: $crate::DevicePtr<u32>,
                lookup: u32,
                next_bits: $crate::DevicePtrMut<u32>,
                counters: $crate::DevicePtrMut<u32>,
                first: u32,
                owned: u32,
                begin: u32,
                end: u32,
                level: u32,
            }
            $(=> $run)?
        }
    };
}

crate::bfs_part_init_fields!(crate::kernel_params);
crate::bfs_part_top_down_fields!(crate::kernel_params);
crate::bfs_part_top_down_long_fields!(crate::kernel_params);
crate::bfs_part_top_down_compressed_fields!(crate::kernel_params);
crate::bfs_part_top_down_long_compressed_fields!(crate::kernel_params);
crate::bfs_part_hub_flags_fields!(crate::kernel_params);
crate::bfs_part_hub_lists_fields!(crate::kernel_params);
crate::bfs_part_pack_ghosts_fields!(crate::kernel_params);
crate::bfs_part_receive_fields!(crate::kernel_params);
crate::bfs_part_local_frontier_fields!(crate::kernel_params);
crate::bfs_part_global_targets_fields!(crate::kernel_params);
crate::bfs_part_begin_level_fields!(crate::kernel_params);
crate::bfs_part_pack_queue_fields!(crate::kernel_params);
crate::bfs_part_shift_ids_fields!(crate::kernel_params);
crate::bfs_part_scatter_ids_fields!(crate::kernel_params);
crate::bfs_part_bottom_up_fields!(crate::kernel_params);
crate::bfs_part_bottom_up_compressed_fields!(crate::kernel_params);
