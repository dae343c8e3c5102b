#!/bin/sh
# Runs tests/test_paths, tests/test_wide_accumulate, tests/test_random and
# tests/test_gather_tensor_scatter under every scatter-reduction
# path the environment can force, with and without determinism:
#   SGK_REDUCE_PATH in {auto, sorted, atomic, serial} x SGK_DETERMINISTIC in
#   {1, 0}, at SGK_NUM_THREADS=2, and sorted/atomic again at 4 threads,
# always with SGK_PARALLEL_MIN_BYTES=0 so that small cases run in parallel.
# The library reads its environment once per process, hence one process per
# configuration.  The programs read the same variables to know which
# expectations apply (tests/support/tolerance.h).  Finally every digest that
# test_paths printed (large duplicate-heavy float32 adds planned with
# SGK_PLAN_DETERMINISTIC at 1, 2 and 4 threads) must be the same in every
# configuration.
#
# For automake's TESTS, run from the build directory.  SGK_TEST_CASES (default
# 1) caps test_random's cases per combination; OpenMP workers wait passively
# (unless OMP_WAIT_POLICY says otherwise), since spinning teams of 4 on a
# 2-core machine make the run several times slower without testing more.
# Ends with "N passed, N failed".  (Not named test_paths.sh: automake would
# give it the log file of the test_paths program, tests/test_paths.log.)
set -u

builddir=${builddir:-.}
paths=$builddir/tests/test_paths
wide=$builddir/tests/test_wide_accumulate
random=$builddir/tests/test_random
gather_ts=$builddir/tests/test_gather_tensor_scatter
if [ ! -x "$paths" ] || [ ! -x "$wide" ] || [ ! -x "$random" ] || [ ! -x "$gather_ts" ]; then
    echo "test_reduce_paths.sh: $paths, $wide, $random or $gather_ts not built" \
        "(cmocka missing?); skipped"
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi

SGK_TEST_CASES=${SGK_TEST_CASES:-1}
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export SGK_TEST_CASES OMP_WAIT_POLICY

digests=$(mktemp "${TMPDIR:-/tmp}/sgk-digests.XXXXXX") || exit 99
trap 'rm -f "$digests"' EXIT
passed=0 failed=0

run() {
    config=$*
    for prog in "$paths" "$wide" "$random" "$gather_ts"; do
        echo "== $config ${prog##*/}"
        out=$(env $config "$prog" 2>&1)
        rc=$?
        printf '%s\n' "$out"
        if [ $rc -eq 0 ]; then
            passed=$((passed + 1))
        else
            echo "test_reduce_paths.sh: ${prog##*/} failed (exit $rc) under $config"
            failed=$((failed + 1))
        fi
        printf '%s\n' "$out" | sed -n "s|^test_paths digest |$config |p" >>"$digests"
    done
}

for path in auto sorted atomic serial; do
    for det in 1 0; do
        run SGK_REDUCE_PATH=$path SGK_DETERMINISTIC=$det SGK_NUM_THREADS=2 SGK_PARALLEL_MIN_BYTES=0
    done
done
for path in sorted atomic; do
    for det in 1 0; do
        run SGK_REDUCE_PATH=$path SGK_DETERMINISTIC=$det SGK_NUM_THREADS=4 SGK_PARALLEL_MIN_BYTES=0
    done
done

# Lines: <config words (4)> <case> threads=<n> <digest>.
echo "== digests across configurations and thread counts"
names=$(awk '{print $5}' "$digests" | sort -u)
if [ -z "$names" ]; then
    echo "test_reduce_paths.sh: test_paths printed no digests"
    failed=$((failed + 1))
fi
for name in $names; do
    values=$(awk -v n="$name" '$5 == n {print $7}' "$digests" | sort -u)
    runs=$(awk -v n="$name" '$5 == n' "$digests" | wc -l)
    if [ "$(printf '%s\n' "$values" | wc -l)" -eq 1 ]; then
        echo "digest $name: $values in all $runs runs"
        passed=$((passed + 1))
    else
        echo "test_reduce_paths.sh: digest $name differs between runs:"
        awk -v n="$name" '$5 == n' "$digests"
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
