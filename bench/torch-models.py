#!/usr/bin/env python3
"""PyTorch workloads of the patterns sgk is for, run by plain PyTorch and by
PyTorch with sgk.torch enabled, alternated in one run on the same inputs,
2 intra-op threads (torch.set_num_threads): the median time of each, their
ratio, and whether the results agree.

Workloads (inputs from a fixed seed):
  gnn_sum / gnn_mean / gnn_max
                      a GraphSAGE layer, forward and backward: messages
                      x[src] (index_select), aggregated into destinations
                      with scatter_reduce over index.view(-1, 1).expand_as
                      (the PyG layout; include_self=False), a linear
                      layer; 50k nodes, 500k random edges, 64 features
  embedding_step      an embedding training step: nn.Embedding 100k x 128,
                      16k ids, forward, backward (embedding_dense_backward),
                      SGD update
  kv_cache_write      one decode token's keys written into a
                      [1, 32, 4096, 128] float16 cache with index_copy_
  logits_gather       gather of 64 x 2048 ids from [64, 32000] logits

The results of the two runs are compared (float sums within PyTorch's
tolerance: their order of accumulation differs, docs/semantics.md).  Writes
JSON (default bench/results/torch-models.json) and prints a table; --quick
uses small sizes and few repetitions, to check that it works.

    .venv/bin/python bench/torch-models.py [--quick] [--reps N] [--json PATH]
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402

import sgk.torch as sgk_torch  # noqa: E402


def gnn_layer(reduce, nodes, edges, features):
    g = torch.Generator().manual_seed(1)
    x0 = torch.randn(nodes, features, generator=g)
    src = torch.randint(0, nodes, (edges,), generator=g)
    dst = torch.randint(0, nodes, (edges,), generator=g)
    weight0 = torch.randn(2 * features, features, generator=g) / features ** 0.5

    def step():
        x = x0.clone().requires_grad_()
        weight = weight0.clone().requires_grad_()
        messages = x.index_select(0, src)
        index = dst.view(-1, 1).expand_as(messages)
        aggregated = torch.zeros(nodes, features).scatter_reduce(
            0, index, messages, reduce, include_self=False)
        out = torch.cat([x, aggregated], 1) @ weight
        out.relu().sum().backward()
        return out.detach(), x.grad, weight.grad
    return step


def embedding_step(rows, width, ids):
    g = torch.Generator().manual_seed(2)
    table = torch.randn(rows, width, generator=g)
    batch = torch.randint(0, rows, (ids,), generator=g)

    def step():
        emb = torch.nn.Embedding(rows, width)
        with torch.no_grad():
            emb.weight.copy_(table)
        opt = torch.optim.SGD(emb.parameters(), lr=0.1)
        loss = emb(batch).pow(2).sum()
        loss.backward()
        opt.step()
        return emb.weight.detach()
    return step


def kv_cache_write(heads, length, dim):
    cache = torch.zeros(1, heads, length, dim, dtype=torch.float16)
    token = torch.randn(1, heads, 1, dim).half()
    position = torch.tensor([length // 2])

    def step():
        cache.index_copy_(2, position, token)
        return cache[:, :, length // 2]
    return step


def logits_gather(batch, ids, vocab):
    g = torch.Generator().manual_seed(3)
    logits = torch.randn(batch, vocab, generator=g)
    index = torch.randint(0, vocab, (batch, ids), generator=g)

    def step():
        return logits.gather(1, index)
    return step


def workloads(quick):
    if quick:
        return {
            "gnn_sum": gnn_layer("sum", 2000, 20000, 16),
            "gnn_mean": gnn_layer("mean", 2000, 20000, 16),
            "gnn_max": gnn_layer("amax", 2000, 20000, 16),
            "embedding_step": embedding_step(5000, 32, 2000),
            "kv_cache_write": kv_cache_write(4, 256, 32),
            "logits_gather": logits_gather(8, 256, 4000),
        }
    return {
        "gnn_sum": gnn_layer("sum", 50_000, 500_000, 64),
        "gnn_mean": gnn_layer("mean", 50_000, 500_000, 64),
        "gnn_max": gnn_layer("amax", 50_000, 500_000, 64),
        "embedding_step": embedding_step(100_000, 128, 16_384),
        "kv_cache_write": kv_cache_write(32, 4096, 128),
        "logits_gather": logits_gather(64, 2048, 32000),
    }


def agree(a, b):
    if isinstance(a, tuple):
        return all(agree(x, y) for x, y in zip(a, b))
    return torch.allclose(a.float(), b.float(), rtol=1e-4, atol=1e-4)


def timed(step):
    start = time.perf_counter()
    result = step()
    return time.perf_counter() - start, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", default=os.path.join(HERE, "results", "torch-models.json"))
    args = parser.parse_args()
    reps = args.reps or (3 if args.quick else 15)
    torch.set_num_threads(args.threads)

    rows = []
    for name, step in workloads(args.quick).items():
        times = {"torch": [], "sgk": []}
        results = {}
        for rep in range(reps + 1):  # the first of each is a warm-up
            for variant in ("torch", "sgk") if rep % 2 == 0 else ("sgk", "torch"):
                if variant == "sgk":
                    sgk_torch.enable()
                seconds, results[variant] = timed(step)
                sgk_torch.disable()
                if rep:
                    times[variant].append(seconds)
        t, s = statistics.median(times["torch"]), statistics.median(times["sgk"])
        rows.append({"workload": name, "torch_ms": t * 1e3, "sgk_ms": s * 1e3,
                     "speedup": t / s, "agree": agree(results["sgk"], results["torch"])})
        print(f"{name:16s} torch {t * 1e3:9.3f} ms  sgk {s * 1e3:9.3f} ms  "
              f"x{t / s:5.2f}  {'agree' if rows[-1]['agree'] else 'DISAGREE'}", flush=True)

    counters = {op: c for op, c in sgk_torch.counters().items() if c["sgk"] or c["fallback"]}
    print(json.dumps(counters, indent=1))
    report = {"cpu": platform.processor() or platform.machine(), "torch": torch.__version__,
              "threads": args.threads, "reps": reps, "quick": args.quick, "rows": rows,
              "counters": counters}
    if not args.quick:
        os.makedirs(os.path.dirname(args.json), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
