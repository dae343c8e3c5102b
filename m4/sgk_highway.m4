# SGK_HWY_COMPILED_TARGETS
# ------------------------
# The SIMD targets Highway compiles the kernels (src/simd/) for, in the
# names sgk_runtime_describe prints: HWY_TARGETS with the flags the
# kernels get (HWY_CFLAGS, -DHWY_COMPILE_ALL_ATTAINABLE, CXXFLAGS, whose
# -march moves the baseline).  For configure's summary only: Highway picks
# among them at run time, so nothing here changes the build.  Compiles
# only hwy/detect_targets.h, once per target name that Highway release
# defines, which also works when cross-compiling.
#
# Needs PKG_CHECK_MODULES([HWY]) first.  Sets sgk_simd_summary.
AC_DEFUN([SGK_HWY_COMPILED_TARGETS], [
AC_MSG_CHECKING([for the SIMD targets Highway compiles the kernels for])
AC_LANG_PUSH([C++])
sgk_hwy_save_CPPFLAGS=$CPPFLAGS
CPPFLAGS="$CPPFLAGS $HWY_CFLAGS -DHWY_COMPILE_ALL_ATTAINABLE"
sgk_hwy_targets=
# Best first; names a Highway release lacks are skipped by the #ifndef.
for sgk_hwy_t in AVX3_SPR AVX3_ZEN4 AVX3_DL AVX3 AVX2 SSE4 SSSE3 SSE2 \
                 SVE2_128 SVE_256 SVE2 SVE NEON_BF16 NEON NEON_WITHOUT_AES \
                 RVV PPC10 PPC9 PPC8 Z15 Z14 WASM_EMU256 WASM EMU128 SCALAR; do
    AC_COMPILE_IFELSE([AC_LANG_SOURCE([[
#include <hwy/detect_targets.h>
#if !defined(HWY_$sgk_hwy_t) || !(HWY_TARGETS & HWY_$sgk_hwy_t)
#error not a compiled target
#endif
]])], [sgk_hwy_targets="$sgk_hwy_targets $sgk_hwy_t"])
done
CPPFLAGS=$sgk_hwy_save_CPPFLAGS
AC_LANG_POP([C++])
sgk_hwy_targets=`echo $sgk_hwy_targets`
sgk_hwy_version=`$PKG_CONFIG --modversion libhwy 2>/dev/null`
AS_IF([test -n "$sgk_hwy_targets"],
      [sgk_simd_summary="$sgk_hwy_targets (Highway $sgk_hwy_version; the best the CPU has, chosen at run time)"],
      [sgk_simd_summary="unknown (Highway $sgk_hwy_version; see config.log)"])
AC_MSG_RESULT([${sgk_hwy_targets:-unknown}])
])
