"""The cases of the differential tests (test_differential.py): the Case
record, random inputs and shapes per operator, and the definition's result
for a case (definition.py), forwards or with the updates reversed.
"""
import numpy as np

import definition
from definition import BFLOAT16

SEED = 20250611
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "string"]
SCATTER_REDUCTIONS = ("none", "add", "sub", "mul", "max", "min")

def np_dtype(name):
    if name == "bfloat16":
        return BFLOAT16
    if name == "string":
        return np.dtype(object)
    return np.dtype(name)


class Case:
    def __init__(self, op, dtype_name, reduction, data, indices, updates=None, axis=0,
                 batch_dims=0, tag="", unsafe_for=()):
        self.op, self.dtype_name, self.reduction = op, dtype_name, reduction
        self.data, self.indices, self.updates = data, indices, updates
        self.axis, self.batch_dims, self.tag = axis, batch_dims, tag
        self.unsafe_for = unsafe_for  # peers that must not run it (they crash)
        self.id = ""

    @property
    def size(self):
        return self.data.size + self.indices.size + (0 if self.updates is None
                                                     else self.updates.size)

    def attrs(self):
        if self.op == "scatter_nd":
            return f"reduction={self.reduction}"
        if self.op == "scatter_elements":
            return f"axis={self.axis}, reduction={self.reduction}"
        if self.op == "gather_nd":
            return f"batch_dims={self.batch_dims}"
        return f"axis={self.axis}"

    def reproducer(self):
        def literal(a, dtype):
            if a.dtype.kind == "O":
                return repr(a.tolist())
            return f"np.array({a.tolist()!r}, dtype={dtype})"
        args = [f"data={literal(self.data, self.dtype_name)}",
                f"indices={literal(self.indices, self.indices.dtype.name)}"]
        if self.updates is not None:
            args.append(f"updates={literal(self.updates, self.dtype_name)}")
        args.append(self.attrs())
        return f"sgk.{self.op}({', '.join(args)})"


# ---- random inputs ----------------------------------------------------------

def random_values(rng, name, shape, special=False):
    """An ndarray (also for shape (): numpy scalars are not what is tested)."""
    return np.asarray(_random_values(rng, name, shape, special), dtype=np_dtype(name))


def _random_values(rng, name, shape, special):
    dt = np_dtype(name)
    n = int(np.prod(shape, dtype=np.int64))
    if name == "bool":
        return rng.random(shape) < 0.5
    if name == "string":
        return np.array([f"s{v}" for v in rng.integers(0, 1000, n)], dtype=object).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        mode = rng.integers(3)
        if mode == 0:  # small values
            lo = max(info.min, -6)
            return rng.integers(lo, 7, size=shape, endpoint=True).astype(dt)
        vals = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dt)
        if mode == 2:  # extremes, to make add/sub/mul wrap
            pick = rng.random(shape) < 0.5
            ext = rng.choice(np.array([info.min, info.max, info.max - 1, 1], dtype=dt),
                             size=shape)
            vals = np.where(pick, ext, vals).astype(dt)
        return vals
    scale = rng.choice([1.0, 3.0, 100.0])
    if dt.kind == "c":
        re = rng.standard_normal(shape) * scale
        im = rng.standard_normal(shape) * scale
        return (re + 1j * im).astype(dt)
    vals = (rng.standard_normal(shape) * scale).astype(np.float64)
    if special:
        specials = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, 0.0, -0.0])
        pick = rng.random(shape) < 0.3
        vals = np.where(pick, rng.choice(specials, size=shape), vals)
    return vals.astype(dt)


def random_index(rng, size, shape, duplicates):
    """Indices in [-size, size-1]; with duplicates, drawn from a pool of two."""
    if size == 0:
        return np.zeros(shape, dtype=np.int64)
    if duplicates:
        pool = rng.integers(-size, size, size=2)
        return rng.choice(pool, size=shape)
    return rng.integers(-size, size, size=shape)


def index_type(rng):
    return np.int32 if rng.random() < 0.4 else np.int64


def dims(rng, rank, lo=1, hi=5):
    return tuple(int(v) for v in rng.integers(lo, hi + 1, size=rank))


def gen_scatter_nd(rng, name, reduction):
    r = int(rng.integers(1, 5))
    data_shape = dims(rng, r, 1, 5 if r < 4 else 3)
    k = int(rng.integers(1, r + 1))
    hot = rng.random() < 0.25  # many updates on one or two slices
    batch = (int(rng.integers(8, 40)),) if hot else dims(rng, int(rng.integers(0, 3)), 1, 4)
    dup = hot or rng.random() < 0.5
    cols = [random_index(rng, data_shape[j], batch, dup) for j in range(k)]
    indices = np.stack(cols, axis=-1).astype(index_type(rng))
    special = name in ("float16", "bfloat16", "float32", "float64") and rng.random() < 0.4
    data = random_values(rng, name, data_shape, special)
    updates = random_values(rng, name, batch + data_shape[k:], special)
    return Case("scatter_nd", name, reduction, data, indices, updates,
                tag="hot" if hot else ("dup" if dup else ""))


