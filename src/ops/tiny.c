/* The tiny-call lane: below a few KiB, describing the problem, planning it
   and running the plan cost a one-shot call several times its data
   movement (callgrind, bench/tiny-callgrind: about 2,000 instructions for
   a GatherND of 8 rows that a C loop does in 150).  Here a call is checked
   and run on the spot: the slots of its pairs worked out on the stack,
   every index checked before the first write, then the output written by
   plain loops, the reductions by reduce.c's kernels (the reference
   arithmetic), all on the calling thread.

   The lane accepts a call only when it can see that the call is valid:
   every check of the operator's front end has its twin here, as a test
   that lets the call in, and whatever fails one (a bad argument, shape or
   index; an empty or large tensor; buffers that overlap) leaves the lane
   with nothing written.  The lane then hands the call to the front end's
   full path, which finds the same fault and reports it with its usual
   status and message.
   So the lane needs no messages of its own, and cannot differ from the
   full path on an error. */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "registry/registry.h"
#include "kernels/reduce.h"
#include "ops/tiny.h"
#include "ops/tiny_loops.h"
#include "problem/index_math.h"
#include "problem/plan.h"
#include "runtime/memory.h"
#include "runtime/runtime_config.h"

/* Operands of at most this many elements each (their counts cannot
   overflow while multiplied out), calls of at most this many bytes of
   traffic, and at most this many pairs, whose slots live on the stack. */
#define TINY_MAX_ELEMS 16384
#define TINY_MAX_BYTES 65536
#define TINY_MAX_PAIRS 256

/* Gathers keep no pair beside another, so they may have more pairs: their
   slots beyond the stack's go in the thread's scratch (a DETR box gather
   of 400 elements cost 23k instructions on the full path). */
#define TINY_MAX_GATHERED 4096

/* The traffic below which the lane takes calls, or 0 when it is closed: a
   forced path (SGK_PATH, SGK_REDUCE_PATH) must run as forced, SGK_VERBOSE
   logs every call's plan, and a call must stay below
   SGK_PARALLEL_MIN_BYTES, so that a configuration sending small problems
   to the parallel paths (tests/matrix.sh sets it to 0) still does.  The
   configuration never changes once read: its answer is kept, -1 until
   then. */
static _Atomic int64_t lane_bytes = -1;

static inline __attribute__((always_inline)) int64_t lane_limit(void)
{
    int64_t limit = atomic_load_explicit(&lane_bytes, memory_order_relaxed);
    if (limit < 0) {
        const sgk_config *c = sgk_config_get();
        limit = c->forced_path != NULL || c->verbose ? 0
                : c->parallel_min_bytes < TINY_MAX_BYTES ? c->parallel_min_bytes
                                                         : TINY_MAX_BYTES;
        atomic_store_explicit(&lane_bytes, limit, memory_order_relaxed);
    }
    return limit;
}

/* The elements of t, when t is a tensor the lane takes: of a valid type
   (*es its element size), rank 1 to SGK_MAX_RANK, every dimension at least
   1, a buffer, at most TINY_MAX_ELEMS elements; else 0.  Such a tensor
   passes sgk_check_tensor. */
static inline __attribute__((always_inline)) int64_t tiny_elems(const sgk_tensor *t,
                                                                size_t *es)
{
    if (t == NULL)
        return 0;
    const int rank = t->rank;
    const int64_t *shape = t->shape;
    const size_t size = sgk_elem_size(t->dtype);
    if ((unsigned)rank - 1 >= SGK_MAX_RANK || shape == NULL || t->data == NULL || size == 0)
        return 0;
    int64_t n = 1;
    for (int d = 0; d < rank; d++) {
        const int64_t s = shape[d];
        /* s in [1, TINY_MAX_ELEMS]: the product cannot overflow */
        if ((uint64_t)s - 1 >= TINY_MAX_ELEMS)
            return 0;
        n *= s;
        if (n > TINY_MAX_ELEMS)
            return 0;
    }
    *es = size;
    return n;
}

/* The same for indices, which are int32 or int64. */
static inline __attribute__((always_inline)) int64_t tiny_index_elems(const sgk_tensor *t,
                                                                      size_t *es)
{
    if (t == NULL || (t->dtype != SGK_INT32 && t->dtype != SGK_INT64))
        return 0;
    return tiny_elems(t, es);
}

static inline int64_t shape_product(const int64_t *shape, int from, int to)
{
    int64_t product = 1;
    for (int d = from; d < to; d++)
        product *= shape[d];
    return product;
}

/* ---- the operators ------------------------------------------------------------ */

/* What every scatter checks: data and updates of one type, a reduction
   defined for it (*apply its kernel, NULL for NONE), sizes within the
   lane; the output, the updates and the indices apart (the output may be
   the data).  *count_out: the indices' elements. */
