#!/bin/sh
# libsgk.so exports exactly the functions include/sgk.h declares with
# SGK_API: nothing internal leaks (no hidden function, no C++ template
# instance), and no declared entry point is missing.  For automake's TESTS ($srcdir exported by the harness;
# $NM from configure, else nm); exits 77 (skipped) when there is no shared
# library (--disable-shared).  Ends with cmocka-style summary lines.
set -u
top_srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
builddir=${builddir:-.}
nm=${NM:-nm}

library=$builddir/src/.libs/libsgk.so
if [ ! -f "$library" ]; then
    echo "test_exports: no $library (a static-only build exports nothing); skipped"
    echo "[  PASSED  ] 0 test(s)."
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgk-exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# The names, read as the build reads them for the linker (src/exports.sed).
# An SGK_API line it cannot read is a declaration both would miss, so it
# fails the test rather than shrink the list.
grep '^SGK_API' "$top_srcdir/include/sgk.h" >"$tmp/lines"
sed -n -f "$top_srcdir/src/exports.sed" "$tmp/lines" | LC_ALL=C sort >"$tmp/declared"
if [ "$(wc -l <"$tmp/lines")" -ne "$(wc -l <"$tmp/declared")" ]; then
    echo "test_exports: an SGK_API line of include/sgk.h has no 'name(' to read:"
    grep -v '^SGK_API[^(]*[^A-Za-z0-9_][A-Za-z_][A-Za-z0-9_]*(' "$tmp/lines"
    echo "[  FAILED  ] 1 test(s)."
    exit 1
fi

# Defined dynamic symbols (libtool's export list versions none of them).
$nm -D --defined-only "$library" | awk 'NF >= 3 { print $3 }' | LC_ALL=C sort >"$tmp/exported"
if [ ! -s "$tmp/exported" ]; then
    echo "test_exports: $nm -D --defined-only $library listed nothing"
    echo "[  FAILED  ] 1 test(s)."
    exit 1
fi

echo "test_exports: $(wc -l <"$tmp/declared") SGK_API declarations," \
     "$(wc -l <"$tmp/exported") symbols exported by $library"
if cmp -s "$tmp/declared" "$tmp/exported"; then
    echo "[  PASSED  ] 1 test(s)."
    exit 0
fi
echo "exported but not declared SGK_API in include/sgk.h:"
LC_ALL=C comm -13 "$tmp/declared" "$tmp/exported" | sed 's/^/  /'
echo "declared SGK_API but not exported:"
LC_ALL=C comm -23 "$tmp/declared" "$tmp/exported" | sed 's/^/  /'
echo "[  FAILED  ] 1 test(s)."
exit 1
