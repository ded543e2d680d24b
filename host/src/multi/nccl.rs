//! [`Nccl`]: one rank a GPU, the collectives NCCL's (feature `nccl`). The trait's host slices
//! are staged through device buffers: copied in, the collective run on the rank's stream,
//! copied out (see [`comm`](super::comm)). NCCL has no bitwise-OR reduction, so
//! [`ReduceOp::Or`] all-gathers and folds; no all-to-all-v either, so the lists' lengths are
//! all-gathered first and the lists then go as grouped sends and receives.
//!
//! Two ways to start: [`run_gpu_ranks_on`] (one process, one thread per GPU of this host) and
//! [`Nccl::join_on`] (one process per GPU, the ranks of one job sharing NCCL's unique id through a
//! file that rank 0 writes: [`share_unique_id`]). Either way every process first calls
//! [`prepare_environment`]: NVLink multicast (NVLS) stays off (`NCCL_NVLS_ENABLE=0` unless the
//! environment already says otherwise), and warpath never calls `cuMulticastCreate`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::{CudaSlice, CudaStream, CudaViewMut, DeviceRepr, ValidAsZeroBits};
use cudarc::nccl::Id;

use crate::error::{Error, Result};
use crate::gpu::nccl::{device_count, library_present, NcclComm, NcclReduce, ABORT_PATIENCE};
use crate::gpu::{u64_pairs, GpuContext, GpuError, StreamWaiter};
use crate::multi::comm::{all_gather_bytes, all_reduce_bytes, misuse, Communicator, ReduceOp};
use crate::multi::exchange::{
    all_to_all_through_host, check_piece, ensure_room, gather_rows_on_device, gather_words_through_host,
    sum_counts_through_host, DeviceGather, RowReadback,
};
use crate::multi::host_rows::{HostRows, RowsHandle};
use crate::multi::watch::{Board, FileBoard, LastResort, RankWatch, ThreadBoard};

/// What to tell the user when cudarc cannot load libnccl.
pub const NCCL_MISSING: &str = "libnccl.so not found: install NCCL or point LD_LIBRARY_PATH at PyTorch's \
     nvidia/nccl/lib, which ships libnccl.so.2 (cudarc loads the name libnccl.so: scripts/nccl-link makes \
     that link beside a libnccl.so.2 and prints the LD_LIBRARY_PATH to set)";

/// Turns NVLink multicast off for NCCL and has it connect the ranks when they join (each unless
/// the environment already says otherwise), and checks that libnccl loads. Call it before any
/// thread starts: it writes the environment.
///
/// Why connect at the join: from NCCL 2.22 a collective connects the ranks at its first call
/// (`NCCL_RUNTIME_CONNECT=1`), inside the host call, which then waits for every peer. A rank
/// that failed before that call would leave the others inside NCCL, where no watch
/// ([`watch`](super::watch)) can ask whether to go on; connected at the join, a collective's
/// call returns and its wait is the watched one. (Sends and receives connect at their first
/// use whatever the setting: [`Nccl::join_on`] trades one word with every peer for that.)
pub fn prepare_environment() -> Result<()> {
    for (name, value) in [("NCCL_NVLS_ENABLE", "0"), ("NCCL_RUNTIME_CONNECT", "0")] {
        if std::env::var_os(name).is_none() {
            std::env::set_var(name, value);
        }
    }
    if !library_present() {
        return Err(Error::InvalidArgument(NCCL_MISSING.into()));
    }
    Ok(())
}

/// The GPUs a list names: `all`, or ordinals separated by commas; refused when the machine has
/// fewer. The errors start with the list (the command line puts its flag before it).
pub fn resolve_gpus(list: &str) -> Result<Vec<usize>> {
    let found = device_count().map_err(Error::Gpu)?;
    let wanted: Vec<usize> = if list.trim() == "all" {
        (0..found).collect()
    } else {
        list.split(',')
            .map(|item| {
                item.trim().parse::<usize>().map_err(|_| {
                    let problem = format!("`{item}` is not a GPU number (expected 0,1,... or all)");
                    Error::InvalidArgument(format!("{list}: {problem}"))
                })
            })
            .collect::<Result<_>>()?
    };
    let mut distinct = wanted.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != wanted.len() {
        return Err(Error::InvalidArgument(format!("{list} names a GPU twice")));
    }
    match wanted.iter().max() {
        None => Err(Error::InvalidArgument(format!("{list}: this machine has no GPU"))),
        Some(&highest) if highest >= found => Err(Error::InvalidArgument(format!(
            "{list} needs GPU {highest}, but this machine has {found} GPU{}",
            if found == 1 { "" } else { "s" }
        ))),
        Some(_) => Ok(wanted),
    }
}

