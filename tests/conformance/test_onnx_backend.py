#!/usr/bin/env python3
"""Runs every ONNX backend node test of the installed onnx package whose model
is one ScatterND, GatherND, ScatterElements, Scatter, GatherElements, Gather
or TensorScatter node
(found by loading each model and reading its node's op_type), through sgk's
Python binding, and compares exactly: same dtype and shape, floats bit for
bit.

The test data is read the way ONNX backends read it: model.onnx and
test_data_set_*/input_*.pb / output_*.pb TensorProtos in a node test folder.
Older onnx wheels ship those folders (onnx/backend/test/data/node); newer ones
(1.19 on) generate the node tests in memory, so for those the cases are
written out first, exactly as onnx's own `backend-test-tools generate-data`
does, into a temporary folder.  SGK_ONNX_NODE_DATA=<dir> names an existing
data/node folder (e.g. of an onnx source checkout) to use instead.

Every expected output is also checked against the sequential definition of
docs/semantics.md (tests/conformance/definition.py):
where a printed output contradicts the definition, the definition wins and
the case says so.

Prints one line per case (name, opset, PASS/FAIL) and a summary; exit status
0 when all pass.  Needs numpy and onnx; SGK_LIBRARY names the library.
"""
import contextlib
import glob
import io
import os
import sys
import tempfile
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import onnx  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402

import definition  # noqa: E402
import sgk  # noqa: E402

OPS = ("ScatterND", "GatherND", "ScatterElements", "Scatter", "GatherElements", "Gather",
       "TensorScatter")


# ---- locating the node tests ------------------------------------------------

def shipped_node_dir():
    """onnx's data/node folder, when this onnx ships one (or one is named)."""
    named = os.environ.get("SGK_ONNX_NODE_DATA")
    if named:
        if not os.path.isdir(named):
            raise SystemExit(f"SGK_ONNX_NODE_DATA={named} is not a folder")
        return named
    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    return path if os.path.isdir(path) else None


def single_op(model):
    nodes = model.graph.node
    return nodes[0].op_type if len(nodes) == 1 else None


def write_generated(dest):
    """Writes every generated node test whose model is one of our operators
    into dest/<name>/ in the data/node layout (model.onnx,
    test_data_set_N/input_J.pb, output_J.pb).  Returns (written count, names
    of models that use one of our operators among several nodes)."""
    from onnx.backend.test.loader import load_model_tests
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            cases = load_model_tests(kind="node")
    written, composite = 0, []
    for case in cases:
        op = single_op(case.model)
        if op not in OPS:
            if any(n.op_type in OPS for n in case.model.graph.node):
                composite.append(case.name)
            continue
        folder = os.path.join(dest, case.name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        graph = case.model.graph
        for n, (inputs, outputs) in enumerate(case.data_sets):
            ds = os.path.join(folder, f"test_data_set_{n}")
            os.makedirs(ds, exist_ok=True)
            for kind, values, infos in (("input", inputs, graph.input),
                                        ("output", outputs, graph.output)):
                for j, value in enumerate(values):
                    proto = value if isinstance(value, onnx.TensorProto) else \
                        numpy_helper.from_array(np.asarray(value), infos[j].name)
                    with open(os.path.join(ds, f"{kind}_{j}.pb"), "wb") as f:
                        f.write(proto.SerializeToString())
        written += 1
    return written, composite


def discover(root):
    """Every folder under root whose model.onnx is one node of our operators."""
    found = []
    for folder in sorted(glob.glob(os.path.join(root, "*"))):
        path = os.path.join(folder, "model.onnx")
        if not os.path.isfile(path):
            continue
        model = onnx.load(path)
        if single_op(model) in OPS:
            found.append((folder, model))
    return found


# ---- running one case -------------------------------------------------------

def opset_of(model):
    return max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")),
               default=0)


def attributes(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def as_str(value):
    return value.decode() if isinstance(value, bytes) else value


def load_tensors(data_set, kind):
    tensors = []
    for path in sorted(glob.glob(os.path.join(data_set, f"{kind}_*.pb")),
                       key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0])):
        proto = onnx.TensorProto()
        with open(path, "rb") as f:
            proto.ParseFromString(f.read())
        tensors.append(numpy_helper.to_array(proto))
    return tensors


