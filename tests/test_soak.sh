#!/bin/sh
# The soak (tests/soak.c) for automake's TESTS, briefly: SGK_SOAK_SECONDS
# (default 3) with SGK_SOAK_THREADS (default 4) threads, once, outside
# tests/matrix.sh.  It fails on a wrong result, an error, or memory that
# grows or is not released; docs/testing.md quotes a long run.
set -u
builddir=${builddir:-.}
soak=$builddir/tests/soak
if [ ! -x "$soak" ]; then
    echo "test_soak: no $soak (make check builds it)"
    exit 99
fi
# The soak is linked with any sanitizer it was built with: not the
# runtimes make check preloads into the scripts' shells, nor their
# detect_leaks=0, which is for the interpreter's leaks (Makefile.am).
unset LD_PRELOAD
if [ -n "${ASAN_OPTIONS:-}" ]; then ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=1; export ASAN_OPTIONS; fi
SGK_SOAK_SECONDS=${SGK_SOAK_SECONDS:-3} SGK_SOAK_THREADS=${SGK_SOAK_THREADS:-4} \
    exec ${SGK_RUNNER:-} "$soak"
