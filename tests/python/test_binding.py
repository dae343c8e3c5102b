"""Tests of the sgk Python binding (python/sgk): the runtime, and each
operator's one-shot calls, against the small NumPy references of
binding_reference.py (written from the sequential definition of the
README's "Semantics, stated plainly").  The element types bfloat16 and
string, the plans and the errors have files of their own:
test_binding_types.py, test_binding_plans.py, test_binding_errors.py.

Run: SGK_BUILD_DIR=<build> python tests/python/test_binding.py
(tests/test_python.sh does this under `make check`).  Needs NumPy only.
"""
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import sgk  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)
from binding_reference import (  # noqa: E402
    ALL_TYPES, REDUCTIONS, RNG, as_sgk, assert_same, kind_of, ref_gather_elements,
    ref_gather_nd, ref_scatter_elements, ref_scatter_nd, supported, values)


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


# ---- runner: unittest's own report, then cmocka's and the plain summary ------

def main():
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
