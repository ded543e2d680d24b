//! Layout tests, run on the host; the `const` asserts beside the types hold on both targets.
//! A kernel takes its parameter struct field by field, so what matters is each field's size
//! and alignment (the host hands the driver one pointer per field) and that the struct has no
//! field the kernel does not take; the offsets pin the C layout the host copies control blocks
//! and traces by.

extern crate std;
use std::vec::Vec;

use core::mem::{offset_of, size_of};

use crate::bfs::edge_queue::*;
use crate::bfs::multi_source::*;
use crate::bfs::per_level::*;
use crate::bfs::persistent::*;
use crate::{KernelParams, ParamField};

/// `(name, offset, size)` of every field.
fn layout<P: KernelParams>() -> Vec<(&'static str, usize, usize)> {
    P::FIELDS.iter().map(|f| (f.name, f.offset, f.size)).collect()
}

/// Fields cover the struct without overlapping, each aligned to its alignment, in order.
pub(crate) fn check_fields<P: KernelParams>() {
    let mut end = 0;
    for &ParamField { name, offset, size, align } in P::FIELDS {
        assert!(offset >= end && offset % align == 0 && offset - end < align, "{}: {name} at {offset}", P::KERNEL);
        end = offset + size;
    }
    assert_eq!(size_of::<P>(), end.next_multiple_of(8), "{}", P::KERNEL);
}

#[test]
fn parameter_structs_are_laid_out_field_after_field() {
    check_fields::<BfsInitParams>();
    check_fields::<BfsTopdownExpandParams>();
    check_fields::<BfsMultiSourceLevelParams>();
    check_fields::<BfsMultiSourceCountParams>();
    check_fields::<crate::scc::SccPassParams>();
    check_fields::<BfsPersistentInitParams>();
    check_fields::<BfsPersistentParams>();
    check_fields::<BfsPersistentCompressedParams>();
    check_fields::<BfsEdgeQueueParams>();
    assert_eq!(layout::<BfsInitParams>(), [("distances", 0, 8), ("parents", 8, 8), ("n", 16, 4), ("source", 20, 4)]);
    assert_eq!(
        layout::<BfsEdgeQueueParams>(),
        [
            ("offsets", 0, 8),
            ("targets", 8, 8),
            ("distances", 16, 8),
            ("parents", 24, 8),
            ("visited", 32, 8),
            ("vertex_queue", 40, 8),
            ("edge_queues", 48, 8),
            ("parent_queues", 56, 8),
            ("edge_capacity", 64, 8),
            ("control", 72, 8),
            ("trace", 80, 8),
            ("trace_capacity", 88, 4),
            ("strategy", 92, 4),
        ]
    );
}

/// The persistent kernels' lists: each kernel's graph arrays, then the same 18 parameters.
#[test]
fn persistent_kernels_share_their_parameters_after_the_graph() {
    let plain: Vec<&str> = BfsPersistentParams::FIELDS.iter().map(|f| f.name).collect();
    let compressed: Vec<&str> = BfsPersistentCompressedParams::FIELDS.iter().map(|f| f.name).collect();
    assert_eq!(plain[..4], ["out_offsets", "out_targets", "in_offsets", "in_targets"]);
    assert_eq!(
        compressed[..9],
        [
            "out_offsets",
            "out_bytes",
            "in_offsets",
            "in_bytes",
            "degrees",
            "restart_points",
            "long_vertices",
            "long_first",
            "long_count"
        ]
    );
    assert_eq!(plain[4..], compressed[9..]);
    assert_eq!(plain.len(), 4 + 18);
    assert_eq!(plain[4..7], ["n", "total_edges", "max_out_degree"]);
    assert_eq!(plain[plain.len() - 3..], ["flags", "in_heads", "in_head_skips"]);
    assert_eq!(offset_of!(BfsPersistentParams, flags), 140);
    assert_eq!(size_of::<BfsPersistentParams>(), 160);
}

