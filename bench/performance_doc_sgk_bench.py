"""The sections of docs/performance.md on sgk alone, in C: sgk-bench's
runs, threads, concurrent callers, and the choice of a reduction path
(bench/performance-doc.py).  Standard library only."""
import bench_tables as T
from performance_doc_results import (CALLERS_RUN, FLOOR_NOTE_BELOW, NOT_RECORDED,
                                     PATHS_RUN, SGK_BENCH_RUNS, load, provenance, span)


BELOW_FLOOR_WHY = """\
Why a workload stays below its floor, in general: a deterministic scatter
applies each destination's updates in their original order, so its update
rows are read in the order of their destinations, at random, where the
floor reads them front to back; single-element scatters do index work
(mapping a tuple to a slot, grouping the pairs) per 4-byte element, which
costs more than moving it; and a one-shot call does that work on every
call, where a plan did it once. [Architecture](architecture.md) describes
each path."""


def workload_summaries(runs):
    out = {}
    for run in runs:
        if run:
            for w, text in (run.get("workloads") or {}).items():
                out.setdefault(w, text)
    return out


def workloads_table(names, summaries, hint=""):
    """What each workload is, as the run recorded it."""
    if not any(w in summaries for w in names):
        return [f"What each workload is: {NOT_RECORDED} in these files{hint}.", ""]
    return (["| workload | what it is |", "|---|---|"]
            + [f"| {w} | {summaries.get(w, NOT_RECORDED)} |" for w in names] + [""])


def sgk_bench_command(run, name):
    cmd = f"bench/sgk-bench --reps {run['reps']}"
    if run.get("threads") == 1:
        cmd += " --threads 1"
    if run.get("mode") == "oneshot":
        cmd += " --mode oneshot"
    if name == CALLERS_RUN:
        callers = [int(v.split(", ")[-1].split(" ")[0]) for v in
                   (r["variant"] for r in run["results"]) if ", " in v]
        cmd += f" --callers {max(callers)}" if callers else ""
    return cmd + f" --json bench/results/{name}"


def sgk_bench_notes(plan, one, shot, with_plans=True):
    """The page's notes under the main table; the README's leave out the plans'."""
    rows = T.sgk_bench_rows(plan, one, shot)
    repeated = {w for w in (x["workload"] for x in rows)
                if sum(x["workload"] == w for x in rows) > 1}
    for x in rows:  # name a variant where its workload has several
        x["label"] = (f"{x['workload']} {T.strip_mode(x['variant'])}"
                      if x["workload"] in repeated else x["workload"])
    lines = []
    plan_floor = [(x["label"], x["of_copy"] / x["floor"]) for x in rows if x["floor"]]
    if plan_floor and with_plans:
        low = sorted((f for f in plan_floor if f[1] < FLOOR_NOTE_BELOW), key=lambda f: f[1])
        lines.append(f"- **Reused plans** reach {span([f for _, f in plan_floor])} of their "
                     "floor (of_copy / floor"
                     + ("; above 1 where bytes stayed in cache or fewer were read than the "
                        "minimal traffic counts" if max(f for _, f in plan_floor) > 1 else "")
                     + ")" + ("; below " + f"{FLOOR_NOTE_BELOW:g}: "
                              + ", ".join(f"{w} {f:.2f}" for w, f in low) if low else "")
                     + ".")
    shot_floor = [(x["label"], x["oneshot_of_floor"]) for x in rows if x["oneshot_of_floor"]]
    if shot_floor:
        low = sorted((f for f in shot_floor if f[1] < FLOOR_NOTE_BELOW), key=lambda f: f[1])
        lines.append(f"- **One-shot calls** reach {span([f for _, f in shot_floor])} of their "
                     "own floor (which counts the caller's int64 index read once)"
                     + ("; below " + f"{FLOOR_NOTE_BELOW:g}: "
                        + ", ".join(f"{w} {f:.2f}" for w, f in low) if low else "") + ".")
    scaling = [x["oneshot_speedup"] for x in rows if x["oneshot_speedup"] and x["floor"]]
    if scaling:
        lines.append(f"- From 1 thread to {T.threads_label(shot, 'more')}, timed in "
                     "alternation in the same run, the copying and gathering one-shot calls "
                     f"speed up {span(scaling)}×.")
    return lines


