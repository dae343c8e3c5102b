"""The PyTorch adapter beyond OpInfo's samples: enable/disable and
SGK_TORCH, the PyG row layouts served as rows, gradcheck in float64
through every differentiable op, bad indices for every op (an exception of
PyTorch's type, nothing written), deterministic algorithms, the output
pool and counted fallbacks.  Forks, threads, SGK_VERBOSE and the version
lock are in test_adapter_processes.py."""
import os
import subprocess
import sys

import torch.nn.functional as F

from common import (PYTHON_DIR, fell_back, run_tests, served, sgk_torch, subprocess_python,
                    torch)


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert torch.equal(a, b), f"differ by {(a.double() - b.double()).abs().max()}"


def both(fn):
    """fn() with sgk, then with PyTorch alone."""
    with sgk_torch.enabled():
        mine = fn()
    return mine, fn()


def test_enable_disable():
    x, i = torch.randn(50, 8), torch.randint(0, 50, (30,))
    assert not sgk_torch.is_enabled()
    before = served("index_select")
    x.index_select(0, i)
    assert served("index_select") == before, "served while disabled"
    with sgk_torch.enabled():
        assert sgk_torch.is_enabled()
        x.index_select(0, i)
    assert not sgk_torch.is_enabled()
    assert served("index_select") == before + 1
    sgk_torch.enable()
    sgk_torch.enable()  # idempotent
    x.index_select(0, i)
    sgk_torch.disable()
    sgk_torch.disable()
    x.index_select(0, i)
    assert served("index_select") == before + 2


def test_env_enables():
    r = subprocess_python("import torch, sgk.torch as s; print(s.is_enabled())", {"SGK_TORCH": "1"})
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stdout + r.stderr
    assert "Overriding" not in r.stderr and "Warning" not in r.stderr, r.stderr


