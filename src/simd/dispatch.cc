// Chooses the Highway target once per process and names it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/dispatch.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace sgk {
namespace HWY_NAMESPACE {

int64_t CompiledTarget() { return HWY_TARGET; }

}  // namespace HWY_NAMESPACE
}  // namespace sgk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
extern "C" {
#include "runtime_config.h"
}
#include "simd/dispatch.h"
#include "simd/simd.h"

namespace sgk {

HWY_EXPORT(CompiledTarget);

size_t TableIndex() {
  static const size_t index = [] {
    if (sgk_config_get()->simd_scalar) return size_t{HWY_MAX_DYNAMIC_TARGETS + 1};
    // A private ChosenTarget: the same selection Highway makes, without
    // touching Highway's process-wide state that other libraries share.
    hwy::ChosenTarget chosen;
    chosen.Update(hwy::SupportedTargets());
    return chosen.GetIndex();
  }();
  return index;
}

extern "C" const char *sgk_simd_target_name(void) {
  return hwy::TargetName(SGK_DISPATCH(CompiledTarget)());
}

}  // namespace sgk
#endif  // HWY_ONCE
