"""The peers of the differential suite, each behind one function per
operator taking NumPy arrays and returning a NumPy array (or raising):

- onnx-ref: onnx.reference.ReferenceEvaluator on a one-node model
  (ScatterND-18, GatherND-13, ScatterElements-18, GatherElements-13);
- openvino: the OpenVINO CPU plugin on a one-node model (ScatterNDUpdate-15,
  GatherND-8, ScatterElementsUpdate-12 with use_init_val=True,
  GatherElements-6), compiled with INFERENCE_PRECISION_HINT=f32 so that the
  plugin does not lower float32 to bfloat16 on CPUs with AMX/AVX512-BF16.

Each peer says which (operator, dtype, reduction) it takes.
"""
import warnings

import numpy as np

from definition import BFLOAT16

ONNX_OPSETS = {"scatter_nd": ("ScatterND", 18), "gather_nd": ("GatherND", 13),
               "scatter_elements": ("ScatterElements", 18),
               "gather_elements": ("GatherElements", 13)}


class OnnxReference:
    name = "onnx-ref"
    label = "onnx.reference.ReferenceEvaluator"
    ops = {"scatter_nd": "ScatterND-18", "gather_nd": "GatherND-13",
           "scatter_elements": "ScatterElements-18", "gather_elements": "GatherElements-13"}
    reductions = {"scatter_nd": ("none", "add", "mul", "max", "min"),
                  "scatter_elements": ("none", "add", "mul", "max", "min")}

    def __init__(self):
        import onnx
        from onnx import TensorProto, helper
        from onnx.reference import ReferenceEvaluator
        self.onnx, self.helper, self.TensorProto = onnx, helper, TensorProto
        self.Evaluator = ReferenceEvaluator
        self.version = f"onnx {onnx.__version__}"

    def supports(self, case):
        dt = case.dtype_name
        if case.op in self.reductions and case.reduction not in self.reductions[case.op]:
            return False
        if dt == "string" and case.reduction != "none":
            return False
        if case.op == "gather_elements":
            # the reference implementation (np.choose) needs indices of the
            # data's shape off the axis
            d, i, axis = case.data.shape, case.indices.shape, case.axis % case.data.ndim
            return all(d[k] == i[k] for k in range(len(d)) if k != axis)
        return True

    def _elem(self, arr):
        if arr.dtype.kind in "OUS":
            return self.TensorProto.STRING
        return self.helper.np_dtype_to_tensor_dtype(arr.dtype)

    def run(self, case, indices=None):
        h = self.helper
        indices = case.indices if indices is None else indices
        op, opset = ONNX_OPSETS[case.op]
        names = ["data", "indices"] + (["updates"] if case.updates is not None else [])
        arrays = [case.data, indices] + ([case.updates] if case.updates is not None else [])
        attrs = {}
        if case.op in ("scatter_nd", "scatter_elements"):
            attrs["reduction"] = case.reduction
        if case.op in ("scatter_elements", "gather_elements"):
            attrs["axis"] = case.axis
        if case.op == "gather_nd":
            attrs["batch_dims"] = case.batch_dims
        node = h.make_node(op, names, ["y"], **attrs)
        graph = h.make_graph(
            [node], "g",
            [h.make_tensor_value_info(n, self._elem(a), list(a.shape))
             for n, a in zip(names, arrays)],
            [h.make_tensor_value_info("y", self._elem(case.data), None)])
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = self.Evaluator(model).run(None, dict(zip(names, arrays)))[0]
        return np.asarray(out)


class OpenVINO:
    name = "openvino"
    label = "OpenVINO CPU plugin"
    ops = {"scatter_nd": "ScatterNDUpdate-15", "gather_nd": "GatherND-8",
           "scatter_elements": "ScatterElementsUpdate-12", "gather_elements": "GatherElements-6"}
    reductions = {"scatter_nd": ("none", "add", "sub", "mul", "max", "min"),
                  "scatter_elements": ("none", "add", "mul", "max", "min")}
    _names = {"none": "none", "add": "sum", "sub": "sub", "mul": "prod", "max": "max",
              "min": "min"}

    def __init__(self):
        import openvino as ov
        self.ov = ov
        self.core = ov.Core()
        self.core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        self.version = f"openvino {ov.__version__.split('-')[0]}"

    def supports(self, case):
        if case.dtype_name in ("string", "complex64", "complex128"):
            return False
        if case.op in self.reductions and case.reduction not in self.reductions[case.op]:
            return False
        return True

    def _type(self, arr):
        return self.ov.Type.bf16 if arr.dtype == BFLOAT16 else self.ov.Type(arr.dtype)

    def _tensor(self, arr):
        arr = np.require(arr, requirements="C")  # (ascontiguousarray makes 0-d 1-d)
        if arr.dtype == BFLOAT16:
            return self.ov.Tensor(arr.view(np.uint16), list(arr.shape), self.ov.Type.bf16)
        return self.ov.Tensor(arr)

    def run(self, case, indices=None):
        ov = self.ov
        indices = case.indices if indices is None else indices
        arrays = [case.data, indices] + ([case.updates] if case.updates is not None else [])
        params = [ov.opset1.parameter(list(a.shape), self._type(a)) for a in arrays]
        if case.op == "scatter_nd":
            node = ov.opset15.scatter_nd_update(*params, self._names[case.reduction])
        elif case.op == "gather_nd":
            node = ov.opset8.gather_nd(*params, case.batch_dims)
        elif case.op == "scatter_elements":
            axis = ov.opset1.constant(np.array(case.axis, dtype=np.int64))
            node = ov.opset12.scatter_elements_update(*params, axis, self._names[case.reduction],
                                                      True)
        else:
            node = ov.opset6.gather_elements(*params, case.axis)
        return self._infer(node, params, arrays)

    def _infer(self, node, params, arrays):
        """The one-node model of node on params, run on arrays; the output
        in the type of arrays[0], the data."""
        compiled = self.core.compile_model(self.ov.Model([node], params), "CPU")
        request = compiled.create_infer_request()
        request.infer([self._tensor(a) for a in arrays])
        out = np.array(request.get_output_tensor(0).data, copy=True)
        if arrays[0].dtype == BFLOAT16:
            out = out.view(np.uint16).view(BFLOAT16)
        return out.reshape(request.get_output_tensor(0).shape)


def load_peers():
    """The importable peers, and a message per peer that is not."""
    peers, missing = [], []
    for cls, module in ((OnnxReference, "onnx"), (OpenVINO, "openvino")):
        try:
            peers.append(cls())
        except ImportError as e:
            missing.append(f"{cls.name}: {module} is not importable ({e}); skipped")
    return peers, missing
