#!/usr/bin/env python3
"""Randomized differential tests of Gather and TensorScatter: sgk against
their sequential definitions (definition.gather, definition.tensor_scatter)
and, on the same inputs, against the peers that run them:

- onnx-ref: onnx.reference.ReferenceEvaluator (Gather-13, TensorScatter-24);
- onnxruntime: its CPU provider (Gather-13, TensorScatter-24);
- openvino: the CPU plugin's Gather-8 (OpenVINO has no TensorScatter: its
  ONNX frontend cannot convert one, which a probe records).

Fixed seeds.  Every type each peer takes, random shapes, axes (negative
too), both index types, negative indices, both modes, write indices of
every kind TensorScatter allows (circular ones negative and beyond the
sequence), absent write indices; sgk one-shot, planned and in place, with
1 and 2 threads.  Then the probes: one minimal input per behaviour, the
invalid inputs among them (sgk must raise and leave the cache as it was;
the peers' results are recorded).

A case fails when sgk differs from the definition or raises, or a peer
differs from sgk (or rejects a valid input) in a way no known cause
explains.  A cause is checked, not assumed:

  lowered-TYPE            OpenVINO computes int64/uint64/uint32 as int32 and
                          float64 as float32 (tests/conformance/
                          differential_causes.py's OV_LOWERING)
  negative-circular       onnxruntime rejects a negative write index in
                          circular mode, and agrees once it is taken modulo
                          max_sequence_length

The disagreements and the probes are appended as Markdown to --findings
(after test_differential.py's).  Ends with cmocka-style summary lines.

The cases are made in gather_ts_cases.py, the peers run in
gather_ts_peers.py and their disagreements explained in gather_ts_causes.py;
this file runs sgk and the definition, the probes and the report.
"""
import argparse
import os
import sys
import warnings
from collections import Counter, defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import definition  # noqa: E402
import sgk  # noqa: E402
from definition import BFLOAT16  # noqa: E402
from differential_cases import np_dtype  # noqa: E402
from gather_ts_cases import Case, build_cases  # noqa: E402
from gather_ts_causes import (CLASS_TEXT, RIGHT_SIDE, explain_rejection,  # noqa: E402
                              lowered, string_slices)
from gather_ts_peers import OPS, load_peers  # noqa: E402

# ---- running sgk and the definition ------------------------------------------

def run_definition(case, mode=None):
    if case.op == "gather":
        return definition.gather(case.data, case.indices, case.axis)
    return definition.tensor_scatter(case.data, case.update, case.indices, case.axis,
                                     mode or case.mode)