#[test]
fn control_blocks_are_words_of_the_declared_layout() {
    assert_eq!(CONTROL_WORDS, 21);
    assert_eq!(offset_of!(PersistentControl, levels), 28);
    assert_eq!(offset_of!(PersistentControl, in_listed_vertices), 44);
    assert_eq!(offset_of!(PersistentControl, frontier_edges), 48);
    assert_eq!(offset_of!(PersistentControl, handoff_previous_edges), 152);
    assert_eq!(offset_of!(PersistentControl, handoff_flags), 160);
    assert_eq!(offset_of!(PersistentControl, stopped), 164);
    assert_eq!(EDGE_QUEUE_CONTROL_WORDS, 7);
    assert_eq!(offset_of!(EdgeQueueControl, edge_count), 16);
    assert_eq!(offset_of!(EdgeQueueControl, levels), 40);
    assert_eq!(offset_of!(EdgeQueueControl, spare), 52);
}

#[test]
fn trace_words_follow_the_record_fields() {
    assert_eq!(TRACE_WORDS, 8);
    assert_eq!(
        [
            TRACE_FLAGS,
            TRACE_FRONTIER,
            TRACE_EDGES,
            TRACE_BYTES,
            TRACE_BUS_BYTES,
            TRACE_FRONTIER_EDGES,
            TRACE_UNVISITED_EDGES,
            TRACE_TIME
        ],
        [0, 1, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(EDGE_TRACE_WORDS, 4);
    assert_eq!([EDGE_TRACE_FLAGS, EDGE_TRACE_ITEMS, EDGE_TRACE_CLAIMED, EDGE_TRACE_TIME], [0, 1, 2, 3]);
    let bits: Vec<u64> = [
        TraceFlags::BOTTOM_UP,
        TraceFlags::ALONE,
        TraceFlags::PACKED_QUEUE,
        TraceFlags::BUILT_BITMAP,
        TraceFlags::WROTE_QUEUE,
        TraceFlags::WROTE_BITMAP,
        TraceFlags::PREDICTED_SWITCH,
        TraceFlags::DOUBLE_SCAN,
    ]
    .iter()
    .map(|f| f.bits())
    .collect();
    assert_eq!(bits, (0..8).map(|bit| 1u64 << bit).collect::<Vec<_>>());
}

#[test]
fn persistent_flags_keep_their_fields_apart() {
    use crate::bfs::rule::RuleKind;
    let single = [
        PersistentFlags::BOTTOM_UP,
        PersistentFlags::SMALL_FRONTIERS,
        PersistentFlags::OFFSETS_MAPPED,
        PersistentFlags::LISTS_MAPPED,
        PersistentFlags::ASYNC_BOTTOM_UP,
        PersistentFlags::DISTANCES_ONLY,
        PersistentFlags::SWITCH_XBFS,
        PersistentFlags::ADAPTIVE_FRONTIER,
        PersistentFlags::DOUBLE_SCAN,
        PersistentFlags::SWITCH_CHECKS,
    ];
    let all = single.iter().fold(PersistentFlags::NONE, |all, &f| all | f);
    assert_eq!(all.bits().count_ones(), single.len() as u32);
    for balance in [Balance::Static, Balance::Thread, Balance::Warp] {
        for words in BottomUpChunk::WORDS {
            let chunk = BottomUpChunk::from_words(words).unwrap();
            let flags = all.with_balance(balance).with_chunk(chunk);
            assert_eq!((flags.balance(), flags.chunk().words()), (balance, words));
            assert!(flags.contains(all), "{flags:?}");
            assert_eq!(flags.with_balance(Balance::Static).with_chunk(BottomUpChunk::KERNEL_CHOICE), all);
        }
    }
    assert_eq!(BottomUpChunk::from_words(3), None);
    assert_eq!(BottomUpChunk::from_words(64), None);
    for rule in [RuleKind::Beamer, RuleKind::Xbfs, RuleKind::Checks] {
        assert_eq!(PersistentFlags::BOTTOM_UP.with_rule(rule).rule(), rule);
    }
    assert!(!PersistentFlags::DISTANCES_ONLY
        .with(PersistentFlags::DISTANCES_ONLY, false)
        .contains(PersistentFlags::DISTANCES_ONLY));
}

#[test]
fn a_chosen_chunk_picks_the_split_level_kernel_and_the_kernel_choice_goes_by_shape() {
    // A level of 10 frontier vertices before 1,000 unvisited (long searches), one of 1,000
    // before 10 (short ones): the host's chunk decides, else the shape does.
    for (frontier, unvisited_after, by_shape) in [(10, 1_000, true), (1_000, 10, false)] {
        assert_eq!(split_level_by_words(0, frontier, unvisited_after), by_shape);
        assert!(split_level_by_words(1, frontier, unvisited_after));
        for words in [2, 4, 8, 16, 32] {
            assert!(!split_level_by_words(words, frontier, unvisited_after));
        }
    }
}

#[test]
fn the_strategy_word_holds_kind_spread_and_sub_grid() {
    for kind in [EdgeQueueKind::ContractExpand, EdgeQueueKind::TwoPhase, EdgeQueueKind::Hybrid] {
        for spread in [false, true] {
            let strategy = EdgeQueueStrategy::new(kind, spread).with_sub_grid_blocks(132);
            assert_eq!((strategy.kind(), strategy.spread_tiles(), strategy.sub_grid_blocks()), (kind, spread, 132));
            assert_eq!(strategy.with_sub_grid_blocks(0), EdgeQueueStrategy::new(kind, spread));
        }
    }
    assert_eq!(EdgeQueueStrategy::new(EdgeQueueKind::Hybrid, true).bits(), 2 | 1 << 8);
}

#[test]
fn kernel_names_are_distinct() {
    let mut names: Vec<&str> = crate::names::all().collect();
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), count);
    assert_eq!(crate::names::BFS_PERSISTENT, "bfs_persistent");
}

