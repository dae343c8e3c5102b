#!/usr/bin/env python3
"""Randomized differential tests: sgk against the sequential definition of the
docs/semantics.md (definition.py) and, on the same inputs,
against two peers: onnx.reference.ReferenceEvaluator and OpenVINO's CPU
plugin (peers.py; a peer that is not importable is skipped with a message).

Fixed seeds.  Every (operator, type, reduction) a peer takes, with random
shapes, index types, negative and duplicate indices ("hot" cases pile dozens
of updates on one or two slices), NaN, infinities and signed zeros, plus a
few large cases (2048 updates on 8 rows); sgk called one-shot, planned and in
place, with 1 and 2 threads.  Then the probes: one minimal input per
behaviour found, and the out-of-range checks.

A case fails when sgk differs from the definition (an sgk bug), raises, or a
peer differs from sgk in a way none of the known causes explains.  Duplicate
indices under `none` are counted apart: the specifications leave the kept
update open, and OpenVINO's ScatterNDUpdate picks one by a race, so which
one it keeps varies from run to run; its answer must still be explained.  A cause
is checked, not assumed (e.g. "wide-accum" must reproduce the peer's output
bit for bit from a wider accumulation; "lowered-int64" must reproduce it
from the definition computed in int32):

  none-order, none-first   duplicates under none: another update than the last
  wide-accum      float add/sub/mul duplicates accumulated wider, rounded once
  reorder         float add/sub/mul duplicates in another order
  rounding        float add/sub/mul duplicates, within the error bound
  bf16-rounding   bfloat16 add/sub/mul truncated (also a single update)
  complex-fma     complex mul with fused multiply-adds (NumPy's loop)
  nan             max/min not propagating a NaN
  signed-zero     max/min keeping the other zero of a +0/-0 tie
  lowered-TYPE    int64/uint64/uint32 computed as int32, float64 as float32
  negative-index  wrong with negative indices, right once normalized
  negative-axis   fails with a negative axis, right once normalized

Prints a report of every disagreement (cause, counts, smallest example, who
is right) and writes it as Markdown to --findings (default
/tmp/conformance-findings.md).  Ends with cmocka-style summary lines.

The cases are made in differential_cases.py, the causes checked in
differential_causes.py, the report written by differential_report.py;
this file runs sgk and the peers, and the probes.
"""
import argparse
import os
import sys
import time
import warnings
from collections import Counter, defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import definition  # noqa: E402
import peers as peer_module  # noqa: E402
import sgk  # noqa: E402
from differential_cases import (GENERATORS, Case, build_cases, np_dtype,  # noqa: E402
                                run_definition)
from differential_causes import (classify, error_text, format_example,  # noqa: E402
                                 retry_positive_axis, writers)
from differential_report import show, write_findings  # noqa: E402



# ---- running sgk ------------------------------------------------------------

def run_sgk(case, variant):
    """variant: 0 one-shot, 1 planned, 2 in place (scatters; gathers: one-shot)."""
    sgk.set_num_threads(1 + variant % 2)
    d, i, u = case.data, case.indices, case.updates
    if case.op == "scatter_nd":
        if variant % 3 == 1:
            with sgk.ScatterNDPlan(d, i, u, case.reduction) as plan:
                return plan.execute(d, u)
        if variant % 3 == 2 and d.dtype.kind != "O":
            out = d.copy()
            sgk.scatter_nd(out, i, u, case.reduction, out=out)
            return out
        return sgk.scatter_nd(d, i, u, case.reduction)
    if case.op == "scatter_elements":
        if variant % 3 == 1:
            with sgk.ScatterElementsPlan(d, i, u, case.axis, case.reduction) as plan:
                return plan.execute(d, u)
        if variant % 3 == 2 and d.dtype.kind != "O":
            out = d.copy()
            sgk.scatter_elements(out, i, u, case.axis, case.reduction, out=out)
            return out
        return sgk.scatter_elements(d, i, u, case.axis, case.reduction)
    if case.op == "gather_nd":
        if variant % 2:
            with sgk.GatherNDPlan(d, i, case.batch_dims) as plan:
                return plan.execute(d)
        return sgk.gather_nd(d, i, case.batch_dims)
    if variant % 2:
        with sgk.GatherElementsPlan(d, i, case.axis) as plan:
            return plan.execute(d)
    return sgk.gather_elements(d, i, case.axis)




