/**
 * @file sgk.h
 * @brief sgk — scatter/gather kernels for the ONNX and OpenVINO operator
 * family (ScatterND, ScatterNDUpdate, GatherND, ScatterElements/Scatter,
 * GatherElements, Gather, TensorScatter) on the CPU.
 *
 * Tensors are dense and row-major.  Every call validates all shapes and every
 * index before it writes a byte of output; on failure the output (or the data,
 * in place) is untouched and sgk_last_error() describes the problem.
 *
 * Every operator has a one-shot call (validate, plan, execute) and a plan
 * form (plan once, sgk_execute() many times).  Every entry point may be
 * called from many threads at once unless its comment says otherwise; a
 * plan may be executed from many threads at once.  The library never
 * aborts, exits or prints (except under SGK_VERBOSE=1).
 */
#ifndef SGK_H
#define SGK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the entry points the shared library exports (it builds with
    hidden visibility). */
#if defined(__GNUC__)
#define SGK_API __attribute__((visibility("default")))
#else
#define SGK_API
#endif

/** What every fallible entry point returns; on anything but SGK_OK,
    sgk_last_error() has the detail and nothing was written. */
typedef enum {
    SGK_OK = 0,                     /**< success */
    SGK_ERR_INVALID_ARGUMENT = 1,   /**< NULL pointer, bad enum or flag, overlapping buffers */
    SGK_ERR_SHAPE = 2,              /**< ranks or dimensions break the operator's rules */
    SGK_ERR_INDEX_OUT_OF_RANGE = 3, /**< an index coordinate outside [-s, s-1] */
    SGK_ERR_UNSUPPORTED = 4,        /**< reduction undefined for the type; index type not int32/int64 */
    SGK_ERR_OUT_OF_MEMORY = 5,      /**< planning or scratch memory could not be allocated */
    SGK_ERR_OVERFLOW = 6            /**< a size product does not fit in 64 bits */
} sgk_status;

/** Element types.  Complex types are interleaved (re, im); SGK_BOOL is one
    byte, non-zero meaning true; SGK_STRING elements are `const char *`,
    copied as pointers (sgk never reads, allocates or frees the characters). */
typedef enum {
    SGK_BOOL = 0, SGK_INT8, SGK_UINT8, SGK_INT16, SGK_UINT16,
    SGK_INT32, SGK_UINT32, SGK_INT64, SGK_UINT64, SGK_FLOAT16,
    SGK_BFLOAT16, SGK_FLOAT32, SGK_FLOAT64, SGK_COMPLEX64,
    SGK_COMPLEX128, SGK_STRING
} sgk_dtype;

/** How an update combines with the value it lands on.  ONNX's add/mul are
    OpenVINO's sum/prod; SUB is OpenVINO's `out - update`. */
typedef enum {
    SGK_REDUCE_NONE = 0, SGK_REDUCE_ADD, SGK_REDUCE_SUB,
    SGK_REDUCE_MUL, SGK_REDUCE_MAX, SGK_REDUCE_MIN
} sgk_reduction;

/** TensorScatter's write positions: `linear` writes must fit in the
    sequence, `circular` ones wrap around it (a ring buffer). */
typedef enum {
    SGK_TENSOR_SCATTER_LINEAR = 0, /**< write_index + sequence_length <= max_sequence_length */
    SGK_TENSOR_SCATTER_CIRCULAR    /**< positions wrap modulo max_sequence_length */
} sgk_tensor_scatter_mode;

/** A dense row-major tensor.  Strings are arrays of `const char *`.  sgk
    reads `shape` and `data` during the call only and keeps neither. */
typedef struct {
    sgk_dtype dtype;      /**< element type */
    int32_t rank;         /**< number of dimensions, 0 to SGK_MAX_RANK */
    const int64_t *shape; /**< rank dimensions (may be NULL when rank is 0) */
    const void *data;     /**< the elements; may be NULL when planning */
} sgk_tensor;

/** Largest rank accepted; real models stay far below it. */
#define SGK_MAX_RANK 64

/* ---- one-shot: validate, plan, execute ------------------------------- */

