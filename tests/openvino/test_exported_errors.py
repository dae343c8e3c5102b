#!/usr/bin/env python3
"""The bad index of each model exported by a real exporter
(tests/openvino/exported.py), through OpenVINO's CPU plugin with the sgk
extension: a beam index past the beams (beam_reorder), a cache position
past the end of the static cache or before its start (llama_decode, both
exporters), an edge to a missing node, past the end or below -nodes, and
an edge from a missing node (sage_sum/mean/max, pyg_sage, pyg_gcn).

With sgk each must raise an OpenVINO error (RuntimeError) whose message
names the sgk node of the expected kind and carries sgk's
SGK_ERR_INDEX_OUT_OF_RANGE with the bad index, the inputs untouched, and
the same compiled model must then answer the in-range inputs as before.
What OpenVINO alone does with the same inputs (an error, a silently wrong
answer, a write out of bounds) is recorded as a finding, not a failure:
in a child process each, since a write out of bounds can corrupt the
heap and kill the process."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import common
import exported
import onnx

ov = common.ov
findings = []
MODELS = ("beam_reorder", "llama_decode", "llama_decode_dynamo", "sage_sum", "sage_mean",
          "sage_max", "pyg_sage", "pyg_gcn")
# OpenVINO alone, in a child process: its error's last line, or its
# outputs (saved) and the inputs it changed.
ALONE = r"""
import json, sys
import numpy as np
import openvino as ov
model, feeds, out = sys.argv[1:4]
feeds = dict(np.load(feeds))
kept = {k: v.copy() for k, v in feeds.items()}
compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
try:
    results = compiled(feeds)
except RuntimeError as exc:
    print(json.dumps({"error": str(exc).strip().splitlines()[-1]}), flush=True)
else:
    np.savez(out, *[np.array(results[o]) for o in compiled.outputs])
    print(json.dumps({"changed": [k for k in feeds if not np.array_equal(feeds[k], kept[k])]}),
          flush=True)
"""


def bad_indices(name, feeds):
    """Each bad index of the model: (what, (input, where, value), the kind
    of sgk node that must refuse it)."""
    if name == "beam_reorder":
        rows = feeds["k0"].shape[0]
        yield f"beam index {rows} of {rows} rows", ("beam_idx", 2, rows), "SgkGather"
    elif name.startswith("llama"):
        # both exporters' index_copy_ is an SgkScatterElements: the
        # dynamo one's ScatterND into a transposed cache runs on the cache
        # itself (transposed_scatter.hpp)
        n = feeds["k0"].shape[2]
        yield f"cache position {n} of {n}", ("pos", (), n), "SgkScatterElements"
        yield f"cache position {-n - 1} of {n}", ("pos", (), -n - 1), "SgkScatterElements"
    else:
        n = feeds["x"].shape[0]
        src, dst = ((("edge_index", (0, 7)), ("edge_index", (1, 7))) if "edge_index" in feeds
                    else (("src", 7), ("dst", 7)))
        yield f"edge 7 to node {n} of {n}", dst + (n,), "SgkScatterElements"
        yield f"edge 7 to node {-n - 1} of {n}", dst + (-n - 1,), "SgkScatterElements"
        yield f"edge 7 from node {n} of {n}", src + (n,), "SgkGather"


def sgk_nodes_by_name(ov_model):
    """The model's sgk nodes by name, and by the name compiling gives them:
    a node feeding a model output through Transposes alone takes the
    output's name when OpenVINO folds the Transposes away (the dynamo
    llama's cache writes, transposed_scatter.hpp)."""
    nodes = {op.get_friendly_name(): op.get_type_name() for op in common.sgk_nodes(ov_model)}
    for result in ov_model.get_results():
        node = last = result.input_value(0).get_node()
        while node.get_type_name() == "Transpose":
            node = node.input_value(0).get_node()
        if node is not last and node.get_friendly_name() in nodes:
            nodes[last.get_friendly_name()] = node.get_type_name()
    return nodes


