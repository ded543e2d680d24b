//! [`HostRows`]: the few words every rank's level ends with (its counters, its pair counts per
//! rank), traded in host memory between GPU ranks that are threads of one process.
//!
//! Each rank reads its own row back from its GPU anyway, to decide the next level. Trading the
//! rows on the host then takes no collective on the devices, no launch and no second readback:
//! the rank writes its row into its slot, says so, and waits, spinning, until every rank has
//! said so for this trade. (Ranks in processes of their own, `--rank`, have no shared memory:
//! they gather their rows on the devices, [`DeviceGather::gather_rows`](super::exchange::DeviceGather).)
//!
//! Each rank has two slots, used in turn. A rank writes a slot again two trades later, after it
//! saw every rank arrive at the trade in between, which each did only after reading the rows of
//! the trade before: no row is overwritten while another rank still reads it.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use crate::error::Result;
use crate::multi::comm::misuse;

/// The most words a row holds (a level's counters, or one count per rank).
pub const ROW_WORDS: usize = 64;

/// Spins between yields while a rank waits for the others: a level's other ranks arrive within
/// microseconds, and a yield costs about as much.
const SPINS_BEFORE_YIELD: u32 = 1 << 12;

/// The slots and arrival counts of a group of `world` rank threads.
pub struct HostRows {
    world: usize,
    /// Rank `r`'s slot `s` is words `(2r + s) * ROW_WORDS ..`.
    slots: Vec<AtomicU32>,
    /// How many trades each rank has written its row for.
    arrived: Vec<AtomicU64>,
    /// Which ranks have dropped their handles: a trade such a rank never joined fails instead of
    /// waiting for it.
    left: Vec<AtomicBool>,
}

/// One rank's handle on a [`HostRows`] ([`HostRows::handles`]).
pub struct RowsHandle {
    rank: usize,
    rows: Arc<HostRows>,
    trades: u64,
}

impl HostRows {
    /// The handles of `world` ranks on one board, in rank order.
    pub fn handles(world: usize) -> Vec<RowsHandle> {
        let rows = Arc::new(HostRows {
            world,
            slots: (0..2 * world * ROW_WORDS).map(|_| AtomicU32::new(0)).collect(),
            arrived: (0..world).map(|_| AtomicU64::new(0)).collect(),
            left: (0..world).map(|_| AtomicBool::new(false)).collect(),
        });
        (0..world).map(|rank| RowsHandle { rank, rows: Arc::clone(&rows), trades: 0 }).collect()
    }
}

impl RowsHandle {
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Every rank's `row` (the same length on every rank, at most [`ROW_WORDS`]), in rank
    /// order, into `rows`; returns when every rank has written its own.
    pub fn all_gather(&mut self, row: &[u32], rows: &mut [u32]) -> Result<()> {
        let (board, len) = (&*self.rows, row.len());
        if len > ROW_WORDS || rows.len() != board.world * len {
            return Err(misuse(format!(
                "a host row of {len} words (at most {ROW_WORDS}) gathers {} words for {} ranks, not {}",
                board.world * len,
                board.world,
                rows.len()
            )));
        }
        let slot = |rank: usize, trade: u64| (2 * rank + (trade % 2) as usize) * ROW_WORDS;
        let mine = slot(self.rank, self.trades);
        for (word, &value) in board.slots[mine..mine + len].iter().zip(row) {
            word.store(value, Ordering::Relaxed);
        }
        self.trades += 1;
        // Release: the row's words are visible to whoever sees this count.
        board.arrived[self.rank].store(self.trades, Ordering::Release);
        for (rank, out) in rows.chunks_exact_mut(len.max(1)).enumerate().take(board.world) {
            self.wait_for(rank)?;
            let theirs = slot(rank, self.trades - 1);
            for (value, word) in out.iter_mut().zip(&board.slots[theirs..theirs + len]) {
                *value = word.load(Ordering::Relaxed);
            }
        }
        Ok(())
    }

    /// Spins until `rank` has written its row for this trade, or fails if it left first.
    fn wait_for(&self, rank: usize) -> Result<()> {
        let board = &*self.rows;
        // Acquire: pairs with the writer's release, so its row's words are read after it.
        let arrived = || board.arrived[rank].load(Ordering::Acquire) >= self.trades;
        let mut spins = 0u32;
        while !arrived() {
            // A rank stores its last arrival before it leaves: seen gone, it is read once more.
            if board.left[rank].load(Ordering::Acquire) && !arrived() {
                return Err(misuse(format!("rank {rank} left before trade {} of the host rows", self.trades)));
            }
            spins = spins.wrapping_add(1);
            if spins % SPINS_BEFORE_YIELD == 0 {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        Ok(())
    }
}

impl Drop for RowsHandle {
    fn drop(&mut self) {
        // Dropped on return or unwind alike: a rank still waiting for this one is told.
        self.rows.left[self.rank].store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_reads_every_row_of_every_trade() {
        for world in [1, 2, 3, 5] {
            let handles = HostRows::handles(world);
            std::thread::scope(|scope| {
                for mut handle in handles {
                    scope.spawn(move || {
                        for trade in 0..500u32 {
                            // Rows of two lengths in turn, as a level's counters and pair counts.
                            let len = if trade % 3 == 0 { world } else { 12 };
                            let row: Vec<u32> =
                                (0..len as u32).map(|w| trade * 1000 + 10 * handle.rank() as u32 + w).collect();
                            let mut rows = vec![0; world * len];
                            handle.all_gather(&row, &mut rows).unwrap();
                            for (rank, got) in rows.chunks_exact(len).enumerate() {
                                let want: Vec<u32> =
                                    (0..len as u32).map(|w| trade * 1000 + 10 * rank as u32 + w).collect();
                                assert_eq!(got, want, "trade {trade}, rank {rank}'s row on {world} ranks");
                            }
                        }
                    });
                }
            });
        }
    }

    #[test]
    fn a_rank_that_left_fails_the_trade_it_never_joins() {
        let mut handles = HostRows::handles(2);
        let (first, second) = (handles.remove(0), handles.remove(0));
        std::thread::scope(|scope| {
            let waiting = scope.spawn(move || {
                let mut first = first;
                let mut rows = [0; 2];
                first.all_gather(&[1], &mut rows).unwrap();
                assert_eq!(rows, [1, 2]);
                first.all_gather(&[3], &mut rows)
            });
            let mut second = second;
            let mut rows = [0; 2];
            second.all_gather(&[2], &mut rows).unwrap();
            drop(second);
            let err = waiting.join().unwrap().unwrap_err().to_string();
            assert!(err.contains("left"), "{err}");
        });
    }

    #[test]
    fn a_row_too_long_or_a_wrong_gather_length_is_refused() {
        let mut handles = HostRows::handles(1);
        let handle = &mut handles[0];
        assert!(handle.all_gather(&[0; ROW_WORDS + 1], &mut [0; ROW_WORDS + 1]).is_err());
        assert!(handle.all_gather(&[1, 2], &mut [0; 3]).is_err());
        let mut rows = [0; 2];
        handle.all_gather(&[1, 2], &mut rows).unwrap();
        assert_eq!(rows, [1, 2]);
    }
}
