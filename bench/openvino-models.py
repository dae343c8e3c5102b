#!/usr/bin/env python3
"""ONNX models of the patterns sgk is for, run by OpenVINO's CPU plugin with
and without sgk's extension (docs/integration.md), on the same inputs in the
same run: inference latency (one request, median of --reps) and throughput
(an AsyncInferQueue of 2 requests per stream for --seconds), with 1 and 2
streams, 2 inference threads.

Variants, each in a process of its own (its thread pools to itself, and
SGK_OPENVINO_THREADS is read when the extension loads):
  openvino     OpenVINO alone (its own ScatterNDUpdate, GatherND, ...)
  sgk-tbb      with the extension: sgk on OpenVINO's oneTBB threads (default)
  sgk-openmp   with the extension, SGK_OPENVINO_THREADS=openmp: sgk's own
               OpenMP threads inside evaluate()

Models (inputs from a fixed seed, so every process builds the same):
  gnn_layer            Gather of source rows, Mul, ScatterElements add into
                       destinations (Zipf: hubs take many duplicates)
  llm_decode_step      K and V of one token written into static caches with
                       ScatterND, the seen rows read back with GatherND
  beam_search_step     history and scores reordered by parent beams
                       (GatherElements)
  fixed_gather         GatherND of embedding rows by ids
  kv_tensor_scatter    the decode step as opset-24 exporters write it: K and
                       V of one token written with TensorScatter at
                       write_indices, the seen positions read back with
                       Gather (OpenVINO alone cannot load it: its rows say
                       why instead of timing it)
The first two, fixed_gather and kv_tensor_scatter (write_indices) run twice: with the indices a constant of
the model (sgk plans once, at the first inference, and reuses the plan)
and as an input (a one-shot call each inference): the plan-reuse effect.

Every output is checked against OpenVINO alone's (a CRC; a disagreement is
reported, as sgk is exact where OpenVINO is not).  Writes JSON (default
bench/results/openvino-models.json) and prints a table.  --quick uses tiny
sizes and a few repetitions, to check that it works.

--exported runs instead the models tests/openvino/test_exported_models.py
exports with torch.onnx.export (transformers' Llama decode step and beam
reorder, GraphSAGE, torch_geometric's SAGEConv and GCNConv, DETR top-k;
bench/openvino_exported.py): OpenVINO alone, OpenVINO with sgk, ONNX
Runtime and OpenVINO alone again (a control) on the same ONNX file, in one
process, at 1 and 2 streams, --rounds rounds of --reps inferences each,
one inference of each runtime in turn, medians (default JSON
bench/results/openvino-exported-models.json).

    .venv/bin/python bench/openvino-models.py [--quick] [--json PATH]
    .venv/bin/python bench/openvino-models.py --exported [--rounds N] [--models a,b] [--size full]
"""
import argparse
import ctypes
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import zlib

# NumPy's OpenBLAS threads spin after a BLAS call, on the cores the
# runtimes time; nothing here needs more than one.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

VARIANTS = ("openvino", "sgk-tbb", "sgk-openmp")


# ---- models ------------------------------------------------------------------