/** @brief ScatterND (ONNX 11-18) and ScatterNDUpdate (OpenVINO 3, 15):
   `output = copy(data)`, then for each index tuple in row-major order
   `output[indices[i]] = f(output[indices[i]], updates[i])`.

   With k = indices.shape[-1], updates has shape indices.shape[:-1] ++
   data.shape[k:] (OpenVINO's [1] accepted where that is []) and data's type.
   Duplicates are allowed; with SGK_REDUCE_NONE the last one wins.
   @param data      the input (and, in place, the output)
   @param indices   int32 or int64 index tuples; negative ones count from the end
   @param updates   the values written or combined
   @param reduction how an update combines with the value it lands on
   @param output    data's shape and type; may equal data->data (in place)
   @retval SGK_OK                     output written
   @retval SGK_ERR_INVALID_ARGUMENT   a NULL tensor, shape or buffer; a bad
                                      dtype, or reduction; output overlapping
                                      another operand without being data
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64; the reduction undefined for the type
   @retval SGK_ERR_OUT_OF_MEMORY      scratch could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On any error nothing is written.
   @par Thread safety
   Safe to call from many threads at once, each with its own output. */
SGK_API sgk_status sgk_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                                  const sgk_tensor *updates, sgk_reduction reduction,
                                  void *output);
/** @brief GatherND (ONNX 11-13, OpenVINO GatherND-8): the slices of data
   that indices' tuples name, after batch_dims leading batch dimensions.
   @param data       the input
   @param indices    int32 or int64 index tuples, k = indices.shape[-1]
   @param batch_dims leading dimensions shared by data and indices, in
                     [0, min(rank(data), rank(indices)))
   @param output     shape sgk_gather_nd_shape(); must not overlap data
   @retval SGK_OK                     output written
   @retval SGK_ERR_INVALID_ARGUMENT   a NULL tensor, shape or buffer; a bad
                                      dtype; output overlapping
                                      another operand
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      scratch could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On any error nothing is written.
   @par Thread safety
   Safe to call from many threads at once, each with its own output. */
SGK_API sgk_status sgk_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                                 int64_t batch_dims, void *output);
/** @brief ScatterElements (ONNX 11-18; the deprecated Scatter is the NONE
   case): `output = copy(data)`, then for each position p of indices in
   row-major order, `output[p with indices[p] on axis] = f(that, updates[p])`.
   @param data      the input (and, in place, the output)
   @param indices   int32 or int64, data's rank, no longer than data off the axis
   @param updates   indices' shape, data's type
   @param axis      in [-rank, rank-1]
   @param reduction how an update combines with the value it lands on
   @param output    data's shape and type; may equal data->data (in place)
   @retval SGK_OK                     output written
   @retval SGK_ERR_INVALID_ARGUMENT   a NULL tensor, shape or buffer; a bad
                                      dtype, or reduction; output overlapping
                                      another operand without being data
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64; the reduction undefined for the type
   @retval SGK_ERR_OUT_OF_MEMORY      scratch could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On any error nothing is written.
   @par Thread safety
   Safe to call from many threads at once, each with its own output. */
SGK_API sgk_status sgk_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                        const sgk_tensor *updates, int64_t axis,
                                        sgk_reduction reduction, void *output);
/** @brief GatherElements (ONNX 11, 13): `output[p] = data[p with
   indices[p] on axis]`.
   @param data    the input
   @param indices int32 or int64, data's rank, no longer than data off the axis
   @param axis    in [-rank, rank-1]
   @param output  indices' shape, data's type; must not overlap data
   @retval SGK_OK                     output written
   @retval SGK_ERR_INVALID_ARGUMENT   a NULL tensor, shape or buffer; a bad
                                      dtype; output overlapping
                                      another operand
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      scratch could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On any error nothing is written.
   @par Thread safety
   Safe to call from many threads at once, each with its own output. */