def pick_left_open(case):
    """Duplicate indices under `none`: the specifications do not say which
    update is kept."""
    return (case.op.startswith("scatter") and case.reduction == "none"
            and any(len(w) >= 2 for w in writers(case).values()))


# ---- probes: minimal inputs showing each behaviour ---------------------------

def _a(values, dtype):
    return np.array(values, dtype=np_dtype(dtype) if isinstance(dtype, str) else dtype)


def probes():
    """Tiny hand-written inputs, one per behaviour the random cases found
    (and the out-of-range checks): sgk must equal the definition (or raise
    IndexOutOfRangeError with its output untouched); what each peer returns
    is recorded for the report, not judged."""
    f32, i64 = "float32", np.int64
    out = [
        ("duplicates under none", Case("scatter_nd", f32, "none", _a([0, 0], f32),
                                       _a([[0], [0]], i64), _a([1, 2], f32))),
        ("float16 sum, duplicates", Case("scatter_nd", "float16", "add", _a([2048], "float16"),
                                         _a([[0], [0]], i64), _a([1, 1], "float16"))),
        ("bfloat16 sum, one update", Case("scatter_nd", "bfloat16", "add",
                                          _a([1.0], "bfloat16"), _a([[0]], i64),
                                          _a([0.333984375], "bfloat16"))),
        ("complex mul (slices of two)",
         Case("scatter_nd", "complex128", "mul", _a([[0.1 + 0.1j] * 2], "complex128"),
              _a([[0]], i64), _a([[0.1 + 0.1j] * 2], "complex128"))),
        ("max with NaN update (ScatterND)", Case("scatter_nd", f32, "max", _a([1.0], f32),
                                                 _a([[0]], i64), _a([np.nan], f32))),
        ("max with NaN update (ScatterElements)",
         Case("scatter_elements", f32, "max", _a([1.0], f32), _a([0], i64),
              _a([np.nan], f32))),
        ("max tie of -0 and +0 (ScatterElements)",
         Case("scatter_elements", f32, "max", _a([-0.0], f32), _a([0], i64), _a([0.0], f32))),
        ("int64 beyond int32", Case("scatter_nd", "int64", "none", _a([0], "int64"),
                                    _a([[0]], i64), _a([2 ** 33 + 5], "int64"))),
        ("uint64 beyond int32", Case("gather_nd", "uint64", "none",
                                     _a([2 ** 31, 2 ** 32 + 1], "uint64"), _a([[0], [1]], i64))),
        ("uint32 max at 2^31", Case("scatter_nd", "uint32", "max", _a([0], "uint32"),
                                    _a([[0]], i64), _a([2 ** 31], "uint32"))),
        ("float64 precision and inf", Case("gather_nd", "float64", "none",
                                           _a([0.1, np.inf], "float64"), _a([[0], [1]], i64))),
        ("negative axis", Case("gather_elements", f32, "none", _a([[1, 2], [3, 4]], f32),
                               _a([[0], [1]], i64), axis=-1)),
        # out of range: every peer and sgk should refuse
        ("coordinate out of range, flat offset inside",
         Case("scatter_nd", f32, "none", np.zeros((2, 3), np.float32), _a([[0, 3]], i64),
              _a([1], f32), tag="error")),
        ("coordinate out of range, flat offset inside",
         Case("gather_nd", f32, "none", np.arange(6, dtype=np.float32).reshape(2, 3),
              _a([[0, 3]], i64), tag="error")),
        ("index below -s", Case("scatter_nd", f32, "add", np.zeros((2, 3), np.float32),
                                _a([[0, -4]], i64), _a([1], f32), tag="error")),
        ("index s", Case("scatter_elements", "int32", "none", _a([0, 0, 0], "int32"),
                         _a([3], i64), _a([1], "int32"), tag="error")),
        # OpenVINO 2026.4's ScatterElementsUpdate takes an index below -s and
        # writes outside its output (glibc then aborts: "double free or
        # corruption"), so it does not run this one
        ("index below -s", Case("scatter_elements", f32, "max", _a([0, 0, 0], f32),
                                _a([-5], i64), _a([1], f32), tag="error",
                                unsafe_for=("openvino",))),
        ("index s", Case("gather_elements", f32, "none", _a([1, 2, 3], f32), _a([3], i64),
                         tag="error")),
        ("index below -s", Case("gather_elements", f32, "none", _a([1, 2, 3], f32),
                                _a([-4], i64), tag="error")),
    ]
    for n, (_, c) in enumerate(out):
        c.id = f"{c.op}#probe-{n}"
    return out


