/*
 * sgk — scatter/gather kernels for the ONNX and OpenVINO operator family
 * (ScatterND, ScatterNDUpdate, GatherND, ScatterElements/Scatter,
 * GatherElements, Gather, TensorScatter) on the CPU.
 *
 * Tensors are dense and row-major.  Every call validates all shapes and every
 * index before it writes a byte of output; on failure the output (or the data,
 * in place) is untouched and sgk_last_error() describes the problem.
 */
#ifndef SGK_H
#define SGK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SGK_API __attribute__((visibility("default")))
#else
#define SGK_API
#endif

typedef enum {
    SGK_OK = 0,
    SGK_ERR_INVALID_ARGUMENT = 1, /* NULL pointer, bad enum, overlapping buffers */
    SGK_ERR_SHAPE = 2,            /* ranks or dimensions break the operator's rules */
    SGK_ERR_INDEX_OUT_OF_RANGE = 3,
    SGK_ERR_UNSUPPORTED = 4,      /* reduction undefined for the type, index type */
    SGK_ERR_OUT_OF_MEMORY = 5,
    SGK_ERR_OVERFLOW = 6          /* a size product does not fit in 64 bits */
} sgk_status;

typedef enum {
    SGK_BOOL = 0, SGK_INT8, SGK_UINT8, SGK_INT16, SGK_UINT16,
    SGK_INT32, SGK_UINT32, SGK_INT64, SGK_UINT64, SGK_FLOAT16,
    SGK_BFLOAT16, SGK_FLOAT32, SGK_FLOAT64, SGK_COMPLEX64,
    SGK_COMPLEX128, SGK_STRING
} sgk_dtype;

typedef enum {
    SGK_REDUCE_NONE = 0, SGK_REDUCE_ADD, SGK_REDUCE_SUB,
    SGK_REDUCE_MUL, SGK_REDUCE_MAX, SGK_REDUCE_MIN
} sgk_reduction;

/* TensorScatter's write positions: `linear` writes must fit in the
   sequence, `circular` ones wrap around it (a ring buffer). */
typedef enum {
    SGK_TENSOR_SCATTER_LINEAR = 0, SGK_TENSOR_SCATTER_CIRCULAR
} sgk_tensor_scatter_mode;

/* A dense row-major tensor.  Strings are arrays of `const char *`. */
typedef struct {
    sgk_dtype dtype;
    int32_t rank;
    const int64_t *shape;
    const void *data;
} sgk_tensor;

/* Largest rank accepted; real models stay far below it. */
#define SGK_MAX_RANK 64

/* ---- one-shot: validate, plan, execute ------------------------------- */

/* ScatterND (ONNX 11-18) and ScatterNDUpdate (OpenVINO 3, 15).
   output may equal data->data (in place). */
SGK_API sgk_status sgk_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                                  const sgk_tensor *updates, sgk_reduction reduction,
                                  void *output);
SGK_API sgk_status sgk_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                                 int64_t batch_dims, void *output);
/* ScatterElements (ONNX 11-18); the deprecated Scatter is the NONE case. */
SGK_API sgk_status sgk_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                        const sgk_tensor *updates, int64_t axis,
                                        sgk_reduction reduction, void *output);
SGK_API sgk_status sgk_gather_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                       int64_t axis, void *output);
/* Output shape of GatherND.  *rank receives the output rank; shape, when not
   NULL, receives the dimensions and must hold indices->rank + data->rank
   entries. */
SGK_API sgk_status sgk_gather_nd_shape(const sgk_tensor *data, const sgk_tensor *indices,
                                       int64_t batch_dims, int64_t *shape, int32_t *rank);

/* Gather (ONNX 1, 11, 13; NumPy's take along an axis): output shape
   data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]; indices may
   be negative, as everywhere. */
SGK_API sgk_status sgk_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                              void *output);
/* Output shape of Gather, as sgk_gather_nd_shape gives GatherND's; shape,
   when not NULL, must hold indices->rank + data->rank - 1 entries. */
SGK_API sgk_status sgk_gather_shape(const sgk_tensor *data, const sgk_tensor *indices,
                                    int64_t axis, int64_t *shape, int32_t *rank);
/* TensorScatter (ONNX 24), the KV-cache write: update's sequence positions
   (along axis, which is not 0: -2 is ONNX's default) go into the cache of
   past_cache's shape, batch b's from write_indices[b] on (write_indices:
   int32 or int64 of shape [batch], or NULL for zeros).  Linear mode needs
   0 <= write_indices[b] <= max_sequence_length - sequence_length;
   circular mode wraps any write index modulo max_sequence_length.
   output may equal past_cache->data: the update is then written in place,
   costing only the written slices. */
SGK_API sgk_status sgk_tensor_scatter(const sgk_tensor *past_cache, const sgk_tensor *update,
                                      const sgk_tensor *write_indices, int64_t axis,
                                      sgk_tensor_scatter_mode mode, void *output);
/* linear circular */
SGK_API sgk_status sgk_tensor_scatter_mode_from_name(const char *name,
                                                     sgk_tensor_scatter_mode *out);

/* ---- plan once, execute many ----------------------------------------- */

