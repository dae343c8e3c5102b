/* The tiny-call lane's loops (included by tiny.c alone): the slots of a
   call's pairs worked out on the stack, every index checked before the
   first write, and the moves of its slices. */
#ifndef SGK_TINY_LOOPS_H
#define SGK_TINY_LOOPS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sgk.h"
#include "problem/index_math.h"

/* The lane's loops are a few iterations long: unrolled, their control
   costs a fraction of an instruction a pair. */
#define UNROLLED _Pragma("GCC unroll 4")

/* ---- slots ------------------------------------------------------------------ */

/* Whether every idx[0..n) lies in [0, dim): then the values are their
   own slots.  One unsigned comparison an index, without a branch (a
   negative value, sign-extended, is a huge unsigned one), the verdicts
   ORed: a chain of one cycle an index, where a running maximum's compare
   and move take two (DETR's 1600-index GatherElements).  Indices that fail
   it, negative ones among them, take the checked mapping below. */
#define ALL_IN_RANGE(NAME, T)                                                          \
    static inline __attribute__((always_inline)) bool NAME(const T *idx, int64_t n,    \
                                                           int64_t dim)                \
    {                                                                                  \
        bool out = false;                                                              \
        UNROLLED                                                                       \
        for (int64_t i = 0; i < n; i++)                                                \
            out |= (uint64_t)(int64_t)idx[i] >= (uint64_t)dim;                         \
        return !out;                                                                   \
    }

ALL_IN_RANGE(all_in_range, int64_t)
ALL_IN_RANGE(all_in_range_i32, int32_t)

/* Tuples of k coordinates, in `batches` batches of `rows` each: pair n's
   slot is its batch's first slot plus the tuple flattened over dims[0..k).
   False when a coordinate lies outside [-dim, dim): its wrapped value is
   then at least dim as an unsigned number (index_math.h), and the slots,
   computed in unsigned arithmetic, are left unused.  One coordinate in one
   batch, the common case, has a loop of its own. */
#define TUPLE_SLOTS(NAME, T)                                                          \
    static inline __attribute__((always_inline)) bool NAME(                            \
        const T *idx, int64_t batches, int64_t rows, int k,                            \
        const int64_t *dims, int64_t per_batch, int64_t *slot)                         \
    {                                                                                  \
        bool bad = false;                                                              \
        if (k == 1 && batches == 1) {                                                  \
            const int64_t dim = dims[0];                                               \
            UNROLLED                                                                   \
            for (int64_t n = 0; n < rows; n++) {                                       \
                const int64_t w = sgk_wrap_index(idx[n], dim);                         \
                bad |= (uint64_t)w >= (uint64_t)dim;                                   \
                slot[n] = w;                                                           \
            }                                                                          \
            return !bad;                                                               \
        }                                                                              \
        for (int64_t b = 0, n = 0; b < batches; b++)                                   \
            for (int64_t i = 0; i < rows; i++, n++) {                                  \
                uint64_t flat = 0;                                                     \
                for (int j = 0; j < k; j++) {                                          \
                    const int64_t w = sgk_wrap_index(idx[n * k + j], dims[j]);         \
                    bad |= (uint64_t)w >= (uint64_t)dims[j];                           \
                    flat = flat * (uint64_t)dims[j] + (uint64_t)w;                     \
                }                                                                      \
                slot[n] = (int64_t)((uint64_t)(b * per_batch) + flat);                 \
            }                                                                          \
        return !bad;                                                                   \
    }

TUPLE_SLOTS(tuple_slots_i32, int32_t)
TUPLE_SLOTS(tuple_slots_i64, int64_t)

static inline __attribute__((always_inline)) bool
tuple_slots(const sgk_tensor *indices, int64_t batches, int64_t rows, int k, const int64_t *dims,
            int64_t per_batch, int64_t *slot)
{
    return indices->dtype == SGK_INT64
               ? tuple_slots_i64(indices->data, batches, rows, k, dims, per_batch, slot)
               : tuple_slots_i32(indices->data, batches, rows, k, dims, per_batch, slot);
}

