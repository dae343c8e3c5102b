#!/usr/bin/env python3
"""Randomized differential tests: sgk against the sequential definition of the
docs/semantics.md (definition.py) and, on the same inputs,
against two peers: onnx.reference.ReferenceEvaluator and OpenVINO's CPU
plugin (peers.py; a peer that is not importable is skipped with a message).

Fixed seeds.  Every (operator, type, reduction) a peer takes, with random
shapes, index types, negative and duplicate indices ("hot" cases pile dozens
of updates on one or two slices), NaN, infinities and signed zeros, plus a
few large cases (2048 updates on 8 rows); sgk called one-shot, planned and in
place, with 1 and 2 threads.  Then the probes: one minimal input per
behaviour found, and the out-of-range checks.

A case fails when sgk differs from the definition (an sgk bug), raises, or a
peer differs from sgk in a way none of the known causes explains.  A cause
is checked, not assumed (e.g. "wide-accum" must reproduce the peer's output
bit for bit from a wider accumulation; "lowered-int64" must reproduce it
from the definition computed in int32):

  none-order, none-first   duplicates under none: another update than the last
  wide-accum      float add/sub/mul duplicates accumulated wider, rounded once
  reorder         float add/sub/mul duplicates in another order
  rounding        float add/sub/mul duplicates, within the error bound
  bf16-rounding   bfloat16 add/sub/mul truncated (also a single update)
  complex-fma     complex mul with fused multiply-adds (NumPy's loop)
  nan             max/min not propagating a NaN
  signed-zero     max/min keeping the other zero of a +0/-0 tie
  lowered-TYPE    int64/uint64/uint32 computed as int32, float64 as float32
  negative-index  wrong with negative indices, right once normalized
  negative-axis   fails with a negative axis, right once normalized

Prints a report of every disagreement (cause, counts, smallest example, who
is right) and writes it as Markdown to --findings (default
/tmp/conformance-findings.md).  Ends with cmocka-style summary lines.
"""
import argparse
import os
import sys
import time
import warnings
from collections import Counter, defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import definition  # noqa: E402
import peers as peer_module  # noqa: E402
import sgk  # noqa: E402
from definition import BFLOAT16  # noqa: E402

SEED = 20250611
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "string"]
SCATTER_REDUCTIONS = ("none", "add", "sub", "mul", "max", "min")
CLASS_TEXT = {
    "none-order": "duplicate indices under `none`: the peer keeps another update than the "
                  "last in row-major order",
    "none-first": "duplicate indices under `none`: the peer keeps the *first* update",
    "wide-accum": "float add/sub/mul on a duplicated element: the peer accumulates in a "
                  "wider type and rounds once",
    "reorder": "float add/sub/mul on a duplicated element: the same terms in another order",
    "rounding": "float add/sub/mul on a duplicated element: rounded otherwise than once per "
                "update (within the error bound of the sum or product)",
    "bf16-rounding": "bfloat16 add/sub/mul: the peer does not round to nearest-even after "
                     "each update (a single update is truncated), within the error bound",
    "complex-fma": "complex mul: the peer computes the product with fused multiply-adds "
                   "(NumPy's loop: re = fma(a.re, b.re, -a.im*b.im)), last-bit differences",
    "nan": "max/min with a NaN involved: the peer does not propagate the NaN",
    "signed-zero": "max/min tie between +0 and -0: the peer keeps the other zero",
    "lowered-int64": "the peer computes int64 as int32 (values outside int32 are truncated)",
    "lowered-uint64": "the peer computes uint64 as int32 (truncated, sign-extended back)",
    "lowered-uint32": "the peer computes uint32 as int32 (signed max/min; values of 2^31 and up "
                      "compare as negative)",
    "lowered-float64": "the peer computes float64 as float32 (and turns ±inf into ±FLT_MAX)",
    "negative-index": "the peer mishandles negative indices (agrees once they are normalized)",
    "negative-axis": "the peer fails on a negative axis unless indices have data's shape "
                     "(and agrees once the axis is counted from the front)",
}


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


