"""Tests of the sgk Python binding (python/sgk) against small NumPy references
written from the sequential definition of the README's "Semantics, stated
plainly".

Run: SGK_BUILD_DIR=<build> python tests/python/test_binding.py
(tests/test_python.sh does this under `make check`).  Needs NumPy only;
ml_dtypes adds the bfloat16-dtype tests.
"""
import os
import sys
import threading
import types
import unittest
from concurrent.futures import ThreadPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import sgk  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)

try:
    import ml_dtypes
except ImportError:  # the bits-only bfloat16 tests still run
    ml_dtypes = None

RNG = np.random.default_rng(20240611)

# ---- reference arithmetic ----------------------------------------------------
# bfloat16 is handled as uint16 bits in the references ("bf16" kind).


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values):
    """Round to nearest even; NaN stays NaN (quieted)."""
    u = np.asarray(values, dtype=np.float32).view(np.uint32)
    rounded = ((u + (((u >> 16) & 1) + 0x7FFF)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), rounded)


def kind_of(dtype_name):
    if dtype_name == "bfloat16":
        return "bf16"
    dt = np.dtype(dtype_name) if dtype_name != "string" else np.dtype(object)
    if dt.kind == "b":
        return "bool"
    if dt == np.float16:
        return "f16"
    if dt.kind == "f":
        return "float"
    if dt.kind == "c":
        return "complex"
    if dt.kind == "O":
        return "string"
    return "int"


def combine(red, a, b, kind):
    """f(stored, update) on equal-length 1-D arrays, per the README's
    "Semantics, stated plainly"."""
    if red == "none":
        return b.copy()
    if kind == "bool":
        a, b = a.astype(bool), b.astype(bool)
        return {"add": a | b, "max": a | b, "sub": a ^ b, "mul": a & b, "min": a & b}[red]
    if red in ("max", "min"):
        if kind in ("int",):
            return np.maximum(a, b) if red == "max" else np.minimum(a, b)
        fa = bf16_to_f32(a) if kind == "bf16" else a
        fb = bf16_to_f32(b) if kind == "bf16" else b
        better = fb > fa if red == "max" else fb < fa
        take_b = (np.isnan(fb) & ~np.isnan(fa)) | better  # a tie keeps the stored value
        return np.where(take_b, b, a)
    if kind in ("f16", "bf16"):
        fa = bf16_to_f32(a) if kind == "bf16" else a.astype(np.float32)
        fb = bf16_to_f32(b) if kind == "bf16" else b.astype(np.float32)
        r = {"add": fa + fb, "sub": fa - fb, "mul": fa * fb}[red]
        return f32_to_bf16(r) if kind == "bf16" else r.astype(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        return {"add": a + b, "sub": a - b, "mul": a * b}[red]


def norm(i, s):
    i = int(i)
    return i + s if i < 0 else i


def ref_scatter_nd(data, indices, updates, red, kind):
    out = data.copy()
    k = indices.shape[-1]
    tuples = indices.reshape(-1, k)
    slots = int(np.prod(data.shape[:k], dtype=np.int64))
    length = int(np.prod(data.shape[k:], dtype=np.int64))
    rows = out.reshape(slots, length)
    upd = updates.reshape(len(tuples), length)
    for n, t in enumerate(tuples):
        slot = np.ravel_multi_index(tuple(norm(c, s) for c, s in zip(t, data.shape)),
                                    data.shape[:k])
        rows[slot] = combine(red, rows[slot], upd[n], kind)
    return out


def ref_scatter_elements(data, indices, updates, axis, red, kind):
    out = data.copy()
    flat = out.reshape(-1)
    axis %= data.ndim
    upd = updates.reshape(-1)
    for n, pos in enumerate(np.ndindex(*indices.shape)):
        target = list(pos)
        target[axis] = norm(indices[pos], data.shape[axis])
        f = np.ravel_multi_index(tuple(target), data.shape)
        flat[f:f + 1] = combine(red, flat[f:f + 1], upd[n:n + 1], kind)
    return out


def ref_gather_nd(data, indices, b=0):
    k = indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[b + k:], dtype=data.dtype)
    for pos in np.ndindex(*indices.shape[:-1]):
        t = tuple(norm(c, s) for c, s in zip(indices[pos], data.shape[b:b + k]))
        out[pos] = data[pos[:b] + t]
    return out


def ref_gather_elements(data, indices, axis):
    axis %= data.ndim
    out = np.empty(indices.shape, dtype=data.dtype)
    for pos in np.ndindex(*indices.shape):
        src = list(pos)
        src[axis] = norm(indices[pos], data.shape[axis])
        out[pos] = data[tuple(src)]
    return out


# ---- operands ----------------------------------------------------------------

NUMERIC = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]
REDUCTIONS = ["none", "add", "sub", "mul", "max", "min"]


def supported(name, red):
    if name == "string":
        return red == "none"
    if name.startswith("complex"):
        return red not in ("max", "min")
    return True