/* Elements: pair n is element n of the indices (shape ishape, rank r); its
   slot is the data element at n's coordinates with the axis coordinate
   replaced by the wrapped index value (data strides stride[]).  A line of
   the indices' last dimension at a time: base, the offset of the line's
   coordinates but the axis, steps like an odometer between lines.  Along
   the last axis a pair's slot is base plus its value; along another, base
   plus its place in the line plus its value times the axis' stride. */
#define ELEMENT_SLOTS(NAME, T)                                                        \
    static bool NAME(const T *idx, int r, const int64_t *ishape, const int64_t *stride, \
                     int axis, int64_t A, int64_t count, int64_t *slot)               \
    {                                                                                  \
        const int last = r - 1;                                                        \
        const int64_t len = ishape[last];                                              \
        const uint64_t sa = (uint64_t)stride[axis];                                    \
        bool bad = false;                                                              \
        if (r == 2) {                                                                  \
            /* the common rank, without the odometer */                               \
            const int64_t rows = ishape[0], s0 = stride[0];                            \
            for (int64_t i = 0; i < rows; i++) {                                       \
                const T *in = idx + i * len;                                           \
                int64_t *out = slot + i * len;                                         \
                if (axis == 1)                                                         \
                    UNROLLED                                                           \
                    for (int64_t j = 0, base = i * s0; j < len; j++) {                 \
                        const int64_t w = sgk_wrap_index(in[j], A);                    \
                        bad |= (uint64_t)w >= (uint64_t)A;                             \
                        out[j] = (int64_t)((uint64_t)base + (uint64_t)w);              \
                    }                                                                  \
                else                                                                   \
                    UNROLLED                                                           \
                    for (int64_t j = 0; j < len; j++) {                                \
                        const int64_t w = sgk_wrap_index(in[j], A);                    \
                        bad |= (uint64_t)w >= (uint64_t)A;                             \
                        out[j] = (int64_t)((uint64_t)j + (uint64_t)w * sa);            \
                    }                                                                  \
            }                                                                          \
            return !bad;                                                               \
        }                                                                              \
        int64_t coord[SGK_MAX_RANK - 1];                                               \
        for (int d = 0; d < last; d++)                                                 \
            coord[d] = 0;                                                              \
        int64_t base = 0;                                                              \
        for (int64_t n = 0; n < count; n += len) {                                     \
            const T *in = idx + n;                                                     \
            int64_t *out = slot + n;                                                   \
            if (axis == last)                                                          \
                for (int64_t j = 0; j < len; j++) {                                    \
                    const int64_t w = sgk_wrap_index(in[j], A);                        \
                    bad |= (uint64_t)w >= (uint64_t)A;                                 \
                    out[j] = (int64_t)((uint64_t)base + (uint64_t)w);                  \
                }                                                                      \
            else                                                                       \
                for (int64_t j = 0; j < len; j++) {                                    \
                    const int64_t w = sgk_wrap_index(in[j], A);                        \
                    bad |= (uint64_t)w >= (uint64_t)A;                                 \
                    out[j] = (int64_t)((uint64_t)(base + j) + (uint64_t)w * sa);       \
                }                                                                      \
            for (int d = last - 1; d >= 0; d--) {                                      \
                if (d != axis)                                                         \
                    base += stride[d];                                                 \
                if (++coord[d] < ishape[d])                                            \
                    break;                                                             \
                if (d != axis)                                                         \
                    base -= coord[d] * stride[d];                                      \
                coord[d] = 0;                                                          \
            }                                                                          \
        }                                                                              \
        return !bad;                                                                   \
    }

ELEMENT_SLOTS(element_slots_i32, int32_t)
ELEMENT_SLOTS(element_slots_i64, int64_t)

/* The dimensions of the indices (ishape, data strides stride, r of them)
   a slot depends on, in shape and kept_stride: all but those of one
   beside the axis (*a, moved to its place among those kept) and the last
   (whose stride of 1 the loops assume).  Left out, [1, 100, 4] along
   axis 1 takes the rank-2 loop.  Their count. */
