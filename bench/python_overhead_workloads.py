"""The tiny workloads of bench/python-overhead.py: each operation's
operands, its sgk call in each form (one-shot, one-shot with out=, a
plan's execute) and NumPy's equivalent."""
import numpy as np


class Workload:
    """One tiny operation: its operands, the sgk call in each form, and
    NumPy's equivalent.  Each setup returns (run, result): run() makes one
    call, result() the array it wrote."""

    def __init__(self, name, description, op, data, indices, updates=None, reduction=None,
                 axis=None, batch_dims=0, in_place=False, mode=None):
        self.name, self.description, self.op = name, description, op
        self.data, self.indices, self.updates = data, indices, updates
        self.reduction, self.axis, self.batch_dims = reduction, axis, batch_dims
        self.in_place, self.mode = in_place, mode
        self.scatter = updates is not None

    def serves(self, impl):
        """In place, a call returning a new array would copy the whole
        cache: not the per-call cost this measures."""
        return not (self.in_place and impl == "sgk_oneshot")

    def operand_bytes(self):
        arrays = [self.data, self.indices] + ([self.updates] if self.scatter else [])
        return int(sum(a.nbytes for a in arrays))

    def _args(self):
        """The operator's positional arguments after _operands()."""
        if self.op == "tensor_scatter":
            return (self.indices, self.axis, self.mode)
        if self.op == "scatter_nd":
            return (self.reduction,)
        if self.op == "scatter_elements":
            return (self.axis, self.reduction)
        if self.op == "gather_nd":
            return (self.batch_dims,)
        return (self.axis,)

    def _operands(self):
        if self.op == "tensor_scatter":  # (past_cache, update, write_indices, ...)
            return (self.data, self.updates)
        return (self.data, self.indices) + ((self.updates,) if self.scatter else ())

    def _out(self):
        if self.in_place:
            return self.data.copy()
        return np.empty_like(self.numpy_result())

    def setup(self, impl, sgk):
        fn = getattr(sgk, self.op) if sgk is not None else None
        args = self._operands() + self._args()
        if impl == "sgk_oneshot":
            box = [None]

            def run():
                box[0] = fn(*args)
            return run, lambda: box[0]
        if impl == "sgk_oneshot_out":
            out = self._out()
            src = out if self.in_place else self.data
            call_args = (src,) + args[1:]

            def run():
                fn(*call_args, out=out)
            return run, lambda: out
        if impl == "sgk_plan":
            plan_cls = getattr(sgk, {"scatter_nd": "ScatterNDPlan", "gather_nd": "GatherNDPlan",
                                     "scatter_elements": "ScatterElementsPlan",
                                     "gather_elements": "GatherElementsPlan",
                                     "gather": "GatherPlan",
                                     "tensor_scatter": "TensorScatterPlan"}[self.op])
            plan = plan_cls(*args)
            out = self._out()
            src = out if self.in_place else self.data
            execute = plan.execute
            if self.scatter:
                updates = self.updates

                def run():
                    execute(src, updates, out=out)
            else:
                def run():
                    execute(src, out=out)
            return run, lambda: out
        if impl == "numpy":
            return self._numpy()
        if impl == "python_call":
            def nothing(*_args, out=None):
                return out

            def run():
                nothing(*args, out=None)
            return run, lambda: None
        raise ValueError(impl)

    def _numpy(self):
        """NumPy's equivalent, writing into a preallocated output like
        sgk_oneshot_out (in place for in-place scatters)."""
        out = np.empty_like(self.numpy_result()) if not self.in_place else self.data.copy()
        data, idx, upd = self.data, self.indices, self.updates
        if self.op == "scatter_nd":
            cols = tuple(idx.reshape(-1, idx.shape[-1]).T)
            ufunc = {"add": np.add, "max": np.maximum}.get(self.reduction)

            def apply():
                if ufunc is None:
                    out[cols] = upd
                else:
                    ufunc.at(out, cols, upd)
        elif self.op == "scatter_elements":
            rows = np.arange(idx.shape[0])[:, None]
            ufunc = {"add": np.add, "max": np.maximum}.get(self.reduction)

            def apply():
                if ufunc is None:
                    np.put_along_axis(out, idx, upd, axis=self.axis)
                else:
                    ufunc.at(out, (rows, idx), upd)
        elif self.op == "tensor_scatter":
            where = self._sequence_slices()

            def apply():
                for dst, src in where:
                    out[dst] = upd[src]
        elif self.op == "gather":
            def run():
                np.take(data, idx, axis=self.axis, out=out)
            return run, lambda: out
        elif self.op == "gather_nd":  # rows (k = 1), as the workloads have
            rows = idx.reshape(-1)

            def run():
                np.take(data, rows, axis=0, out=out.reshape((-1,) + data.shape[1:]))
            return run, lambda: out
        else:
            def run():
                out[...] = np.take_along_axis(data, idx, axis=self.axis)
            return run, lambda: out
        if self.in_place:
            return apply, lambda: out

        def copy_then_apply():
            np.copyto(out, data)
            apply()
        return copy_then_apply, lambda: out

    def _sequence_slices(self):
        """TensorScatter as (cache slice, update slice) pairs, one per batch
        (linear mode: each batch's positions are one slice)."""
        axis = self.axis % self.data.ndim
        seq = self.updates.shape[axis]
        pairs = []
        for b, start in enumerate(self.indices):
            head = (b,) + (slice(None),) * (axis - 1)
            pairs.append((head + (slice(int(start), int(start) + seq),), head + (slice(None),)))
        return pairs

    def numpy_result(self):
        """The expected result, from NumPy on fresh arrays."""
        data, idx, upd = self.data, self.indices, self.updates
        if self.op == "tensor_scatter":
            out = data.copy()
            for dst, src in self._sequence_slices():
                out[dst] = upd[src]
            return out
        if self.op == "gather":
            return np.take(data, idx, axis=self.axis)
        if self.op in ("scatter_nd", "scatter_elements"):
            out = data.copy()
            if self.op == "scatter_nd":
                cols = tuple(idx.reshape(-1, idx.shape[-1]).T)
                where = cols
            else:
                where = (np.arange(idx.shape[0])[:, None], idx)
            if self.reduction == "none":
                out[where] = upd
            else:
                {"add": np.add, "max": np.maximum}[self.reduction].at(out, where, upd)
            return out
        if self.op == "gather_nd":
            return data[tuple(idx.reshape(-1, idx.shape[-1]).T)].reshape(
                idx.shape[:-1] + data.shape[idx.shape[-1]:])
        return np.take_along_axis(data, idx, axis=self.axis)


