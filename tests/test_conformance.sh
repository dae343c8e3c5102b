#!/bin/sh
# Conformance suites against the library of this build tree:
# tests/conformance/test_onnx_backend.py (every ONNX backend node test of the
# installed onnx for ScatterND, GatherND, ScatterElements, Scatter,
# GatherElements, Gather and TensorScatter), tests/conformance/
# test_differential.py (randomized cases against the sequential definition,
# onnx's ReferenceEvaluator and OpenVINO; the latter is skipped when not
# importable) and tests/conformance/test_differential_gather_ts.py (the same
# for Gather and TensorScatter, with onnxruntime too), each differential run
# once more with the parallel paths forced on small cases.  For automake's
# TESTS: run from the build directory, with $srcdir exported by the harness;
# exits 77 (skipped) when numpy or onnx is not importable.  The peers'
# disagreements are written to tests/conformance-findings.md and must equal
# the copy docs/semantics.md shows: a change in them (drift) fails until
# `make semantics-doc` copies the new findings in and they are reviewed.
# Ends with "N passed, N failed".
set -u

name=test_conformance modules="numpy, onnx" marker=tests/conformance/test_differential.py
. "$(dirname "$0")/python-env.sh"

mkdir -p "$builddir/tests"
findings=$(cd "$builddir/tests" && pwd)/conformance-findings.md
log=$(mktemp "${TMPDIR:-/tmp}/sgk-conformance.XXXXXX") || exit 99
trap 'rm -f "$log"' EXIT HUP INT TERM

echo "test_conformance: $("$python" --version 2>&1), library $library"
passed=0 failed=0 status=0

# run LABEL ENV-ASSIGNMENTS SCRIPT [ARGS...]: one suite; its cmocka-style
# lines are summed (a run that ends without them counts as one failure).
run() {
    label=$1 assignments=$2 script=$3
    shift 3
    echo "== $label${assignments:+ ($assignments)}"
    # shellcheck disable=SC2086 # the assignments are split on purpose
    env $assignments SGK_LIBRARY="$library" PYTHONDONTWRITEBYTECODE=1 \
        PYTHONPATH="$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH}" \
        "$python" "$top_srcdir/tests/conformance/$script" "$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    if [ -z "$p$f" ]; then
        echo "test_conformance: $script ended without a summary (status $rc)"
        echo "[  FAILED  ] 1 test(s)."
        f=1
    elif [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
        echo "test_conformance: $script exited with status $rc"
        echo "[  FAILED  ] 1 test(s)."
        f=1
    fi
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    [ "$rc" -eq 0 ] && [ "${f:-0}" -eq 0 ] || status=1
}

run "ONNX backend node tests" "" test_onnx_backend.py
rm -f "$findings" # the runs below append to it
run "differential" "" test_differential.py --findings "$findings"
run "differential, parallel paths forced" \
    "SGK_NUM_THREADS=2 SGK_PARALLEL_MIN_BYTES=0 SGK_STREAM_MIN_BYTES=0" \
    test_differential.py --reps 1 --findings ""
run "differential, Gather and TensorScatter" "" test_differential_gather_ts.py \
    --findings "$findings"
run "differential, Gather and TensorScatter, parallel paths forced" \
    "SGK_NUM_THREADS=2 SGK_PARALLEL_MIN_BYTES=0 SGK_STREAM_MIN_BYTES=0" \
    test_differential_gather_ts.py --reps 1

# docs/semantics.md shows a copy of every run's findings: what the peers
# get wrong, and why, is part of the documented semantics.  A difference
# (a peer's new version, a new case) is drift, and fails.
# The copy holds every peer's findings: a run missing a peer (OpenVINO
# under the sanitizer build's stub) cannot reproduce it, and leaves the
# comparison to the plain build's make check.
echo "== findings against docs/semantics.md"
if ! "$python" -c "import openvino, onnxruntime" >/dev/null 2>&1; then
    echo "test_conformance: findings not compared: a peer cannot be loaded here" \
         "(the plain build compares them)"
elif PYTHONDONTWRITEBYTECODE=1 "$python" "$top_srcdir/tests/conformance/findings_doc.py" \
    check "$findings" "$top_srcdir/docs/semantics.md"; then
    passed=$((passed + 1))
else
    echo "test_conformance: the peers' findings drifted from docs/semantics.md"
    failed=$((failed + 1)) status=1
fi

echo "$passed passed, $failed failed"
exit $status