def tiny_notes(shot):
    rows = T.loop_rows(shot)
    if not rows:
        return []
    extra = [(s["median_ms"] - c["median_ms"]) * 1e6 for _, s, _, c in rows]
    ratio = [s["median_ms"] / c["median_ms"] for _, s, _, c in rows]
    plans = [p["median_ms"] / c["median_ms"] for _, _, p, c in rows if p]
    # A one-shot call whose moves beat the loop's costs less than the loop.
    difference = (f"{span(extra, 0)} ns more" if min(extra) >= 0 else
                  f"from {-min(extra):.0f} ns less, where sgk's moves beat the loop's, "
                  f"to {max(extra):.0f} ns more")
    text = (f"- A one-shot call costs {span(ratio, 1)}× the plain C loop doing the same "
            f"work ({difference}: shape checks, the path choice and the index check)")
    if plans:
        text += f"; a reused plan {span(plans, 1)}×"
    return [text + "."]


def sgk_bench_section(folder):
    runs = [load(folder, n) for n in SGK_BENCH_RUNS]
    plan, one, shot = runs
    if plan is None:
        return [], []
    used = [n for n, r in zip(SGK_BENCH_RUNS, runs) if r is not None]
    out = ["## sgk alone, in C", "",
           "`bench/sgk-bench` times every workload of its suite through the C API: reused "
           "plans with the machine's threads and with one, and one-shot calls with the "
           "machine's threads (those that copy or gather also at one thread, in alternation). "
           "*Planning* is the median time to make and free the plan, in brackets over one "
           "execution; *one-shot / floor* is the one-shot call's own traffic floor over its "
           "time (1: the call runs at the speed of memory).", ""]
    for name, run in zip(SGK_BENCH_RUNS, runs):
        if run is not None:
            out += [f"- {provenance(run, name, folder)} Copy bandwidth "
                    f"{run['copy_gbps']:.1f} GB/s, {T.threads_label(run, '')}, mode {run['mode']}: "
                    f"`{sgk_bench_command(run, name)}`"]
    out += [""]
    out += workloads_table(list(dict.fromkeys(r["workload"] for r in plan["results"])),
                           workload_summaries(runs), "; `bench/sgk-bench --list` prints it")
    out += T.sgk_bench_table(plan, one, shot) + [""]
    out += sgk_bench_notes(plan, one, shot) + [""]
    out += [BELOW_FLOOR_WHY, ""]
    if shot is not None and T.loop_rows(shot):
        out += ["### Tiny calls", "",
                "From the one-shot run (`sgk-bench-oneshot.json`): the time per call of the "
                "calls measured against a plain C loop doing the same work.", ""]
        out += T.tiny_table(shot) + [""] + tiny_notes(shot) + [""]
    if shot is not None and T.loop_rows(shot, short=False):
        out += ["### Gathers against the plain loop", "",
                "A gather of short random rows waits on memory latency; the traffic floor, "
                "which reads the same bytes front to back, does not. From the one-shot run: "
                "each gather whose index holds one value a row, against the loop a caller "
                "would write (`bench/workload_gather.c`: the rows copied on the same threads, "
                "nothing checked), and each one's fraction of the one-shot call's floor.", ""]
        out += T.loop_table(shot) + [""]
    return out, used


def threads_section(folder):
    """How to count work at many threads: a method, no figures (callgrind's
    counts are not kept in bench/results)."""
    del folder
    return ["## Work at many threads", "",
            "A 2-core machine cannot time 16 or 64 threads, but it can count their work: "
            "`bench/thread-callgrind` runs one one-shot call of each of "
            "`bench/thread-work.c`'s operators (element scatters and gathers of 1M indices, "
            "row scatters and gathers of 64k rows) under callgrind at 1, 16 and 64 threads "
            "(`SGK_NUM_THREADS`, `OMP_WAIT_POLICY=passive`), counts the instructions of every "
            "thread together, and prints each count over 1 thread's. Work that grows with the "
            "threads is work a many-core server pays for in time. Valgrind runs Highway's AVX2 "
            "target (it has no AVX-512). `bench/thread-callgrind bench/thread-work 1 2 16 64` "
            "names other thread counts.", ""], []