SGK_API sgk_status sgk_gather_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                       int64_t axis, void *output);
/** @brief The output shape of GatherND for these operands (their data
   pointers are not read but must not be NULL).
   @param data       the input's dtype, rank and shape
   @param indices    the indices' dtype, rank and shape
   @param batch_dims as for sgk_gather_nd()
   @param shape      when not NULL, receives the dimensions; must hold
                     indices->rank + data->rank entries
   @param rank       receives the output rank
   @retval SGK_OK                   *rank (and shape) written
   @retval SGK_ERR_INVALID_ARGUMENT a NULL tensor, buffer or rank
   @retval SGK_ERR_SHAPE            GatherND's shape rules broken
   @retval SGK_ERR_UNSUPPORTED      indices neither int32 nor int64
   @retval SGK_ERR_OVERFLOW         a size product overflows 64 bits
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_gather_nd_shape(const sgk_tensor *data, const sgk_tensor *indices,
                                       int64_t batch_dims, int64_t *shape, int32_t *rank);

/** @brief Gather (ONNX 1, 11, 13; NumPy's take along an axis): output shape
   data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:], each index
   picking a slice of data along axis.
   @param data    the input
   @param indices int32 or int64; negative ones count from the end
   @param axis    in [-rank, rank-1]
   @param output  shape sgk_gather_shape(); must not overlap data
   @retval SGK_OK                     output written
   @retval SGK_ERR_INVALID_ARGUMENT   a NULL tensor, shape or buffer; a bad
                                      dtype; output overlapping another operand
   @retval SGK_ERR_SHAPE              axis out of range, or rank 0 data
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      scratch could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On any error nothing is written.
   @par Thread safety
   Safe to call from many threads at once, each with its own output. */
SGK_API sgk_status sgk_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                              void *output);
/** @brief The output shape of Gather, as sgk_gather_nd_shape() gives
   GatherND's (the data pointers are not read).
   @param data    the input's dtype, rank and shape
   @param indices the indices' dtype, rank and shape
   @param axis    as for sgk_gather()
   @param shape   when not NULL, receives the dimensions; must hold
                  indices->rank + data->rank - 1 entries
   @param rank    receives the output rank
   @retval SGK_OK                   *rank (and shape) written
   @retval SGK_ERR_INVALID_ARGUMENT a NULL tensor, buffer or rank
   @retval SGK_ERR_SHAPE            axis out of range, or rank 0 data
   @retval SGK_ERR_UNSUPPORTED      indices neither int32 nor int64
   @retval SGK_ERR_OVERFLOW         a size product overflows 64 bits
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_gather_shape(const sgk_tensor *data, const sgk_tensor *indices,
                                    int64_t axis, int64_t *shape, int32_t *rank);
/** @brief TensorScatter (ONNX 24), the KV-cache write: update's sequence
   positions (along axis) go into a cache of past_cache's shape, batch b's
   from write_indices[b] on.
   @param past_cache    the cache [batch, ..., max_sequence_length, ...]
   @param update        past_cache's shape except sequence_length <=
                        max_sequence_length along axis; its type
   @param write_indices int32 or int64 of shape [batch], or NULL for zeros
   @param axis          the sequence axis, not 0 (ONNX's default is -2)
   @param mode          linear: 0 <= write_indices[b] <= max_sequence_length
                        - sequence_length; circular: any value, wrapped
   @param output        past_cache's shape and type; may equal
                        past_cache->data, and then only the written slices
                        are touched
   @retval SGK_OK                     output written
   @retval SGK_ERR_INVALID_ARGUMENT   a NULL tensor, shape or buffer; a bad
                                      dtype or mode; output overlapping
                                      another operand without being past_cache
   @retval SGK_ERR_SHAPE              axis 0 or out of range; shapes that differ
   @retval SGK_ERR_INDEX_OUT_OF_RANGE a linear write that does not fit
   @retval SGK_ERR_UNSUPPORTED        write_indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      scratch could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On any error nothing is written (the cache, in place, is untouched).
   @par Thread safety
   Safe to call from many threads at once, each with its own output. */
SGK_API sgk_status sgk_tensor_scatter(const sgk_tensor *past_cache, const sgk_tensor *update,
                                      const sgk_tensor *write_indices, int64_t axis,
                                      sgk_tensor_scatter_mode mode, void *output);