def values(name, shape, with_nan=True):
    """Random operands of sgk type name (bfloat16 as uint16 bits)."""
    n = int(np.prod(shape, dtype=np.int64))
    if name == "bool":
        return RNG.integers(0, 2, n).astype(bool).reshape(shape)
    if name == "bfloat16":
        return f32_to_bf16(RNG.standard_normal(n).astype(np.float32) * 4).reshape(shape)
    if name == "string":
        pool = ["", "a", "bb", "ccc", "ünï", b"raw", b"\x00nul", "same", "same"]
        return np.array([pool[i] for i in RNG.integers(0, len(pool), n)],
                        dtype=object).reshape(shape)
    dt = np.dtype(name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True).reshape(shape)
    if dt.kind == "c":  # small integers: every product and sum is exact
        parts = RNG.integers(-5, 6, (n, 2)).astype(np.float64)
        return (parts[:, 0] + 1j * parts[:, 1]).astype(dt).reshape(shape)
    a = (RNG.standard_normal(n) * 4).astype(dt)
    if with_nan and n >= 4:
        a[RNG.integers(0, n)] = np.nan
    return a.reshape(shape)


def as_sgk(arr, name):
    """Call arguments for type name: bfloat16 bits need dtype='bfloat16'."""
    return {"dtype": "bfloat16"} if name == "bfloat16" else {}


def assert_same(test, got, want, msg=None):
    test.assertEqual(got.shape, want.shape, msg)
    test.assertEqual(got.dtype, want.dtype, msg)
    if got.dtype.kind in "fc":  # bit for bit, NaN included
        test.assertTrue(np.array_equal(got.view(np.uint8), want.view(np.uint8))
                        or np.array_equal(got, want, equal_nan=True), msg)
        np.testing.assert_array_equal(got, want, err_msg=str(msg))
    elif got.dtype == object:
        test.assertEqual(got.shape, want.shape)
        for g, w in zip(got.reshape(-1), want.reshape(-1)):
            test.assertIs(g, w, msg)
    else:
        np.testing.assert_array_equal(got, want, err_msg=str(msg))


ALL_TYPES = NUMERIC + ["bfloat16", "string"]


# ---- tests -------------------------------------------------------------------

class RuntimeTests(unittest.TestCase):
    def test_version_and_describe(self):
        self.assertRegex(sgk.version(), r"^\d+\.\d+")
        text = sgk.runtime_describe()
        self.assertIn("threads", text)
        self.assertTrue(os.path.exists(sgk.library_path()) or "libsgk" in sgk.library_path())

    def test_set_num_threads(self):
        try:
            sgk.set_num_threads(1)
            self.assertIn("threads 1", sgk.runtime_describe())
            d = values("float32", (64, 8))
            i = RNG.integers(-64, 64, (100, 1))
            u = values("float32", (100, 8))
            one = sgk.scatter_nd(d, i, u, "add")
            sgk.set_num_threads(2)
            two = sgk.scatter_nd(d, i, u, "add")
            assert_same(self, one, two)
            with self.assertRaises(sgk.InvalidArgumentError):
                sgk.set_num_threads(-1)
        finally:
            sgk.set_num_threads(0)

    def test_dtype_size_and_status_name(self):
        self.assertEqual(sgk.dtype_size("bfloat16"), 2)
        self.assertEqual(sgk.dtype_size("complex128"), 16)
        self.assertEqual(sgk.dtype_size("string"), np.dtype(np.uintp).itemsize)
        self.assertEqual(sgk.status_name(3), "SGK_ERR_INDEX_OUT_OF_RANGE")

    def test_library_is_the_build_trees(self):
        """The extension's run path decides; library_path() names the file."""
        build = os.environ.get("SGK_BUILD_DIR")
        if not build:
            self.skipTest("SGK_BUILD_DIR not set")
        want = os.path.realpath(os.path.join(build, "src", ".libs", "libsgk.so.0"))
        self.assertEqual(os.path.realpath(sgk.library_path()), want)