static int squeeze(const int64_t *ishape, const int64_t *stride, int r, int *a, int64_t *shape,
                   int64_t *kept_stride)
{
    int kept = 0, axis = *a;
    for (int d = 0; d < r; d++) {
        if (d != *a && d != r - 1 && ishape[d] == 1)
            continue;
        if (d == *a)
            axis = kept;
        shape[kept] = ishape[d];
        kept_stride[kept++] = stride[d];
    }
    *a = axis;
    return kept;
}

/* An Elements call's layout: the indices' shape squeezed (rank, shape,
   data strides of the dimensions kept), the axis among them and the
   data's length along it. */
typedef struct {
    int rank, axis;
    int64_t along;
    int64_t shape[SGK_MAX_RANK], stride[SGK_MAX_RANK];
} element_layout;

/* Checks the Elements shape rules (rank, axis, indices no larger than data
   beside the axis) and lays the call out; false on any fault. */
static bool element_layout_of(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                              element_layout *l)
{
    const int r = data->rank;
    if (indices->rank != r || axis < -r || axis >= r)
        return false;
    int a = (int)(axis < 0 ? axis + r : axis);
    int64_t stride[SGK_MAX_RANK], s = 1;
    for (int d = r - 1; d >= 0; d--) {
        if (d != a && indices->shape[d] > data->shape[d])
            return false;
        stride[d] = s;
        s *= data->shape[d];
    }
    l->along = data->shape[a];
    l->stride[0] = 0; /* set by squeeze, which GCC cannot see */
    l->rank = squeeze(indices->shape, stride, r, &a, l->shape, l->stride);
    l->axis = a;
    return true;
}

/* The slots of an Elements call's count pairs; false when an index lies
   outside the axis. */
static bool element_slots(const sgk_tensor *indices, const element_layout *l, int64_t count,
                          int64_t *slot)
{
    return indices->dtype == SGK_INT64
               ? element_slots_i64(indices->data, l->rank, l->shape, l->stride, l->axis,
                                   l->along, count, slot)
               : element_slots_i32(indices->data, l->rank, l->shape, l->stride, l->axis,
                                   l->along, count, slot);
}

/* A gather of elements of type T straight from indices of type I already
   known to lie in [0, along), of squeezed rank 1 to 3: no slots to work
   out and keep.  The indices are lines of their last dimension, in rows
   (the first of three dimensions: DETR's [4, 100, 4] along axis 1) of
   mid lines each; a line starts at data offset i * row_step + m *
   mid_step, the step of the axis' own dimension being 0.  Along the last
   axis element j comes from there plus the index; along another, plus j
   plus the index times the axis' stride. */
#define ELEMENT_GATHER(NAME, T, I)                                                    \
    static inline void NAME(T *out, const T *data, const I *idx,                       \
                            const element_layout *l)                                   \
    {                                                                                  \
        const int r = l->rank, last = r - 1;                                           \
        const int64_t len = l->shape[last], sa = l->stride[l->axis];                   \
        const int64_t rows = r == 3 ? l->shape[0] : 1, mid = r >= 2 ? l->shape[r - 2] : 1; \
        const int64_t row_step = r == 3 && l->axis != 0 ? l->stride[0] : 0;            \
        const int64_t mid_step = r >= 2 && l->axis != r - 2 ? l->stride[r - 2] : 0;    \
        for (int64_t i = 0; i < rows; i++)                                             \
            for (int64_t m = 0; m < mid; m++, out += len, idx += len) {                \
                const T *line = data + i * row_step + m * mid_step;                    \
                if (l->axis == last)                                                   \
                    UNROLLED                                                           \
                    for (int64_t j = 0; j < len; j++)                                  \
                        out[j] = line[idx[j]];                                         \
                else                                                                   \
                    UNROLLED                                                           \
                    for (int64_t j = 0; j < len; j++)                                  \
                        out[j] = line[j + idx[j] * sa];                                \
            }                                                                          \
    }

