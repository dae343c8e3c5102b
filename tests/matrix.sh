#!/bin/sh
# Runs one test program under each execution configuration the library must
# agree across: the best SIMD target and Highway's portable fallback, 1, 2
# and 4 threads, parallel and streaming paths forced on small cases; then
# once on every other SIMD target this CPU runs (SGK_SIMD: AVX2 and SSE4
# on an AVX-512 machine, the code most servers without AVX-512 run).  Every
# run compares against the same independent expectations, so passing all of
# them means identical results.  SGK_INFO names tools/sgk-info, which lists
# the targets (make check sets it); SGK_RUNNER, if set, runs the programs
# (scripts/check-arm: qemu-aarch64 with the CPU it emulates).  SGK_MATRIX
# set to "default" runs the first configuration only; set to "base", the
# four configurations before the other targets (CI's sanitizer build,
# which leaves those targets to the plain build's check).
status=0
run() {
    echo "== $1"
    env $1 $SGK_RUNNER "$prog" || status=1
}
prog=$1
run "SGK_MATRIX=default"
[ "${SGK_MATRIX:-}" = default ] && exit $status
run "SGK_SIMD=scalar SGK_NUM_THREADS=1"
run "SGK_NUM_THREADS=2 SGK_PARALLEL_MIN_BYTES=0"
run "SGK_SIMD=scalar SGK_NUM_THREADS=4 SGK_PARALLEL_MIN_BYTES=0 SGK_STREAM_MIN_BYTES=0"
[ "${SGK_MATRIX:-}" = base ] && exit $status
targets=$($SGK_RUNNER "${SGK_INFO:-tools/sgk-info}" --simd-targets) || {
    echo "matrix: cannot list the SIMD targets with ${SGK_INFO:-tools/sgk-info}"
    exit 1
}
best=$(echo "$targets" | head -n 1)
for target in $targets; do
    case $target in "$best" | scalar) continue ;; esac
    run "SGK_SIMD=$target SGK_NUM_THREADS=2 SGK_PARALLEL_MIN_BYTES=0"
done
exit $status
