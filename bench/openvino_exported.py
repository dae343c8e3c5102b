"""The models of tests/openvino/exported.py (exported by torch.onnx.export
from transformers, torch_geometric and plain PyTorch) as workloads of
bench/openvino-models.py --exported: each exported once to an ONNX file,
which these load in one process:

  openvino     OpenVINO's CPU plugin alone
  sgk          the same with sgk's extension (on OpenVINO's oneTBB threads)
  onnxruntime  ONNX Runtime's CPU provider, on the same file
  control      OpenVINO alone again, compiled after the others: the same
               configuration as `openvino`, so openvino/control is what the
               protocol alone makes of a ratio (an A/A test)

Each model runs with 1 and with 2 streams (OpenVINO's NUM_STREAMS sharing
the threads; ONNX Runtime, which has none, with one stream's threads).
The OpenVINO requests have their inputs bound once, so that an inference
is timed, not Python copying its inputs and outputs (on the beam models
those copies took 1.4 ms of an inference's 1.7).  Each round times --reps
inferences of every runtime, one inference of each in turn, in an order
that rotates from inference to inference: drift in the machine's load
falls on all of them alike.  A runtime's figure is the median over rounds
of its per-round median.  sgk's outputs must equal OpenVINO alone's bit
for bit (a disagreement is reported; the test suite says which is right);
ONNX Runtime's are compared and reported.
"""
import os
import statistics
import sys
import tempfile
import time
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "openvino"))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

RUNTIMES = ("openvino", "sgk", "onnxruntime", "control")


def crc(arrays):
    value = 0
    for a in arrays:
        value = zlib.crc32(np.ascontiguousarray(a).tobytes(), value)
    return value


def sessions(path, threads, streams, feeds):
    """{runtime: (infer, outputs)} for one ONNX file: infer() runs one
    inference on feeds, outputs() returns the last one's outputs as arrays.
    The OpenVINO ones are compiled for `streams` streams sharing `threads`,
    one request timed (on one stream's threads), its inputs bound once;
    ONNX Runtime, which has no streams, has as many threads as one stream."""
    import onnxruntime
    import openvino as ov
    import sgk
    config = {"INFERENCE_NUM_THREADS": str(threads), "NUM_STREAMS": str(streams),
              "INFERENCE_PRECISION_HINT": "f32"}
    run = {}
    for name in ("openvino", "sgk", "control"):
        core = ov.Core()
        if name == "sgk":
            core.add_extension(sgk.openvino_extension_path())
        request = core.compile_model(core.read_model(path), "CPU", config).create_infer_request()
        for key, value in feeds.items():
            request.set_tensor(key, ov.Tensor(np.require(value, requirements="C")))
        run[name] = (request.infer,
                     lambda request=request: [np.array(t.data) for t in request.output_tensors])
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, threads // streams)
    options.inter_op_num_threads = 1
    try:
        session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        last = {}

        def infer_ort():
            last["outputs"] = session.run(None, feeds)
        run["onnxruntime"] = (infer_ort, lambda: last["outputs"])
    except Exception as exc:  # a runtime that cannot load the exporter's file: its row says why
        run["onnxruntime"] = str(exc).strip().splitlines()[0][:300]
    return run


def measure(name, args, folder, streams):
    import exported
    import onnx
    model, feeds, exporter = exported.build(name, args.size)
    path = os.path.join(folder, name + ".onnx")
    onnx.save(model, path)
    run = sessions(path, args.threads, streams, feeds)
    errors = {r: run.pop(r) for r in RUNTIMES if isinstance(run[r], str)}
    outputs = {}
    for r, (infer, read) in run.items():  # also the warm-up
        infer()
        outputs[r] = read()
    names = [r for r in RUNTIMES if r in run]
    per_round = {r: [] for r in run}
    for _ in range(args.rounds):
        times = {r: [] for r in run}
        for i in range(args.reps):
            for r in names[i % len(names):] + names[:i % len(names)]:
                start = time.perf_counter()
                run[r][0]()
                times[r].append((time.perf_counter() - start) * 1e3)
        for r in run:
            per_round[r].append(statistics.median(times[r]))
    row = {"model": name, "exporter": exporter, "size": args.size, "streams": streams,
           "rounds": args.rounds,
           "reps": args.reps, "threads": args.threads, "inputs_crc32": crc(feeds.values())}
    for r in run:
        row[r] = {"median_ms": statistics.median(per_round[r]), "round_medians_ms": per_round[r],
                  "outputs_crc32": crc(outputs[r])}
    for r, error in errors.items():
        row[r] = {"error": error}
    crcs = {r: row[r].get("outputs_crc32") for r in RUNTIMES}
    row["sgk_equals_openvino"] = crcs["sgk"] == crcs["openvino"]
    row["onnxruntime_equals_sgk"] = crcs["onnxruntime"] == crcs["sgk"]
    print(f"  {name:19} {streams} " + "  ".join(f"{r} {cell(row[r])}" for r in RUNTIMES),
          file=sys.stderr, flush=True)
    return row


def cell(result, width=8):
    return f"{result['median_ms']:{width}.3f} ms" if "median_ms" in result else \
        f"{'cannot load':>{width + 3}}"


def table(rows):
    lines = [f"{'model':19} streams " + " ".join(f"{r + ' ms':>15}" for r in RUNTIMES) +
             "  openvino/sgk  openvino/control  sgk=openvino  onnxruntime=sgk"]
    for row in rows:
        ratio = row["openvino"]["median_ms"] / row["sgk"]["median_ms"]
        control = row["openvino"]["median_ms"] / row["control"]["median_ms"]
        ort = ("yes" if row["onnxruntime_equals_sgk"] else
               "no" if "median_ms" in row["onnxruntime"] else "-")
        lines.append(f"{row['model']:19} {row['streams']:7} " +
                     " ".join(cell(row[r], 12) for r in RUNTIMES) +
                     f"  {ratio:11.2f}x  {control:15.2f}x"
                     f"  {'yes' if row['sgk_equals_openvino'] else 'NO':>12}  {ort:>15}")
    for row in rows:
        lines += [f"{row['model']}: {r} cannot load it: {row[r]['error']}"
                  for r in RUNTIMES if "error" in row[r] and row["streams"] == 1]
    return "\n".join(lines)


def run_all(args):
    """(rows, failures) for every exported model (or args.models)."""
    import exported
    names = args.models.split(",") if args.models else list(exported.NAMES)
    rows, failures = [], []
    with tempfile.TemporaryDirectory(prefix="sgk-exported-") as folder:
        for name in names:
            for streams in (1, 2):
                try:
                    rows.append(measure(name, args, folder, streams))
                except Exception as exc:  # a model that cannot be exported or run
                    failures.append(f"{name}, {streams} streams: {type(exc).__name__}: "
                                    f"{str(exc)[:300]}")
    failures += [f"{r['model']}: sgk's outputs differ from OpenVINO alone's"
                 for r in rows if not r["sgk_equals_openvino"]]
    return rows, failures
