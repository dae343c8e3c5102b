# SGK_CHECK_OPENVINO: the optional OpenVINO extension (adapters/openvino/).
#
# --with-openvino[=DIR|PYTHON] names an OpenVINO whose C++ development
# files the extension is built against: DIR holds include/openvino/ (the
# PyPI wheel's package folder, or an archive's runtime/ folder) and its
# libraries in libs/, lib/intel64/, lib64/ or lib/; PYTHON is an
# interpreter whose `import openvino` is that wheel.  Without either, the
# openvino package of the first Python SGK_FIND_PYTHON_WITH finds
# (m4/sgk_python.m4: $PYTHON, the active virtual environment, the
# project's .venv, python3) is used when there is one; --without-openvino
# turns the extension off.
#
# oneTBB (the extension's parallel-for for sgk) comes from the same place
# when OpenVINO ships it (the wheel ships its headers and libtbb.so.12), so
# that the headers match the libtbb that libopenvino loads; otherwise from
# the system (Debian's libtbb-dev).
#
# Sets OPENVINO_CPPFLAGS, OPENVINO_LIBS (linker flags: put them in _LDFLAGS), OPENVINO_LIBDIR (for the tests'
# rpath), TBB_CPPFLAGS, TBB_LIBS (likewise), OPENVINO_VERSION and the automake
# conditional HAVE_OPENVINO; in the shell, sgk_openvino_python (the
# interpreter it came from, if any) and sgk_openvino_summary (configure's
# closing summary: what was found, or why the extension is off).
AC_DEFUN([SGK_CHECK_OPENVINO], [
AC_ARG_WITH([openvino],
    [AS_HELP_STRING([--with-openvino@<:@=DIR|PYTHON@:>@],
        [build the OpenVINO extension against the OpenVINO in DIR, or the
         openvino package of the interpreter PYTHON (default: that of
         $PYTHON, the active virtual environment, $srcdir/.venv or
         python3, the first that has one)])],
    [], [with_openvino=check])

have_openvino=no
sgk_ov_why=
sgk_ov_dir=
sgk_openvino_python=
# A directory is an installation; anything else names an interpreter.
AS_CASE(["$with_openvino"],
  [no], [sgk_ov_why="--without-openvino"],
  [yes|check], [SGK_FIND_PYTHON_WITH([openvino])],
  [AS_IF([test -d "$with_openvino"],
         [sgk_ov_dir="$with_openvino"],
         [SGK_FIND_PYTHON_WITH([openvino], [$with_openvino])])])
AS_IF([test -z "$sgk_ov_dir" && test "x$with_openvino" != "xno"], [
    sgk_openvino_python=$sgk_python_with
    AS_IF([test -n "$sgk_openvino_python"],
      [sgk_ov_dir=`"$sgk_openvino_python" -c 'import openvino, os; print(os.path.dirname(openvino.__spec__.origin))' 2>/dev/null`
       test -n "$sgk_ov_dir" ||
           sgk_ov_why="$sgk_openvino_python imports openvino but does not say where it is"],
      [test "x$with_openvino" = "xyes" || test "x$with_openvino" = "xcheck"],
      [sgk_ov_why="no Python with the openvino package ($sgk_python_with_why; scripts/setup-test-venv installs it into .venv)"],
      [sgk_ov_why="$with_openvino is no OpenVINO directory, nor a Python with the openvino package ($sgk_python_with_why)"])
])

sgk_ov_include=
sgk_ov_libdir=
AS_IF([test -n "$sgk_ov_dir"], [
    for d in "$sgk_ov_dir/include" "$sgk_ov_dir/runtime/include"; do
        AS_IF([test -f "$d/openvino/core/node.hpp"], [sgk_ov_include=$d; break])
    done
    for d in "$sgk_ov_dir/libs" "$sgk_ov_dir/runtime/lib/intel64" "$sgk_ov_dir/lib/intel64" \
             "$sgk_ov_dir/lib64" "$sgk_ov_dir/lib"; do
        AS_IF([ls "$d"/libopenvino.so* >/dev/null 2>&1], [sgk_ov_libdir=$d; break])
    done
    AS_IF([test -z "$sgk_ov_include"],
          [sgk_ov_why="no OpenVINO C++ headers (include/openvino/core/node.hpp) under $sgk_ov_dir"],
          [test -z "$sgk_ov_libdir"],
          [sgk_ov_why="no libopenvino.so under $sgk_ov_dir"])
])

AS_IF([test -n "$sgk_ov_include" && test -n "$sgk_ov_libdir"], [
    # The wheel ships only versioned names (libopenvino.so.2641): link the
    # file itself, which records its soname, passed through -Wl because
    # libtool drops shared objects it does not know by -l or .la, and kept
    # when --as-needed is on: these flags come before the objects.
    sgk_ov_lib=`ls "$sgk_ov_libdir"/libopenvino.so "$sgk_ov_libdir"/libopenvino.so.* 2>/dev/null | head -n 1`
    OPENVINO_CPPFLAGS="-isystem $sgk_ov_include"
    OPENVINO_LIBS="-Wl,--push-state,--no-as-needed,$sgk_ov_lib,--pop-state"
    OPENVINO_LIBDIR=$sgk_ov_libdir
    AS_IF([test -f "$sgk_ov_include/oneapi/tbb/parallel_for.h"],
      [TBB_CPPFLAGS="-isystem $sgk_ov_include"],
      [TBB_CPPFLAGS=])
    sgk_tbb_lib=`ls "$sgk_ov_libdir"/libtbb.so "$sgk_ov_libdir"/libtbb.so.* 2>/dev/null | head -n 1`
    AS_IF([test -n "$sgk_tbb_lib"], [TBB_LIBS="-Wl,--push-state,--no-as-needed,$sgk_tbb_lib,--pop-state"], [TBB_LIBS=-ltbb])

    AC_LANG_PUSH([C++])
    sgk_ov_save_CPPFLAGS=$CPPFLAGS
    sgk_ov_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $OPENVINO_CPPFLAGS $TBB_CPPFLAGS"
    LIBS="$OPENVINO_LIBS $TBB_LIBS $LIBS"
    AC_MSG_CHECKING([for OpenVINO's C++ API, its ONNX frontend extensions and oneTBB])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[
#include <openvino/core/version.hpp>
#include <openvino/op/op.hpp>
#include <openvino/frontend/onnx/extension/conversion.hpp>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/version.h>
]], [[
    int n = 0;
    tbb::parallel_for(0, 2, [&](int) { (void)n; });
    return ov::get_openvino_version().buildNumber == nullptr;
]])], [have_openvino=yes],
      [sgk_ov_why="the OpenVINO and oneTBB headers under $sgk_ov_dir do not compile and link (see config.log)"])
    AC_MSG_RESULT([$have_openvino])
    # The versions, from the headers: programs run without OpenVINO's
    # libraries, which are not on the loader's path.
    LIBS=$sgk_ov_save_LIBS
    AS_IF([test "x$have_openvino" = "xyes"], [
        AC_COMPUTE_INT([sgk_tbb_headers], [TBB_INTERFACE_VERSION], [#include <oneapi/tbb/version.h>], [sgk_tbb_headers=0])
        AC_COMPUTE_INT([sgk_ov_major], [OPENVINO_VERSION_MAJOR], [#include <openvino/core/version.hpp>], [sgk_ov_major=0])
        AC_COMPUTE_INT([sgk_ov_minor], [OPENVINO_VERSION_MINOR], [#include <openvino/core/version.hpp>], [sgk_ov_minor=0])
        OPENVINO_VERSION="$sgk_ov_major.$sgk_ov_minor"
    ])
    CPPFLAGS=$sgk_ov_save_CPPFLAGS
    AC_LANG_POP([C++])
])

AS_IF([test "x$have_openvino" = "xyes"],
  [sgk_openvino_summary="yes (OpenVINO $OPENVINO_VERSION in $sgk_ov_dir)"],
  [sgk_openvino_summary="no ($sgk_ov_why)"])
AS_IF([test "x$have_openvino" = "xyes"],
  [AC_MSG_NOTICE([building the OpenVINO extension: OpenVINO $OPENVINO_VERSION in $sgk_ov_dir, oneTBB interface $sgk_tbb_headers (${TBB_CPPFLAGS:-system headers}, $TBB_LIBS)])],
  [test "x$with_openvino" != "xcheck" && test "x$with_openvino" != "xno"],
  [AC_MSG_ERROR([--with-openvino: $sgk_ov_why])],
  [AC_MSG_NOTICE([not building the OpenVINO extension: $sgk_ov_why])])

AC_SUBST([OPENVINO_CPPFLAGS])
AC_SUBST([OPENVINO_LIBS])
AC_SUBST([OPENVINO_LIBDIR])
AC_SUBST([OPENVINO_VERSION])
AC_SUBST([TBB_CPPFLAGS])
AC_SUBST([TBB_LIBS])
AM_CONDITIONAL([HAVE_OPENVINO], [test "x$have_openvino" = "xyes"])
])
