# SGK_FIND_PYTHON_WITH(MODULE, [EXPLICIT])
# -----------------------------------------
# Finds the Python interpreter an optional part of the build takes a
# package from (OpenVINO's wheel, PyTorch's, NumPy's headers): the first
# of these that can `import MODULE` (a module name, as for `python -c`):
#
#   1. EXPLICIT, when it expands to a non-empty word: the interpreter the
#      user named (e.g. the PYTHON of --with-openvino=PYTHON).  It is then
#      the only candidate: a choice the user made is never replaced by a
#      guess, it either works or is reported.
#   2. $PYTHON, when set (./configure PYTHON=... or in the environment);
#   3. the active environment's: $VIRTUAL_ENV/bin/python (venv,
#      virtualenv), else $CONDA_PREFIX/bin/python (conda);
#   4. the project's $srcdir/.venv/bin/python (scripts/setup-test-venv);
#   5. python3 on $PATH.
#
# A bare name (PYTHON=python3.12) is looked up on $PATH, a relative path
# is taken from the directory configure runs in.  Each candidate
# is tried once; the failed imports go to config.log.
#
# Sets, in the shell (not AC_SUBSTed, not cached):
#   sgk_python_with      the interpreter's absolute path, or empty;
#   sgk_python_with_why  when empty, why: every candidate and what failed
#                        (for the caller's message).
# Prints one line, "checking for a Python that imports MODULE... PATH".
# Never fails configure: the caller decides, AC_MSG_ERROR when the user
# asked for the part (--with-X) and a notice otherwise.  Each call
# overwrites both variables: copy them before calling it again.
AC_DEFUN([SGK_FIND_PYTHON_WITH], [
AC_MSG_CHECKING([for a Python that imports $1])
sgk_python_with=
sgk_python_with_why=
sgk_pw_explicit="$2"
sgk_pw_tried=" "
for sgk_pw_kind in explicit python venv project path; do
    sgk_pw_py=
    AS_CASE([$sgk_pw_kind],
      [explicit], [sgk_pw_py=$sgk_pw_explicit; sgk_pw_label="$sgk_pw_explicit"],
      [python], [test -z "$sgk_pw_explicit" && sgk_pw_py=$PYTHON; sgk_pw_label="PYTHON=$PYTHON"],
      [venv], [AS_IF([test -z "$sgk_pw_explicit" && test -n "$VIRTUAL_ENV"],
                     [sgk_pw_py=$VIRTUAL_ENV/bin/python; sgk_pw_label="the active venv $VIRTUAL_ENV"],
                     [test -z "$sgk_pw_explicit" && test -n "$CONDA_PREFIX"],
                     [sgk_pw_py=$CONDA_PREFIX/bin/python; sgk_pw_label="the active conda env $CONDA_PREFIX"])],
      [project], [AS_IF([test -z "$sgk_pw_explicit" && test -d "$srcdir/.venv"],
                        [sgk_pw_py=`cd "$srcdir" && pwd`/.venv/bin/python
                         sgk_pw_label="the project's .venv"])],
      [path], [test -z "$sgk_pw_explicit" && sgk_pw_py=python3; sgk_pw_label="python3 on PATH"])
    test -n "$sgk_pw_py" || continue
    AS_CASE([$sgk_pw_py],
      [/*], [],
      [*/*], [sgk_pw_py=`pwd`/$sgk_pw_py],
      [sgk_pw_py=`command -v "$sgk_pw_py" 2>/dev/null`])
    AS_IF([test -z "$sgk_pw_py" || test ! -f "$sgk_pw_py" || test ! -x "$sgk_pw_py"],
          [sgk_python_with_why="$sgk_python_with_why; $sgk_pw_label: no such interpreter"
           continue])
    AS_CASE([$sgk_pw_tried], [*" $sgk_pw_py "*], [continue])
    sgk_pw_tried="$sgk_pw_tried$sgk_pw_py "
    echo "$as_me:$LINENO: $sgk_pw_py -c 'import $1'" >&AS_MESSAGE_LOG_FD
    AS_IF(["$sgk_pw_py" -c "import $1" >&AS_MESSAGE_LOG_FD 2>&1],
          [sgk_python_with=$sgk_pw_py; break])
    AS_IF([test "x$sgk_pw_label" != "x$sgk_pw_py"],
          [sgk_pw_label="$sgk_pw_label ($sgk_pw_py)"])
    sgk_python_with_why="$sgk_python_with_why; $sgk_pw_label cannot import $1"
done
AS_IF([test -n "$sgk_python_with"],
      [sgk_python_with_why=],
      [sgk_python_with_why=`echo "$sgk_python_with_why" | sed 's/^; //'`
       test -n "$sgk_python_with_why" || sgk_python_with_why="no Python interpreter found"])
AC_MSG_RESULT([${sgk_python_with:-none}])
])