def run_sgk(case, variant):
    """variant picks the route: one-shot, a plan, in place; threads 1 or 2."""
    sgk.set_num_threads(1 + variant % 2)
    route = (variant // 2) % 3
    if case.op == "gather":
        if route == 1:
            with sgk.GatherPlan(case.data, case.indices, case.axis) as plan:
                return plan.execute(case.data)
        return sgk.gather(case.data, case.indices, case.axis)
    if route == 0:
        return sgk.tensor_scatter(case.data, case.update, case.indices, case.axis, case.mode)
    cache = case.data.copy()
    if route == 1:
        with sgk.TensorScatterPlan(cache, case.update, case.indices, case.axis,
                                   case.mode) as plan:
            return plan.execute(cache, case.update, out=cache)
    return sgk.tensor_scatter(cache, case.update, case.indices, case.axis, case.mode, out=cache)


# ---- probes ------------------------------------------------------------------

def _a(values, dtype):
    return np.asarray(values, dtype=np_dtype(dtype))


def probes():
    """(behaviour, case, sgk must raise) for one minimal input each; the
    peers' results are recorded for the report, not judged."""
    f32, i64 = "float32", "int64"
    cache = np.arange(8, dtype=np.float32).reshape(2, 4, 1)
    one = np.array([[[10.0]], [[20.0]]], np.float32)
    two = np.array([[[10.0], [11.0]], [[20.0], [21.0]]], np.float32)
    out = [
        ("negative indices (Gather)",
         Case("gather", f32, _a([[1, 2], [3, 4], [5, 6]], f32), _a([-1, 0], i64)), False),
        ("scalar index, axis 1",
         Case("gather", f32, _a([[1, 2], [3, 4], [5, 6]], f32), _a(1, i64), axis=1), False),
        ("int64 beyond int32 (Gather)",
         Case("gather", "int64", _a([2 ** 33 + 5, 1], "int64"), _a([0], i64)), False),
        ("empty indices",
         Case("gather", f32, _a([[1, 2], [3, 4]], f32), np.zeros((0,), np.int64), axis=1,
              tag="kills openvino"), False),
        ("strings, rows of three",
         Case("gather", "string", np.array([["a", "b", "c"], ["d", "e", "f"]], dtype=object),
              _a([1], i64)), False),
        ("index s (Gather)", Case("gather", f32, _a([1, 2, 3], f32), _a([3], i64)), True),
        ("index below -s (Gather)", Case("gather", f32, _a([1, 2, 3], f32), _a([-4], i64)),
         True),
        ("circular, wrapping",
         Case("tensor_scatter", f32, cache, _a([3, 2], i64), two, axis=1, mode="circular"),
         False),
        ("circular, negative write index",
         Case("tensor_scatter", f32, cache, _a([-1, -6], i64), one, axis=1, mode="circular"),
         False),
        ("no write indices (zeros)",
         Case("tensor_scatter", f32, cache, None, two, axis=-2), False),
        ("linear, write index + sequence length past the end",
         Case("tensor_scatter", f32, cache, _a([0, 3], i64), two, axis=1), True),
        ("linear, negative write index",
         Case("tensor_scatter", f32, cache, _a([0, -1], i64), one, axis=1), True),
        ("axis 0 (the batch)",
         Case("tensor_scatter", f32, cache, _a([0, 0], i64), cache[:1], axis=0), True),
    ]
    for n, (_, c, _) in enumerate(out):
        c.id = f"{c.op}#probe-{n}"
    return out


def show(x):
    x = np.asarray(x)
    return repr((x.astype(np.float32) if x.dtype == BFLOAT16 else x).tolist())


def run_probe(case, must_raise, peers):
    """(sgk as required?, what sgk did, {peer: (what it did, departs?)})."""
    want = None
    try:
        if case.op == "tensor_scatter" and must_raise:
            work = case.data.copy()
            sgk.tensor_scatter(work, case.update, case.indices, case.axis, case.mode, out=work)
            got = work
        else:
            got = run_sgk(case, 0)
        want = run_definition(case)
        ok = not must_raise and definition.same(got, want)
        text = show(got) + ("" if ok else " (should have raised)" if must_raise
                            else f" (definition {show(want)})")
    except sgk.SgkError as e:
        intact = case.op != "tensor_scatter" or definition.same(work, case.data)
        ok = must_raise and intact
        text = f"raises {type(e).__name__}" + ("" if intact else " (and changed the cache)")
    behaviour = {}
    for p in peers:
        if case.tag == "kills " + p.name:
            behaviour[p.name] = ("not run: the process dies of SIGFPE compiling it", True)
            continue
        if not p.supports(case):
            continue
        try:
            res = p.run(case)
            behaviour[p.name] = (show(res), must_raise or not definition.same(res, want))
        except Exception as e:  # noqa: BLE001 - recorded
            behaviour[p.name] = ("raises: " + str(e).splitlines()[0][:100], not must_raise)
    return ok, text, behaviour


def in_place_probe(peers):
    """onnxruntime's in-place TensorScatter (IO binding) on a bad write index
    in the second batch: does the first batch's row change before the
    error?  sgk's cache must stay as it was."""
    case = Case("tensor_scatter", "float32", np.zeros((2, 1, 4, 2), np.float32),
                _a([1, 3], "int64"), np.ones((2, 1, 2, 2), np.float32), axis=2)
    ort = next((p for p in peers if p.name == "onnxruntime"), None)
    work = case.data.copy()
    try:
        sgk.tensor_scatter(work, case.update, case.indices, 2, "linear", out=work)
        sgk_text = "no error (wrong)"
    except sgk.IndexOutOfRangeError:
        sgk_text = "raises; cache unchanged" if not work.any() else "raises; cache CHANGED"
    ort_text = "—"
    if ort is not None:
        after, error = ort.run_in_place(case)
        ort_text = (("raises; " if error is not None else "no error; ") +
                    ("cache unchanged" if not after.any() else
                     f"cache changed: batch 0 rows {after[0, 0, :, 0].tolist()}"))
    return case, sgk_text, ort_text


# ---- main --------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", default="",
                        help="Markdown file to append the report to ('' for none)")
    parser.add_argument("--reps", type=int, default=3,
                        help="random cases per (type, mode); Gather gets twice as many")
    args = parser.parse_args()
    peers, missing = load_peers()
    for m in missing:
        print(f"test_differential_gather_ts: {m}")
    print(f"test_differential_gather_ts: sgk {sgk.version()} ({sgk.library_path()}); peers: " +
          (", ".join(f"{p.label} ({p.version})" for p in peers) or "none"))
    cases = build_cases(args.reps)
    passed = failed = 0
    runs, agree = Counter(), Counter()
    findings = defaultdict(list)  # (peer, op, cause) -> [(size, call)]
    peer_errors = defaultdict(list)
    failures = []
    for n, case in enumerate(cases):
        ok = True
        want = run_definition(case)
        try:
            got = run_sgk(case, n)
            if not definition.same(got, want):
                failures.append(f"{case.id}: sgk differs from the definition: "
                                f"{definition.describe_difference(got, want)}: {case.call()}")
                ok = False
        except sgk.SgkError as e:
            failures.append(f"{case.id}: sgk raised {type(e).__name__}: {e.message}: "
                            f"{case.call()}")
            ok, got = False, None
        for p in peers:
            if not p.supports(case):
                continue
            runs[p.name, case.op] += 1
            try:
                peer_out = p.run(case)
            except Exception as e:  # noqa: BLE001 - explained or counted
                cause = explain_rejection(case, p, want)
                if cause is not None:
                    findings[p.name, case.op, cause].append((case.data.size, case.call()))
                else:
                    peer_errors[p.name, case.op].append(
                        f"{case.dtype_name}: {str(e).splitlines()[0][:120]}")
                continue
            if got is not None and definition.same(peer_out, got):
                agree[p.name, case.op] += 1
                continue
            cause = lowered(case, peer_out, want) if p.name == "openvino" else \
                string_slices(case, peer_out, want) if p.name == "onnxruntime" else None
            if cause is None:
                failures.append(f"{case.id}: {p.name} differs from sgk and the definition, "
                                f"unexplained: {definition.describe_difference(peer_out, want)}"
                                f": {case.call()}")
                ok = False
                continue
            findings[p.name, case.op, cause].append((case.data.size, case.call()))
        passed += ok
        failed += not ok

    probe_notes = []
    for what, case, must_raise in probes():
        ok, text, behaviour = run_probe(case, must_raise, peers)
        probe_notes.append((what, case, ok, text, behaviour))
        if not ok:
            failures.append(f"{case.id}: sgk {text}: {case.call()}")
        passed += ok
        failed += not ok
    in_place = in_place_probe(peers)
    ov = next((p for p in peers if p.name == "openvino"), None)
    ov_converts = ov.converts_tensor_scatter(cases[-2]) if ov is not None else None
    sgk.set_num_threads(0)

    print(f"test_differential_gather_ts: {len(cases)} random cases, {len(probe_notes)} probes")
    for p in peers:
        for op in OPS:
            if runs[p.name, op]:
                nfind = sum(len(v) for (pn, o, _), v in findings.items()
                            if pn == p.name and o == op)
                print(f"  {p.name:11s} {p.ops[op]:17s} {runs[p.name, op]:4d} cases: "
                      f"{agree[p.name, op]:4d} equal to sgk, {nfind:3d} explained, "
                      f"{len(peer_errors[p.name, op]):3d} rejected")
    for (pname, op, cause), items in sorted(findings.items()):
        items.sort()
        print(f"  [{pname} {op} {cause}] {len(items)} case(s), e.g. {items[0][1]}")
    for (pname, op), errs in sorted(peer_errors.items()):
        if not errs:
            continue
        print(f"  [{pname} {op} rejected] " +
              "; ".join(f"{k} (x{v})" for k, v in Counter(errs).most_common(4)))
    print("Probes (the peers' results recorded, not judged):")
    for what, case, ok, text, behaviour in probe_notes:
        print(f"  {'PASS' if ok else 'FAIL'}  {what}: {case.call()}")
        print(f"      sgk: {text}")
        for pname, (b, departs) in behaviour.items():
            print(f"      {pname}: {b}{'   <- departs' if departs else ''}")
    print(f"  in place, bad write index in batch 1: sgk {in_place[1]}; "
          f"onnxruntime (IO-bound) {in_place[2]}")
    if ov_converts is not None:
        print(f"  OpenVINO reads a TensorScatter model: "
              f"{'yes' if ov_converts[0] else 'no: ' + str(ov_converts[1]).splitlines()[0]}")
    if args.findings:
        write_findings(args.findings, peers, runs, agree, findings, peer_errors, probe_notes,
                       in_place, ov_converts, len(cases))
        print(f"test_differential_gather_ts: findings appended to {args.findings}")
    for f in failures:
        print(f"FAIL  {f}")
    print(f"[  PASSED  ] {passed} test(s).")
    if failed:
        print(f"[  FAILED  ] {failed} test(s).")
    return 0 if failed == 0 else 1


