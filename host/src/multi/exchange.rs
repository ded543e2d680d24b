//! What GPU ranks trade, device buffer to device buffer ([`DeviceGather`]): the frontier
//! bitmap's shares, a level's pairs and rows of counts, the links woken before a run's first
//! exchanges; NCCL's on the rank's stream (`multi::nccl`), or staged through the host for ranks
//! that are threads of one process ([`InProcess`]). The partitioned BFS (`multi::gpu`) and the
//! partitioned components (`multi::cc`) both exchange through it.

use cudarc::driver::CudaSlice;

use crate::error::{Error, Result};
use crate::gpu::{GpuContext, PinnedBuffer};
use crate::multi::comm::Communicator;
use crate::multi::in_process::InProcess;

/// A communicator that can all-gather buffers in device memory (the frontier bitmap's shares).
pub trait DeviceGather: Communicator {
    /// Wakes the links between the GPUs before a run's first exchanges, queued on `gpu`'s
    /// stream. NVLink puts a link that has been idle for a while (the driver's low-power
    /// threshold: `nvidia-smi nvlink -gLowPwrInfo`) into a low-power state, and the small
    /// collectives of a traversal's first levels then wait for the links to come back one after
    /// another; one all-gather big enough to cross every link wakes them together
    /// (bench/NOTES.md 73). Nothing to wake where no link is crossed: the default does nothing.
    fn wake_links(&mut self, _gpu: &GpuContext) -> Result<()> {
        Ok(())
    }

    /// Every rank's `mine` (the same length on every rank), in rank order, into `gathered`
    /// (`world_size()` times as long); both in the device memory of `gpu`, and the gather
    /// ordered after the work queued on its stream.
    fn all_gather_on_device(
        &mut self,
        gpu: &GpuContext,
        mine: &CudaSlice<u32>,
        gathered: &mut CudaSlice<u32>,
    ) -> Result<()>;

    /// Words `words` of every rank's `share` (as long on every rank) into the same words of
    /// that rank's stretch of `gathered` (`share.len()` words a rank, in rank order), the rest
    /// of `gathered` untouched: a piece of [`all_gather_on_device`](Self::all_gather_on_device),
    /// so that an all-gather can go in pieces as they are ready (a chunked bottom-up level's
    /// next frontier). Ordered after the work queued on `gpu`'s stream.
    fn all_gather_words_on_device(
        &mut self,
        gpu: &GpuContext,
        share: &CudaSlice<u32>,
        words: std::ops::Range<usize>,
        gathered: &mut CudaSlice<u32>,
    ) -> Result<()>;

    /// Personalized all-to-all of device words: `regions[r]` (start, length) of `outgoing`
    /// goes to rank `r` (this rank's own included); what every rank sent to this one lands in
    /// `incoming` in rank order (grown on `gpu` when too short). Returns the words received.
    fn all_to_all_v_on_device(
        &mut self,
        gpu: &GpuContext,
        outgoing: &CudaSlice<u32>,
        regions: &[(usize, usize)],
        incoming: &mut CudaSlice<u32>,
    ) -> Result<usize>;

    /// [`all_to_all_v_on_device`](Self::all_to_all_v_on_device) where this rank already knows
    /// what each rank sends it: `from[r]` words from rank `r` (a level's counts, all-gathered on
    /// the device, give every rank both its sends and its receives: no host exchange of lengths).
    fn all_to_all_v_on_device_known(
        &mut self,
        gpu: &GpuContext,
        outgoing: &CudaSlice<u32>,
        regions: &[(usize, usize)],
        from: &[usize],
        incoming: &mut CudaSlice<u32>,
    ) -> Result<usize>;

    /// This rank's `row` (a few words on its device: a level's counters, its pair counts per
    /// rank) read back, and every rank's, in rank order, into `back`, the host waiting once for
    /// the work queued on `gpu`'s stream. The default gathers the rows on the devices and reads
    /// both back ([`gather_rows_on_device`]); ranks that share host memory trade them there.
    fn gather_rows(&mut self, gpu: &GpuContext, row: &CudaSlice<u32>, back: &mut RowReadback) -> Result<()> {
        gather_rows_on_device(self, gpu, row, back)
    }

    /// The `len` counts at words `start..start + 2 * len` of `counters` (`u64`s, each pair low
    /// word first: [`u64_pairs`](crate::gpu::u64_pairs)), summed over the ranks into `summed`,
    /// ordered after the work queued on `gpu`'s stream. NCCL adds nothing to
    /// [`bytes_sent`](Communicator::bytes_sent): counts are not frontier exchange.
    fn sum_counts_on_device(
        &mut self,
        gpu: &GpuContext,
        counters: &CudaSlice<u32>,
        start: usize,
        len: usize,
        summed: &mut CudaSlice<u64>,
    ) -> Result<()>;
}

