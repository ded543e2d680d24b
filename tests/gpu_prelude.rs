//! Every device-prelude wrapper and every operator run on the GPU and checked against values
//! computed here.
//! Skips, saying why, on machines without a CUDA device.

mod common;

use common::{gpu_or_skip, Rng};
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::selftest;
use warpath::graph::{CompressedGraph, EdgeList, GraphBuilder};

#[test]
fn thread_block_grid_and_lane_indices() {
    let Some(gpu) = gpu_or_skip("thread_block_grid_and_lane_indices") else { return };
    let (grid, block) = (5, 96);
    let rows = selftest::indices(&gpu, grid, block).unwrap();
    for (global, row) in rows.iter().enumerate() {
        let global = global as u32;
        let (thread, blk) = (global % block, global / block);
        let lane = thread % 32;
        let expected = [thread, blk, block, grid, lane, thread / 32, grid * block, (1u32 << lane) - 1];
        assert_eq!(*row, expected, "thread {global}");
    }
}

#[test]
fn warp_ballot_any_all_and_active_mask() {
    let Some(gpu) = gpu_or_skip("warp_ballot_any_all_and_active_mask") else { return };
    let mut rng = Rng::new(7);
    // Warp 0 random, warp 1 all false, warp 2 all true, warp 3 random sparse.
    let mut predicates: Vec<u32> = (0..32).map(|_| rng.next_u32() & 1).collect();
    predicates.extend([0; 32]);
    predicates.extend([1; 32]);
    predicates.extend((0..32).map(|_| rng.next_u32().is_multiple_of(7) as u32));
    let rows = selftest::warp_vote(&gpu, &predicates).unwrap();
    for (warp, lanes) in predicates.chunks(32).enumerate() {
        let ballot = lanes.iter().enumerate().fold(0u32, |acc, (lane, &p)| acc | ((p != 0) as u32) << lane);
        for lane in 0..32 {
            let row = rows[warp * 32 + lane];
            assert_eq!(row[0], ballot, "ballot, warp {warp}");
            assert_eq!(row[1], (ballot != 0) as u32, "any, warp {warp}");
            assert_eq!(row[2], (ballot == u32::MAX) as u32, "all, warp {warp}");
            if lane % 2 == 0 {
                assert_eq!(row[3], 0x5555_5555, "active mask of even lanes");
                assert_eq!(row[4], ballot & 0x5555_5555, "ballot over even lanes");
            } else {
                assert_eq!(&row[3..], &[0, 0], "odd lanes skip the branch");
            }
        }
    }
}

#[test]
fn warp_match_any_groups_equal_values_and_reduce_min_takes_a_groups_least() {
    let Some(gpu) = gpu_or_skip("warp_match_any_groups_equal_values_and_reduce_min_takes_a_groups_least") else {
        return;
    };
    let mut rng = Rng::new(11);
    // A warp of few distinct values, one of all-distinct values, one of a single value.
    let mut values: Vec<u32> = (0..32).map(|_| rng.next_u32() % 5).collect();
    values.extend(0..32u32);
    values.extend([u32::MAX; 32]);
    let rows = selftest::warp_match(&gpu, &values).unwrap();
    for (warp, lanes) in values.chunks(32).enumerate() {
        for (lane, &value) in lanes.iter().enumerate() {
            let expected = lanes.iter().enumerate().fold(0u32, |acc, (other, &v)| acc | ((v == value) as u32) << other);
            assert_eq!(rows[warp * 32 + lane][0], expected, "warp {warp}, lane {lane}");
            assert_eq!(rows[warp * 32 + lane][1], expected.trailing_zeros(), "group minimum, warp {warp}, lane {lane}");
        }
    }
}

