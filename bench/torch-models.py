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
  pyg_sage_max        (when torch_geometric imports) PyG's SAGEConv with
                      max aggregation on the GNN layers' graph, forward
                      and backward: PyG's own scatter, as a model runs it
  llama_decode        (when transformers imports) one decode step of a
                      tiny LlamaForCausalLM with random weights, built
                      from a LlamaConfig (nothing downloaded), into a
                      StaticCache (index_copy_ of each layer's keys and
                      values)
The last two are skipped, with the reason printed, when their package
does not import (scripts/setup-test-venv installs both).

The results of the two runs are compared (float sums within PyTorch's
tolerance: their order of accumulation differs, docs/semantics.md).  After
the timed rounds, 7 more steps of each variant, alternated, run under
torch.profiler one at a time, which gives each scatter/gather op's own
median time, to show that no op is slower with sgk (the whole step's time
includes the linear layers, autograd and allocation around them).

--calibrate measures instead what the adapter's size rule (docs/torch.md,
"When PyTorch keeps the call") is drawn from: element-wise gather,
scatter, scatter_add and scatter_reduce("amax") along the last dimension,
from 1k to 1M index elements, on a short axis (64) and a long one, with
the rule switched off (SGK_TORCH_ELEMENTS_MAX set past every size).

Writes JSON (default bench/results/torch-models.json, or
torch-calibration.json with --calibrate) and prints a table; --quick uses
small sizes and few repetitions, to check that it works, and writes JSON
only to a --json named.

    .venv/bin/python bench/torch-models.py [--quick] [--reps N] [--json PATH] [--only NAME,...]
    .venv/bin/python bench/torch-models.py --calibrate [--reps N] [--json PATH]
