"""The known causes of a peer's disagreement in the Gather and TensorScatter
differential tests (test_differential_gather_ts.py): each one checked
against the peer's output, not assumed, with its text and who is right."""
import numpy as np

import definition
from differential_causes import OV_LOWERING
from gather_ts_cases import Case


CLASS_TEXT = {
    "lowered-int64": "the peer computes int64 as int32 (values outside int32 are truncated)",
    "lowered-uint64": "the peer computes uint64 as int32 (truncated, sign-extended back)",
    "lowered-uint32": "the peer computes uint32 as int32",
    "lowered-float64": "the peer computes float64 as float32 (and turns ±inf into ±FLT_MAX)",
    "string-slices": "strings: the peer copies only the first string of each gathered "
                     "slice and leaves the others empty",
    "negative-circular": "circular mode: the peer rejects a negative write index (the "
                         "specification's pseudocode takes it modulo max_sequence_length, "
                         "as Python's %), and agrees once it is normalized",
}
RIGHT_SIDE = {
    "lowered": "sgk: the peer loses range or precision",
    "string-slices": "sgk: a bug of the peer",
    "negative-circular": "sgk: the pseudocode's `%` is Python's, defined for negative "
                         "values; the peer is stricter than the specification",
}


def lowered(case, peer_out, want):
    """The OpenVINO lowering of the case's type reproduces the peer's
    output from the definition's (Gather only moves values)."""
    low = OV_LOWERING.get(case.dtype_name)
    if low is None:
        return None
    _, down, up = low
    with np.errstate(all="ignore"):
        return f"lowered-{case.dtype_name}" if definition.same(up(down(want)), peer_out) \
            else None


def string_slices(case, peer_out, want):
    """Each gathered slice of several strings has its first string right
    and the others empty."""
    if case.op != "gather" or case.dtype_name != "string":
        return None
    axis = case.axis % case.data.ndim
    inner = int(np.prod(case.data.shape[axis + 1:], dtype=np.int64))
    if inner < 2 or peer_out.shape != want.shape:
        return None
    got, w = peer_out.reshape(-1, inner), want.reshape(-1, inner)
    ok = all(g[0] == x[0] and all(v == "" for v in g[1:]) for g, x in zip(got, w))
    return "string-slices" if ok else None


def explain_rejection(case, peer, want):
    """A valid input the peer raised on, when a known cause explains it."""
    if case.op == "tensor_scatter" and case.mode == "circular" and case.indices is not None \
            and (case.indices < 0).any():
        length = case.data.shape[case.axis]
        normalized = Case(case.op, case.dtype_name, case.data, case.indices % length,
                          case.update, case.axis, case.mode)
        try:
            if definition.same(peer.run(normalized), want):
                return "negative-circular"
        except Exception:  # noqa: BLE001 - unexplained then
            return None
    return None
