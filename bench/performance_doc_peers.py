"""The section "Against the peers" of docs/performance.md, from
bench/peers.py's runs (bench/performance-doc.py).  Standard library only."""
import glob
import os

import bench_tables as T
from performance_doc_results import (NARROW_LEAD, NOT_RECORDED, PEERS_RUN, load,
                                     provenance, span)


PYTHON_COST = """\
sgk's columns are measured through its Python binding, and every Python
call pays the binding's fixed per-call cost ([Python](python.md)). On the
calls of a few microseconds (the in-place KV-cache token writes) that cost,
not the kernel, is what the row times; the tiny-call table under "sgk
alone, in C" has the same writes without it."""


def peers_command(name, records):
    first = next((r for r in records if r.get("rounds")), {})
    cmd = ".venv/bin/python bench/peers.py"
    if first.get("rounds", 1) > 1:
        cmd += f" --rounds {first['rounds']}"
    if name != PEERS_RUN:
        workloads = list(dict.fromkeys(r["workload"] for r in records))
        impls = T.peer_impls(records)
        cmd += f" --workloads {','.join(workloads)} --impls {','.join(impls)}"
    cmd += f" --json bench/results/{name}"
    if name == PEERS_RUN:
        cmd += " --png bench/results/peers.png"
    return cmd


def versions_line(doc):
    v = doc.get("versions") if isinstance(doc, dict) else None
    if not v:
        return f"Versions: {NOT_RECORDED}."
    return "Versions: " + ", ".join(f"{k} {x}" for k, x in v.items()) + "."


def peers_notes(records):
    """Where sgk is not ahead, from the records."""
    ok = [r for r in records if r.get("status") == "ok"]
    by_w = {}
    for r in ok:
        by_w.setdefault(r["workload"], {})[r["impl"]] = r
    behind, narrow, oneshot_behind = [], [], []
    for w, impls in by_w.items():
        slower = []
        for impl, r in impls.items():
            sp = r.get("speedup_of_sgk")
            if impl in ("sgk", "sgk_oneshot") or sp is None:
                continue
            rounds = r.get("speedup_rounds") or []
            by_round = f"; by round {span(rounds)}×" if len(rounds) > 1 else ""
            if sp < 1.0:
                slower.append(f"{impl} ({sp:.2f}×{by_round})")
            elif sp < NARROW_LEAD:
                narrow.append(f"*{w}*: {impl} ({sp:.2f}×{by_round})")
        if slower:
            behind.append(f"*{w}*: " + ", ".join(slower))
        shot = impls.get("sgk_oneshot")
        if shot:
            faster = [f"{impl} {r['median_ms']:.3g} ms" for impl, r in impls.items()
                      if impl not in ("sgk", "sgk_oneshot")
                      and r["median_ms"] < shot["median_ms"]]
            if faster:
                oneshot_behind.append(f"*{w}*: one-shot {shot['median_ms']:.3g} ms against "
                                      + ", ".join(faster))
    lines = []
    sgk_first = [w for w, impls in by_w.items() if "sgk" in impls and all(
        r["median_ms"] >= impls["sgk"]["median_ms"] for i, r in impls.items() if i != "sgk")]
    if len(by_w) > 0:
        lines.append(f"- sgk's reused plan is the fastest implementation on {len(sgk_first)} "
                     f"of the {len(by_w)} workloads.")
    if behind:
        lines.append("- **A peer is faster than sgk's reused plan** (sgk's speedup below 1): "
                     + "; ".join(behind) + ".")
    if narrow:
        lines.append(f"- **sgk leads by less than {NARROW_LEAD:g}×**: " + "; ".join(narrow)
                     + ".")
    if oneshot_behind:
        lines.append("- **A peer is faster than sgk's one-shot call**: "
                     + "; ".join(oneshot_behind) + ".")
    differs = [f"{r['workload']} / {r['impl']}" for r in ok if r.get("matches_sgk") is False]
    if differs:
        lines.append("- Results that are not the sequential definition's (not comparable "
                     "bit for bit, timed all the same): " + ", ".join(differs) + ".")
    return lines


def peers_section(folder):
    main = load(folder, PEERS_RUN)
    extra = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "peers-*.json")))
    if main is None and not extra:
        return [], []
    out = ["## Against the peers", "",
           "`bench/peers.py` runs sgk and its peers on the same inputs in the same run "
           "(after `bench/setup-peers`): sgk through its Python binding with a plan made "
           "once (`sgk`) and as one-shot calls (`sgk_oneshot`), onnxruntime (one-node "
           "models), OpenVINO (CPU plugin), PyTorch and NumPy, every buffer on a 64-byte "
           "boundary. Cells: median, of_copy, and sgk's speedup over that implementation.",
           ""]
    used = []
    for name in ([PEERS_RUN] if main is not None else []) + extra:
        doc = main if name == PEERS_RUN else load(folder, name)
        records = T.records_of(doc)
        used.append(name)
        if name != PEERS_RUN:
            out += [f"### Further run: `{name}`", ""]
        out += [provenance(doc, name, folder) + " " + versions_line(doc), "",
                "```sh", peers_command(name, records), "```", ""]
        out += T.peers_workloads(records) + [""]
        out += [T.peers_caption(records), ""] + T.peers_table(records) + [""]
        if name == PEERS_RUN:
            if os.path.exists(os.path.join(folder, "peers.png")):
                out += ["![of_copy per workload and implementation, from peers.json]"
                        "(../bench/results/peers.png)", ""]
            out += ["Where sgk is not ahead, from the table:", ""] + peers_notes(records)
            out += ["", PYTHON_COST, ""]
        else:
            out += peers_notes(records) + [""]
    return out, used