/// One word sent to and received from every peer, so that the pairs' connections, which NCCL
/// makes at their first send and receive inside the host call ([`prepare_environment`]), are
/// made while every rank is joining.
fn connect_every_pair(comm: &NcclComm, stream: &Arc<CudaStream>) -> Result<()> {
    let (me, world) = (comm.rank(), comm.world_size());
    if world < 2 {
        return Ok(());
    }
    let send: CudaSlice<u32> = stream.alloc_zeros(world).map_err(driver_failed("cuMemAlloc"))?;
    let mut receive: CudaSlice<u32> = stream.alloc_zeros(world).map_err(driver_failed("cuMemAlloc"))?;
    comm.group(|group| {
        for peer in (0..world).filter(|&peer| peer != me) {
            group.send(&send.slice(peer..peer + 1), peer)?;
            group.recv(&mut receive.slice_mut(peer..peer + 1), peer)?;
        }
        Ok(())
    })
    .map_err(Error::Gpu)?;
    stream.synchronize().map_err(driver_failed("cuStreamSynchronize"))
}

/// The all-gather's contract: `gathered` is `world` times as long as `mine`.
fn check_gather_lengths(mine: usize, gathered: usize, world: usize) -> Result<()> {
    if gathered == mine * world {
        return Ok(());
    }
    Err(misuse(format!(
        "all_gather of {mine} words on {world} ranks needs {} words to gather into, not {gathered}",
        mine * world
    )))
}

/// One rank of an NCCL communicator, on one GPU.
pub struct Nccl {
    comm: NcclComm,
    stream: Arc<CudaStream>,
    /// How this rank waits for its stream: watched once the rank joined a board
    /// ([`Nccl::watch_peers`]), so that a peer's failure stops the wait.
    waiter: StreamWaiter,
    /// Where this rank tells its peers that it failed, once it watches them.
    board: Option<Board>,
    bytes_sent: u64,
    /// Where each peer's words of a device all-to-all land, grown as needed and kept.
    landing: Vec<Option<CudaSlice<u32>>>,
    /// Where every rank's piece of a share lands before it is copied to its place
    /// ([`DeviceGather::all_gather_words_on_device`]), grown as needed and kept.
    piece_landing: Option<CudaSlice<u32>>,
    /// Device copies of the host words a collective sends and receives, grown as needed and
    /// kept: no allocation and release around each small collective (the barrier, the level
    /// loop's last exchanges). [`DeviceGather::wake_links`] sends from and gathers into them.
    staged_send: Option<CudaSlice<u64>>,
    staged_receive: Option<CudaSlice<u64>>,
    /// What each rank sends to wake the links ([`wake_words`]).
    wake_words: usize,
    /// Where the ranks trade a level's rows of counts in host memory, when they are threads
    /// of one process ([`run_gpu_ranks_on`]); on the devices otherwise.
    host_rows: Option<RowsHandle>,
}

fn driver_failed(call: &'static str) -> impl Fn(cudarc::driver::DriverError) -> Error {
    move |e| Error::Gpu(GpuError::driver(call, e))
}

impl Nccl {
    /// Joins rank `rank` of `world` on `gpu`, the collectives on its stream, so that they are
    /// ordered with the rank's kernels without waiting on the host ([`DeviceGather`]); returns
    /// when all `world` ranks have joined with the same `id`.
    pub fn join_on(gpu: &GpuContext, rank: usize, world: usize, id: Id) -> Result<Nccl> {
        let stream = gpu.stream().clone();
        let wake_words = wake_words()?;
        let comm = NcclComm::join(stream.clone(), rank, world, &id).map_err(Error::Gpu)?;
        connect_every_pair(&comm, &stream)?;
        Ok(Nccl {
            comm,
            stream,
            waiter: gpu.waiter().clone(),
            board: None,
            bytes_sent: 0,
            landing: Vec::new(),
            piece_landing: None,
            staged_send: None,
            staged_receive: None,
            wake_words,
            host_rows: None,
        })
    }

