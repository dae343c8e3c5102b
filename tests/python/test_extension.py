"""Tests of the binding's two paths (python/ext/ and python/sgk/_marshal.py):
every call the extension takes directly must give the bytes and the errors
the general path gives for the same values, and plans must survive close()
while other threads execute them.  References are NumPy's own indexing.

Run by tests/test_python.sh after test_binding.py.
"""
import os
import sys
import threading
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import sgk  # noqa: E402
from sgk import _dtypes, _native, _oneshot, errors  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)

RNG = np.random.default_rng(1811)


def strided(a):
    """The same values in a non-contiguous array: the extension declines it."""
    wide = np.empty(a.shape + (2,), a.dtype)
    wide[..., 0] = a
    return wide[..., 0]


class Recorder:
    """Counts the calls of operator `name` the extension module declines:
    those it hands to the Python layer's general path."""

    def __init__(self, name):
        self.name, self.declined = name, 0

    def __enter__(self):
        def general(op, *args):
            if op == self.name:
                self.declined += 1
            return _oneshot.general(op, *args)
        _native.ext._setup(errors.error_for, _dtypes.USER_DTYPES, general)
        return self

    def __exit__(self, *exc):
        _native.ext._setup(errors.error_for, _dtypes.USER_DTYPES, _oneshot.general)


class PathTests(unittest.TestCase):
    def test_extension_is_loaded(self):
        self.assertEqual(_native.ext.__name__, "sgk._sgk")
        self.assertTrue(issubclass(sgk.ScatterNDPlan, _native.ext.PlanBase))
        self.assertIs(sgk.scatter_nd, _native.ext.scatter_nd)  # no Python frame between

    def cases(self):
        data = RNG.standard_normal((16, 6)).astype(np.float32)
        rows = RNG.integers(-16, 16, (9, 1))
        upd = RNG.standard_normal((9, 6)).astype(np.float32)
        eidx = RNG.integers(-6, 6, (16, 3))
        eupd = RNG.standard_normal((16, 3)).astype(np.float32)
        want_add = data.copy()
        np.add.at(want_add, rows[:, 0] % 16, upd)
        want_emax = data.copy()
        np.maximum.at(want_emax, (np.arange(16)[:, None], eidx % 6), eupd)
        cache = RNG.standard_normal((2, 3, 5, 4)).astype(np.float32)
        token = RNG.standard_normal((2, 3, 2, 4)).astype(np.float32)
        positions = np.array([4, -1])  # circular: both wrap
        want_cache = cache.copy()
        for b, start in enumerate(positions):
            for s in range(2):
                want_cache[b, :, (start + s) % 5] = token[b, :, s]
        return [
            ("scatter_nd", (data, rows, upd, "add"), want_add),
            ("gather_nd", (data, rows), data[rows[:, 0]]),
            ("scatter_elements", (data, eidx, eupd, 1, "max"), want_emax),
            ("gather_elements", (data, eidx, 1), np.take_along_axis(data, eidx % 6, 1)),
            ("gather", (data, rows[:, 0], 0), data[rows[:, 0] % 16]),
            ("tensor_scatter", (cache, token, positions, -2, "circular"), want_cache),
        ]

    def test_direct_and_general_paths_agree(self):
        for name, args, want in self.cases():
            fn = getattr(sgk, name)
            with self.subTest(op=name):
                with Recorder(name) as rec:
                    direct = fn(*args)
                self.assertEqual(rec.declined, 0)
                with Recorder(name) as rec:
                    general = fn(*[strided(a) if isinstance(a, np.ndarray) else a
                                   for a in args])
                self.assertEqual(rec.declined, 1)
                for got in (direct, general):
                    self.assertEqual(got.dtype, want.dtype)
                    self.assertEqual(got.tobytes(), want.tobytes())

    def test_direct_and_general_errors_agree(self):
        data = np.zeros((4, 4), np.float32)
        bad = np.array([[1], [4]])  # 4 is out of range
        upd = np.ones((2, 4), np.float32)
        messages = []
        for d in (data, strided(data)):
            with self.assertRaises(sgk.IndexOutOfRangeError) as cm:
                sgk.scatter_nd(d, bad, upd, "add")
            messages.append(cm.exception.message)
        self.assertEqual(messages[0], messages[1])
        self.assertIn("scatter_nd", messages[0])

    def test_tensor_scatter_errors_agree_and_leave_the_cache(self):
        cache = RNG.standard_normal((2, 3, 6, 4)).astype(np.float32)
        token = np.ones((2, 3, 2, 4), np.float32)
        before = cache.copy()
        messages = []
        for u in (token, strided(token)):
            with self.assertRaises(sgk.IndexOutOfRangeError) as cm:
                sgk.tensor_scatter(cache, u, np.array([0, 5]), out=cache)
            messages.append(cm.exception.message)
        self.assertEqual(messages[0], messages[1])
        self.assertIn("write_indices[1] = 5", messages[0])
        for mode in ("ring", 1, None):  # the Python API takes the names only
            with self.assertRaises(sgk.InvalidArgumentError):
                sgk.tensor_scatter(cache, token, mode=mode, out=cache)
        self.assertEqual(cache.tobytes(), before.tobytes())

    def test_declined_arguments_keep_their_errors(self):
        data = np.zeros(4, np.float32)
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.scatter_nd(data, [[0]], np.ones(1, np.float32), True)  # a bool reduction
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.scatter_nd(data, [[0]], np.ones(1, np.float32), out=np.zeros(4, np.float64))
        with self.assertRaises(sgk.InvalidArgumentError):  # out not C-contiguous
            sgk.gather_nd(np.zeros((4, 3), np.float32), [[0], [1]],
                          out=np.zeros((3, 2), np.float32).T)
        ro = np.zeros(4, np.float32)
        ro.flags.writeable = False
        with self.assertRaises(sgk.InvalidArgumentError):
            sgk.scatter_nd(data, [[0]], np.ones(1, np.float32), out=ro)

    def test_subclass_takes_the_general_path(self):
        class Tagged(np.ndarray):
            pass
        data = np.arange(8, dtype=np.int32).view(Tagged)
        with Recorder("gather_nd") as rec:
            got = sgk.gather_nd(data, np.array([[7], [0]]))
        self.assertEqual(rec.declined, 1)
        self.assertEqual(type(got), np.ndarray)
        self.assertEqual(got.tolist(), [7, 0])


