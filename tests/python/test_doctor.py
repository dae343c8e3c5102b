"""`python -m sgk` (sgk/_doctor.py): the key lines are there and say what
libsgk itself reports; overrides taken and ignored show; missing adapters,
a Python without torch or openvino, and a package without its extension
give reasons, not tracebacks.

Run by tests/test_python.sh.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.abspath(os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, PYTHON_DIR)

import numpy as np  # noqa: E402

import sgk  # noqa: E402
from sgk import _native  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)


def doctor(*args, env=None, python_args=(), pythonpath=None):
    environ = dict(os.environ if env is None else env)
    environ["PYTHONPATH"] = pythonpath or (PYTHON_DIR + os.pathsep
                                           + environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, *python_args, "-m", "sgk", *args], env=environ,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


class Doctor(unittest.TestCase):
    def test_key_lines(self):
        rc, out, err = doctor()
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        self.assertTrue(out.startswith(f"sgk {sgk.version()} "), out)
        self.assertIn(f"libsgk {sgk.version()} at {sgk.library_path()}\n", out)
        self.assertRegex(out, r"extension module \S+_sgk\S*\.so, built against sgk\.h \d+\.\d+")
        self.assertIn(f"numpy {np.__version__}", out)
        # the library's own description, one fact a line
        for fact in sgk.runtime_describe().split("; "):
            if "this thread" not in fact:  # this process's scratch, not the doctor's
                self.assertIn(f"\n  {fact}\n", out)
        for key in ("simd ", "(this CPU runs ", "threads ", "parallel loops on ", "caches ",
                    "env overrides: ", "ignored: "):
            self.assertIn(key, out)
        self.assertRegex(out, r"\n  OpenVINO extension: (not found: |/\S+libsgk_openvino\.so,)")
        self.assertRegex(out, r"\n  PyTorch adapter: (not found |/\S+libsgk_torch\.so,)")

    def test_overrides_taken_and_ignored(self):
        target = sgk.runtime_describe().split("this CPU runs ")[1].split(")")[0].split()[-1]
        env = dict(os.environ, SGK_SIMD=target, SGK_NUM_THREADS="many")
        rc, out, _ = doctor(env=env)
        self.assertEqual(rc, 0)
        self.assertRegex(out, rf"env overrides: [^\n]*SGK_SIMD={target}")
        self.assertRegex(out, r"ignored: [^\n]*SGK_NUM_THREADS=many")

    def test_adapters_not_found_say_where_they_were_looked_for(self):
        env = dict(os.environ, SGK_OPENVINO_EXTENSION="/nonexistent/libsgk_openvino.so",
                   SGK_TORCH_ADAPTER="/nonexistent/libsgk_torch.so")
        rc, out, _ = doctor(env=env)
        self.assertEqual(rc, 0)
        self.assertIn("OpenVINO extension: not found: ", out)
        self.assertIn("tried: /nonexistent/libsgk_openvino.so", out)
        self.assertIn("PyTorch adapter: not found ", out)
        self.assertIn("tried: /nonexistent/libsgk_torch.so", out)
        self.assertIn("SGK_TORCH_ADAPTER=/nonexistent/libsgk_torch.so", out)

    def test_without_torch_and_openvino(self):
        # a Python whose only package is NumPy: no site-packages (-S)
        with tempfile.TemporaryDirectory() as bare:
            os.symlink(os.path.dirname(np.__file__), os.path.join(bare, "numpy"))
            rc, out, err = doctor(python_args=("-S",),
                                  pythonpath=bare + os.pathsep + PYTHON_DIR)
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        self.assertIn("openvino: not installed in this Python", out)
        self.assertIn("torch: not installed in this Python", out)
        self.assertIn("no ml_dtypes", out)

    def test_without_the_extension(self):
        # the package's Python files alone, no extension module anywhere
        with tempfile.TemporaryDirectory() as tree:
            shutil.copytree(os.path.join(PYTHON_DIR, "sgk"), os.path.join(tree, "sgk"),
                            ignore=shutil.ignore_patterns("*.so", "__pycache__"))
            env = {k: v for k, v in os.environ.items() if k != "SGK_BUILD_DIR"}
            rc, out, err = doctor(env=env, pythonpath=tree)
        self.assertEqual(rc, 1, err)
        self.assertNotIn("Traceback", err)
        self.assertIn("libsgk: not loaded: sgk's extension module could not be loaded", out)
        self.assertIn("sgk-info", out)
        self.assertIn("OpenVINO extension:", out)

    def test_usage(self):
        rc, out, _ = doctor("--help")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("usage: python -m sgk"))
        rc, _, err = doctor("--bogus")
        self.assertEqual(rc, 2)
        self.assertIn("usage:", err)


def main():
    if not _native.available:
        print(f"test_doctor: the extension is not loadable: {_native.load_error}")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