def make_workloads():
    rng = np.random.default_rng(18)
    w = []
    # The row of issue #18: one new token per head into a KV cache, in place
    # (the cache is 32 MiB; the call writes 16 KiB of it).
    cache = rng.standard_normal((1, 32, 2048, 128)).astype(np.float32)
    pos = 2048 - 7
    idx = np.array([[0, h, pos] for h in range(32)], dtype=np.int64)
    token = rng.standard_normal((32, 128)).astype(np.float32)
    w.append(Workload("kv_cache_token_inplace_f32",
                      "ScatterND none in place, cache [1,32,2048,128] f32, one token per head",
                      "scatter_nd", cache, idx, token, "none", in_place=True))
    # Tiny operations (< 4 KiB of operands), each op once.
    data = rng.standard_normal((64, 8)).astype(np.float32)
    rows = np.array([[3], [-5], [17], [3]], dtype=np.int64)
    upd = rng.standard_normal((4, 8)).astype(np.float32)
    w.append(Workload("tiny_scatter_nd_none", "ScatterND none, data [64,8] f32, 4 rows",
                      "scatter_nd", data, rows, upd, "none"))
    w.append(Workload("tiny_scatter_nd_add", "ScatterND add, data [64,8] f32, 4 rows "
                      "(one duplicate)", "scatter_nd", data, rows, upd, "add"))
    w.append(Workload("tiny_gather_nd", "GatherND, data [64,8] f32, 4 rows",
                      "gather_nd", data, rows, batch_dims=0))
    eidx = rng.integers(0, 8, (64, 2)).astype(np.int64)
    eupd = rng.standard_normal((64, 2)).astype(np.float32)
    w.append(Workload("tiny_scatter_elements_add",
                      "ScatterElements add axis 1, data [64,8] f32, indices [64,2]",
                      "scatter_elements", data, eidx, eupd, "add", axis=1))
    w.append(Workload("tiny_gather_elements",
                      "GatherElements axis 1, data [64,8] f32, indices [64,2]",
                      "gather_elements", data, eidx, axis=1))
    w.append(Workload("tiny_gather", "Gather axis 0, data [64,8] f32, 4 rows",
                      "gather", data, rows[:, 0].copy(), axis=0))
    # One decode token per batch into a small KV cache (2 KiB per batch).
    kv = rng.standard_normal((2, 4, 16, 8)).astype(np.float32)
    kv_token = rng.standard_normal((2, 4, 1, 8)).astype(np.float32)
    kv_pos = np.array([5, 11], dtype=np.int64)
    w.append(Workload("tiny_tensor_scatter",
                      "TensorScatter linear axis -2, cache [2,4,16,8] f32, one token per batch",
                      "tensor_scatter", kv, kv_pos, kv_token, axis=-2, mode="linear"))
    w.append(Workload("tiny_tensor_scatter_inplace",
                      "TensorScatter linear axis -2 in place, cache [2,4,16,8] f32, one token "
                      "per batch", "tensor_scatter", kv, kv_pos, kv_token, axis=-2,
                      mode="linear", in_place=True))
    return w
