#!/usr/bin/env python3
"""sgk against its peers on the workloads of sgk-bench (docs/performance.md), on the same inputs
in the same run.

Implementations, each in a process of its own so that their thread pools
do not compete for the cores: sgk (plan made once, execute timed; and one-shot calls),
onnxruntime (CPU provider, one-node model per operator), OpenVINO (CPU),
PyTorch and NumPy.  A peer that is not installed or fails is reported and
skipped.  Every figure is relative to this run: of_copy is the workload's
minimal traffic over its median time, divided by this machine's copy
bandwidth measured at the start; speedup is peer time / sgk plan time.
With --rounds N every implementation runs N times, in turn (the order
reversed every other round, so that none always runs first): a median is
then the median of the rounds' medians, and a speedup the median of the
ratios measured within each round, each of which is printed too.  On a
shared machine whose speed drifts over minutes, that keeps a slow spell
from falling on one implementation alone.  reps then counts the timed
calls of all rounds, and an implementation that failed in any round, or
whose result differed from sgk's, is reported so.

    bench/setup-peers                         # once: .venv with the peers
    .venv/bin/python bench/peers.py --quick --json out.json --png out.png

Gather and TensorScatter (gather_axis*, tensor_scatter_*): onnxruntime's
Gather-13 and TensorScatter-24 (in place with the present cache IO-bound to
the past cache's buffer, the only way it skips its copy; copying, its
default), OpenVINO's Gather-8 (it has no TensorScatter), PyTorch's
index_select and slice assignment, NumPy's take and slice assignment.

The workloads and their minimal traffic are in bench/peer_workloads.py, the
implementations in bench/peer_setups.py and bench/peer_graph_setups.py, the
timing and comparing in bench/peer_measuring.py, the table, markdown and
chart in bench/peer_report.py; this file runs them.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import traceback
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import sgk  # noqa: E402
from bench_provenance import describe as describe_run  # noqa: E402
from peer_report import draw_png, print_table, versions, write_markdown  # noqa: E402
from peer_graph_setups import setup_onnxruntime, setup_openvino  # noqa: E402
from peer_measuring import (ForeignLoad, compare, copy_bandwidth,  # noqa: E402
                            default_threads, measure)
from peer_setups import (IMPLS, Missing, setup_numpy, setup_sgk,  # noqa: E402
                         setup_sgk_oneshot, setup_torch)
from peer_workloads import ALIGN, make_workloads  # noqa: E402

SETUPS = {"sgk": setup_sgk, "sgk_oneshot": setup_sgk_oneshot, "onnxruntime": setup_onnxruntime,
          "openvino": setup_openvino, "torch": setup_torch, "numpy": setup_numpy}


# ---- running ----------------------------------------------------------------------

def fingerprint(w):
    """CRC-32 of the inputs, to show every process ran on the same arrays."""
    crc = 0
    for a in (w.data, w.indices, w.updates):
        if a is not None:
            crc = zlib.crc32(memoryview(np.ascontiguousarray(a)).cast("B"), crc)
    return crc


def sgk_reference(w):
    """sgk's result for w, from a single-threaded one-shot call (so that no
    sgk worker pool sits beside a peer's).  Made after the peer is timed: an
    sgk call before the timing slowed the sgk plan executions that followed
    it in the same process (gather_elements 4.8-6.1 ms without it, 6.3-7.5
    with it; PyTorch's gather 10.9-12.3 against 12.2-12.4)."""
    sgk.set_num_threads(1)
    run, result, _, _ = setup_sgk_oneshot(w, 1)
    run()
    return result().copy()


def run_impl(impl, workloads, threads, warmup, reps, budget):
    """Time one implementation on every workload, then compare its results
    with sgk's reference.  Returns one record per workload."""
    records = []
    for w in workloads:
        rec = {"workload": w.name, "impl": impl,
               "threads": 1 if impl == "numpy" else threads, "median_ms": None,
               "min_ms": None, "max_ms": None, "matches_sgk": None, "status": "ok",
               "note": "", "reps": 0, "inputs_crc32": fingerprint(w)}
        close = None
        try:
            run, result, note, close = SETUPS[impl](w, threads)
            med, lo, hi, n = measure(run, warmup, reps, budget)
            rec.update(median_ms=med * 1e3, min_ms=lo * 1e3, max_ms=hi * 1e3, reps=n,
                       note=note)
            try:
                ref = sgk_reference(w)
            except Exception as exc:  # noqa: BLE001 - the timing still stands
                ref = None
                rec["note"] = f"{note}; no sgk reference: {exc}" if note else \
                    f"no sgk reference: {exc}"
            if ref is not None:
                ok, why = compare(w, ref, result())
                rec["matches_sgk"] = ok
                if why:
                    rec["note"] = f"{note}; {why}" if note else why
        except Missing as exc:
            rec.update(status="missing", note=f"not installed ({exc})")
        except Exception as exc:  # noqa: BLE001 - a failing peer is reported, not fatal
            msg = " ".join(str(exc).split())[:240]
            rec.update(status="error", note=f"{type(exc).__name__}: {msg}")
            if os.environ.get("PEERS_DEBUG"):
                traceback.print_exc()
        finally:
            if close:
                close()
        state = (f"{rec['median_ms']:.3f} ms" if rec["status"] == "ok"
                 else f"{rec['status']}: {rec['note']}")
        print(f"  {impl:<12} {w.name:<28} {state}", file=sys.stderr, flush=True)
        records.append(rec)
    return records


def run_isolated(impl, argv, timeout):
    """run_impl in a fresh interpreter, so that no other runtime's thread pool
    (OpenMP, TBB, onnxruntime's) shares the two cores with this one's."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", impl, "--child-out", path]
        proc = subprocess.run(cmd + argv, timeout=timeout, stdout=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise RuntimeError(f"{impl} process exited with status {proc.returncode}")
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def child_argv(args, scale, reps, warmup, budget, threads):
    argv = ["--scale", repr(scale), "--reps", str(reps), "--warmup", str(warmup),
            "--budget", repr(budget), "--threads", str(threads), "--seed", str(args.seed)]
    if args.workloads:
        argv += ["--workloads", args.workloads]
    return argv


# ---- main -----------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=None,
                    help="size factor on the workloads' shapes (default 1, --quick 0.125)")
    ap.add_argument("--quick", action="store_true", help="small scale, few repetitions")
    ap.add_argument("--reps", type=int, default=None, help="timed calls (default 10, quick 5)")
    ap.add_argument("--warmup", type=int, default=None, help="warm-up calls (default 2, quick 1)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds of timed calls per implementation and workload before "
                         "reps are cut (default 20, quick 3)")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads for every implementation (default: sgk's, physical cores)")
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma-separated subset")
    ap.add_argument("--workloads", default="", help="comma-separated name prefixes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every implementation this many times, in turn (default 1)")
    ap.add_argument("--no-isolate", dest="isolate", action="store_false",
                    help="run every implementation in this process (their thread pools then "
                         "compete for the cores)")
    ap.add_argument("--json", help="write the run here: machine, date, commit, versions and "
                    "the records")
    ap.add_argument("--png", help="draw of_copy per workload and implementation here")
    ap.add_argument("--markdown", help="write a markdown table (median, of_copy, speedup of "
                                       "sgk) here")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    scale = args.scale if args.scale is not None else (0.125 if args.quick else 1.0)
    reps = args.reps or (5 if args.quick else 10)
    warmup = args.warmup if args.warmup is not None else (1 if args.quick else 2)
    budget = args.budget or (3.0 if args.quick else 20.0)
    threads = args.threads or default_threads()
    impls = [i.strip() for i in args.impls.split(",") if i.strip()]
    for i in impls:
        if i not in SETUPS:
            ap.error(f"unknown implementation {i!r}; choose from {', '.join(IMPLS)}")

    workloads = make_workloads(scale, np.random.default_rng(args.seed))
    if args.workloads:
        prefixes = [p.strip() for p in args.workloads.split(",") if p.strip()]
        workloads = [w for w in workloads if any(w.name.startswith(p) for p in prefixes)]

    if args.child:
        records = run_impl(args.child, workloads, threads, warmup, reps, budget)
        with open(args.child_out, "w") as f:
            json.dump(records, f)
        return 0

    load = ForeignLoad()
    provenance = describe_run()
    sgk.set_num_threads(threads)
    print(f"sgk {sgk.version()} from {sgk.library_path()}")
    print(f"runtime: {sgk.runtime_describe()}")
    bw_single, bw_threaded = copy_bandwidth(threads, max(3, reps))
    copy_bw = max(bw_single, bw_threaded)
    print(f"copy bandwidth (np.copyto 256 MiB, read+write): 1 thread {bw_single / 1e9:.2f} GB/s, "
          f"{threads} threads {bw_threaded / 1e9:.2f} GB/s; using {copy_bw / 1e9:.2f} GB/s")
    print(f"threads: {threads} for sgk, onnxruntime (intra-op), OpenVINO "
          f"(INFERENCE_NUM_THREADS), torch; numpy is single-threaded")
    print(f"scale {scale}, warm-up {warmup}, up to {reps} timed calls (budget {budget:g} s "
          f"per implementation and workload), "
          f"{'one process per implementation' if args.isolate else 'all in one process'}; "
          f"every buffer {ALIGN}-byte aligned")
    for w in workloads:
        print(f"  {w.name:<28} {w.description}; minimal traffic {w.traffic / 2**20:.2f} MiB")
    print(flush=True)

    rounds = []  # per round, each implementation's records
    sub_argv = child_argv(args, scale, reps, warmup, budget, threads)
    for k in range(max(1, args.rounds)):
        by_impl = {}
        for impl in impls if k % 2 == 0 else impls[::-1]:
            print(f"[{impl}]" + (f" round {k + 1}" if args.rounds > 1 else ""),
                  file=sys.stderr, flush=True)
            try:
                if args.isolate:
                    by_impl[impl] = run_isolated(impl, sub_argv, 600 if args.quick else 7200)
                else:
                    by_impl[impl] = run_impl(impl, workloads, threads, warmup, reps, budget)
            except Exception as exc:  # noqa: BLE001 - a crashed or hung peer is reported
                note = " ".join(str(exc).split())[:240]
                by_impl[impl] = [{"workload": w.name, "impl": impl, "status": "error",
                                  "note": f"{type(exc).__name__}: {note}"} for w in workloads]
        rounds.append(by_impl)

    foreign = load.fraction()
    records = []
    for w in workloads:
        crc = fingerprint(w)
        # rows[impl][k]: impl's record for w in round k
        rows = {i: [next(r for r in rnd[i] if r["workload"] == w.name) for rnd in rounds]
                for i in impls}
        sgk_ok = "sgk" in rows and all(r["status"] == "ok" for r in rows["sgk"])
        for impl in impls:
            rs = rows[impl]
            rec = {"workload": w.name, "impl": impl, "median_ms": None, "min_ms": None,
                   "max_ms": None, "of_copy": None, "speedup_of_sgk": None,
                   "matches_sgk": None, "threads": threads, "note": "", "status": "ok",
                   "reps": 0}
            # a round that failed, or whose result disagreed with sgk's, speaks
            # for the whole run
            rec.update(next((r for r in rs if r["status"] != "ok"),
                            next((r for r in rs if r.get("matches_sgk") is False), rs[0])))
            if any(r.get("inputs_crc32", crc) != crc for r in rs):
                rec.update(status="error", note="ran on different inputs (CRC mismatch)")
            if rec["status"] == "ok":
                rec.update(median_ms=statistics.median(r["median_ms"] for r in rs),
                           min_ms=min(r["min_ms"] for r in rs),
                           max_ms=max(r["max_ms"] for r in rs),
                           reps=sum(r["reps"] for r in rs),
                           round_medians_ms=[r["median_ms"] for r in rs])
                med = rec["median_ms"] / 1e3
                rec["of_copy"] = (w.traffic / med) / copy_bw
                if sgk_ok:
                    ratios = [r["median_ms"] / s["median_ms"] for r, s in zip(rs, rows["sgk"])]
                    rec.update(speedup_of_sgk=statistics.median(ratios), speedup_rounds=ratios)
            rec.update(traffic_bytes=w.traffic, copy_bw_bytes_per_s=copy_bw, scale=scale,
                       description=w.description, inputs_crc32=crc, foreign_load=foreign,
                       rounds=len(rounds))
            records.append(rec)

    print_table(records)
    if len(rounds) > 1:
        print("\nsgk's speedup in each round (peer median / sgk median of the same round):")
        for r in records:
            if r["impl"] != "sgk" and r.get("speedup_rounds"):
                print(f"  {r['workload']:<26} {r['impl']:<12} "
                      + " ".join(f"{x:.2f}x" for x in r["speedup_rounds"]))
    if foreign is not None:
        print(f"\nother processes used {100 * foreign:.0f}% of the CPUs during the run"
              + ("; figures are noisy, rerun on a quiet machine" if foreign > 0.05 else ""))
    disagreements = [r for r in records if r["matches_sgk"] is False]
    print(f"\n{len(disagreements)} result(s) disagree with sgk"
          + (":" if disagreements else "."))
    for r in disagreements:
        print(f"  {r['workload']} / {r['impl']}: {r['note']}")
    failed = [r for r in records if r["status"] != "ok"]
    if failed:
        print(f"{len(failed)} run(s) missing or failed (see the table)")
    if args.json:
        doc = dict(provenance, runtime=sgk.runtime_describe(), versions=versions(impls),
                   threads=threads, copy_gbps=copy_bw / 1e9, scale=scale, rounds=len(rounds),
                   records=records)
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
        print(f"wrote {args.json}")
    if args.markdown:
        write_markdown(records, args.markdown)
        print(f"wrote {args.markdown}")
    if args.png:
        try:
            draw_png(records, args.png,
                     f"sgk vs peers, {threads} threads, copy bandwidth "
                     f"{copy_bw / 1e9:.1f} GB/s, scale {scale}")
            print(f"wrote {args.png}")
        except ImportError as exc:
            print(f"no chart: matplotlib missing ({exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
