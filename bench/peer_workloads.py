"""The workloads bench/peers.py runs every implementation on: the same
inputs as sgk-bench's (docs/performance.md), in 64-byte-aligned buffers,
with each workload's minimal traffic.

Minimal traffic: bytes any implementation must move.  Every byte written to
the output, every update and index read once, and the data read once where
the output is a copy of it; source bytes a gather (or an in-place scatter's
destination) touches are counted per distinct 64-byte cache line.

Imported by bench/peers.py, which puts python/ on sys.path first so that
`import sgk` finds this tree's binding.
"""
from dataclasses import dataclass

import numpy as np

import sgk

LINE = 64
ALIGN = 64  # byte alignment of every input and output buffer


def aligned_empty(shape, dtype):
    """An uninitialised C-contiguous array starting on an ALIGN-byte boundary.
    NumPy's allocator promises only 16 bytes, and where a large array starts
    varies from run to run; sgk-bench's buffers (bench_alloc) and the peers'
    own allocators start on 64.  A row gather's output 16 bytes off a line
    boundary costs sgk about half again its time, so every implementation
    gets the same 64-byte-aligned inputs and outputs, as sgk-bench's do."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + ALIGN, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGN
    return raw[start:start + nbytes].view(dtype).reshape(shape)


_ALIGNED = {}


def aligned(a):
    """a, or an ALIGN-byte-aligned contiguous copy of it (one copy per
    array, so workloads that share an input still share it)."""
    if a is None:
        return None
    if a.flags.c_contiguous and a.ctypes.data % ALIGN == 0:
        return a
    key = id(a)
    if key not in _ALIGNED:
        copy = aligned_empty(a.shape, a.dtype)
        copy[...] = a
        _ALIGNED[key] = (a, copy)  # a kept alive so that its id is not reused
    return _ALIGNED[key][1]


@dataclass
class Workload:
    name: str
    op: str                 # scatter_nd, gather_nd, scatter_elements, gather_elements,
                            # gather, tensor_scatter (data: the cache, indices: the write
                            # indices, updates: the update)
    data: np.ndarray
    indices: np.ndarray
    updates: np.ndarray = None
    reduction: str = "none"
    batch_dims: int = 0
    axis: int = 0
    in_place: bool = False
    traffic: int = 0
    description: str = ""
    has_duplicates: bool = False
    mode: str = "linear"    # tensor_scatter

    def __post_init__(self):
        self.data, self.indices, self.updates = (aligned(self.data), aligned(self.indices),
                                                 aligned(self.updates))

    @property
    def scatter(self):
        return self.op.startswith("scatter") or self.op == "tensor_scatter"

    @property
    def output_shape(self):
        if self.scatter:
            return self.data.shape
        if self.op == "gather_elements":
            return self.indices.shape
        if self.op == "gather":
            return sgk.gather_shape(self.data, self.indices, self.axis)
        return sgk.gather_nd_shape(self.data, self.indices, self.batch_dims)

    @property
    def float_order_matters(self):
        return (self.reduction in ("add", "sub", "mul") and self.data.dtype.kind in "fc"
                and self.has_duplicates)


def distinct_lines(byte_offsets):
    """How many 64-byte lines the given byte offsets touch."""
    return int(np.unique(np.asarray(byte_offsets, dtype=np.int64) // LINE).size)


def nd_slots(data, indices, k):
    """Flat slot numbers (over data.shape[:k]) of ScatterND/GatherND tuples."""
    shape = data.shape[:k]
    t = indices.reshape(-1, k)
    t = np.where(t < 0, t + np.array(shape), t)
    return np.ravel_multi_index(tuple(t.T), shape)


def slice_lines(slots, slice_bytes):
    """Distinct lines covered by whole slices at the given slots."""
    uniq = np.unique(slots)
    if slice_bytes % LINE == 0:
        return int(uniq.size) * (slice_bytes // LINE)
    starts = uniq.astype(np.int64) * slice_bytes
    lines = [np.arange(s // LINE, (s + slice_bytes - 1) // LINE + 1) for s in starts[:200000]]
    return int(np.unique(np.concatenate(lines)).size) if lines else 0


def scaled(n, scale, minimum=1):
    return max(minimum, int(round(n * scale)))


def make_workloads(scale, rng):
    w = []
    isz = 8  # int64 indices throughout (ONNX's index type)

    # KV cache: [1, heads, seq, head_dim]; one new token per head at one position
    for dtype in (np.float32, np.float16):
        seq = scaled(2048, scale, 16)
        data = rng.standard_normal((1, 32, seq, 128)).astype(dtype)
        pos = seq - 7
        idx = np.array([[0, h, pos] for h in range(32)], dtype=np.int64)
        upd = rng.standard_normal((32, 128)).astype(dtype)
        tname = np.dtype(dtype).name.replace("float", "f")
        slice_bytes = 128 * data.itemsize
        written = slice_lines(nd_slots(data, idx, 3), slice_bytes) * LINE
        for in_place in (True, False):
            mode = "inplace" if in_place else "copy"
            traffic = upd.nbytes + idx.nbytes + (written if in_place else 2 * data.nbytes)
            w.append(Workload(
                f"kv_cache_token_{mode}_{tname}", "scatter_nd", data, idx, upd,
                in_place=in_place, traffic=traffic,
                description=f"ScatterND none {'in place' if in_place else 'copying'}, data "
                            f"{list(data.shape)} {tname}, one token per head"))

    # ScatterNDUpdate-15 example 5: data [1000,256,10,15], indices [25,125,3]
    data = rng.standard_normal((scaled(1000, scale), 256, 10, 15)).astype(np.float32)
    slots = rng.choice(int(np.prod(data.shape[:3])), 25 * 125, replace=False)
    idx = np.stack(np.unravel_index(slots, data.shape[:3]), -1).reshape(25, 125, 3)
    upd = rng.standard_normal((25, 125, 15)).astype(np.float32)
    w.append(Workload("ov_example5", "scatter_nd", data, idx.astype(np.int64), upd,
                      traffic=2 * data.nbytes + upd.nbytes + idx.size * isz,
                      description=f"ScatterND none, data {list(data.shape)} f32, "
                                  f"indices [25,125,3] distinct"))

    # embedding gradient: Zipf-distributed rows, add
    rows, n = scaled(50000, scale, 64), scaled(65536, scale, 64)
    data = rng.standard_normal((rows, 256)).astype(np.float32)
    perm = rng.permutation(rows)
    ids = perm[(rng.zipf(1.1, n) - 1) % rows].astype(np.int64)
    upd = rng.standard_normal((n, 256)).astype(np.float32)
    w.append(Workload("embedding_grad_add", "scatter_nd", data, ids[:, None], upd, "add",
                      traffic=2 * data.nbytes + upd.nbytes + ids.nbytes,
                      has_duplicates=np.unique(ids).size < n,
                      description=f"ScatterND add, data {list(data.shape)} f32, {n} Zipf "
                                  f"rows ({np.unique(ids).size} distinct)"))

    # element-wise updates, k = r
    side, n = scaled(2048, scale, 64), scaled(2 * 1024 * 1024, scale, 1024)
    data = rng.standard_normal((side, 2048)).astype(np.float32)
    idx = np.stack([rng.integers(0, side, n), rng.integers(0, 2048, n)], -1).astype(np.int64)
    upd = rng.standard_normal(n).astype(np.float32)
    dup = np.unique(idx[:, 0] * 2048 + idx[:, 1]).size < n
    for red in ("add", "max"):
        w.append(Workload(f"elementwise_{red}", "scatter_nd", data, idx, upd, red,
                          traffic=2 * data.nbytes + upd.nbytes + idx.nbytes, has_duplicates=dup,
                          description=f"ScatterND {red}, k = r, data {list(data.shape)} f32, "
                                      f"{n} random elements"))

    # several updates per element (NumPy's np.maximum.at case): into a
    # destination that fits the last-level cache but not L2, and into one
    # that fits L2, as a max-pool into few segments has
    for name, slots, per_slot, fits in (("dense_max_l3", 2 * 1024 * 1024, 4, "L3, not L2"),
                                         ("dense_max_l2", 64 * 1024, 64, "L2")):
        size = scaled(slots, scale, 1024)
        data = rng.standard_normal(size).astype(np.float32)
        idx = rng.integers(0, size, (per_slot * size, 1)).astype(np.int64)
        upd = rng.standard_normal(per_slot * size).astype(np.float32)
        w.append(Workload(name, "scatter_nd", data, idx, upd, "max",
                          traffic=2 * data.nbytes + upd.nbytes + idx.nbytes, has_duplicates=True,
                          description=f"ScatterND max, data [{size}] f32 (fits {fits}), "
                                      f"{per_slot * size} random elements"))

    # rows of 64 and 512 bytes, between single elements and KiB rows
    rows = scaled(1024 * 1024, scale, 64)
    data = rng.standard_normal((rows, 16)).astype(np.float32)
    ids = rng.integers(0, rows, rows).astype(np.int64)
    w.append(Workload("gather_rows_64b", "gather_nd", data, ids[:, None],
                      traffic=ids.size * 64 + ids.nbytes + slice_lines(ids, 64) * LINE,
                      description=f"GatherND, data {list(data.shape)} f32 (64-byte rows), "
                                  f"{rows} rows"))
    rows = scaled(131072, scale, 64)
    data = rng.standard_normal((rows, 128)).astype(np.float32)
    ids = rng.integers(0, rows, rows).astype(np.int64)
    upd = rng.standard_normal((rows, 128)).astype(np.float32)
    w.append(Workload("scatter_rows_512b_add", "scatter_nd", data, ids[:, None], upd, "add",
                      traffic=2 * data.nbytes + upd.nbytes + ids.nbytes, has_duplicates=True,
                      description=f"ScatterND add, data {list(data.shape)} f32 (512-byte "
                                  f"rows), {rows} random rows"))

    # embedding lookup
    rows, n = scaled(50000, scale, 64), scaled(65536, scale, 64)
    data = rng.standard_normal((rows, 256)).astype(np.float32)
    ids = rng.integers(0, rows, n).astype(np.int64)
    out_bytes = n * 256 * 4
    w.append(Workload("gather_embedding", "gather_nd", data, ids[:, None],
                      traffic=out_bytes + ids.nbytes + slice_lines(ids, 1024) * LINE,
                      description=f"GatherND, data {list(data.shape)} f32, {n} rows"))

    # batched gather
    b = scaled(64, scale)
    data = rng.standard_normal((b, 2048, 128)).astype(np.float32)
    idx = rng.integers(0, 2048, (b, 512, 1)).astype(np.int64)
    slots = (np.arange(b)[:, None] * 2048 + idx[..., 0]).reshape(-1)
    w.append(Workload("gather_batch1", "gather_nd", data, idx, batch_dims=1,
                      traffic=b * 512 * 128 * 4 + idx.nbytes + slice_lines(slots, 512) * LINE,
                      description=f"GatherND batch_dims=1, data {list(data.shape)} f32, "
                                  f"indices [{b},512,1]"))

    # element ops along axis 1
    r = scaled(4096, scale, 16)
    data = rng.standard_normal((r, 4096)).astype(np.float32)
    idx = rng.integers(0, 4096, (r, 1024)).astype(np.int64)
    upd = rng.standard_normal((r, 1024)).astype(np.float32)
    for red in ("add", "none"):
        w.append(Workload(f"scatter_elements_{red}", "scatter_elements", data, idx, upd, red,
                          axis=1, traffic=2 * data.nbytes + upd.nbytes + idx.nbytes,
                          has_duplicates=True,
                          description=f"ScatterElements {red} axis 1, data {list(data.shape)} "
                                      f"f32 by [{r},1024]"))
    flat = (np.arange(r)[:, None] * 4096 + idx).reshape(-1) * 4
    w.append(Workload("gather_elements", "gather_elements", data, idx, axis=1,
                      traffic=idx.size * 4 + idx.nbytes + distinct_lines(flat) * LINE,
                      description=f"GatherElements axis 1, data {list(data.shape)} f32 by "
                                  f"[{r},1024]"))
    # whole rows: an index constant along the last axis (torch.gather with an
    # expanded index), output row i = data row rows[i]
    rows = rng.integers(0, r, r).astype(np.int64)
    idx = np.repeat(rows[:, None], 4096, axis=1)
    w.append(Workload("gather_elements_rows", "gather_elements", data, idx, axis=0,
                      traffic=data.nbytes + idx.nbytes + np.unique(rows).size * 4096 * 4,
                      description=f"GatherElements axis 0, data {list(data.shape)} f32 by "
                                  f"[{r},4096] constant along rows"))
    w += gather_and_tensor_scatter_workloads(scale, rng)
    return w


def gather_and_tensor_scatter_workloads(scale, rng):
    """Gather along axis 0 (an embedding lookup) and axis 1; TensorScatter
    writing one decode token into a [B,32,4096,128] float16 KV cache, batch 1
    and 8, linear and circular, in place (onnxruntime IO-bound to the past
    cache's buffer) and copying (onnxruntime's default)."""
    w = []
    rows, n = scaled(50000, scale, 64), scaled(65536, scale, 64)
    data = rng.standard_normal((rows, 256)).astype(np.float32)
    ids = rng.integers(0, rows, n).astype(np.int64)
    w.append(Workload("gather_axis0", "gather", data, ids, axis=0,
                      traffic=n * 256 * 4 + ids.nbytes + slice_lines(ids, 1024) * LINE,
                      description=f"Gather axis 0, data {list(data.shape)} f32 by {n} ids"))
    b = scaled(64, scale)
    data = rng.standard_normal((b, 2048, 128)).astype(np.float32)
    ids = rng.integers(0, 2048, 512).astype(np.int64)
    slots = (np.arange(b)[:, None] * 2048 + ids[None, :]).reshape(-1)
    w.append(Workload("gather_axis1", "gather", data, ids, axis=1,
                      traffic=b * 512 * 128 * 4 + ids.nbytes + slice_lines(slots, 512) * LINE,
                      description=f"Gather axis 1, data {list(data.shape)} f32 by 512 ids"))
    seq = scaled(4096, scale, 16)
    for batch in (1, 8):
        cache = rng.standard_normal((batch, 32, seq, 128)).astype(np.float16)
        token = rng.standard_normal((batch, 32, 1, 128)).astype(np.float16)
        for mode in ("linear", "circular"):
            pos = (seq * 3 // 4 + np.arange(batch)) % seq
            write = pos if mode == "linear" else 5 * seq + seq * 3 // 4 - np.arange(batch)
            write = write.astype(np.int64)
            for in_place in (True, False):
                kind = "inplace" if in_place else "copy"
                traffic = token.nbytes + write.nbytes + (token.nbytes if in_place
                                                         else 2 * cache.nbytes)
                w.append(Workload(
                    f"tensor_scatter_b{batch}_{mode}_{kind}", "tensor_scatter", cache, write,
                    token, axis=-2, mode=mode, in_place=in_place, traffic=traffic,
                    description=f"TensorScatter {mode} {'in place' if in_place else 'copying'}"
                                f", cache {list(cache.shape)} f16, one token"))
    return w