/** @brief The mode named "linear" or "circular".
   @retval SGK_OK                   *out set
   @retval SGK_ERR_INVALID_ARGUMENT a NULL argument or an unknown name
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_tensor_scatter_mode_from_name(const char *name,
                                                     sgk_tensor_scatter_mode *out);

/* ---- plan once, execute many ----------------------------------------- */

/** An operator planned for given shapes, type and index values.  The plan
   reads the index values and shapes (data/updates pointers may be NULL at
   plan time) and is immutable afterwards; sgk_execute() may run the same
   plan from several threads at once.  A plan keeps no pointer to the
   caller's buffers: the indices may be freed after planning. */
typedef struct sgk_plan sgk_plan;

/** Plan flags (0: the defaults, SGK_DETERMINISTIC deciding the order). */
enum {
    SGK_PLAN_DETERMINISTIC = 1u << 0,   /**< float add/sub/mul equal the sequential loop */
    SGK_PLAN_ALLOW_REORDER = 1u << 1,   /**< float add/sub/mul may reorder (rounding differs) */
    SGK_PLAN_WIDE_ACCUMULATE = 1u << 2  /**< fp16/bf16: accumulate a duplicate run in float32 */
};

/** @brief Plans sgk_scatter_nd() for these shapes, type and index values;
   data and updates supply their dtype, rank and shape (their data may be
   NULL).  Flags: SGK_PLAN_DETERMINISTIC or SGK_PLAN_ALLOW_REORDER (not
   both), SGK_PLAN_WIDE_ACCUMULATE.
   @retval SGK_OK                     *plan set; free it with sgk_plan_destroy()
   @retval SGK_ERR_INVALID_ARGUMENT   plan, a tensor or a shape NULL; the
                                      indices' buffer NULL; a bad dtype, or reduction;
                                      unknown or contradictory flags
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64; the reduction undefined for the type
   @retval SGK_ERR_OUT_OF_MEMORY      the plan could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On error *plan is left as it was.
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_plan_scatter_nd(sgk_plan **plan, const sgk_tensor *data,
                                       const sgk_tensor *indices, const sgk_tensor *updates,
                                       sgk_reduction reduction, uint32_t flags);
/** @brief Plans sgk_gather_nd() for these shapes, type and index values
   (data's data may be NULL).  Flags: 0.
   @retval SGK_OK                     *plan set; free it with sgk_plan_destroy()
   @retval SGK_ERR_INVALID_ARGUMENT   plan, a tensor or a shape NULL; the
                                      indices' buffer NULL; a bad dtype;
                                      unknown or contradictory flags
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      the plan could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On error *plan is left as it was.
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_plan_gather_nd(sgk_plan **plan, const sgk_tensor *data,
                                      const sgk_tensor *indices, int64_t batch_dims,
                                      uint32_t flags);
/** @brief Plans sgk_scatter_elements() for these shapes, type and index
   values (data's and updates' data may be NULL).  Flags as for
   sgk_plan_scatter_nd().
   @retval SGK_OK                     *plan set; free it with sgk_plan_destroy()
   @retval SGK_ERR_INVALID_ARGUMENT   plan, a tensor or a shape NULL; the
                                      indices' buffer NULL; a bad dtype, or reduction;
                                      unknown or contradictory flags
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64; the reduction undefined for the type
   @retval SGK_ERR_OUT_OF_MEMORY      the plan could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On error *plan is left as it was.
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_plan_scatter_elements(sgk_plan **plan, const sgk_tensor *data,
                                             const sgk_tensor *indices,
                                             const sgk_tensor *updates, int64_t axis,
                                             sgk_reduction reduction, uint32_t flags);
/** @brief Plans sgk_gather_elements() for these shapes, type and index
   values (data's data may be NULL).  Flags: 0.
   @retval SGK_OK                     *plan set; free it with sgk_plan_destroy()
   @retval SGK_ERR_INVALID_ARGUMENT   plan, a tensor or a shape NULL; the
                                      indices' buffer NULL; a bad dtype;
                                      unknown or contradictory flags
   @retval SGK_ERR_SHAPE              the operator's shape rules broken
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      the plan could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On error *plan is left as it was.
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_plan_gather_elements(sgk_plan **plan, const sgk_tensor *data,
                                            const sgk_tensor *indices, int64_t axis,
                                            uint32_t flags);
/** @brief Plans sgk_gather() for these shapes, type and index values
   (data's data may be NULL).  Flags: 0.
   @retval SGK_OK                     *plan set; free it with sgk_plan_destroy()
   @retval SGK_ERR_INVALID_ARGUMENT   plan, a tensor or a shape NULL; the
                                      indices' buffer NULL; a bad dtype;
                                      unknown or contradictory flags
   @retval SGK_ERR_SHAPE              axis out of range, or rank 0 data
   @retval SGK_ERR_INDEX_OUT_OF_RANGE an index outside [-s, s-1]
   @retval SGK_ERR_UNSUPPORTED        indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      the plan could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On error *plan is left as it was.
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_plan_gather(sgk_plan **plan, const sgk_tensor *data,
                                   const sgk_tensor *indices, int64_t axis, uint32_t flags);
/** @brief Plans sgk_tensor_scatter() for these shapes, type and write
   indices (the cache's and update's data may be NULL); executed as
   sgk_execute(plan, past_cache, update, output).  Flags: 0.
   @retval SGK_OK                     *plan set; free it with sgk_plan_destroy()
   @retval SGK_ERR_INVALID_ARGUMENT   plan, a tensor or a shape NULL; a bad
                                      dtype or mode; unknown or contradictory flags
   @retval SGK_ERR_SHAPE              axis 0 or out of range; shapes that differ
   @retval SGK_ERR_INDEX_OUT_OF_RANGE a linear write that does not fit
   @retval SGK_ERR_UNSUPPORTED        write_indices neither int32 nor int64
   @retval SGK_ERR_OUT_OF_MEMORY      the plan could not be allocated
   @retval SGK_ERR_OVERFLOW           a size product overflows 64 bits
   On error *plan is left as it was.
   @par Thread safety
   Safe to call from many threads at once. */
