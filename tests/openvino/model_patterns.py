"""The patterns sgk is for, as multi-node ONNX models run through OpenVINO
with the sgk extension and compared bit for bit with onnx.reference (or,
for types it lacks, the sequential definition of
tests/conformance/definition.py): a GNN layer, LLM decode steps, a beam
search step, 16-bit float, 64-bit and boolean reductions.  Run by
test_models.py."""
import numpy as np

import common
import definition
from onnx import TensorProto, helper
from onnx_models import findings, make_model, reference, run_both, tensor_type

ov = common.ov


# ---- the patterns ------------------------------------------------------------

def gnn_layer(constant_edges):
    """Message passing: messages = x[src] * w, summed into their
    destinations (ScatterElements add, duplicates)."""
    rng = np.random.default_rng(1)
    n, f, e = 50, 16, 400
    src = rng.integers(0, n, e).astype(np.int64)
    dst = rng.zipf(1.5, e).astype(np.int64) % n  # a few hubs take most edges
    dst_rows = np.repeat(dst[:, None], f, axis=1)
    x = rng.standard_normal((n, f)).astype(np.float32)
    w = rng.standard_normal((e, 1)).astype(np.float32)
    agg = np.zeros((n, f), np.float32)
    nodes = [helper.make_node("Gather", ["x", "src"], ["rows"], axis=0),
             helper.make_node("Mul", ["rows", "w"], ["msg"]),
             helper.make_node("ScatterElements", ["agg", "dst", "msg"], ["y"], axis=0,
                              reduction="add")]
    inputs = {"x": x, "w": w, "agg": agg}
    feeds = dict(inputs)
    inits = {"src": src}
    if constant_edges:
        inits["dst"] = dst_rows
    else:
        inputs["dst"] = dst_rows
        feeds["dst"] = dst_rows
    model = make_model(nodes, inputs, {"y": TensorProto.FLOAT}, inits)
    return run_both(model, feeds, reference(model, feeds), "gnn_layer")


def llm_decode_step(constant_position):
    """One decode step on a static KV cache: K and V of one token written at
    the step's position with ScatterND, then the first pos+1 rows read back
    with GatherND (batch_dims 2)."""
    rng = np.random.default_rng(2)
    b, h, s, d, pos = 1, 4, 64, 32, 17
    k_cache = rng.standard_normal((b, h, s, d)).astype(np.float32)
    v_cache = rng.standard_normal((b, h, s, d)).astype(np.float32)
    k_new = rng.standard_normal((b, h, 1, d)).astype(np.float32)
    v_new = rng.standard_normal((b, h, 1, d)).astype(np.float32)
    where = np.zeros((b, h, 1, 3), np.int64)
    where[..., 0] = np.arange(b)[:, None, None]
    where[..., 1] = np.arange(h)[None, :, None]
    where[..., 2] = pos
    rows = np.broadcast_to(np.arange(pos + 1, dtype=np.int64)[None, None, :, None],
                           (b, h, pos + 1, 1)).copy()
    nodes = [helper.make_node("ScatterND", ["k_cache", "where", "k_new"], ["k_out"]),
             helper.make_node("ScatterND", ["v_cache", "where", "v_new"], ["v_out"]),
             helper.make_node("GatherND", ["k_out", "rows"], ["k_seen"], batch_dims=2),
             helper.make_node("GatherND", ["v_out", "rows"], ["v_seen"], batch_dims=2)]
    inputs = {"k_cache": k_cache, "v_cache": v_cache, "k_new": k_new, "v_new": v_new}
    feeds = dict(inputs)
    inits = {"rows": rows}
    if constant_position:
        inits["where"] = where
    else:
        inputs["where"] = where
        feeds["where"] = where
    outputs = {n: TensorProto.FLOAT for n in ("k_out", "v_out", "k_seen", "v_seen")}
    model = make_model(nodes, inputs, outputs, inits)
    return run_both(model, feeds, reference(model, feeds), "llm_decode_step")