    /// From now on this rank's waits on `gpu` (the GPU it joined on) stop where a peer on
    /// `board` failed or fell silent, after aborting this rank's communicator, whose
    /// collectives wait for that peer ([`watch`](super::watch)). [`fail`](Self::fail) tells
    /// the peers of this rank's own failure.
    pub fn watch_peers(&mut self, gpu: &GpuContext, board: Board) -> Result<()> {
        let abort = self.comm.abort_handle();
        if let Board::Threads(threads) = &board {
            let abort = abort.clone();
            threads.on_failure(Box::new(move || {
                abort.abort(ABORT_PATIENCE);
            }));
        }
        let watch = RankWatch::new(
            self.rank(),
            board.clone(),
            Box::new(move || {
                abort.abort(ABORT_PATIENCE);
            }),
        );
        gpu.watch_waits(Arc::new(watch)).map_err(Error::Gpu)?;
        self.board = Some(board);
        Ok(())
    }

    /// This rank failed with `error`: its peers, if it watches them, hear of it and stop. A
    /// rank that stopped because a peer failed says nothing: the peer has said it.
    pub fn fail(&self, error: &Error) {
        match (&self.board, error) {
            (_, Error::Gpu(GpuError::Stopped(_))) | (None, _) => {}
            (Some(board), error) => board.fail(self.rank(), &error.to_string()),
        }
    }

    /// The first `len` words of `staged`, grown first when shorter (its contents not kept).
    fn staging<'s>(
        stream: &Arc<CudaStream>,
        staged: &'s mut Option<CudaSlice<u64>>,
        len: usize,
    ) -> Result<CudaViewMut<'s, u64>> {
        if staged.as_ref().map_or(0, CudaSlice::len) < len {
            *staged = Some(stream.alloc_zeros(len.next_power_of_two()).map_err(driver_failed("cuMemAlloc"))?);
        }
        Ok(staged.as_mut().expect("grown above").slice_mut(..len))
    }

    fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<CudaSlice<T>> {
        self.stream.clone_htod(host).map_err(driver_failed("cuMemcpyHtoD"))
    }

    fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, len: usize) -> Result<CudaSlice<T>> {
        // NCCL refuses no buffer, but cudarc cannot allocate zero bytes.
        self.stream.alloc_zeros(len.max(1)).map_err(driver_failed("cuMemAlloc"))
    }

    fn download<T: DeviceRepr + Default + Clone>(&self, device: &CudaSlice<T>, host: &mut [T]) -> Result<()> {
        let view = device.slice(..host.len());
        self.waiter.copy_to_host(&view, host).map_err(Error::Gpu)
    }
}

impl Communicator for Nccl {
    fn rank(&self) -> usize {
        self.comm.rank()
    }

    fn world_size(&self) -> usize {
        self.comm.world_size()
    }

    fn all_reduce(&mut self, words: &mut [u64], op: ReduceOp) -> Result<()> {
        let world = self.world_size();
        let nccl_op = match op {
            ReduceOp::Sum => NcclReduce::Sum,
            ReduceOp::Max => NcclReduce::Max,
            ReduceOp::Or => {
                let mut all = vec![0u64; words.len() * world];
                self.all_gather(words, &mut all)?;
                for share in all.chunks(words.len().max(1)).skip(1) {
                    words.iter_mut().zip(share).for_each(|(w, &s)| *w |= s);
                }
                return Ok(());
            }
        };
        if words.is_empty() {
            return Ok(());
        }
        let mut buffer = Self::staging(&self.stream, &mut self.staged_send, words.len())?;
        self.stream.memcpy_htod(words, &mut buffer).map_err(driver_failed("cuMemcpyHtoD"))?;
        self.comm.all_reduce_in_place(&mut buffer, nccl_op).map_err(Error::Gpu)?;
        self.waiter.copy_to_host(&buffer, words).map_err(Error::Gpu)?;
        self.bytes_sent += all_reduce_bytes(words.len(), world);
        Ok(())
    }

