"""Tests of the sgk Python binding's plans: made once, executed many times,
from several threads, against the one-shot calls and the references of
binding_reference.py.

Run: SGK_BUILD_DIR=<build> python tests/python/test_binding_plans.py
(tests/test_python.sh does this under `make check`).
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
from binding_reference import (  # noqa: E402
    RNG, assert_same, f32_to_bf16, ref_gather_elements, ref_gather_nd, ref_scatter_elements,
    ref_scatter_nd, values)


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


# ---- runner: unittest's own report, then cmocka's and the plain summary ------

def main():
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