/// Where a rank reads back a row of counts and every rank's ([`DeviceGather::gather_rows`]).
pub struct RowReadback {
    own: PinnedBuffer<u32>,
    /// Every rank's row, gathered on the devices (the default path).
    on_device: CudaSlice<u32>,
    pinned_rows: PinnedBuffer<u32>,
    rows: Vec<u32>,
}

impl RowReadback {
    /// Room for rows of `words` words from `world` ranks; `what` names them in an allocation
    /// error.
    pub fn new(gpu: &GpuContext, words: usize, world: usize, what: &str) -> Result<RowReadback> {
        Ok(RowReadback {
            own: gpu.pinned_zeros(words, what)?,
            on_device: gpu.alloc_zeros(world * words, what)?,
            pinned_rows: gpu.pinned_zeros(world * words, what)?,
            rows: vec![0; world * words],
        })
    }

    /// This rank's row, as read back.
    pub fn own(&self) -> Result<&[u32]> {
        Ok(self.own.as_slice()?)
    }

    /// Every rank's row, in rank order.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// A lone rank's `row` read back: its row is all the rows.
    pub(crate) fn read_alone(&mut self, gpu: &GpuContext, row: &CudaSlice<u32>) -> Result<()> {
        gpu.download_to_pinned(row, &mut self.own)?;
        self.rows.clear();
        self.rows.extend_from_slice(self.own.as_slice()?);
        Ok(())
    }

    /// `row` read back, then every rank's traded on the host by `trade` (this rank's row, the
    /// rows to fill).
    pub fn read_and_trade(
        &mut self,
        gpu: &GpuContext,
        row: &CudaSlice<u32>,
        trade: impl FnOnce(&[u32], &mut [u32]) -> Result<()>,
    ) -> Result<()> {
        gpu.download_to_pinned(row, &mut self.own)?;
        trade(self.own.as_slice()?, &mut self.rows)
    }
}

/// [`DeviceGather::gather_rows`] on the devices: every rank's row all-gathered there, then this
/// rank's and the gathered rows read back in one wait.
pub fn gather_rows_on_device<C: DeviceGather + ?Sized>(
    comm: &mut C,
    gpu: &GpuContext,
    row: &CudaSlice<u32>,
    back: &mut RowReadback,
) -> Result<()> {
    comm.all_gather_on_device(gpu, row, &mut back.on_device)?;
    gpu.download_two_to_pinned((row, &mut back.own), (&back.on_device, &mut back.pinned_rows))?;
    back.rows.copy_from_slice(back.pinned_rows.as_slice()?);
    Ok(())
}

/// [`DeviceGather::sum_counts_on_device`] through host memory: read back, the host all-reduce,
/// copied in.
pub fn sum_counts_through_host<C: Communicator>(
    comm: &mut C,
    gpu: &GpuContext,
    counters: &CudaSlice<u32>,
    start: usize,
    len: usize,
    summed: &mut CudaSlice<u64>,
) -> Result<()> {
    let mut words = vec![0u32; 2 * len];
    gpu.download_at(counters, start, &mut words)?;
    let mut counts: Vec<u64> = words.chunks_exact(2).map(|pair| pair[0] as u64 | (pair[1] as u64) << 32).collect();
    comm.all_reduce(&mut counts, crate::multi::comm::ReduceOp::Sum)?;
    gpu.copy_into(&counts, summed).map_err(Error::Gpu)
}

/// [`DeviceGather::all_to_all_v_on_device`] through host memory: each region read back, the
/// host all-to-all, the result copied in.
pub fn all_to_all_through_host<C: Communicator>(
    comm: &mut C,
    gpu: &GpuContext,
    outgoing: &CudaSlice<u32>,
    regions: &[(usize, usize)],
    incoming: &mut CudaSlice<u32>,
) -> Result<usize> {
    let lists = regions
        .iter()
        .map(|&(start, len)| {
            let mut list = vec![0u32; len];
            gpu.download_at(outgoing, start, &mut list)?;
            Ok(list)
        })
        .collect::<Result<Vec<_>>>()?;
    let mut received = Vec::new();
    comm.all_to_all_v(&lists, &mut received)?;
    ensure_room(gpu, incoming, received.len())?;
    gpu.copy_into(&received, incoming)?;
    Ok(received.len())
}

/// Grows `buffer` (its contents not kept) to hold at least `words`.
pub fn ensure_room(gpu: &GpuContext, buffer: &mut CudaSlice<u32>, words: usize) -> Result<()> {
    if buffer.len() < words {
        *buffer = gpu.alloc_zeros(words, "the discoveries received")?;
    }
    Ok(())
}

