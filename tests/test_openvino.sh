#!/bin/sh
# The OpenVINO extension through OpenVINO's CPU plugin, from Python:
# tests/openvino/test_node_tests.py (every ONNX backend node test of the
# family, bit for bit), tests/openvino/test_models.py (multi-node models
# against onnx.reference and OpenVINO alone, constant-index plans,
# concurrent requests, dynamic shapes, errors), test_visibility.py (the
# per-node counters), test_precision.py (bf16 inference precision) and
# test_exported_models.py (models exported by torch.onnx.export from
# transformers, torch_geometric and plain PyTorch; it fails, not skips,
# without torch, transformers, torch_geometric or onnxscript) and
# test_exported_errors.py (their bad indices).  For
# automake's TESTS; exits 77 (skipped) when numpy, onnx or openvino is not
# importable or the extension was not built (configure found no
# OpenVINO).  Ends with "N passed, N failed".
set -u

name=test_openvino modules="numpy, onnx, openvino" marker=tests/openvino/test_models.py
. "$(dirname "$0")/python-env.sh"

extension=
for candidate in "$builddir/adapters/openvino/.libs/libsgk_openvino.so" \
                 "$top_srcdir/adapters/openvino/.libs/libsgk_openvino.so"; do
    if [ -f "$candidate" ]; then
        extension=$(cd "$(dirname "$candidate")" && pwd)/libsgk_openvino.so
        break
    fi
done
if [ -z "$extension" ]; then
    echo "test_openvino: the extension was not built (configure found no OpenVINO); skipped"
    echo "[  PASSED  ] 0 test(s)."
    exit 77
fi

log=$(mktemp "${TMPDIR:-/tmp}/sgk-openvino.XXXXXX") || exit 99
trap 'rm -f "$log"' EXIT HUP INT TERM
echo "test_openvino: $("$python" --version 2>&1), $extension"
passed=0 failed=0 status=0
for script in test_node_tests.py test_models.py test_visibility.py test_precision.py \
              test_exported_models.py test_exported_errors.py; do
    echo "== $script"
    SGK_LIBRARY="$library" SGK_OPENVINO_EXTENSION="$extension" PYTHONDONTWRITEBYTECODE=1 \
        SGK_BUILD_DIR=$(cd "$builddir" && pwd) \
        PYTHONPATH="$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH}" \
        "$python" "$top_srcdir/tests/openvino/$script" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    if [ -z "$p$f" ] || { [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; }; then
        echo "test_openvino: $script ended with status $rc and no failure counted"
        echo "[  FAILED  ] 1 test(s)."
        f=$(( ${f:-0} + 1 ))
    fi
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    [ "$rc" -eq 0 ] && [ "${f:-0}" -eq 0 ] || status=1
done
echo "$passed passed, $failed failed"
exit $status
