"""The peers of the Gather and TensorScatter differential tests
(test_differential_gather_ts.py): onnx.reference, onnxruntime and
OpenVINO, each running one case as a one-node ONNX model; a peer that is
not importable is skipped with a message.
"""
import warnings

import numpy as np

from peers import OpenVINO as ScatterFamilyOpenVINO

OPS = {"gather": ("Gather", 13), "tensor_scatter": ("TensorScatter", 24)}


# ---- the peers ---------------------------------------------------------------

def _onnx_model(case, out_name="y"):
    from onnx import TensorProto, helper

    def elem(a):
        return TensorProto.STRING if a.dtype.kind in "OUS" else \
            helper.np_dtype_to_tensor_dtype(a.dtype)
    op, opset = OPS[case.op]
    names, arrays = case.inputs()
    node = helper.make_node(op, names, [out_name], **case.attrs())
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, elem(a), list(a.shape))
                      for n, a in zip(names, arrays)],
        [helper.make_tensor_value_info(out_name, elem(case.data), list(case.data.shape)
                                       if case.op == "tensor_scatter" else None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


class OnnxReference:
    name, label = "onnx-ref", "onnx.reference.ReferenceEvaluator"
    ops = {"gather": "Gather-13", "tensor_scatter": "TensorScatter-24"}

    def __init__(self):
        import onnx
        from onnx.reference import ReferenceEvaluator
        self.Evaluator = ReferenceEvaluator
        self.version = f"onnx {onnx.__version__}"

    def supports(self, case):
        return True

    def run(self, case):
        names, arrays = case.inputs()
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return np.asarray(self.Evaluator(_onnx_model(case)).run(
                None, dict(zip(names, arrays)))[0])


class OnnxRuntime:
    name, label = "onnxruntime", "onnxruntime CPU provider"
    ops = {"gather": "Gather-13", "tensor_scatter": "TensorScatter-24"}

    def __init__(self):
        import onnxruntime as ort
        self.ort = ort
        self.version = f"onnxruntime {ort.__version__}"
        self.options = ort.SessionOptions()
        self.options.log_severity_level = 4  # its copy warning and errors, on every run
        self.options.intra_op_num_threads = 2

    def supports(self, case):
        # numpy has no bfloat16 the binding takes; TensorScatter is
        # registered for fixed-size types only
        if case.dtype_name == "bfloat16":
            return False
        return not (case.op == "tensor_scatter" and case.dtype_name == "string")

    def session(self, case):
        return self.ort.InferenceSession(_onnx_model(case).SerializeToString(), self.options,
                                         providers=["CPUExecutionProvider"])

    def run(self, case):
        names, arrays = case.inputs()
        return np.asarray(self.session(case).run(None, dict(zip(names, arrays)))[0])

    def run_in_place(self, case):
        """TensorScatter with the present cache IO-bound to the past cache's
        buffer (onnxruntime's in-place form): returns the cache after the
        call, and what the call raised (or None)."""
        cache = case.data.copy()
        session = self.session(case)
        binding = session.io_binding()
        value = self.ort.OrtValue.ortvalue_from_numpy(cache)
        names, arrays = case.inputs()
        binding.bind_ortvalue_input("past_cache", value)
        for n, a in zip(names[1:], arrays[1:]):
            binding.bind_cpu_input(n, a)
        binding.bind_ortvalue_output("y", value)
        try:
            session.run_with_iobinding(binding)
            error = None
        except Exception as e:  # noqa: BLE001 - recorded, not judged
            error = e
        return value.numpy(), error


class OpenVINO(ScatterFamilyOpenVINO):
    """The CPU plugin's Gather-8, on the same core and tensors as the
    ScatterND family's peer."""
    ops = {"gather": "Gather-8"}

    def supports(self, case):
        # OpenVINO 2026.4 dies of SIGFPE compiling a Gather of empty indices
        # (a probe records it without running it)
        return case.op == "gather" and case.indices.size > 0 and \
            case.dtype_name not in ("string", "complex64", "complex128")

    def run(self, case):
        ov = self.ov
        arrays = [case.data, case.indices]
        params = [ov.opset1.parameter(list(a.shape), self._type(a)) for a in arrays]
        axis = ov.opset1.constant(np.array(case.axis, dtype=np.int64))
        node = ov.opset8.gather(params[0], params[1], axis, 0)
        return self._infer(node, params, arrays)

    def converts_tensor_scatter(self, case):
        """Whether OpenVINO's ONNX frontend reads a TensorScatter model at
        all: (True, None) or (False, the error)."""
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".onnx") as f:
            f.write(_onnx_model(case).SerializeToString())
            f.flush()
            try:
                self.ov.convert_model(f.name)
                return True, None
            except Exception as e:  # noqa: BLE001 - that is the finding
                return False, e


def load_peers():
    peers, missing = [], []
    for cls, module in ((OnnxReference, "onnx"), (OnnxRuntime, "onnxruntime"),
                        (OpenVINO, "openvino")):
        try:
            peers.append(cls())
        except ImportError as e:
            missing.append(f"{cls.name}: {module} is not importable ({e}); skipped")
    return peers, missing
