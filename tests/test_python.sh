#!/bin/sh
# Runs the Python binding's tests (tests/python/test_binding.py) against the
# library of this build tree.  For automake's TESTS: run from the build
# directory, with $srcdir exported by the harness; exits 77 (skipped) when
# NumPy is not importable.  Ends with "N passed, N failed, N skipped".
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${srcdir:-$here/..}" && pwd)
[ -f "$top_srcdir/tests/python/test_binding.py" ] || top_srcdir=$(cd "$here/.." && pwd)
builddir=${builddir:-.}

if [ -x "$top_srcdir/.venv/bin/python" ]; then
    python=$top_srcdir/.venv/bin/python
else
    python=${PYTHON:-python3}
fi

if ! "$python" -c "import numpy" >/dev/null 2>&1; then
    echo "test_python: numpy is not importable by $python; skipped"
    echo "[  PASSED  ] 0 test(s)."
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi

library=
for candidate in "$builddir/src/.libs/libsgk.so" "$top_srcdir/src/.libs/libsgk.so"; do
    if [ -f "$candidate" ]; then
        library=$(cd "$(dirname "$candidate")" && pwd)/libsgk.so
        break
    fi
done
if [ -z "$library" ]; then
    echo "test_python: libsgk.so not found under $builddir/src/.libs; build src/libsgk.la first"
    echo "0 passed, 1 failed"
    exit 99
fi

echo "test_python: $("$python" --version 2>&1), library $library"
SGK_LIBRARY=$library PYTHONPATH=$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH} \
    exec "$python" "$top_srcdir/tests/python/test_binding.py"
