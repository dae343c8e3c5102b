"""Where a benchmark run's figures come from, as bench/provenance.c records
it for sgk-bench: the machine, the run's start in UTC and the commit it
measures, written into the run's JSON so that every figure quoted from it
(docs/performance.md) can be traced.  Standard library only.
"""
import datetime
import os
import platform
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def machine():
    """The CPU model, logical CPUs and kernel, as sgk-bench words them."""
    cpu = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and ":" in line:
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    u = platform.uname()
    return f"{cpu}; {os.cpu_count() or 0} logical cpus; {u.system} {u.release} {u.machine}"


def utc_date():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def commit():
    """SGK_BENCH_COMMIT when set, else the source tree's HEAD, else "unknown"."""
    env = os.environ.get("SGK_BENCH_COMMIT")
    if env:
        return env
    try:
        out = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def describe():
    """The fields every run's JSON begins with."""
    return {"machine": machine(), "date": utc_date(), "commit": commit()}
