"""The package as editors and type checkers see it (issue #29): its stubs
are current (python/stubgen.py --check), agree with the running package
(mypy.stubtest), the package passes mypy --strict, a user's script calling
every public function (typing_user.py) passes mypy --strict and runs, and
misuse is caught; every public function and class has a docstring naming
its arguments, and the operators' name the types and the errors.  mypy
comes from scripts/setup-test-venv (pinned there).

Run by tests/test_python.sh.
"""
import inspect
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
PYTHON_DIR = os.path.join(TOP, "python")
sys.path.insert(0, PYTHON_DIR)

import sgk  # noqa: E402
from sgk import _marshal, _native  # noqa: E402
import runner  # noqa: E402  (tests/python/runner.py)

# torch's own sources are not checked (too large to analyse on each run):
# sgk.torch's annotations are, with torch taken as Any.
MYPY_CONFIG = """[mypy]
strict = True

[mypy-torch,torch.*]
follow_imports = skip
"""

MISUSE = '''
import numpy as np
import sgk

data = np.zeros(3)
sgk.gather_nd(data, [[0]], batch_dims="0")          # error: batch_dims
sgk.scatter_nd(data, [[0]], [1.0], out=[0.0, 0.0])   # error: out
sgk.gather(data, [0], nonsense=1)                    # error: keyword
plan = sgk.GatherPlan(data, [0])
plan.execute(data, out=data, extra=1)                # error: keyword
n: str = sgk.dtype_size("float32")                   # error: returns int
sgk.set_num_threads("two")                           # error: not an int
s: tuple[str, ...] = sgk.gather_nd_shape(data, (1, 1))  # error: tuple[int, ...]
'''


def have_mypy():
    try:
        import mypy  # noqa: F401
        return True
    except ImportError:
        return False


class Mypy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not have_mypy():
            raise AssertionError(f"mypy is not installed for {sys.executable}; "
                                 "scripts/setup-test-venv installs it")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.config = os.path.join(cls.tmp.name, "mypy.ini")
        with open(cls.config, "w") as f:
            f.write(MYPY_CONFIG)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_python(self, *args, cwd=None):
        env = dict(os.environ, MYPYPATH=PYTHON_DIR,
                   PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
        return subprocess.run([sys.executable, *args], env=env, cwd=cwd or self.tmp.name,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def mypy(self, *args):
        return self.run_python("-m", "mypy", "--config-file", self.config,
                               "--cache-dir", os.path.join(self.tmp.name, "cache"), *args)

    def test_stubs_are_current(self):
        r = self.run_python(os.path.join(PYTHON_DIR, "stubgen.py"), "--check")
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_stubs_agree_with_the_package(self):
        args = ["-m", "mypy.stubtest", "sgk", "--mypy-config-file", self.config]
        probe = self.run_python("-c", "import sgk.torch")
        if probe.returncode != 0:  # no torch, or no adapter: sgk.torch cannot import
            allow = os.path.join(self.tmp.name, "allowlist")
            with open(allow, "w") as f:
                f.write("sgk.torch\n")
            args += ["--allowlist", allow]
        r = self.run_python(*args)
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_the_package_passes_strict(self):
        r = self.mypy("-p", "sgk")
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_a_users_script_passes_strict_and_runs(self):
        script = os.path.join(HERE, "typing_user.py")
        r = self.mypy(script)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("Success", r.stdout)
        r = self.run_python(script)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("every public function called", r.stdout)

    def test_misuse_is_reported(self):
        path = os.path.join(self.tmp.name, "misuse.py")
        with open(path, "w") as f:
            f.write(MISUSE)
        r = self.mypy(path)
        expected = {i for i, line in enumerate(MISUSE.split("\n"), 1) if "# error" in line}
        reported = {int(m) for m in re.findall(r"misuse\.py:(\d+): error", r.stdout)}
        self.assertEqual(reported, expected, r.stdout)


class Docstrings(unittest.TestCase):
    def public(self):
        for name in sgk.__all__:
            obj = getattr(sgk, name)
            if callable(obj) and not (isinstance(obj, type)
                                      and issubclass(obj, BaseException)):
                yield name, obj

    def test_user_script_calls_everything(self):
        with open(os.path.join(HERE, "typing_user.py")) as f:
            text = f.read()
        missing = [name for name in sgk.__all__ if f"sgk.{name}" not in text]
        self.assertEqual(missing, [], "typing_user.py does not use these")

    def test_every_public_callable_documents_its_arguments(self):
        for name, obj in self.public():
            with self.subTest(name=name):
                doc = inspect.getdoc(obj) or ""
                self.assertTrue(doc, f"{name} has no docstring")
                try:
                    params = inspect.signature(obj).parameters
                except (TypeError, ValueError):
                    params = {}
                for p in params:
                    if p in ("self", "args", "kwargs", "flags", "dtype"):
                        continue
                    self.assertIn(p, doc, f"{name}'s docstring does not name {p}")

    def test_operators_name_types_and_errors(self):
        for op in _marshal.KINDS:
            with self.subTest(op=op):
                doc = getattr(sgk, op).__doc__
                for word in ("Types:", "float16", "bfloat16", "int64", "Raises",
                             "IndexOutOfRangeError", "ShapeError", "UnsupportedError",
                             "out", "dtype"):
                    self.assertIn(word, doc)

    def test_help_shows_the_signature(self):
        import pydoc
        text = pydoc.render_doc(sgk.scatter_nd, renderer=pydoc.plaintext)
        self.assertIn("scatter_nd(data, indices, updates, reduction='none', out=None, *, "
                      "dtype=None)", text)
        self.assertIn("Raises", text)

    def test_py_typed_is_shipped(self):
        self.assertTrue(os.path.isfile(os.path.join(PYTHON_DIR, "sgk", "py.typed")))
        with open(os.path.join(PYTHON_DIR, "pyproject.toml")) as f:
            self.assertIn('"py.typed"', f.read())


def main():
    if not _native.available:
        print(f"test_typing: the extension is not loadable: {_native.load_error}")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    return runner.run(__name__)


if __name__ == "__main__":
    sys.exit(main())