"""
import argparse
import inspect
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

CALIBRATE = "--calibrate" in sys.argv
if CALIBRATE:  # the adapter reads the bound once, as it loads
    os.environ["SGK_TORCH_ELEMENTS_MAX"] = str(2 ** 62)

import torch  # noqa: E402

import bench_provenance  # noqa: E402
import sgk.torch as sgk_torch  # noqa: E402

# The aten ops the adapter serves, as the profiler names them.
PROFILED = ("aten::index_select", "aten::gather", "aten::take", "aten::scatter",
            "aten::scatter_", "aten::scatter_add", "aten::scatter_add_",
            "aten::scatter_reduce", "aten::scatter_reduce_", "aten::index_add",
            "aten::index_add_", "aten::index_copy", "aten::index_copy_",
            "aten::index_reduce", "aten::index_reduce_", "aten::index_fill_",
            "aten::_index_put_impl_", "aten::embedding_dense_backward")


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


def pyg_sage(reduce, nodes, edges, features):
    from torch_geometric.nn import SAGEConv  # ImportError: the workload is skipped

    g = torch.Generator().manual_seed(5)
    x0 = torch.randn(nodes, features, generator=g)
    edge_index = torch.randint(0, nodes, (2, edges), generator=g)
    torch.manual_seed(5)
    conv = SAGEConv(features, features, aggr=reduce)

    def step():
        conv.zero_grad(set_to_none=True)
        x = x0.clone().requires_grad_()
        out = conv(x, edge_index)
        out.relu().sum().backward()
        return out.detach(), x.grad, conv.lin_l.weight.grad
    return step


def llama_decode(layers, hidden, heads, cache_len):
    from transformers import LlamaConfig, LlamaForCausalLM, StaticCache  # ImportError: skipped

    config = LlamaConfig(vocab_size=1000, hidden_size=hidden, intermediate_size=2 * hidden,
                         num_hidden_layers=layers, num_attention_heads=heads,
                         num_key_value_heads=heads, max_position_embeddings=cache_len)
    torch.manual_seed(6)
    model = LlamaForCausalLM(config).eval()
    cache = StaticCache(config=config, max_cache_len=cache_len)
    token = torch.tensor([[7]])
    # transformers 5 renames past_key_values to cache.
    cache_arg = ("cache" if "cache" in inspect.signature(model.forward).parameters
                 else "past_key_values")

    def step():
        # The same position each step: the cache's contents and the
        # logits are the same for every step and both variants.
        position = torch.tensor([cache_len // 2])
        with torch.no_grad():
            out = model(input_ids=token, cache_position=position,
                        position_ids=position.view(1, 1), use_cache=True, **{cache_arg: cache})
        return out.logits
    return step


# Workloads of packages that may be absent: name -> (factory, full, quick).
OPTIONAL = {
    "pyg_sage_max": (pyg_sage, ("max", 50_000, 500_000, 64), ("max", 2000, 20000, 16)),
    "llama_decode": (llama_decode, (2, 256, 4, 4096), (1, 64, 2, 256)),
}


def optional_workloads(quick):
    found = {}
    for name, (factory, full, small) in OPTIONAL.items():
        try:
            found[name] = factory(*(small if quick else full))
        except ImportError as e:
            print(f"{name}: skipped ({e})", flush=True)
    return found


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


def calibration_cases(quick):
    """(op, axis length, index elements, step) for the size rule's sweep."""
    sizes = (1024, 4096) if quick else (1024, 4096, 16384, 65536, 262144, 1048576)
    g = torch.Generator().manual_seed(4)
    for n in sizes:
        for axis in sorted({64, max(64, n // 64)}):
            rows = max(1, n // axis)
            data = torch.randn(rows, axis, generator=g)
            index = torch.randint(0, axis, (rows, axis), generator=g)
            src = torch.randn(rows, axis, generator=g)
            yield "gather", axis, rows * axis, lambda d=data, i=index: d.gather(1, i)
            yield "scatter", axis, rows * axis, lambda d=data, i=index, s=src: d.scatter(1, i, s)
            yield ("scatter_add", axis, rows * axis,
                   lambda d=data, i=index, s=src: d.scatter_add(1, i, s))
            yield ("scatter_reduce_amax", axis, rows * axis,
                   lambda d=data, i=index, s=src: d.scatter_reduce(1, i, s, "amax"))


def profiled_us(step, use_sgk):
    """Each adapter op's CPU time (µs) in one profiled step."""
    if use_sgk:
        sgk_torch.enable()
    try:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            step()
    finally:
        sgk_torch.disable()
    return {e.key: e.cpu_time_total for e in prof.key_averages() if e.key in PROFILED}


def per_op_us(step, rounds=7):
    """Each adapter op's median CPU time (µs) per step, for plain PyTorch and
    for PyTorch with sgk, profiled one step at a time in alternated rounds:
    one profile of each would compare two moments of a shared machine."""
    samples = {"torch": [], "sgk": []}
    for rep in range(rounds):
        for variant in ("torch", "sgk") if rep % 2 == 0 else ("sgk", "torch"):
            samples[variant].append(profiled_us(step, variant == "sgk"))
    return {variant: {op: statistics.median(s.get(op, 0.0) for s in runs)
                      for op in sorted({op for s in runs for op in s})}
            for variant, runs in samples.items()}


def alternated(step, reps):
    """Median seconds of plain PyTorch and of PyTorch with sgk, and both
    results; the order alternates each round, the first round warms up."""
    times = {"torch": [], "sgk": []}
    results = {}
    for rep in range(reps + 1):
        for variant in ("torch", "sgk") if rep % 2 == 0 else ("sgk", "torch"):
            if variant == "sgk":
                sgk_torch.enable()
            seconds, results[variant] = timed(step)
            sgk_torch.disable()
            if rep:
                times[variant].append(seconds)
    return statistics.median(times["torch"]), statistics.median(times["sgk"]), results


def calibrate(args, reps):
    rows = []
    for op, axis, elements, step in calibration_cases(args.quick):
        t, s, results = alternated(step, reps)
        rows.append({"op": op, "axis": axis, "index_elements": elements, "torch_ms": t * 1e3,
                     "sgk_ms": s * 1e3, "speedup": t / s,
                     "agree": agree(results["sgk"], results["torch"])})
        print(f"{op:20s} axis {axis:6d} {elements:8d} elements  torch {t * 1e3:8.3f} ms  "
              f"sgk {s * 1e3:8.3f} ms  x{t / s:5.2f}", flush=True)
    return rows


def timed(step):
    start = time.perf_counter()
    result = step()
    return time.perf_counter() - start, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument("--only", default=None,
                        help="comma-separated workload names to run (default: all)")
    args = parser.parse_args()
    reps = args.reps or (3 if args.quick else 15)
    torch.set_num_threads(args.threads)

    # The load average, at the start and the end: on a shared machine
    # whose other work slows every variant alike, the ratios still hold
    # but the times do not.
    report = {**bench_provenance.describe(), "torch": torch.__version__,
              "threads": args.threads, "reps": reps, "load_average": [os.getloadavg()[0]]}
    if args.calibrate:
        rows = report["calibration"] = calibrate(args, reps)
    else:
        rows = report["rows"] = []
        chosen = set(args.only.split(",")) if args.only else None
        everything = {**workloads(args.quick), **optional_workloads(args.quick)}
        for name, step in everything.items():
            if chosen is not None and name not in chosen:
                continue
            t, s, results = alternated(step, reps)
            ops = per_op_us(step, 3 if args.quick else 7)
            rows.append({"workload": name, "torch_ms": t * 1e3, "sgk_ms": s * 1e3,
                         "speedup": t / s, "agree": agree(results["sgk"], results["torch"]),
                         "ops_us": ops})
            print(f"{name:16s} torch {t * 1e3:9.3f} ms  sgk {s * 1e3:9.3f} ms  "
                  f"x{t / s:5.2f}  {'agree' if rows[-1]['agree'] else 'DISAGREE'}  "
                  + "  ".join(f"{op[6:]} {ops['torch'][op]:.0f}/{ops['sgk'].get(op, 0):.0f} us"
                              for op in ops["torch"]), flush=True)
        report["counters"] = {op: c for op, c in sgk_torch.counters().items()
                              if c["sgk"] or c["fallback"]}
        print(json.dumps(report["counters"], indent=1))
    report["load_average"].append(os.getloadavg()[0])
    if args.json or not args.quick:
        path = args.json or os.path.join(
            HERE, "results", "torch-calibration.json" if args.calibrate else "torch-models.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