SGK_API sgk_status sgk_plan_tensor_scatter(sgk_plan **plan, const sgk_tensor *past_cache,
                                           const sgk_tensor *update,
                                           const sgk_tensor *write_indices, int64_t axis,
                                           sgk_tensor_scatter_mode mode, uint32_t flags);
/** @brief Runs a plan on buffers of the planned shapes and type.
   @param plan    a plan from one of the sgk_plan_* functions
   @param data    the input, of the planned shape
   @param updates the updates of a scatter (NULL for gathers)
   @param output  the planned output shape; may equal data for a scatter
                  (in place); no other buffer may overlap it
   @retval SGK_OK                   output written
   @retval SGK_ERR_INVALID_ARGUMENT plan NULL; a needed buffer NULL; output
                                    overlapping another buffer
   @retval SGK_ERR_OUT_OF_MEMORY    the path's scratch could not be allocated
   On any error nothing is written.
   @par Thread safety
   The same plan may be executed from many threads at once, each with its
   own output. */
SGK_API sgk_status sgk_execute(const sgk_plan *plan, const void *data,
                               const void *updates, void *output);
/** @brief The plan's chosen path, threads and SIMD target, in one line.
   @return text owned by the plan, valid until sgk_plan_destroy(); NULL
           for a NULL plan
   @par Thread safety
   Safe from many threads at once. */
SGK_API const char *sgk_plan_describe(const sgk_plan *plan);
/** @brief The name of the plan's execution path, e.g. "owner-blocks": one
   of the names SGK_PATH takes (docs/architecture.md lists the paths).
   @return a static string; NULL for a NULL plan
   @par Thread safety
   Safe from many threads at once. */
SGK_API const char *sgk_plan_path(const sgk_plan *plan);
/** @brief The name of the path this thread's last one-shot call chose, as
   sgk_plan_path() names it, or "tiny" for a call the tiny-call lane
   served (docs/architecture.md: no plan made).  A call that fails its argument or shape
   checks chooses none and leaves the answer as it was; a call that fails
   on an index has chosen one.
   @return a static string; NULL before this thread's first one-shot call
   @par Thread safety
   Per thread: other threads' calls do not change it. */
