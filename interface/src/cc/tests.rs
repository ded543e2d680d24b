//! Layout tests of the CC kernels' interface, run on the host.

extern crate std;
use std::vec::Vec;

use core::mem::{offset_of, size_of};

use super::*;
use crate::tests::check_fields;
use crate::KernelParams;

#[test]
fn cc_kernels_share_their_parameters_after_the_graph() {
    check_fields::<CcPersistentParams>();
    check_fields::<CcPersistentCompressedParams>();
    let plain: Vec<&str> = CcPersistentParams::FIELDS.iter().map(|f| f.name).collect();
    let compressed: Vec<&str> = CcPersistentCompressedParams::FIELDS.iter().map(|f| f.name).collect();
    assert_eq!(plain[..4], ["out_offsets", "out_targets", "in_offsets", "in_targets"]);
    assert_eq!(compressed[..6], ["out_offsets", "out_bytes", "out_degrees", "in_offsets", "in_bytes", "in_degrees"]);
    assert_eq!(plain[4..], compressed[6..]);
    assert_eq!(
        plain[4..],
        [
            "n",
            "labels",
            "control",
            "trace",
            "trace_capacity",
            "neighbor_rounds",
            "samples",
            "seed",
            "flags",
            "local_chunk",
            "in_heads",
            "in_head_skips"
        ]
    );
    assert_eq!(offset_of!(CcPersistentParams, seed), 80);
    assert_eq!(offset_of!(CcPersistentParams, local_chunk), 92, "in the padding before in_heads");
    assert_eq!(size_of::<CcPersistentParams>(), 112);
    assert_eq!(crate::names::CC_PERSISTENT, "cc_persistent");
}

#[test]
fn control_block_and_trace_records_are_words_of_the_declared_layout() {
    assert_eq!(CC_CONTROL_WORDS, 5);
    assert_eq!(offset_of!(CcControl, largest), 4);
    assert_eq!(offset_of!(CcControl, records), 8);
    assert_eq!(offset_of!(CcControl, changed), 16);
    assert_eq!(CC_TRACE_WORDS, 6);
    assert_eq!(
        [CC_TRACE_PHASE, CC_TRACE_BYTES, CC_TRACE_TIME, CC_TRACE_STEPS, CC_TRACE_SWAPS, CC_TRACE_FAILED_SWAPS],
        [0, 1, 2, 3, 4, 5]
    );
}

#[test]
fn trace_phases_round_trip_through_their_words() {
    for phase in [
        TracePhase::NeighborRound(0),
        TracePhase::NeighborRound(7),
        TracePhase::Sampling,
        TracePhase::FinalLink,
        TracePhase::Compression,
        TracePhase::LocalLink,
        TracePhase::Naming,
        TracePhase::ClusterLink,
    ] {
        assert_eq!(TracePhase::from_word(phase.word()), Some(phase));
    }
    assert_eq!(TracePhase::from_word(9), None);
}

#[test]
fn flags_keep_their_bits_apart() {
    let single = [
        CcFlags::DIRECTED,
        CcFlags::SHILOACH_VISHKIN,
        CcFlags::SMALLER_NEIGHBOR_INIT,
        CcFlags::ROUND_COMPRESSION,
        CcFlags::GIANT_HOOKS,
        CcFlags::SYMMETRIC,
        CcFlags::SINGLE_VERTICES,
    ];
    let all = single.iter().fold(CcFlags::NONE, |all, &f| all.with(f, true));
    assert_eq!(all.bits().count_ones(), 7);
    for flag in single {
        assert!(all.contains(flag));
        assert!(!all.with(flag, false).contains(flag));
    }
}
