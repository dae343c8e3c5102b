#!/usr/bin/env python3
"""Every ONNX backend node test of the installed onnx whose model is one
ScatterND, GatherND, ScatterElements, Scatter or GatherElements node, run
through OpenVINO's CPU plugin with the sgk extension loaded: the node must
become an sgk operator, and the output must match the expected one bit for
bit (same dtype and shape).  Where a printed output contradicts the
sequential definition (tests/conformance/definition.py), the definition
wins, as in tests/conformance/test_onnx_backend.py, whose discovery and
loading of the node tests this reuses.  A case that expects an error must
raise one carrying sgk's message."""
import glob
import os
import sys
import tempfile

import common  # noqa: F401  (sets sys.path)
import definition
import test_onnx_backend as backend


def check_case(folder, model):
    ov_model, compiled = common.compile_model(os.path.join(folder, "model.onnx"))
    converted = [op.get_type_name() for op in common.sgk_nodes(ov_model)]
    assert converted, "the node was not converted to an sgk operator"
    node = model.graph.node[0]
    attrs = backend.attributes(node)
    names = [i.name for i in model.graph.input]
    notes = []
    for data_set in sorted(glob.glob(os.path.join(folder, "test_data_set_*"))):
        inputs = backend.load_tensors(data_set, "input")
        outputs = backend.load_tensors(data_set, "output")
        feeds = dict(zip(names, inputs))
        if not outputs:
            try:
                common.infer(compiled, feeds)
            except RuntimeError as exc:
                assert "sgk" in str(exc), f"the error does not come from sgk: {exc}"
                notes.append("raised as expected")
                continue
            raise AssertionError("expected an error, the model ran")
        want = outputs[0]
        defined = backend.run_operator(node.op_type, attrs, inputs, definition)
        if not definition.same(want, defined):
            notes.append("printed output contradicts the definition; judged against it")
            want = defined
        got = common.infer(compiled, feeds)[0]
        assert definition.same(got, want), definition.describe_difference(got, want)
    return f"{converted[0]}, opset {backend.opset_of(model)}" + (
        "; " + "; ".join(notes) if notes else "")


def main():
    tally = common.Tally("test_node_tests")
    root = backend.shipped_node_dir()
    tmp = None
    if root is None:
        tmp = tempfile.TemporaryDirectory(prefix="sgk-ov-node-")
        root = tmp.name
        backend.write_generated(root)
    cases = backend.discover(root)
    print(f"test_node_tests: {len(cases)} node tests of {', '.join(backend.OPS)} "
          f"through OpenVINO {common.ov.__version__.split('-')[0]} with {common.EXTENSION}")
    for folder, model in cases:
        tally.run(os.path.basename(folder), check_case, folder, model)
    if not cases:
        tally.run("node tests found", lambda: (_ for _ in ()).throw(AssertionError("none")))
    if tmp is not None:
        tmp.cleanup()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
