"""Plans: indices read and validated once, a path chosen, executed many
times; one class per operator of the registry (ScatterNDPlan for
scatter_nd, ...), made here from the extension's operator table.

The sgk_plan lives in the extension's PlanBase, whose execute() runs it
directly on ndarrays of exactly the planned dtype and shapes; anything else
comes back to _execute_general here, which converts (or rejects) the
arguments as the one-shot operators do, and the extension checks them
against the plan.

Type checkers read _plans.pyi, which python/stubgen.py generates from the
same table.
"""
from __future__ import annotations

import inspect
from typing import Any

from . import _dtypes, _marshal, _oneshot
from ._native import PlanBase as _PlanBase
from ._native import available, ext

_KEYWORD = inspect.Parameter.KEYWORD_ONLY


class Plan(_PlanBase):  # type: ignore[misc]  # the extension's type
    """A planned operator: validated indices and a chosen execution path,
    executed many times on buffers of the planned shapes and type.  Free it
    with close() (or a with block); it is also freed when collected.
    execute(data, updates=None, out=None) returns out (a new array when out
    is None); data and updates must have the planned shapes; out may be data
    for scatters.  execute() may be called from several threads at once."""

    op: str = ""
    __signature__: inspect.Signature

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        bound = self.__signature__.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
        kinds = _marshal.KINDS[self.op]
        self._override = arguments["dtype"]
        operands = _marshal.PlanOperands(kinds, list(arguments.values())[:len(kinds)],
                                         self._override)
        assert operands.data is not None  # every row has data
        self._dtype = operands.data[1]
        flags = _marshal.plan_flags(arguments.get("deterministic"),
                                    arguments.get("wide_accumulate"), arguments["flags"])
        direct = None if operands.code == _dtypes.STRING else self._dtype
        self._plan(self.op, operands.code, operands.updates_code, direct, flags,
                   *operands.converted)

    def __enter__(self) -> Plan:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dtype(self) -> Any:
        """The NumPy dtype the plan was made for."""
        return self._dtype

    def __repr__(self) -> str:
        state = "closed" if self.closed else self.describe()
        return f"<sgk.{type(self).__name__} {self.op} -> {self.output_shape}: {state}>"

    # execute() is the extension's; what it declines comes here
    def _execute_general(self, data: Any, updates: Any, out: Any) -> Any:
        d = _marshal.Values(data, self._override)
        u = None if updates is None else _marshal.Values(updates, self._override,
                                                         like=d.array.dtype)
        table = _marshal.bind_strings(d, u)
        u_raw = None if u is None else u.raw
        if table is None:
            return self._execute_raw(d.raw, u_raw, out, d.code)
        pointers = self._execute_raw(d.raw, u_raw, None, d.code)
        return _marshal.string_result(table, pointers, out,
                                      _marshal.string_result_dtype(data, updates))


_PLAN_DOC = """Plan for sgk.{op}: the indices read and checked once, a path chosen,
then plan.execute({execute}, out=None) many times.

The {operands} given here supply only shapes and type (any object with
.shape and .dtype will do).  flags: PLAN_* bits.{reduction}
Raises what sgk.{op} raises (SgkError subclasses) when the indices or
shapes are wrong, and execute() InvalidArgumentError for buffers of other
shapes or type than planned.

{summary}"""


def _plan_class(op: str) -> type[Plan]:
    """The Plan subclass of operator op: its signature is the one-shot
    function's without out, plus the plan flags."""
    oneshot = getattr(ext, op)
    kinds = _marshal.KINDS[op]
    params = [p for p in inspect.signature(oneshot).parameters.values()
              if p.name not in ("out", "dtype")]
    tensors = [p.name for p, kind in zip(params, kinds) if kind in ("data", "updates")]
    reduction = ""
    if "reduction" in kinds:
        params += [inspect.Parameter("deterministic", _KEYWORD, default=None),
                   inspect.Parameter("wide_accumulate", _KEYWORD, default=False)]
        reduction = ("\ndeterministic: None (the library's default), True, or False (float\n"
                     "add/sub/mul may reorder); wide_accumulate: fp16/bf16 duplicate runs\n"
                     "accumulated in float32.")
    params += [inspect.Parameter("flags", _KEYWORD, default=None),
               inspect.Parameter("dtype", _KEYWORD, default=None)]
    signature = inspect.Signature(params)
    summary = oneshot.__doc__.split("\n\n")[0] if oneshot.__doc__ else ""
    name = "".join("ND" if word == "nd" else word.capitalize() for word in op.split("_"))
    doc = _PLAN_DOC.format(op=op, execute=", ".join(tensors),
                           operands=" and ".join(tensors), reduction=reduction,
                           summary=summary)
    return type(name + "Plan", (Plan,), {"op": op, "__signature__": signature, "__doc__": doc,
                                          "__module__": "sgk"})


if available:
    globals().update((cls.__name__, cls) for cls in map(_plan_class, _oneshot.OPERATORS))


def __getattr__(name: str) -> Any:
    """Without the extension, each plan class raises why it is missing."""
    if not available and name.endswith("Plan"):
        return type(name, (Plan,), {"__init__": lambda self, *a, **k: ext.PlanBase()})
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
