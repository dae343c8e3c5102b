"""The Markdown report of the differential tests (test_differential.py):
the peers, their agreement with sgk, each checked cause of a
disagreement with who is right, and the probes as minimal reproducers."""
from collections import Counter, defaultdict

import numpy as np

from definition import BFLOAT16
from differential_cases import GENERATORS
from differential_causes import CLASS_TEXT


def show(x):
    """Values as nested lists (bfloat16 through float32)."""
    x = np.asarray(x)
    return repr((x.astype(np.float32) if x.dtype == BFLOAT16 else x).tolist())


def compact_call(case):
    """A short form of a call for the report: values as lists."""
    args = [f"data={show(case.data)}", f"indices={case.indices.tolist()}"]
    if case.updates is not None:
        args.append(f"updates={show(case.updates)}")
    attrs = case.attrs()
    if case.op in ("scatter_nd", "gather_nd"):
        attrs = attrs if attrs not in ("reduction=none", "batch_dims=0") else ""
    return f"{case.op}({', '.join(args + ([attrs] if attrs else []))}), {case.dtype_name}"


def write_findings(path, peers, runs, agree, left_open, findings, peer_errors, probe_notes,
                   ncases):
    labels = {p.name: f"{p.label} ({p.version})" for p in peers}
    lines = ["### Conformance: where the peers depart from the sequential definition", "",
             f"`tests/conformance/test_differential.py` runs {ncases} randomized cases "
             "(fixed seeds) through sgk, the sequential definition (docs/semantics.md, "
             "\"Semantics, stated plainly\"; `tests/conformance/definition.py`) and the peers "
             + " and ".join(f"{k}: {v}" for k, v in labels.items()) + ". sgk equals the "
             "definition bit for bit in every case. Every disagreement of a peer is checked "
             "against a named cause (an unexplained one fails the suite). Cases with "
             "duplicate indices under `none` are counted apart, whichever update the peer "
             "keeps: the specifications leave that open, and a peer that picks by a race "
             "(OpenVINO's ScatterNDUpdate) keeps another one in some runs:", "",
             "| peer | operator | cases | equal to sgk | explained disagreements "
             "| duplicates under `none` |",
             "|---|---|---|---|---|---|"]
    for p in peers:
        for op in GENERATORS:
            if runs[p.name, op]:
                nfind = sum(len(v) for (pn, o, _), v in findings.items()
                            if pn == p.name and o == op)
                lines.append(f"| {p.name} | {p.ops[op]} | {runs[p.name, op]} "
                             f"| {agree[p.name, op]} | {nfind} | {left_open[p.name, op]} |")
    grouped = defaultdict(list)  # (peer, class) -> [(op, items)]
    for (pname, op, klass), items in sorted(findings.items()):
        grouped[pname, klass].append((op, items))
    lines += ["", "| peer | cause | operators (cases) | types | who is right |",
              "|---|---|---|---|---|"]
    for (pname, klass), per_op in sorted(grouped.items()):
        base = klass.split(" + ")
        text = "; then ".join(CLASS_TEXT.get(b, b) for b in base)
        peer = next(p for p in peers if p.name == pname)
        ops = ", ".join(f"{peer.ops[op]} ({len(items)})" for op, items in per_op)
        dts = ", ".join(sorted({c.dtype_name for _, items in per_op for _, c, _ in items}))
        lines.append(f"| {pname} | {text} | {ops} | {dts} | {right_side(base[0])} |")
    if any(peer_errors.values()):
        lines += ["", "Inputs a peer rejected (not compared):", ""]
        for (pname, op), errs in sorted(peer_errors.items()):
            if errs:
                lines.append(f"- {pname} {op}: " + "; ".join(
                    f"{k} (×{v})" for k, v in Counter(errs).most_common(4)))
    lines += ["", "Minimal reproducers, run by the suite (the peers' results as observed; "
              "**bold** where a peer departs from sgk):", "",
              "| behaviour | call | sgk (= definition) | " +
              " | ".join(p.name for p in peers) + " |",
              "|---|---|---|" + "---|" * len(peers)]
    for what, case, ok, text, behaviour in probe_notes:
        cells = []
        for p in peers:
            if p.name not in behaviour:
                cells.append("—")
                continue
            b, departs = behaviour[p.name]
            b = "raises" if b.startswith("raised") else b.replace("|", "\\|")
            cells.append(f"**{b}**" if departs else b)
        sgk_text = "raises IndexOutOfRange" if text.startswith("IndexOutOfRange") else text
        lines.append(f"| {what} | `{compact_call(case)}` | {sgk_text} | " + " | ".join(cells)
                     + " |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def right_side(klass):
    if klass.startswith("none"):
        return "both by their specifications (order unspecified); sgk by its definition " \
               "(last wins)"
    if klass in ("wide-accum", "reorder", "rounding"):
        return "sgk by its definition (sequential, rounded per update); the peer's result " \
               "is another rounding of the same terms"
    if klass == "bf16-rounding":
        return "sgk: round-to-nearest-even per update is the definition; truncation is " \
               "less accurate"
    if klass == "complex-fma":
        return "sgk by its definition (plain product, no contraction); the peer's fused " \
               "result is as accurate"
    if klass in ("nan", "signed-zero"):
        return "sgk (NumPy maximum/minimum semantics); the specifications are silent"
    if klass.startswith("lowered"):
        return "sgk: the peer loses range or precision"
    if klass == "negative-index":
        return "sgk: the specification allows negative indices"
    if klass == "negative-axis":
        return "sgk: the specification allows a negative axis (a bug of the reference)"
    return "?"