def run_operator(op, attrs, inputs, impl):
    """Runs op with attrs on inputs through impl (sgk, or the definition)."""
    if op == "ScatterND":
        data, indices, updates = inputs
        return impl.scatter_nd(data, indices, updates, as_str(attrs.get("reduction", "none")))
    if op == "GatherND":
        data, indices = inputs
        return impl.gather_nd(data, indices, int(attrs.get("batch_dims", 0)))
    if op in ("ScatterElements", "Scatter"):
        data, indices, updates = inputs
        return impl.scatter_elements(data, indices, updates, int(attrs.get("axis", 0)),
                                     as_str(attrs.get("reduction", "none")))
    if op == "GatherElements":
        data, indices = inputs
        return impl.gather_elements(data, indices, int(attrs.get("axis", 0)))
    if op == "Gather":
        data, indices = inputs
        return impl.gather(data, indices, int(attrs.get("axis", 0)))
    if op == "TensorScatter":
        past_cache, update = inputs[:2]
        write_indices = inputs[2] if len(inputs) > 2 else None
        return impl.tensor_scatter(past_cache, update, write_indices,
                                   int(attrs.get("axis", -2)), as_str(attrs.get("mode", "linear")))
    raise AssertionError(op)


def check_data_set(op, attrs, data_set):
    """Returns (ok, notes) for one test_data_set folder."""
    inputs, outputs = load_tensors(data_set, "input"), load_tensors(data_set, "output")
    notes = []
    if not outputs:  # a case that expects an error: sgk must raise
        try:
            run_operator(op, attrs, inputs, sgk)
        except sgk.SgkError as e:
            return True, [f"raised {type(e).__name__} as expected: {e.message}"]
        return False, ["expected an error, sgk returned normally"]
    printed = outputs[0]
    try:
        defined = run_operator(op, attrs, inputs, definition)
    except Exception as e:  # the definition rejects what ONNX accepts
        return False, [f"the sequential definition rejects this case: {e!r}"]
    want = printed
    if not definition.same(printed, defined):
        notes.append("printed output contradicts the sequential definition (" +
                     definition.describe_difference(printed, defined,
                                                    names=("printed", "definition")) +
                     "); judged against the definition")
        want = defined
    try:
        got = run_operator(op, attrs, inputs, sgk)
    except sgk.SgkError as e:
        return False, notes + [f"sgk raised {type(e).__name__}: {e.message}"]
    if not definition.same(got, want):
        return False, notes + ["sgk differs: " + definition.describe_difference(got, want)]
    return True, notes


def describe_attrs(attrs):
    return ", ".join(f"{k}={as_str(v)}" for k, v in sorted(attrs.items())) or "defaults"


def main():
    root = shipped_node_dir()
    source = root
    tmp = None
    composite = []
    if root is None:
        tmp = tempfile.TemporaryDirectory(prefix="sgk-onnx-node-")
        root = tmp.name
        count, composite = write_generated(root)
        source = (f"generated from onnx {onnx.__version__}'s node test cases "
                  f"(this wheel ships no data/node folder): {count} cases written to {root}")
    print(f"test_onnx_backend: onnx {onnx.__version__}, sgk {sgk.version()} "
          f"({sgk.library_path()})")
    print(f"test_onnx_backend: node tests {source}")
    cases = discover(root)
    passed = failed = 0
    contradictions = []
    for folder, model in cases:
        name, node = os.path.basename(folder), model.graph.node[0]
        attrs, opset = attributes(node), opset_of(model)
        data_sets = sorted(glob.glob(os.path.join(folder, "test_data_set_*")))
        ok, notes = bool(data_sets), [] if data_sets else ["no test_data_set folder"]
        for ds in data_sets:
            ds_ok, ds_notes = check_data_set(node.op_type, attrs, ds)
            ok &= ds_ok
            notes += [f"{os.path.basename(ds)}: {n}" for n in ds_notes]
        if any("contradicts" in n for n in notes):
            contradictions.append(name)
        print(f"{'PASS' if ok else 'FAIL'}  {name}  {node.op_type} opset {opset}  "
              f"({describe_attrs(attrs)}; {len(data_sets)} data set(s))")
        for n in notes:
            print(f"      note: {n}")
        passed += ok
        failed += not ok
    if composite:
        print(f"test_onnx_backend: {len(composite)} models use these operators among other "
              f"nodes (function expansions; not single-node tests, not run): "
              f"{', '.join(composite)}")
    if not cases:
        print("test_onnx_backend: no node tests found for " + ", ".join(OPS))
        failed += 1
    print(f"test_onnx_backend: {len(cases)} cases, {passed} passed, {failed} failed; "
          f"{len(contradictions)} printed output(s) contradict the definition"
          + (f": {', '.join(contradictions)}" if contradictions else ""))
    print(f"[  PASSED  ] {passed} test(s).")
    if failed:
        print(f"[  FAILED  ] {failed} test(s).")
    if tmp is not None:
        tmp.cleanup()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
