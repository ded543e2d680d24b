//! The in-process communicator: every collective gives every rank the same answer, in rank
//! order, on 1 to 7 ranks; bytes are counted; a rank that leaves makes the others' next
//! collective fail instead of hanging.

use warpath::multi::{agree_on, run_ranks, Communicator, ReduceOp};
use warpath::Error;

const WORLDS: [usize; 5] = [1, 2, 3, 4, 7];

#[test]
fn all_reduce_sums_maxes_and_ors_word_by_word() {
    for world in WORLDS {
        let answers = run_ranks(world, |comm| {
            let r = comm.rank() as u64;
            let mut sum = [r + 1, 10 * r, 1];
            comm.all_reduce(&mut sum, ReduceOp::Sum).unwrap();
            let mut max = [r, 100 - r];
            comm.all_reduce(&mut max, ReduceOp::Max).unwrap();
            let mut or = [1u64 << r, 0];
            comm.all_reduce(&mut or, ReduceOp::Or).unwrap();
            (sum, max, or)
        });
        let w = world as u64;
        for (sum, max, or) in answers {
            assert_eq!(sum, [w * (w + 1) / 2, 10 * w * (w - 1) / 2, w]);
            assert_eq!(max, [w - 1, 100]);
            assert_eq!(or, [(1u64 << w) - 1, 0]);
        }
    }
}

#[test]
fn all_gather_lays_every_ranks_words_in_rank_order() {
    for world in WORLDS {
        let answers = run_ranks(world, |comm| {
            let r = comm.rank() as u64;
            let mine = [r, r * r, u64::MAX - r];
            let mut all = vec![0; 3 * comm.world_size()];
            comm.all_gather(&mine, &mut all).unwrap();
            // A wrong destination size is refused on the rank that passed it (all pass it here).
            let mut short = vec![0; 1];
            let refused = comm.all_gather(&mine, &mut short).unwrap_err().to_string();
            (all, refused)
        });
        let expected: Vec<u64> = (0..world as u64).flat_map(|r| [r, r * r, u64::MAX - r]).collect();
        for (all, refused) in answers {
            assert_eq!(all, expected);
            assert!(refused.contains("all_gather"), "{refused}");
        }
    }
}

#[test]
fn all_to_all_v_delivers_each_list_to_its_rank_in_sender_order() {
    for world in WORLDS {
        let answers = run_ranks(world, |comm| {
            let (me, world) = (comm.rank() as u32, comm.world_size() as u32);
            // Rank `me` sends `to` copies of `100 * me + to` to rank `to`: lists of every length,
            // the empty one included.
            let outgoing: Vec<Vec<u32>> = (0..world).map(|to| vec![100 * me + to; to as usize]).collect();
            let mut incoming = vec![7];
            comm.all_to_all_v(&outgoing, &mut incoming).unwrap();
            (incoming, comm.bytes_sent())
        });
        for (me, (incoming, bytes)) in answers.into_iter().enumerate() {
            let mut expected = vec![7];
            for from in 0..world as u32 {
                expected.extend(vec![100 * from + me as u32; me]);
            }
            assert_eq!(incoming, expected, "rank {me} of {world}");
            // Its lists to the others: 1 + 2 + ... + (world - 1), less its own `me`, 4 bytes each.
            let sent = (world * (world - 1) / 2 - me) as u64 * 4;
            assert_eq!(bytes, sent, "rank {me} of {world}");
        }
    }
}

#[test]
fn collectives_repeat_deterministically_and_count_bytes() {
    let run = || {
        run_ranks(4, |comm| {
            let mut trail = Vec::new();
            for round in 0..50u64 {
                let mut words = [round * (comm.rank() as u64 + 1)];
                comm.all_reduce(&mut words, ReduceOp::Sum).unwrap();
                comm.barrier().unwrap();
                trail.push(words[0]);
            }
            let mut gathered = vec![0; 4 * 2];
            comm.all_gather(&[1, 2], &mut gathered).unwrap();
            (trail, comm.bytes_sent())
        })
    };
    let first = run();
    assert_eq!(first, run());
    for (trail, bytes) in &first {
        assert_eq!(trail[49], 49 * 10);
        // 50 ring all-reduces of one word (2 * 8 * 3 / 4 bytes, rounded down: 12) and an
        // all-gather of 2 words from each of 3 others.
        assert_eq!(*bytes, 50 * 12 + 3 * 16);
    }
}

#[test]
fn a_rank_that_leaves_fails_the_others_collective_instead_of_hanging() {
    let answers = run_ranks(3, |comm| {
        if comm.rank() == 1 {
            return Ok(());
        }
        let mut words = [1];
        comm.all_reduce(&mut words, ReduceOp::Sum)
    });
    assert!(answers[1].is_ok());
    for rank in [0, 2] {
        let err = answers[rank].as_ref().unwrap_err().to_string();
        assert!(err.contains("left before this collective"), "{err}");
    }
}

#[test]
fn mismatched_collectives_are_an_error_not_a_wrong_answer() {
    let answers = run_ranks(2, |comm| {
        let mut words = vec![0u64; comm.rank() + 1];
        comm.all_reduce(&mut words, ReduceOp::Sum)
    });
    assert!(answers.iter().any(|a| a.as_ref().is_err_and(|e| e.to_string().contains("words"))));
}

#[test]
fn a_step_one_rank_failed_stops_every_rank_with_an_error_naming_it() {
    for world in WORLDS {
        // Every rank succeeded: each keeps its own value.
        let answers = run_ranks(world, |comm| agree_on(comm, Ok(comm.rank())).unwrap());
        assert_eq!(answers, (0..world).collect::<Vec<_>>());
        if world < 3 {
            continue;
        }
        // Ranks 1 and the last failed: they keep their own errors, the others name them.
        let answers = run_ranks(world, |comm| {
            let rank = comm.rank();
            let outcome = if rank == 1 || rank == world - 1 {
                Err(Error::InvalidArgument(format!("rank {rank}'s own problem")))
            } else {
                Ok(rank)
            };
            agree_on(comm, outcome).unwrap_err().to_string()
        });
        for (rank, text) in answers.iter().enumerate() {
            if rank == 1 || rank == world - 1 {
                assert_eq!(*text, format!("rank {rank}'s own problem"));
            } else {
                assert_eq!(
                    *text,
                    format!(
                        "ranks 1, {} of {world} failed before the ranks met (their own errors say why), \
                         so this rank stops too",
                        world - 1
                    )
                );
            }
        }
    }
}
