"""The PyTorch adapter and processes: a forked worker after parallel
calls, DataLoader workers by fork, no thread beyond PyTorch's own,
SGK_VERBOSE logging once, and the version lock (a fresh Python each).
The rest of the adapter's checks are in test_adapter.py."""
import multiprocessing
import os
import shutil
import sys
import tempfile

from common import run_tests, sgk_torch, subprocess_python, torch


def _child(queue):
    try:
        # As DataLoader workers do: the parent's OpenMP team does not
        # survive fork, and PyTorch's own parallel kernels would wait on it.
        torch.set_num_threads(1)
        torch.manual_seed(4)
        src = torch.randn(200000, 16)
        dst = torch.randint(0, 5000, (200000,))
        with sgk_torch.enabled():
            a = torch.zeros(5000, 16).index_add(0, dst, src)
            g = a.index_select(0, dst)
        b = torch.zeros(5000, 16).index_add(0, dst, src)
        queue.put((torch.allclose(a, b, atol=1e-4), torch.equal(g, b.index_select(0, dst))))
    except Exception as exc:  # reported to the parent
        queue.put(repr(exc))


def test_fork():
    src = torch.randn(400000, 16)
    dst = torch.randint(0, 5000, (400000,))
    with sgk_torch.enabled():
        for _ in range(3):  # parallel calls in the parent first
            torch.zeros(5000, 16).index_add_(0, dst, src).index_select(0, dst)
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        workers = [ctx.Process(target=_child, args=(queue,)) for _ in range(2)]
        for w in workers:
            w.start()
        results = [queue.get(timeout=240) for _ in workers]
        for w in workers:
            w.join(60)
        assert all(w.exitcode == 0 for w in workers), [w.exitcode for w in workers]
    assert results == [(True, True)] * 2, results


class _Rows(torch.utils.data.Dataset):
    def __init__(self):
        self.table = torch.randn(1000, 8)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        ids = torch.randint(0, 1000, (300,))
        return self.table.index_select(0, ids).sum() - self.table[ids].sum()


def test_dataloader_fork_workers():
    with sgk_torch.enabled():
        loader = torch.utils.data.DataLoader(_Rows(), batch_size=2, num_workers=2,
                                             multiprocessing_context="fork")
        total = sum(float(b.abs().sum()) for b in loader)
    assert total < 1e-3, total


THREADS_CODE = r"""
import os, torch, sgk, sgk.torch as s
def threads():
    return len(os.listdir("/proc/self/task"))
torch.set_num_threads(2)
x = torch.randn(4_000_000); (x * 2).sum()       # PyTorch's own OpenMP pool, started
before = threads()
s.enable()
src = torch.randn(500_000, 16); dst = torch.randint(0, 10_000, (500_000,))
for _ in range(3):
    out = torch.zeros(10_000, 16).scatter_add(0, dst.view(-1, 1).expand_as(src), src)
    out.index_select(0, dst)
    out.gather(0, dst.view(-1, 1).expand_as(src))
after = threads()
assert "host pool (2 workers)" in sgk.runtime_describe(), sgk.runtime_describe()
reach = s._adapter.sgk_torch_parallel_reach(8)
assert reach == 2, f"a loop of 8 tasks ran on {reach} of PyTorch's 2 threads"
torch.set_num_threads(1)
out.index_select(0, dst)
assert "threads 1 " in sgk.runtime_describe(), sgk.runtime_describe()
assert s._adapter.sgk_torch_parallel_reach(8) == 1
print(before, after, s.counters()["scatter_add"]["sgk"])
"""


def test_threads():
    r = subprocess_python(THREADS_CODE)
    assert r.returncode == 0, r.stderr
    before, after, n = (int(v) for v in r.stdout.split())
    assert n == 3, r.stdout
    assert after == before, f"{after - before} threads beyond PyTorch's own"
    return f"{before} threads before and after"


def test_verbose_logs_once():
    code = ("import torch, sgk.torch as s\ns.enable()\n"
            "for _ in range(3): torch.zeros(4, 3).t().gather(0, torch.tensor([[0, 1, 2, 0]]))\n")
    r = subprocess_python(code, {"SGK_VERBOSE": "1"})
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("sgk.torch:")]
    assert lines == ["sgk.torch: gather falls back to PyTorch: not contiguous"], r.stderr


def test_version_lock():
    path = sgk_torch.adapter_path()
    built = sgk_torch.built_against(path)
    assert built == torch.__version__.split("+")[0], (built, torch.__version__)
    with tempfile.TemporaryDirectory() as tmp:
        other = os.path.join(tmp, "libsgk_torch.so")
        shutil.copy(path, other)
        data = open(other, "rb").read()
        marker = b"sgk-torch-built-against:" + built.encode()
        fake = b"sgk-torch-built-against:" + b"9.99.9"[:len(built)].ljust(len(built), b"0")
        with open(other, "wb") as f:
            f.write(data.replace(marker, fake))
        r = subprocess_python("import torch, sgk.torch", {"SGK_TORCH_ADAPTER": other})
    assert r.returncode != 0 and "ImportError" in r.stderr, r.stderr
    assert fake.split(b":")[1].decode() in r.stderr and torch.__version__ in r.stderr, r.stderr


def main():
    return run_tests("test_adapter_processes", globals())


if __name__ == "__main__":
    sys.exit(main())