def model_and_inputs(name, constant, scale):
    """(ModelProto, feeds) for one benchmark model at a size scale (1 full,
    smaller for --quick)."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(19)

    def build(nodes, inputs, outputs, inits, opset=18):
        graph = helper.make_graph(
            nodes, name,
            [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
             for n, a in inputs.items()],
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs],
            [numpy_helper.from_array(a, n) for n, a in inits.items()])
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])

    def split(inputs, inits, indices):
        """Indices go to the initializers (constant) or the inputs."""
        (inits if constant else inputs).update(indices)
        return inputs, inits

    if name == "gnn_layer":
        n, f, e = int(20000 * scale), 64, int(200000 * scale)
        src = rng.integers(0, n, e).astype(np.int64)
        dst = (rng.zipf(1.3, e) % n).astype(np.int64)
        x = rng.standard_normal((n, f)).astype(np.float32)
        w = rng.standard_normal((e, 1)).astype(np.float32)
        agg = np.zeros((n, f), np.float32)
        nodes = [helper.make_node("Gather", ["x", "src"], ["rows"], axis=0),
                 helper.make_node("Mul", ["rows", "w"], ["msg"]),
                 helper.make_node("ScatterElements", ["agg", "dst", "msg"], ["y"], axis=0,
                                  reduction="add")]
        inputs, inits = split({"x": x, "w": w, "agg": agg}, {"src": src},
                              {"dst": np.repeat(dst[:, None], f, axis=1)})
        return build(nodes, inputs, ["y"], inits), inputs
    if name == "llm_decode_step":
        b, h, s, d = 1, 32, int(1024 * scale) or 8, 128
        pos = s // 2
        caches = {k: rng.standard_normal((b, h, s, d)).astype(np.float32) for k in ("k", "v")}
        new = {k: rng.standard_normal((b, h, 1, d)).astype(np.float32) for k in ("k", "v")}
        where = np.zeros((b, h, 1, 3), np.int64)
        where[..., 1] = np.arange(h)[None, :, None]
        where[..., 2] = pos
        rows = np.broadcast_to(np.arange(pos + 1, dtype=np.int64)[None, None, :, None],
                               (b, h, pos + 1, 1)).copy()
        nodes = []
        for k in ("k", "v"):
            nodes += [helper.make_node("ScatterND", [f"{k}_cache", "where", f"{k}_new"],
                                       [f"{k}_out"]),
                      helper.make_node("GatherND", [f"{k}_out", "rows"], [f"{k}_seen"],
                                       batch_dims=2)]
        inputs = {"k_cache": caches["k"], "v_cache": caches["v"], "k_new": new["k"],
                  "v_new": new["v"]}
        inputs, inits = split(inputs, {"rows": rows}, {"where": where})
        return build(nodes, inputs, ["k_out", "v_out", "k_seen", "v_seen"], inits), inputs
    if name == "beam_search_step":
        batch, beams, length = 16, 8, int(512 * scale) or 4
        history = rng.integers(0, 50000, (batch, beams, length)).astype(np.float32)
        scores = rng.standard_normal((batch, beams)).astype(np.float32)
        parents = rng.integers(0, beams, (batch, beams)).astype(np.int64)
        shape = np.array([batch, beams, length], np.int64)
        nodes = [helper.make_node("Unsqueeze", ["parents", "axis2"], ["p3"]),
                 helper.make_node("Expand", ["p3", "shape"], ["p_rows"]),
                 helper.make_node("GatherElements", ["history", "p_rows"], ["new_history"],
                                  axis=1),
                 helper.make_node("GatherElements", ["scores", "parents"], ["new_scores"],
                                  axis=1)]
        inputs = {"history": history, "scores": scores, "parents": parents}
        inits = {"axis2": np.array([2], np.int64), "shape": shape}
        return build(nodes, inputs, ["new_history", "new_scores"], inits), inputs
    if name == "fixed_gather":
        vocab, dim, count = int(50000 * scale) or 16, 256, int(16384 * scale) or 4
        table = rng.standard_normal((vocab, dim)).astype(np.float32)
        ids = rng.integers(0, vocab, (count, 1)).astype(np.int64)
        nodes = [helper.make_node("GatherND", ["table", "ids"], ["rows"])]
        inputs, inits = split({"table": table}, {}, {"ids": ids})
        return build(nodes, inputs, ["rows"], inits), inputs
    if name == "kv_tensor_scatter":
        b, h, s, d = 1, 32, int(1024 * scale) or 8, 128
        pos = s // 2
        caches = {k: rng.standard_normal((b, h, s, d)).astype(np.float32) for k in ("k", "v")}
        new = {k: rng.standard_normal((b, h, 1, d)).astype(np.float32) for k in ("k", "v")}
        nodes = []
        for k in ("k", "v"):
            nodes += [helper.make_node("TensorScatter", [f"{k}_cache", f"{k}_new", "at"],
                                       [f"{k}_out"]),
                      helper.make_node("Gather", [f"{k}_out", "seen"], [f"{k}_seen"], axis=2)]
        inputs = {"k_cache": caches["k"], "v_cache": caches["v"], "k_new": new["k"],
                  "v_new": new["v"]}
        inputs, inits = split(inputs, {"seen": np.arange(pos + 1, dtype=np.int64)},
                              {"at": np.full(b, pos, np.int64)})
        return build(nodes, inputs, ["k_out", "v_out", "k_seen", "v_seen"], inits, 24), inputs
    raise ValueError(name)


MODELS = [("gnn_layer", True), ("gnn_layer", False), ("llm_decode_step", True),
          ("llm_decode_step", False), ("beam_search_step", False), ("fixed_gather", True),
          ("fixed_gather", False), ("kv_tensor_scatter", True), ("kv_tensor_scatter", False)]


# ---- one variant, in its own process ---------------------------------------------

def crc(arrays):
    value = 0
    for a in arrays:
        value = zlib.crc32(np.ascontiguousarray(a).tobytes(), value)
    return value


def measure_variant(variant, args):
    import openvino as ov
    core = ov.Core()
    counters = None
    if variant != "openvino":
        import sgk
        path = sgk.openvino_extension_path()
        core.add_extension(path)
        lib = ctypes.CDLL(path)
        lib.sgk_openvino_threading.restype = ctypes.c_char_p
        threading = lib.sgk_openvino_threading().decode()
        expected = variant.split("-")[1]
        if threading != expected:
            raise SystemExit(f"{variant}: the extension runs on {threading}")

        def counters():
            values = (ctypes.c_uint64 * 3)()
            lib.sgk_openvino_counters(ctypes.byref(values, 0), ctypes.byref(values, 8),
                                      ctypes.byref(values, 16))
            return [int(v) for v in values]
    rows = []
    for name, constant in MODELS:
        model, feeds = model_and_inputs(name, constant, args.scale)
        try:
            ov_model = core.read_model(model.SerializeToString(), b"")
        except RuntimeError as exc:  # OpenVINO alone and TensorScatter
            lines = [line for line in str(exc).splitlines() if line.strip()]
            for streams in (1, 2):
                rows.append({"model": name, "indices": "constant" if constant else "input",
                             "variant": variant, "streams": streams, "threads": args.threads,
                             "error": next((line.strip(" -") for line in lines
                                            if "conversion rule" in line),
                                           lines[-1] if lines else type(exc).__name__)})
            print(f"  {variant:10} {name:17} cannot load: {rows[-1]['error']}", file=sys.stderr,
                  flush=True)
            continue
        sgk_ops = sum(op.get_type_name().startswith("Sgk") for op in ov_model.get_ordered_ops())
        for streams in (1, 2):
            config = {"INFERENCE_NUM_THREADS": str(args.threads), "NUM_STREAMS": str(streams),
                      "INFERENCE_PRECISION_HINT": "f32"}
            compiled = core.compile_model(ov_model, "CPU", config)
            request = compiled.create_infer_request()
            before = counters() if counters else None
            start = time.perf_counter()
            request.infer(feeds)
            first_ms = (time.perf_counter() - start) * 1e3
            outputs = [np.array(request.get_output_tensor(i).data)
                       for i in range(len(compiled.outputs))]
            times = []
            for _ in range(args.reps):
                start = time.perf_counter()
                request.infer(feeds)
                times.append((time.perf_counter() - start) * 1e3)
            queue = ov.AsyncInferQueue(compiled, 2 * streams)
            done = 0
            start = time.perf_counter()
            while time.perf_counter() - start < args.seconds or done < 2 * streams:
                queue.start_async(feeds)
                done += 1
            queue.wait_all()
            elapsed = time.perf_counter() - start
            row = {"model": name, "indices": "constant" if constant else "input",
                   "variant": variant, "streams": streams, "threads": args.threads,
                   "sgk_operators": sgk_ops, "first_inference_ms": first_ms,
                   "median_ms": statistics.median(times), "min_ms": min(times),
                   "max_ms": max(times), "reps": len(times),
                   "throughput_per_s": done / elapsed, "throughput_inferences": done,
                   "inputs_crc32": crc(feeds.values()), "outputs_crc32": crc(outputs)}
            if counters:
                after = counters()
                row["plans_built"], row["plan_runs"], row["one_shot_runs"] = (
                    after[i] - before[i] for i in range(3))
            rows.append(row)
            print(f"  {variant:10} {name:17} {row['indices']:8} streams {streams}: "
                  f"{row['median_ms']:8.3f} ms, {row['throughput_per_s']:8.1f}/s",
                  file=sys.stderr, flush=True)
            del queue, request, compiled
    return rows


# ---- the run ---------------------------------------------------------------------

def table(rows):
    lines = [f"{'model':17} {'indices':8} {'str':>3} " +
             " ".join(f"{v + ' ms':>14} {v + ' /s':>14}" for v in VARIANTS) +
             "  speedup(tbb)  outputs"]
    keys = sorted({(r["model"], r["indices"], r["streams"]) for r in rows},
                  key=lambda k: ([m for m, _ in MODELS].index(k[0]), k[1], k[2]))
    for model, indices, streams in keys:
        by = {r["variant"]: r for r in rows
              if (r["model"], r["indices"], r["streams"]) == (model, indices, streams)
              and "error" not in r}
        cells = []
        for v in VARIANTS:
            r = by.get(v)
            cells.append(f"{r['median_ms']:14.3f} {r['throughput_per_s']:14.1f}" if r
                         else f"{'-':>14} {'-':>14}")
        base, tbb = by.get("openvino"), by.get("sgk-tbb")
        speedup = f"{base['median_ms'] / tbb['median_ms']:12.2f}x" if base and tbb else f"{'-':>13}"
        crcs = {r["outputs_crc32"] for r in by.values()}
        agree = "agree" if len(crcs) == 1 and len(by) > 1 else "differ" if crcs else "-"
        if len(by) == 1:
            agree = "only " + next(iter(by))
        lines.append(f"{model:17} {indices:8} {streams:3} " + " ".join(cells) +
                     f"  {speedup}  {agree}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, a few repetitions")
    parser.add_argument("--reps", type=int, default=None, help="timed inferences per latency")
    parser.add_argument("--seconds", type=float, default=None, help="throughput run length")
    parser.add_argument("--threads", type=int, default=2, help="INFERENCE_NUM_THREADS")
    parser.add_argument("--json", default=None,
                        help="default bench/results/openvino-models.json "
                             "(--exported: openvino-exported-models.json)")
    parser.add_argument("--exported", action="store_true",
                        help="the models exported by torch.onnx.export, with ONNX Runtime")
    parser.add_argument("--rounds", type=int, default=5, help="--exported: alternated rounds")
    parser.add_argument("--models", default="", help="--exported: a comma-separated subset")
    parser.add_argument("--size", default="bench", choices=("bench", "full"),
                        help="--exported: tests/openvino/exported.py's sizes (full: the tests')")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.scale = 0.01 if args.quick else 1.0
    args.reps = args.reps or (3 if args.quick else 20 if args.exported else 50)
    args.seconds = args.seconds if args.seconds is not None else (0.05 if args.quick else 2.0)

    if args.child:
        json.dump(measure_variant(args.child, args), sys.stdout)
        return 0
    if args.exported:
        return exported_models(args)
    if args.json is None:
        args.json = os.path.join(HERE, "results", "openvino-models.json")

    rows, failures = [], []
    for variant in args.variants.split(","):
        env = dict(os.environ)
        if variant == "sgk-openmp":
            env["SGK_OPENVINO_THREADS"] = "openmp"
        else:
            env.pop("SGK_OPENVINO_THREADS", None)
        command = [sys.executable, os.path.abspath(__file__), "--child", variant,
                   "--reps", str(args.reps), "--seconds", str(args.seconds),
                   "--threads", str(args.threads)] + (["--quick"] if args.quick else [])
        print(f"{variant}:", file=sys.stderr, flush=True)
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True)
        if done.returncode != 0:
            failures.append(f"{variant}: exited with status {done.returncode}")
            continue
        rows += json.loads(done.stdout)

    import openvino
    import sgk
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_provenance
    report = {
        **bench_provenance.describe(),
        "benchmark": "openvino-models",
        "openvino": openvino.__version__.split("-")[0],
        "sgk": sgk.version(),
        "sgk_runtime": sgk.runtime_describe(),
        "cpus": os.cpu_count(),
        "threads": args.threads, "reps": args.reps, "seconds": args.seconds,
        "quick": args.quick, "failures": failures, "results": rows,
    }
    print(table(rows))
    for failure in failures:
        print("failed:", failure)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
        print(f"wrote {args.json}")
    return 1 if failures else 0


def exported_models(args):
    import openvino
    import onnxruntime
    import sgk
    import bench_provenance
    import openvino_exported
    import exported  # tests/openvino's, on the path openvino_exported sets
    rows, failures = openvino_exported.run_all(args)
    report = {
        **bench_provenance.describe(),
        "benchmark": "openvino-exported-models",
        "openvino": openvino.__version__.split("-")[0], "onnxruntime": onnxruntime.__version__,
        "sgk": sgk.version(), "sgk_runtime": sgk.runtime_describe(), "cpus": os.cpu_count(),
        "threads": args.threads, "reps": args.reps, "rounds": args.rounds, "size": args.size,
        "sizes": exported.SIZES[args.size], "failures": failures, "results": rows,
    }
    print(openvino_exported.table(rows))
    for failure in failures:
        print("failed:", failure)
    path = args.json or os.path.join(HERE, "results", "openvino-exported-models.json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
    print(f"wrote {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
