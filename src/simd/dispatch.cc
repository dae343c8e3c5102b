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
#include <atomic>

#include "simd/dispatch.h"
#include "simd/simd.h"

namespace sgk {

HWY_EXPORT(CompiledTarget);

namespace {
// Set by the configuration as it loads, read once by TableIndex.  The
// configuration's pthread_once already orders the two for every caller;
// the atomic keeps even a caller that skipped it (none does) free of a
// data race.
std::atomic<bool> force_portable{false};
}  // namespace

extern "C" void sgk_simd_force_portable(bool on) {
  force_portable.store(on, std::memory_order_relaxed);
}

size_t TableIndex() {
  static const size_t index = [] {
    if (force_portable.load(std::memory_order_relaxed))
      return size_t{HWY_MAX_DYNAMIC_TARGETS + 1};
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
