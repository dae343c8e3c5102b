#!/bin/sh
# The PyTorch adapter, from Python, against PyTorch's own kernels:
# tests/torch/test_opinfo.py (PyTorch's OpInfo samples of every overridden
# op and dtype, sgk on and off), tests/torch/test_adapter.py (gradcheck,
# bad indices, the row layouts) and test_adapter_processes.py (fork,
# threads, the version lock).  For
# automake's TESTS.  Skipped (77) when configure did not build the adapter;
# failed when it did but torch, expecttest or the adapter cannot be loaded.
# Ends with "N passed, N failed, N skipped".
set -u

builddir=${builddir:-.}
case "${LD_PRELOAD:-}" in
*asan*)
    # The sanitizer build preloads ASan into an uninstrumented Python;
    # PyTorch's own libraries are not built for it.  The plain build's
    # make check runs these tests.
    echo "test_torch: not under AddressSanitizer (PyTorch is not built for it); skipped"
    echo "[  PASSED  ] 0 test(s)."
    echo "0 passed, 0 failed, 1 skipped"
    exit 77;;
esac
configured=no
if grep -q '^HAVE_TORCH_TRUE = *$' "$builddir/Makefile" 2>/dev/null; then
    configured=yes
    SGK_TEST_PYTHON=$(sed -n 's/^TORCH_PYTHON = //p' "$builddir/Makefile")
    export SGK_TEST_PYTHON
    if ! "$SGK_TEST_PYTHON" -c "import torch, expecttest" >/dev/null 2>&1; then
        echo "test_torch: the adapter was configured for $SGK_TEST_PYTHON, which cannot import torch and expecttest"
        echo "[  FAILED  ] 1 test(s)."
        echo "0 passed, 1 failed, 0 skipped"
        exit 1
    fi
fi

name=test_torch modules="torch, expecttest" marker=tests/torch/test_opinfo.py
. "$(dirname "$0")/python-env.sh"

adapter=
for candidate in "$builddir/adapters/torch/.libs/libsgk_torch.so" \
                 "$top_srcdir/adapters/torch/.libs/libsgk_torch.so"; do
    if [ -f "$candidate" ]; then
        adapter=$(cd "$(dirname "$candidate")" && pwd)/libsgk_torch.so
        break
    fi
done
if [ -z "$adapter" ]; then
    if [ "$configured" = yes ]; then
        echo "test_torch: configured with the adapter, but $builddir/adapters/torch/.libs/libsgk_torch.so is not built"
        echo "[  FAILED  ] 1 test(s)."
        echo "0 passed, 1 failed, 0 skipped"
        exit 1
    fi
    echo "test_torch: the adapter was not built (configure found no torch); skipped"
    echo "[  PASSED  ] 0 test(s)."
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi

log=$(mktemp "${TMPDIR:-/tmp}/sgk-torch.XXXXXX") || exit 99
trap 'rm -f "$log"' EXIT HUP INT TERM
echo "test_torch: $("$python" --version 2>&1), $adapter"
passed=0 failed=0 status=0
for script in test_opinfo.py test_adapter.py test_adapter_processes.py; do
    echo "== $script"
    SGK_LIBRARY="$library" SGK_TORCH_ADAPTER="$adapter" PYTHONDONTWRITEBYTECODE=1 \
        SGK_BUILD_DIR=$(cd "$builddir" && pwd) OMP_NUM_THREADS=2 \
        SGK_TORCH_ELEMENTS_MAX=${SGK_TORCH_ELEMENTS_MAX:-1000000000} \
        PYTHONPATH="$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH}" \
        "$python" "$top_srcdir/tests/torch/$script" >"$log" 2>&1
    rc=$?
    grep -v "No CUDA runtime is found" "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    if [ -z "$p$f" ] || { [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; }; then
        echo "test_torch: $script ended with status $rc and no failure counted"
        echo "[  FAILED  ] 1 test(s)."
        f=$(( ${f:-0} + 1 ))
    fi
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    [ "$rc" -eq 0 ] && [ "${f:-0}" -eq 0 ] || status=1
done
echo "$passed passed, $failed failed, 0 skipped"
exit $status
