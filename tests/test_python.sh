#!/bin/sh
# Runs the Python binding's tests (tests/python/test_binding.py and
# tests/python/test_gather_tensor_scatter.py) against the
# library of this build tree.  For automake's TESTS: run from the build
# directory, with $srcdir exported by the harness; exits 77 (skipped) when
# NumPy is not importable.  Ends with "N passed, N failed, N skipped".
set -u

name=test_python modules="numpy" marker=tests/python/test_binding.py
. "$(dirname "$0")/python-env.sh"

echo "test_python: $("$python" --version 2>&1), library $library"
status=0
for suite in test_binding.py test_gather_tensor_scatter.py; do
    SGK_LIBRARY=$library PYTHONPATH=$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH} \
        "$python" "$top_srcdir/tests/python/$suite" || status=1
done
exit $status
