"""Why a peer differs from sgk, for the differential tests
(test_differential.py): which updates write each element, and the known
causes (test_differential.py's docstring lists them), each checked by
reproducing the peer's output, not assumed.
"""
from collections import defaultdict

import numpy as np

import definition
from definition import BFLOAT16
from differential_cases import Case, run_definition

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