    fn all_gather(&mut self, mine: &[u64], gathered: &mut [u64]) -> Result<()> {
        let world = self.world_size();
        check_gather_lengths(mine.len(), gathered.len(), world)?;
        if mine.is_empty() {
            return Ok(());
        }
        let mut send = Self::staging(&self.stream, &mut self.staged_send, mine.len())?;
        self.stream.memcpy_htod(mine, &mut send).map_err(driver_failed("cuMemcpyHtoD"))?;
        let mut receive = Self::staging(&self.stream, &mut self.staged_receive, gathered.len())?;
        self.comm.all_gather(&send, &mut receive).map_err(Error::Gpu)?;
        self.waiter.copy_to_host(&receive, gathered).map_err(Error::Gpu)?;
        self.bytes_sent += all_gather_bytes(mine.len(), world);
        Ok(())
    }

    fn all_to_all_v(&mut self, outgoing: &[Vec<u32>], incoming: &mut Vec<u32>) -> Result<()> {
        let (me, world) = (self.rank(), self.world_size());
        if outgoing.len() != world {
            return Err(misuse(format!("all_to_all_v on {world} ranks needs {world} lists, not {}", outgoing.len())));
        }
        // Row r of the matrix: what rank r sends to each rank.
        let lengths: Vec<u64> = outgoing.iter().map(|l| l.len() as u64).collect();
        let mut matrix = vec![0u64; world * world];
        self.all_gather(&lengths, &mut matrix)?;
        let sends = outgoing.iter().map(|l| self.upload(l)).collect::<Result<Vec<_>>>()?;
        let mut receives =
            (0..world).map(|from| self.zeros::<u32>(matrix[from * world + me] as usize)).collect::<Result<Vec<_>>>()?;
        self.comm
            .group(|group| {
                for (peer, (send, receive)) in sends.iter().zip(receives.iter_mut()).enumerate() {
                    if peer == me {
                        continue;
                    }
                    if lengths[peer] > 0 {
                        group.send(&send.slice(..lengths[peer] as usize), peer)?;
                    }
                    let expected = matrix[peer * world + me] as usize;
                    if expected > 0 {
                        group.recv(&mut receive.slice_mut(..expected), peer)?;
                    }
                }
                Ok(())
            })
            .map_err(Error::Gpu)?;
        for from in 0..world {
            if from == me {
                incoming.extend_from_slice(&outgoing[me]);
                continue;
            }
            let count = matrix[from * world + me] as usize;
            let at = incoming.len();
            incoming.resize(at + count, 0);
            self.download(&receives[from], &mut incoming[at..])?;
        }
        self.bytes_sent += 4 * lengths.iter().enumerate().filter(|&(r, _)| r != me).map(|(_, &l)| l).sum::<u64>();
        Ok(())
    }

    fn barrier(&mut self) -> Result<()> {
        let mut word = [0u64];
        self.all_reduce(&mut word, ReduceOp::Sum)?;
        self.waiter.wait().map_err(Error::Gpu)
    }

    fn bytes_sent(&self) -> u64 {
        self.bytes_sent
    }
}

/// What each rank sends in [`DeviceGather::wake_links`]'s all-gather, in 64-bit words: 2 MiB,
/// enough for NCCL to spread it over all its channels (and so over every link).
const WAKE_WORDS: usize = 1 << 18;

/// [`WAKE_WORDS`], or the bytes `WARPATH_WAKE_BYTES` names (rounded up to whole words; 0: no
/// wake), for measuring the wake against its size (bench/NOTES.md 83).
fn wake_words() -> Result<usize> {
    match std::env::var("WARPATH_WAKE_BYTES") {
        Err(_) => Ok(WAKE_WORDS),
        Ok(text) => text
            .trim()
            .parse::<usize>()
            .map(|bytes| bytes.div_ceil(8))
            .map_err(|_| Error::InvalidArgument(format!("WARPATH_WAKE_BYTES={text} is not a number of bytes"))),
    }
}

impl DeviceGather for Nccl {
    fn gather_rows(&mut self, gpu: &GpuContext, row: &CudaSlice<u32>, back: &mut RowReadback) -> Result<()> {
        match self.host_rows.as_mut() {
            Some(rows) => back.read_and_trade(gpu, row, |own, all| rows.all_gather(own, all)),
            None => gather_rows_on_device(self, gpu, row, back),
        }
    }