#[test]
fn sssp_parameter_structs_are_laid_out_field_after_field() {
    use crate::sssp::*;
    check_fields::<SsspInitParams>();
    check_fields::<SsspDeltaSteppingParams>();
    check_fields::<SsspRelaxApartParams>();
    check_fields::<SsspWorklistParams>();
    check_fields::<SsspDecomposedParams>();
    check_fields::<SsspParentsParams>();
    check_fields::<SsspWeightSumParams>();
    assert_eq!(
        layout::<SsspDeltaSteppingParams>(),
        [
            ("offsets", 0, 8),
            ("targets", 8, 8),
            ("weights", 16, 8),
            ("distances", 24, 8),
            ("marks", 32, 8),
            ("near", 40, 8),
            ("settled", 48, 8),
            ("far", 56, 8),
            ("control", 64, 8),
            ("trace", 72, 8),
            ("shared_lists", 80, 8),
            ("delta", 88, 8),
            ("n", 96, 4),
            ("trace_capacity", 100, 4),
            ("flags", 104, 4),
            ("shared_list_capacity", 108, 4),
            ("max_degree", 112, 4),
            ("target", 116, 4),
            ("defer_from", 120, 4),
            ("apart_from", 124, 4),
            ("tail_growth", 128, 4),
            ("limit", 136, 8),
        ]
    );
    // The apart kernel takes the same fields, in the same places.
    assert_eq!(layout::<SsspRelaxApartParams>(), layout::<SsspDeltaSteppingParams>());
}