#[test]
fn warp_shuffles_idx_up_down_xor() {
    let Some(gpu) = gpu_or_skip("warp_shuffles_idx_up_down_xor") else { return };
    let mut rng = Rng::new(11);
    let values: Vec<u32> = (0..64).map(|_| rng.next_u32()).collect();
    for delta in [0u32, 1, 5, 16, 31] {
        let rows = selftest::shuffle(&gpu, &values, delta).unwrap();
        for (i, row) in rows.iter().enumerate() {
            let (warp, lane) = (i / 32 * 32, (i % 32) as u32);
            let at = |l: u32| values[warp + l as usize];
            let up = if lane >= delta { at(lane - delta) } else { at(lane) };
            let down = if lane + delta < 32 { at(lane + delta) } else { at(lane) };
            let wide_index = (warp as u32) + delta;
            let expected = [at(delta), up, down, at(lane ^ delta), at(delta) ^ wide_index];
            assert_eq!(*row, expected, "thread {i}, delta {delta}");
        }
    }
}

#[test]
fn popc_and_ffs() {
    let Some(gpu) = gpu_or_skip("popc_and_ffs") else { return };
    let mut rng = Rng::new(3);
    let mut values = vec![0, 1, 2, 0x8000_0000, u32::MAX, 0x0001_0000];
    values.extend((0..500).map(|_| rng.next_u32() >> (rng.next_u32() % 32)));
    let rows = selftest::bits(&gpu, &values).unwrap();
    for (x, row) in values.iter().zip(&rows) {
        let ffs = if *x == 0 { 0 } else { x.trailing_zeros() + 1 };
        assert_eq!(*row, [x.count_ones(), ffs], "value {x:#x}");
    }
}

#[test]
fn shared_memory_arrays_and_block_barrier() {
    let Some(gpu) = gpu_or_skip("shared_memory_arrays_and_block_barrier") else { return };
    let mut rng = Rng::new(5);
    let values: Vec<u32> = (0..selftest::SHARED_BLOCK * 6).map(|_| rng.next_u32()).collect();
    let (reversed, sums) = selftest::shared_reverse(&gpu, &values).unwrap();
    for (b, block) in values.chunks(selftest::SHARED_BLOCK).enumerate() {
        let expected: Vec<u32> = block.iter().rev().copied().collect();
        assert_eq!(&reversed[b * block.len()..(b + 1) * block.len()], &expected[..], "block {b}");
        assert_eq!(sums[b], block.iter().fold(0u32, |a, &x| a.wrapping_add(x)), "sum of block {b}");
    }
}

/// The old values exch returned plus its final value are the initial value plus every input,
/// as multisets: each exchange hands on exactly one value.
fn check_exchange_chain<T: Ord + Copy + std::fmt::Debug>(initial: T, values: &[T], returned: &[T], last: T) {
    let mut seen: Vec<T> = returned.to_vec();
    seen.push(last);
    let mut expected: Vec<T> = values.to_vec();
    expected.push(initial);
    seen.sort();
    expected.sort();
    assert_eq!(seen, expected, "exchange chain");
}

#[test]
fn device_scope_atomics_u32() {
    let Some(gpu) = gpu_or_skip("device_scope_atomics_u32") else { return };
    let mut rng = Rng::new(13);
    let values: Vec<u32> = (0..5000).map(|_| rng.next_u32() % 1_000_000 + 7).collect();
    let initial = [10, u32::MAX, 0, 0, 99, 3];
    let (cells, exchanged) = selftest::atomics_u32(&gpu, &values, initial).unwrap();
    let sum = values.iter().fold(0u32, |a, &v| a.wrapping_add(v));
    assert_eq!(cells[0], 10u32.wrapping_add(sum), "add");
    assert_eq!(cells[1], *values.iter().min().unwrap(), "min");
    assert_eq!(cells[2], *values.iter().max().unwrap(), "max");
    assert_eq!(cells[3], values.iter().fold(0, |a, v| a | 1 << (v % 32)), "or");
    assert_eq!(cells[5], 3u32.wrapping_add(sum), "cas loop");
    check_exchange_chain(99, &values, &exchanged, cells[4]);
}