def refused(compiled, nodes, feeds, good, bad, kind, value):
    """sgk raises naming one node of the kind, with the bad value; the
    inputs are untouched; the in-range inputs then give what they gave."""
    kept = {k: v.copy() for k, v in bad.items()}
    try:
        common.infer(compiled, bad)
    except RuntimeError as exc:
        message = str(exc)
    else:
        raise AssertionError(f"no error for index {value}")
    assert "SGK_ERR_INDEX_OUT_OF_RANGE" in message, message
    named = [n for n in nodes if f"'{n}'" in message]
    assert len(named) == 1, f"the message names {named}, not one of {sorted(nodes)}: {message}"
    assert nodes[named[0]] == kind, f"it names {nodes[named[0]]} {named[0]!r}, not a {kind}"
    assert re.search(rf"= \[?{value}\]? out of range", message), f"no index {value}: {message}"
    changed = [k for k in bad if not np.array_equal(bad[k], kept[k])]
    assert not changed, f"inputs changed: {changed}"
    again = common.infer(compiled, feeds)
    assert all(np.array_equal(a, g) for a, g in zip(again, good)), \
        "the in-range inputs give another answer after the error"
    return f"{kind} {named[0]!r} refuses it"


def alone(path, bad, out):
    np.savez(out + ".in.npz", **bad)
    args = [sys.executable, "-c", ALONE, path, out + ".in.npz", out + ".out.npz"]
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as exc:  # a hang is a finding too
        stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        return subprocess.CompletedProcess(args, -signal.SIGKILL, stdout, "hung for 60 s")


def describe(name, what, bad, good, out, done):
    """What OpenVINO alone did, in a sentence: its error, or where its
    answer differs from the in-range one (cache slots written, output
    rows), and whether its process died after."""
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1]) if lines else None
    if result is None:
        text = "gives no answer"
    elif "error" in result:
        text = f"raises: {result['error']}"
    else:
        with np.load(out + ".out.npz") as z:
            outs = [z[f"arr_{i}"] for i in range(len(z.files))]
        if name.startswith("llama"):
            slots = [f"{k} {np.nonzero((o != bad[k]).any(axis=(0, 1, 3)))[0].tolist()}"
                     for k, o in zip(("k0", "v0", "k1", "v1"), outs[1:])]
            text = "no error; cache slots written: " + ", ".join(slots)
        else:
            rows = np.nonzero((outs[0] != good[0]).reshape(len(outs[0]), -1).any(1))[0]
            text = f"no error; output rows differing from the in-range input's: {rows.tolist()}"
            if len(rows) and not outs[0][rows].any():
                text += " (zeros)"
        if result["changed"]:
            text += f"; inputs changed: {result['changed']}"
    if done.returncode:
        cause = (done.stderr.strip().splitlines() or ["no message"])[-1]
        how = (signal.Signals(-done.returncode).name if done.returncode < 0
               else f"status {done.returncode}")
        text += f"; then its process died ({how}: {cause})"
    findings.append(f"{name}, {what}: OpenVINO alone {text}")


def main():
    tally = common.Tally("test_exported_errors")
    print(f"test_exported_errors: OpenVINO {ov.__version__.split('-')[0]}, "
          f"onnx {onnx.__version__}")
    with tempfile.TemporaryDirectory(prefix="sgk-errors.") as tmp, \
            ThreadPoolExecutor(max_workers=2) as pool:
        jobs, built = [], {}
        for name in MODELS:  # a missing exporter fails its models
            tally.run(f"{name} exported", lambda n: built.setdefault(n, exported.build(n)) and None,
                      name)
            if name not in built:
                continue
            model, feeds, _ = built[name]
            ov_model, compiled = common.compile_model(model, True)
            nodes = sgk_nodes_by_name(ov_model)
            good = common.infer(compiled, feeds)
            path = os.path.join(tmp, name + ".onnx")
            onnx.save(model, path)
            for i, (what, (key, where, value), kind) in enumerate(bad_indices(name, feeds)):
                bad = {k: v.copy() for k, v in feeds.items()}
                bad[key][where] = value
                out = os.path.join(tmp, f"{name}.{i}")
                jobs.append((name, what, bad, good, out, pool.submit(alone, path, bad, out)))
                tally.run(f"{name}, {what}", refused, compiled, nodes, feeds, good, bad, kind,
                          value)
        for name, what, bad, good, out, job in jobs:
            describe(name, what, bad, good, out, job.result())
    for finding in findings:
        print(f"finding: {finding}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
