"""The Markdown tables of the benchmark results, shared by the harnesses
that print them (bench/peers.py --markdown, bench/compare-paths --markdown)
and by bench/performance-doc.py, which writes docs/performance.md from the
committed JSON.  Standard library only; every figure comes from the JSON,
and every function takes whatever workloads and variants a run has.

Each table function returns a list of lines.
"""
import re

DASH = "—"

# sgk-bench variants end in the way they were run: "plan", "oneshot", or
# "C loop" (the plain loop a tiny call is measured against).
PLAN, ONESHOT, C_LOOP = " plan", " oneshot", " C loop"


def records_of(doc):
    """The records of a peers.py or compare-paths run: a bare list in files
    written before the runs recorded where they came from, else the
    document's "records"."""
    return doc if isinstance(doc, list) else doc.get("records", [])


def fmt(x):
    return DASH if x is None else f"{x:.3g}"


# ---- bench/peers.py ----------------------------------------------------------

PEER_ORDER = ["sgk", "sgk_oneshot", "onnxruntime", "openvino", "torch", "numpy"]


def peer_impls(records):
    known = [i for i in PEER_ORDER if any(r["impl"] == i for r in records)]
    return known + [i for i in dict.fromkeys(r["impl"] for r in records) if i not in known]


def peers_caption(records):
    """What the cells are, from the records themselves."""
    ok = [r for r in records if r.get("status") == "ok"]
    r = next((r for r in ok if r["impl"] == "sgk"), ok[0] if ok else {})
    rounds = r.get("rounds", 1) or 1
    text = "Median ms, of_copy and sgk's speedup (peer time / sgk time"
    if rounds > 1:
        text += (f"; medians over {rounds} rounds, speedups the median of the ratios "
                 "within each round")
    text += ")"
    if r.get("threads") is not None and r.get("copy_bw_bytes_per_s"):
        text += (f"; {r['threads']} threads, copy bandwidth "
                 f"{r['copy_bw_bytes_per_s'] / 1e9:.1f} GB/s")
    if r.get("scale") is not None:
        text += f", scale {r['scale']}"
    return text + "."


def peers_table(records):
    """Per workload, each implementation's median and of_copy, and sgk's
    speedup over it; "(differs)" where its result is not sgk's."""
    impls = peer_impls(records)
    lines = ["| workload | " + " | ".join(impls) + " |", "|---|" + "---|" * len(impls)]
    for wname in dict.fromkeys(r["workload"] for r in records):
        cells = []
        for impl in impls:
            r = next((r for r in records if r["workload"] == wname and r["impl"] == impl), None)
            if r is None or r["status"] != "ok":
                cells.append(DASH if r is None else r["status"])
                continue
            cell = f"{r['median_ms']:.3g} ms, {r['of_copy']:.2f}"
            if impl != "sgk" and r.get("speedup_of_sgk") is not None:
                cell += f", sgk {r['speedup_of_sgk']:.2g}×"
            if r.get("matches_sgk") is False:
                cell += " (differs)"
            cells.append(cell)
        lines.append(f"| {wname} | " + " | ".join(cells) + " |")
    return lines


def peers_workloads(records):
    """Each workload's description and minimal traffic, as the run stated them."""
    lines = ["| workload | what it is | minimal traffic |", "|---|---|---|"]
    for wname in dict.fromkeys(r["workload"] for r in records):
        r = next(r for r in records if r["workload"] == wname)
        traffic = r.get("traffic_bytes")
        lines.append(f"| {wname} | {r.get('description') or 'not recorded'} | "
                     + (f"{traffic / 2**20:.2f} MiB" if traffic else "not recorded") + " |")
    return lines


# ---- bench/sgk-bench -----------------------------------------------------------

def by_key(run):
    return {(r["workload"], r["variant"]): r for r in run["results"]} if run else {}


def planning(note):
    m = re.search(r"planning ([0-9.e-]+) ms = ([0-9.e-]+) executions", note or "")
    return f"{float(m.group(1)):.3g} ({float(m.group(2)):.2g}×)" if m else DASH


# A C loop shorter than this (ms) measures a call's fixed cost (the
# tiny-calls table); a longer one, a gather of random rows, memory latency.
SHORT_LOOP_MS = 0.1