    fn wake_links(&mut self, _gpu: &GpuContext) -> Result<()> {
        let (world, words) = (self.world_size(), self.wake_words);
        if world < 2 || words == 0 {
            return Ok(());
        }
        // What the buffers hold does not matter: only that the bytes cross the links.
        let send = Self::staging(&self.stream, &mut self.staged_send, words)?;
        let mut receive = Self::staging(&self.stream, &mut self.staged_receive, words * world)?;
        self.comm.all_gather(&send, &mut receive).map_err(Error::Gpu)?;
        Ok(())
    }

    fn all_gather_on_device(
        &mut self,
        gpu: &GpuContext,
        mine: &CudaSlice<u32>,
        gathered: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let world = self.world_size();
        check_gather_lengths(mine.len(), gathered.len(), world)?;
        // On another stream than the kernels' (a communicator joined on another context), the
        // gather waits for them, and they for it.
        let same_stream = self.stream.cu_stream() == gpu.stream().cu_stream();
        if !same_stream {
            gpu.synchronize()?;
        }
        self.comm.all_gather(mine, gathered).map_err(Error::Gpu)?;
        if !same_stream {
            self.waiter.wait().map_err(Error::Gpu)?;
        }
        self.bytes_sent += (4 * mine.len() * world.saturating_sub(1)) as u64;
        Ok(())
    }

    fn all_gather_words_on_device(
        &mut self,
        gpu: &GpuContext,
        share: &CudaSlice<u32>,
        words: std::ops::Range<usize>,
        gathered: &mut CudaSlice<u32>,
    ) -> Result<()> {
        let world = self.world_size();
        check_piece(share.len(), &words, gathered.len(), world)?;
        if self.stream.cu_stream() != gpu.stream().cu_stream() {
            return gather_words_through_host(self, gpu, share, words, gathered);
        }
        let len = words.len();
        if len == 0 {
            return Ok(());
        }
        // NCCL lays each rank's piece after the last: gathered into a landing buffer, then each
        // piece copied to its place in the rank's stretch.
        let landing = &mut self.piece_landing;
        if landing.as_ref().map_or(0, CudaSlice::len) < len * world {
            *landing =
                Some(self.stream.alloc_zeros((len * world).next_power_of_two()).map_err(driver_failed("cuMemAlloc"))?);
        }
        let landing = landing.as_mut().expect("grown above");
        self.comm.all_gather(&share.slice(words.clone()), &mut landing.slice_mut(..len * world)).map_err(Error::Gpu)?;
        for rank in 0..world {
            gpu.copy_on_device(landing, rank * len, gathered, rank * share.len() + words.start, len)?;
        }
        self.bytes_sent += (4 * len * (world - 1)) as u64;
        Ok(())
    }

    fn all_to_all_v_on_device(
        &mut self,
        gpu: &GpuContext,
        outgoing: &CudaSlice<u32>,
        regions: &[(usize, usize)],
        incoming: &mut CudaSlice<u32>,
    ) -> Result<usize> {
        let (me, world) = (self.rank(), self.world_size());
        if regions.len() != world {
            return Err(misuse(format!("all_to_all_v on {world} ranks needs {world} regions, not {}", regions.len())));
        }
        if self.stream.cu_stream() != gpu.stream().cu_stream() {
            return all_to_all_through_host(self, gpu, outgoing, regions, incoming);
        }
        let lengths: Vec<u64> = regions.iter().map(|&(_, len)| len as u64).collect();
        let mut matrix = vec![0u64; world * world];
        self.all_gather(&lengths, &mut matrix)?;
        let from: Vec<usize> = (0..world).map(|r| matrix[r * world + me] as usize).collect();
        self.all_to_all_v_on_device_known(gpu, outgoing, regions, &from, incoming)
    }

