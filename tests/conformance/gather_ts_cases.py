"""The cases of the Gather and TensorScatter differential tests
(test_differential_gather_ts.py): the Case record and random cases of
every type, both modes and every kind of write index.
"""
import numpy as np

from definition import BFLOAT16
from differential_cases import random_values


SEED = 20261124
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "string"]


class Case:
    def __init__(self, op, dtype_name, data, indices=None, update=None, axis=0, mode="linear",
                 tag=""):
        self.op, self.dtype_name = op, dtype_name
        self.data, self.indices, self.update = data, indices, update
        self.axis, self.mode, self.tag = axis, mode, tag
        self.id = ""

    def inputs(self):
        """(ONNX input names, arrays) of the node."""
        if self.op == "gather":
            return ["data", "indices"], [self.data, self.indices]
        names, arrays = ["past_cache", "update"], [self.data, self.update]
        if self.indices is not None:
            names.append("write_indices")
            arrays.append(self.indices)
        return names, arrays

    def attrs(self):
        if self.op == "gather":
            return {"axis": self.axis}
        return {"axis": self.axis, "mode": self.mode}

    def call(self):
        """The call as text: values as lists."""
        def show(a):
            if a is None:
                return "None"
            return repr((a.astype(np.float32) if a.dtype == BFLOAT16 else a).tolist())
        if self.op == "gather":
            return (f"gather(data={show(self.data)}, indices={show(self.indices)}, "
                    f"axis={self.axis}), {self.dtype_name}")
        return (f"tensor_scatter(past_cache={show(self.data)}, update={show(self.update)}, "
                f"write_indices={show(self.indices)}, axis={self.axis}, mode={self.mode}), "
                f"{self.dtype_name}")



# ---- random cases ------------------------------------------------------------

def dims(rng, rank, lo, hi):
    return tuple(int(v) for v in rng.integers(lo, hi + 1, size=rank))


def gen_gather(rng, name):
    rank = int(rng.integers(1, 5))
    shape = dims(rng, rank, 1, 5 if rank < 4 else 3)
    axis = int(rng.integers(-rank, rank))
    size = shape[axis]
    ishape = dims(rng, int(rng.integers(0, 3)), 0 if rng.random() < 0.1 else 1, 4)
    itype = np.int32 if rng.random() < 0.4 else np.int64
    indices = rng.integers(-size, size, size=ishape).astype(itype)
    return Case("gather", name, random_values(rng, name, shape), np.asarray(indices),
                axis=axis)


def gen_tensor_scatter(rng, name, mode):
    rank = int(rng.integers(2, 5))
    shape = dims(rng, rank, 1, 5 if rank < 4 else 3)
    axis = int(rng.integers(1, rank))
    ushape = list(shape)
    ushape[axis] = seq = int(rng.integers(0, shape[axis] + 1))
    length = shape[axis]
    if mode == "linear":
        w = rng.integers(0, length - seq + 1, size=shape[0])
    else:
        w = rng.integers(-2 * length, 3 * length, size=shape[0])
    itype = np.int64  # ONNX's type; sgk's int32 is tested by its own suites
    indices = None if rng.random() < 0.15 else w.astype(itype)
    if rng.random() < 0.5:
        axis -= rank
    return Case("tensor_scatter", name, random_values(rng, name, shape),
                indices, random_values(rng, name, tuple(ushape)), axis=axis, mode=mode)


def build_cases(reps):
    rng = np.random.default_rng(SEED)
    cases = []
    for name in DTYPES:
        for _ in range(2 * reps):
            cases.append(gen_gather(rng, name))
        for mode in ("linear", "circular"):
            for _ in range(reps):
                cases.append(gen_tensor_scatter(rng, name, mode))
    # a decode step of batch 4 into a ring buffer, and an embedding lookup
    cases.append(Case("tensor_scatter", "float16",
                      random_values(rng, "float16", (4, 8, 256, 64)),
                      np.array([0, 255, 256, -1], np.int64),
                      random_values(rng, "float16", (4, 8, 1, 64)), axis=-2, mode="circular"))
    cases.append(Case("gather", "float32", random_values(rng, "float32", (1000, 64)),
                      rng.integers(-1000, 1000, size=(8, 128)), axis=0))
    for n, c in enumerate(cases):
        c.id = f"{c.op}#{n}"
    return cases
