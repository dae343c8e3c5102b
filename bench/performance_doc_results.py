"""What bench/performance-doc.py reads: the names of the results files in
bench/results/, the thresholds its notes use, and the loading and dating
of one run.  Standard library only."""
import json
import os


NOT_RECORDED = "not recorded"

# The three sgk-bench runs of the main table, in its column order.  The
# one-shot run times each call at 1 thread too, alternated with its own
# count (sgk-bench's from_1t), so no one-shot run at 1 thread is needed.
SGK_BENCH_RUNS = ("sgk-bench.json", "sgk-bench-1thread.json", "sgk-bench-oneshot.json")
CALLERS_RUN = "sgk-bench-callers.json"
PEERS_RUN = "peers.json"
PATHS_RUN = "compare-paths.json"
PYTHON_RUN = "python-overhead.json"
OPENVINO_RUN = "openvino-models.json"
OPENVINO_EXPORTED_RUN = "openvino-exported-models.json"
TORCH_RUN = "torch-models.json"
TORCH_CALIBRATION_RUN = "torch-calibration.json"

# Below this fraction of its traffic floor a workload is named in the notes.
FLOOR_NOTE_BELOW = 0.8
# sgk "leads narrowly" below this speedup.
NARROW_LEAD = 1.1


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def when(date):
    """An ISO 8601 UTC time as "2026-11-24 03:02 UTC"."""
    if not date:
        return NOT_RECORDED
    return date.replace("T", " ")[:16] + " UTC" if "T" in date else date


def provenance(doc, name, folder):
    """The file and the run's machine, date and commit."""
    meta = doc if isinstance(doc, dict) else {}
    txt = name[:-len(".json")] + ".txt"
    has_txt = os.path.exists(os.path.join(folder, txt))
    return (f"[`{name}`](../bench/results/{name}): machine "
            f"{meta.get('machine') or NOT_RECORDED}; date {when(meta.get('date'))}; "
            f"commit {meta.get('commit') or NOT_RECORDED}"
            + (f"; full output in [`{txt}`](../bench/results/{txt})" if has_txt else "")
            + ".")


def span(values, digits=2):
    values = sorted(values)
    lo, hi = f"{values[0]:.{digits}f}", f"{values[-1]:.{digits}f}"
    return lo if lo == hi else f"{lo}–{hi}"
