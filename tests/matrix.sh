#!/bin/sh
# Runs one test program under each execution configuration the library must
# agree across: the best SIMD target and Highway's portable fallback, 1, 2
# and 4 threads, parallel and streaming paths forced on small cases.  Every
# run compares against the same independent expectations, so passing all of
# them means identical results.
status=0
run() {
    echo "== $1"
    env $1 "$prog" || status=1
}
prog=$1
run "SGK_MATRIX=default"
run "SGK_SIMD=scalar SGK_NUM_THREADS=1"
run "SGK_NUM_THREADS=2 SGK_PARALLEL_MIN_BYTES=0"
run "SGK_SIMD=scalar SGK_NUM_THREADS=4 SGK_PARALLEL_MIN_BYTES=0 SGK_STREAM_MIN_BYTES=0"
exit $status
