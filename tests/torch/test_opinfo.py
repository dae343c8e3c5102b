"""PyTorch's own OpInfo sample inputs (op_db, shipped in the wheel) for
every op the adapter overrides, in every dtype PyTorch supports on the CPU:
each sample runs with sgk enabled and disabled, functional, in place and
out=, and the results must be equal: bit for bit, except float sums,
products and means, whose order PyTorch's kernels choose by path
(docs/semantics.md), within PyTorch's own tolerance.  An input PyTorch
refuses must be refused with sgk too, with the same exception type.  The
counters must show that sgk served each op."""
import sys
import warnings

from common import Tally, sgk_torch, torch

warnings.filterwarnings("ignore")
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

# OpInfo name -> the adapter's counter that serves it.
SERVED = {
    "gather": "gather", "take_along_dim": "gather", "take": "take",
    "index_select": "index_select", "nn.functional.embedding": "index_select",
    "scatter": "scatter", "scatter_add": "scatter_add", "scatter_reduce": "scatter_reduce",
    "index_add": "index_add", "index_copy": "index_copy", "index_put": "index_put",
    "index_reduce": "index_reduce", "index_fill": "index_fill",
}
# Float results whose order of accumulation differs between PyTorch's
# paths: compared within PyTorch's tolerance.
REORDERED = {("scatter_add", ""), ("scatter_reduce", "sum"), ("scatter_reduce", "prod"),
             ("scatter_reduce", "mean"), ("index_add", ""), ("index_put", ""), ("scatter", ""),
             ("index_reduce", "prod"), ("index_reduce", "mean")}


def run(fn, sample, inplace=False, out=None):
    """fn on fresh copies of the sample's tensors: (result or exception type, inputs after)."""
    def copy(a):
        return a.clone() if isinstance(a, torch.Tensor) else a
    first = copy(sample.input)
    args = [copy(a) for a in sample.args]
    kwargs = {k: copy(v) for k, v in sample.kwargs.items()}
    if out is not None:
        kwargs["out"] = out
    try:
        with torch.no_grad():
            result = fn(first, *args, **kwargs)
    except Exception as exc:  # compared with the other run's
        return type(exc), first
    return result, first


def compare(a, b, exact):
    if isinstance(a, type) or isinstance(b, type):
        assert a == b, f"sgk: {a}, PyTorch: {b}"
        return
    if isinstance(a, (tuple, list)):
        for x, y in zip(a, b):
            compare(x, y, exact)
        return
    if not isinstance(a, torch.Tensor):
        assert a == b
        return
    if a.dtype == torch.complex32:  # torch.equal has no ComplexHalf kernel
        a, b = a.to(torch.complex64), b.to(torch.complex64)
    if exact or not (a.is_floating_point() or a.is_complex()):
        assert a.dtype == b.dtype and a.shape == b.shape, f"{a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}"
        assert torch.equal(a, b) or torch.equal(torch.isnan(a), torch.isnan(b)) and \
            torch.equal(a[~torch.isnan(a)], b[~torch.isnan(b)]), f"differ:\n{a}\n{b}"
    else:
        torch.testing.assert_close(a, b, equal_nan=True)


def check_op(op):
    exact = (op.name, op.variant_test_name) not in REORDERED
    samples_run = 0
    for dtype in sorted(op.supported_dtypes("cpu"), key=str):
        torch.manual_seed(0)
        for sample in op.sample_inputs("cpu", dtype, requires_grad=False):
            forms = [(op.op, False)]
            if op.inplace_variant is not None:
                forms.append((op.inplace_variant, True))
            for fn, inplace in forms:
                with sgk_torch.enabled():
                    mine, mine_in = run(fn, sample, inplace)
                theirs, theirs_in = run(fn, sample, inplace)
                try:
                    compare(mine, theirs, exact)
                    if inplace:
                        compare(mine_in, theirs_in, exact)
                except AssertionError as e:
                    raise AssertionError(f"{dtype} {'in place ' if inplace else ''}sample "
                                         f"{sample.summary() if hasattr(sample, 'summary') else sample}: {e}") from None
                if op.supports_out and not inplace and isinstance(theirs, torch.Tensor):
                    out = torch.empty_like(theirs)
                    with sgk_torch.enabled():
                        mine, _ = run(fn, sample, out=out)
                    compare(out if not isinstance(mine, type) else mine, theirs, exact)
                samples_run += 1
    return f"{samples_run} samples"


def main():
    tally = Tally("test_opinfo")
    sgk_torch.reset_counters()
    for op in op_db:
        if op.name in SERVED:
            label = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
            tally.run(label, check_op, op)
    counts = sgk_torch.counters()
    for name in sorted(set(SERVED.values())):
        def served(name=name):
            c = counts[name]
            assert c["sgk"] > 0, f"{name}: sgk served none: {c}"
            return f"sgk {c['sgk']}, fallback {c['fallback']}: {c['reasons']}"
        tally.run(f"counters: {name}", served)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