#[test]
fn device_scope_atomics_u64() {
    let Some(gpu) = gpu_or_skip("device_scope_atomics_u64") else { return };
    let mut rng = Rng::new(17);
    let values: Vec<u64> = (0..5000).map(|_| rng.next_u64() >> 3).collect();
    let initial = [1 << 40, u64::MAX, 0, 0, 5, 1];
    let (cells, exchanged) = selftest::atomics_u64(&gpu, &values, initial).unwrap();
    let sum = values.iter().fold(0u64, |a, &v| a.wrapping_add(v));
    assert_eq!(cells[0], (1u64 << 40).wrapping_add(sum), "add");
    assert_eq!(cells[1], *values.iter().min().unwrap(), "min");
    assert_eq!(cells[2], *values.iter().max().unwrap(), "max");
    assert_eq!(cells[3], values.iter().fold(0, |a, v| a | 1 << (v % 64)), "or");
    assert_eq!(cells[5], 1u64.wrapping_add(sum), "cas loop");
    check_exchange_chain(5, &values, &exchanged, cells[4]);
}

#[test]
fn reduce_min_lowers_each_cell_to_its_smallest_value() {
    let Some(gpu) = gpu_or_skip("reduce_min_lowers_each_cell_to_its_smallest_value") else { return };
    let mut rng = Rng::new(29);
    let values: Vec<u64> = (0..20_000).map(|_| rng.next_u64() >> 1).collect();
    let initial = [u64::MAX, 0, 1 << 62, u64::MAX, 5, u64::MAX, u64::MAX];
    let cells = selftest::reduce_min_u64(&gpu, &values, &initial).unwrap();
    let expected: Vec<u64> = (0..initial.len())
        .map(|c| values.iter().skip(c).step_by(initial.len()).fold(initial[c], |a, &v| a.min(v)))
        .collect();
    assert_eq!(cells, expected);
}

#[test]
fn grid_stride_loop_covers_every_index_once() {
    let Some(gpu) = gpu_or_skip("grid_stride_loop_covers_every_index_once") else { return };
    for (n, grid, block) in [(1u32, 1u32, 32u32), (1000, 2, 64), (100_003, 7, 128), (31, 4, 256)] {
        let out = selftest::grid_stride(&gpu, n, grid, block).unwrap();
        let expected: Vec<u32> = (0..n).map(|i| 3 * i + 1).collect();
        assert_eq!(out, expected, "n {n}, grid {grid}, block {block}");
    }
}

#[test]
fn warp_aggregated_append_gives_each_lane_one_slot() {
    let Some(gpu) = gpu_or_skip("warp_aggregated_append_gives_each_lane_one_slot") else { return };
    let mut rng = Rng::new(19);
    let flags: Vec<u32> = (0..20_000).map(|i| (i % 97 == 0 || rng.next_u32().is_multiple_of(3)) as u32).collect();
    let mut queue = selftest::warp_append(&gpu, &flags).unwrap();
    queue.sort_unstable();
    let expected: Vec<u32> = (0..flags.len() as u32).filter(|&i| flags[i as usize] != 0).collect();
    assert_eq!(queue, expected);
}

#[test]
fn block_exclusive_scan_for_several_block_sizes() {
    let Some(gpu) = gpu_or_skip("block_exclusive_scan_for_several_block_sizes") else { return };
    let mut rng = Rng::new(23);
    for block in [32u32, 96, 256, 1024] {
        let values: Vec<u32> = (0..block * 3).map(|_| rng.next_u32() % 1000).collect();
        let (prefixes, totals) = selftest::block_scan(&gpu, &values, block).unwrap();
        for (b, chunk) in values.chunks(block as usize).enumerate() {
            let mut running = 0;
            for (i, &v) in chunk.iter().enumerate() {
                assert_eq!(prefixes[b * block as usize + i], running, "block size {block}, block {b}, thread {i}");
                running += v;
            }
            assert_eq!(totals[b], running, "total of block {b} (size {block})");
        }
    }
}

