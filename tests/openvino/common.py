"""What the OpenVINO extension's Python tests share: the extension's path
(SGK_OPENVINO_EXTENSION, set by tests/test_openvino.sh), cores with and
without it, compiling and running ONNX models on the CPU plugin, the
module's counters, and a cmocka-style tally that tests/test_openvino.sh and
scripts/check read ("[  PASSED  ] N test(s).")."""
import ctypes
import os
import sys
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conformance"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import openvino as ov  # noqa: E402

EXTENSION = os.environ.get("SGK_OPENVINO_EXTENSION", "")
# The CPU plugin would lower float32 to bfloat16 on CPUs with AMX or
# AVX512-BF16; the comparisons are of exact results.
CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
SGK_OPS = ("SgkScatterND", "SgkGatherND", "SgkScatterElements", "SgkGatherElements", "SgkGather",
           "SgkTensorScatter")


def extension_library():
    """The module itself, loaded as OpenVINO loads it (same path, so the
    same instance): its counters and threading name."""
    lib = ctypes.CDLL(EXTENSION)
    lib.sgk_openvino_threading.restype = ctypes.c_char_p
    return lib


def counters():
    """(plans built, plan runs, one-shot runs) since the module was loaded."""
    values = (ctypes.c_uint64 * 3)()
    extension_library().sgk_openvino_counters(ctypes.byref(values, 0), ctypes.byref(values, 8),
                                              ctypes.byref(values, 16))
    return tuple(int(v) for v in values)


_cores = {}


def core(with_sgk):
    """One ov.Core with the extension and one without, kept for the run."""
    if with_sgk not in _cores:
        c = ov.Core()
        if with_sgk:
            c.add_extension(EXTENSION)
        _cores[with_sgk] = c
    return _cores[with_sgk]


def read(model, with_sgk=True):
    """An ONNX ModelProto (or a path) read by the ONNX frontend."""
    if isinstance(model, str):
        return core(with_sgk).read_model(model)
    return core(with_sgk).read_model(model.SerializeToString(), b"")


def sgk_nodes(ov_model):
    return [op for op in ov_model.get_ordered_ops() if op.get_type_name() in SGK_OPS]


def compile_model(model, with_sgk=True, streams=1):
    ov_model = read(model, with_sgk)
    config = dict(CONFIG, NUM_STREAMS=str(streams))
    return ov_model, core(with_sgk).compile_model(ov_model, "CPU", config)


def infer(compiled, feeds):
    """The outputs of one inference, as NumPy arrays (copies).  OpenVINO's
    Python API hands bfloat16 out as float16-typed bits: viewed as
    ml_dtypes' bfloat16 here."""
    from definition import BFLOAT16
    results = compiled(feeds)
    arrays = []
    for out in compiled.outputs:
        array = np.array(results[out])
        if out.get_element_type() == ov.Type.bf16 and BFLOAT16 is not None:
            array = array.view(BFLOAT16)
        arrays.append(array)
    return arrays


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
                traceback.print_exc(limit=4)
            return
        self.passed += 1
        print(f"PASS  {label}" + (f"  ({note})" if note else ""))

    def finish(self):
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        print(f"[  PASSED  ] {self.passed} test(s).")
        if self.failed:
            print(f"[  FAILED  ] {self.failed} test(s).")
        return 0 if self.failed == 0 else 1