def tiny_workloads(run):
    """Workloads made only of tiny calls (every variant measured against a
    short plain C loop): their times belong in the tiny-calls table alone."""
    loops = {(r["workload"], r["variant"][:-len(C_LOOP)])
             for r in run["results"]
             if r["variant"].endswith(C_LOOP) and r["median_ms"] < SHORT_LOOP_MS}
    out = set()
    for w in dict.fromkeys(r["workload"] for r in run["results"]):
        bases = {strip_mode(r["variant"]) for r in run["results"] if r["workload"] == w}
        if all((w, b) in loops for b in bases):
            out.add(w)
    return out


def strip_mode(variant):
    for end in (PLAN, ONESHOT, C_LOOP):
        if variant.endswith(end):
            return variant[:-len(end)]
    return variant


def threads_label(run, default):
    if not run:
        return default
    return f"{run['threads']} thread{'s' if run['threads'] != 1 else ''}"


def sgk_bench_rows(plan, one=None, shot=None):
    """One dict per reused-plan variant of the plan run: the figures of the
    main table, None where a run or a variant is missing."""
    one_k, shot_k = by_key(one), by_key(shot)
    tiny = tiny_workloads(plan)
    rows = []
    for r in plan["results"]:
        if r["workload"] in tiny or not r["variant"].endswith(PLAN):
            continue
        key = (r["workload"], r["variant"])
        shot_key = (r["workload"], r["variant"][:-len(PLAN)] + ONESHOT)
        s, o = shot_k.get(shot_key), one_k.get(key)
        floor = s.get("floor_ms") if s else None
        rows.append({
            "workload": r["workload"], "variant": r["variant"],
            "ms": r["median_ms"], "of_copy": r["of_copy"], "floor": r.get("floor_of_copy"),
            "planning": planning(r.get("note")),
            "one_thread_ms": o["median_ms"] if o else None,
            "oneshot_ms": s["median_ms"] if s else None,
            "oneshot_of_floor": floor / s["median_ms"] if s and floor else None,
            "oneshot_speedup": s.get("speedup_from_1_thread") if s else None,
        })
    return rows


