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
#include <cctype>
#include <string>
#include <vector>

#include "simd/dispatch.h"
#include "simd/simd.h"

namespace sgk {

HWY_EXPORT(CompiledTarget);

namespace {
// The Highway target SGK_SIMD names, 0 for the best one: set by the
// configuration as it loads, read once by TableIndex.  The configuration's
// pthread_once already orders the two for every caller; the atomic keeps
// even a caller that skipped it (none does) free of a data race.
std::atomic<int64_t> forced_target{0};

// Highway's name of a target, lower-cased ("avx3_dl"); "scalar" for the
// portable fallback, whatever Highway calls it (EMU128 or SCALAR).
std::string LowerName(int64_t target) {
  if (target == HWY_EMU128 || target == HWY_SCALAR) return "scalar";
  std::string name = hwy::TargetName(target);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// The targets this library has kernels for and this CPU runs, best first
// (Highway's bits: a lower bit is a better target), the fallback last
// where it is compiled.
std::vector<int64_t> RunnableTargets() {
  std::vector<int64_t> targets;
  const int64_t compiled = HWY_TARGETS & ~(HWY_EMU128 | HWY_SCALAR);
  for (int64_t left = hwy::SupportedTargets() & compiled; left != 0; left &= left - 1)
    targets.push_back(left & -left);
  if (HWY_TARGETS & (HWY_EMU128 | HWY_SCALAR)) targets.push_back(HWY_EMU128);
  return targets;
}
}  // namespace

extern "C" int sgk_simd_force_target(const char *name) {
  const std::string wanted = name;
  if (wanted == "auto") {
    forced_target.store(0, std::memory_order_relaxed);
    return 0;
  }
  for (int64_t target : RunnableTargets()) {
    if (LowerName(target) == wanted) {
      forced_target.store(target, std::memory_order_relaxed);
      return 0;
    }
  }
  return -1;
}

extern "C" const char *sgk_simd_runnable_targets(void) {
  static const std::string list = [] {
    std::string names;
    for (int64_t target : RunnableTargets())
      names += (names.empty() ? "" : " ") + LowerName(target);
    return names;
  }();
  return list.c_str();
}

size_t TableIndex() {
  // A build of one target (HWY_COMPILE_ONLY_STATIC, as the fuzzers are
  // built) has one-entry tables.
  if ((HWY_TARGETS & (HWY_TARGETS - 1)) == 0) return 0;
  static const size_t index = [] {
    const int64_t forced = forced_target.load(std::memory_order_relaxed);
    if (forced == HWY_EMU128) return size_t{HWY_MAX_DYNAMIC_TARGETS + 1};
    // A private ChosenTarget: the same selection Highway makes, without
    // touching Highway's process-wide state that other libraries share.
    // Given one target, it picks that one (sgk_simd_force_target has
    // checked that it is compiled and supported).
    hwy::ChosenTarget chosen;
    chosen.Update(forced != 0 ? forced : hwy::SupportedTargets());
    return chosen.GetIndex();
  }();
  return index;
}

extern "C" const char *sgk_simd_target_name(void) {
  return hwy::TargetName(SGK_DISPATCH(CompiledTarget)());
}

}  // namespace sgk
#endif  // HWY_ONCE
