//! [`InProcess`]: every rank a thread of this process, meeting at a shared hub. Each collective
//! is a deposit into the rank's own slot, a barrier, a read of every slot in rank order (so
//! every rank computes the same answer, the same way every time), and a second barrier before
//! any slot is written again.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::error::Result;
use crate::multi::comm::{all_gather_bytes, all_reduce_bytes, misuse, Communicator, ReduceOp};

/// One rank of a group of threads; made by [`run_ranks`].
pub struct InProcess {
    rank: usize,
    hub: Arc<Hub>,
    bytes_sent: u64,
}

/// Runs `work` on `world` ranks, each its own thread with its own [`InProcess`], and returns
/// what each returned, in rank order. A rank that panics or returns early leaves the group:
/// the others' next collective fails instead of waiting for it, and its panic is raised here.
///
/// Panics if `world` is 0.
pub fn run_ranks<T: Send>(world: usize, work: impl Fn(&mut InProcess) -> T + Sync) -> Vec<T> {
    assert!(world > 0, "a communicator needs at least one rank");
    let hub = Arc::new(Hub::new(world));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..world)
            .map(|rank| {
                let (hub, work) = (Arc::clone(&hub), &work);
                scope.spawn(move || {
                    // Dropped on return or unwind alike, which is what tells the others it left.
                    let mut comm = InProcess { rank, hub, bytes_sent: 0 };
                    work(&mut comm)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

impl Drop for InProcess {
    fn drop(&mut self) {
        self.hub.depart();
    }
}

impl InProcess {
    /// Deposits `payload`, waits for every rank's, reads them all with `read`, and waits again
    /// so that no rank refills its slot while another still reads.
    fn exchange<R>(&mut self, payload: Slot, read: impl FnOnce(&[Mutex<Slot>]) -> Result<R>) -> Result<R> {
        *lock(&self.hub.slots[self.rank]) = payload;
        self.hub.wait()?;
        let answer = read(&self.hub.slots);
        self.hub.wait()?;
        answer
    }
}

impl Communicator for InProcess {
    fn rank(&self) -> usize {
        self.rank
    }

    fn world_size(&self) -> usize {
        self.hub.world
    }

    fn all_reduce(&mut self, words: &mut [u64], op: ReduceOp) -> Result<()> {
        let len = words.len();
        self.bytes_sent += all_reduce_bytes(len, self.hub.world);
        self.exchange(Slot::Words(words.to_vec()), |slots| {
            for (rank, slot) in slots.iter().enumerate() {
                let slot = lock(slot);
                let theirs = slot.words(rank, len, "all_reduce")?;
                if rank == 0 {
                    words.copy_from_slice(theirs);
                } else {
                    words.iter_mut().zip(theirs).for_each(|(w, &t)| *w = op.combine(*w, t));
                }
            }
            Ok(())
        })
    }

    fn all_gather(&mut self, mine: &[u64], gathered: &mut [u64]) -> Result<()> {
        let (len, world) = (mine.len(), self.hub.world);
        if gathered.len() != len * world {
            return Err(misuse(format!(
                "all_gather of {len} words on {world} ranks needs {} words to gather into, not {}",
                len * world,
                gathered.len()
            )));
        }
        self.bytes_sent += all_gather_bytes(len, world);
        self.exchange(Slot::Words(mine.to_vec()), |slots| {
            for (rank, (slot, out)) in slots.iter().zip(gathered.chunks_mut(len.max(1))).enumerate() {
                out.copy_from_slice(lock(slot).words(rank, len, "all_gather")?);
            }
            Ok(())
        })
    }

    fn all_to_all_v(&mut self, outgoing: &[Vec<u32>], incoming: &mut Vec<u32>) -> Result<()> {
        let (me, world) = (self.rank, self.hub.world);
        if outgoing.len() != world {
            return Err(misuse(format!("all_to_all_v on {world} ranks needs {world} lists, not {}", outgoing.len())));
        }
        let sent: usize = outgoing.iter().enumerate().filter(|&(r, _)| r != me).map(|(_, l)| l.len()).sum();
        self.bytes_sent += 4 * sent as u64;
        self.exchange(Slot::Lists(outgoing.to_vec()), |slots| {
            for (rank, slot) in slots.iter().enumerate() {
                match &*lock(slot) {
                    Slot::Lists(lists) => incoming.extend_from_slice(&lists[me]),
                    _ => return Err(mismatch(rank, "all_to_all_v")),
                }
            }
            Ok(())
        })
    }

    fn barrier(&mut self) -> Result<()> {
        self.hub.wait()
    }

    fn bytes_sent(&self) -> u64 {
        self.bytes_sent
    }
}

/// What one rank deposited for the collective in progress.
enum Slot {
    Empty,
    Words(Vec<u64>),
    Lists(Vec<Vec<u32>>),
}

impl Slot {
    fn words(&self, rank: usize, len: usize, collective: &str) -> Result<&[u64]> {
        match self {
            Slot::Words(words) if words.len() == len => Ok(words),
            Slot::Words(words) => Err(misuse(format!(
                "{collective}: rank {rank} passed {} words where this rank passed {len}",
                words.len()
            ))),
            _ => Err(mismatch(rank, collective)),
        }
    }
}

fn mismatch(rank: usize, collective: &str) -> crate::Error {
    misuse(format!("rank {rank} called another collective than {collective}"))
}

/// A poisoned slot only means another rank panicked while holding it; its contents are whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The slots and a barrier that knows when a rank has left (std's `Barrier` would wait forever).
struct Hub {
    world: usize,
    slots: Vec<Mutex<Slot>>,
    state: Mutex<BarrierState>,
    turn: Condvar,
}

struct BarrierState {
    arrived: usize,
    generation: u64,
    departed: usize,
}

impl Hub {
    fn new(world: usize) -> Hub {
        Hub {
            world,
            slots: (0..world).map(|_| Mutex::new(Slot::Empty)).collect(),
            state: Mutex::new(BarrierState { arrived: 0, generation: 0, departed: 0 }),
            turn: Condvar::new(),
        }
    }

    fn wait(&self) -> Result<()> {
        let left = |state: &BarrierState| {
            misuse(format!("{} of {} ranks left before this collective", state.departed, self.world))
        };
        let mut state = lock(&self.state);
        if state.departed > 0 {
            return Err(left(&state));
        }
        let generation = state.generation;
        state.arrived += 1;
        if state.arrived == self.world {
            state.arrived = 0;
            state.generation += 1;
            self.turn.notify_all();
            return Ok(());
        }
        while state.generation == generation {
            if state.departed > 0 {
                return Err(left(&state));
            }
            state = self.turn.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        Ok(())
    }

    /// A rank is done; ranks still waiting for it are told so. (A rank leaving after the
    /// group's last collective wakes nobody who needs it: that collective had completed.)
    fn depart(&self) {
        lock(&self.state).departed += 1;
        self.turn.notify_all();
    }
}
