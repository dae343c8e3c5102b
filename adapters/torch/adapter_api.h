/* The adapter's C entry points, which python/sgk/torch.py calls through
   ctypes: registering and unregistering sgk's kernels, the counters, and
   the torch version the module was built against (also findable in the
   file's bytes, so that Python can compare it before loading anything). */
#ifndef SGK_TORCH_ADAPTER_API_H
#define SGK_TORCH_ADAPTER_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SGK_TORCH_API __attribute__((visibility("default")))

/* "sgk-torch-built-against:" followed by torch's version, e.g. 2.15.0. */
SGK_TORCH_API extern const char sgk_torch_built_against[];

/* Registers sgk as the CPU kernel of the served aten ops; 0 on success,
   else -1 with the reason in sgk_torch_error().  Idempotent. */
SGK_TORCH_API int sgk_torch_enable(void);
/* Restores PyTorch's own kernels.  Idempotent. */
SGK_TORCH_API void sgk_torch_disable(void);
SGK_TORCH_API int sgk_torch_is_enabled(void);
SGK_TORCH_API const char *sgk_torch_error(void);

/* The counters as JSON into buf (NUL-terminated when size allows);
   returns the length the whole text needs, without its NUL. */
SGK_TORCH_API size_t sgk_torch_counters_json(char *buf, size_t size);
SGK_TORCH_API void sgk_torch_reset_counters(void);

/* The distinct threads that `tasks` tasks of one parallel loop of the
   adapter's backend for sgk run on (a test of the build: see threads.hpp). */
SGK_TORCH_API int sgk_torch_parallel_reach(int tasks);

/* Frees the output buffers the adapter keeps for reuse (output_pool.hpp);
   those of tensors still alive return to the pool when they are freed. */
SGK_TORCH_API void sgk_torch_empty_cache(void);

#ifdef __cplusplus
}
#endif

#endif