# ---- running sgk ------------------------------------------------------------

def run_sgk(case, variant):
    """variant: 0 one-shot, 1 planned, 2 in place (scatters; gathers: one-shot)."""
    sgk.set_num_threads(1 + variant % 2)
    d, i, u = case.data, case.indices, case.updates
    if case.op == "scatter_nd":
        if variant % 3 == 1:
            with sgk.ScatterNDPlan(d, i, u, case.reduction) as plan:
                return plan.execute(d, u)
        if variant % 3 == 2 and d.dtype.kind != "O":
            out = d.copy()
            sgk.scatter_nd(out, i, u, case.reduction, out=out)
            return out
        return sgk.scatter_nd(d, i, u, case.reduction)
    if case.op == "scatter_elements":
        if variant % 3 == 1:
            with sgk.ScatterElementsPlan(d, i, u, case.axis, case.reduction) as plan:
                return plan.execute(d, u)
        if variant % 3 == 2 and d.dtype.kind != "O":
            out = d.copy()
            sgk.scatter_elements(out, i, u, case.axis, case.reduction, out=out)
            return out
        return sgk.scatter_elements(d, i, u, case.axis, case.reduction)
    if case.op == "gather_nd":
        if variant % 2:
            with sgk.GatherNDPlan(d, i, case.batch_dims) as plan:
                return plan.execute(d)
        return sgk.gather_nd(d, i, case.batch_dims)
    if variant % 2:
        with sgk.GatherElementsPlan(d, i, case.axis) as plan:
            return plan.execute(d)
    return sgk.gather_elements(d, i, case.axis)


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


# ---- who writes where -------------------------------------------------------

def writers(case):
    """For every output element (flat), the list of update elements (flat
    positions in updates) applied to it, in order."""
    out = defaultdict(list)
    d, i = case.data, case.indices
    if case.op == "scatter_nd":
        k = i.shape[-1]
        slice_len = int(np.prod(d.shape[k:], dtype=np.int64))
        for n, tup in enumerate(i.reshape(-1, k)):
            coords = tuple(int(t) % s for t, s in zip(tup, d.shape))
            base = int(np.ravel_multi_index(coords, d.shape[:k])) * slice_len
            for e in range(slice_len):
                out[base + e].append(n * slice_len + e)
    elif case.op == "scatter_elements":
        axis = case.axis % d.ndim
        for n, pos in enumerate(np.ndindex(i.shape)):
            t = list(pos)
            t[axis] = int(i[pos]) % d.shape[axis]
            out[int(np.ravel_multi_index(t, d.shape))].append(n)
    return out


# ---- classifying a peer's disagreement --------------------------------------

def _differing(a, b):
    a, b = a.reshape(-1), b.reshape(-1)
    return [e for e in range(a.size) if not definition.same(a[e:e + 1], b[e:e + 1])]


FLT_MAX = np.finfo(np.float32).max


def _saturate(a):
    """OpenVINO's float64 <-> float32 conversions turn ±inf into ±FLT_MAX."""
    return np.where(np.isinf(a), np.sign(a) * FLT_MAX, a).astype(np.float32)


# How OpenVINO's CPU plugin runs types it has no kernels for: in a narrower
# type, converting on the way in and out.  (the type it computes in, input
# conversion, output conversion back to the case's type).
OV_LOWERING = {
    "int64": (np.int32, lambda a: a.astype(np.int32), lambda a: a.astype(np.int64)),
    "uint64": (np.int32, lambda a: a.astype(np.int32),
               lambda a: a.astype(np.int64).astype(np.uint64)),
    "uint32": (np.int32, lambda a: a.astype(np.int32), lambda a: a.astype(np.uint32)),
    "float64": (np.float32, _saturate, lambda a: _saturate(a).astype(np.float64)),
}


