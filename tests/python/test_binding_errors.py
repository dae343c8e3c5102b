"""Tests of the sgk Python binding's errors: each status's exception, its
message, and outputs left untouched by a failed call.

Run: SGK_BUILD_DIR=<build> python tests/python/test_binding_errors.py
(tests/test_python.sh does this under `make check`).
"""
import os
import sys
import types
import unittest
from concurrent.futures import ThreadPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import sgk  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)


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
