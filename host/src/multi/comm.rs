//! The communicator: what the partitioned algorithms need from the ranks around them, and
//! nothing else (Merrill et al., section 6: every level ends with the GPUs trading the
//! neighbors they found and agreeing whether anything is left).
//!
//! The trait moves slices of host memory (`u64` words, `u32` vertex lists). That is the choice
//! that lets one partitioned BFS run over both implementations: [`InProcess`](super::InProcess)
//! hands the slices from thread to thread, and the NCCL one (feature `nccl`) stages them
//! through device buffers it keeps and grows, one copy each way around the collective. A rank
//! whose frontier lives on its GPU would add methods over device buffers beside these; the
//! per-rank work runs on the CPU today, so the staging copy is what a level's exchange costs.

use crate::error::{Error, Result};

/// How [`Communicator::all_reduce`] combines the ranks' words, element by element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    Max,
    /// Bitwise OR (NCCL has no such reduction: its implementation all-gathers and folds).
    Or,
}

impl ReduceOp {
    /// `a` combined with `b`; sums wrap, as NCCL's do.
    pub fn combine(self, a: u64, b: u64) -> u64 {
        match self {
            ReduceOp::Sum => a.wrapping_add(b),
            ReduceOp::Max => a.max(b),
            ReduceOp::Or => a | b,
        }
    }
}

/// One rank's view of a group of `world_size` ranks that run the same program and call the
/// same collectives in the same order. A collective returns only when every rank has called it
/// (an error when a rank left the group instead), and gives every rank the same answer.
pub trait Communicator {
    /// This rank, in `0..world_size()`.
    fn rank(&self) -> usize;

    fn world_size(&self) -> usize;

    /// Replaces `words` on every rank by the element-wise `op` of every rank's `words`; all
    /// ranks pass the same length.
    fn all_reduce(&mut self, words: &mut [u64], op: ReduceOp) -> Result<()>;

    /// Every rank's `mine`, in rank order, into `gathered` (`world_size()` times as long as
    /// `mine`, which has the same length on every rank: a frontier bitmap padded to the
    /// largest part).
    fn all_gather(&mut self, mine: &[u64], gathered: &mut [u64]) -> Result<()>;

    /// Personalized all-to-all of vertex lists of any length: `outgoing[r]` goes to rank `r`
    /// (this rank's own list included); what every rank sent to this one is appended to
    /// `incoming` in rank order.
    fn all_to_all_v(&mut self, outgoing: &[Vec<u32>], incoming: &mut Vec<u32>) -> Result<()>;

    /// Returns once every rank has called it.
    fn barrier(&mut self) -> Result<()>;

    /// Bytes this rank has sent to other ranks so far, counted from the collectives' sizes
    /// (what a link carries, whatever the algorithm the library picks to carry it).
    fn bytes_sent(&self) -> u64;
}

/// `outcome`, a step this rank took alone (a load, a cut, a placement), where every rank's
/// succeeded; an error on every rank where any failed: the failed rank's own, and on the
/// others [`Error::RankFailed`] naming the ranks that failed. The ranks call it before an
/// exchange that a failed rank would never join, where the others would wait for it forever
/// (an NCCL collective waits with no end). One all-gather of a word a rank.
pub fn agree_on<T, C: Communicator + ?Sized>(comm: &mut C, outcome: Result<T>) -> Result<T> {
    agree_with_words(comm, outcome.map(|value| (value, Vec::new())), 0).map(|(value, _)| value)
}

/// [`agree_on`], where a rank that succeeded also has `len` words to tell every rank (the same
/// `len` on every rank): every rank's words, in rank order, where every rank succeeded. Still
/// one all-gather.
pub fn agree_with_words<T, C: Communicator + ?Sized>(
    comm: &mut C,
    outcome: Result<(T, Vec<u64>)>,
    len: usize,
) -> Result<(T, Vec<u64>)> {
    let world = comm.world_size();
    let mut mine = vec![0u64; len + 1];
    match &outcome {
        Ok((_, words)) => {
            assert_eq!(words.len(), len, "every rank agrees on {len} words");
            mine[1..].copy_from_slice(words);
        }
        Err(_) => mine[0] = 1,
    }
    let mut gathered = vec![0u64; (len + 1) * world];
    comm.all_gather(&mine, &mut gathered)?;
    let rows = gathered.chunks_exact(len + 1);
    let ranks: Vec<usize> = rows.clone().enumerate().filter(|(_, row)| row[0] != 0).map(|(r, _)| r).collect();
    match outcome {
        Ok(_) if !ranks.is_empty() => Err(Error::RankFailed { ranks, world }),
        Ok((value, _)) => Ok((value, rows.flat_map(|row| row[1..].iter().copied()).collect())),
        Err(e) => Err(e),
    }
}

/// The error every implementation gives for a call its arguments make impossible.
pub(crate) fn misuse(what: String) -> Error {
    Error::InvalidArgument(format!("communicator: {what}"))
}

/// The bytes a ring all-gather of `words_per_rank` words sends from each rank: every other
/// rank's share passes through it once.
pub(crate) fn all_gather_bytes(words_per_rank: usize, world: usize) -> u64 {
    (8 * words_per_rank * world.saturating_sub(1)) as u64
}

/// The bytes a ring all-reduce of `words` words sends from each rank: a reduce-scatter and an
/// all-gather, each `(world - 1) / world` of the array.
pub(crate) fn all_reduce_bytes(words: usize, world: usize) -> u64 {
    if world <= 1 {
        0
    } else {
        (2 * 8 * words * (world - 1) / world) as u64
    }
}