def test_default_size_rule():
    """Without SGK_TORCH_ELEMENTS_MAX (test_torch.sh sets it, to test sgk's
    element paths), element-wise calls of up to 2048 index elements reach
    sgk, and reductions other than a sum from 8192 on; the rest go to
    PyTorch (docs/torch.md)."""
    code = ("import torch, sgk.torch as s\n"
            "def ops(n):\n"
            "    x, i = torch.randn(n, n), torch.randint(0, n, (n, n))\n"
            "    x.gather(1, i); x.scatter_add(1, i, x); x.scatter_reduce(1, i, x, 'amax')\n"
            "with s.enabled():\n"
            "    for n in (32, 64, 128, 512):\n"  # 1024, 4096, 16384, 262144 index elements
            "        ops(n)\n"
            "c = s.counters()\n"
            "print(*(c[op][k] for op in ('gather', 'scatter_add', 'scatter_reduce')"
            " for k in ('sgk', 'fallback')))\n")
    env = {k: v for k, v in os.environ.items() if k != "SGK_TORCH_ELEMENTS_MAX"}
    full = dict(env, PYTHONPATH=PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.split() == ["1", "3", "1", "3", "3", "1"], \
        r.stdout + r.stderr


def test_rows_pyg():
    """index.view(-1, 1).expand_as(src): served as rows, equal to PyTorch."""
    torch.manual_seed(1)
    nodes, edges, feats = 2000, 30000, 32
    src = torch.randn(edges, feats)
    dst = torch.randint(0, nodes, (edges,))
    index = dst.view(-1, 1).expand_as(src)
    assert index.stride() == (1, 0)
    base = served("scatter_reduce")
    for reduce in ("amax", "amin", "sum", "mean", "prod"):
        for include_self in (False, True):
            mine, theirs = both(lambda: torch.zeros(nodes, feats).scatter_reduce(
                0, index, src, reduce, include_self=include_self))
            if reduce in ("amax", "amin"):
                same(mine, theirs)
            else:
                torch.testing.assert_close(mine, theirs, rtol=1e-4, atol=1e-5)
    assert served("scatter_reduce") == base + 10
    ints = torch.randint(-100, 100, (edges, feats))
    mine, theirs = both(lambda: torch.zeros(nodes, feats, dtype=torch.long).scatter_add(0, index, ints))
    same(mine, theirs)
    table = torch.randn(nodes, feats)
    base = served("gather")
    mine, theirs = both(lambda: table.gather(0, index))
    same(mine, theirs)
    assert served("gather") == base + 1


def test_rows_filled_once():
    """Rows that take one value (scatter's value form, the identity of
    include_self=False, a mean's count) on a nonzero self, integer and
    float, functional, in place and out=; a bad row index writes nothing."""
    torch.manual_seed(2)
    nodes, edges, feats = 500, 4000, 8
    dst = torch.randint(0, nodes, (edges,))
    for dtype in (torch.float32, torch.int64):
        self_ = (torch.randn(nodes, feats) * 50).to(dtype)
        src = (torch.randn(edges, feats) * 50).to(dtype)
        index = dst.view(-1, 1).expand_as(src)
        for reduce in ("mean", "amax", "sum", "prod"):
            for include_self in (False, True):
                mine, theirs = both(lambda: self_.scatter_reduce(0, index, src, reduce,
                                                                  include_self=include_self))
                torch.testing.assert_close(mine, theirs, rtol=1e-4, atol=1e-4)
                mine, theirs = both(lambda: self_.clone().scatter_reduce_(
                    0, index, src, reduce, include_self=include_self))
                torch.testing.assert_close(mine, theirs, rtol=1e-4, atol=1e-4)
        mine, theirs = both(lambda: self_.scatter(0, index, 7))
        same(mine, theirs)
        mine, theirs = both(lambda: torch.scatter(self_, 0, index, 7, out=torch.empty_like(self_)))
        same(mine, theirs)
        bad = index.clone()
        bad[-1] = nodes
        bad = bad[:, :1].expand_as(src)
        for call in (lambda t: t.scatter_reduce_(0, bad, src, "amax", include_self=False),
                     lambda t: t.scatter_(0, bad, 7)):
            target = self_.clone()
            with sgk_torch.enabled():
                try:
                    call(target)
                except RuntimeError:
                    pass
                else:
                    raise AssertionError("no error for a row index past the end")
            same(target, self_)


def test_strided_self_copied():
    """A strided self (a gradient's view) small against the index is copied
    and served: gather, and the functional scatter whose output is a copy."""
    torch.manual_seed(3)
    whole = torch.randn(300, 16)
    view = whole[:, 8:]
    index = torch.randint(0, 300, (3000,)).view(-1, 1).expand(3000, 8)
    src = torch.randn(3000, 8)
    base = served("gather"), served("scatter"), served("scatter_reduce")
    same(*both(lambda: view.gather(0, index)))
    same(*both(lambda: view.scatter(0, index, 0.5)))
    same(*both(lambda: view.scatter_reduce(0, index, src, "amax", include_self=False)))
    assert (served("gather"), served("scatter"), served("scatter_reduce")) == \
        (base[0] + 1, base[1] + 1, base[2] + 1)
    assert torch.equal(whole[:, 8:], view)  # the view itself is untouched


def test_gradcheck():
    torch.manual_seed(2)
    d = torch.float64
    x = torch.randn(6, 5, dtype=d, requires_grad=True)
    idx = torch.tensor([[0, 1, 2, 3, 4], [5, 4, 3, 2, 1], [2, 2, 0, 1, 5]])
    rows = torch.tensor([0, 3, 3, 5])
    src = torch.randn(3, 5, dtype=d, requires_grad=True)
    upd = torch.randn(4, 5, dtype=d, requires_grad=True)
    perm = torch.tensor([4, 0, 2, 1])
    weight = torch.randn(7, 5, dtype=d, requires_grad=True)
    ids = torch.tensor([[1, 3, 3], [6, 0, 1]])
    cases = {
        "gather": lambda x: x.gather(0, idx),
        "gather rows": lambda x: x.gather(0, rows.view(-1, 1).expand(4, 5)),
        "scatter": lambda x, s: x.scatter(0, idx[:1], s[:1]),
        "scatter_add": lambda x, s: x.scatter_add(0, idx, s),
        "scatter_add rows": lambda x, u: x.scatter_add(0, rows.view(-1, 1).expand(4, 5), u),
        "index_select": lambda x: x.index_select(0, rows),
        "index_add": lambda x, u: x.index_add(0, rows, u),
        "index_copy": lambda x, u: x.index_copy(0, perm, u),
        "index_put": lambda x, u: x.index_put((perm,), u),
        "index_put accumulate": lambda x, u: x.index_put((rows,), u, accumulate=True),
        "take": lambda x: x.take(torch.tensor([0, 29, -1, 7])),
        "take_along_dim": lambda x: torch.take_along_dim(x, idx, 0),
        "embedding": lambda w: F.embedding(ids, w),
    }
    for reduce in ("prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            cases[f"index_reduce {reduce} {include_self}"] = (
                lambda x, u, r=reduce, i=include_self: x.index_reduce(0, rows, u, r, include_self=i))
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            cases[f"scatter_reduce {reduce} {include_self}"] = (
                lambda x, s, r=reduce, i=include_self: x.scatter_reduce(0, idx, s, r, include_self=i))
    inputs = {1: (x,), 2: None}
    base = {op: served(op) for op in ("gather", "scatter_reduce", "embedding_dense_backward",
                                      "index_add", "index_put", "index_reduce")}
    with sgk_torch.enabled():
        for name, fn in cases.items():
            nargs = fn.__code__.co_argcount - (len(fn.__defaults__) if fn.__defaults__ else 0)
            if name.startswith("embedding"):
                args = (weight,)
            elif nargs == 1:
                args = inputs[1]
            else:
                second = src if "scatter" in name and "rows" not in name else upd
                args = (x, second)
            try:
                torch.autograd.gradcheck(fn, args)
            except Exception as exc:
                raise AssertionError(f"{name}: {str(exc)[:200]}") from None
    for op, n in base.items():
        assert served(op) > n, f"{op} not served under gradcheck"
    return f"{len(cases)} functions"


def test_embedding_backward():
    """Against PyTorch's: bit for bit (both add each row's gradients in
    index order), with and without padding_idx."""
    torch.manual_seed(5)
    ids = torch.randint(0, 300, (64, 50))
    for padding_idx in (None, 7):
        grads = []
        for on in (True, False):
            weight = torch.randn(300, 32, generator=torch.Generator().manual_seed(6),
                                 requires_grad=True)
            with sgk_torch.enabled() if on else torch.enable_grad():
                out = F.embedding(ids, weight, padding_idx=padding_idx)
                out.backward(torch.ones_like(out) * torch.arange(32.))
            grads.append(weight.grad)
        same(*grads)
        if padding_idx is not None:
            assert not grads[0][padding_idx].any()


def bad_index_cases():
    """(op, call(target) that writes into target or returns a result,
    target factory); each call has an out-of-range index."""
    def t():
        return torch.arange(12.).view(4, 3)
    big, neg = torch.tensor([[0, 9, 1]]), torch.tensor([[0, -1, 1]])
    rows_big = torch.tensor([0, 9])
    return [
        ("gather", lambda a: a.gather(0, big)),
        ("gather negative", lambda a: a.gather(0, neg)),
        ("gather rows", lambda a: a.gather(0, rows_big.view(-1, 1).expand(2, 3))),
        ("scatter_", lambda a: a.scatter_(0, big, torch.ones(1, 3))),
        ("scatter_ negative", lambda a: a.scatter_(0, neg, torch.ones(1, 3))),
        ("scatter_ value", lambda a: a.scatter_(0, big, 5.0)),
        ("scatter_add_", lambda a: a.scatter_add_(0, big, torch.ones(1, 3))),
        ("scatter_add_ rows", lambda a: a.scatter_add_(0, rows_big.view(-1, 1).expand(2, 3),
                                                       torch.ones(2, 3))),
        ("scatter_reduce_ amax", lambda a: a.scatter_reduce_(0, big, torch.ones(1, 3), "amax",
                                                             include_self=False)),
        ("scatter_reduce_ mean", lambda a: a.scatter_reduce_(0, neg, torch.ones(1, 3), "mean")),
        ("index_select", lambda a: a.index_select(0, rows_big)),
        ("index_select negative", lambda a: a.index_select(0, torch.tensor([-1]))),
        ("index_add_", lambda a: a.index_add_(0, rows_big, torch.ones(2, 3))),
        ("index_add_ dim 1", lambda a: a.index_add_(1, torch.tensor([5]), torch.ones(4, 1))),
        ("index_add_ negative", lambda a: a.index_add_(0, torch.tensor([-1]), torch.ones(1, 3))),
        ("index_copy_", lambda a: a.index_copy_(0, rows_big, torch.ones(2, 3))),
        ("index_copy_ negative", lambda a: a.index_copy_(0, torch.tensor([-2]), torch.ones(1, 3))),
        ("index_reduce_ amax", lambda a: a.index_reduce_(0, rows_big, torch.ones(2, 3), "amax",
                                                         include_self=False)),
        ("index_reduce_ mean negative", lambda a: a.index_reduce_(0, torch.tensor([-1]),
                                                                  torch.ones(1, 3), "mean")),
        ("index_reduce_ dim 1", lambda a: a.index_reduce_(1, torch.tensor([3]), torch.ones(4, 1),
                                                          "prod")),
        ("index_fill_", lambda a: a.index_fill_(0, rows_big, 2.0)),
        ("index_fill_ negative", lambda a: a.index_fill_(1, torch.tensor([-4]), 2.0)),
        ("index_put_", lambda a: a.index_put_((rows_big,), torch.ones(2, 3))),
        ("index_put_ accumulate", lambda a: a.index_put_((rows_big,), torch.ones(2, 3),
                                                         accumulate=True)),
        ("index_put_ two indices", lambda a: a.index_put_((torch.tensor([0, 1]), torch.tensor([0, 3])),
                                                          torch.ones(2))),
        ("take", lambda a: a.take(torch.tensor([0, 12]))),
        ("take negative", lambda a: a.take(torch.tensor([-13]))),
        ("gather out=", lambda a: torch.gather(torch.ones(4, 3), 0, big, out=a[:1])),
    ], t


def test_bad_indices():
    cases, make = bad_index_cases()
    for name, call in cases:
        types = []
        for on in (True, False):
            target = make()
            before = target.clone()
            try:
                if on:
                    with sgk_torch.enabled():
                        call(target)
                else:
                    call(target)
                types.append(None)
            except (IndexError, RuntimeError) as exc:
                types.append(type(exc))
                if on:
                    assert torch.equal(target, before), f"{name}: written before the error"
        assert types[0] is not None, f"{name}: no error with sgk"
        assert types[0] is types[1], f"{name}: sgk raised {types[0]}, PyTorch {types[1]}"
    return f"{len(cases)} calls"


def test_sgk_message():
    with sgk_torch.enabled():
        try:
            torch.zeros(4, 3).index_select(0, torch.tensor([0, 7]))
        except IndexError as exc:
            assert "out of range" in str(exc) and "7" in str(exc), str(exc)
        else:
            raise AssertionError("no IndexError")


def test_deterministic_algorithms():
    torch.use_deterministic_algorithms(True)
    try:
        src = torch.randn(1000, 16)
        index = torch.randint(0, 10, (1000,)).view(-1, 1).expand_as(src)
        base = served("scatter_add")
        with sgk_torch.enabled():
            a = torch.zeros(10, 16).scatter_add(0, index, src)
            b = torch.zeros(10, 16).scatter_add(0, index, src)
        same(a, b)
        assert served("scatter_add") == base + 2
    finally:
        torch.use_deterministic_algorithms(False)


def test_output_pool():
    """A large output's buffer is kept when the tensor is freed and serves
    the next output of its size (no page faults); pooled tensors resize as
    at::empty's do, outlive disable(), and empty_cache() frees the pool."""
    torch.manual_seed(4)
    x, i = torch.randn(1000, 64), torch.randint(0, 1000, (40000,))  # 10 MiB out
    expected = x.index_select(0, i)
    with sgk_torch.enabled():
        first = x.index_select(0, i)
        where = first.data_ptr()
        del first
        again = x.index_select(0, i)
        same(again, expected)
        assert again.data_ptr() == where, "the freed buffer was not reused"
        small = x.index_select(0, i[:100])  # below the pool's 4 MiB: PyTorch's allocator
        same(small, expected[:100])
    again.resize_(80000, 64)  # a larger buffer, from the pool's allocator
    same(again[:40000], expected)
    again.resize_(10, 64)
    same(again, expected[:10])
    del again
    sgk_torch.empty_cache()
    r = subprocess_python(
        "import torch, sgk.torch as s\n"
        "x, i = torch.randn(1000, 64), torch.randint(0, 1000, (40000,))\n"
        "s.enable()\n"
        "a = x.index_select(0, i); p = a.data_ptr(); del a\n"
        "b = x.index_select(0, i)\n"
        "assert torch.equal(b, x[i])\n"
        "print(b.data_ptr() == p)\n",
        {"SGK_TORCH_POOL_MB": "0"})
    assert r.returncode == 0, r.stderr
    # With the pool off the buffer goes back to the C library, which may
    # or may not hand out the same address: only the result is checked.


def test_fallback_counted():
    base = fell_back("gather")
    with sgk_torch.enabled():
        a = torch.randn(5, 4).t()  # not contiguous
        a.gather(0, torch.tensor([[0, 1, 2, 3, 3]]))
    reasons = sgk_torch.counters()["gather"]["reasons"]
    assert fell_back("gather") == base + 1 and reasons.get("not contiguous", 0) >= 1, reasons


def main():
    return run_tests("test_adapter", globals())


if __name__ == "__main__":
    sys.exit(main())