def llm_decode_step_tensor_scatter(mode):
    """One decode step on a static KV cache, as opset-24 exporters write
    it: K and V of one token per batch item written with TensorScatter at
    each item's own position (write_indices an input: it moves every
    step), then a window of the present cache read back with Gather along
    the sequence axis (negative indices: the last positions).  OpenVINO
    alone cannot load the model."""
    rng = np.random.default_rng(7)
    b, h, s, d = 3, 4, 32, 16
    k_cache = rng.standard_normal((b, h, s, d)).astype(np.float32)
    v_cache = rng.standard_normal((b, h, s, d)).astype(np.float32)
    k_new = rng.standard_normal((b, h, 1, d)).astype(np.float32)
    v_new = rng.standard_normal((b, h, 1, d)).astype(np.float32)
    # circular: one position past the end wraps to 0, one far beyond it
    positions = np.array([5, 31, 0] if mode == "linear" else [32, 31, 70], np.int64)
    window = np.array([0, 1, 2, 5, 6, -2, -1], np.int64)
    nodes = [helper.make_node("TensorScatter", ["k_cache", "k_new", "positions"], ["k_out"],
                              mode=mode),
             helper.make_node("TensorScatter", ["v_cache", "v_new", "positions"], ["v_out"],
                              axis=2, mode=mode),
             helper.make_node("Gather", ["k_out", "window"], ["k_seen"], axis=2),
             helper.make_node("Gather", ["v_out", "window"], ["v_seen"], axis=-2)]
    inputs = {"k_cache": k_cache, "v_cache": v_cache, "k_new": k_new, "v_new": v_new,
              "positions": positions}
    outputs = {n: TensorProto.FLOAT for n in ("k_out", "v_out", "k_seen", "v_seen")}
    model = make_model(nodes, inputs, outputs, {"window": window}, opset=24)
    ov_model = common.read(model)
    kinds = sorted({op.get_type_name() for op in common.sgk_nodes(ov_model)})
    assert kinds == ["SgkGather", "SgkTensorScatter"], kinds
    note = run_both(model, inputs, reference(model, inputs), f"llm_decode_step_tensor_scatter {mode}")
    return note.replace("OpenVINO alone differs", "OpenVINO alone cannot load it")


def gather_and_tensor_scatter_opsets():
    """Gather 1, 11, 13 (axis left out: 0) and TensorScatter 24 without
    write_indices (left out or named ""), attributes left out (axis -2,
    linear)."""
    done = []
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    for opset in (1, 11, 13):
        node = helper.make_node("Gather", ["data", "indices"], ["y"])
        indices = np.array([[2, 0], [1, 2]], np.int64) if opset == 1 else np.array([-1, 0], np.int64)
        model = make_model([node], {"data": data}, {"y": TensorProto.FLOAT},
                           {"indices": indices}, opset)
        ov_model, compiled = common.compile_model(model)
        assert [o.get_type_name() for o in common.sgk_nodes(ov_model)] == ["SgkGather"]
        got = common.infer(compiled, {"data": data})[0]
        want = np.take(data, indices, axis=0)
        assert definition.same(got, want), definition.describe_difference(got, want)
        done.append(f"Gather-{opset}")
    cache = np.arange(2 * 5 * 3, dtype=np.int32).reshape(2, 5, 3)
    update = -np.arange(2 * 2 * 3, dtype=np.int32).reshape(2, 2, 3)
    for names in (["cache", "update"], ["cache", "update", ""]):
        node = helper.make_node("TensorScatter", names, ["y"])
        model = make_model([node], {"cache": cache, "update": update}, {"y": TensorProto.INT32},
                           opset=24)
        ov_model, compiled = common.compile_model(model)
        ops = common.sgk_nodes(ov_model)
        assert [o.get_type_name() for o in ops] == ["SgkTensorScatter"]
        assert len(ops[0].inputs()) == 2, "an absent write_indices became an input"
        got = common.infer(compiled, {"cache": cache, "update": update})[0]
        want = cache.copy()
        want[:, 0:2, :] = update
        assert definition.same(got, want), definition.describe_difference(got, want)
    done.append("TensorScatter-24 without write_indices")
    return ", ".join(done)