    fn all_to_all_v_on_device_known(
        &mut self,
        gpu: &GpuContext,
        outgoing: &CudaSlice<u32>,
        regions: &[(usize, usize)],
        from: &[usize],
        incoming: &mut CudaSlice<u32>,
    ) -> Result<usize> {
        let (me, world) = (self.rank(), self.world_size());
        if regions.len() != world || from.len() != world {
            return Err(misuse(format!(
                "all_to_all_v on {world} ranks needs {world} regions and counts, not {} and {}",
                regions.len(),
                from.len()
            )));
        }
        if self.stream.cu_stream() != gpu.stream().cu_stream() {
            return all_to_all_through_host(self, gpu, outgoing, regions, incoming);
        }
        let total: usize = from.iter().sum();
        ensure_room(gpu, incoming, total)?;
        let offsets: Vec<usize> = from.iter().scan(0, |at, &len| Some(std::mem::replace(at, *at + len))).collect();
        self.landing.resize_with(world, || None);
        for (peer, landing) in self.landing.iter_mut().enumerate() {
            if landing.as_ref().map_or(0, CudaSlice::len) < from[peer] {
                let words = from[peer].next_power_of_two();
                *landing = Some(self.stream.alloc_zeros(words).map_err(driver_failed("cuMemAlloc"))?);
            }
        }
        // Every peer's send and receive in one group: NCCL schedules them together (its
        // all-to-all pattern), one launch a level instead of one a peer. Each peer's words land
        // in a buffer of their own.
        let landing = &mut self.landing;
        self.comm
            .group(|group| {
                for (peer, landing) in landing.iter_mut().enumerate().filter(|&(peer, _)| peer != me) {
                    let (start, len) = regions[peer];
                    if len > 0 {
                        group.send(&outgoing.slice(start..start + len), peer)?;
                    }
                    if let (Some(landing), true) = (landing, from[peer] > 0) {
                        group.recv(&mut landing.slice_mut(..from[peer]), peer)?;
                    }
                }
                Ok(())
            })
            .map_err(Error::Gpu)?;
        for (peer, landing) in self.landing.iter().enumerate().filter(|&(peer, _)| peer != me && from[peer] > 0) {
            let landing = landing.as_ref().expect("grown above");
            gpu.copy_on_device(landing, 0, incoming, offsets[peer], from[peer])?;
        }
        let (start, len) = regions[me];
        gpu.copy_on_device(outgoing, start, incoming, offsets[me], len)?;
        self.bytes_sent +=
            4 * regions.iter().enumerate().filter(|&(r, _)| r != me).map(|(_, &(_, l))| l as u64).sum::<u64>();
        Ok(total)
    }

    fn sum_counts_on_device(
        &mut self,
        gpu: &GpuContext,
        counters: &CudaSlice<u32>,
        start: usize,
        len: usize,
        summed: &mut CudaSlice<u64>,
    ) -> Result<()> {
        if self.stream.cu_stream() != gpu.stream().cu_stream() {
            return sum_counts_through_host(self, gpu, counters, start, len, summed);
        }
        let counts = u64_pairs(counters, start, len).filter(|_| summed.len() >= len).ok_or_else(|| {
            misuse(format!(
                "summing {len} counts from word {start} of {} into {} needs an even start and room",
                counters.len(),
                summed.len()
            ))
        })?;
        let mut out = summed.slice_mut(..len);
        self.comm.all_reduce(&counts, &mut out, NcclReduce::Sum).map_err(Error::Gpu)?;
        Ok(())
    }
}

/// Runs `work` on one rank per GPU of `ordinals`, each on its own thread of this process with
/// the GPU's context and a communicator on its stream, and returns what each returned, in
/// rank order. The ranks watch each other ([`ThreadBoard`]): where one fails (an error, a
/// panic), every communicator is aborted and the others stop at their next wait; the error
/// returned is the first failed rank's own.
pub fn run_gpu_ranks_on<T: Send>(
    ordinals: &[usize],
    work: impl Fn(&GpuContext, &mut Nccl) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    run_gpu_ranks_with(ordinals, None, work)
}

/// How long after a thread rank's failure the others may take to end before a last resort
/// runs: every communicator's abort has had its patience, twice over.
pub const STUCK_PATIENCE: Duration = Duration::from_secs(2 * ABORT_PATIENCE.as_secs());

