"""The models of tests/openvino/exported.py (exported by torch.onnx.export
from transformers, torch_geometric and plain PyTorch) as workloads of
bench/openvino-models.py --exported: each exported once to an ONNX file,
which three runtimes load in one process:

  openvino     OpenVINO's CPU plugin alone
  sgk          the same with sgk's extension (on OpenVINO's oneTBB threads)
  onnxruntime  ONNX Runtime's CPU provider, on the same file

Each model runs with 1 and with 2 streams (OpenVINO's NUM_STREAMS sharing
the threads; ONNX Runtime, which has none, with one stream's threads).
Each round runs every runtime on the same inputs, --reps inferences each,
in an order that rotates from round to round (so drift in the machine's
load falls on all of them alike); a runtime's figure is the median over
rounds of its per-round median.  sgk's outputs must equal OpenVINO
alone's bit for bit (a disagreement is reported; the test suite says
which is right); ONNX Runtime's are compared and reported.
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

RUNTIMES = ("openvino", "sgk", "onnxruntime")


def crc(arrays):
    value = 0
    for a in arrays:
        value = zlib.crc32(np.ascontiguousarray(a).tobytes(), value)
    return value


def sessions(path, threads, streams):
    """{runtime: callable(feeds) -> list of arrays} for one ONNX file: the
    OpenVINO ones compiled for `streams` streams sharing `threads`, one
    request timed (on one stream's threads); ONNX Runtime, which has no
    streams, with as many threads as one stream has."""
    import onnxruntime
    import openvino as ov
    import sgk
    config = {"INFERENCE_NUM_THREADS": str(threads), "NUM_STREAMS": str(streams),
              "INFERENCE_PRECISION_HINT": "f32"}
    run = {}
    for name in ("openvino", "sgk"):
        core = ov.Core()
        if name == "sgk":
            core.add_extension(sgk.openvino_extension_path())
        request = core.compile_model(core.read_model(path), "CPU", config).create_infer_request()

        def infer(feeds, request=request):
            request.infer(feeds)
            return [np.array(t.data) for t in request.output_tensors]
        run[name] = infer
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, threads // streams)
    options.inter_op_num_threads = 1
    try:
        session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        run["onnxruntime"] = lambda feeds: session.run(None, feeds)
    except Exception as exc:  # a runtime that cannot load the exporter's file: its row says why
        run["onnxruntime"] = str(exc).strip().splitlines()[0][:300]
    return run


def measure(name, args, folder, streams):
    import exported
    import onnx
    model, feeds, exporter = exported.build(name, args.size)
    path = os.path.join(folder, name + ".onnx")
    onnx.save(model, path)
    run = sessions(path, args.threads, streams)
    errors = {r: run.pop(r) for r in RUNTIMES if isinstance(run[r], str)}
    outputs = {r: run[r](feeds) for r in run}  # also the warm-up
    per_round = {r: [] for r in run}
    for i in range(args.rounds):
        order = RUNTIMES[i % 3:] + RUNTIMES[:i % 3]
        for r in (r for r in order if r in run):
            times = []
            for _ in range(args.reps):
                start = time.perf_counter()
                run[r](feeds)
                times.append((time.perf_counter() - start) * 1e3)
            per_round[r].append(statistics.median(times))
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
             "  openvino/sgk  sgk=openvino  onnxruntime=sgk"]
    for row in rows:
        ratio = row["openvino"]["median_ms"] / row["sgk"]["median_ms"]
        ort = ("yes" if row["onnxruntime_equals_sgk"] else
               "no" if "median_ms" in row["onnxruntime"] else "-")
        lines.append(f"{row['model']:19} {row['streams']:7} " +
                     " ".join(cell(row[r], 12) for r in RUNTIMES) +
                     f"  {ratio:11.2f}x  {'yes' if row['sgk_equals_openvino'] else 'NO':>12}"
                     f"  {ort:>15}")
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