#[test]
fn binary_search_over_shared_and_global_sorted_arrays() {
    let Some(gpu) = gpu_or_skip("binary_search_over_shared_and_global_sorted_arrays") else { return };
    let mut rng = Rng::new(29);
    // Sorted with runs of repeats (the search must land on the last of a run), first entry 0.
    let mut sorted64 = vec![0u64];
    while sorted64.len() < 256 {
        let step = if rng.next_u32().is_multiple_of(4) { 0 } else { 1 + (rng.next_u32() % 1000) as u64 };
        sorted64.push(sorted64.last().unwrap() + step * (1 << 24));
    }
    let mut sorted32 = vec![0u32];
    while sorted32.len() < 256 {
        let step = if rng.next_u32().is_multiple_of(4) { 0 } else { 1 + rng.next_u32() % 50 };
        sorted32.push(sorted32.last().unwrap() + step);
    }
    // Keys: every entry exactly, random values across both ranges, and the extremes.
    let top = *sorted64.last().unwrap();
    let mut keys: Vec<u64> = sorted64.clone();
    keys.extend(sorted32.iter().map(|&v| v as u64));
    keys.extend([0, 1, u32::MAX as u64, top, top + 1, u64::MAX]);
    while !keys.len().is_multiple_of(256) {
        let key = if rng.next_u32().is_multiple_of(2) {
            (rng.next_u32() as u64 * rng.next_u32() as u64) % (top + 1)
        } else {
            (rng.next_u32() % 13_000) as u64
        };
        keys.push(key);
    }
    let last_at_most = |sorted: &[u64], key: u64| sorted.iter().rposition(|&v| v <= key).unwrap() as u32;
    let sorted32_wide: Vec<u64> = sorted32.iter().map(|&v| v as u64).collect();
    for len in [1u32, 2, 31, 32, 33, 200, 256] {
        let found = selftest::search(&gpu, &sorted64, &sorted32, len, &keys).unwrap();
        for (i, (&key, row)) in keys.iter().zip(&found).enumerate() {
            let key32 = key.min(u32::MAX as u64);
            let expected = [
                last_at_most(&sorted64[..32], key),
                last_at_most(&sorted32_wide, key32),
                last_at_most(&sorted64[..len as usize], key),
            ];
            assert_eq!(*row, expected, "key {i} ({key}), length {len}");
        }
    }
}

#[test]
fn varint_lists_decode_by_thread_by_warp_and_from_restart_points() {
    let Some(gpu) = gpu_or_skip("varint_lists_decode_by_thread_by_warp_and_from_restart_points") else { return };
    let mut rng = Rng::new(41);
    // Gaps of every varint length: a hub with random far neighbors (up to 3-byte gaps), dense
    // short lists, and a scale-free graph.
    let n = 400_000u32;
    let mut edges: Vec<(u32, u32)> = (0..6000).map(|_| (7, rng.next_u32() % n)).collect();
    edges.extend((0..20_000u32).map(|v| (v, v + 1)));
    edges.extend((0..3000).map(|_| (rng.next_u32() % n, rng.next_u32() % n)));
    let mixed = GraphBuilder::new().build(EdgeList::new(n as u64, edges, true)).unwrap();
    let kron = generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 4).unwrap();
    for (label, graph) in [("mixed", &mixed), ("kron:14", &kron)] {
        let packed = CompressedGraph::encode(graph);
        for interval in [64u64, 1000] {
            let (by_thread, by_warp) = selftest::varint_decode(&gpu, &packed, interval).unwrap();
            let mut expected = Vec::with_capacity(graph.num_edges() as usize);
            for v in 0..graph.num_vertices() as u32 {
                let list = graph.neighbors(v);
                let skipped = if list.len() as u64 > interval { interval as usize } else { 0 };
                expected.extend(std::iter::repeat_n(0, skipped));
                expected.extend_from_slice(&list[skipped..]);
            }
            assert_eq!(by_thread.len(), expected.len(), "{label}");
            let first_wrong = |got: &[u32]| got.iter().zip(&expected).position(|(a, b)| a != b);
            assert_eq!(first_wrong(&by_thread), None, "{label}, interval {interval}: thread decoding");
            assert_eq!(first_wrong(&by_warp), None, "{label}, interval {interval}: warp decoding");
        }
    }
}