def gen_scatter_elements(rng, name, reduction):
    r = int(rng.integers(1, 4))
    data_shape = dims(rng, r, 1, 5)
    axis = int(rng.integers(-r, r))
    a = axis % r
    hot = rng.random() < 0.25
    ishape = tuple((int(rng.integers(6, 24)) if hot else int(rng.integers(1, 7))) if d == a
                   else int(rng.integers(1, data_shape[d] + 1)) for d in range(r))
    dup = hot or rng.random() < 0.5
    indices = random_index(rng, data_shape[a], ishape, dup).astype(index_type(rng))
    special = name in ("float16", "bfloat16", "float32", "float64") and rng.random() < 0.4
    data = random_values(rng, name, data_shape, special)
    updates = random_values(rng, name, ishape, special)
    return Case("scatter_elements", name, reduction, data, indices, updates, axis=axis,
                tag="hot" if hot else ("dup" if dup else ""))


def gen_gather_nd(rng, name, _reduction):
    b = int(rng.integers(0, 3))
    rest = int(rng.integers(1, 4))
    data_shape = dims(rng, b, 1, 3) + dims(rng, rest, 1, 5)
    k = int(rng.integers(1, rest + 1))
    middle = dims(rng, int(rng.integers(0, 3)), 1, 4)
    ishape = data_shape[:b] + middle
    cols = [random_index(rng, data_shape[b + j], ishape, rng.random() < 0.3) for j in range(k)]
    indices = np.stack(cols, axis=-1).astype(index_type(rng))
    data = random_values(rng, name, data_shape, rng.random() < 0.2)
    return Case("gather_nd", name, "none", data, indices, batch_dims=b)


def gen_gather_elements(rng, name, _reduction):
    r = int(rng.integers(1, 4))
    data_shape = dims(rng, r, 1, 5)
    axis = int(rng.integers(-r, r))
    a = axis % r
    same_off_axis = rng.random() < 0.8
    ishape = tuple(int(rng.integers(1, 7)) if d == a else
                   (data_shape[d] if same_off_axis else int(rng.integers(1, data_shape[d] + 1)))
                   for d in range(r))
    indices = random_index(rng, data_shape[a], ishape, rng.random() < 0.3).astype(index_type(rng))
    data = random_values(rng, name, data_shape, rng.random() < 0.2)
    return Case("gather_elements", name, "none", data, indices, axis=axis)


def gen_large(rng, op, name, reduction):
    """Thousands of updates on a few destinations: where a peer that runs
    updates in parallel would show another order."""
    rows, width, n = 64, 16, 2048
    data = random_values(rng, name, (rows, width))
    hot = rng.integers(0, rows, size=8)
    if op == "scatter_nd":
        indices = rng.choice(hot, size=(n, 1)).astype(np.int64)
        updates = random_values(rng, name, (n, width))
        return Case(op, name, reduction, data, indices, updates, tag="large")
    indices = rng.choice(hot, size=(n // 4, width)).astype(np.int64)
    updates = random_values(rng, name, indices.shape)
    return Case(op, name, reduction, data, indices, updates, axis=0, tag="large")


LARGE = [("float32", "none"), ("int32", "none"), ("float32", "add"), ("float16", "add"),
         ("float32", "mul"), ("int64", "max")]

GENERATORS = {"scatter_nd": gen_scatter_nd, "gather_nd": gen_gather_nd,
              "scatter_elements": gen_scatter_elements, "gather_elements": gen_gather_elements}


def sgk_defines(name, reduction):
    if reduction == "none":
        return True
    if name == "string":
        return False
    if name.startswith("complex") and reduction in ("max", "min"):
        return False
    return True


def build_cases(peers, reps):
    cases = []
    for n, op in enumerate(GENERATORS):
        rng = np.random.default_rng([SEED, n])
        scatter = op.startswith("scatter")
        for name in DTYPES:
            for reduction in (SCATTER_REDUCTIONS if scatter else ("none",)):
                if not sgk_defines(name, reduction):
                    continue
                count = reps[op]
                for _ in range(count):
                    case = GENERATORS[op](rng, name, reduction)
                    if any(p.supports(case) for p in peers):
                        case.id = f"{op}#{len(cases)}"
                        cases.append(case)
        if scatter:
            for name, reduction in LARGE:
                case = gen_large(rng, op, name, reduction)
                case.id = f"{op}#{len(cases)}-large"
                cases.append(case)
    return cases




# ---- the definition's result ------------------------------------------------

def run_definition(case, data=None, updates=None, reverse=False, **kw):
    d = case.data if data is None else data
    u = case.updates if updates is None else updates
    i = case.indices
    if case.op == "scatter_nd":
        if reverse:  # the same updates in reverse row-major order
            k = i.shape[-1]
            n = int(np.prod(i.shape[:-1], dtype=np.int64))
            i = i.reshape(n, k)[::-1]
            u = u.reshape((n,) + case.data.shape[k:])[::-1]
        return definition.scatter_nd(d, i, u, case.reduction, **kw)
    if case.op == "scatter_elements":
        if reverse:
            return _scatter_elements_reversed(case, d, u)
        return definition.scatter_elements(d, i, u, case.axis, case.reduction, **kw)
    if case.op == "gather_nd":
        return definition.gather_nd(d, i, case.batch_dims)
    return definition.gather_elements(d, i, case.axis)


def _scatter_elements_reversed(case, d, u):
    out = d.copy()
    axis = case.axis % d.ndim
    for pos in reversed(list(np.ndindex(case.indices.shape))):
        t = list(pos)
        t[axis] = int(case.indices[pos]) % d.shape[axis]
        val = definition.combine(out[tuple(t)], u[pos], case.reduction)
        out[tuple(t)] = val[()] if val.ndim == 0 else val
    return out
