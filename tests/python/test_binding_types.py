"""Tests of the sgk Python binding on its two special element types:
bfloat16 (as bits, and as ml_dtypes' dtype when installed) and strings
(object arrays of str).  References and operands: binding_reference.py.

Run: SGK_BUILD_DIR=<build> python tests/python/test_binding_types.py
(tests/test_python.sh does this under `make check`).  ml_dtypes adds the
bfloat16-dtype tests.
"""
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import sgk  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)
from binding_reference import REDUCTIONS, bf16_to_f32, f32_to_bf16, ref_scatter_nd  # noqa: E402

try:
    import ml_dtypes
except ImportError:  # the bits-only bfloat16 tests still run
    ml_dtypes = None


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


# ---- runner: unittest's own report, then cmocka's and the plain summary ------

def main():
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