def lowered_case(case, peer_out):
    """(the case in the peer's narrower type, peer_out in that type), when
    peer_out is exactly representable there; else None."""
    low = OV_LOWERING.get(case.dtype_name)
    if low is None:
        return None
    dtype, down, up = low
    with np.errstate(all="ignore"):
        out = peer_out.astype(dtype)
        if not definition.same(up(out), peer_out):
            return None
        lc = Case(case.op, np.dtype(dtype).name, case.reduction, down(case.data), case.indices,
                  None if case.updates is None else down(case.updates), axis=case.axis,
                  batch_dims=case.batch_dims)
    return lc, out


def _wide(case):
    """Duplicates accumulated in a wider float type and rounded once."""
    wide = {"float16": np.float32, "bfloat16": np.float32,
            "float32": np.float64}.get(case.dtype_name)
    if wide is None:
        return None
    with np.errstate(all="ignore"):
        return run_definition(case, case.data.astype(wide),
                              case.updates.astype(wide)).astype(case.data.dtype)


UNIT_ROUNDOFF = {2: 2.0 ** -7, 4: 2.0 ** -23, 8: 2.0 ** -52}  # generous: truncation


def within_error_bound(case, peer_out, want, diff, who):
    """Every differing element within the first-order error bound of a
    sum (n u sum|x|) or product (n u |p|) of its terms."""
    part = case.data.real.dtype if case.data.dtype.kind == "c" else case.data.dtype
    u = 2.0 ** -10 if part == np.float16 else UNIT_ROUNDOFF[part.itemsize]
    data, upd = case.data.reshape(-1), case.updates.reshape(-1)
    got, w = peer_out.reshape(-1), want.reshape(-1)
    for e in diff:
        g, x = complex(got[e]), complex(w[e])
        if np.isnan(g) and np.isnan(x):
            continue
        if not (np.isfinite(g) and np.isfinite(x)):
            return False
        n = len(who[e]) + 1
        if case.reduction == "mul":
            scale = abs(x)
        else:
            scale = abs(complex(data[e])) + sum(abs(complex(upd[t])) for t in who[e])
        factor = 4 if case.data.dtype.kind == "c" else 2
        if abs(g - x) > factor * n * u * max(scale, 1e-300):
            return False
    return True


def classify_against(case, peer_out, want):
    """The class explaining every element where peer_out differs from want,
    or None."""
    if peer_out.dtype != want.dtype or peer_out.shape != want.shape:
        return None
    diff = _differing(peer_out, want)
    if not diff:
        return "same"
    if case.op.startswith("gather"):
        return None
    who = writers(case)
    upd, got, data = case.updates.reshape(-1), peer_out.reshape(-1), case.data.reshape(-1)
    if any(len(who.get(e, ())) == 0 for e in diff):
        return None  # an element no update touches must be data's
    red, is_float = case.reduction, definition.is_float(case.data.dtype)
    if red == "none":
        if not all(len(who[e]) >= 2 and any(definition.same(got[e:e + 1], upd[w:w + 1])
                                             for w in who[e]) for e in diff):
            return None
        first = run_definition(case, reverse=True)
        return "none-first" if definition.same(peer_out, first) else "none-order"
    if red in ("add", "sub", "mul") and (is_float or case.data.dtype.kind == "c"):
        dup = all(len(who[e]) >= 2 for e in diff)
        wide = _wide(case)
        if dup and wide is not None and definition.same(peer_out, wide):
            return "wide-accum"
        if red == "mul" and case.data.dtype.kind == "c":
            # NumPy fuses in its vector loop, not for a single element: judge
            # only the elements that differ
            fused = run_definition(case, fused_complex=True).reshape(-1)
            if all(definition.same(got[e:e + 1], fused[e:e + 1]) for e in diff):
                return "complex-fma"
        if dup and definition.same(peer_out, run_definition(case, reverse=True)):
            return "reorder"
        if not within_error_bound(case, peer_out, want, diff, who):
            return None
        if dup:
            return "rounding"
        if case.data.dtype != BFLOAT16:
            return None
        # an element with one update: the float32 result truncated to bfloat16
        f32 = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[red]
        for e in diff:
            if len(who[e]) == 1:
                exact = f32(np.float32(data[e]), np.float32(upd[who[e][0]]), dtype=np.float32)
                cut = (np.array([exact]).view(np.uint32) & 0xFFFF0000).view(np.float32)
                if not definition.same(got[e:e + 1], cut.astype(BFLOAT16)):
                    return None
        return "bf16-rounding"
    if red in ("max", "min") and is_float:
        def nanish(e):
            vals = [float(data[e])] + [float(upd[x]) for x in who[e]]
            return any(np.isnan(v) for v in vals)
        if all(nanish(e) for e in diff):
            return "nan"
        w = want.reshape(-1)
        if all(float(got[e]) == 0.0 and float(w[e]) == 0.0 for e in diff):
            return "signed-zero"
        return None
    return None


