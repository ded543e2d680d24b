# Ad hoc probe (not committed): the staging pipeline's variants, emulated with ctypes.
import ctypes, mmap, time, os, sys
from concurrent.futures import ThreadPoolExecutor
cu = ctypes.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0: raise SystemExit(f"{what} failed: {r}")
vp = ctypes.c_void_p; sz = ctypes.c_size_t; u64 = ctypes.c_uint64
ck(cu.cuInit(0), "cuInit")
dev = ctypes.c_int(); ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "dev")
ctx = vp(); ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "retain"); ck(cu.cuCtxSetCurrent(ctx), "set")
cu.cuMemAlloc_v2.argtypes = [ctypes.POINTER(u64), sz]
cu.cuMemcpyHtoDAsync_v2.argtypes = [u64, vp, sz, vp]
cu.cuMemHostAlloc.argtypes = [ctypes.POINTER(vp), sz, ctypes.c_uint]
cu.cuMemFreeHost.argtypes = [vp]
cu.cuStreamSynchronize.argtypes = [vp]
cu.cuEventRecord.argtypes = [vp, vp]; cu.cuEventSynchronize.argtypes = [vp]
cu.cuMemHostRegister_v2.argtypes = [vp, sz, ctypes.c_uint]; cu.cuMemHostUnregister.argtypes = [vp]
s = vp(); ck(cu.cuStreamCreate(ctypes.byref(s), 0), "stream")
N = 2 << 30
T = os.cpu_count()
pool = ThreadPoolExecutor(T)
d = u64(); ck(cu.cuMemAlloc_v2(ctypes.byref(d), N), "alloc")
def anon(huge):
    m = mmap.mmap(-1, N, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if huge: m.madvise(mmap.MADV_HUGEPAGE)
    a = ctypes.addressof(ctypes.c_char.from_buffer(m))
    list(pool.map(lambda k: [ctypes.memset(a + o, 7, min(1 << 20, N - o)) for o in range(k << 20, N, T << 20)], range(T)))
    return m, a
src, a = anon(False)
hsrc, ha = anon(True)
def staged(a, nbuf, chunk, piece, flags):
    bufs = []
    for _ in range(nbuf):
        p = vp(); ck(cu.cuMemHostAlloc(ctypes.byref(p), chunk, flags), "ha")
        e = vp(); ck(cu.cuEventCreate(ctypes.byref(e), 0), "ev"); bufs.append((p, e))
    def run():
        for i, o in enumerate(range(0, N, chunk)):
            p, e = bufs[i % nbuf]
            ck(cu.cuEventSynchronize(e), "es")
            n = min(chunk, N - o)
            pieces = [(x, min(piece, n - x)) for x in range(0, n, piece)]
            list(pool.map(lambda k: [ctypes.memmove(p.value + x, a + o + x, l) for x, l in pieces[k::T]], range(T)))
            ck(cu.cuMemcpyHtoDAsync_v2(u64(d.value + o), p, n, s), "c"); ck(cu.cuEventRecord(e, s), "er")
        ck(cu.cuStreamSynchronize(s), "s")
    run()
    t = time.perf_counter(); run(); t = time.perf_counter() - t
    for p, _ in bufs: cu.cuMemFreeHost(p)
    return t
def registered(a, chunk, ahead):
    def run():
        regs = []
        for i, o in enumerate(range(0, N, chunk)):
            n = min(chunk, N - o)
            ck(cu.cuMemHostRegister_v2(vp(a + o), n, 0), "reg")
            ck(cu.cuMemcpyHtoDAsync_v2(u64(d.value + o), vp(a + o), n, s), "c")
            e = vp(); ck(cu.cuEventCreate(ctypes.byref(e), 0), "ev"); ck(cu.cuEventRecord(e, s), "er")
            regs.append((a + o, e))
            while len(regs) > ahead:
                ra, re = regs.pop(0); ck(cu.cuEventSynchronize(re), "es"); ck(cu.cuMemHostUnregister(vp(ra)), "unreg")
        for ra, re in regs: ck(cu.cuEventSynchronize(re), "es"); ck(cu.cuMemHostUnregister(vp(ra)), "unreg")
    t = time.perf_counter(); run(); return time.perf_counter() - t
print(f"bytes {N}, threads {T}")
for huge, base in ((False, a), (True, ha)):
  for flags, fname in ((0x4, "WC"), (0, "cached")):
    for nbuf, chunk in ((3, 32 << 20), (4, 64 << 20), (8, 8 << 20)):
        for piece in (256 << 10, 1 << 20, 4 << 20):
            if piece > chunk: continue
            t = staged(base, nbuf, chunk, piece, flags)
            print(f"staged thp={huge} {fname} {nbuf}x{chunk>>20}MiB piece {piece>>10}KiB: {t*1e3:.1f} ms {N/t/1e9:.1f} GB/s", flush=True)
for huge, base in ((False, a), (True, ha)):
    for chunk in (64 << 20, 256 << 20):
        t = registered(base, chunk, 2)
        print(f"registered pipelined thp={huge} chunk {chunk>>20}MiB: {t*1e3:.1f} ms {N/t/1e9:.1f} GB/s", flush=True)
