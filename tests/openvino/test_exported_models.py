#!/usr/bin/env python3
"""Models exported by real exporters (tests/openvino/exported.py:
transformers' Llama decode step on a StaticCache (TorchScript and dynamo
exporters) and its beam-search cache reorder, GraphSAGE in plain
PyTorch, torch_geometric's SAGEConv and GCNConv, DETR-style top-k
post-processing), each run through OpenVINO's CPU plugin with the sgk
extension and without it.

For each: every scatter/gather node of the exported graph must have
become an sgk node, but for gathers of shapes, which the extension leaves
to OpenVINO; every sgk node must run once per inference
(sgk.openvino_counters()), but those on shapes alone, which OpenVINO
folds at compile time; every sgk node's output, tapped from the
model, must equal the sequential definition's
(tests/conformance/definition.py) on the inputs the node received; and
the outputs must equal OpenVINO alone's bit for bit, unless OpenVINO
alone is wrong on some node by the same check (a finding).  Their bad
indices are test_exported_errors.py's.  torch, transformers,
torch_geometric and onnxscript (for the dynamo exporter) missing is a
failure, not a skip."""
import sys

import numpy as np

import common
import definition
import exported
import onnx
import sgk
from onnx import helper, numpy_helper, shape_inference

ov = common.ov
findings = []
SCATTER_GATHER = {"Gather", "GatherElements", "GatherND", "ScatterElements", "ScatterND",
                  "Scatter", "TensorScatter"}
OV_SCATTER_GATHER = {"Gather", "GatherElements", "GatherND", "ScatterUpdate",
                     "ScatterNDUpdate", "ScatterElementsUpdate"}


def is_shape_value(value, depth=0):
    """adapters/openvino/conversions.cpp's rule, on OpenVINO's graph: a
    value computed from shapes (ShapeOf, then slices, casts, squeezes,
    concatenations with constants, gathers of it), whose Gathers the
    extension leaves to OpenVINO."""
    node = value.get_node()
    kind = node.get_type_name()
    if kind == "ShapeOf":
        return True
    if depth >= 8:
        return False
    if kind == "Concat":
        inputs = [node.input_value(i) for i in range(node.get_input_size())]
        if any(not is_shape_value(i, depth + 1) and i.get_node().get_type_name() != "Constant"
               for i in inputs):
            return False
        return any(is_shape_value(i, depth + 1) for i in inputs)
    if kind in ("Slice", "StridedSlice", "Convert", "Squeeze", "Unsqueeze", "Gather"):
        return is_shape_value(node.input_value(0), depth + 1)
    return False


def run(model, feeds, with_sgk):
    ov_model, compiled = common.compile_model(model, with_sgk)
    kept = {k: v.copy() for k, v in feeds.items()}
    out = common.infer(compiled, feeds)
    for k in feeds:
        assert np.array_equal(feeds[k], kept[k]), f"input {k} changed"
    return ov_model, compiled, out


def subgraphs(graph):
    for node in graph.node:
        for a in node.attribute:
            for g in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)):
                yield g
                yield from subgraphs(g)


def converted_and_counted(model, feeds):
    """Every scatter/gather node of the exported graph is an sgk node
    (found by its output's name) or a Gather of a shape left to OpenVINO,
    and every sgk node ran once per inference (sgk.openvino_counters(),
    by the node's name in the compiled model)."""
    total = [n for n in model.graph.node if n.op_type in SCATTER_GATHER]
    nested = [n.op_type for g in subgraphs(model.graph) for n in g.node
              if n.op_type in SCATTER_GATHER]
    assert not nested, f"scatter/gather inside If or Loop bodies, unchecked here: {nested}"
    ov_model, compiled = common.compile_model(model, True)
    served = {}
    for op in common.sgk_nodes(ov_model):
        # by its output's name; a ScatterND run on the untransposed data
        # (transposed_scatter.hpp) by the node's name, which it keeps
        names = op.output(0).get_names()
        onnx_nodes = [n for n in total if n.output[0] in names
                      or not names and n.name == op.get_friendly_name()]
        assert len(onnx_nodes) == 1, f"{op.get_friendly_name()}: outputs {names}"
        served[onnx_nodes[0].output[0]] = op.get_type_name()
    left = [op for op in ov_model.get_ordered_ops() if op.get_type_name() in OV_SCATTER_GATHER]
    data = [op.get_friendly_name() for op in left if not is_shape_value(op.input_value(0))]
    assert not data, f"OpenVINO kept scatter/gather of data: {data}"
    assert len(served) + len(left) == len(total), \
        f"{len(total)} scatter/gather nodes exported, {len(served)} sgk, {len(left)} OpenVINO"
    # A node whose inputs are all shapes or constants OpenVINO folds at
    # compile time (calling sgk then); the others must run per inference.
    folded = {op.get_friendly_name() for op in common.sgk_nodes(ov_model)
              if all(is_shape_value(op.input_value(i)) or
                     op.input_value(i).get_node().get_type_name() == "Constant"
                     for i in range(op.get_input_size()))}
    running = {op.get_friendly_name(): op.get_type_name() for op in common.sgk_nodes(ov_model)
               if op.get_friendly_name() not in folded}
    before = sgk.openvino_counters()
    common.infer(compiled, feeds)
    common.infer(compiled, feeds)
    after = sgk.openvino_counters()
    ran = {name: (c["op"], c["calls"] - before.get(name, {}).get("calls", 0))
           for name, c in after.items()}
    ran = {name: v for name, v in ran.items() if v[1]}
    # Compiling renames some nodes (one feeding an output takes its name):
    # the nodes that ran are compared by operator, each twice.
    assert sorted(ran.values()) == sorted((op, 2) for op in running.values()), \
        f"2 inferences ran {ran}; want {sorted(running.values())} twice each"
    kinds = sorted(served.values())
    counts = [f"{k} x{kinds.count(k)}" for k in sorted(set(kinds))]
    return counts, len(left), len(folded), [n for n in total if n.output[0] in served]