def classify(case, peer, peer_out, want):
    klass = classify_against(case, peer_out, want)
    if klass is not None:
        return klass
    low = lowered_case(case, peer_out) if peer.name == "openvino" else None
    if low is not None:
        lc, out = low
        want_low = run_definition(lc)
        if case.dtype_name == "float64":
            want_low = _saturate(want_low)
        inner = classify_against(lc, out, want_low)
        if inner is not None:
            return f"lowered-{case.dtype_name}" + ("" if inner == "same" else f" + {inner}")
    if (case.indices < 0).any():
        normalized = case.indices.copy()
        shape = case.data.shape
        if case.op in ("scatter_nd", "gather_nd"):
            off = case.batch_dims if case.op == "gather_nd" else 0
            for j in range(case.indices.shape[-1]):
                normalized[..., j] %= shape[off + j]
        else:
            normalized %= shape[case.axis % case.data.ndim]
        try:
            again = peer.run(case, normalized)
        except Exception:
            return None
        if classify_against(case, again, want) is not None:
            return "negative-index"
    return None


def retry_positive_axis(case, peer, want):
    """"negative-axis" when the peer, which failed, agrees with the same
    axis counted from the front."""
    if case.op not in ("scatter_elements", "gather_elements") or case.axis >= 0:
        return None
    again = Case(case.op, case.dtype_name, case.reduction, case.data, case.indices,
                 case.updates, axis=case.axis % case.data.ndim)
    try:
        inner = classify_against(again, peer.run(again), want)
    except Exception:
        return None
    if inner is None:
        return None
    return "negative-axis" + ("" if inner == "same" else f" + {inner}")


def error_text(e):
    """The telling line of an exception's message."""
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()
             and not ln.strip().startswith(("Exception from", "Check '"))]
    return (lines[-1] if lines else type(e).__name__)[:160]


def format_example(case, peer, peer_out, want):
    diff = _differing(peer_out, want)[:3]
    got, w = peer_out.reshape(-1), want.reshape(-1)
    elems = ", ".join(f"flat[{e}]: {peer.name} {got[e]!r}, definition {w[e]!r}" for e in diff)
    return f"{case.reproducer()}  ->  {elems}"


# ---- probes: minimal inputs showing each behaviour ---------------------------

def _a(values, dtype):
    return np.array(values, dtype=np_dtype(dtype) if isinstance(dtype, str) else dtype)


