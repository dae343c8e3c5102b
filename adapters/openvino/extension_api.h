/*
 * The few C entry points libsgk_openvino exports beside OpenVINO's
 * create_extensions, for tests and benchmarks (load the module with
 * dlopen or ctypes; they are not part of libsgk's API).
 */
#ifndef SGK_OPENVINO_EXTENSION_API_H
#define SGK_OPENVINO_EXTENSION_API_H

#include <stddef.h>
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

/* Per node of the user's models (by friendly name) that sgk served: its
   operator, evaluations, plan runs among them, and seconds spent in them
   (summed over threads), as JSON {"name": {"op": "SgkScatterND", "calls": 3,
   "plan_runs": 3, "seconds": 0.000012}, ...} into buf (NUL-terminated when
   size allows).  Returns the length the whole text needs, without its NUL:
   call with size 0 first to size the buffer.  sgk.openvino_counters()
   returns it as a dict. */
SGK_OPENVINO_API size_t sgk_openvino_node_counters_json(char *buf, size_t size);

/* "tbb" when sgk's parallel loops run on oneTBB (the default once the
   extension is loaded), "openmp" with SGK_OPENVINO_THREADS=openmp. */
SGK_OPENVINO_API const char *sgk_openvino_threading(void);

#ifdef __cplusplus
}
#endif

#endif /* SGK_OPENVINO_EXTENSION_API_H */
