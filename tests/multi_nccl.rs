//! The NCCL communicator (feature `nccl`) on one GPU, world size 1: its collectives and the
//! partitioned BFS over it, with the ranks' levels on the CPU and on their GPUs (over every GPU
//! of the machine, so on a multi-GPU machine the bitmap's all-gather crosses between them), and
//! the partitioned connected components over every GPU. Skips without a GPU or without libnccl
//! (scripts/nccl-link makes the name cudarc loads). Run: `cargo test --release --features nccl --test multi_nccl`.
#![cfg(feature = "nccl")]

mod common;

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use common::{build, gpu_or_skip, say_skipping};
use warpath::bfs::verify;
use warpath::engine::PlacementOptions;
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::GpuContext;
use warpath::multi::gpu::{bfs_sources_on_gpu, by_source};
use warpath::multi::nccl::{resolve_gpus, run_gpu_ranks_on, run_gpu_ranks_with, share_unique_id, Nccl, STUCK_PATIENCE};
use warpath::multi::watch::LastResort;
use warpath::multi::{
    bfs_rank, partition_1d, partition_2d, Communicator, Grid, Partition, PartitionedOptions, ReduceOp,
};
use warpath::Graph;

/// The test's turn on the GPUs, or None when it skips. The tests take turns: run at once (cargo's
/// default), their NCCL communicators over the same GPUs never finished setting up on 4 H200s
/// (every test past 150 s), where one at a time they take seconds.
fn nccl_or_skip(test: &str) -> Option<MutexGuard<'static, ()>> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    if gpu_or_skip(test).is_none() {
        return None;
    }
    if !warpath::gpu::nccl::library_present() {
        say_skipping(test, "libnccl cannot be loaded (scripts/nccl-link)");
        return None;
    }
    Some(ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

#[test]
fn collectives_on_one_rank_return_the_ranks_own_data() {
    let Some(_turn) = nccl_or_skip("collectives_on_one_rank_return_the_ranks_own_data") else {
        return;
    };
    let answers = run_gpu_ranks_on(&[0], |_gpu, comm| {
        let mut words = [3u64, 5, u64::MAX];
        comm.all_reduce(&mut words, ReduceOp::Sum)?;
        let mut ors = [0b1010u64];
        comm.all_reduce(&mut ors, ReduceOp::Or)?;
        let mut gathered = [0u64; 2];
        comm.all_gather(&[7, 8], &mut gathered)?;
        let mut incoming = Vec::new();
        comm.all_to_all_v(&[vec![1, 2, 3]], &mut incoming)?;
        comm.barrier()?;
        Ok((words, ors, gathered, incoming, comm.bytes_sent()))
    })
    .unwrap();
    assert_eq!(answers, [([3, 5, u64::MAX], [0b1010], [7, 8], vec![1, 2, 3], 0)]);
    assert_eq!(std::env::var("NCCL_NVLS_ENABLE").as_deref(), Ok("0"));
}

#[test]
fn the_partitioned_bfs_runs_over_nccl() {
    let Some(_turn) = nccl_or_skip("the_partitioned_bfs_runs_over_nccl") else {
        return;
    };
    let g = generate(&"kron:12".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let partition = partition_1d(&g, None, 1).unwrap();
    let source = warpath::bfs::random_source(&g, 1).unwrap();
    let ranks = run_gpu_ranks_on(&[0], |_gpu, comm| {
        bfs_rank(comm, &partition.parts[0], source, &PartitionedOptions::default())
    })
    .unwrap();
    let run = warpath::multi::levels::concatenate(ranks, source);
    assert_eq!(run.result.distances, warpath::bfs::bfs_sequential(&g, source).distances);
    verify::validate(&g, &run.result).unwrap();
}

#[test]
fn gpu_ranks_over_nccl_on_every_gpu_give_valid_trees() {
    let Some(_turn) = nccl_or_skip("gpu_ranks_over_nccl_on_every_gpu_give_valid_trees") else {
        return;
    };
    let ordinals = resolve_gpus("all").unwrap();
    let kron = generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let urand = generate(&"urand:13".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    // A star on vertex 0 over a path: edges crowd the low ids, so the cut is not equal ranges
    // and the bitmap's gathered shares are laid out after the gather.
    let n = 1u32 << 13;
    let mut edges: Vec<(u32, u32)> = (1..n / 2).map(|leaf| (0, leaf)).collect();
    edges.extend((1..n).map(|v| (v - 1, v)));
    let crowded = build(n as u64, edges, true);
    // Every top-down level counts its pairs first (by default the small ones send fixed slots).
    let counted = PartitionedOptions { padded_pairs: 0, ..Default::default() };
    // Every bottom-up frontier as the ranks' queues of ids (by default none).
    let sparse = PartitionedOptions { sparse_frontier_share: 1, ..Default::default() };
    // Bottom-up from the first levels: in one launch a level, and in 7 stretches, each
    // stretch's words gathered while the next is searched (by default `BOTTOM_UP_CHUNKS`).
    let early = PartitionedOptions { alpha: 1e-6, ..Default::default() };
    let one_launch = PartitionedOptions { bottom_up_chunks: 1, ..early.clone() };
    let seven = PartitionedOptions { bottom_up_chunks: 7, ..early.clone() };
    let cases = [
        ("kron:14", &kron, PartitionedOptions::default()),
        ("kron:14 bottom-up early", &kron, early),
        ("kron:14 bottom-up early in one launch", &kron, one_launch),
        ("urand:13 bottom-up early in 7 stretches", &urand, seven),
        ("urand:13", &urand, PartitionedOptions::default()),
        ("crowded low ids", &crowded, PartitionedOptions::default()),
        ("kron:14 counted pairs", &kron, counted),
        ("kron:14 sparse frontiers", &kron, sparse.clone()),
        ("crowded low ids sparse frontiers", &crowded, sparse),
    ];
    for (spec, g, options) in cases {
        let partition = partition_1d(g, None, ordinals.len()).unwrap();
        if spec == "crowded low ids" && ordinals.len() > 1 {
            let equal = partition.bounds[1] as usize == (g.num_vertices() / ordinals.len()).next_multiple_of(64);
            assert!(!equal, "{:?}", partition.bounds);
        }
        check_over_nccl(spec, g, &partition, &ordinals, &options);
    }
}

/// The partitioned BFS of `partition` (of `g`) from three seeded sources, one rank on each GPU
/// of `ordinals`: the sequential BFS's distances, valid trees, one rank a GPU; over a grid (2D,
/// top-down only) every reached vertex's out-edges inspected once over the ranks.
fn check_over_nccl(spec: &str, g: &Graph, partition: &Partition, ordinals: &[usize], options: &PartitionedOptions) {
    let sources = warpath::bfs::random_sources(g, 2, 3);
    let ranks = run_gpu_ranks_on(ordinals, |gpu, comm| {
        bfs_sources_on_gpu(comm, gpu, &partition.parts[comm.rank()], &sources, options)
    })
    .unwrap();
    for (run, &source) in by_source(ranks, &sources).iter().zip(&sources) {
        assert_eq!(run.result.distances, warpath::bfs::bfs_sequential(g, source).distances, "{spec}");
        verify::validate(g, &run.result).unwrap();
        assert_eq!(run.ranks, ordinals.len());
        if partition.grid().is_some() {
            let inspected: u64 = run.levels.iter().map(|l| l.trace.edges_inspected).sum();
            assert_eq!(inspected, run.result.edges_in_component(g), "{spec}");
        }
    }
}

/// Ranks that join through an id file, as one process a GPU does (`--rank`), here each a thread
/// over every GPU: they share no host rows, so a level's counts are gathered on the devices
/// (`gather_rows_on_device`), where `run_gpu_ranks_on`'s threads trade them in host memory.
#[test]
fn ranks_joined_through_an_id_file_gather_their_counts_on_the_devices() {
    let Some(_turn) = nccl_or_skip("ranks_joined_through_an_id_file_gather_their_counts_on_the_devices") else {
        return;
    };
    let ordinals = resolve_gpus("all").unwrap();
    let world = ordinals.len();
    let g = generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let partition = partition_1d(&g, None, world).unwrap();
    let sources = warpath::bfs::random_sources(&g, 2, 3);
    let scratch = common::Scratch::new("nccl-id");
    let id_file = scratch.path("job.id");
    // Counted top-down levels gather their pair counts too.
    let options = PartitionedOptions { padded_pairs: 0, ..Default::default() };
    let ranks: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..world)
            .map(|rank| {
                let (id_file, ordinals, partition, sources, options) =
                    (&id_file, &ordinals, &partition, &sources, &options);
                scope.spawn(move || {
                    let id = share_unique_id(id_file, rank, Duration::from_secs(60))?;
                    let gpu = GpuContext::with_device(ordinals[rank])?;
                    let mut comm = Nccl::join_on(&gpu, rank, world, id)?;
                    bfs_sources_on_gpu(&mut comm, &gpu, &partition.parts[rank], sources, options)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap().unwrap()).collect()
    });
    for (run, &source) in by_source(ranks, &sources).iter().zip(&sources) {
        assert_eq!(run.result.distances, warpath::bfs::bfs_sequential(&g, source).distances);
        verify::validate(&g, &run.result).unwrap();
    }
}

/// The 2D BFS over every GPU, on every grid of them (on 2 GPUs 1x2, where only the pairs cross,
/// and 2x1, where only the column's frontier does; on 4 also 2x2), and on one GPU the 1x1 grid;
/// plain and delta-varint blocks.
#[test]
fn gpu_ranks_over_nccl_run_the_2d_bfs() {
    let Some(_turn) = nccl_or_skip("gpu_ranks_over_nccl_run_the_2d_bfs") else {
        return;
    };
    let ordinals = resolve_gpus("all").unwrap();
    let world = ordinals.len();
    let kron = generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let urand = generate(&"urand:13".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let counted = PartitionedOptions { padded_pairs: 0, ..Default::default() };
    let placement = PlacementOptions { compressed: true, ..Default::default() };
    let compressed = PartitionedOptions { placement, ..Default::default() };
    let grids = (1..=world).filter(|rows| world % rows == 0).map(|rows| Grid::new(rows, world / rows).unwrap());
    for grid in grids {
        for (spec, g, options) in [
            ("kron:14", &kron, PartitionedOptions::default()),
            ("urand:13 counted", &urand, counted.clone()),
            ("kron:14 compressed", &kron, compressed.clone()),
        ] {
            check_over_nccl(&format!("{spec}, {grid} grid"), g, &partition_2d(g, grid).unwrap(), &ordinals, &options);
        }
    }
}

#[test]
fn gpu_ranks_over_nccl_on_every_gpu_give_the_sequential_components() {
    let Some(_turn) = nccl_or_skip("gpu_ranks_over_nccl_on_every_gpu_give_the_sequential_components") else {
        return;
    };
    use warpath::multi::cc::{by_run, components_on_gpu};
    let ordinals = resolve_gpus("all").unwrap();
    for spec in ["kron:14", "urand:13"] {
        let g = generate(&spec.parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let partition = partition_1d(&g, None, ordinals.len()).unwrap();
        let options = warpath::cc::CcOptions::default();
        let ranks = run_gpu_ranks_on(&ordinals, |gpu, comm| {
            components_on_gpu(comm, gpu, &partition.parts[comm.rank()], Some(&g), &options, &Default::default(), 2)
        })
        .unwrap();
        let expected = warpath::cc::components_sequential(&g);
        for run in by_run(ranks) {
            assert_eq!(run.components, expected, "{spec}");
            assert_eq!(run.ranks, ordinals.len());
        }
    }
}

/// Every GPU of the machine, or None (the test skips) where there are fewer than two: a rank
/// that fails needs a peer to stop.
fn two_gpus_or_skip(test: &str) -> Option<Vec<usize>> {
    let ordinals = resolve_gpus("all").unwrap();
    if ordinals.len() < 2 {
        say_skipping(test, "needs two GPUs or more");
        return None;
    }
    Some(ordinals)
}

/// A rank that fails while the others traverse (here before its first collective) stops
/// them: their waits for it end, their communicators aborted, and the error returned is the
/// failed rank's own. The GPUs then run a whole BFS again.
#[test]
fn a_gpu_rank_that_fails_stops_the_others_and_its_error_is_returned() {
    let test = "a_gpu_rank_that_fails_stops_the_others_and_its_error_is_returned";
    let Some(_turn) = nccl_or_skip(test) else { return };
    let Some(ordinals) = two_gpus_or_skip(test) else { return };
    let g = generate(&"kron:16".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let partition = partition_1d(&g, None, ordinals.len()).unwrap();
    let sources = warpath::bfs::random_sources(&g, 4, 3);
    let options = PartitionedOptions::default();
    let started = std::time::Instant::now();
    let outcome = run_gpu_ranks_on(&ordinals, |gpu, comm| {
        if comm.rank() == 1 {
            return Err(warpath::Error::InvalidArgument("rank 1 gave up on purpose".into()));
        }
        bfs_sources_on_gpu(comm, gpu, &partition.parts[comm.rank()], &sources, &options)
    });
    let error = outcome.err().expect("a rank failed").to_string();
    assert_eq!(error, "rank 1 gave up on purpose");
    assert!(started.elapsed() < Duration::from_secs(60), "the others stopped in {:?}", started.elapsed());
    let ranks = run_gpu_ranks_on(&ordinals, |gpu, comm| {
        bfs_sources_on_gpu(comm, gpu, &partition.parts[comm.rank()], &sources, &options)
    })
    .unwrap();
    for (run, &source) in by_source(ranks, &sources).iter().zip(&sources) {
        assert_eq!(run.result.distances, warpath::bfs::bfs_sequential(&g, source).distances);
    }
}

/// `--gpus` ranks' last resort: where a rank failed and another is stuck where no wait asks
/// the board (here a host loop that ignores it, standing for NCCL's join), it runs once
/// `STUCK_PATIENCE` later with the failure; where the ranks end in time it never runs.
#[test]
fn thread_ranks_stuck_after_a_failure_reach_the_last_resort() {
    let test = "thread_ranks_stuck_after_a_failure_reach_the_last_resort";
    let Some(_turn) = nccl_or_skip(test) else { return };
    let Some(ordinals) = two_gpus_or_skip(test) else { return };
    let recorder = || {
        let record = std::sync::Arc::new(Mutex::new(Vec::<String>::new()));
        let writer = std::sync::Arc::clone(&record);
        let resort: LastResort = Box::new(move |why| writer.lock().unwrap().push(why.to_string()));
        (record, resort)
    };
    let (stuck, resort) = recorder();
    let started = std::time::Instant::now();
    let outcome = run_gpu_ranks_with(&ordinals, Some(resort), |_, comm| {
        if comm.rank() == 1 {
            return Err(warpath::Error::InvalidArgument("rank 1 gave up on purpose".into()));
        }
        while stuck.lock().unwrap().is_empty() && started.elapsed() < 3 * STUCK_PATIENCE {
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    });
    assert_eq!(outcome.err().expect("a rank failed").to_string(), "rank 1 gave up on purpose");
    let waited = started.elapsed();
    assert!(waited >= STUCK_PATIENCE && waited < 2 * STUCK_PATIENCE, "the last resort after {waited:?}");
    let world = ordinals.len();
    assert_eq!(*stuck.lock().unwrap(), [format!("rank 1 of {world} failed: rank 1 gave up on purpose")]);
    // Ranks that stop at their waits end in time: the last resort's clock finds them ended.
    let (in_time, resort) = recorder();
    let g = generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let partition = partition_1d(&g, None, world).unwrap();
    let sources = warpath::bfs::random_sources(&g, 4, 2);
    let outcome = run_gpu_ranks_with(&ordinals, Some(resort), |gpu, comm| {
        if comm.rank() == 1 {
            return Err(warpath::Error::InvalidArgument("rank 1 gave up again".into()));
        }
        bfs_sources_on_gpu(comm, gpu, &partition.parts[comm.rank()], &sources, &PartitionedOptions::default())
    });
    assert!(outcome.is_err());
    std::thread::sleep(STUCK_PATIENCE + Duration::from_secs(1));
    assert!(in_time.lock().unwrap().is_empty(), "{:?}", in_time.lock().unwrap());
}

/// Ranks joined through an id file (one process a GPU, here threads) watch each other through
/// files beside it: a rank that fails says so in its file, and the others, waiting for it in
/// a collective, stop with its error.
#[test]
fn ranks_joined_through_an_id_file_stop_when_one_says_it_failed() {
    let test = "ranks_joined_through_an_id_file_stop_when_one_says_it_failed";
    let Some(_turn) = nccl_or_skip(test) else { return };
    let Some(ordinals) = two_gpus_or_skip(test) else { return };
    use warpath::multi::nccl::clear_rank_files;
    use warpath::multi::watch::{Board, FileBoard, Heartbeat};
    let world = ordinals.len();
    let g = generate(&"kron:16".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let partition = partition_1d(&g, None, world).unwrap();
    let sources = warpath::bfs::random_sources(&g, 4, 3);
    let scratch = common::Scratch::new("nccl-watch");
    let id_file = scratch.path("job.id");
    clear_rank_files(&id_file, world);
    let started = std::time::Instant::now();
    let outcomes: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..world)
            .map(|rank| {
                let (id_file, ordinals, partition, sources) = (&id_file, &ordinals, &partition, &sources);
                scope.spawn(move || -> warpath::Result<usize> {
                    let id = share_unique_id(id_file, rank, Duration::from_secs(60))?;
                    let gpu = GpuContext::with_device(ordinals[rank])?;
                    let mut comm = Nccl::join_on(&gpu, rank, world, id)?;
                    let board = FileBoard::join(id_file, rank, world, Heartbeat::default(), None)?;
                    comm.watch_peers(&gpu, Board::Files(board))?;
                    if rank == 1 {
                        let error = warpath::Error::InvalidArgument("rank 1's part did not fit".into());
                        comm.fail(&error);
                        return Err(error);
                    }
                    let options = PartitionedOptions::default();
                    bfs_sources_on_gpu(&mut comm, &gpu, &partition.parts[rank], sources, &options)
                        .map(|runs| runs.len())
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    assert!(started.elapsed() < Duration::from_secs(60), "the others stopped in {:?}", started.elapsed());
    for (rank, outcome) in outcomes.into_iter().enumerate() {
        let error = outcome.err().unwrap_or_else(|| panic!("rank {rank} should have stopped")).to_string();
        let expected = if rank == 1 {
            "rank 1's part did not fit".to_string()
        } else {
            format!("GPU: rank 1 of {world} failed: rank 1's part did not fit")
        };
        assert_eq!(error, expected, "rank {rank}");
    }
    assert!(id_file.with_extension("id.rank1").exists(), "the failed rank's file stays");
    assert!(!id_file.with_extension("id.rank0").exists(), "a rank that stopped for a peer removes its file");
}