def tapped(model, nodes):
    """The model with every input and output of nodes as graph outputs
    (initializers are read from the model instead)."""
    inferred = shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type for v in
             list(inferred.graph.value_info) + list(inferred.graph.input) +
             list(inferred.graph.output)}
    inits = {i.name for i in model.graph.initializer}
    present = {o.name for o in model.graph.output} | {i.name for i in model.graph.input}
    names = []
    for node in nodes:
        for name in list(node.input) + [node.output[0]]:
            if name and name not in inits and name not in names:
                names.append(name)
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for name in names:
        if name not in present:
            copy.graph.output.append(helper.make_tensor_value_info(name, types.get(name, 0), None))
    return copy, names


def by_definition(node, inputs):
    """The node's output by tests/conformance/definition.py (the
    sequential definition, in NumPy)."""
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    reduction = attrs.get("reduction", b"none").decode()
    if node.op_type == "Gather":
        return definition.gather(*inputs, axis=attrs.get("axis", 0))
    if node.op_type == "GatherElements":
        return definition.gather_elements(*inputs, axis=attrs.get("axis", 0))
    if node.op_type == "GatherND":
        return definition.gather_nd(*inputs, batch_dims=attrs.get("batch_dims", 0))
    if node.op_type in ("ScatterElements", "Scatter"):
        return definition.scatter_elements(*inputs, axis=attrs.get("axis", 0),
                                           reduction=reduction)
    if node.op_type == "ScatterND":
        return definition.scatter_nd(*inputs, reduction=reduction)
    raise AssertionError(f"no definition for {node.op_type}")


def node_errors(model, feeds, nodes, with_sgk=True):
    """Each node's output (from the model with sgk, or OpenVINO alone)
    against the sequential definition, given the inputs it received in
    the same inference: the differences."""
    copy, names = tapped(model, nodes)
    compiled = common.compile_model(copy, with_sgk)[1]
    results = compiled(feeds)
    values = dict(feeds)
    for out in compiled.outputs:
        if out.get_names() & set(names):
            for n in out.get_names():
                values[n] = np.array(results[out])
    values.update({i.name: numpy_helper.to_array(i) for i in model.graph.initializer})
    for n in model.graph.node:
        if n.op_type == "Constant":
            values[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    errors = []
    for node in nodes:
        got = values[node.output[0]]
        want = by_definition(node, [values[i] for i in node.input if i])
        if not definition.same(got, want):
            errors.append(f"{node.op_type} {node.output[0]}: " +
                          definition.describe_difference(got, want))
    return errors


def exported_model(name):
    """sgk exact on every node; its outputs equal OpenVINO alone's, or
    OpenVINO alone is wrong on some node (a finding)."""
    model, feeds, exporter = exported.build(name)
    kinds, shape_gathers, folded, nodes = converted_and_counted(model, feeds)
    errors = node_errors(model, feeds, nodes)
    assert not errors, "; ".join(errors)
    got = run(model, feeds, True)[2]
    alone = run(model, feeds, False)[2]
    outputs = [o.name for o in model.graph.output]
    wrong = [f"{n}: " + definition.describe_difference(a, g, names=("openvino", "sgk"))
             for n, a, g in zip(outputs, alone, got) if not definition.same(a, g)]
    note = f"{exporter}; {', '.join(kinds)}; {len(nodes)} nodes exact against the definition"
    if shape_gathers:
        note += f"; {shape_gathers} gathers of shapes left to OpenVINO"
    if folded:
        note += f"; {folded} on shapes folded at compile time"
    if wrong:
        theirs = node_errors(model, feeds, nodes, with_sgk=False)
        assert theirs, ("the outputs differ from OpenVINO alone's, which is exact on every "
                        "node: " + "; ".join(wrong))
        findings.append(f"{name}: OpenVINO alone differs: {'; '.join(wrong)}; on its nodes: "
                        + "; ".join(theirs))
        return note + "; OpenVINO alone differs"
    return note + "; bit-equal to OpenVINO alone"


def exporters():
    """What the models are exported with; scripts/setup-test-venv installs
    each, pinned, and a missing one fails here (and its models below)."""
    versions = []
    for module in ("torch", "transformers", "torch_geometric", "onnxscript"):
        try:
            versions.append(f"{module} {__import__(module).__version__}")
        except ImportError as exc:
            raise AssertionError(f"{exc}: scripts/setup-test-venv installs it") from None
    return ", ".join(versions)


def main():
    tally = common.Tally("test_exported_models")
    print(f"test_exported_models: OpenVINO {ov.__version__.split('-')[0]}, "
          f"onnx {onnx.__version__}")
    tally.run("exporters importable", exporters)
    for name in exported.NAMES:
        tally.run(f"{name} exported", exported_model, name)
    for finding in findings:
        print(f"finding: {finding}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