class ArgumentTests(unittest.TestCase):
    """The extension binds arguments as a def with the documented signature
    would."""

    def test_keywords_defaults_and_errors(self):
        data = np.arange(8, dtype=np.float32).reshape(4, 2)
        idx = np.array([[3], [0]])
        want = data[[3, 0]]
        np.testing.assert_array_equal(sgk.gather_nd(indices=idx, data=data), want)
        np.testing.assert_array_equal(sgk.gather(data, idx[:, 0], 0, None), want)
        with self.assertRaisesRegex(TypeError, "missing required argument 'indices'"):
            sgk.gather_nd(data)
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument 'axis'"):
            sgk.gather_nd(data, idx, axis=0)
        with self.assertRaisesRegex(TypeError, "multiple values for argument 'data'"):
            sgk.gather_nd(data, idx, data=data)
        with self.assertRaisesRegex(TypeError, "positional"):
            sgk.gather_nd(data, idx, 0, None)  # out is keyword-only there

    def test_signatures_and_docs(self):
        import inspect
        sig = inspect.signature(sgk.tensor_scatter)
        self.assertEqual(list(sig.parameters), ["past_cache", "update", "write_indices", "axis",
                                                "mode", "out", "dtype"])
        self.assertEqual(sig.parameters["axis"].default, -2)
        self.assertEqual(sig.parameters["mode"].default, "linear")
        plan_sig = inspect.signature(sgk.ScatterElementsPlan)
        self.assertEqual(list(plan_sig.parameters),
                         ["data", "indices", "updates", "axis", "reduction", "deterministic",
                          "wide_accumulate", "flags", "dtype"])
        self.assertNotIn("deterministic", inspect.signature(sgk.GatherPlan).parameters)
        for op in _oneshot.OPERATORS:
            doc = getattr(sgk, op).__doc__
            self.assertIn("IndexOutOfRangeError", doc)
            self.assertIn("bfloat16", doc)
            self.assertIn("Plan for sgk." + op, getattr(
                sgk, "".join("ND" if w == "nd" else w.capitalize() for w in op.split("_"))
                + "Plan").__doc__)

    def test_general_out_errors_say_what_is_wrong(self):
        data = strided(np.zeros((4, 2), np.float32))
        for out, words in ((np.zeros((4, 2), np.float64), "wrong dtype"),
                           (np.zeros((2, 4), np.float32), "wrong shape"),
                           ([0] * 8, "must be a NumPy array")):
            with self.assertRaisesRegex(sgk.InvalidArgumentError, words):
                sgk.scatter_nd(data, [[0]], np.ones((1, 2), np.float32), out=out)
        plan = sgk.GatherNDPlan(np.zeros((4, 2), np.float32), [[1]])
        with self.assertRaisesRegex(sgk.InvalidArgumentError, r"planned for float32\[4, 2\]"):
            plan.execute(np.zeros((5, 2), np.float32))
        with self.assertRaisesRegex(sgk.InvalidArgumentError, "takes no updates"):
            plan.execute(np.zeros((4, 2), np.float32), np.zeros(2, np.float32))