class ScatterNDTests(unittest.TestCase):
    def test_every_type_and_reduction(self):
        for name in ALL_TYPES:
            for red in REDUCTIONS:
                if not supported(name, red):
                    continue
                with self.subTest(dtype=name, reduction=red):
                    data = values(name, (6, 3))
                    idx = RNG.integers(-6, 6, (9, 1))  # duplicates, negatives
                    upd = values(name, (9, 3))
                    got = sgk.scatter_nd(data, idx, upd, red, **as_sgk(data, name))
                    want = ref_scatter_nd(data, idx, upd, red, kind_of(name))
                    assert_same(self, got, want, f"{name} {red}")

    def test_k_equals_rank_and_partial(self):
        data = values("int32", (4, 5, 6))
        for k in (1, 2, 3):
            with self.subTest(k=k):
                idx = np.stack([RNG.integers(-s, s, 20) for s in data.shape[:k]], -1)
                upd = values("int32", (20,) + data.shape[k:])
                got = sgk.scatter_nd(data, idx.reshape(4, 5, k), upd.reshape((4, 5) + data.shape[k:]),
                                     "add")
                want = ref_scatter_nd(data, idx, upd, "add", "int")
                assert_same(self, got, want)

    def test_seed_errata(self):
        data = np.array([1, 2, 3, 4], dtype=np.int32)
        idx = np.array([[0], [2], [-3], [-3], [0]])
        upd = np.array([10, 20, 30, 40, 50], dtype=np.int32)
        np.testing.assert_array_equal(sgk.scatter_nd(data, idx, upd), [50, 40, 20, 4])
        np.testing.assert_array_equal(sgk.scatter_nd(data, idx, upd, "prod"),
                                      [500, 2400, 60, 4])
        data = np.arange(1, 9, dtype=np.int64)
        idx = np.array([[4], [3], [1], [7], [-2], [-4]])
        upd = np.array([9, 10, 11, 12, 13, 14], dtype=np.int64)
        np.testing.assert_array_equal(sgk.scatter_nd(data, idx, upd),
                                      [1, 11, 3, 10, 14, 6, 13, 12])

    def test_ov_scalar_update_shape(self):
        # expected updates shape [] (k = r, q = 1): OpenVINO's [1] is accepted
        got = sgk.scatter_nd(np.zeros((2, 3), np.float32), [1, 2], np.array([7], np.float32))
        self.assertEqual(got[1, 2], 7)

    def test_index_types_and_layouts(self):
        data = values("float64", (8, 4), with_nan=False)
        upd = values("float64", (5, 4), with_nan=False)
        idx = RNG.integers(0, 8, (5, 1))
        want = ref_scatter_nd(data, idx, upd, "add", "float")
        for dt in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                   np.uint64):
            with self.subTest(index_dtype=dt):
                assert_same(self, sgk.scatter_nd(data, idx.astype(dt), upd, "add"), want)
        # non-contiguous data, indices and updates
        big = np.asfortranarray(data)
        strided_idx = np.repeat(idx, 2, axis=1)[:, ::2]
        assert_same(self, sgk.scatter_nd(big, strided_idx, np.asfortranarray(upd), "add"), want)
        # lists in
        got = sgk.scatter_nd(data.tolist(), idx.tolist(), upd.tolist(), "add")
        assert_same(self, got, want)

    def test_out_and_in_place(self):
        data = values("float32", (10, 2), with_nan=False)
        idx = RNG.integers(0, 10, (7, 1))
        upd = values("float32", (7, 2), with_nan=False)
        want = ref_scatter_nd(data, idx, upd, "max", "float")
        out = np.full_like(data, -1)
        self.assertIs(sgk.scatter_nd(data, idx, upd, "max", out=out), out)
        assert_same(self, out, want)
        inplace = data.copy()
        self.assertIs(sgk.scatter_nd(inplace, idx, upd, "max", out=inplace), inplace)
        assert_same(self, inplace, want)

    def test_updates_cast_to_data_type(self):
        data = np.zeros(4, np.float32)
        got = sgk.scatter_nd(data, [[1], [1]], np.array([0.5, 0.25]), "add")  # float64
        self.assertEqual(got.dtype, np.float32)
        np.testing.assert_array_equal(got, [0, 0.75, 0, 0])

    def test_zero_sized(self):
        data = np.zeros((0, 3), np.int32)
        got = sgk.scatter_nd(data, np.zeros((0, 1), np.int64), np.zeros((0, 3), np.int32))
        self.assertEqual(got.shape, (0, 3))
        data = np.arange(6, dtype=np.int16).reshape(2, 3)
        got = sgk.scatter_nd(data, np.zeros((0, 1), np.int64), np.zeros((0, 3), np.int16))
        assert_same(self, got, data)

    def test_large_parallel_paths(self):
        n, m = 1 << 20, 1 << 20  # 4 MiB of float32: above the parallel threshold
        data = RNG.standard_normal(n).astype(np.float32)
        idx = RNG.integers(0, n, m)
        upd = RNG.standard_normal(m).astype(np.float32)
        want = data.copy()
        np.add.at(want, idx, upd)  # unbuffered, in order: the sequential loop
        assert_same(self, sgk.scatter_nd(data, idx[:, None], upd, "add"), want)
        want = data.copy()
        np.maximum.at(want, idx, upd)
        assert_same(self, sgk.scatter_nd(data, idx[:, None], upd, "max"), want)
        ints = RNG.integers(-100, 100, n).astype(np.int32)
        iupd = RNG.integers(-100, 100, m).astype(np.int32)
        want = ints.copy()
        np.add.at(want, idx, iupd)
        assert_same(self, sgk.scatter_nd(ints, idx[:, None], iupd, "add"), want)
        # none with duplicates: the last update of each destination wins
        rev_unique, first_in_rev = np.unique(idx[::-1], return_index=True)
        want = data.copy()
        want[rev_unique] = upd[m - 1 - first_in_rev]
        assert_same(self, sgk.scatter_nd(data, idx[:, None], upd), want)


