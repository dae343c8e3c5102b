#!/bin/sh
# docs/performance.md, and the README's block of one-shot figures, must be
# exactly what bench/performance-doc.py writes
# from the committed bench/results/*.json: no figure is copied by hand, so
# none can go stale.  For automake's TESTS ($srcdir exported by the
# harness); exits 77 (skipped) without python3.  Ends with cmocka-style
# summary lines.
set -u
top_srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
python=${PYTHON3:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
    echo "test_performance_doc: $python not found; skipped"
    echo "[  PASSED  ] 0 test(s)."
    exit 77
fi
if PYTHONDONTWRITEBYTECODE=1 "$python" "$top_srcdir/bench/performance-doc.py" \
    --results "$top_srcdir/bench/results" --check "$top_srcdir/docs/performance.md" \
    --readme "$top_srcdir/README.md"; then
    echo "[  PASSED  ] 1 test(s)."
    exit 0
fi
echo "[  FAILED  ] 1 test(s)."
exit 1
