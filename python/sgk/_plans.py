"""Plans: indices read and validated once, a path chosen, executed many
times.

The sgk_plan lives in the extension's PlanBase, whose execute() runs it
directly on ndarrays of exactly the planned dtype and shapes; anything else
comes back to _execute_general here, which converts (or rejects) the
arguments as the one-shot operators do.
"""
from . import _dtypes, _marshal
from ._native import PlanBase as _PlanBase
from ._native import ext as _ext
from .errors import InvalidArgumentError


class Plan(_PlanBase):
    """A planned operator: validated indices and a chosen execution path,
    executed many times on buffers of the planned shapes and type.  Free it
    with close() (or a with block); it is also freed when collected.
    execute(data, updates=None, out=None) returns out (a new array when out
    is None); data and updates must have the planned shapes; out may be data
    for scatters.  execute() may be called from several threads at once."""

    op = None
    _scatter = False

    def _build(self, plan_fn, args, data_spec, updates_spec, output_shape, override):
        """Plans with the extension's plan_fn(self, code, data_shape, *args),
        then tells the extension what execute may take directly."""
        self._data_shape, self._dtype, self._code = data_spec
        self._updates_shape = updates_spec[0] if updates_spec else None
        self._updates_dtype = updates_spec[1] if updates_spec else None
        self.output_shape = tuple(output_shape)
        self._override = override
        plan_fn(self, self._code, self._data_shape, *args)
        direct_dtype = None if self._code == _dtypes.STRING else self._dtype
        self._expect(direct_dtype, self._code, self._data_shape, self._updates_shape,
                     self.output_shape)

    # -- lifetime: close() and closed come from the extension
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _live(self):
        if self.closed:
            raise InvalidArgumentError(f"{self.op} plan is closed")

    # -- queries
    def describe(self):
        """The path, threads and SIMD target chosen for this plan."""
        self._live()
        return self._describe()

    @property
    def dtype(self):
        return self._dtype

    def __repr__(self):
        state = "closed" if self.closed else self.describe()
        return f"<sgk.{type(self).__name__} {self.op} -> {self.output_shape}: {state}>"

    # -- execution: execute() is the extension's; what it declines comes here
    def _execute_general(self, data, updates, out):
        self._live()
        d = _marshal.Values(data, self._override)
        if d.code != self._code or d.array.shape != self._data_shape:
            raise InvalidArgumentError(
                f"{self.op}: data is {d.array.dtype}{list(d.array.shape)}, planned for "
                f"{self._dtype}{list(self._data_shape)}")
        u = None
        if self._scatter:
            if updates is None:
                raise InvalidArgumentError(f"{self.op}: updates are required")
            u = _marshal.Values(updates, self._override, like=d.array.dtype)
            if u.array.shape != self._updates_shape:
                raise InvalidArgumentError(
                    f"{self.op}: updates have shape {list(u.array.shape)}, planned for "
                    f"{list(self._updates_shape)}")
        elif updates is not None:
            raise InvalidArgumentError(f"{self.op}: a gather takes no updates")
        table = _marshal.bind_strings(d, u) if u is not None else _marshal.bind_strings(d)
        o = _marshal.Output(out, self.output_shape, d)
        self._execute_raw(d.raw, u.raw if u is not None else None, o.raw)
        return o.finish(table, _marshal.string_result_dtype(data, updates))


class ScatterNDPlan(Plan):
    """Plan for scatter_nd.  data/updates give the shapes and type only (any
    object with .shape and .dtype will do); indices are read now.
    deterministic: None (library default), True, or False (float add/sub/mul
    may reorder); wide_accumulate: fp16/bf16 duplicate runs in float32."""
    op = "scatter_nd"
    _scatter = True

    def __init__(self, data, indices, updates, reduction="none", *, deterministic=None,
                 wide_accumulate=False, flags=None, dtype=None):
        super().__init__()
        dspec = _marshal.spec(data, dtype)
        uspec = _marshal.spec(updates, dtype)
        i_arr, _ = _dtypes.as_indices(indices)
        self._build(_ext.plan_scatter_nd,
                    (i_arr, _marshal.planned_updates_code(dspec, uspec), uspec[0],
                     _marshal.reduction_code(reduction),
                     _marshal.plan_flags(deterministic, wide_accumulate, flags)),
                    dspec, uspec, dspec[0], dtype)