def sgk_bench_table(plan, one=None, shot=None):
    """The reused plan's time, of_copy and floor, its planning time, the
    time at one thread, and the one-shot call's time, the fraction of its
    own traffic floor it reaches and its speedup from one thread to the
    run's count (timed in alternation in the one-shot run)."""
    many, single = threads_label(plan, "threads"), threads_label(one, "1 thread")
    shot_many = threads_label(shot, many)
    lines = [f"| workload | variant | {many} ms | of_copy | floor | planning ms (executions) "
             f"| {single} ms | one-shot ms | one-shot / floor | "
             f"one-shot 1 thread → {shot_many} |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for x in sgk_bench_rows(plan, one, shot):
        lines.append(
            f"| {x['workload']} | {x['variant']} | {fmt(x['ms'])} | {fmt(x['of_copy'])} | "
            f"{fmt(x['floor'])} | {x['planning']} | {fmt(x['one_thread_ms'])} | "
            f"{fmt(x['oneshot_ms'])} | {fmt(x['oneshot_of_floor'])} | "
            + (f"{fmt(x['oneshot_speedup'])}×" if x["oneshot_speedup"] else DASH) + " |")
    return lines


def loop_rows(shot, short=True):
    """Every variant measured against a short plain C loop (or, short
    False, a long one), as (name, one-shot, reused plan, C loop) records of
    the one-shot run: the workloads made only of tiny calls first, then the
    others, each in the run's order."""
    k = by_key(shot)
    tiny = tiny_workloads(shot)
    rows = []
    for (w, v), loop in k.items():
        if not v.endswith(C_LOOP) or (w, v[:-len(C_LOOP)] + ONESHOT) not in k:
            continue
        if (loop["median_ms"] < SHORT_LOOP_MS) != short:
            continue
        base = v[:-len(C_LOOP)]
        rows.append((w not in tiny, base if w in tiny else f"{w} {base}",
                     k[(w, base + ONESHOT)], k.get((w, base + PLAN)), loop))
    rows.sort(key=lambda r: r[0])  # stable: the run's order within each group
    return [r[1:] for r in rows]


def tiny_table(shot):
    lines = ["| call | one-shot ns | reused plan ns | C loop ns | one-shot / C loop |",
             "|---|---|---|---|---|"]

    def ns(r):
        return f"{r['median_ms'] * 1e6:.0f}" if r else DASH

    for name, s, p, c in loop_rows(shot):
        lines.append(f"| {name} | {ns(s)} | {ns(p)} | {ns(c)} | "
                     f"{s['median_ms'] / c['median_ms']:.1f}× |")
    return lines


def loop_table(shot):
    """The gathers measured against the plain loop a caller would write."""
    lines = ["| gather | one-shot ms | C loop ms | one-shot / C loop | one-shot / floor "
             "| C loop / floor |", "|---|---|---|---|---|---|"]
    for name, s, _, c in loop_rows(shot, short=False):
        def of_floor(r, floor=s.get("floor_ms")):
            return f"{floor / r['median_ms']:.2f}" if floor else DASH
        lines.append(f"| {name} | {s['median_ms']:.3g} | {c['median_ms']:.3g} | "
                     f"{s['median_ms'] / c['median_ms']:.2f}× | {of_floor(s)} | {of_floor(c)} |")
    return lines


def callers_groups(run):
    """{(workload, backend): {callers: record}} of a --callers run."""
    groups = {}
    for r in run["results"]:
        m = re.match(r"(.*), (\d+) callers?$", r["variant"])
        if m:
            groups.setdefault((r["workload"], m.group(1)), {})[int(m.group(2))] = r
    return groups


def callers_ratios(run):
    """(workload, backend, callers, throughput over one caller's), callers > 1."""
    return [(w, backend, n, r["gbps"] / g[1]["gbps"])
            for (w, backend), g in callers_groups(run).items()
            for n, r in g.items() if n > 1 and 1 in g and g[1]["gbps"]]


def callers_table(run):
    """Per workload and parallel backend: one caller's time per call, and
    the aggregate throughput of N callers over one caller's."""
    groups = callers_groups(run)
    counts = sorted({n for g in groups.values() for n in g if n > 1})
    ratios = {(w, b, n): x for w, b, n, x in callers_ratios(run)}
    lines = ["| workload | parallel loops on | 1 caller ms per call | "
             + " | ".join(f"{n} callers" for n in counts) + " |",
             "|---|---|---|" + "---|" * len(counts)]
    for (w, backend), g in groups.items():
        cells = [f"{ratios[w, backend, n]:.2f}×" if (w, backend, n) in ratios else DASH
                 for n in counts]
        lines.append(f"| {w} | {backend} | {fmt(g[1]['median_ms']) if 1 in g else DASH} | "
                     + " | ".join(cells) + " |")
    return lines


# ---- bench/compare-paths -------------------------------------------------------

COMPARE_CONFIGS = ["auto", "sorted", "serial", "atomic-reorder"]


def compare_paths_table(records):
    """Median ms per workload and mode, one column a path, named as the
    workload's plan names it.  A one-shot call under auto takes its own
    path (direct, binned, lines, ranges), which only SGK_VERBOSE shows:
    those cells name none."""
    configs = [c for c in COMPARE_CONFIGS if any(r["config"] == c for r in records)]
    configs += [c for c in dict.fromkeys(r["config"] for r in records) if c not in configs]
    lines = ["| workload | mode | " + " | ".join(configs) + " |",
             "|---|---|" + "---|" * len(configs)]
    for mode in dict.fromkeys(r["mode"] for r in records):
        for w in dict.fromkeys(r["workload"] for r in records):
            cells = []
            for c in configs:
                r = [x for x in records if x["workload"] == w and x["mode"] == mode
                     and x["config"] == c]
                name = "" if mode == "oneshot" and c == "auto" else \
                    f" ({r[0]['path']})" if r else ""
                cells.append(f"{r[0]['median_ms']:.3g}{name}" if r else DASH)
            lines.append(f"| {w} | {'one-shot' if mode == 'oneshot' else mode} | "
                         + " | ".join(cells) + " |")
    return lines