def _check_every_operator(seed):
    """Every operator, one-shot and planned, large enough for parallel
    paths, against NumPy; returns a failure's text or None."""
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((2048, 512)).astype(np.float32)
    rows = rng.integers(-2048, 2048, 4096)
    upd = rng.standard_normal((4096, 512)).astype(np.float32)
    want = data.copy()
    np.add.at(want, rows, upd)
    checks = [
        ("scatter_nd add", sgk.scatter_nd(data, rows[:, None], upd, "add"), want),
        ("scatter_nd plan", sgk.ScatterNDPlan(data, rows[:, None], upd, "add")
         .execute(data, upd), want),
        ("gather_nd", sgk.gather_nd(data, rows[:, None]), data[rows]),
    ]
    idx = rng.integers(0, 512, (2048, 512))
    checks.append(("gather_elements", sgk.gather_elements(data, idx, 1),
                   np.take_along_axis(data, idx, 1)))
    want = data.copy()
    np.maximum.at(want, (np.repeat(np.arange(2048), 512), idx.reshape(-1)),
                  data.reshape(-1))
    checks.append(("scatter_elements max",
                   sgk.scatter_elements(data, idx, data, 1, "max"), want))
    for name, got, expected in checks:
        if got.tobytes() != expected.tobytes():
            return name + " differs from NumPy"
    return None


def _threads_and_loops():
    """The runtime's "threads ...; parallel loops on ..." part."""
    text = sgk.runtime_describe()
    start = text.index("threads ")
    return text[start:text.index("; numa", start)]


def _fork_worker(seed):
    """In a forked worker: _check_every_operator, and the runtime saying it
    runs serially."""
    if "forked child" not in sgk.runtime_describe():
        return "the runtime does not say it is a forked child"
    return _check_every_operator(seed)


class ForkTests(unittest.TestCase):
    """multiprocessing with the fork start method after parallel sgk calls:
    libgomp's workers are the parent's, and a child that entered a parallel
    region hung.  A hang fails the test after FORK_SECONDS, and the pool is
    terminated, so no process is left behind."""

    FORK_SECONDS = 120

    def test_pool_of_forked_workers(self):
        import multiprocessing
        sgk.set_num_threads(2)
        try:
            self.assertIsNone(_check_every_operator(1))  # the parent's threads start
            loops = _threads_and_loops()
            pool = multiprocessing.get_context("fork").Pool(2)
            try:
                results = pool.map_async(_fork_worker, range(4)).get(self.FORK_SECONDS)
            except multiprocessing.TimeoutError:
                self.fail("forked workers hung for %d s" % self.FORK_SECONDS)
            finally:
                pool.terminate()
                pool.join()
            self.assertEqual(results, [None] * 4)
            # the parent keeps its threads (OpenMP's, unless built without)
            self.assertEqual(_threads_and_loops(), loops)
        finally:
            sgk.set_num_threads(0)