#[test]
fn sssp_control_blocks_keep_their_c_layout() {
    use crate::sssp::*;
    assert_eq!(offset_of!(DeltaControl, barrier_arrivals), 0);
    assert_eq!(offset_of!(DeltaControl, near_len), 4);
    assert_eq!(offset_of!(DeltaControl, settled_len), 16);
    assert_eq!(offset_of!(DeltaControl, far_len), 20);
    assert_eq!(offset_of!(DeltaControl, buckets), 32);
    assert_eq!(offset_of!(DeltaControl, steps), 36);
    assert_eq!(offset_of!(DeltaControl, trace_records), 40);
    assert_eq!(offset_of!(DeltaControl, small_runs), 44);
    assert_eq!(offset_of!(DeltaControl, far_min), 48);
    assert_eq!(offset_of!(DeltaControl, relaxations), 72);
    assert_eq!(offset_of!(DeltaControl, handoff), 80);
    assert_eq!(offset_of!(DeltaControl, handoff_bucket), 144);
    assert_eq!(offset_of!(DeltaControl, shared_tally), 160);
    assert_eq!(offset_of!(DeltaControl, started_ns), 184);
    assert_eq!(offset_of!(DeltaControl, bucket_relaxed), 192);
    assert_eq!(offset_of!(DeltaControl, deferred_rounds), 200);
    assert_eq!(offset_of!(DeltaControl, previous_bucket_relaxed), 208);
    assert_eq!(offset_of!(DeltaControl, apart_handoff), 216);
    assert_eq!(offset_of!(DeltaControl, stopped), 248);
    assert_eq!(offset_of!(DeltaControl, rounds_apart), 252);
    assert_eq!(offset_of!(DeltaControl, apart_bucket), 256);
    assert_eq!(offset_of!(DeltaControl, apart_share_from), 264);
    assert_eq!(DELTA_CONTROL_WORDS, 34);
    assert_eq!(SHARED_LIST_WORDS, 3);
    // A table of one entry per long list, and at least 2^18 (or n) for small steps.
    assert_eq!(shared_list_capacity(1000, 256_000), 1001);
    assert_eq!(shared_list_capacity(1 << 20, 1 << 20), (1 << 18) + 1);
    assert_eq!(shared_list_capacity(1 << 24, 1 << 30), (1 << 22) + 1);
    assert_eq!(offset_of!(WorklistControl, out_len), 4);
    assert_eq!(offset_of!(WorklistControl, sub_len), 8);
    assert_eq!(offset_of!(WorklistControl, changed), 12);
    assert_eq!(offset_of!(WorklistControl, relaxations), 16);
    assert_eq!(offset_of!(WorklistControl, edges), 24);
    assert_eq!(WORKLIST_CONTROL_WORDS, 4);
    // Every float's bits lie below the unreached distance, so atom.min never loses to it.
    assert!((f32::MAX.to_bits() as u64) < UNREACHED_DISTANCE);
    assert_eq!(weight_kind(flags::WEIGHTS_F32 | flags::NEAR_FAR), flags::WEIGHTS_F32);
}

#[test]
fn the_scatter_multiplier_permutes_every_tile_count() {
    use crate::cc::SCATTER_MULTIPLIER;
    // A prime above the most tiles a `u32` count makes (of 32 ids or more) is coprime to every
    // count.
    let most_tiles = (u32::MAX as u64).div_ceil(32);
    assert!(SCATTER_MULTIPLIER > most_tiles);
    assert!((2..).take_while(|d| d * d <= SCATTER_MULTIPLIER).all(|d| SCATTER_MULTIPLIER % d != 0));
    // The kernel's running sum visits every tile once, for counts around the grid's size.
    for tiles in [1u64, 2, 3, 31, 32, 33, 527, 528, 529, 1000, 97_657] {
        let walkers = 528; // the blocks of 132 multiprocessors, four each
        let mut seen = std::vec![false; tiles as usize];
        for first in 0..walkers.min(tiles) {
            let (mut tile, advance) = ((first * SCATTER_MULTIPLIER) % tiles, (walkers * SCATTER_MULTIPLIER) % tiles);
            let mut step = first;
            while step < tiles {
                assert!(!seen[tile as usize], "tile {tile} of {tiles} twice");
                seen[tile as usize] = true;
                step += walkers;
                tile += advance;
                if tile >= tiles {
                    tile -= tiles;
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "a tile of {tiles} never visited");
    }
}
