"""The sections of docs/performance.md on the Python binding, the OpenVINO
extension and PyTorch (bench/performance-doc.py).  Standard library only."""
import bench_tables as T
from performance_doc_results import (OPENVINO_EXPORTED_RUN, OPENVINO_RUN, PYTHON_RUN,
                                     TORCH_CALIBRATION_RUN, TORCH_RUN, load, provenance)


def python_section(folder):
    doc = load(folder, PYTHON_RUN)
    if doc is None:
        return [], []
    out = ["## The Python binding's per-call cost", "",
           "`bench/python-overhead.py --json bench/results/python-overhead.json` times tiny "
           "operations through the binding (one-shot calls, `Plan.execute`) against NumPy's "
           "equivalent, and the last ctypes binding on the same libsgk. Cells: median "
           "microseconds per call over the rounds, and that over NumPy's.", "",
           provenance(doc, PYTHON_RUN, folder), "",
           "| workload | implementation | µs per call | × NumPy | target µs | matches NumPy |",
           "|---|---|---|---|---|---|"]
    for r in doc.get("rows", []):
        target = r.get("target_us")
        out.append(f"| {r['workload']} | {r['impl']} | {T.fmt(r.get('per_call_us'))} | "
                   f"{T.fmt(r.get('vs_numpy'))} | {T.fmt(target) if target else ''} | "
                   f"{T.DASH if r.get('matches_numpy') is None else 'yes' if r['matches_numpy'] else 'NO'} |")
    return out + [""], [PYTHON_RUN]


def openvino_section(folder):
    doc = load(folder, OPENVINO_RUN)
    if doc is None:
        return [], []
    rows = doc.get("results", [])
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    out = ["## OpenVINO models with and without the extension", "",
           "`bench/openvino-models.py --json bench/results/openvino-models.json` runs ONNX "
           "models of the patterns sgk is for through OpenVINO's CPU plugin, alone and with "
           "sgk's extension (on OpenVINO's TBB workers, and on OpenMP), on the same inputs "
           f"in the same run, {doc.get('threads', '?')} inference threads "
           "([integration](integration.md) describes the models). Cells: median latency of "
           "one request (ms) and throughput (inferences/s) of an AsyncInferQueue of two "
           "requests per stream; speedup: OpenVINO alone's latency over sgk-tbb's.", "",
           provenance(doc, OPENVINO_RUN, folder), "",
           "| model | indices | streams | " +
           " | ".join(f"{v} ms | {v} /s" for v in variants) + " | speedup | outputs |",
           "|---|---|---|" + "---|---|" * len(variants) + "---|---|"]
    keys = list(dict.fromkeys((r["model"], r["indices"], r["streams"]) for r in rows))
    for model, indices, streams in keys:
        same = [r for r in rows
                if (r["model"], r["indices"], r["streams"]) == (model, indices, streams)]
        by = {r["variant"]: r for r in same}
        ran = {v: r for v, r in by.items() if "error" not in r}
        cells = []
        for v in variants:
            r = by.get(v)
            cells += (["-", "-"] if r is None else ["cannot load", "-"] if v not in ran
                      else [T.fmt(r["median_ms"]), T.fmt(r["throughput_per_s"])])
        base, tbb = ran.get("openvino"), ran.get("sgk-tbb")
        speedup = f"{base['median_ms'] / tbb['median_ms']:.2f}x" if base and tbb else "-"
        crcs = {r["outputs_crc32"] for r in ran.values()}
        agree = ("only " + next(iter(ran)) if len(ran) == 1 else
                 "agree" if len(crcs) == 1 else "differ" if crcs else "-")
        out.append(f"| {model} | {indices} | {streams} | " + " | ".join(cells) +
                   f" | {speedup} | {agree} |")
    return out + [""], [OPENVINO_RUN]


