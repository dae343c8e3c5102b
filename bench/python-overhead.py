#!/usr/bin/env python3
"""The Python binding's per-call cost on tiny operations, against NumPy's
equivalent, in one run.

On an operation of a few KiB the library's own work is a fraction of a
microsecond, so a call's time is mostly the binding's overhead: what
issue #18 bounds (at most 2 us through the one-shot functions, at most 1 us
through Plan.execute).  Each workload is timed as

  sgk_oneshot      sgk.<op>(...) returning a new array (not in place)
  sgk_oneshot_out  sgk.<op>(..., out=...) (in place for scatters)
  sgk_plan         plan.execute(..., out=...) on a plan made once
  numpy            NumPy's equivalent (fancy indexing, ufunc.at,
                   take_along_axis, put_along_axis, take, slice assignment)
  python_call      a Python function of as many arguments doing nothing:
                   the interpreter's own floor

and, with --ctypes-baseline REV (by default the last commit whose binding
was ctypes), the same sgk calls through that revision's python/sgk, in a
process of its own on this build's libsgk: the cost the extension module
removed (for the operators that revision has).  Every implementation's result is checked against NumPy's once
before timing.  The rounds interleave the implementations, so that a slow
spell of a shared machine does not fall on one alone; a figure is the
median over the rounds of the mean time of --calls calls.

    .venv/bin/python bench/python-overhead.py                 # after make
    .venv/bin/python bench/python-overhead.py --quick --json /tmp/x.json

Writes bench/results/python-overhead.json (machine, date, commit, versions,
then one row per workload and implementation) unless --json says where.
The workloads are made in python_overhead_workloads.py.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

import numpy as np

from python_overhead_workloads import make_workloads

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# The last commit whose python/sgk called libsgk through ctypes.
LAST_CTYPES_BINDING = "c3578fc"
SGK_IMPLS = ["sgk_oneshot", "sgk_oneshot_out", "sgk_plan"]
IMPLS = SGK_IMPLS + ["numpy", "python_call"]
TARGET_US = {"sgk_oneshot": 2.0, "sgk_oneshot_out": 2.0, "sgk_plan": 1.0}


# ---- timing ------------------------------------------------------------------

def per_call_us(run, calls):
    """Mean time of one call over `calls` calls, in microseconds."""
    start = time.perf_counter_ns()
    for _ in range(calls):
        run()
    return (time.perf_counter_ns() - start) / calls / 1000.0


def measure(workloads, impls, sgk, calls, rounds):
    """{(workload, impl): {"rounds_us": [...], "matches_numpy": bool}}."""
    runs = {}
    results = {}
    for w in workloads:
        want = w.numpy_result()
        for impl in filter(w.serves, impls):
            run, result = w.setup(impl, sgk)
            run()  # warm up; in place, the result is checked after one call
            got = result()
            ok = None if got is None else (got.shape == want.shape
                                           and got.tobytes() == want.tobytes())
            runs[w.name, impl] = run
            results[w.name, impl] = {"rounds_us": [], "matches_numpy": ok}
    for r in range(rounds):
        order = list(runs) if r % 2 == 0 else list(reversed(runs))
        for key in order:
            results[key]["rounds_us"].append(per_call_us(runs[key], calls))
    return results


# ---- the ctypes baseline -------------------------------------------------------

def ctypes_baseline(rev, calls, rounds, library):
    """The sgk rows of revision rev's python/sgk, measured by this script in
    a process of its own; (impl prefix, rows) or (None, reason)."""
    with tempfile.TemporaryDirectory(prefix="sgk-ctypes-") as tmp:
        archive = os.path.join(tmp, "python.tar")
        try:
            subprocess.run(["git", "-C", REPO, "archive", "-o", archive, rev, "python/sgk"],
                           check=True, capture_output=True)
            with tarfile.open(archive) as tar:
                tar.extractall(tmp)
        except (OSError, subprocess.CalledProcessError) as exc:
            return None, f"could not take python/sgk at {rev}: {exc}"
        env = dict(os.environ, SGK_LIBRARY=library)
        env.pop("SGK_BUILD_DIR", None)
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                               os.path.join(tmp, "python"), "--calls", str(calls),
                               "--rounds", str(rounds)],
                              env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            return None, f"the {rev} binding failed: {proc.stderr.strip()[-400:]}"
        return f"ctypes_{rev}", json.loads(proc.stdout)


# ---- report ------------------------------------------------------------------

def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{model}; {os.cpu_count()} logical cpus; {platform.system()} "
            f"{platform.release()} {platform.machine()}")


def commit():
    try:
        head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"],
                              check=True, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               check=True, capture_output=True, text=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def rows_of(workloads, results, impl_names=None):
    rows = []
    for w in workloads:
        numpy_us = statistics.median(results[w.name, "numpy"]["rounds_us"]) \
            if (w.name, "numpy") in results else None
        for (name, impl), r in results.items():
            if name != w.name:
                continue
            us = statistics.median(r["rounds_us"])
            rows.append({
                "workload": w.name, "description": w.description, "op": w.op,
                "operand_bytes": w.operand_bytes(),
                "impl": (impl_names or {}).get(impl, impl),
                "per_call_us": us, "min_us": min(r["rounds_us"]), "max_us": max(r["rounds_us"]),
                "rounds_us": r["rounds_us"],
                "vs_numpy": us / numpy_us if numpy_us else None,
                "target_us": TARGET_US.get(impl),
                "matches_numpy": r["matches_numpy"],
            })
    return rows


def print_table(rows):
    print(f"{'workload':28} {'impl':32} {'us/call':>8} {'min':>7} {'max':>7} "
          f"{'x numpy':>8}  check")
    for r in rows:
        vs = f"{r['vs_numpy']:.2f}" if r["vs_numpy"] is not None else "-"
        check = {True: "ok", False: "DIFFERS", None: "-"}[r["matches_numpy"]]
        target = r["target_us"]
        if target is not None and r["per_call_us"] > target:
            check += f" (above {target:g} us)"
        print(f"{r['workload']:28} {r['impl']:32} {r['per_call_us']:8.3f} {r['min_us']:7.3f} "
              f"{r['max_us']:7.3f} {vs:>8}  {check}")


def import_sgk(package_dir):
    sys.path.insert(0, package_dir)
    import sgk
    return sgk


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=20000, help="calls per timed round")
    ap.add_argument("--rounds", type=int, default=9, help="timed rounds per implementation")
    ap.add_argument("--quick", action="store_true", help="2000 calls, 3 rounds: a smoke test")
    ap.add_argument("--json", default=os.path.join(HERE, "results", "python-overhead.json"),
                    help="where to write the results ('' for nowhere)")
    ap.add_argument("--ctypes-baseline", default=LAST_CTYPES_BINDING, metavar="REV",
                    help="also time revision REV's binding ('' to skip); default: the last "
                         "ctypes one")
    ap.add_argument("--worker", metavar="PACKAGE_DIR", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.quick:
        args.calls, args.rounds = 2000, 3

    workloads = make_workloads()
    if args.worker:  # the baseline's process: its sgk rows as JSON on stdout
        sgk = import_sgk(args.worker)
        present = [w for w in workloads if hasattr(sgk, w.op)]  # an older binding has fewer
        results = measure(present, SGK_IMPLS, sgk, args.calls, args.rounds)
        json.dump([[name, impl, r] for (name, impl), r in results.items()], sys.stdout)
        return 0

    sgk = import_sgk(os.path.join(REPO, "python"))
    print(f"sgk {sgk.version()} from {sgk.library_path()}; numpy {np.__version__}; "
          f"python {platform.python_version()}")
    print(f"{args.calls} calls per round, {args.rounds} rounds; {machine()}")
    results = measure(workloads, IMPLS, sgk, args.calls, args.rounds)
    baseline_note = "skipped"
    if args.ctypes_baseline:
        prefix, baseline = ctypes_baseline(args.ctypes_baseline, args.calls, args.rounds,
                                           sgk.library_path())
        if prefix is None:
            baseline_note = baseline
            print(f"ctypes baseline: {baseline}")
        else:
            baseline_note = f"python/sgk of {args.ctypes_baseline} on this build's libsgk"
            for name, impl, r in baseline:
                results[name, f"{prefix}:{impl}"] = r
    rows = rows_of(workloads, results)
    print_table(rows)
    report = {
        "benchmark": "python-overhead",
        "machine": machine(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "sgk": sgk.version(),
        "library": sgk.library_path(),
        "runtime": sgk.runtime_describe(),
        "calls_per_round": args.calls,
        "rounds": args.rounds,
        "ctypes_baseline": baseline_note,
        "targets_us": TARGET_US,
        "rows": rows,
    }
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        print(f"wrote {args.json}")
    failed = [r for r in rows if r["matches_numpy"] is False]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
