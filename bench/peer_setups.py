"""The implementations bench/peers.py times: sgk (a reused plan, and
one-shot calls), PyTorch and NumPy here, onnxruntime and OpenVINO in
peer_graph_setups.py, each set up on one workload of
bench/peer_workloads.py.  Imported by bench/peers.py, which puts python/
on sys.path first.
"""
import numpy as np

import sgk
from peer_workloads import aligned_empty, nd_slots


# Each setup returns (run, result, note, close): run() computes once into a
# buffer fixed at setup; result() gives that output as a NumPy array.

IMPLS = ["sgk", "sgk_oneshot", "onnxruntime", "openvino", "torch", "numpy"]


class Missing(Exception):
    """The peer is not installed."""


def _token_writes(w):
    """TensorScatter's writes per batch item: (b, first position, count),
    split where a circular write wraps (the workloads' axis is -2)."""
    seq, length = w.data.shape[-2], w.updates.shape[-2]
    writes = []
    for b, start in enumerate(w.indices.tolist()):
        start = start % seq if w.mode == "circular" else start
        first = min(length, seq - start)
        writes.append((b, start, 0, first))
        if first < length:
            writes.append((b, 0, first, length - first))
    return writes


def out_buffer(w):
    out = aligned_empty(w.output_shape, w.data.dtype)
    if w.in_place:
        out[...] = w.data  # each in-place implementation gets its own copy
    return out


def setup_sgk(w, threads):
    sgk.set_num_threads(threads)
    if w.op == "scatter_nd":
        plan = sgk.ScatterNDPlan(w.data, w.indices, w.updates, w.reduction)
    elif w.op == "scatter_elements":
        plan = sgk.ScatterElementsPlan(w.data, w.indices, w.updates, w.axis, w.reduction)
    elif w.op == "gather_nd":
        plan = sgk.GatherNDPlan(w.data, w.indices, w.batch_dims)
    elif w.op == "gather":
        plan = sgk.GatherPlan(w.data, w.indices, w.axis)
    elif w.op == "tensor_scatter":
        plan = sgk.TensorScatterPlan(w.data, w.updates, w.indices, w.axis, w.mode)
    else:
        plan = sgk.GatherElementsPlan(w.data, w.indices, w.axis)
    out = out_buffer(w)
    src = out if w.in_place else w.data
    if w.scatter:
        def run():
            plan.execute(src, w.updates, out=out)
    else:
        def run():
            plan.execute(src, out=out)
    return run, lambda: out, plan.describe(), plan.close


def setup_sgk_oneshot(w, threads):
    sgk.set_num_threads(threads)
    out = out_buffer(w)
    src = out if w.in_place else w.data
    calls = {
        "scatter_nd": lambda: sgk.scatter_nd(src, w.indices, w.updates, w.reduction, out=out),
        "scatter_elements": lambda: sgk.scatter_elements(src, w.indices, w.updates, w.axis,
                                                         w.reduction, out=out),
        "gather_nd": lambda: sgk.gather_nd(w.data, w.indices, w.batch_dims, out=out),
        "gather_elements": lambda: sgk.gather_elements(w.data, w.indices, w.axis, out=out),
        "gather": lambda: sgk.gather(w.data, w.indices, w.axis, out=out),
        "tensor_scatter": lambda: sgk.tensor_scatter(src, w.updates, w.indices, w.axis, w.mode,
                                                     out=out),
    }
    return calls[w.op], lambda: out, "plan + execute per call", None


def copy_note(w, peer):
    return f"{peer} has no in-place form: copies the data" if w.in_place else ""


