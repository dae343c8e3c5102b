"""Measuring for bench/peers.py: timing a call, the machine's copy bandwidth,
comparing an implementation's output with sgk's, a foreign thread load,
and the default thread count.  python/ must be on sys.path (peers.py
puts it there)."""
import os
import re
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import sgk


def measure(run, warmup, reps, budget):
    """Warm-up calls, then up to reps timed calls within about budget seconds."""
    t0 = time.perf_counter()
    run()
    first = time.perf_counter() - t0
    for _ in range(max(0, warmup - 1)):
        run()
    n = reps if first * reps <= budget else max(1, int(budget / max(first, 1e-9)))
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), max(times), n


def copy_bandwidth(threads, reps, mib=256):
    """Bytes/s of read+write for np.copyto of mib MiB: single-threaded and
    with threads concurrent chunk copies; returns (single, threaded)."""
    n = mib * 1024 * 1024 // 8
    src = np.ones(n)
    dst = np.empty_like(src)
    np.copyto(dst, src)  # fault in the pages
    single = []
    for _ in range(reps):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        single.append(time.perf_counter() - t0)
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)
    chunks = [(dst[a:b], src[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    threaded = []
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda c: np.copyto(*c), chunks))
        for _ in range(reps):
            t0 = time.perf_counter()
            list(pool.map(lambda c: np.copyto(*c), chunks))
            threaded.append(time.perf_counter() - t0)
    nbytes = 2 * src.nbytes
    return nbytes / statistics.median(single), nbytes / statistics.median(threaded)


def compare(w, ref, got):
    """(matches, note): exact equality, or how far a float result is off."""
    got = np.asarray(got)
    if got.shape != ref.shape or got.dtype != ref.dtype:
        return False, f"result {got.dtype}{list(got.shape)} vs sgk {ref.dtype}{list(ref.shape)}"
    if np.array_equal(got, ref, equal_nan=ref.dtype.kind in "fc"):
        return True, ""
    differ = int(np.count_nonzero(~((got == ref) | (np.isnan(got) & np.isnan(ref)))
                                  if ref.dtype.kind in "fc" else got != ref))
    note = f"{differ} of {ref.size} elements differ"
    if ref.dtype.kind == "f":
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        itype = {2: np.int16, 4: np.int32, 8: np.int64}[ref.itemsize]
        sign = np.int64(1) << (8 * ref.itemsize - 1)

        def ordered(a):
            i = a.view(itype).astype(np.int64)
            return np.where(i < 0, -(i & (sign - 1)), i)
        ulp = np.abs(ordered(got) - ordered(ref))
        note += f"; max |diff| {np.nanmax(diff):.3g}"
        if np.all(np.signbit(got) == np.signbit(ref)):
            note += f", max {int(ulp.max())} ulp"
    beyond = 0
    if ref.dtype.kind in "fc":
        with np.errstate(invalid="ignore", over="ignore"):
            beyond = int(np.count_nonzero(np.abs(got.astype(np.complex128) - ref)
                                          > 1e-3 * (1 + np.abs(ref))))
    if w.float_order_matters and beyond:
        note += (f"; {beyond} elements off by more than rounding: updates lost or misapplied, "
                 f"not reordered (the sequential loop of sgk's semantics, like numpy's ufunc.at, "
                 f"gives sgk's result)")
    elif w.float_order_matters:
        note += ("; rounding-level: float add with duplicate destinations reordered; "
                 "sgk's semantics fix the sequential order (sgk, numpy's ufunc.at)")
    elif w.reduction == "none" and w.has_duplicates:
        note += ("; duplicate destinations under 'none': the spec leaves the winner "
                 "undefined, sgk defines it as the last update (sgk's semantics)")
    return False, note


class ForeignLoad:
    """CPU time other processes took during the run, from /proc/stat minus this
    process's and its children's own: a busy machine makes the figures noisy
    (a two-thread region then waits for a time slice, ~4-8 ms here)."""

    def __init__(self):
        self.start = self._sample()

    @staticmethod
    def _sample():
        try:
            with open("/proc/stat") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        busy = sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0)
        t = os.times()
        own = t.user + t.system + t.children_user + t.children_system
        return busy / os.sysconf("SC_CLK_TCK"), own, time.monotonic()

    def fraction(self):
        """Share of all CPUs used by other processes since construction."""
        end = self._sample()
        if self.start is None or end is None:
            return None
        busy, own, elapsed = (e - s for e, s in zip(end, self.start))
        cpus = os.cpu_count() or 1
        return max(0.0, (busy - own) / max(elapsed * cpus, 1e-9))


def default_threads():
    m = re.search(r"physical cores (\d+)", sgk.runtime_describe())
    return int(m.group(1)) if m else (os.cpu_count() or 1)