static bool scatter_operands(const sgk_tensor *data, const sgk_tensor *indices,
                             const sgk_tensor *updates, sgk_reduction reduction, void *output,
                             int64_t *data_elems, int64_t *index_elems, size_t *es,
                             sgk_apply_fn *apply)
{
    const int64_t limit = lane_limit();
    size_t ies = 0, ues = 0;
    const int64_t dn = tiny_elems(data, es), in = tiny_index_elems(indices, &ies);
    const int64_t un = tiny_elems(updates, &ues);
    if (dn == 0 || in == 0 || un == 0 || output == NULL || updates->dtype != data->dtype)
        return false;
    /* every type has NONE, a move */
    *apply = NULL;
    if (reduction != SGK_REDUCE_NONE &&
        ((unsigned)reduction >= SGK_REDUCTION_COUNT ||
         sgk_apply_kernel(data->dtype, reduction, apply) != SGK_OK))
        return false;
    const int64_t data_bytes = dn * (int64_t)*es, upd_bytes = un * (int64_t)*es;
    const int64_t index_bytes = in * (int64_t)ies;
    if ((output != data->data ? 2 : 1) * data_bytes + upd_bytes + index_bytes >= limit ||
        sgk_overlaps(updates->data, upd_bytes, output, data_bytes) ||
        sgk_overlaps(indices->data, index_bytes, output, data_bytes) ||
        (output != data->data && sgk_overlaps(data->data, data_bytes, output, data_bytes)))
        return false;
    *data_elems = dn;
    *index_elems = in;
    return true;
}

/* The output copied from data unless in place, then the pairs applied in
   order. */
static void scatter(const sgk_tensor *data, const sgk_tensor *updates, sgk_apply_fn apply,
                    const int64_t *slot, int64_t count, int64_t slice_len, size_t es,
                    int64_t data_elems, void *output)
{
    if (output != data->data)
        memcpy(output, data->data, (size_t)data_elems * es);
    if (apply == NULL)
        scatter_slices(output, updates->data, slot, count, (size_t)slice_len * es);
    else
        apply(output, slot, updates->data, NULL, 0, count, slice_len, slice_len);
    sgk_note_last_path("tiny");
}

static inline __attribute__((always_inline))
bool serve_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                      const sgk_tensor *updates, sgk_reduction reduction, void *output)
{
    int64_t data_elems, index_elems;
    size_t es = 0;
    sgk_apply_fn apply;
    if (!scatter_operands(data, indices, updates, reduction, output, &data_elems, &index_elems,
                          &es, &apply))
        return false;
    const int r = data->rank, q = indices->rank;
    const int64_t k = indices->shape[q - 1];
    /* updates.shape == indices.shape[:-1] ++ data.shape[k:] (the lane
       leaves OpenVINO's [1] for a scalar to the full path) */
    if (k > r || updates->rank != q - 1 + r - k)
        return false;
    for (int d = 0; d < q - 1; d++)
        if (updates->shape[d] != indices->shape[d])
            return false;
    for (int d = (int)k; d < r; d++)
        if (updates->shape[q - 1 + d - k] != data->shape[d])
            return false;
    const int64_t count = index_elems / k;
    if (count > TINY_MAX_PAIRS)
        return false;
    int64_t kept[TINY_MAX_PAIRS];
    const int64_t *slot = kept;
    if (k == 1 && indices->dtype == SGK_INT64 && all_in_range(indices->data, count, data->shape[0]))
        slot = indices->data;
    else if (!tuple_slots(indices, 1, count, (int)k, data->shape, 0, kept))
        return false;
    scatter(data, updates, apply, slot, count, shape_product(data->shape, (int)k, r), es,
            data_elems, output);
    return true;
}

static inline __attribute__((always_inline))
bool serve_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                            const sgk_tensor *updates, int64_t axis, sgk_reduction reduction,
                            void *output)
{
    int64_t data_elems, count;
    size_t es = 0;
    sgk_apply_fn apply;
    if (!scatter_operands(data, indices, updates, reduction, output, &data_elems, &count, &es,
                          &apply) ||
        count > TINY_MAX_PAIRS || updates->rank != indices->rank)
        return false;
    for (int d = 0; d < indices->rank; d++)
        if (updates->shape[d] != indices->shape[d])
            return false;
    element_layout layout;
    int64_t slot[TINY_MAX_PAIRS];
    if (!element_layout_of(data, indices, axis, &layout) ||
        !element_slots(indices, &layout, count, slot))
        return false;
    scatter(data, updates, apply, slot, count, 1, es, data_elems, output);
    return true;
}

/* What every gather checks: sizes within the lane, the output apart from
   data and indices. */
static inline __attribute__((always_inline))
bool gather_operands(const sgk_tensor *data, const sgk_tensor *indices, void *output,
                     int64_t output_elems, size_t es, int64_t data_elems, int64_t index_bytes)
{
    const int64_t data_bytes = data_elems * (int64_t)es, out_bytes = output_elems * (int64_t)es;
    return 2 * out_bytes + index_bytes < lane_limit() &&
           !sgk_overlaps(data->data, data_bytes, output, out_bytes) &&
           !sgk_overlaps(indices->data, index_bytes, output, out_bytes);
}