class GatherNDTests(unittest.TestCase):
    def test_every_type(self):
        for name in ALL_TYPES:
            with self.subTest(dtype=name):
                data = values(name, (5, 4, 3))
                idx = np.stack([RNG.integers(-5, 5, (6, 2)), RNG.integers(-4, 4, (6, 2))], -1)
                got = sgk.gather_nd(data, idx, **as_sgk(data, name))
                assert_same(self, got, ref_gather_nd(data, idx))

    def test_batch_dims(self):
        data = values("float32", (3, 4, 5, 2))
        for b in (0, 1, 2):
            with self.subTest(batch_dims=b):
                k = 1
                ishape = data.shape[:b] + (6, k)
                idx = RNG.integers(-data.shape[b], data.shape[b], ishape)
                got = sgk.gather_nd(data, idx, batch_dims=b)
                self.assertEqual(got.shape, sgk.gather_nd_shape(data, idx, b))
                assert_same(self, got, ref_gather_nd(data, idx, b))

    def test_gather_nd_shape(self):
        self.assertEqual(sgk.gather_nd_shape((5, 4, 3), (7, 2)), (7, 3))
        self.assertEqual(sgk.gather_nd_shape((2, 4, 3), (2, 6, 1), 1), (2, 6, 3))
        self.assertEqual(sgk.gather_nd_shape(np.zeros((3, 4)), np.zeros((2, 2), np.int64)),
                         (2,))
        with self.assertRaises(sgk.ShapeError):
            sgk.gather_nd_shape((5, 4), (7, 3))
        with self.assertRaises(sgk.ShapeError):
            sgk.gather_nd_shape((2, 4), (3, 1), 1)  # batch dims differ

    def test_large_rows(self):
        table = RNG.standard_normal((50000, 64)).astype(np.float32)
        ids = RNG.integers(0, 50000, 20000)
        assert_same(self, sgk.gather_nd(table, ids[:, None]), table[ids])
        out = np.empty((20000, 64), np.float32)
        self.assertIs(sgk.gather_nd(table, ids[:, None].astype(np.int32), out=out), out)
        assert_same(self, out, table[ids])

    def test_unaligned_output(self):
        # an output off a 64-byte boundary (NumPy promises 16), rows that are
        # and are not multiples of a vector, outputs large enough to be
        # written with streaming stores: every byte right, none outside out
        rng = np.random.default_rng(11)
        for row_bytes in (1024, 260):
            data = rng.standard_normal((5000, row_bytes // 4)).astype(np.float32)
            ids = rng.integers(-5000, 5000, 40000)
            nbytes = ids.size * row_bytes
            for offset in (0, 4, 16, 48):
                raw = np.full(nbytes + 128, 0xa5, np.uint8)
                start = -raw.ctypes.data % 64 + offset
                out = raw[start:start + nbytes].view(np.float32).reshape(ids.size, -1)
                with sgk.GatherNDPlan(data, ids[:, None]) as plan:
                    plan.execute(data, out=out)
                msg = f"{row_bytes}-byte rows, output {offset} bytes off 64"
                assert_same(self, out, data[ids], msg)
                self.assertTrue(np.all(raw[:start] == 0xa5) and np.all(raw[start + nbytes:] == 0xa5),
                                msg)


class ElementsTests(unittest.TestCase):
    def test_scatter_every_type_and_reduction(self):
        for name in ALL_TYPES:
            for red in REDUCTIONS:
                if not supported(name, red):
                    continue
                for axis in (0, 1, -1):
                    with self.subTest(dtype=name, reduction=red, axis=axis):
                        data = values(name, (4, 5))
                        a = axis % 2
                        ishape = (3, 5) if a == 0 else (4, 3)
                        idx = RNG.integers(-data.shape[a], data.shape[a], ishape)
                        upd = values(name, ishape)
                        got = sgk.scatter_elements(data, idx, upd, axis, red,
                                                   **as_sgk(data, name))
                        want = ref_scatter_elements(data, idx, upd, axis, red, kind_of(name))
                        assert_same(self, got, want, f"{name} {red} axis {axis}")

    def test_gather_every_type(self):
        for name in ALL_TYPES:
            for axis in (0, 1, 2, -2):
                with self.subTest(dtype=name, axis=axis):
                    data = values(name, (3, 4, 5))
                    a = axis % 3
                    ishape = [2, 3, 4]
                    ishape[a] = 7  # longer than the axis is fine
                    idx = RNG.integers(-data.shape[a], data.shape[a], ishape)
                    got = sgk.gather_elements(data, idx, axis, **as_sgk(data, name))
                    assert_same(self, got, ref_gather_elements(data, idx, axis))

    def test_large(self):
        data = RNG.standard_normal((1024, 1024)).astype(np.float32)
        idx = RNG.integers(0, 1024, (1024, 256))
        assert_same(self, sgk.gather_elements(data, idx, 1),
                    np.take_along_axis(data, idx, 1))
        upd = RNG.standard_normal((1024, 256)).astype(np.float32)
        want = data.copy()
        rows = np.repeat(np.arange(1024), 256)
        np.add.at(want, (rows, idx.reshape(-1)), upd.reshape(-1))
        assert_same(self, sgk.scatter_elements(data, idx, upd, 1, "add"), want)

    def test_in_place(self):
        data = values("int64", (4, 4))
        idx = RNG.integers(0, 4, (4, 2))
        upd = values("int64", (4, 2))
        want = ref_scatter_elements(data, idx, upd, 1, "sub", "int")
        sgk.scatter_elements(data, idx, upd, axis=1, reduction="sub", out=data)
        assert_same(self, data, want)


class BFloat16Tests(unittest.TestCase):
    def test_bits_with_dtype_argument(self):
        data = f32_to_bf16(np.array([1.0, 2.0, 3.0, 256.0], np.float32))
        upd = f32_to_bf16(np.array([1 / 3, 1 / 3, 1.0, 1.0], np.float32))
        idx = np.array([[0], [0], [3], [3]])
        got = sgk.scatter_nd(data, idx, upd, "add", dtype="bfloat16")
        self.assertEqual(got.dtype, np.uint16)
        # rounded after each update: 256 + 1 rounds back to 256 twice
        np.testing.assert_array_equal(got, ref_scatter_nd(data, idx, upd, "add", "bf16"))
        self.assertEqual(bf16_to_f32(got[3:4])[0], 256.0)

    def test_wide_accumulate_plan_flag(self):
        data = f32_to_bf16(np.array([256.0], np.float32))
        upd = f32_to_bf16(np.ones(4, np.float32))
        idx = np.zeros((4, 1), np.int64)
        seq = sgk.scatter_nd(data, idx, upd, "add", dtype="bfloat16")
        self.assertEqual(bf16_to_f32(seq)[0], 256.0)
        with sgk.ScatterNDPlan(data, idx, upd, "add", wide_accumulate=True,
                               dtype="bfloat16") as plan:
            wide = plan.execute(data, upd)
        self.assertEqual(bf16_to_f32(wide)[0], 260.0)

    def test_bits_need_two_byte_arrays(self):
        with self.assertRaises(sgk.UnsupportedError):
            sgk.gather_nd(np.zeros(4, np.float32), [[0]], dtype="bfloat16")

    @unittest.skipIf(ml_dtypes is None, "ml_dtypes not installed")
    def test_ml_dtypes_bfloat16(self):
        bf = ml_dtypes.bfloat16
        data = np.array([1.5, -2.0, 3.0, np.nan], dtype=bf)
        upd = np.array([0.1, 0.2, 5.0], dtype=bf)
        idx = np.array([[1], [1], [-1]])
        for red in REDUCTIONS:
            with self.subTest(reduction=red):
                got = sgk.scatter_nd(data, idx, upd, red)
                self.assertEqual(got.dtype, np.dtype(bf))
                want = ref_scatter_nd(data.view(np.uint16), idx, upd.view(np.uint16), red,
                                      "bf16")
                np.testing.assert_array_equal(got.view(np.uint16), want)
        np.testing.assert_array_equal(sgk.gather_elements(data, [2, 0], 0).view(np.uint16),
                                      data[[2, 0]].view(np.uint16))


class StringTests(unittest.TestCase):
    def test_objects_come_back(self):
        a, b, c = "alpha", b"beta", "gamma"
        data = np.array([a, b, c, None], dtype=object)
        x, y = "x" * 1000, ""
        upd = np.array([x, y], dtype=object)
        got = sgk.scatter_nd(data, [[3], [-4]], upd)
        self.assertEqual(got.dtype, object)
        self.assertIs(got[0], y)
        self.assertIs(got[1], b)
        self.assertIs(got[2], c)
        self.assertIs(got[3], x)
        g = sgk.gather_nd(data, [[2], [0], [2]])
        self.assertEqual([id(v) for v in g], [id(c), id(a), id(c)])

    def test_equal_strings_stay_distinct_objects(self):
        s1, s2 = "same", "".join(["sa", "me"])
        self.assertIsNot(s1, s2)
        data = np.array([s1, "z"], dtype=object)
        got = sgk.scatter_nd(data, [[1]], np.array([s2], dtype=object))
        self.assertIs(got[0], s1)
        self.assertIs(got[1], s2)

    def test_in_place_and_out(self):
        data = np.array(["a", "b", "c"], dtype=object)
        upd = np.array(["u"], dtype=object)
        out = np.empty(3, dtype=object)
        self.assertIs(sgk.scatter_elements(data, [2], upd, out=out), out)
        self.assertEqual(list(out), ["a", "b", "u"])
        sgk.scatter_elements(data, [0], upd, out=data)
        self.assertEqual(list(data), ["u", "b", "c"])

    def test_fixed_width_arrays(self):
        data = np.array(["aa", "b", "ccc"])
        got = sgk.scatter_nd(data, [[0]], np.array(["zzzz"]))
        self.assertEqual(got.dtype.kind, "U")
        self.assertEqual(list(got), ["zzzz", "b", "ccc"])
        got = sgk.gather_elements(np.array([b"x", b"yy"]), [1, 1, 0])
        self.assertEqual(list(got), [b"yy", b"yy", b"x"])

    def test_reductions_unsupported(self):
        data = np.array(["a", "b"], dtype=object)
        before = data.copy()
        for red in ("add", "sub", "mul", "max", "min"):
            with self.subTest(reduction=red), self.assertRaises(sgk.UnsupportedError) as cm:
                sgk.scatter_nd(data, [[0]], np.array(["c"], dtype=object), red, out=data)
            self.assertIn("scatter_nd", cm.exception.message)
        self.assertTrue(all(x is y for x, y in zip(data, before)))

    def test_bad_element(self):
        with self.assertRaises(sgk.UnsupportedError):
            sgk.gather_nd(np.array(["a", 3], dtype=object), [[0]])


class PlanTests(unittest.TestCase):
    def test_scatter_nd_plan_reuse(self):
        data = values("float32", (32, 4), with_nan=False)
        idx = RNG.integers(-32, 32, (40, 1))
        upd = values("float32", (40, 4), with_nan=False)
        spec = types.SimpleNamespace(shape=data.shape, dtype=data.dtype)
        with sgk.ScatterNDPlan(spec, idx, upd, "add") as plan:
            self.assertIn("scatter_nd", plan.describe())
            self.assertEqual(plan.output_shape, (32, 4))
            for _ in range(3):
                d2 = values("float32", (32, 4), with_nan=False)
                u2 = values("float32", (40, 4), with_nan=False)
                assert_same(self, plan.execute(d2, u2), ref_scatter_nd(d2, idx, u2, "add",
                                                                       "float"))
            acc = data.copy()
            want = ref_scatter_nd(ref_scatter_nd(data, idx, upd, "add", "float"), idx, upd,
                                  "add", "float")
            plan.execute(acc, upd, out=acc)
            plan.execute(acc, upd, out=acc)
            assert_same(self, acc, want)
        self.assertTrue(plan.closed)
        self.assertIn("closed", repr(plan))
        with self.assertRaises(sgk.InvalidArgumentError):
            plan.execute(data, upd)
        plan.close()  # twice is fine

    def test_scalar_update_through_plan(self):
        # A 0-d update (expected shape []) must stay 0-d on the way to C, also
        # when execute converts it (a NumPy scalar, non-contiguous data).
        data = np.zeros((2, 2), np.float16)
        upd = np.float16(1)
        with sgk.ScatterNDPlan(data, np.array([0, 1]), upd) as plan:
            out = plan.execute(data, upd)
            out_t = plan.execute(np.zeros((2, 2), np.float16).T, upd)
        want = np.array([[0, 1], [0, 0]], np.float16)
        assert_same(self, out, want)
        assert_same(self, out_t, want)

    def test_indices_may_be_freed(self):
        data = values("int16", (10, 3))
        idx = RNG.integers(0, 10, (4, 1))
        upd = values("int16", (4, 3))
        want = ref_scatter_nd(data, idx, upd, "none", "int")
        plan = sgk.ScatterNDPlan(data, idx.copy(), upd)
        import gc
        gc.collect()
        assert_same(self, plan.execute(data, upd), want)
        del plan
        gc.collect()

    def test_every_plan_kind(self):
        data = values("float64", (6, 5), with_nan=False)
        idx2 = RNG.integers(-6, 6, (4, 1))
        with sgk.GatherNDPlan(data, idx2) as p:
            assert_same(self, p.execute(data), ref_gather_nd(data, idx2))
            self.assertEqual(p.output_shape, (4, 5))
        eidx = RNG.integers(-5, 5, (6, 3))
        with sgk.GatherElementsPlan(data, eidx, axis=1) as p:
            assert_same(self, p.execute(data), ref_gather_elements(data, eidx, 1))
        upd = values("float64", (6, 3), with_nan=False)
        with sgk.ScatterElementsPlan(data, eidx, upd, axis=-1, reduction="mul") as p:
            assert_same(self, p.execute(data, upd),
                        ref_scatter_elements(data, eidx, upd, 1, "mul", "float"))
            self.assertIn("scatter_elements", p.describe())
        with sgk.GatherNDPlan(data[None], np.zeros((1, 3, 1), np.int32), batch_dims=1) as p:
            self.assertEqual(p.output_shape, (1, 3, 5))

    def test_string_and_bits_plans(self):
        data = np.array(["p", "q", "r"], dtype=object)
        upd = np.array(["s", "t"], dtype=object)
        with sgk.ScatterNDPlan(data, [[2], [0]], upd) as p:
            got = p.execute(data, upd)
            self.assertIs(got[0], upd[1])
            self.assertIs(got[2], upd[0])
            self.assertIs(got[1], data[1])
        bits = f32_to_bf16(np.arange(4, dtype=np.float32))
        with sgk.GatherNDPlan(bits, [[3], [1]], dtype="bfloat16") as p:
            np.testing.assert_array_equal(p.execute(bits), bits[[3, 1]])

    def test_execute_checks_buffers(self):
        data = values("float32", (8, 2))
        upd = values("float32", (3, 2))
        idx = [[0], [1], [2]]
        with sgk.ScatterNDPlan(data, idx, upd) as p:
            for args, kw in [((np.zeros((8, 3), np.float32), upd), {}),
                             ((data.astype(np.float64), upd), {}),
                             ((data, np.zeros((4, 2), np.float32)), {}),
                             ((data,), {}),
                             ((data, upd), {"out": np.zeros((8, 2), np.float64)}),
                             ((data, upd), {"out": np.zeros((8, 2), np.float32)[::1, ::1].T}),
                             ((data, upd), {"out": np.zeros((2, 8), np.float32).T})]:
                with self.subTest(args=[getattr(a, "shape", a) for a in args], kw=kw.keys()):
                    with self.assertRaises(sgk.InvalidArgumentError):
                        p.execute(*args, **kw)
        with sgk.GatherNDPlan(data, idx) as p, self.assertRaises(sgk.InvalidArgumentError):
            p.execute(data, upd)

    def test_concurrent_execute(self):
        table = RNG.standard_normal((4096, 64)).astype(np.float32)
        ids = RNG.integers(0, 4096, (2048, 1))
        want = table[ids[:, 0]]
        with sgk.GatherNDPlan(table, ids) as p:
            barrier = threading.Barrier(4)

            def run(_):
                barrier.wait()
                return [p.execute(table) for _ in range(10)]
            with ThreadPoolExecutor(4) as pool:
                for results in pool.map(run, range(4)):
                    for r in results:
                        assert_same(self, r, want)

    def test_deterministic_flags(self):
        data = values("float32", (16,), with_nan=False)
        idx = RNG.integers(0, 16, (500, 1))
        upd = values("float32", (500,), with_nan=False)
        want = ref_scatter_nd(data, idx, upd, "add", "float")
        with sgk.ScatterNDPlan(data, idx, upd, "add", deterministic=True) as p:
            assert_same(self, p.execute(data, upd), want)
        with sgk.ScatterNDPlan(data, idx, upd, "add", deterministic=False) as p:
            np.testing.assert_allclose(p.execute(data, upd), want, rtol=1e-4, atol=1e-3)
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.ScatterNDPlan(data, idx, upd, "add",
                              flags=sgk.PLAN_DETERMINISTIC | sgk.PLAN_ALLOW_REORDER)
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.GatherNDPlan(data, idx, flags=1 << 9)


class ErrorTests(unittest.TestCase):
    def check_untouched(self, exc_type, status, builtin, call, data, out, needle=None):
        """call(out) must raise, leaving out (and data) as they were."""
        data_before, out_before = data.copy(), out.copy()
        with self.assertRaises(exc_type) as cm:
            call(out)
        e = cm.exception
        self.assertIsInstance(e, sgk.SgkError)
        self.assertIsInstance(e, builtin)
        self.assertEqual(e.status, status)
        self.assertTrue(e.status_name.startswith("SGK_ERR_"))
        self.assertTrue(e.message)
        self.assertIn(e.message, str(e))
        if needle:
            self.assertIn(needle, e.message)
        np.testing.assert_array_equal(out, out_before)
        np.testing.assert_array_equal(data, data_before)
        return e

    def test_index_out_of_range(self):
        data = np.arange(32, dtype=np.float32).reshape(4, 8)
        upd = np.ones((3,), np.float32)
        idx = np.array([[0, 0], [3, -8], [1, 9]])  # flattened 1*8+9 < 32, still out
        for out in (np.full_like(data, 7), data):  # separate output, then in place
            e = self.check_untouched(
                sgk.IndexOutOfRangeError, 3, IndexError,
                lambda o: sgk.scatter_nd(data, idx, upd, "add", out=o), data, out,
                "scatter_nd")
            self.assertIn("9", e.message)
        self.check_untouched(sgk.IndexOutOfRangeError, 3, IndexError,
                             lambda o: sgk.gather_nd(data, [[4]], out=o), data,
                             np.zeros((1, 8), np.float32), "gather_nd")
        self.check_untouched(
            sgk.IndexOutOfRangeError, 3, IndexError,
            lambda o: sgk.scatter_elements(data, [[0, -9]], [[1.0, 2.0]], 1, out=o), data,
            data.copy(), "scatter_elements")
        self.check_untouched(sgk.IndexOutOfRangeError, 3, IndexError,
                             lambda o: sgk.gather_elements(data, [[0], [4]], 0, out=o), data,
                             np.zeros((2, 1), np.float32), "gather_elements")
        with self.assertRaises(sgk.IndexOutOfRangeError):
            sgk.ScatterNDPlan(data, [[0, 8]], np.ones(1, np.float32))
        with self.assertRaises(sgk.IndexOutOfRangeError):
            sgk.gather_nd(data, np.array([[2 ** 64 - 1]], dtype=np.uint64))

    def test_shape(self):
        data = np.zeros((4, 8), np.int32)
        out = np.full_like(data, 5)
        self.check_untouched(sgk.ShapeError, 2, ValueError,
                             lambda o: sgk.scatter_nd(data, [[1]], np.ones((1, 7), np.int32),
                                                      out=o), data, out, "scatter_nd")
        self.check_untouched(sgk.ShapeError, 2, ValueError,
                             lambda o: sgk.scatter_elements(data, [[1]], [[1]], axis=2, out=o),
                             data, out)
        self.check_untouched(sgk.ShapeError, 2, ValueError,
                             lambda o: sgk.scatter_elements(data, [[1]] * 5, [[1]] * 5, axis=1,
                                                            out=o), data, out)
        with self.assertRaises(sgk.ShapeError):
            sgk.gather_nd(data, [[0, 0, 0]])
        with self.assertRaises(sgk.ShapeError):
            sgk.gather_elements(data, [1, 2], 0)  # rank differs

    def test_unsupported(self):
        data = np.zeros(3, np.complex64)
        out = np.ones_like(data)
        self.check_untouched(sgk.UnsupportedError, 4, TypeError,
                             lambda o: sgk.scatter_nd(data, [[0]], data[:1], "max", out=o),
                             data, out, "complex64")
        with self.assertRaises(sgk.UnsupportedError):
            sgk.gather_nd(np.zeros(3), [[0.0]])  # float indices
        with self.assertRaises(sgk.UnsupportedError):
            sgk.gather_nd(np.zeros(3, np.longdouble), [[0]])

    def test_invalid_argument(self):
        data = np.zeros((4, 4), np.float32)
        with self.assertRaises(sgk.InvalidArgumentError) as cm:
            sgk.scatter_nd(data, [[0]], np.ones((1, 4), np.float32), "average")
        self.assertIsInstance(cm.exception, ValueError)
        # the output overlapping the updates: rejected by the library, data kept
        upd = np.ones((4, 4), np.float32)
        idx = np.zeros((4, 4), np.int64)
        e = self.check_untouched(
            sgk.InvalidArgumentError, 1, ValueError,
            lambda o: sgk.scatter_elements(data, idx, o, 0, "add", out=o), data, upd)
        self.assertIn("overlap", e.message)
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.scatter_nd(data, [[0]], np.ones((1, 4), np.float32), out=np.zeros((4, 4)))
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.scatter_nd(data, [[0]], np.ones((1, 4), np.float32), out=[0] * 16)

    def test_overflow(self):
        huge = types.SimpleNamespace(shape=(2 ** 40, 2 ** 40), dtype=np.float32)
        with self.assertRaises(sgk.SizeOverflowError) as cm:
            sgk.GatherNDPlan(huge, [[0]])
        self.assertEqual(cm.exception.status, 6)
        self.assertIsInstance(cm.exception, OverflowError)
        with self.assertRaises(sgk.SizeOverflowError):
            sgk.gather_nd_shape((2 ** 62, 4), (1, 1))

    def test_errors_are_per_thread(self):
        def fail(_):
            try:
                sgk.gather_nd(np.zeros(3), [[7]])
            except sgk.IndexOutOfRangeError as e:
                return e.message
        with ThreadPoolExecutor(2) as pool:
            for msg in pool.map(fail, range(8)):
                self.assertIn("7", msg)


# ---- runner: unittest's own report, then cmocka's and the plain summary ------

def main():
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