/// Edge offsets of a CSR whose list lengths cross every threshold of the gathering operators
/// (32 for a warp, 256 for a block, the two-edge batches' rows), in several tiles of 256
/// vertices, between random short and long lists and empty ones.
fn operator_test_offsets(rng: &mut Rng) -> Vec<u64> {
    let mut degrees: Vec<u64> =
        vec![0, 1, 5, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 511, 512, 513, 600, 1000, 3000];
    for _ in 0..900 {
        degrees.push(match rng.next_below(10) {
            0 => 0,
            1..=6 => rng.next_below(32),
            7 | 8 => 32 + rng.next_below(300),
            _ => 256 + rng.next_below(2000),
        });
    }
    let mut offsets = vec![0u64];
    for degree in degrees {
        offsets.push(offsets.last().unwrap() + degree);
    }
    offsets
}

/// The owner of every edge of the CSR `offsets`, and whether its list has `min_edges` or more.
fn owners_of_edges(offsets: &[u64], min_edges: u64) -> (Vec<u32>, Vec<bool>) {
    let (mut owners, mut long) = (Vec::new(), Vec::new());
    for (v, range) in offsets.windows(2).enumerate() {
        for _ in range[0]..range[1] {
            owners.push(v as u32);
            long.push(range[1] - range[0] >= min_edges);
        }
    }
    (owners, long)
}

#[test]
fn gather_tile_visits_every_edge_once_with_its_owner() {
    let Some(gpu) = gpu_or_skip("gather_tile_visits_every_edge_once_with_its_owner") else { return };
    let offsets = operator_test_offsets(&mut Rng::new(21));
    let (owners, _) = owners_of_edges(&offsets, 0);
    // Warp enlistment from 32 edges (many tiles a block) and from 256 (the scan packs them).
    for warp_list_edges in [32, 256] {
        let counts = selftest::gather_tile(&gpu, &offsets, warp_list_edges).unwrap();
        for (edge, &owner) in owners.iter().enumerate() {
            assert_eq!(counts.hits[edge], 1, "visits of edge {edge} (warp lists from {warp_list_edges})");
            assert_eq!(counts.owners[edge], owner, "owner of edge {edge} (warp lists from {warp_list_edges})");
        }
    }
}

#[test]
fn shared_lists_visit_every_long_list_edge_once_with_its_owner() {
    let Some(gpu) = gpu_or_skip("shared_lists_visit_every_long_list_edge_once_with_its_owner") else { return };
    let offsets = operator_test_offsets(&mut Rng::new(38));
    for (min_edges, blocks) in [(32, 7), (256, 3), (256, 64), (5000, 4)] {
        let (owners, long) = owners_of_edges(&offsets, min_edges);
        let (by_split, by_search) = selftest::shared_lists(&gpu, &offsets, min_edges, blocks).unwrap();
        for (way, counts) in [("split", &by_split), ("search", &by_search)] {
            for (edge, (&owner, &long)) in owners.iter().zip(&long).enumerate() {
                let expected = if long { (1, owner) } else { (0, 0) };
                assert_eq!(
                    (counts.hits[edge], counts.owners[edge]),
                    expected,
                    "edge {edge} of vertex {owner} by {way}, lists from {min_edges} edges, {blocks} blocks"
                );
            }
        }
    }
}