def callers_section(folder):
    run = load(folder, CALLERS_RUN)
    if run is None:
        return [], []
    out = ["## Concurrent callers", "",
           "A server calls sgk from many request threads at once. `sgk-bench --callers N` "
           "times 1, 2, 4 … N threads making one-shot calls in a loop, each on its own "
           "output, with sgk's loops on OpenMP and on the test suite's pthreads pool "
           "(`tests/support/host_pool.c`, which runs one parallel loop at a time, installed with "
           "`sgk_set_parallel_backend`). Cells: the callers' aggregate throughput over one "
           "caller's.", "",
           f"{provenance(run, CALLERS_RUN, folder)} Copy bandwidth {run['copy_gbps']:.1f} GB/s, "
           f"{T.threads_label(run, '')}.", "",
           "```sh", sgk_bench_command(run, CALLERS_RUN), "```", ""]
    out += workloads_table(list(dict.fromkeys(r["workload"] for r in run["results"])),
                           run.get("workloads") or {})
    out += T.callers_table(run) + [""]
    ratios = T.callers_ratios(run)
    if ratios:
        worst = min(ratios, key=lambda x: x[3])
        out += [f"- More callers than one move {span([x[3] for x in ratios])}× one caller's "
                f"bytes per second; the lowest, {worst[3]:.2f}×, is {worst[0]} on "
                f"{worst[1]} with {worst[2]} callers.", ""]
    return out, [CALLERS_RUN]


# ---- choosing a reduction path ------------------------------------------------------

def paths_notes(records):
    lines = []
    for mode in dict.fromkeys(r["mode"] for r in records):
        label = "one-shot calls" if mode == "oneshot" else "reused plans"
        rs = [r for r in records if r["mode"] == mode]
        behind, ratios = [], []
        for w in dict.fromkeys(r["workload"] for r in rs):
            mine = [r for r in rs if r["workload"] == w]
            auto = next((r for r in mine if r["config"] == "auto"), None)
            best = min(mine, key=lambda r: r["median_ms"])
            if auto and best is not auto and best["median_ms"] < 0.98 * auto["median_ms"]:
                behind.append(f"{w}: {best['config']} {best['median_ms']:.3g} ms against "
                              f"auto {auto['median_ms']:.3g} ms")
            det = [r for r in mine if r.get("ordered") and r["config"] in ("auto", "sorted")]
            reo = [r for r in mine if r.get("ordered") is False]
            if det and reo:
                ratios.append(min(r["median_ms"] for r in det) /
                              min(r["median_ms"] for r in reo))
        text = f"- **{label.capitalize()}**: " + (
            "`auto` is the fastest path, or within 2% of it, on every workload"
            if not behind else "a forced path beats `auto` on " + "; ".join(behind))
        if ratios:
            text += (f". The fastest order-keeping path (auto or sorted) takes "
                     f"{span(ratios)} of the time of the fastest reordering one")
        lines.append(text + ".")
    return lines


def paths_section(folder):
    doc = load(folder, PATHS_RUN)
    if doc is None:
        return [], []
    records = T.records_of(doc)
    reps = doc.get("reps") if isinstance(doc, dict) else None
    out = ["## Choosing a reduction path", "",
           "`bench/compare-paths` runs the duplicate-carrying scatter workloads once per "
           "path, forced through `SGK_REDUCE_PATH` (reordering allowed for the atomic path), "
           "as reused plans and as one-shot calls. Cells: median ms; a path in brackets is "
           "the one the workload's plan names; under `auto` a one-shot call takes a path of "
           "its own (direct, binned, lines or ranges), which only `SGK_VERBOSE=1` shows. "
           "How the planner chooses is in [tuning](tuning.md), \"Choosing a reduction "
           "path\".", "",
           provenance(doc, PATHS_RUN, folder)
           + (f" Copy bandwidth {records[0]['copy_gbps']:.1f} GB/s." if records and
              records[0].get("copy_gbps") else ""), "",
           "```sh", "bench/compare-paths" + (f" --reps {reps}" if reps else "")
           + f" --json bench/results/{PATHS_RUN}", "```", ""]
    out += T.compare_paths_table(records) + [""] + paths_notes(records) + [""]
    return out, [PATHS_RUN]
