"""Tests of the binding's Gather and TensorScatter (sgk.gather,
sgk.tensor_scatter and their plans) against NumPy: numpy.take for Gather, the ONNX
pseudocode as a loop for TensorScatter.  One-shot, out=, in place, plans,
every type the binding takes, and the errors (which leave the cache as it
was).

Run: SGK_BUILD_DIR=<build> python
tests/python/test_gather_tensor_scatter.py (tests/test_python.sh does this
under `make check`).  Needs NumPy; ml_dtypes adds bfloat16.
"""
import os
import sys
import unittest
from concurrent.futures import ThreadPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import sgk  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)

try:
    import ml_dtypes
except ImportError:  # bfloat16 cases are skipped
    ml_dtypes = None

RNG = np.random.default_rng(2024)
NUMERIC = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]


def values(shape, dtype):
    """Random values of a NumPy dtype (all bit patterns for the floats)."""
    dt = np.dtype(dtype)
    if dt.kind == "O":
        pool = np.array(["a", "bb", "", "ccc", None], dtype=object)
        return pool[RNG.integers(0, len(pool), size=shape)]
    raw = RNG.integers(0, 256, size=int(np.prod(shape)) * dt.itemsize, dtype=np.uint8)
    arr = raw.view(dt).reshape(shape)
    return (arr != 0) if dt.kind == "b" else arr


def take(data, indices, axis):
    axis %= data.ndim
    return np.take(data, np.where(indices < 0, indices + data.shape[axis], indices), axis=axis)


def tensor_scatter_loop(cache, update, write_indices, axis, mode):
    """The ONNX pseudocode, written out."""
    out = cache.copy()
    axis %= cache.ndim
    starts = np.zeros(cache.shape[0], np.int64) if write_indices is None else write_indices
    for prefix in np.ndindex(cache.shape[:axis]):
        for s in range(update.shape[axis]):
            pos = int(starts[prefix[0]]) + s
            if mode == "circular":
                pos %= cache.shape[axis]
            out[prefix + (pos,)] = update[prefix + (s,)]
    return out


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "O":
        return all(x is y or x == y for x, y in zip(a.reshape(-1), b.reshape(-1)))
    return a.tobytes() == b.tobytes()


class GatherTest(unittest.TestCase):
    def check(self, data, indices, axis):
        want = take(data, np.asarray(indices), axis)
        got = sgk.gather(data, indices, axis)
        self.assertTrue(same(got, want), f"{data.dtype} axis {axis}")
        self.assertEqual(sgk.gather_shape(data, np.asarray(indices), axis), want.shape)
        with sgk.GatherPlan(data, indices, axis) as plan:
            self.assertTrue(same(plan.execute(data), want))
            self.assertEqual(plan.output_shape, want.shape)
            self.assertIn("gather", plan.describe())

    def test_every_type_and_axis(self):
        for name in NUMERIC + ["object"]:
            data = values((3, 4, 5), name)
            for axis in (-3, -2, -1, 0, 1, 2):
                n = data.shape[axis]
                for itype in (np.int32, np.int64):
                    self.check(data, RNG.integers(-n, n, size=(2, 3)).astype(itype), axis)

    @unittest.skipIf(ml_dtypes is None, "ml_dtypes not installed")
    def test_bfloat16(self):
        data = values((6, 8), np.uint16).view(ml_dtypes.bfloat16)
        self.check(data, np.array([5, -6, 0]), 0)

    def test_scalar_and_empty_indices(self):
        data = values((4, 5), np.float32)
        self.check(data, np.int64(-1), 1)
        self.check(data, np.zeros((0, 2), np.int64), 0)
        self.assertEqual(sgk.gather(data, np.int64(2), 0).shape, (5,))

    def test_out(self):
        data = values((10, 16), np.float32)
        out = np.empty((3, 16), np.float32)
        self.assertIs(sgk.gather(data, [1, 2, 9], out=out), out)
        self.assertTrue(same(out, data[[1, 2, 9]]))

    def test_large_embedding(self):
        table = values((5000, 64), np.float32)
        ids = RNG.integers(0, 5000, size=(4, 1024))
        self.check(table, ids, 0)

    def test_errors(self):
        data = np.zeros((3, 4), np.float32)
        with self.assertRaises(sgk.IndexOutOfRangeError) as cm:
            sgk.gather(data, [0, 4], 1)
        self.assertIn("= 4", cm.exception.message)
        with self.assertRaises(sgk.ShapeError):
            sgk.gather(data, [0], 2)
        with self.assertRaises(sgk.IndexOutOfRangeError):
            sgk.GatherPlan(data, [-5], 1)


