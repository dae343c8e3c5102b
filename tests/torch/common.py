"""What the PyTorch adapter's tests share: sgk.torch from this source tree
(tests/test_torch.sh sets SGK_TORCH_ADAPTER and SGK_LIBRARY to the build's
files), a cmocka-style tally that tests/test_torch.sh and scripts/check read
("[  PASSED  ] N test(s)."), the counters' served and fallback totals, and
a fresh Python importing sgk from this tree."""
import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)

import torch  # noqa: E402

import sgk.torch as sgk_torch  # noqa: E402


def served(op):
    return sgk_torch.counters()[op]["sgk"]


def fell_back(op):
    return sgk_torch.counters()[op]["fallback"]


def subprocess_python(code, env=None):
    """Runs code in a fresh Python that imports sgk from this source tree."""
    full = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    full.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full, timeout=300)


class Tally:
    """Runs named checks, prints PASS/FAIL lines and the cmocka summary."""

    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def run(self, label, check, *args):
        try:
            note = check(*args)
        except Exception as exc:  # a failed check, reported with its cause
            self.failed += 1
            print(f"FAIL  {label}: {type(exc).__name__}: {exc}")
            if not isinstance(exc, AssertionError):
                traceback.print_exc(limit=6)
            return
        self.passed += 1
        print(f"PASS  {label}" + (f"  ({note})" if note else ""))

    def finish(self):
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        print(f"[  PASSED  ] {self.passed} test(s).")
        if self.failed:
            print(f"[  FAILED  ] {self.failed} test(s).")
        return 0 if self.failed == 0 else 1


def run_tests(name, namespace):
    """Runs every test_* function of namespace (a script's globals()), in
    the order they are defined; returns the exit status."""
    tally = Tally(name)
    for key, fn in list(namespace.items()):
        if key.startswith("test_") and callable(fn):
            tally.run(key[5:], fn)
    return tally.finish()
