# Sourced by the Python-driven tests (test_python.sh, test_conformance.sh).
# Expects: name (for messages), modules (a Python import list) and marker (a
# file of the suite, to find the source tree when automake's $srcdir is not
# set).  Sets top_srcdir, builddir, python (the one the extension module was
# built for, else the project's .venv) and library (this build tree's
# libsgk.so), and exports SGK_BUILD_DIR (this build tree, whose python/sgk/
# holds the extension module the source tree's package takes when built out
# of tree).  Exits 77 (skipped) when the modules cannot be imported or the
# extension module was not built, 99 when the library is not built.
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${srcdir:-$here/..}" && pwd)
[ -f "$top_srcdir/$marker" ] || top_srcdir=$(cd "$here/.." && pwd)
builddir=${builddir:-.}

# A ThreadSanitizer build (configure --enable-tsan; make check sets
# SGK_TSAN) cannot be loaded by an uninstrumented interpreter.
if [ -n "${SGK_TSAN:-}" ]; then
    echo "$name: the library is built with ThreadSanitizer (configure --enable-tsan)," \
         "which an uninstrumented Python cannot load; skipped"
    echo "[  PASSED  ] 0 test(s)."
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi

# The interpreter configure built the extension module for (make check
# passes it), else the project's .venv, else $PYTHON or python3.
if [ -n "${SGK_TEST_PYTHON:-}" ] && [ "$SGK_TEST_PYTHON" != none ]; then
    python=$SGK_TEST_PYTHON
elif [ -x "$top_srcdir/.venv/bin/python" ]; then
    python=$top_srcdir/.venv/bin/python
else
    python=${PYTHON:-python3}
fi

if ! "$python" -c "import $modules" >/dev/null 2>&1; then
    echo "$name: $modules not importable by $python; skipped" \
         "(scripts/setup-test-venv installs them)"
    echo "[  PASSED  ] 0 test(s)."
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi

library=
for candidate in "$builddir/src/.libs/libsgk.so" "$top_srcdir/src/.libs/libsgk.so"; do
    if [ -f "$candidate" ]; then
        library=$(cd "$(dirname "$candidate")" && pwd)/libsgk.so
        break
    fi
done
if [ -z "$library" ]; then
    echo "$name: libsgk.so not found under $builddir/src/.libs; build src/libsgk.la first"
    echo "0 passed, 1 failed"
    exit 99
fi

SGK_BUILD_DIR=$(cd "$builddir" && pwd)
export SGK_BUILD_DIR
if ! ls "$SGK_BUILD_DIR"/python/sgk/_sgk*.so >/dev/null 2>&1; then
    echo "$name: the extension module python/sgk/_sgk*.so is not built (configure found" \
         "no Python headers or NumPy for the interpreter; Debian: python3-dev); skipped"
    echo "[  PASSED  ] 0 test(s)."
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
fi