class TensorScatterTest(unittest.TestCase):
    def check(self, cache, update, write_indices, axis, mode):
        want = tensor_scatter_loop(cache, update, write_indices, axis, mode)
        got = sgk.tensor_scatter(cache, update, write_indices, axis, mode)
        self.assertTrue(same(got, want), f"{cache.dtype} axis {axis} {mode}")
        in_place = cache.copy()
        self.assertIs(sgk.tensor_scatter(in_place, update, write_indices, axis, mode,
                                         out=in_place), in_place)
        self.assertTrue(same(in_place, want))
        with sgk.TensorScatterPlan(cache, update, write_indices, axis, mode) as plan:
            self.assertTrue(same(plan.execute(cache, update), want))
            in_place = cache.copy()
            plan.execute(in_place, update, out=in_place)
            self.assertTrue(same(in_place, want))

    def test_every_type_axis_and_mode(self):
        for name in NUMERIC + ["object"]:
            cache = values((2, 3, 6, 4), name)
            for axis in (1, 2, 3, -1, -2, -3):
                length = cache.shape[axis]
                shape = list(cache.shape)
                shape[axis] = seq = int(RNG.integers(0, length + 1))
                update = values(tuple(shape), name)
                for mode in ("linear", "circular"):
                    if mode == "linear":
                        w = RNG.integers(0, length - seq + 1, size=2)
                    else:
                        w = RNG.integers(-3 * length, 3 * length, size=2)
                    for itype in (np.int32, np.int64):
                        self.check(cache, update, w.astype(itype), axis, mode)
                    self.check(cache, update, None, axis, mode)

    @unittest.skipIf(ml_dtypes is None, "ml_dtypes not installed")
    def test_bfloat16(self):
        cache = values((2, 2, 8, 4), np.uint16).view(ml_dtypes.bfloat16)
        update = values((2, 2, 3, 4), np.uint16).view(ml_dtypes.bfloat16)
        self.check(cache, update, np.array([5, 7]), -2, "circular")

    def test_decode_steps_in_place(self):
        """A ring-buffer KV cache filled token by token, from two threads
        executing one plan each on its own cache."""
        cache = np.zeros((2, 4, 16, 8), np.float16)

        def run(seed):
            rng = np.random.default_rng(seed)
            mine, want = cache.copy(), cache.copy()
            for step in range(40):
                token = rng.standard_normal((2, 4, 1, 8)).astype(np.float16)
                positions = np.array([step, step + 3])
                sgk.tensor_scatter(mine, token, positions, mode="circular", out=mine)
                want = tensor_scatter_loop(want, token, positions, -2, "circular")
            return same(mine, want)
        with ThreadPoolExecutor(2) as pool:
            self.assertTrue(all(pool.map(run, range(4))))

    def test_errors_leave_the_cache(self):
        cache = values((2, 3, 6, 4), np.float32)
        update = values((2, 3, 2, 4), np.float32)
        before = cache.copy()
        with self.assertRaises(sgk.IndexOutOfRangeError) as cm:
            sgk.tensor_scatter(cache, update, np.array([1, 5]), out=cache)
        self.assertIn("write_indices[1] = 5", cm.exception.message)
        with self.assertRaises(sgk.IndexOutOfRangeError):
            sgk.tensor_scatter(cache, update, np.array([-1, 0]), out=cache)
        with self.assertRaises(sgk.ShapeError):
            sgk.tensor_scatter(cache, update, np.array([0, 0]), axis=0, out=cache)
        with self.assertRaises(sgk.ShapeError):
            sgk.tensor_scatter(cache, update[:, :2], np.array([0, 0]), out=cache)
        with self.assertRaises(sgk.ShapeError):
            sgk.tensor_scatter(cache, update, np.array([0, 0, 0]), out=cache)
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.tensor_scatter(cache, update, mode="ring", out=cache)
        with self.assertRaises(sgk.IndexOutOfRangeError):
            sgk.TensorScatterPlan(cache, update, np.array([5, 0]))
        self.assertTrue(same(cache, before))


def main():
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