def exported_section(folder):
    doc = load(folder, OPENVINO_EXPORTED_RUN)
    if doc is None:
        return [], []
    runtimes = ("openvino", "sgk", "onnxruntime")

    def ratio(r, over):
        ran = "median_ms" in r.get("openvino", {}) and "median_ms" in r.get(over, {})
        return f"{r['openvino']['median_ms'] / r[over]['median_ms']:.2f}×" if ran else "-"
    out = ["### Models exported by real exporters", "",
           "`.venv/bin/python bench/openvino-models.py --exported` exports the models of "
           "`tests/openvino/exported.py` with `torch.onnx.export` (transformers' Llama decode "
           "step on a StaticCache and beam-search reorder, GraphSAGE in plain PyTorch, "
           "torch_geometric's SAGEConv and GCNConv, DETR-style top-k) and runs each file with "
           "OpenVINO alone, OpenVINO with sgk, ONNX Runtime and, as a control, OpenVINO alone "
           "compiled a second time, in one process: "
           f"{doc.get('rounds', '?')} rounds of {doc.get('reps', '?')} inferences each, one "
           "inference of each runtime in turn in rotating order, the OpenVINO requests' inputs "
           f"bound once, {doc.get('threads', '?')} threads, with 1 and 2 OpenVINO streams "
           "(ONNX Runtime, which has none, with one stream's threads). Cells: the median over "
           "rounds of each round's median latency of one request (ms); speedup: OpenVINO "
           "alone's over OpenVINO with sgk's; control: OpenVINO alone's over itself compiled "
           "again, which is how far the protocol alone moves a ratio; whether sgk's outputs "
           "equal OpenVINO alone's and ONNX Runtime's, bit for bit.", "",
           provenance(doc, OPENVINO_EXPORTED_RUN, folder), "",
           "| model | exporter | streams | OpenVINO ms | with sgk ms | ONNX Runtime ms | "
           "speedup | control | = OpenVINO | = ONNX Runtime |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in doc.get("results", []):
        cells = [T.fmt(r[k]["median_ms"]) if "median_ms" in r.get(k, {}) else "cannot load"
                 for k in runtimes]
        ort = ("yes" if r.get("onnxruntime_equals_sgk") else
               "no" if "median_ms" in r.get("onnxruntime", {}) else "-")
        out.append(f"| {r['model']} | {r.get('exporter', '-')} | {r.get('streams', 1)} | "
                   + " | ".join(cells) + f" | {ratio(r, 'sgk')} | {ratio(r, 'control')} | "
                   f"{'yes' if r.get('sgk_equals_openvino') else 'NO'} | {ort} |")
    for r in doc.get("results", []):
        out += [f"- {r['model']}: {k} cannot load the file: {r[k]['error']}"
                for k in runtimes if "error" in r.get(k, {}) and r.get("streams", 1) == 1]
    return out + [""], [OPENVINO_EXPORTED_RUN]


def torch_notes(rows):
    """The sentences the README and the page share on the PyTorch run."""
    gnn = [r for r in rows if r["workload"].startswith("gnn_")]
    slower = [(r["workload"], op[len("aten::"):], t, s) for r in rows
              for op, t in r.get("ops_us", {}).get("torch", {}).items()
              for s in [r["ops_us"]["sgk"].get(op)] if s is not None and s > t]
    out = []
    if gnn:
        out.append("- A GraphSAGE layer (forward and backward, 50k nodes, 500k edges, 64 "
                   "features) runs " + ", ".join(f"{r['workload'][4:]} {r['speedup']:.2f}×"
                                                  for r in gnn)
                   + " as fast with `sgk.torch` as with PyTorch alone.")
    others = [r for r in rows if not r["workload"].startswith("gnn_")]
    if others:
        out.append("- The other workloads: " + ", ".join(
            f"{r['workload']} {r['speedup']:.2f}×" for r in others) + ".")
    out.append("- Ops whose profiled time was higher with sgk: " + (", ".join(
        f"{op} in {w} ({s / t:.2f}×)" for w, op, t, s in slower) or "none") + ".")
    return out


def torch_section(folder):
    doc, calibration = load(folder, TORCH_RUN), load(folder, TORCH_CALIBRATION_RUN)
    out, used = [], []
    if doc is not None:
        rows = doc.get("rows", [])
        used.append(TORCH_RUN)
        out += ["## PyTorch with and without `sgk.torch`", "",
                "`.venv/bin/python bench/torch-models.py --json bench/results/torch-models.json` "
                "runs each workload with plain PyTorch and with `sgk.torch` enabled, alternated "
                f"in one run on the same inputs, {doc.get('threads', '?')} intra-op threads "
                "(the workloads are described in the script). Cells: the median of "
                f"{doc.get('reps', '?')} steps (ms), PyTorch's over sgk's, whether the results "
                "agree (float sums within PyTorch's tolerance, [semantics](semantics.md)), and "
                "each scatter/gather op's CPU time per step (µs) under `torch.profiler`, the "
                "median of 7 steps of each variant profiled one at a time in alternated "
                "rounds, PyTorch's / sgk's (an op's time includes the ops it calls).", "",
                provenance(doc, TORCH_RUN, folder), "",
                "| workload | PyTorch ms | with sgk ms | speedup | results | ops: PyTorch / sgk µs |",
                "|---|---|---|---|---|---|"]
        for r in rows:
            ops = r.get("ops_us", {})
            cells = "; ".join(f"{op[len('aten::'):]} {T.fmt(t)} / {T.fmt(ops['sgk'].get(op))}"
                              for op, t in ops.get("torch", {}).items())
            out.append(f"| {r['workload']} | {T.fmt(r['torch_ms'])} | {T.fmt(r['sgk_ms'])} | "
                       f"{r['speedup']:.2f}× | {'agree' if r['agree'] else 'DIFFER'} | {cells} |")
        out += [""] + torch_notes(rows) + [""]
    if calibration is not None:
        used.append(TORCH_CALIBRATION_RUN)
        out += ["### The size rule's calibration", "",
                "`.venv/bin/python bench/torch-models.py --calibrate --json "
                "bench/results/torch-calibration.json` times element-wise ops along the last "
                "dimension with the size rule off, to place it ([torch](torch.md), \"When "
                "PyTorch keeps the call\"). Cells: median ms, and PyTorch's over sgk's.", "",
                provenance(calibration, TORCH_CALIBRATION_RUN, folder), "",
                "| op | axis | index elements | PyTorch ms | sgk ms | speedup |",
                "|---|---|---|---|---|---|"]
        out += [f"| {r['op']} | {r['axis']} | {r['index_elements']} | {T.fmt(r['torch_ms'])} | "
                f"{T.fmt(r['sgk_ms'])} | {r['speedup']:.2f}× |"
                for r in calibration.get("calibration", [])]
        out += [""]
    return out, used
