"""python -m sgk: prints the versions, the SIMD target and threads, the
caches, the environment overrides, and where libsgk and the adapters were
found (sgk/_doctor.py)."""
import sys

from ._doctor import main

if __name__ == "__main__":
    sys.exit(main())