def run_probe(case, peers):
    """(sgk as required?, what sgk did, {peer: (what it did, departs?)})."""
    error = case.tag == "error"
    guard, work = case.data.copy(), None
    try:
        if case.op.startswith("scatter") and error:
            work = case.data.copy()
            fn = sgk.scatter_nd if case.op == "scatter_nd" else sgk.scatter_elements
            extra = (case.reduction,) if case.op == "scatter_nd" else (case.axis, case.reduction)
            fn(work, case.indices, case.updates, *extra, out=work)
        else:
            work = run_sgk(case, 0)
        want = None if error else run_definition(case)
        ok = not error and definition.same(work, want)
        text = show(work) + ("" if ok else
                             " (should have raised)" if error else f" (definition {show(want)})")
    except sgk.IndexOutOfRangeError as e:
        ok = error and (work is None or definition.same(work, guard))
        text = "IndexOutOfRangeError" + ("" if ok else " (unexpected, or the data changed)")
        if ok:
            text += f": {e.message}"
        want = None
    except sgk.SgkError as e:
        ok, text, want = False, f"{type(e).__name__}: {e.message}", None
    behaviour = {}
    for p in peers:
        if not p.supports(case) and not (error and p.name == "onnx-ref"):
            continue
        if p.name in case.unsafe_for:
            behaviour[p.name] = ("not run: writes outside its buffers (heap corruption)", True)
            continue
        try:
            res = p.run(case)
            departs = error or want is None or not definition.same(res, want)
            behaviour[p.name] = (show(res), departs)
        except Exception as e:
            behaviour[p.name] = ("raised: " + error_text(e), not error)
    return ok, text, behaviour


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", default="/tmp/conformance-findings.md",
                        help="Markdown report of the peers' disagreements ('' for none)")
    parser.add_argument("--reps", type=int, default=2,
                        help="cases per (operator, dtype, reduction) for scatters")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    t0 = time.time()
    peers, missing = peer_module.load_peers()
    for m in missing:
        print(f"test_differential: {m}")
    if not peers:
        print("test_differential: no peer importable")
    print(f"test_differential: sgk {sgk.version()} ({sgk.library_path()}); peers: " +
          (", ".join(f"{p.label} ({p.version})" for p in peers) or "none"))
    reps = {"scatter_nd": args.reps, "scatter_elements": args.reps,
            "gather_nd": 2 * args.reps, "gather_elements": 2 * args.reps}
    cases = build_cases(peers, reps)

    passed = failed = 0
    runs = Counter()          # (peer, op) -> cases run
    agree = Counter()         # (peer, op) -> cases equal to sgk
    left_open = Counter()     # (peer, op) -> cases with duplicates under none
    other_pick = Counter()    # (peer, op) -> of those, differing from sgk this run
    peer_errors = defaultdict(list)
    findings = defaultdict(list)  # (peer, op, class) -> [(case, example, size)]
    failures = []
    for n, case in enumerate(cases):
        ok = True
        try:
            want = run_definition(case)
        except Exception as e:
            failures.append(f"{case.id}: the definition raised {e!r}: {case.reproducer()}")
            failed += 1
            continue
        try:
            got = run_sgk(case, n)
        except sgk.SgkError as e:
            got = None
            failures.append(f"{case.id}: sgk raised {type(e).__name__}: {e.message}\n"
                            f"      {case.reproducer()}")
            ok = False
        arithmetic = case.reduction in ("add", "sub", "mul")
        if got is not None and not definition.same(got, want, any_nan=arithmetic):
            failures.append(f"{case.id}: sgk differs from the definition (sgk bug): "
                            f"{definition.describe_difference(got, want)}\n"
                            f"      {case.reproducer()}")
            ok = False
        left_open_case = pick_left_open(case)
        for p in peers:
            if not p.supports(case):
                continue
            runs[p.name, case.op] += 1
            try:
                peer_out = p.run(case)
            except Exception as e:
                klass = retry_positive_axis(case, p, want)
                if klass is not None:
                    findings[p.name, case.op, klass].append(
                        (case.size, case, f"{case.reproducer()}  ->  {p.name} raised: "
                                          f"{error_text(e)}"))
                    continue
                msg = error_text(e)
                peer_errors[p.name, case.op].append(f"{case.dtype_name}/{case.reduction}: {msg}")
                continue
            equal = got is not None and definition.same(peer_out, got)
            klass = "same" if equal else classify(case, p, peer_out, want)
            if klass is not None and left_open_case:
                # counted whatever the peer kept, so the report does not
                # change with its race; the pick must still be explained
                left_open[p.name, case.op] += 1
                other_pick[p.name, case.op] += not equal
                continue
            if equal:
                agree[p.name, case.op] += 1
                continue
            if klass in (None, "same"):
                detail = (definition.describe_difference(peer_out, want) if klass is None
                          else "peer matches the definition but sgk does not")
                if klass is None:
                    failures.append(f"{case.id}: {p.name} differs from sgk and the "
                                    f"definition, unexplained: {detail}\n"
                                    f"      {case.reproducer()}")
                    ok = False
                continue
            findings[p.name, case.op, klass].append(
                (case.size, case, format_example(case, p, peer_out, want)))
        if args.verbose:
            print(f"{'PASS' if ok else 'FAIL'}  {case.id}  {case.dtype_name}  {case.attrs()}  "
                  f"data{list(case.data.shape)} indices{list(case.indices.shape)}")
        passed += ok
        failed += not ok

    probe_notes = []
    for what, case in probes():
        ok, text, behaviour = run_probe(case, peers)
        probe_notes.append((what, case, ok, text, behaviour))
        if not ok:
            failures.append(f"{case.id}: sgk {text}: {case.reproducer()}")
        passed += ok
        failed += not ok
    sgk.set_num_threads(0)

    # ---- report
    print()
    print(f"test_differential: {len(cases)} random cases and {len(probe_notes)} probes in "
          f"{time.time() - t0:.1f} s")
    for p in peers:
        for op in GENERATORS:
            r = runs[p.name, op]
            if not r:
                continue
            nfind = sum(len(v) for (pn, o, _), v in findings.items() if pn == p.name and o == op)
            print(f"  {p.name:9s} {p.ops[op]:25s} {r:4d} cases: {agree[p.name, op]:4d} equal to "
                  f"sgk, {nfind:3d} explained disagreements, "
                  f"{left_open[p.name, op]:3d} duplicates under none "
                  f"({other_pick[p.name, op]} differing from sgk this run), "
                  f"{len(peer_errors[p.name, op]):3d} peer errors")
    if findings:
        print("\nPeers' disagreements with the sequential definition (docs/semantics.md, "
              "\"Semantics, stated plainly\"; sgk equals the definition in each), smallest "
              "random example "
              "of each:")
        for (pname, op, klass), items in sorted(findings.items()):
            items.sort(key=lambda t: t[0])
            dts = sorted({c.dtype_name for _, c, _ in items})
            print(f"  [{pname} {op} {klass}] {len(items)} case(s), types {', '.join(dts)}")
            print(f"      e.g. {items[0][2]}")
    for (pname, op), errs in sorted(peer_errors.items()):
        if not errs:
            continue
        kinds = Counter(errs)
        print(f"  [{pname} {op} peer raised] {len(errs)} case(s): " +
              "; ".join(f"{k} (x{v})" for k, v in kinds.most_common(4)))
    print("\nProbes (minimal inputs; the peers' results are recorded, not judged):")
    for what, case, ok, text, behaviour in probe_notes:
        print(f"  {'PASS' if ok else 'FAIL'}  {what}: {case.reproducer()}")
        print(f"      sgk: {text}")
        for pname, (b, departs) in behaviour.items():
            print(f"      {pname}: {b}{'   <- departs' if departs else ''}")
    if args.findings:
        write_findings(args.findings, peers, runs, agree, left_open, findings, peer_errors,
                       probe_notes, len(cases))
        print(f"\ntest_differential: findings written to {args.findings}")
    for f in failures:
        print(f"FAIL  {f}")
    print(f"[  PASSED  ] {passed} test(s).")
    if failed:
        print(f"[  FAILED  ] {failed} test(s).")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sys.exit(main())