SGK_API const char *sgk_last_path(void);
/** @brief Frees a plan; NULL is a no-op.
   @par Thread safety
   No sgk_execute() of this plan may be running or start after it. */
SGK_API void sgk_plan_destroy(sgk_plan *plan);

/* ---- errors, names, runtime ------------------------------------------ */

/** @brief The enumerator's name, e.g. "SGK_ERR_SHAPE";
   "SGK_ERR_UNKNOWN_STATUS" for a value outside the enum.
   @return a static string.  Safe from many threads at once. */
SGK_API const char *sgk_status_name(sgk_status status);
/** @brief This thread's detail of its last failure, naming the operator,
   the offending position and value, e.g. `scatter_nd: indices[3] = [5, -9]
   out of range for data shape [4, 8]`; "" if none yet.
   @return thread-local text, valid until this thread's next failing call.
   @par Thread safety
   Each thread sees its own failures only. */
SGK_API const char *sgk_last_error(void);
/** @brief Bytes per element: sizeof(const char *) for SGK_STRING, 0 for
   a value outside the enum.  Safe from many threads at once. */
SGK_API size_t sgk_dtype_size(sgk_dtype dtype);
/** @brief The reduction named `none`, `add`, `sum`, `sub`, `mul`, `prod`,
   `max` or `min`.
   @retval SGK_OK                   *out set
   @retval SGK_ERR_INVALID_ARGUMENT name or out NULL, or an unknown name
   @par Thread safety
   Safe from many threads at once. */
SGK_API sgk_status sgk_reduction_from_name(const char *name, sgk_reduction *out);
/** @brief The library's version, e.g. "0.1.0" (a static string). */
SGK_API const char *sgk_version(void);

/* ---- the registry: what the library knows, for bindings -------------- */

/** The major version of this header; sgk_check_version() compares it
    with the library loaded (a test keeps it equal to sgk_version()). */
#define SGK_VERSION_MAJOR 0
/** The minor version of this header, compared the same way. */
#define SGK_VERSION_MINOR 1
/** @brief Whether the library loaded serves a binding built against
   headers of version major.minor: the same major version, and a minor
   version at least as new.  Bindings call it once as they load.
   @retval SGK_OK             compatible
   @retval SGK_ERR_UNSUPPORTED not; sgk_last_error() names both versions */
SGK_API sgk_status sgk_check_version(int major, int minor);

/** Kinds of element, for sgk_dtype_flags(). */
enum {
    SGK_DTYPE_BOOLEAN = 1u << 0, /**< bool */
    SGK_DTYPE_INTEGER = 1u << 1, /**< two's complement integers */
    SGK_DTYPE_SIGNED = 1u << 2,  /**< with SGK_DTYPE_INTEGER: signed */
    SGK_DTYPE_FLOAT = 1u << 3,   /**< IEEE binary floating point, bfloat16 included */
    SGK_DTYPE_COMPLEX = 1u << 4, /**< pairs of floats */
    SGK_DTYPE_POINTER = 1u << 5  /**< strings: pointers, copied, never read */
};
/** @brief How many dtypes there are: the codes are 0 to the count - 1.
   Safe from many threads at once, as is every query of this section. */
SGK_API int sgk_dtype_count(void);
/** @brief The dtype's name, e.g. "bfloat16" (a static string); "invalid"
   for a value outside the enum. */
SGK_API const char *sgk_dtype_name(sgk_dtype dtype);
/** @brief The dtype named `name`, as sgk_dtype_name() spells it.
   @retval SGK_OK                   *out set
   @retval SGK_ERR_INVALID_ARGUMENT name or out NULL, or an unknown name */
SGK_API sgk_status sgk_dtype_from_name(const char *name, sgk_dtype *out);
/** @brief The dtype's SGK_DTYPE_* bits; 0 for a value outside the enum. */
SGK_API uint32_t sgk_dtype_flags(sgk_dtype dtype);
/** @brief How many reductions there are: the codes are 0 to the count - 1. */
SGK_API int sgk_reduction_count(void);
/** @brief The reduction's name, e.g. "add" (a static string); "invalid"
   for a value outside the enum.  sgk_reduction_from_name() also takes
   OpenVINO's names ("sum", "prod"). */
