"""What the binding's tests (tests/python/test_binding*.py) check against:
small NumPy references written from the sequential definition of the
README's "Semantics, stated plainly", and the operands they run on.
NumPy only: the test files import sgk themselves.
"""
import numpy as np

RNG = np.random.default_rng(20240611)

# ---- reference arithmetic ----------------------------------------------------
# bfloat16 is handled as uint16 bits in the references ("bf16" kind).


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values):
    """Round to nearest even; NaN stays NaN (quieted)."""
    u = np.asarray(values, dtype=np.float32).view(np.uint32)
    rounded = ((u + (((u >> 16) & 1) + 0x7FFF)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), rounded)


def kind_of(dtype_name):
    if dtype_name == "bfloat16":
        return "bf16"
    dt = np.dtype(dtype_name) if dtype_name != "string" else np.dtype(object)
    if dt.kind == "b":
        return "bool"
    if dt == np.float16:
        return "f16"
    if dt.kind == "f":
        return "float"
    if dt.kind == "c":
        return "complex"
    if dt.kind == "O":
        return "string"
    return "int"


def combine(red, a, b, kind):
    """f(stored, update) on equal-length 1-D arrays, per the README's
    "Semantics, stated plainly"."""
    if red == "none":
        return b.copy()
    if kind == "bool":
        a, b = a.astype(bool), b.astype(bool)
        return {"add": a | b, "max": a | b, "sub": a ^ b, "mul": a & b, "min": a & b}[red]
    if red in ("max", "min"):
        if kind in ("int",):
            return np.maximum(a, b) if red == "max" else np.minimum(a, b)
        fa = bf16_to_f32(a) if kind == "bf16" else a
        fb = bf16_to_f32(b) if kind == "bf16" else b
        better = fb > fa if red == "max" else fb < fa
        take_b = (np.isnan(fb) & ~np.isnan(fa)) | better  # a tie keeps the stored value
        return np.where(take_b, b, a)
    if kind in ("f16", "bf16"):
        fa = bf16_to_f32(a) if kind == "bf16" else a.astype(np.float32)
        fb = bf16_to_f32(b) if kind == "bf16" else b.astype(np.float32)
        r = {"add": fa + fb, "sub": fa - fb, "mul": fa * fb}[red]
        return f32_to_bf16(r) if kind == "bf16" else r.astype(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        return {"add": a + b, "sub": a - b, "mul": a * b}[red]


def norm(i, s):
    i = int(i)
    return i + s if i < 0 else i


def ref_scatter_nd(data, indices, updates, red, kind):
    out = data.copy()
    k = indices.shape[-1]
    tuples = indices.reshape(-1, k)
    slots = int(np.prod(data.shape[:k], dtype=np.int64))
    length = int(np.prod(data.shape[k:], dtype=np.int64))
    rows = out.reshape(slots, length)
    upd = updates.reshape(len(tuples), length)
    for n, t in enumerate(tuples):
        slot = np.ravel_multi_index(tuple(norm(c, s) for c, s in zip(t, data.shape)),
                                    data.shape[:k])
        rows[slot] = combine(red, rows[slot], upd[n], kind)
    return out


def ref_scatter_elements(data, indices, updates, axis, red, kind):
    out = data.copy()
    flat = out.reshape(-1)
    axis %= data.ndim
    upd = updates.reshape(-1)
    for n, pos in enumerate(np.ndindex(*indices.shape)):
        target = list(pos)
        target[axis] = norm(indices[pos], data.shape[axis])
        f = np.ravel_multi_index(tuple(target), data.shape)
        flat[f:f + 1] = combine(red, flat[f:f + 1], upd[n:n + 1], kind)
    return out


def ref_gather_nd(data, indices, b=0):
    k = indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[b + k:], dtype=data.dtype)
    for pos in np.ndindex(*indices.shape[:-1]):
        t = tuple(norm(c, s) for c, s in zip(indices[pos], data.shape[b:b + k]))
        out[pos] = data[pos[:b] + t]
    return out


def ref_gather_elements(data, indices, axis):
    axis %= data.ndim
    out = np.empty(indices.shape, dtype=data.dtype)
    for pos in np.ndindex(*indices.shape):
        src = list(pos)
        src[axis] = norm(indices[pos], data.shape[axis])
        out[pos] = data[tuple(src)]
    return out


# ---- operands ----------------------------------------------------------------

NUMERIC = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]
REDUCTIONS = ["none", "add", "sub", "mul", "max", "min"]


def supported(name, red):
    if name == "string":
        return red == "none"
    if name.startswith("complex"):
        return red not in ("max", "min")
    return True


def values(name, shape, with_nan=True):
    """Random operands of sgk type name (bfloat16 as uint16 bits)."""
    n = int(np.prod(shape, dtype=np.int64))
    if name == "bool":
        return RNG.integers(0, 2, n).astype(bool).reshape(shape)
    if name == "bfloat16":
        return f32_to_bf16(RNG.standard_normal(n).astype(np.float32) * 4).reshape(shape)
    if name == "string":
        pool = ["", "a", "bb", "ccc", "ünï", b"raw", b"\x00nul", "same", "same"]
        return np.array([pool[i] for i in RNG.integers(0, len(pool), n)],
                        dtype=object).reshape(shape)
    dt = np.dtype(name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True).reshape(shape)
    if dt.kind == "c":  # small integers: every product and sum is exact
        parts = RNG.integers(-5, 6, (n, 2)).astype(np.float64)
        return (parts[:, 0] + 1j * parts[:, 1]).astype(dt).reshape(shape)
    a = (RNG.standard_normal(n) * 4).astype(dt)
    if with_nan and n >= 4:
        a[RNG.integers(0, n)] = np.nan
    return a.reshape(shape)


def as_sgk(arr, name):
    """Call arguments for type name: bfloat16 bits need dtype='bfloat16'."""
    return {"dtype": "bfloat16"} if name == "bfloat16" else {}


def assert_same(test, got, want, msg=None):
    test.assertEqual(got.shape, want.shape, msg)
    test.assertEqual(got.dtype, want.dtype, msg)
    if got.dtype.kind in "fc":  # bit for bit, NaN included
        test.assertTrue(np.array_equal(got.view(np.uint8), want.view(np.uint8))
                        or np.array_equal(got, want, equal_nan=True), msg)
        np.testing.assert_array_equal(got, want, err_msg=str(msg))
    elif got.dtype == object:
        test.assertEqual(got.shape, want.shape)
        for g, w in zip(got.reshape(-1), want.reshape(-1)):
            test.assertIs(g, w, msg)
    else:
        np.testing.assert_array_equal(got, want, err_msg=str(msg))


ALL_TYPES = NUMERIC + ["bfloat16", "string"]