/// [`run_gpu_ranks_on`], with `last_resort` run where a rank failed and the ranks have not all
/// ended [`STUCK_PATIENCE`] later (one inside NCCL's join, which no abort reaches; see
/// [`ThreadBoard::with_last_resort`]). The command line's prints the failure and exits with
/// code 2; a library caller that passes none waits for the ranks.
pub fn run_gpu_ranks_with<T: Send>(
    ordinals: &[usize],
    last_resort: Option<LastResort>,
    work: impl Fn(&GpuContext, &mut Nccl) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    prepare_environment()?;
    let id = new_unique_id()?;
    let world = ordinals.len();
    let board = match last_resort {
        Some(last_resort) => ThreadBoard::with_last_resort(world, STUCK_PATIENCE, last_resort),
        None => ThreadBoard::new(world),
    };
    let results: Vec<Result<T>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ordinals
            .iter()
            .zip(HostRows::handles(world))
            .enumerate()
            .map(|(rank, (&ordinal, rows))| {
                let (work, board) = (&work, &board);
                scope.spawn(move || {
                    // A rank that panics fails the others too, before its thread unwinds.
                    let failing = FailOnPanic { board, rank };
                    let outcome = (|| {
                        let gpu = GpuContext::with_device(ordinal)?;
                        // NCCL's join waits for every rank: none joins before all opened their
                        // GPUs (a rank that could not has failed on the board by then).
                        board.all_arrive(rank).map_err(|why| Error::Gpu(GpuError::Stopped(why)))?;
                        let mut comm = Nccl::join_on(&gpu, rank, world, id)?;
                        comm.watch_peers(&gpu, Board::Threads(Arc::clone(board)))?;
                        // The threads share this process's memory: a level's counts cross there.
                        comm.host_rows = Some(rows);
                        work(&gpu, &mut comm)
                    })();
                    if let Err(error) = &outcome {
                        board.fail(rank, &error.to_string());
                    }
                    std::mem::forget(failing);
                    outcome
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    board.ended();
    match board.failure() {
        Some((first, _)) => {
            let mut results = results;
            Err(results.swap_remove(first).err().expect("the rank that failed first returned its error"))
        }
        None => results.into_iter().collect(),
    }
}

/// Tells the board a rank failed when its thread unwinds from a panic.
struct FailOnPanic<'b> {
    board: &'b ThreadBoard,
    rank: usize,
}

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        self.board.fail(self.rank, "the rank's thread panicked");
    }
}

/// Removes the rank files a previous job of `world` ranks left beside `id_file` (a failed
/// rank's stays for its peers to read): rank 0 calls it before it writes the id, which every
/// other rank waits for.
pub fn clear_rank_files(id_file: &Path, world: usize) {
    for rank in 0..world {
        let _ = std::fs::remove_file(FileBoard::file_for(id_file, rank));
    }
}

/// A new NCCL unique id (a job's: every rank joins with it).
fn new_unique_id() -> Result<Id> {
    Id::new().map_err(|e| Error::Gpu(GpuError::Driver { call: "ncclGetUniqueId", detail: format!("{:?}", e.0) }))
}

/// NCCL's unique id for a job of one process per GPU, through `path`: rank 0 makes it and
/// writes it (whole, by rename, so no rank reads half of it); the others wait for the file, up
/// to `wait`. The file is the job's: remove it before the next job.
pub fn share_unique_id(path: &Path, rank: usize, wait: Duration) -> Result<Id> {
    prepare_environment()?;
    if rank == 0 {
        let id = new_unique_id()?;
        let bytes: Vec<u8> = id.internal().iter().map(|&c| c as u8).collect();
        crate::output::write_output(path, |out| out.write_all(&bytes))?;
        return Ok(id);
    }
    let started = Instant::now();
    loop {
        match std::fs::read(path) {
            Ok(bytes) if bytes.len() == 128 => {
                let mut internal = [0 as std::ffi::c_char; 128];
                internal.iter_mut().zip(&bytes).for_each(|(c, &b)| *c = b as std::ffi::c_char);
                return Ok(Id::uninit(internal));
            }
            Ok(bytes) => {
                return Err(Error::Format {
                    path: path.to_path_buf(),
                    problem: format!("an NCCL unique id is 128 bytes, this file has {}", bytes.len()),
                })
            }
            Err(_) if started.elapsed() < wait => std::thread::sleep(Duration::from_millis(50)),
            Err(source) => return Err(Error::Io { path: path.to_path_buf(), source }),
        }
    }
}