def probes():
    """Tiny hand-written inputs, one per behaviour the random cases found
    (and the out-of-range checks): sgk must equal the definition (or raise
    IndexOutOfRangeError with its output untouched); what each peer returns
    is recorded for the report, not judged."""
    f32, i64 = "float32", np.int64
    out = [
        ("duplicates under none", Case("scatter_nd", f32, "none", _a([0, 0], f32),
                                       _a([[0], [0]], i64), _a([1, 2], f32))),
        ("float16 sum, duplicates", Case("scatter_nd", "float16", "add", _a([2048], "float16"),
                                         _a([[0], [0]], i64), _a([1, 1], "float16"))),
        ("bfloat16 sum, one update", Case("scatter_nd", "bfloat16", "add",
                                          _a([1.0], "bfloat16"), _a([[0]], i64),
                                          _a([0.333984375], "bfloat16"))),
        ("complex mul (slices of two)",
         Case("scatter_nd", "complex128", "mul", _a([[0.1 + 0.1j] * 2], "complex128"),
              _a([[0]], i64), _a([[0.1 + 0.1j] * 2], "complex128"))),
        ("max with NaN update (ScatterND)", Case("scatter_nd", f32, "max", _a([1.0], f32),
                                                 _a([[0]], i64), _a([np.nan], f32))),
        ("max with NaN update (ScatterElements)",
         Case("scatter_elements", f32, "max", _a([1.0], f32), _a([0], i64),
              _a([np.nan], f32))),
        ("max tie of -0 and +0 (ScatterElements)",
         Case("scatter_elements", f32, "max", _a([-0.0], f32), _a([0], i64), _a([0.0], f32))),
        ("int64 beyond int32", Case("scatter_nd", "int64", "none", _a([0], "int64"),
                                    _a([[0]], i64), _a([2 ** 33 + 5], "int64"))),
        ("uint64 beyond int32", Case("gather_nd", "uint64", "none",
                                     _a([2 ** 31, 2 ** 32 + 1], "uint64"), _a([[0], [1]], i64))),
        ("uint32 max at 2^31", Case("scatter_nd", "uint32", "max", _a([0], "uint32"),
                                    _a([[0]], i64), _a([2 ** 31], "uint32"))),
        ("float64 precision and inf", Case("gather_nd", "float64", "none",
                                           _a([0.1, np.inf], "float64"), _a([[0], [1]], i64))),
        ("negative axis", Case("gather_elements", f32, "none", _a([[1, 2], [3, 4]], f32),
                               _a([[0], [1]], i64), axis=-1)),
        # out of range: every peer and sgk should refuse
        ("coordinate out of range, flat offset inside",
         Case("scatter_nd", f32, "none", np.zeros((2, 3), np.float32), _a([[0, 3]], i64),
              _a([1], f32), tag="error")),
        ("coordinate out of range, flat offset inside",
         Case("gather_nd", f32, "none", np.arange(6, dtype=np.float32).reshape(2, 3),
              _a([[0, 3]], i64), tag="error")),
        ("index below -s", Case("scatter_nd", f32, "add", np.zeros((2, 3), np.float32),
                                _a([[0, -4]], i64), _a([1], f32), tag="error")),
        ("index s", Case("scatter_elements", "int32", "none", _a([0, 0, 0], "int32"),
                         _a([3], i64), _a([1], "int32"), tag="error")),
        # OpenVINO 2026.4's ScatterElementsUpdate takes an index below -s and
        # writes outside its output (glibc then aborts: "double free or
        # corruption"), so it does not run this one
        ("index below -s", Case("scatter_elements", f32, "max", _a([0, 0, 0], f32),
                                _a([-5], i64), _a([1], f32), tag="error",
                                unsafe_for=("openvino",))),
        ("index s", Case("gather_elements", f32, "none", _a([1, 2, 3], f32), _a([3], i64),
                         tag="error")),
        ("index below -s", Case("gather_elements", f32, "none", _a([1, 2, 3], f32),
                                _a([-4], i64), tag="error")),
    ]
    for n, (_, c) in enumerate(out):
        c.id = f"{c.op}#probe-{n}"
    return out


def show(x):
    """Values as nested lists (bfloat16 through float32)."""
    x = np.asarray(x)
    return repr((x.astype(np.float32) if x.dtype == BFLOAT16 else x).tolist())