ELEMENT_GATHER(element_gather_1, uint8_t, int64_t)
ELEMENT_GATHER(element_gather_2, uint16_t, int64_t)
ELEMENT_GATHER(element_gather_4, uint32_t, int64_t)
ELEMENT_GATHER(element_gather_8, uint64_t, int64_t)
/* int32 indices: what OpenVINO hands its nodes, having narrowed them */
ELEMENT_GATHER(element_gather_1_i32, uint8_t, int32_t)
ELEMENT_GATHER(element_gather_2_i32, uint16_t, int32_t)
ELEMENT_GATHER(element_gather_4_i32, uint32_t, int32_t)
ELEMENT_GATHER(element_gather_8_i32, uint64_t, int32_t)

/* The gather above for elements of es bytes, when it applies (indices in
   range, squeezed rank at most 3, es a power of two up to 8); false, with
   nothing written, when it does not. */
static inline bool element_gather(void *out, const void *data, const sgk_tensor *indices,
                                  const element_layout *l, int64_t count, size_t es)
{
    const bool i64 = indices->dtype == SGK_INT64;
    if (l->rank > 3 || (es & (es - 1)) != 0 || es > 8 ||
        !(i64 ? all_in_range(indices->data, count, l->along)
              : all_in_range_i32(indices->data, count, l->along)))
        return false;
#define GATHER_CASE(ES, NAME)                                                          \
    case ES:                                                                           \
        if (i64)                                                                       \
            NAME(out, data, indices->data, l);                                         \
        else                                                                           \
            NAME##_i32(out, data, indices->data, l);                                   \
        break;
    switch (es) {
        GATHER_CASE(1, element_gather_1)
        GATHER_CASE(2, element_gather_2)
        GATHER_CASE(4, element_gather_4)
        GATHER_CASE(8, element_gather_8)
    }
#undef GATHER_CASE
    return true;
}

/* ---- moves ------------------------------------------------------------------- */

/* Slices of sb bytes: out's slice n from src's slice slot[n] (gathers), or
   the reverse (scatters, in order: the last update wins).  Common sizes
   are fixed-size copies, which the compiler makes a few moves. */
#define MOVE_CASE(S, TO, FROM)                                                         \
    case S:                                                                            \
        UNROLLED                                                                       \
        for (int64_t n = 0; n < count; n++)                                            \
            memcpy(TO, FROM, S);                                                       \
        return;

static inline __attribute__((always_inline)) void
gather_slices(uint8_t *out, const uint8_t *src, const int64_t *slot, int64_t count, size_t sb)
{
    switch (sb) {
        MOVE_CASE(1, out + n, src + slot[n])
        MOVE_CASE(2, out + n * 2, src + slot[n] * 2)
        MOVE_CASE(4, out + n * 4, src + slot[n] * 4)
        MOVE_CASE(8, out + n * 8, src + slot[n] * 8)
        MOVE_CASE(16, out + n * 16, src + slot[n] * 16)
        MOVE_CASE(32, out + n * 32, src + slot[n] * 32)
        MOVE_CASE(64, out + n * 64, src + slot[n] * 64)
    default:
        for (int64_t n = 0; n < count; n++)
            memcpy(out + (size_t)n * sb, src + (size_t)slot[n] * sb, sb);
    }
}

static inline __attribute__((always_inline)) void
scatter_slices(uint8_t *out, const uint8_t *upd, const int64_t *slot, int64_t count, size_t sb)
{
    switch (sb) {
        MOVE_CASE(1, out + slot[n], upd + n)
        MOVE_CASE(2, out + slot[n] * 2, upd + n * 2)
        MOVE_CASE(4, out + slot[n] * 4, upd + n * 4)
        MOVE_CASE(8, out + slot[n] * 8, upd + n * 8)
        MOVE_CASE(16, out + slot[n] * 16, upd + n * 16)
        MOVE_CASE(32, out + slot[n] * 32, upd + n * 32)
        MOVE_CASE(64, out + slot[n] * 64, upd + n * 64)
    default:
        for (int64_t n = 0; n < count; n++)
            memcpy(out + (size_t)slot[n] * sb, upd + (size_t)n * sb, sb);
    }
}

#endif
