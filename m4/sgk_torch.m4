# SGK_CHECK_TORCH: the optional PyTorch adapter (adapters/torch/).
#
# --with-torch[=PYTHON] names a Python interpreter whose torch package the
# adapter is built against: its C++ headers, its libraries (torch/lib) and
# its C++ ABI flag all come from that package, so the adapter loads into
# that torch and no other.  Without PYTHON: the project's .venv
# (scripts/setup-test-venv installs torch there), else an active
# $VIRTUAL_ENV, when their python imports torch.  --without-torch turns the
# adapter off.
#
# Sets TORCH_CPPFLAGS, TORCH_CXXFLAGS, TORCH_LIBS (linker flags: put them in
# _LDFLAGS), TORCH_LIBDIR, TORCH_VERSION, TORCH_PYTHON, the automake
# conditional HAVE_TORCH, and the shell variable sgk_torch_summary for
# configure's closing summary.
AC_DEFUN([SGK_CHECK_TORCH], [
AC_ARG_WITH([torch],
    [AS_HELP_STRING([--with-torch@<:@=PYTHON@:>@],
        [build the PyTorch adapter against the torch package PYTHON imports
         (default: $srcdir/.venv/bin/python, else $VIRTUAL_ENV/bin/python)])],
    [], [with_torch=check])

have_torch=no
sgk_torch_why=
sgk_torch_python=
AS_CASE(["$with_torch"],
  [no], [sgk_torch_why="--without-torch"],
  [yes|check], [
    for p in "$srcdir/.venv/bin/python" ${VIRTUAL_ENV:+"$VIRTUAL_ENV/bin/python"}; do
        AS_IF([test -x "$p" && "$p" -c 'import torch' >/dev/null 2>&1],
              [sgk_torch_python=`cd "$(dirname "$p")" && pwd`/`basename "$p"`; break])
    done
    AS_IF([test -z "$sgk_torch_python"],
          [sgk_torch_why="no python with torch in $srcdir/.venv${VIRTUAL_ENV:+ or $VIRTUAL_ENV} (scripts/setup-test-venv installs it; or --with-torch=PYTHON)"])],
  [AS_IF(["$with_torch" -c 'import torch' >/dev/null 2>&1],
         [sgk_torch_python=`command -v "$with_torch"`],
         [sgk_torch_why="$with_torch cannot import torch"])])

AS_IF([test -n "$sgk_torch_python"], [
    # One line of facts from the package itself: version, C++ ABI flag,
    # library folder, include folders.
    sgk_torch_facts=`"$sgk_torch_python" -c '
import torch, os
from torch.utils import cpp_extension as c
print(torch.__version__.split("+")[[0]], int(torch._C._GLIBCXX_USE_CXX11_ABI),
      os.path.join(os.path.dirname(torch.__spec__.origin), "lib"), *c.include_paths())' 2>/dev/null`
    set dummy $sgk_torch_facts
    AS_IF([test $[#] -ge 5], [
        TORCH_VERSION=$[2]
        TORCH_LIBDIR=$[4]
        # torch 2.15 headers need C++20 (torch.utils.cpp_extension passes
        # it).  -fopenmp: the wheel's at::parallel_for is an OpenMP region
        # in its header, compiled into the adapter, and without _OPENMP it
        # runs serially; the region then runs on torch's own libgomp (the
        # one loaded, found first through torch/lib in the run path).
        TORCH_CXXFLAGS="-std=c++20 -D_GLIBCXX_USE_CXX11_ABI=$[3] -fopenmp"
        shift 4
        TORCH_CPPFLAGS=
        for d in "$[@]"; do TORCH_CPPFLAGS="$TORCH_CPPFLAGS -isystem $d"; done
        TORCH_LIBS="-L$TORCH_LIBDIR -Wl,--push-state,--no-as-needed -ltorch_cpu -lc10 -Wl,--pop-state -Wl,-rpath,$TORCH_LIBDIR"
        TORCH_PYTHON=$sgk_torch_python
    ], [sgk_torch_why="$sgk_torch_python imports torch but torch.utils.cpp_extension gives no include paths"])
])

AS_IF([test -n "$TORCH_VERSION"], [
    AC_LANG_PUSH([C++])
    sgk_torch_save_CPPFLAGS=$CPPFLAGS
    sgk_torch_save_CXXFLAGS=$CXXFLAGS
    sgk_torch_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $TORCH_CPPFLAGS"
    CXXFLAGS="$CXXFLAGS $TORCH_CXXFLAGS"
    LIBS="$TORCH_LIBS $LIBS"
    AC_MSG_CHECKING([for PyTorch's C++ API (ATen, the dispatcher, at::parallel_for)])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <torch/library.h>
]], [[
    return at::get_num_threads() < 0;
]])], [have_torch=yes],
      [sgk_torch_why="torch $TORCH_VERSION's C++ headers and libraries do not compile and link (see config.log)"])
    AC_MSG_RESULT([$have_torch])
    CPPFLAGS=$sgk_torch_save_CPPFLAGS
    CXXFLAGS=$sgk_torch_save_CXXFLAGS
    LIBS=$sgk_torch_save_LIBS
    AC_LANG_POP([C++])
])

AS_IF([test "x$have_torch" = "xyes"],
  [sgk_torch_summary="yes (torch $TORCH_VERSION, $sgk_torch_python)"
   AC_MSG_NOTICE([building the PyTorch adapter: torch $TORCH_VERSION from $sgk_torch_python])],
  [sgk_torch_summary="no ($sgk_torch_why)"
   AS_IF([test "x$with_torch" != "xcheck" && test "x$with_torch" != "xno"],
     [AC_MSG_ERROR([--with-torch: $sgk_torch_why])],
     [AC_MSG_NOTICE([not building the PyTorch adapter: $sgk_torch_why])])])

AC_SUBST([TORCH_CPPFLAGS])
AC_SUBST([TORCH_CXXFLAGS])
AC_SUBST([TORCH_LIBS])
AC_SUBST([TORCH_LIBDIR])
AC_SUBST([TORCH_VERSION])
AC_SUBST([TORCH_PYTHON])
AM_CONDITIONAL([HAVE_TORCH], [test "x$have_torch" = "xyes"])
])