def run_probe(case, peers):
    """(sgk as required?, what sgk did, {peer: (what it did, departs?)})."""
    error = case.tag == "error"
    guard, work = case.data.copy(), None
    try:
        if case.op.startswith("scatter") and error:
            work = case.data.copy()
            fn = sgk.scatter_nd if case.op == "scatter_nd" else sgk.scatter_elements
            extra = (case.reduction,) if case.op == "scatter_nd" else (case.axis, case.reduction)
            fn(work, case.indices, case.updates, *extra, out=work)
        else:
            work = run_sgk(case, 0)
        want = None if error else run_definition(case)
        ok = not error and definition.same(work, want)
        text = show(work) + ("" if ok else
                             " (should have raised)" if error else f" (definition {show(want)})")
    except sgk.IndexOutOfRangeError as e:
        ok = error and (work is None or definition.same(work, guard))
        text = "IndexOutOfRangeError" + ("" if ok else " (unexpected, or the data changed)")
        if ok:
            text += f": {e.message}"
        want = None
    except sgk.SgkError as e:
        ok, text, want = False, f"{type(e).__name__}: {e.message}", None
    behaviour = {}
    for p in peers:
        if not p.supports(case) and not (error and p.name == "onnx-ref"):
            continue
        if p.name in case.unsafe_for:
            behaviour[p.name] = ("not run: writes outside its buffers (heap corruption)", True)
            continue
        try:
            res = p.run(case)
            departs = error or want is None or not definition.same(res, want)
            behaviour[p.name] = (show(res), departs)
        except Exception as e:
            behaviour[p.name] = ("raised: " + error_text(e), not error)
    return ok, text, behaviour


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", default="/tmp/conformance-findings.md",
                        help="Markdown report of the peers' disagreements ('' for none)")
    parser.add_argument("--reps", type=int, default=2,
                        help="cases per (operator, dtype, reduction) for scatters")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    t0 = time.time()
    peers, missing = peer_module.load_peers()
    for m in missing:
        print(f"test_differential: {m}")
    if not peers:
        print("test_differential: no peer importable")
    print(f"test_differential: sgk {sgk.version()} ({sgk.library_path()}); peers: " +
          (", ".join(f"{p.label} ({p.version})" for p in peers) or "none"))
    reps = {"scatter_nd": args.reps, "scatter_elements": args.reps,
            "gather_nd": 2 * args.reps, "gather_elements": 2 * args.reps}
    cases = build_cases(peers, reps)

    passed = failed = 0
    runs = Counter()          # (peer, op) -> cases run
    agree = Counter()         # (peer, op) -> cases equal to sgk
    peer_errors = defaultdict(list)
    findings = defaultdict(list)  # (peer, op, class) -> [(case, example, size)]
    failures = []
    for n, case in enumerate(cases):
        ok = True
        try:
            want = run_definition(case)
        except Exception as e:
            failures.append(f"{case.id}: the definition raised {e!r}: {case.reproducer()}")
            failed += 1
            continue
        try:
            got = run_sgk(case, n)
        except sgk.SgkError as e:
            got = None
            failures.append(f"{case.id}: sgk raised {type(e).__name__}: {e.message}\n"
                            f"      {case.reproducer()}")
            ok = False
        arithmetic = case.reduction in ("add", "sub", "mul")
        if got is not None and not definition.same(got, want, any_nan=arithmetic):
            failures.append(f"{case.id}: sgk differs from the definition (sgk bug): "
                            f"{definition.describe_difference(got, want)}\n"
                            f"      {case.reproducer()}")
            ok = False
        for p in peers:
            if not p.supports(case):
                continue
            runs[p.name, case.op] += 1
            try:
                peer_out = p.run(case)
            except Exception as e:
                klass = retry_positive_axis(case, p, want)
                if klass is not None:
                    findings[p.name, case.op, klass].append(
                        (case.size, case, f"{case.reproducer()}  ->  {p.name} raised: "
                                          f"{error_text(e)}"))
                    continue
                msg = error_text(e)
                peer_errors[p.name, case.op].append(f"{case.dtype_name}/{case.reduction}: {msg}")
                continue
            if got is not None and definition.same(peer_out, got):
                agree[p.name, case.op] += 1
                continue
            klass = classify(case, p, peer_out, want)
            if klass in (None, "same"):
                detail = (definition.describe_difference(peer_out, want) if klass is None
                          else "peer matches the definition but sgk does not")
                if klass is None:
                    failures.append(f"{case.id}: {p.name} differs from sgk and the "
                                    f"definition, unexplained: {detail}\n"
                                    f"      {case.reproducer()}")
                    ok = False
                continue
            findings[p.name, case.op, klass].append(
                (case.size, case, format_example(case, p, peer_out, want)))
        if args.verbose:
            print(f"{'PASS' if ok else 'FAIL'}  {case.id}  {case.dtype_name}  {case.attrs()}  "
                  f"data{list(case.data.shape)} indices{list(case.indices.shape)}")
        passed += ok
        failed += not ok

    probe_notes = []
    for what, case in probes():
        ok, text, behaviour = run_probe(case, peers)
        probe_notes.append((what, case, ok, text, behaviour))
        if not ok:
            failures.append(f"{case.id}: sgk {text}: {case.reproducer()}")
        passed += ok
        failed += not ok
    sgk.set_num_threads(0)

    # ---- report
    print()
    print(f"test_differential: {len(cases)} random cases and {len(probe_notes)} probes in "
          f"{time.time() - t0:.1f} s")
    for p in peers:
        for op in GENERATORS:
            r = runs[p.name, op]
            if not r:
                continue
            nfind = sum(len(v) for (pn, o, _), v in findings.items() if pn == p.name and o == op)
            print(f"  {p.name:9s} {p.ops[op]:25s} {r:4d} cases: {agree[p.name, op]:4d} equal to "
                  f"sgk, {nfind:3d} explained disagreements, "
                  f"{len(peer_errors[p.name, op]):3d} peer errors")
    if findings:
        print("\nPeers' disagreements with the sequential definition (docs/semantics.md, "
              "\"Semantics, stated plainly\"; sgk equals the definition in each), smallest "
              "random example "
              "of each:")
        for (pname, op, klass), items in sorted(findings.items()):
            items.sort(key=lambda t: t[0])
            dts = sorted({c.dtype_name for _, c, _ in items})
            print(f"  [{pname} {op} {klass}] {len(items)} case(s), types {', '.join(dts)}")
            print(f"      e.g. {items[0][2]}")
    for (pname, op), errs in sorted(peer_errors.items()):
        if not errs:
            continue
        kinds = Counter(errs)
        print(f"  [{pname} {op} peer raised] {len(errs)} case(s): " +
              "; ".join(f"{k} (x{v})" for k, v in kinds.most_common(4)))
    print("\nProbes (minimal inputs; the peers' results are recorded, not judged):")
    for what, case, ok, text, behaviour in probe_notes:
        print(f"  {'PASS' if ok else 'FAIL'}  {what}: {case.reproducer()}")
        print(f"      sgk: {text}")
        for pname, (b, departs) in behaviour.items():
            print(f"      {pname}: {b}{'   <- departs' if departs else ''}")
    if args.findings:
        write_findings(args.findings, peers, runs, agree, findings, peer_errors, probe_notes,
                       len(cases))
        print(f"\ntest_differential: findings written to {args.findings}")
    for f in failures:
        print(f"FAIL  {f}")
    print(f"[  PASSED  ] {passed} test(s).")
    if failed:
        print(f"[  FAILED  ] {failed} test(s).")
    return 0 if failed == 0 else 1


