/*
 * The few C entry points libsgk_openvino exports beside OpenVINO's
 * create_extensions, for tests and benchmarks (load the module with
 * dlopen or ctypes; they are not part of libsgk's API).
 */
#ifndef SGK_OPENVINO_EXTENSION_API_H
#define SGK_OPENVINO_EXTENSION_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SGK_OPENVINO_API __attribute__((visibility("default")))
#else
#define SGK_OPENVINO_API
#endif

/* Counts since the module was loaded, over every operator of every model:
   plans made for constant indices, evaluations that ran a kept plan, and
   evaluations that made a one-shot call.  Any pointer may be NULL. */
SGK_OPENVINO_API void sgk_openvino_counters(uint64_t *plans_built, uint64_t *plan_runs,
                                            uint64_t *one_shot_runs);

/* "tbb" when sgk's parallel loops run on oneTBB (the default once the
   extension is loaded), "openmp" with SGK_OPENVINO_THREADS=openmp. */
SGK_OPENVINO_API const char *sgk_openvino_threading(void);

#ifdef __cplusplus
}
#endif

#endif /* SGK_OPENVINO_EXTENSION_API_H */
