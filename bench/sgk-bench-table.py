#!/usr/bin/env python3
"""Prints the README's sgk-bench table from the committed JSON of three runs.

    bench/sgk-bench-table.py [bench/results]

reads sgk-bench.json (2 threads, reused plans), sgk-bench-1thread.json,
sgk-bench-oneshot.json and sgk-bench-oneshot-1thread.json from that folder
and prints, per workload variant, the reused plan's time, of_copy and
floor, its planning time, the time at one thread, and the one-shot call's
time, the fraction of its own traffic floor it reaches (the floor counting
the caller's int64 index read once) and its speedup from 1 to 2 threads.
Standard library only; every figure comes from the JSON.
"""
import json
import os
import re
import sys


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def by_key(run):
    return {(r["workload"], r["variant"]): r for r in run["results"]}


def fmt(x):
    return "—" if x is None else f"{x:.3g}"


def planning(note):
    m = re.search(r"planning ([0-9.e-]+) ms = ([0-9.e-]+) executions", note or "")
    return f"{float(m.group(1)):.3g} ({float(m.group(2)):.2g}×)" if m else "—"


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results")
    plan, one, shot, shot1 = (load(folder, n) for n in
                              ("sgk-bench.json", "sgk-bench-1thread.json",
                               "sgk-bench-oneshot.json", "sgk-bench-oneshot-1thread.json"))
    one_k, shot_k, shot1_k = by_key(one), by_key(shot), by_key(shot1)
    print(f"Copy bandwidth {plan['copy_gbps']:.1f} GB/s (2 threads), "
          f"{one['copy_gbps']:.1f} GB/s (1 thread), {shot['copy_gbps']:.1f} GB/s "
          f"(one-shot run); {plan['machine']}.\n")
    print("| workload | variant | 2 threads ms | of_copy | floor | planning ms (executions) "
          "| 1 thread ms | one-shot ms | one-shot / floor | one-shot 1 → 2 threads |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in plan["results"]:
        if r["workload"] == "tiny" or "C loop" in r["variant"] or "oneshot" in r["variant"]:
            continue
        key = (r["workload"], r["variant"])
        shot_variant = r["variant"].replace("plan", "oneshot")
        s = shot_k.get((r["workload"], shot_variant))
        o = one_k.get(key)
        s1 = shot1_k.get((r["workload"], shot_variant))
        floor = s.get("floor_ms") if s else None
        print(f"| {r['workload']} | {r['variant']} | {fmt(r['median_ms'])} | "
              f"{fmt(r['of_copy'])} | {fmt(r.get('floor_of_copy'))} | {planning(r['note'])} | "
              f"{fmt(o['median_ms']) if o else '—'} | {fmt(s['median_ms']) if s else '—'} | "
              f"{fmt(floor / s['median_ms']) if s and floor else '—'} | "
              f"{fmt(s1['median_ms'] / s['median_ms']) + '×' if s and s1 else '—'} |")
    print("\nTiny calls (one-shot run): time per call, and over the plain C loop's\n")
    print("| operator | one-shot ns | reused plan ns | C loop ns | one-shot / C loop |")
    print("|---|---|---|---|---|")
    tiny = {r["variant"]: r for r in shot["results"] if r["workload"] == "tiny"}
    kv = {r["variant"]: r for r in shot["results"] if r["workload"] == "kv_cache_token"}
    rows = [(v.rsplit(" ", 1)[0], tiny[v], tiny.get(v.replace("oneshot", "plan")),
             tiny.get(v.replace("oneshot", "C loop"))) for v in tiny if v.endswith("oneshot")]
    for t in ("f32", "f16"):
        if f"{t} in-place oneshot" in kv:
            rows.append((f"kv_cache_token {t} in place", kv[f"{t} in-place oneshot"],
                         kv.get(f"{t} in-place plan"), kv.get(f"{t} in-place C loop")))
    for name, s, p, c in rows:
        ns = lambda r: f"{r['median_ms'] * 1e6:.0f}" if r else "—"
        ratio = f"{s['median_ms'] / c['median_ms']:.1f}×" if c else "—"
        print(f"| {name} | {ns(s)} | {ns(p)} | {ns(c)} | {ratio} |")


if __name__ == "__main__":
    main()