def compact_call(case):
    """A short form of a call for the report: values as lists."""
    args = [f"data={show(case.data)}", f"indices={case.indices.tolist()}"]
    if case.updates is not None:
        args.append(f"updates={show(case.updates)}")
    attrs = case.attrs()
    if case.op in ("scatter_nd", "gather_nd"):
        attrs = attrs if attrs not in ("reduction=none", "batch_dims=0") else ""
    return f"{case.op}({', '.join(args + ([attrs] if attrs else []))}), {case.dtype_name}"


def write_findings(path, peers, runs, agree, findings, peer_errors, probe_notes, ncases):
    labels = {p.name: f"{p.label} ({p.version})" for p in peers}
    lines = ["### Conformance: where the peers depart from the sequential definition", "",
             f"`tests/conformance/test_differential.py` runs {ncases} randomized cases "
             "(fixed seeds) through sgk, the sequential definition (docs/semantics.md, "
             "\"Semantics, stated plainly\"; `tests/conformance/definition.py`) and the peers "
             + " and ".join(f"{k}: {v}" for k, v in labels.items()) + ". sgk equals the "
             "definition bit for bit in every case. Every disagreement of a peer is checked "
             "against a named cause (an unexplained one fails the suite):", "",
             "| peer | operator | cases | equal to sgk | explained disagreements |",
             "|---|---|---|---|---|"]
    for p in peers:
        for op in GENERATORS:
            if runs[p.name, op]:
                nfind = sum(len(v) for (pn, o, _), v in findings.items()
                            if pn == p.name and o == op)
                lines.append(f"| {p.name} | {p.ops[op]} | {runs[p.name, op]} "
                             f"| {agree[p.name, op]} | {nfind} |")
    grouped = defaultdict(list)  # (peer, class) -> [(op, items)]
    for (pname, op, klass), items in sorted(findings.items()):
        grouped[pname, klass].append((op, items))
    lines += ["", "| peer | cause | operators (cases) | types | who is right |",
              "|---|---|---|---|---|"]
    for (pname, klass), per_op in sorted(grouped.items()):
        base = klass.split(" + ")
        text = "; then ".join(CLASS_TEXT.get(b, b) for b in base)
        peer = next(p for p in peers if p.name == pname)
        ops = ", ".join(f"{peer.ops[op]} ({len(items)})" for op, items in per_op)
        dts = ", ".join(sorted({c.dtype_name for _, items in per_op for _, c, _ in items}))
        lines.append(f"| {pname} | {text} | {ops} | {dts} | {right_side(base[0])} |")
    if any(peer_errors.values()):
        lines += ["", "Inputs a peer rejected (not compared):", ""]
        for (pname, op), errs in sorted(peer_errors.items()):
            if errs:
                lines.append(f"- {pname} {op}: " + "; ".join(
                    f"{k} (×{v})" for k, v in Counter(errs).most_common(4)))
    lines += ["", "Minimal reproducers, run by the suite (the peers' results as observed; "
              "**bold** where a peer departs from sgk):", "",
              "| behaviour | call | sgk (= definition) | " +
              " | ".join(p.name for p in peers) + " |",
              "|---|---|---|" + "---|" * len(peers)]
    for what, case, ok, text, behaviour in probe_notes:
        cells = []
        for p in peers:
            if p.name not in behaviour:
                cells.append("—")
                continue
            b, departs = behaviour[p.name]
            b = "raises" if b.startswith("raised") else b.replace("|", "\\|")
            cells.append(f"**{b}**" if departs else b)
        sgk_text = "raises IndexOutOfRange" if text.startswith("IndexOutOfRange") else text
        lines.append(f"| {what} | `{compact_call(case)}` | {sgk_text} | " + " | ".join(cells)
                     + " |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def right_side(klass):
    if klass.startswith("none"):
        return "both by their specifications (order unspecified); sgk by its definition " \
               "(last wins)"
    if klass in ("wide-accum", "reorder", "rounding"):
        return "sgk by its definition (sequential, rounded per update); the peer's result " \
               "is another rounding of the same terms"
    if klass == "bf16-rounding":
        return "sgk: round-to-nearest-even per update is the definition; truncation is " \
               "less accurate"
    if klass == "complex-fma":
        return "sgk by its definition (plain product, no contraction); the peer's fused " \
               "result is as accurate"
    if klass in ("nan", "signed-zero"):
        return "sgk (NumPy maximum/minimum semantics); the specifications are silent"
    if klass.startswith("lowered"):
        return "sgk: the peer loses range or precision"
    if klass == "negative-index":
        return "sgk: the specification allows negative indices"
    if klass == "negative-axis":
        return "sgk: the specification allows a negative axis (a bug of the reference)"
    return "?"


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sys.exit(main())
