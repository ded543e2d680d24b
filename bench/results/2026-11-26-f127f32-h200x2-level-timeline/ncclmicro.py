# NCCL micro-benchmark (not committed): all-gather and p2p exchange times on 2 GPUs, one
# process a GPU, CUDA events around each op, links kept warm.
import os, sys, statistics, torch, torch.distributed as dist, torch.multiprocessing as mp

def run(rank, world, tag, out):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29511")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    lines = []
    def timeit(fn, reps=40):
        for _ in range(5): fn()
        torch.cuda.synchronize()
        ts = []
        for _ in range(reps):
            a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
            dist.barrier(); torch.cuda.synchronize()
            a.record(); fn(); b.record(); b.synchronize()
            ts.append(a.elapsed_time(b) * 1e3)
        return statistics.median(ts)
    for mib in [2, 4, 8, 16, 32]:
        n = mib * 2**20 // 4
        x = torch.ones(n, dtype=torch.int32, device="cuda"); y = torch.empty(n * world, dtype=torch.int32, device="cuda")
        us = timeit(lambda: dist.all_gather_into_tensor(y, x))
        lines.append(f"{tag} allgather {mib}MiB/rank {us:.1f} us busbw {mib*2**20*(world-1)/us/1e3:.0f} GB/s")
    for kib in [64, 512, 2048, 8192]:
        n = kib * 1024 // 4
        x = torch.ones(n, dtype=torch.int32, device="cuda"); y = torch.empty(n, dtype=torch.int32, device="cuda")
        peer = 1 - rank
        def p2p():
            reqs = dist.batch_isend_irecv([dist.P2POp(dist.isend, x, peer), dist.P2POp(dist.irecv, y, peer)])
            for r in reqs: r.wait()
        us = timeit(p2p)
        y2 = torch.empty(n * world, dtype=torch.int32, device="cuda")
        us2 = timeit(lambda: dist.all_gather_into_tensor(y2, x))
        lines.append(f"{tag} p2p {kib}KiB {us:.1f} us ({kib*1024/us/1e3:.0f} GB/s) vs allgather same {us2:.1f} us")
    small = torch.ones(8, dtype=torch.int64, device="cuda")
    us = timeit(lambda: dist.all_reduce(small))
    lines.append(f"{tag} allreduce 64B {us:.1f} us")
    if rank == 0:
        with open(out, "a") as f: f.write("\n".join(lines) + "\n")
    dist.destroy_process_group()

if __name__ == "__main__":
    tag, out = sys.argv[1], sys.argv[2]
    mp.spawn(run, args=(2, tag, out), nprocs=2)