def write_findings(path, peers, runs, agree, findings, peer_errors, probe_notes, in_place,
                   ov_converts, ncases):
    labels = ", ".join(f"{p.name}: {p.label} ({p.version})" for p in peers)
    lines = ["", "### Conformance: Gather and TensorScatter", "",
             f"`tests/conformance/test_differential_gather_ts.py` runs {ncases} randomized "
             f"cases (fixed seeds) through sgk, the definitions of `definition.gather` and "
             f"`definition.tensor_scatter` and the peers {labels}. sgk equals the definition "
             "bit for bit in every case; every disagreement of a peer has a checked cause.", "",
             "| peer | operator | cases | equal to sgk | explained disagreements | "
             "rejected |", "|---|---|---|---|---|---|"]
    for p in peers:
        for op in OPS:
            if runs[p.name, op]:
                nfind = sum(len(v) for (pn, o, _), v in findings.items()
                            if pn == p.name and o == op)
                lines.append(f"| {p.name} | {p.ops[op]} | {runs[p.name, op]} | "
                             f"{agree[p.name, op]} | {nfind} | "
                             f"{len(peer_errors[p.name, op])} |")
    if findings:
        lines += ["", "| peer | operator | cause | cases | who is right |", "|---|---|---|---|---|"]
        for (pname, op, cause), items in sorted(findings.items()):
            peer = next(p for p in peers if p.name == pname)
            right = RIGHT_SIDE["lowered" if cause.startswith("lowered") else cause]
            lines.append(f"| {pname} | {peer.ops[op]} | {CLASS_TEXT[cause]} | {len(items)} | "
                         f"{right} |")
    for (pname, op), errs in sorted(peer_errors.items()):
        if not errs:
            continue
        lines.append(f"- {pname} {op} rejected: " + "; ".join(
            f"{k} (×{v})" for k, v in Counter(errs).most_common(4)))
    names = [p.name for p in peers]
    lines += ["", "Minimal reproducers (**bold** where a peer departs from sgk):", "",
              "| behaviour | call | sgk (= definition) | " + " | ".join(names) + " |",
              "|---|---|---|" + "---|" * len(names)]
    for what, case, ok, text, behaviour in probe_notes:
        cells = []
        for name in names:
            if name not in behaviour:
                cells.append("—")
                continue
            b, departs = behaviour[name]
            b = "raises" if b.startswith("raises") else b
            cells.append(f"**{b}**" if departs else b)
        lines.append(f"| {what} | `{case.call()}` | {text} | " + " | ".join(cells) + " |")
    lines += ["", f"In place with a bad write index in the second batch "
              f"(`{in_place[0].call()}`, the present cache bound to the past cache's buffer): "
              f"sgk {in_place[1]}; onnxruntime {in_place[2]}."]
    if ov_converts is not None:
        lines += ["", "OpenVINO " + ("reads a TensorScatter model." if ov_converts[0] else
                                     "cannot read a TensorScatter model: `" +
                                     str(ov_converts[1]).splitlines()[0][:200] + "`.")]
    with open(path, "a") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sys.exit(main())