def setup_torch(w, threads):
    try:
        import torch
    except ImportError as exc:
        raise Missing(str(exc))
    torch.set_num_threads(threads)
    data = torch.from_numpy(w.data)
    idx = torch.from_numpy(w.indices)
    upd = torch.from_numpy(w.updates) if w.scatter else None
    out_np = out_buffer(w)
    out = torch.from_numpy(out_np)
    note = ""
    if w.op == "gather":
        o2 = out.view(*w.data.shape[:w.axis], -1, *w.data.shape[w.axis + 1:])
        rows = idx.reshape(-1)

        def run():
            torch.index_select(data, w.axis, rows, out=o2)
        return run, lambda: out_np, "index_select", None
    if w.op == "tensor_scatter":
        writes = [(b, p, s, n) for b, p, s, n in _token_writes(w)]

        def op():
            for b, p, s, n in writes:
                out[b, :, p:p + n, :] = upd[b, :, s:s + n, :]
        if w.in_place:
            run, note = op, "slice assignment in place"
        else:
            def run():
                out.copy_(data)
                op()
            note = "slice assignment after copy_"
        return run, lambda: out_np, note, None
    if w.op == "scatter_nd":
        k = w.indices.shape[-1]
        cols = tuple(c.contiguous() for c in idx.reshape(-1, k).unbind(1))
        u2 = upd.reshape((-1,) + tuple(w.data.shape[k:]))
        if w.reduction == "none":
            def op():
                out.index_put_(cols, u2)
            note = "index_put_"
        elif w.reduction == "add" and k == 1:
            rows = cols[0]

            def op():
                out.index_add_(0, rows, u2)
            note = "index_add_"
        elif w.reduction == "add":
            def op():
                out.index_put_(cols, u2, accumulate=True)
            note = "index_put_(accumulate=True)"
        elif k == w.data.ndim:
            flat = torch.from_numpy(nd_slots(w.data, w.indices, k).astype(np.int64))
            red = {"max": "amax", "min": "amin", "mul": "prod"}[w.reduction]
            flat_out = out.view(-1)
            u1 = upd.reshape(-1)

            def op():
                flat_out.scatter_reduce_(0, flat, u1, red, include_self=True)
            note = f"scatter_reduce_({red}) on flat indices computed once"
        else:
            raise NotImplementedError(f"no torch form for ScatterND {w.reduction} with k < r")
        if w.in_place:
            run = op
            note += " in place"
        else:
            def run():
                out.copy_(data)
                op()
            note += " after copy_"
    elif w.op == "scatter_elements":
        red = {"add": "sum", "mul": "prod", "max": "amax", "min": "amin"}.get(w.reduction)

        def run():
            out.copy_(data)
            if red is None:
                out.scatter_(w.axis, idx, upd)
            else:
                out.scatter_reduce_(w.axis, idx, upd, red, include_self=True)
        note = "scatter_" if red is None else f"scatter_reduce_({red})"
    elif w.op == "gather_nd":
        if w.batch_dims == 0 and w.indices.shape[-1] == 1:
            rows = idx.reshape(-1)
            o2 = out.view(-1, *w.data.shape[1:])

            def run():
                torch.index_select(data, 0, rows, out=o2)
            note = "index_select"
        elif w.batch_dims == 1 and w.indices.shape[-1] == 1 and w.data.ndim == 3:
            expanded = idx.expand(-1, -1, w.data.shape[2])

            def run():
                torch.gather(data, 1, expanded, out=out)
            note = "gather with an expanded index"
        else:
            raise NotImplementedError("no torch form for this GatherND")
    else:
        def run():
            torch.gather(data, w.axis, idx, out=out)
        note = "gather"
    return run, lambda: out_np, note, None


def setup_numpy(w, threads):
    out = out_buffer(w)
    note = "single-threaded"
    if w.op == "gather":
        def run():
            np.take(w.data, w.indices, axis=w.axis, out=out)
        return run, lambda: out, note + "; np.take(out=)", None
    if w.op == "tensor_scatter":
        writes = _token_writes(w)

        def op():
            for b, p, s, n in writes:
                out[b, :, p:p + n, :] = w.updates[b, :, s:s + n, :]
        if w.in_place:
            run = op
        else:
            def run():
                np.copyto(out, w.data)
                op()
        return run, lambda: out, note + "; slice assignment" + (
            " in place" if w.in_place else " after copyto"), None
    if w.op == "scatter_nd":
        k = w.indices.shape[-1]
        cols = tuple(w.indices.reshape(-1, k).T)
        u2 = w.updates.reshape((-1,) + w.data.shape[k:])
        ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
                 "sub": np.subtract}.get(w.reduction)
        if ufunc is None:
            def op():
                out[cols] = u2
            note += "; fancy-index assignment"
        else:
            def op():
                ufunc.at(out, cols, u2)
            note += f"; np.{ufunc.__name__}.at"
        if w.in_place:
            run = op
        else:
            def run():
                np.copyto(out, w.data)
                op()
    elif w.op == "scatter_elements":
        rows = np.arange(w.indices.shape[0])[:, None]
        ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum,
                 "min": np.minimum}.get(w.reduction)

        def run():
            np.copyto(out, w.data)
            if ufunc is None:
                np.put_along_axis(out, w.indices, w.updates, axis=w.axis)
            else:
                ufunc.at(out, (rows, w.indices), w.updates)
        note += "; put_along_axis" if ufunc is None else f"; np.{ufunc.__name__}.at"
    elif w.op == "gather_nd":
        if w.batch_dims == 0 and w.indices.shape[-1] == 1:
            rows = w.indices.reshape(-1)
            o2 = out.reshape(-1, *w.data.shape[1:])

            def run():
                np.take(w.data, rows, axis=0, out=o2)
            note += "; np.take(out=)"
        elif w.batch_dims == 1 and w.indices.shape[-1] == 1 and w.data.ndim == 3:
            def run():
                out[...] = np.take_along_axis(w.data, w.indices, axis=1)
            note += "; take_along_axis (allocates)"
        else:
            raise NotImplementedError("no numpy form for this GatherND")
    else:
        def run():
            out[...] = np.take_along_axis(w.data, w.indices, axis=w.axis)
        note += "; take_along_axis (allocates)"
    return run, lambda: out, note, None