/// [`DeviceGather`] through host memory: read back, the host all-gather, copied in (for ranks
/// without a device collective).
pub fn gather_through_host<C: Communicator>(
    comm: &mut C,
    gpu: &GpuContext,
    mine: &CudaSlice<u32>,
    gathered: &mut CudaSlice<u32>,
) -> Result<()> {
    let words = gpu.download(mine)?;
    let unpacked = all_gather_u32(comm, &words)?;
    gpu.copy_into(&unpacked, gathered).map_err(Error::Gpu)
}

/// [`DeviceGather::all_gather_words_on_device`] through host memory.
pub fn gather_words_through_host<C: Communicator>(
    comm: &mut C,
    gpu: &GpuContext,
    share: &CudaSlice<u32>,
    words: std::ops::Range<usize>,
    gathered: &mut CudaSlice<u32>,
) -> Result<()> {
    check_piece(share.len(), &words, gathered.len(), comm.world_size())?;
    let mut mine = vec![0u32; words.len()];
    gpu.download_at(share, words.start, &mut mine)?;
    let all = all_gather_u32(comm, &mine)?;
    for (rank, piece) in all.chunks(words.len().max(1)).enumerate() {
        gpu.copy_into_at(piece, gathered, rank * share.len() + words.start)?;
    }
    Ok(())
}

/// [`DeviceGather::all_gather_words_on_device`]'s contract: the words lie in the share, and
/// `gathered` holds a share a rank.
pub fn check_piece(share: usize, words: &std::ops::Range<usize>, gathered: usize, world: usize) -> Result<()> {
    if words.start <= words.end && words.end <= share && gathered == share * world {
        return Ok(());
    }
    Err(crate::multi::comm::misuse(format!(
        "words {words:?} of a {share}-word share on {world} ranks into {gathered} words"
    )))
}

/// Every rank's `words` (the same count on every rank), in rank order, by the host collective,
/// which moves u64 words: pairs of u32 words, the odd one padded.
fn all_gather_u32<C: Communicator>(comm: &mut C, words: &[u32]) -> Result<Vec<u32>> {
    let packed: Vec<u64> = words.chunks(2).map(|w| w[0] as u64 | (*w.get(1).unwrap_or(&0) as u64) << 32).collect();
    let mut all = vec![0u64; packed.len() * comm.world_size()];
    comm.all_gather(&packed, &mut all)?;
    let mut unpacked = Vec::with_capacity(words.len() * comm.world_size());
    for share in all.chunks(packed.len().max(1)) {
        let share: Vec<u32> = share.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect();
        unpacked.extend_from_slice(&share[..words.len()]);
    }
    Ok(unpacked)
}

impl DeviceGather for InProcess {
    fn gather_rows(&mut self, gpu: &GpuContext, row: &CudaSlice<u32>, back: &mut RowReadback) -> Result<()> {
        back.read_and_trade(gpu, row, |own, rows| {
            rows.copy_from_slice(&all_gather_u32(self, own)?);
            Ok(())
        })
    }

    fn all_gather_on_device(
        &mut self,
        gpu: &GpuContext,
        mine: &CudaSlice<u32>,
        gathered: &mut CudaSlice<u32>,
    ) -> Result<()> {
        gather_through_host(self, gpu, mine, gathered)
    }

    fn all_gather_words_on_device(
        &mut self,
        gpu: &GpuContext,
        share: &CudaSlice<u32>,
        words: std::ops::Range<usize>,
        gathered: &mut CudaSlice<u32>,
    ) -> Result<()> {
        gather_words_through_host(self, gpu, share, words, gathered)
    }

    fn all_to_all_v_on_device(
        &mut self,
        gpu: &GpuContext,
        outgoing: &CudaSlice<u32>,
        regions: &[(usize, usize)],
        incoming: &mut CudaSlice<u32>,
    ) -> Result<usize> {
        all_to_all_through_host(self, gpu, outgoing, regions, incoming)
    }

    fn all_to_all_v_on_device_known(
        &mut self,
        gpu: &GpuContext,
        outgoing: &CudaSlice<u32>,
        regions: &[(usize, usize)],
        _from: &[usize],
        incoming: &mut CudaSlice<u32>,
    ) -> Result<usize> {
        all_to_all_through_host(self, gpu, outgoing, regions, incoming)
    }

    fn sum_counts_on_device(
        &mut self,
        gpu: &GpuContext,
        counters: &CudaSlice<u32>,
        start: usize,
        len: usize,
        summed: &mut CudaSlice<u64>,
    ) -> Result<()> {
        sum_counts_through_host(self, gpu, counters, start, len, summed)
    }
}