SGK_API const char *sgk_reduction_name(sgk_reduction reduction);
/** What a (dtype, reduction) cell is, for sgk_reduction_flags(). */
enum {
    SGK_CELL_SUPPORTED = 1u << 0, /**< defined: the operators accept it */
    SGK_CELL_ORDER_FREE = 1u << 1 /**< its result cannot depend on the updates' order */
};
/** @brief The cell's SGK_CELL_* bits; 0 for values outside the enums. */
SGK_API uint32_t sgk_reduction_flags(sgk_dtype dtype, sgk_reduction reduction);
/** @brief How many statuses there are: the codes are 0 to the count - 1. */
SGK_API int sgk_status_count(void);
/** @brief One paragraph on the runtime: SIMD target, threads, topology
   (hwloc), the parallel backend, environment overrides and any bad value
   ignored.
   @return text in thread-local storage, valid until this thread calls it
           again.  Safe from many threads at once. */
SGK_API const char *sgk_runtime_describe(void);
/** @brief The SIMD targets this build compiled and this CPU runs, best
   first, space-separated, e.g. "avx3_dl avx3 avx2 sse4 ssse3 scalar":
   the values SGK_SIMD takes besides "auto" ("scalar" is Highway's
   portable fallback).  The kernels run on the best one unless SGK_SIMD
   names another.
   @return a static string.  Safe from many threads at once. */
SGK_API const char *sgk_simd_targets(void);
/** @brief Worker threads for later plans and one-shot calls (overrides
   SGK_NUM_THREADS); 0 restores the default.
   @retval SGK_OK                   set
   @retval SGK_ERR_INVALID_ARGUMENT n negative or above sgk's limit
   @par Thread safety
   Safe to call while other threads run sgk; calls already running keep
   their thread count. */
SGK_API sgk_status sgk_set_num_threads(int n);

/* ---- the host's thread pool ------------------------------------------ */

/** One task of a parallel loop: sgk's work item i. */
typedef void (*sgk_task_fn)(void *task_ctx, size_t i);

/** A host's parallel-for, for servers that own a thread pool (as XNNPACK
   takes a pthreadpool_t and oneDNN a threadpool): with one set, sgk runs
   its parallel loops on the host's workers and starts no OpenMP threads. */
typedef struct {
    /** Runs task(task_ctx, i) once for every i in [0, n), on any of the
       pool's threads (the calling thread included), any number at once,
       and returns when all have returned.  sgk calls it with n no larger
       than its thread count. */
    void (*parallel_for)(void *pool, size_t n, sgk_task_fn task, void *task_ctx);
    /** The host's pool, passed back to parallel_for and in_worker. */
    void *pool;
    /** Tasks the pool runs at once: the default thread count of later
       plans and calls (sgk_set_num_threads and SGK_NUM_THREADS still
       override it); 0 keeps sgk's default. */
    int workers;
    /** Optional: nonzero when the calling thread is one of the pool's
       workers.  sgk then runs that call's loops on the calling thread
       alone, as it does inside an OpenMP parallel region, so that a pool
       that cannot be entered from its own workers never waits on itself.
       NULL for pools that nest (oneTBB). */
    int (*in_worker)(void *pool);
} sgk_parallel_backend;

/** @brief Installs the host's parallel-for (copied), or with NULL restores
   OpenMP (in a library built with configure --without-openmp, the calling
   thread alone).  Takes effect for every later parallel loop, plans made
   before included.  After fork(), a child runs serially until it installs
   a backend of its own: OpenMP's workers, and the host's, belong to the
   parent.
   @retval SGK_OK                   installed
   @retval SGK_ERR_INVALID_ARGUMENT parallel_for NULL, or workers negative
   @par Thread safety
   Safe to call while other threads run sgk, but a loop that started
   before it returns may still run on the old pool: keep that pool alive
   until the calls in flight have returned. */
SGK_API sgk_status sgk_set_parallel_backend(const sgk_parallel_backend *backend);

#ifdef __cplusplus
}
#endif

#endif /* SGK_H */
