"""The output of bench/peers.py: its table on stdout, the markdown table of
docs/performance.md (through bench/bench_tables.py), the versions a run
records and the PNG chart.  Imported by bench/peers.py, which puts python/
on sys.path first.
"""
import sys

import sgk
from bench_tables import peers_caption, peers_table
from peer_setups import IMPLS


def print_table(records, out=sys.stdout):
    head = (f"{'workload':<26} {'impl':<12} {'median ms':>10} {'min ms':>9} {'max ms':>9} "
            f"{'of_copy':>8} {'sgk speedup':>11}  matches_sgk  note")
    print(head, file=out)
    print("-" * len(head), file=out)
    last = None
    for r in records:
        if last is not None and r["workload"] != last:
            print(file=out)
        last = r["workload"]
        if r["status"] != "ok":
            print(f"{r['workload']:<26} {r['impl']:<12} {r['status']:>10}  {r['note']}", file=out)
            continue
        sp = "" if r["speedup_of_sgk"] is None else f"{r['speedup_of_sgk']:.2f}x"
        m = {True: "yes", False: "NO", None: "-"}[r["matches_sgk"]]
        print(f"{r['workload']:<26} {r['impl']:<12} {r['median_ms']:>10.3f} {r['min_ms']:>9.3f} "
              f"{r['max_ms']:>9.3f} {r['of_copy']:>8.3f} {sp:>11}  {m:<11}  {r['note']}",
              file=out)


def write_markdown(records, path):
    """The table of docs/performance.md (bench/bench_tables.py): per
    workload, each implementation's median and of_copy, and sgk's speedup
    over it (peer time / sgk plan time)."""
    lines = [peers_caption(records), ""] + peers_table(records)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# distribution name of each peer, for the versions a run records
PACKAGES = {"onnxruntime": "onnxruntime", "openvino": "openvino", "torch": "torch",
            "numpy": "numpy"}


def versions(impls):
    """The version of sgk and of every peer package installed."""
    from importlib import metadata
    out = {"python": sys.version.split()[0], "sgk": sgk.version()}
    for impl in impls:
        if impl in PACKAGES:
            try:
                out[impl] = metadata.version(PACKAGES[impl])
            except metadata.PackageNotFoundError:
                out[impl] = "not installed"
    return out


def draw_png(records, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    workloads = list(dict.fromkeys(r["workload"] for r in records))
    impls = [i for i in IMPLS if any(r["impl"] == i and r["status"] == "ok" for r in records)]
    fig, ax = plt.subplots(figsize=(max(10, 1.3 * len(workloads)), 5.5))
    width = 0.8 / max(1, len(impls))
    colors = {"sgk": "#1f77b4", "sgk_oneshot": "#aec7e8", "onnxruntime": "#ff7f0e",
              "openvino": "#9467bd", "torch": "#d62728", "numpy": "#2ca02c"}
    for j, impl in enumerate(impls):
        xs, ys = [], []
        for i, wname in enumerate(workloads):
            for r in records:
                if r["workload"] == wname and r["impl"] == impl and r["status"] == "ok":
                    xs.append(i + (j - (len(impls) - 1) / 2) * width)
                    ys.append(max(r["of_copy"], 1e-4))
        ax.bar(xs, ys, width, label=impl, color=colors.get(impl))
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.text(len(workloads) - 0.5, 1.0, " copy bandwidth", va="bottom", ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("of_copy = (minimal traffic / median time) / copy bandwidth")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=len(impls), loc="upper center", bbox_to_anchor=(0.5, -0.28))
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