class RegistryTests(unittest.TestCase):
    """What the package asks the library instead of keeping tables."""

    def test_dtypes_and_reductions(self):
        names = sgk.dtypes()
        self.assertEqual(len(names), len(_dtypes.TABLE))
        for name in ("bool", "int8", "float16", "bfloat16", "complex128", "string"):
            self.assertIn(name, names)
        self.assertEqual(sgk.reductions()[0], "none")
        self.assertIn("max", sgk.reductions())
        self.assertTrue(sgk.reduction_supported("float32", "max"))
        self.assertTrue(sgk.reduction_supported("float32", "sum"))  # OpenVINO's name
        self.assertFalse(sgk.reduction_supported("complex64", "max"))
        self.assertFalse(sgk.reduction_supported("string", "add"))
        for name in names:  # NumPy <-> sgk both ways, where NumPy has the type
            dt = {"string": np.dtype(object), "bfloat16": sgk.BFLOAT16_DTYPE}.get(name)
            if name not in ("string", "bfloat16"):
                dt = np.dtype(name)
            if dt is not None:
                self.assertEqual(_dtypes.NAMES[_dtypes.code_of(dt)], name)
                self.assertEqual(sgk.dtype_size(name), dt.itemsize if name != "string"
                                 else np.dtype(np.uintp).itemsize)

    def test_statuses_map_by_name(self):
        names = _native.ext.status_names()
        self.assertEqual(names[0], "SGK_OK")
        for code, name in enumerate(names[1:], 1):
            err = errors.error_for(code, "x")
            self.assertIsInstance(err, sgk.SgkError)
            self.assertEqual((err.status, err.status_name), (code, name))
            self.assertEqual(sgk.status_name(code), name)
        self.assertIs(type(errors.error_for(names.index("SGK_ERR_SHAPE"), "")), sgk.ShapeError)

    def test_constants_are_the_headers(self):
        self.assertEqual((sgk.PLAN_DETERMINISTIC, sgk.PLAN_ALLOW_REORDER,
                          sgk.PLAN_WIDE_ACCUMULATE), (1, 2, 4))
        self.assertEqual(sgk.TENSOR_SCATTER_MODES, ("linear", "circular"))
        self.assertEqual(_native.ext.TENSOR_SCATTER_CIRCULAR, 1)

    def test_version_check(self):
        ext = _native.ext
        ext.check_version(ext.VERSION_MAJOR, ext.VERSION_MINOR)  # what the import checked
        self.assertTrue(sgk.version().startswith(f"{ext.VERSION_MAJOR}.{ext.VERSION_MINOR}"))
        for major, minor in ((ext.VERSION_MAJOR + 1, 0), (ext.VERSION_MAJOR, 999)):
            with self.assertRaises(ImportError) as cm:
                ext.check_version(major, minor)
            self.assertIn(f"{major}.{minor}", str(cm.exception))
            self.assertIn(sgk.version(), str(cm.exception))  # the library's own words

    def test_missing_extension_fails_on_first_call(self):
        """Importing sgk never fails: the reason comes with the first call."""
        import subprocess
        code = ("import sys; sys.modules['sgk._sgk'] = None\n"
                "import sgk\n"
                "try:\n    sgk.gather_nd([1], [[0]])\n"
                "except sgk.LibraryNotFoundError as e:\n    print('raised', e)\n"
                "try:\n    sgk.GatherNDPlan([1], [[0]])\n"
                "except sgk.LibraryNotFoundError as e:\n    print('raised')\n")
        env = dict(os.environ)
        env.pop("SGK_BUILD_DIR", None)
        env["PYTHONPATH"] = os.path.join(HERE, "..", "..", "python")
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.count("raised"), 2, proc.stdout)


class PlanLifetimeTests(unittest.TestCase):
    def test_close_while_executing(self):
        table = RNG.standard_normal((4096, 256)).astype(np.float32)
        ids = RNG.integers(0, 4096, (8192, 1))
        want = table[ids[:, 0]]
        plan = sgk.GatherNDPlan(table, ids)
        started = threading.Barrier(3)
        outcomes = []

        def run():
            started.wait()
            done = 0
            try:
                while True:
                    got = plan.execute(table)
                    if got.tobytes() != want.tobytes():
                        outcomes.append("wrong result")
                        return
                    done += 1
            except sgk.InvalidArgumentError as e:  # closed: the next call says so
                outcomes.append("closed" if "closed" in e.message else e.message)
        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        started.wait()
        plan.execute(table)
        plan.close()
        for t in threads:
            t.join(60)
        self.assertEqual(outcomes, ["closed", "closed"])
        self.assertTrue(plan.closed)

    def test_plan_is_made_once(self):
        data = np.zeros(4, np.float32)
        plan = sgk.GatherNDPlan(data, [[1]])
        with self.assertRaises(sgk.InvalidArgumentError):
            plan._plan("gather_nd", 11, 11, None, 0, (4,), np.array([[1]]), 0)
        np.testing.assert_array_equal(plan.execute(np.arange(4, dtype=np.float32)), [1])


def main():
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
