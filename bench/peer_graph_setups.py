"""The graph runtimes bench/peers.py times, onnxruntime and OpenVINO, each
set up on one workload of bench/peer_workloads.py as a one-node model
(the setup contract is peer_setups.py's)."""
import numpy as np

from peer_setups import Missing, copy_note, out_buffer


def setup_onnxruntime(w, threads):
    try:
        import onnxruntime as ort
        from onnx import helper, TensorProto
    except ImportError as exc:
        raise Missing(str(exc))
    elem = helper.np_dtype_to_tensor_dtype(w.data.dtype)
    names = ["data", "indices"] + (["updates"] if w.scatter else [])
    arrays = [w.data, w.indices] + ([w.updates] if w.scatter else [])
    if w.op == "tensor_scatter":
        return _onnxruntime_tensor_scatter(w, threads, ort, helper, elem)
    if w.op == "scatter_nd":
        node = helper.make_node("ScatterND", names, ["out"], reduction=w.reduction)
        opset = 18
    elif w.op == "scatter_elements":
        node = helper.make_node("ScatterElements", names, ["out"], axis=w.axis,
                                reduction=w.reduction)
        opset = 18
    elif w.op == "gather_nd":
        node = helper.make_node("GatherND", names, ["out"], batch_dims=w.batch_dims)
        opset = 13
    elif w.op == "gather":
        node = helper.make_node("Gather", names, ["out"], axis=w.axis)
        opset = 13
    else:
        node = helper.make_node("GatherElements", names, ["out"], axis=w.axis)
        opset = 13
    inputs = [helper.make_tensor_value_info(n, elem if a is not w.indices else TensorProto.INT64,
                                            list(a.shape)) for n, a in zip(names, arrays)]
    output = helper.make_tensor_value_info("out", elem, list(w.output_shape))
    graph = helper.make_graph([node], w.op, inputs, [output])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    out = out_buffer(w)
    binding = sess.io_binding()
    keep = []
    for n, a in zip(names, arrays):
        v = ort.OrtValue.ortvalue_from_numpy(a)
        keep.append(v)
        binding.bind_ortvalue_input(n, v)
    out_value = ort.OrtValue.ortvalue_from_numpy(out)
    binding.bind_ortvalue_output("out", out_value)

    def run():
        sess.run_with_iobinding(binding)
    run.keep = (keep, out_value, sess)
    note = f"{node.op_type}-{opset} via IOBinding"
    if w.in_place:
        note += "; " + copy_note(w, "onnxruntime")
    return run, lambda: out, note, None


def _ort_session(ort, model, threads):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.log_severity_level = 3  # TensorScatter warns of its copy on every run
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def _onnxruntime_tensor_scatter(w, threads, ort, helper, elem):
    """TensorScatter-24 through IOBinding: in place, the present cache bound
    to the past cache's buffer (the only way onnxruntime skips its copy);
    copying, a separate output, as it runs by default."""
    from onnx import TensorProto
    names = ["past_cache", "update", "write_indices"]
    node = helper.make_node("TensorScatter", names, ["out"], axis=w.axis, mode=w.mode)
    inputs = [helper.make_tensor_value_info(n, t, list(a.shape)) for n, t, a in
              zip(names, (elem, elem, TensorProto.INT64), (w.data, w.updates, w.indices))]
    output = helper.make_tensor_value_info("out", elem, list(w.data.shape))
    model = helper.make_model(helper.make_graph([node], w.op, inputs, [output]),
                              opset_imports=[helper.make_opsetid("", 24)])
    model.ir_version = 10
    sess = _ort_session(ort, model, threads)
    out = out_buffer(w)
    out_value = ort.OrtValue.ortvalue_from_numpy(out)
    cache_value = out_value if w.in_place else ort.OrtValue.ortvalue_from_numpy(w.data)
    binding = sess.io_binding()
    keep = [ort.OrtValue.ortvalue_from_numpy(a) for a in (w.updates, w.indices)]
    binding.bind_ortvalue_input("past_cache", cache_value)
    binding.bind_ortvalue_input("update", keep[0])
    binding.bind_ortvalue_input("write_indices", keep[1])
    binding.bind_ortvalue_output("out", out_value)

    def run():
        sess.run_with_iobinding(binding)
    run.keep = (keep, cache_value, out_value, sess)
    note = ("TensorScatter-24, present cache IO-bound to the past cache (in place)"
            if w.in_place else "TensorScatter-24 via IOBinding, copying (its default)")
    return run, lambda: out, note, None


def _ov_opsets():
    try:
        import openvino as ov
    except ImportError as exc:
        raise Missing(str(exc))
    try:
        import openvino.opset15 as o15, openvino.opset12 as o12
        import openvino.opset8 as o8, openvino.opset6 as o6
    except ImportError:
        import openvino.runtime.opset15 as o15, openvino.runtime.opset12 as o12  # noqa: E401
        import openvino.runtime.opset8 as o8, openvino.runtime.opset6 as o6  # noqa: E401
    return ov, o15, o12, o8, o6


def setup_openvino(w, threads):
    ov, o15, o12, o8, o6 = _ov_opsets()
    if w.op == "tensor_scatter":
        raise NotImplementedError("OpenVINO has no TensorScatter (its ONNX frontend cannot "
                                  "convert one)")
    ov_red = {"none": "none", "add": "sum", "mul": "prod", "max": "max", "min": "min",
              "sub": "sub"}[w.reduction]
    arrays = [w.data, w.indices] + ([w.updates] if w.scatter else [])
    params = [o15.parameter(list(a.shape), a.dtype, name=f"in{i}") for i, a in enumerate(arrays)]
    if w.op == "scatter_nd":
        node, opname = o15.scatter_nd_update(*params, reduction=ov_red), "ScatterNDUpdate-15"
    elif w.op == "scatter_elements":
        node = o12.scatter_elements_update(params[0], params[1], params[2], w.axis,
                                           reduction=ov_red, use_init_val=True)
        opname = "ScatterElementsUpdate-12"
    elif w.op == "gather_nd":
        node, opname = o8.gather_nd(params[0], params[1], w.batch_dims), "GatherND-8"
    elif w.op == "gather":
        node, opname = o8.gather(params[0], params[1], w.axis, 0), "Gather-8"
    else:
        node, opname = o6.gather_elements(params[0], params[1], w.axis), "GatherElements-6"
    model = ov.Model([node], params, w.name)
    config = {"INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": "f32",
              "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1}
    compiled = ov.Core().compile_model(model, "CPU", config)
    req = compiled.create_infer_request()
    for i, a in enumerate(arrays):
        req.set_input_tensor(i, ov.Tensor(a, shared_memory=True))
    out = out_buffer(w)
    req.set_output_tensor(0, ov.Tensor(out, shared_memory=True))

    def run():
        req.infer()

    def result():
        return np.asarray(req.get_output_tensor(0).data)
    run.keep = (compiled, req, out)
    note = opname + ("; " + copy_note(w, "OpenVINO") if w.in_place else "")
    return run, result, note, None
