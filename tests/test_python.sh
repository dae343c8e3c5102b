#!/bin/sh
# Runs the Python binding's tests (tests/python/test_binding.py and
# test_binding_types.py, test_binding_plans.py, test_binding_errors.py,
# tests/python/test_extension.py, tests/python/test_gather_tensor_scatter.py,
# tests/python/test_typing.py: stubs, py.typed and mypy --strict, and
# tests/python/test_doctor.py: python -m sgk) against the library and
# extension module of this build tree.  For
# automake's TESTS: run from the build directory, with $srcdir exported by
# the harness; exits 77 (skipped) when NumPy is not importable or the
# extension was not built.  Each file ends with "N passed, N failed, N
# skipped"; the last line sums them.
set -u

name=test_python modules="numpy" marker=tests/python/test_binding.py
. "$(dirname "$0")/python-env.sh"

echo "test_python: $("$python" --version 2>&1), library $library"
status=0 passed=0 failed=0 skipped=0
for suite in test_binding.py test_binding_types.py test_binding_plans.py \
    test_binding_errors.py test_extension.py test_gather_tensor_scatter.py test_typing.py \
    test_doctor.py; do
    out=$(PYTHONPATH=$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH} \
        "$python" "$top_srcdir/tests/python/$suite" 2>&1)
    rc=$?
    echo "$out"
    last=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' | tail -n 1)
    if [ -z "$last" ]; then
        echo "test_python: $suite ended without a summary (status $rc)"
        echo "[  FAILED  ] 1 test(s)."
        last="0 1 0"
    fi
    set -- $last
    passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
    [ "$rc" -eq 0 ] || status=1
done
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