def shape_gathers_stay_openvino():
    """A Gather of a shape (Shape -> Gather -> Concat -> Reshape, as
    exporters write a flatten) stays OpenVINO's, which keeps the reshaped
    dimensions known; a Gather of data in the same model is sgk's."""
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    nodes = [helper.make_node("Shape", ["x"], ["shape"]),
             helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
             helper.make_node("Concat", ["batch", "minus_one"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["flat"]),
             helper.make_node("Gather", ["flat", "picks"], ["y"], axis=1)]
    model = make_model(nodes, {"x": (TensorProto.FLOAT, ["b", 3, 4])}, {"y": TensorProto.FLOAT},
                       {"zero": np.array([0], np.int64), "minus_one": np.array([-1], np.int64),
                        "picks": np.array([11, -12, 5], np.int64)})
    ov_model, compiled = common.compile_model(model)
    assert [o.get_type_name() for o in common.sgk_nodes(ov_model)] == ["SgkGather"]
    shape = common.sgk_nodes(ov_model)[0].get_output_partial_shape(0)
    assert str(shape) == "[?,3]", f"inferred {shape}"
    got = common.infer(compiled, {"x": x})[0]
    want = x.reshape(2, -1)[:, [11, 0, 5]]
    assert definition.same(got, want), definition.describe_difference(got, want)
    return f"sgk's Gather output {shape}"


def tensor_scatter_dynamic_shapes():
    """A cache of any batch and length: one compiled model, two shapes."""
    node = helper.make_node("TensorScatter", ["cache", "update", "at"], ["y"], mode="circular")
    model = make_model([node], {"cache": (TensorProto.FLOAT16, ["b", 2, "s", 8]),
                                "update": (TensorProto.FLOAT16, ["b", 2, "n", 8]),
                                "at": (TensorProto.INT64, ["b"])},
                       {"y": TensorProto.FLOAT16}, opset=24)
    ov_model, compiled = common.compile_model(model)
    shape = common.sgk_nodes(ov_model)[0].get_output_partial_shape(0)
    assert str(shape) == "[?,2,?,8]", f"inferred {shape}"
    rng = np.random.default_rng(8)
    for b, s, n in ((1, 6, 1), (3, 20, 4)):
        feeds = {"cache": rng.standard_normal((b, 2, s, 8)).astype(np.float16),
                 "update": rng.standard_normal((b, 2, n, 8)).astype(np.float16),
                 "at": rng.integers(-2 * s, 2 * s, b).astype(np.int64)}
        got = common.infer(compiled, feeds)[0]
        want = feeds["cache"].copy()
        for i in range(b):
            for j in range(n):
                want[i, :, (feeds["at"][i] + j) % s] = feeds["update"][i, :, j]
        assert definition.same(got, want), definition.describe_difference(got, want)
    return f"output shape {shape}"


def tensor_scatter_out_of_range():
    """Linear mode writing past the sequence: an error carrying sgk's
    message, the cache intact."""
    cache = np.zeros((2, 4, 3), np.float32)
    update = np.ones((2, 2, 3), np.float32)
    at = np.array([0, 3], np.int64)
    node = helper.make_node("TensorScatter", ["cache", "update", "at"], ["y"], axis=1)
    inputs = {"cache": cache, "update": update, "at": at}
    model = make_model([node], inputs, {"y": TensorProto.FLOAT}, opset=24)
    compiled = common.compile_model(model)[1]
    try:
        common.infer(compiled, inputs)
    except RuntimeError as exc:
        message = str(exc)
        assert "SGK_ERR_INDEX_OUT_OF_RANGE" in message and "write_indices[1] = 3" in message, message
        assert not cache.any()
        return message.strip().splitlines()[-1]
    raise AssertionError("no error for write index 3 of 2 positions into 4")


def beam_search_step():
    """Beams reordered by their parents: the token history and the scores
    gathered along the beam axis with GatherElements."""
    rng = np.random.default_rng(3)
    batch, beams, length, vocab = 2, 4, 12, 1000
    history = rng.integers(0, vocab, (batch, beams, length)).astype(np.int64)
    scores = rng.standard_normal((batch, beams)).astype(np.float32)
    parents = rng.integers(0, beams, (batch, beams)).astype(np.int64)
    step = rng.standard_normal((batch, beams)).astype(np.float32)
    shape = np.array([batch, beams, length], np.int64)
    nodes = [helper.make_node("Unsqueeze", ["parents", "axis2"], ["p3"]),
             helper.make_node("Expand", ["p3", "shape"], ["p_rows"]),
             helper.make_node("GatherElements", ["history", "p_rows"], ["new_history"], axis=1),
             helper.make_node("GatherElements", ["scores", "parents"], ["kept"], axis=1),
             helper.make_node("Add", ["kept", "step"], ["new_scores"])]
    inputs = {"history": history, "scores": scores, "parents": parents, "step": step}
    model = make_model(nodes, inputs, {"new_history": TensorProto.INT64,
                                       "new_scores": TensorProto.FLOAT},
                       {"axis2": np.array([2], np.int64), "shape": shape})
    return run_both(model, inputs, reference(model, inputs), "beam_search_step")


def float16_add_with_duplicates(dtype_name):
    """Every update rounds to the model's 16-bit type, as onnx.reference
    and the sequential definition do; the CPU plugin computes f16 (and bf16
    on CPUs without it) in f32 and rounds once."""
    dtype = np.float16 if dtype_name == "float16" else definition.BFLOAT16
    if dtype is None:
        return "ml_dtypes missing; skipped"
    data = np.array([2048, 1, 256, 3], np.float32).astype(dtype)
    updates = np.ones(6, np.float32).astype(dtype)
    indices = np.array([[0], [0], [0], [2], [2], [0]], np.int64)
    node = helper.make_node("ScatterND", ["data", "indices", "updates"], ["y"], reduction="add")
    model = make_model([node], {"data": data, "updates": updates}, {"y": tensor_type(data)},
                       {"indices": indices})
    want = definition.scatter_nd(data, indices, updates, "add")
    return run_both(model, {"data": data, "updates": updates}, [want],
                    f"scatter_nd add {dtype_name}")


def wide_types_in_the_operator(dtype_name):
    """int64 beyond 2^31, uint64 beyond 2^63 and float64 beyond float32's
    precision are exact in the operator itself (node.evaluate on the
    model's own types).  Through the CPU plugin they are not, with or
    without the extension: it lowers these types to 32 bits between all
    operators; recorded as a finding."""
    dtype = np.dtype(dtype_name)
    big = {"int64": 2**40 + 3, "uint64": 2**63 + 5, "float64": 1.0 + 2.0**-40}[dtype_name]
    data = np.array([big, 7, big, 1], dtype=dtype)
    updates = np.array([big, 5, big], dtype=dtype)
    indices = np.array([[2], [1], [2]], np.int64)
    node = helper.make_node("ScatterND", ["data", "indices", "updates"], ["y"], reduction="add")
    model = make_model([node], {"data": data, "updates": updates, "indices": indices},
                       {"y": tensor_type(data)})
    want = definition.scatter_nd(data, indices, updates, "add")
    op = common.sgk_nodes(common.read(model))[0]
    out = ov.Tensor(ov.Type(dtype), list(data.shape))
    assert op.evaluate([out], [ov.Tensor(data), ov.Tensor(indices), ov.Tensor(updates)])
    got = np.array(out.data)
    assert definition.same(got, want), definition.describe_difference(got, want)
    compiled = common.compile_model(model)[1]
    through = common.infer(compiled, {"data": data, "updates": updates, "indices": indices})[0]
    if not definition.same(through, want):
        findings.append(f"scatter_nd add {dtype_name} through the CPU plugin (with sgk too): "
                        + definition.describe_difference(through, want, names=("plugin", "want")))
    return "exact in the operator"


def boolean_reductions():
    """Booleans reach the operator as u8 (the plugin lowers them); 256
    true updates on one element must still give true (OR), not 256 mod
    256 = 0."""
    data = np.array([False, False, True])
    updates = np.ones(256, bool)
    indices = np.zeros((256, 1), np.int64)
    node = helper.make_node("ScatterND", ["data", "indices", "updates"], ["y"], reduction="add")
    model = make_model([node], {"data": data, "updates": updates}, {"y": TensorProto.BOOL},
                       {"indices": indices})
    want = definition.scatter_nd(data, indices, updates, "add")
    return run_both(model, {"data": data, "updates": updates}, [want], "scatter_nd add bool")


def transposed_cache_write(order, reduction="none"):
    """The nodes: cache -> Transpose(order) -> ScatterND(positions, new)
    named cache_write -> Transpose back -> present."""
    back = [order.index(i) for i in range(len(order))]
    return [helper.make_node("Transpose", ["cache"], ["moved"], perm=order),
            helper.make_node("ScatterND", ["moved", "positions", "new"], ["written"],
                             name="cache_write", reduction=reduction),
            helper.make_node("Transpose", ["written"], ["present"], perm=back)]


def scatter_into_transposed_cache(reduction, order, writes=4):
    """A KV cache written as torch.onnx.export(dynamo=True) writes
    index_copy_ along the sequence axis: Transpose the cache to bring that
    axis first, ScatterND rows into it, Transpose back.  Where the order
    brings one axis to the front and keeps the others in order, and the
    writes are at most an eighth of the cache (and not none), sgk runs it
    as one SgkScatterElements along that axis on the untransposed cache,
    named as the ScatterND (transposed_scatter.hpp); otherwise it stays an
    SgkScatterND.  Positions repeat (the last wins, or the updates apply in
    order) and count from the end; both must be exact."""
    rng = np.random.default_rng(9)
    cache = rng.standard_normal((40, 40, 40, 2)).astype(np.float32)
    positions = np.resize(np.array([5, -1, 5, 0], np.int64), (writes, 1))
    moved = [cache.shape[i] for i in order]
    new = rng.standard_normal([writes] + moved[1:]).astype(np.float32)
    inputs = {"cache": cache, "positions": positions, "new": new}
    model = make_model(transposed_cache_write(order, reduction), inputs,
                       {"present": TensorProto.FLOAT})
    kinds = {op.get_friendly_name(): op.get_type_name()
             for op in common.sgk_nodes(common.read(model))}
    fused = order[0] != 0 and order[1:] == sorted(order[1:]) and 0 < 8 * writes <= moved[0]
    want_kind = "SgkScatterElements" if fused else "SgkScatterND"
    assert kinds == {"cache_write": want_kind}, kinds
    note = run_both(model, inputs, reference(model, inputs),
                    f"scatter into transposed cache {reduction} {order}")
    return f"{want_kind}; {note}"


def scatter_into_transposed_cache_dynamic():
    """The same with the number of writes known only at run time: sgk's
    ScatterElements, exact for 4 writes and for none through one compiled
    model."""
    rng = np.random.default_rng(10)
    cache = rng.standard_normal((3, 4, 32, 2)).astype(np.float32)
    inputs = {"cache": cache, "positions": (TensorProto.INT64, ["n", 1]),
              "new": (TensorProto.FLOAT, ["n", 3, 4, 2])}
    model = make_model(transposed_cache_write([2, 0, 1, 3]), inputs,
                       {"present": TensorProto.FLOAT})
    ov_model, compiled = common.compile_model(model)
    assert [op.get_type_name() for op in common.sgk_nodes(ov_model)] == ["SgkScatterElements"]
    for positions in ([[7], [-3], [7], [0]], np.zeros((0, 1))):
        positions = np.array(positions, np.int64)
        new = rng.standard_normal((len(positions), 3, 4, 2)).astype(np.float32)
        feeds = {"cache": cache, "positions": positions, "new": new}
        got = common.infer(compiled, feeds)[0]
        want = reference(model, feeds)[0]
        assert definition.same(got, want), definition.describe_difference(got, want)
    return "4 writes and none"


def scatter_into_transposed_cache_bad_updates():
    """Updates of the wrong rank are left to SgkScatterND, whose error
    names them (not a Transpose's failure to convert)."""
    cache = np.zeros((4, 4, 64, 2), np.float32)
    feeds = {"cache": cache, "positions": np.zeros((1, 1), np.int64),
             "new": np.zeros((1, 4, 8), np.float32)}
    model = make_model(transposed_cache_write([2, 0, 1, 3]), feeds, {"present": TensorProto.FLOAT})
    ov_model, compiled = common.compile_model(model)
    assert [op.get_type_name() for op in common.sgk_nodes(ov_model)] == ["SgkScatterND"]
    try:
        common.infer(compiled, feeds)
    except RuntimeError as exc:
        message = str(exc).strip().splitlines()[-1]
        assert "SGK_ERR_SHAPE" in message and "cache_write" in message, message
        return message
    raise AssertionError("no error for updates [1, 4, 8]")