/* Room for a gather's count slots: on_stack, or the thread's scratch;
   NULL when that cannot be had. */
static inline int64_t *gather_slots(int64_t count, int64_t *on_stack)
{
    return count <= TINY_MAX_PAIRS ? on_stack
                                   : sgk_thread_scratch((size_t)count * sizeof *on_stack);
}

static inline __attribute__((always_inline))
bool serve_gather_nd(const sgk_tensor *data, const sgk_tensor *indices, int64_t batch_dims,
                     void *output)
{
    size_t es = 0, ies = 0;
    const int64_t dn = tiny_elems(data, &es), in = tiny_index_elems(indices, &ies);
    if (dn == 0 || in == 0 || output == NULL)
        return false;
    const int r = data->rank, q = indices->rank;
    const int64_t k = indices->shape[q - 1];
    if (batch_dims < 0 || batch_dims >= (q < r ? q : r) || k > r - batch_dims)
        return false;
    /* data dims [0, b) are batches (as long in indices), [b, e) indexed,
       [e, r) the slice */
    const int b = (int)batch_dims, e = b + (int)k;
    int64_t batches = 1, per_batch = 1, slice_len = 1;
    for (int d = 0; d < r; d++) {
        const int64_t s = data->shape[d];
        if (d >= e)
            slice_len *= s;
        else if (d >= b)
            per_batch *= s;
        else if (indices->shape[d] != s)
            return false;
        else
            batches *= s;
    }
    const int64_t count = in / k;
    if (count > TINY_MAX_GATHERED ||
        !gather_operands(data, indices, output, count * slice_len, es, dn, in * (int64_t)ies))
        return false;
    int64_t on_stack[TINY_MAX_PAIRS];
    const int64_t *slot = indices->data;
    if (k != 1 || b != 0 || indices->dtype != SGK_INT64 ||
        !all_in_range(indices->data, count, data->shape[0])) {
        int64_t *kept = gather_slots(count, on_stack);
        if (kept == NULL || !tuple_slots(indices, batches, count / batches, (int)k,
                                         data->shape + b, per_batch, kept))
            return false;
        slot = kept;
    }
    gather_slices(output, data->data, slot, count, (size_t)slice_len * es);
    sgk_note_last_path("tiny");
    return true;
}

static inline __attribute__((always_inline))
bool serve_gather_elements(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                           void *output)
{
    size_t es = 0, ies = 0;
    const int64_t dn = tiny_elems(data, &es), count = tiny_index_elems(indices, &ies);
    if (dn == 0 || count == 0 || output == NULL || count > TINY_MAX_GATHERED ||
        !gather_operands(data, indices, output, count, es, dn, count * (int64_t)ies))
        return false;
    element_layout layout;
    if (!element_layout_of(data, indices, axis, &layout))
        return false;
    if (!element_gather(output, data->data, indices, &layout, count, es)) {
        int64_t on_stack[TINY_MAX_PAIRS];
        int64_t *slot = gather_slots(count, on_stack);
        if (slot == NULL || !element_slots(indices, &layout, count, slot))
            return false;
        gather_slices(output, data->data, slot, count, es);
    }
    sgk_note_last_path("tiny");
    return true;
}

/* ---- the entry points --------------------------------------------------------- */

/* A call the lane does not serve goes to `full` as a tail call, with its
   arguments untouched: the served call then pays for no frame that would
   keep them for the full path (about 20 instructions of a tiny call's
   400, bench/tiny-callgrind). */

sgk_status sgk_tiny_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                               const sgk_tensor *updates, sgk_reduction reduction, void *output,
                               sgk_scatter_nd_fn full)
{
    return serve_scatter_nd(data, indices, updates, reduction, output)
               ? SGK_OK
               : full(data, indices, updates, reduction, output);
}

sgk_status sgk_tiny_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                     const sgk_tensor *updates, int64_t axis,
                                     sgk_reduction reduction, void *output,
                                     sgk_scatter_elements_fn full)
{
    return serve_scatter_elements(data, indices, updates, axis, reduction, output)
               ? SGK_OK
               : full(data, indices, updates, axis, reduction, output);
}

sgk_status sgk_tiny_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                              int64_t batch_dims, void *output, sgk_gather_nd_fn full)
{
    return serve_gather_nd(data, indices, batch_dims, output)
               ? SGK_OK
               : full(data, indices, batch_dims, output);
}

sgk_status sgk_tiny_gather_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                    int64_t axis, void *output, sgk_gather_elements_fn full)
{
    return serve_gather_elements(data, indices, axis, output) ? SGK_OK
                                                             : full(data, indices, axis, output);
}