/* The plan reads the index values and shapes (data/updates pointers may be
   NULL at plan time) and is immutable afterwards; sgk_execute may run the
   same plan from several threads at once.  A plan keeps no pointer to the
   caller's buffers: the indices may be freed after planning. */
typedef struct sgk_plan sgk_plan;

enum {
    SGK_PLAN_DETERMINISTIC = 1u << 0,   /* float add/sub/mul equal the sequential loop */
    SGK_PLAN_ALLOW_REORDER = 1u << 1,   /* float add/sub/mul may reorder (rounding differs) */
    SGK_PLAN_WIDE_ACCUMULATE = 1u << 2  /* fp16/bf16: accumulate a duplicate run in float32 */
};

SGK_API sgk_status sgk_plan_scatter_nd(sgk_plan **plan, const sgk_tensor *data,
                                       const sgk_tensor *indices, const sgk_tensor *updates,
                                       sgk_reduction reduction, uint32_t flags);
SGK_API sgk_status sgk_plan_gather_nd(sgk_plan **plan, const sgk_tensor *data,
                                      const sgk_tensor *indices, int64_t batch_dims,
                                      uint32_t flags);
SGK_API sgk_status sgk_plan_scatter_elements(sgk_plan **plan, const sgk_tensor *data,
                                             const sgk_tensor *indices,
                                             const sgk_tensor *updates, int64_t axis,
                                             sgk_reduction reduction, uint32_t flags);
SGK_API sgk_status sgk_plan_gather_elements(sgk_plan **plan, const sgk_tensor *data,
                                            const sgk_tensor *indices, int64_t axis,
                                            uint32_t flags);
SGK_API sgk_status sgk_plan_gather(sgk_plan **plan, const sgk_tensor *data,
                                   const sgk_tensor *indices, int64_t axis, uint32_t flags);
/* Executed as sgk_execute(plan, past_cache, update, output). */
SGK_API sgk_status sgk_plan_tensor_scatter(sgk_plan **plan, const sgk_tensor *past_cache,
                                           const sgk_tensor *update,
                                           const sgk_tensor *write_indices, int64_t axis,
                                           sgk_tensor_scatter_mode mode, uint32_t flags);
/* updates is NULL for gathers.  output may equal data (scatter, in place);
   no other buffers may overlap output. */
SGK_API sgk_status sgk_execute(const sgk_plan *plan, const void *data,
                               const void *updates, void *output);
/* Chosen path, threads and SIMD target, in one line owned by the plan. */
SGK_API const char *sgk_plan_describe(const sgk_plan *plan);
SGK_API void sgk_plan_destroy(sgk_plan *plan);

/* ---- errors, names, runtime ------------------------------------------ */

SGK_API const char *sgk_status_name(sgk_status status);
/* This thread's detail of its last failure ("" if none yet). */
SGK_API const char *sgk_last_error(void);
/* Bytes per element; sizeof(const char *) for strings, 0 for a bad dtype. */
SGK_API size_t sgk_dtype_size(sgk_dtype dtype);
/* none add sum sub mul prod max min */
SGK_API sgk_status sgk_reduction_from_name(const char *name, sgk_reduction *out);
SGK_API const char *sgk_version(void);
/* SIMD target, threads, topology, environment overrides. */
SGK_API const char *sgk_runtime_describe(void);
/* Worker threads for later plans and calls; 0 restores the default. */
SGK_API sgk_status sgk_set_num_threads(int n);

/* ---- the host's thread pool ------------------------------------------ */

/* One task of a parallel loop: sgk's work item i. */
typedef void (*sgk_task_fn)(void *task_ctx, size_t i);

/* A host's parallel-for, for servers that own a thread pool (as XNNPACK
   takes a pthreadpool_t and oneDNN a threadpool): with one set, sgk runs
   its parallel loops on the host's workers and starts no OpenMP threads. */
typedef struct {
    /* Runs task(task_ctx, i) once for every i in [0, n), on any of the
       pool's threads (the calling thread included), any number at once,
       and returns when all have returned.  sgk calls it with n no larger
       than its thread count. */
    void (*parallel_for)(void *pool, size_t n, sgk_task_fn task, void *task_ctx);
    void *pool;
    /* Tasks the pool runs at once: the default thread count of later
       plans and calls (sgk_set_num_threads and SGK_NUM_THREADS still
       override it); 0 keeps sgk's default. */
    int workers;
    /* Optional: nonzero when the calling thread is one of the pool's
       workers.  sgk then runs that call's loops on the calling thread
       alone, as it does inside an OpenMP parallel region, so that a pool
       that cannot be entered from its own workers never waits on itself.
       NULL for pools that nest (oneTBB). */
    int (*in_worker)(void *pool);
} sgk_parallel_backend;

/* Installs the host's parallel-for (copied), or with NULL restores
   OpenMP.  Takes effect for every later parallel loop, plans made before
   included; safe to call while other threads run sgk, but a loop that
   started before it returns may still run on the old pool: keep that pool
   alive until the calls in flight have returned.  After fork(), a
   child runs serially until it installs a backend of its own: OpenMP's
   workers, and the host's, belong to the parent. */
SGK_API sgk_status sgk_set_parallel_backend(const sgk_parallel_backend *backend);

#ifdef __cplusplus
}
#endif

#endif /* SGK_H */
