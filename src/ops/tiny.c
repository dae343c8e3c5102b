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

/* Calls of at most this many bytes of traffic, and at most this many
   pairs, whose slots live on the stack.  The lane bounds what a call
   moves, not how large its operands are: a gather reads only the rows it
   gathers, and an in-place scatter touches only the rows it writes, so an
   embedding table or a KV cache of any size takes the lane when one
   decode step's rows do. */
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
   1, a buffer, at most INT64_MAX and SIZE_MAX bytes (so that neither a
   product of its dimensions nor its byte size overflows); else 0.
   Such a tensor passes sgk_check_tensor. */
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
    int64_t n = 1, bytes;
    for (int d = 0; d < rank; d++)
        if (shape[d] < 1 || __builtin_mul_overflow(n, shape[d], &n))
            return 0;
    if (__builtin_mul_overflow(n, (int64_t)size, &bytes) || (uint64_t)bytes > SIZE_MAX)
        return 0;
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

/* Whether a scatter's traffic is below the lane's limit: the updates and
   the index read, the rows they land on (as many bytes as the updates:
   read and written), and unless in place the data copied to the output.
   Each size is compared with the limit alone first, so that their sum
   cannot overflow. */
static inline __attribute__((always_inline)) bool
scatter_traffic_fits(int64_t data_bytes, int64_t upd_bytes, int64_t index_bytes, bool in_place)
{
    const int64_t limit = lane_limit();
    if (upd_bytes >= limit || index_bytes >= limit || (!in_place && data_bytes >= limit))
        return false;
    return (in_place ? 2 * upd_bytes : 2 * data_bytes + upd_bytes) + index_bytes < limit;
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
    if (!scatter_traffic_fits(data_bytes, upd_bytes, index_bytes, output == data->data) ||
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

/* TensorScatter: row (b, p) of the update, s slices of slice_len
   elements, lands from position first[b] of the cache's row (b, p) of
   max_len positions, wrapping in circular mode.  Rows never collide
   (s <= max_len), so they are moves, in whole runs. */
static inline __attribute__((always_inline))
bool serve_tensor_scatter(const sgk_tensor *cache, const sgk_tensor *update,
                          const sgk_tensor *write_indices, int64_t axis,
                          sgk_tensor_scatter_mode mode, void *output)
{
    size_t es = 0, ues = 0, wes = 0;
    const int64_t cn = tiny_elems(cache, &es), un = tiny_elems(update, &ues);
    if (cn == 0 || un == 0 || output == NULL || update->dtype != cache->dtype ||
        (mode != SGK_TENSOR_SCATTER_LINEAR && mode != SGK_TENSOR_SCATTER_CIRCULAR))
        return false;
    const int r = cache->rank;
    if (r < 2 || update->rank != r || axis < -r || axis >= r)
        return false;
    const int a = (int)(axis < 0 ? axis + r : axis);
    if (a == 0)
        return false;
    for (int d = 0; d < r; d++)
        if (d == a ? update->shape[d] > cache->shape[d] : update->shape[d] != cache->shape[d])
            return false;
    const int64_t batches = cache->shape[0];
    int64_t written = 0;
    if (write_indices != NULL) {
        written = tiny_index_elems(write_indices, &wes);
        if (written == 0 || write_indices->rank != 1 || written != batches)
            return false;
    }
    const int64_t cache_bytes = cn * (int64_t)es, upd_bytes = un * (int64_t)es;
    const int64_t index_bytes = written * (int64_t)wes;
    const bool in_place = output == cache->data;
    if (batches > TINY_MAX_PAIRS ||
        !scatter_traffic_fits(cache_bytes, upd_bytes, index_bytes, in_place) ||
        sgk_overlaps(update->data, upd_bytes, output, cache_bytes) ||
        (written > 0 && sgk_overlaps(write_indices->data, index_bytes, output, cache_bytes)) ||
        (!in_place && sgk_overlaps(cache->data, cache_bytes, output, cache_bytes)))
        return false;
    /* each batch's first position, all checked before the first write:
       linear, [0, max_len - s]; circular, the write index modulo max_len,
       floored */
    const int64_t max_len = cache->shape[a], s = update->shape[a];
    const int64_t *w64 = written > 0 ? write_indices->data : NULL;
    const int32_t *w32 = written > 0 ? write_indices->data : NULL;
    const bool wide = written > 0 && write_indices->dtype == SGK_INT64;
    int64_t first[TINY_MAX_PAIRS];
    for (int64_t b = 0; b < batches; b++) {
        const int64_t w = written == 0 ? 0 : wide ? w64[b] : w32[b];
        if (mode == SGK_TENSOR_SCATTER_LINEAR) {
            if (w < 0 || w > max_len - s)
                return false;
            first[b] = w;
        } else {
            const int64_t m = w % max_len;
            first[b] = m < 0 ? m + max_len : m;
        }
    }
    if (!in_place)
        memcpy(output, cache->data, (size_t)cache_bytes);
    const int64_t rows = shape_product(cache->shape, 1, a);
    const size_t slice = (size_t)shape_product(cache->shape, a + 1, r) * es;
    const uint8_t *from = update->data;
    for (int64_t b = 0; b < batches; b++) {
        /* the run up to the row's end, then (circular) the rest from its start */
        const int64_t head = s < max_len - first[b] ? s : max_len - first[b];
        for (int64_t p = 0; p < rows; p++, from += (size_t)s * slice) {
            uint8_t *row = (uint8_t *)output + (size_t)((b * rows + p) * max_len) * slice;
            memcpy(row + (size_t)first[b] * slice, from, (size_t)head * slice);
            if (head < s)
                memcpy(row, from + (size_t)head * slice, (size_t)(s - head) * slice);
        }
    }
    sgk_note_last_path("tiny");
    return true;
}

/* What every gather checks: count slices of slice_len elements (count at
   most TINY_MAX_GATHERED) and the index read within the lane, the output
   apart from data and indices. */
static inline __attribute__((always_inline))
bool gather_operands(const sgk_tensor *data, const sgk_tensor *indices, void *output,
                     int64_t count, int64_t slice_len, size_t es, int64_t data_elems,
                     int64_t index_bytes)
{
    const int64_t limit = lane_limit();
    if (slice_len >= limit || index_bytes >= limit)
        return false;
    /* at most 4096 * 65536 * 16 bytes: no overflow */
    const int64_t data_bytes = data_elems * (int64_t)es;
    const int64_t out_bytes = count * slice_len * (int64_t)es;
    return 2 * out_bytes + index_bytes < limit &&
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
        !gather_operands(data, indices, output, count, slice_len, es, dn, in * (int64_t)ies))
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

/* Gather: data [A, N, I] (A the dimensions before the axis, I those after
   it) by Q indices into [A, Q, I]; the A batches share the Q slots.  A
   scalar index (an LLM's last position, x[:, -1]) is one index of rank 0. */
static inline __attribute__((always_inline))
bool serve_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis, void *output)
{
    size_t es = 0, ies = 0;
    const bool scalar = indices != NULL && indices->rank == 0 && indices->data != NULL &&
                        (indices->dtype == SGK_INT32 || indices->dtype == SGK_INT64);
    if (scalar)
        ies = sgk_elem_size(indices->dtype);
    const int64_t dn = tiny_elems(data, &es);
    const int64_t in = scalar ? 1 : tiny_index_elems(indices, &ies);
    if (dn == 0 || in == 0 || output == NULL || in > TINY_MAX_GATHERED)
        return false;
    const int r = data->rank;
    if (axis < -r || axis >= r)
        return false;
    const int a = (int)(axis < 0 ? axis + r : axis);
    const int64_t outer = shape_product(data->shape, 0, a), along = data->shape[a];
    const int64_t inner = shape_product(data->shape, a + 1, r);
    /* outer <= 4096 first: the product is then at most 4096 * 4096 */
    if (outer > TINY_MAX_GATHERED || outer * in > TINY_MAX_GATHERED ||
        !gather_operands(data, indices, output, outer * in, inner, es, dn, in * (int64_t)ies))
        return false;
    int64_t on_stack[TINY_MAX_PAIRS];
    const int64_t *slot = indices->data;
    if (indices->dtype != SGK_INT64 || !all_in_range(indices->data, in, along)) {
        int64_t *kept = gather_slots(in, on_stack);
        if (kept == NULL || !tuple_slots(indices, 1, in, 1, &along, 0, kept))
            return false;
        slot = kept;
    }
    const size_t row = (size_t)inner * es;
    for (int64_t o = 0; o < outer; o++)
        gather_slices((uint8_t *)output + (size_t)(o * in) * row,
                      (const uint8_t *)data->data + (size_t)(o * along) * row, slot, in, row);
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
        !gather_operands(data, indices, output, count, 1, es, dn, count * (int64_t)ies))
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

sgk_status sgk_tiny_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                           void *output, sgk_gather_fn full)
{
    return serve_gather(data, indices, axis, output) ? SGK_OK : full(data, indices, axis, output);
}

sgk_status sgk_tiny_tensor_scatter(const sgk_tensor *past_cache, const sgk_tensor *update,
                                   const sgk_tensor *write_indices, int64_t axis,
                                   sgk_tensor_scatter_mode mode, void *output,
                                   sgk_tensor_scatter_fn full)
{
    return serve_tensor_scatter(past_cache, update, write_indices, axis, mode, output)
               ? SGK_OK
               : full(past_cache, update, write_indices, axis, mode, output);
}