class GatherNDPlan(Plan):
    """Plan for gather_nd."""
    op = "gather_nd"

    def __init__(self, data, indices, batch_dims=0, *, flags=None, dtype=None):
        super().__init__()
        dspec = _marshal.spec(data, dtype)
        i_arr, _ = _dtypes.as_indices(indices)
        shape = _marshal.gather_nd_shape(dspec[2], dspec[0], i_arr.shape, batch_dims)
        self._build(_ext.plan_gather_nd,
                    (i_arr, int(batch_dims), _marshal.plan_flags(None, False, flags)),
                    dspec, None, shape, dtype)


class ScatterElementsPlan(Plan):
    """Plan for scatter_elements."""
    op = "scatter_elements"
    _scatter = True

    def __init__(self, data, indices, updates, axis=0, reduction="none", *,
                 deterministic=None, wide_accumulate=False, flags=None, dtype=None):
        super().__init__()
        dspec = _marshal.spec(data, dtype)
        uspec = _marshal.spec(updates, dtype)
        i_arr, _ = _dtypes.as_indices(indices)
        self._build(_ext.plan_scatter_elements,
                    (i_arr, _marshal.planned_updates_code(dspec, uspec), uspec[0], int(axis),
                     _marshal.reduction_code(reduction),
                     _marshal.plan_flags(deterministic, wide_accumulate, flags)),
                    dspec, uspec, dspec[0], dtype)


class GatherElementsPlan(Plan):
    """Plan for gather_elements."""
    op = "gather_elements"

    def __init__(self, data, indices, axis=0, *, flags=None, dtype=None):
        super().__init__()
        dspec = _marshal.spec(data, dtype)
        i_arr, _ = _dtypes.as_indices(indices)
        self._build(_ext.plan_gather_elements,
                    (i_arr, int(axis), _marshal.plan_flags(None, False, flags)),
                    dspec, None, i_arr.shape, dtype)


class GatherPlan(Plan):
    """Plan for gather: data gives the shape and type only (any object with
    .shape and .dtype), indices are read now.  execute(data[, out=])."""
    op = "gather"

    def __init__(self, data, indices, axis=0, *, flags=None, dtype=None):
        super().__init__()
        dspec = _marshal.spec(data, dtype)
        i_arr, _ = _dtypes.as_indices(indices)
        shape = _marshal.gather_shape(dspec[2], dspec[0], i_arr.shape, axis)
        self._build(_ext.plan_gather,
                    (i_arr, int(axis), _marshal.plan_flags(None, False, flags)),
                    dspec, None, shape, dtype)


class TensorScatterPlan(Plan):
    """Plan for tensor_scatter: past_cache and update give the shapes and
    type only, write_indices (None: zeros) are read and checked now.
    execute(past_cache, update, out=past_cache) writes in place."""
    op = "tensor_scatter"
    _scatter = True

    def __init__(self, past_cache, update, write_indices=None, axis=-2, mode="linear", *,
                 flags=None, dtype=None):
        super().__init__()
        cspec = _marshal.spec(past_cache, dtype)
        uspec = _marshal.spec(update, dtype)
        w_arr = None if write_indices is None else _dtypes.as_indices(write_indices)[0]
        self._build(_ext.plan_tensor_scatter,
                    (w_arr, _marshal.planned_updates_code(cspec, uspec), uspec[0], int(axis),
                     _marshal.tensor_scatter_mode_code(mode),
                     _marshal.plan_flags(None, False, flags)),
                    cspec, uspec, cspec[0], dtype)
