/* The registry: the element types, reductions, statuses and operators
   the library knows, each defined once, as a list that expands a given
   macro X once per row.  The library's tables are sized by the counts
   below and their rows generated from the lists, the tests loop to the
   counts, and the bindings ask sgk.h's queries over these rows
   (sgk_dtype_name, sgk_dtype_flags, sgk_reduction_from_name,
   sgk_status_name, ...) instead of keeping tables of their own; the
   Python extension (python/ext/) generates its calls of the operators
   from SGK_OPERATOR_LIST.

   A new type is a row of SGK_DTYPE_LIST plus its kernels (reduce.c,
   atomic_reduce.c; the Highway kernels go by size).  A new reduction is a
   row of SGK_REDUCTION_LIST plus its cell arithmetic: cell_<op>_<type> in
   cell_ops.h for every non-complex type (reduce.c instantiates each
   reduction for all of them; the masks decide which are served) and
   atomic_<op>_<type> in atomic_reduce.c, and the tests' reference
   (tests/support/reference_cells.c).  A new operator is a row of
   SGK_OPERATOR_LIST beside its entry points in sgk.h.  The C tests loop
   to the counts sgk_dtype_count() and sgk_reduction_count() report,
   except where a table of expected values is itself the reference. */
#ifndef SGK_REGISTRY_H
#define SGK_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

/* X(code, name, size, flags, reductions, arg), in sgk_dtype's code order
   (sgk.h fixes the codes):
     name        what sgk_dtype_name returns and sgk_dtype_from_name takes
     size        bytes per element
     flags       SGK_DTYPE_* bits of sgk.h
     reductions  the reductions the semantics define for the type
                 (docs/semantics.md), a SGK_REDUCTIONS_* mask below; a new
                 reduction reaches every type whose mask is ALL. */
#define SGK_DTYPE_LIST(X, arg)                                                          \
    X(SGK_BOOL, "bool", 1, SGK_DTYPE_BOOLEAN, SGK_REDUCTIONS_ALL, arg)                  \
    X(SGK_INT8, "int8", 1, SGK_DTYPE_INTEGER | SGK_DTYPE_SIGNED, SGK_REDUCTIONS_ALL, arg) \
    X(SGK_UINT8, "uint8", 1, SGK_DTYPE_INTEGER, SGK_REDUCTIONS_ALL, arg)                \
    X(SGK_INT16, "int16", 2, SGK_DTYPE_INTEGER | SGK_DTYPE_SIGNED, SGK_REDUCTIONS_ALL, arg) \
    X(SGK_UINT16, "uint16", 2, SGK_DTYPE_INTEGER, SGK_REDUCTIONS_ALL, arg)              \
    X(SGK_INT32, "int32", 4, SGK_DTYPE_INTEGER | SGK_DTYPE_SIGNED, SGK_REDUCTIONS_ALL, arg) \
    X(SGK_UINT32, "uint32", 4, SGK_DTYPE_INTEGER, SGK_REDUCTIONS_ALL, arg)              \
    X(SGK_INT64, "int64", 8, SGK_DTYPE_INTEGER | SGK_DTYPE_SIGNED, SGK_REDUCTIONS_ALL, arg) \
    X(SGK_UINT64, "uint64", 8, SGK_DTYPE_INTEGER, SGK_REDUCTIONS_ALL, arg)              \
    X(SGK_FLOAT16, "float16", 2, SGK_DTYPE_FLOAT, SGK_REDUCTIONS_ALL, arg)              \
    X(SGK_BFLOAT16, "bfloat16", 2, SGK_DTYPE_FLOAT, SGK_REDUCTIONS_ALL, arg)            \
    X(SGK_FLOAT32, "float32", 4, SGK_DTYPE_FLOAT, SGK_REDUCTIONS_ALL, arg)              \
    X(SGK_FLOAT64, "float64", 8, SGK_DTYPE_FLOAT, SGK_REDUCTIONS_ALL, arg)              \
    /* no order on complex numbers: no max or min */                                 \
    X(SGK_COMPLEX64, "complex64", 8, SGK_DTYPE_COMPLEX, SGK_REDUCTIONS_ARITHMETIC, arg) \
    X(SGK_COMPLEX128, "complex128", 16, SGK_DTYPE_COMPLEX, SGK_REDUCTIONS_ARITHMETIC, arg) \
    /* pointers to the caller's strings: copied, never combined */                   \
    X(SGK_STRING, "string", sizeof(const char *), SGK_DTYPE_POINTER, SGK_REDUCTIONS_COPY, arg)

/* X(code, op, alias, arg): the binary reductions out = f(out, update), in
   sgk_reduction's code order after SGK_REDUCE_NONE (a copy, which every
   type has and which is no row here):
     op     the reduction's name (a bare word), and the stem of its
            arithmetic: cell_<op>_<type> in cell_ops.h, the kernels
            <op>_<type> of reduce.c and atomic_<op>_<type> of
            atomic_reduce.c
     alias  a second name sgk_reduction_from_name takes (OpenVINO's), or "" */
#define SGK_REDUCTION_LIST(X, arg)                                                      \
    X(SGK_REDUCE_ADD, add, "sum", arg)                                                  \
    X(SGK_REDUCE_SUB, sub, "", arg)                                                     \
    X(SGK_REDUCE_MUL, mul, "prod", arg)                                                 \
    X(SGK_REDUCE_MAX, max, "", arg)                                                     \
    X(SGK_REDUCE_MIN, min, "", arg)

/* X(code, arg), in sgk_status's code order; sgk_status_name spells the
   code, and the bindings map statuses to their exceptions by that name. */
#define SGK_STATUS_LIST(X, arg)                                                         \
    X(SGK_OK, arg) X(SGK_ERR_INVALID_ARGUMENT, arg) X(SGK_ERR_SHAPE, arg)               \
    X(SGK_ERR_INDEX_OUT_OF_RANGE, arg) X(SGK_ERR_UNSUPPORTED, arg)                      \
    X(SGK_ERR_OUT_OF_MEMORY, arg) X(SGK_ERR_OVERFLOW, arg)

/* X(name, params, output, arg): the operators, in sgk.h's order.  Each
   has a one-shot call sgk_<name>(<params>, output) and a plan
   sgk_plan_<name>(&plan, <params>, flags), which sgk_execute(plan, data,
   updates, output) runs:
     params  the call's parameters between the plan and the output, in
             sgk.h's order, each named by what it is (bindings pass their
             operands by these names):
               data             the input tensor (TensorScatter's past_cache)
               indices          int32/int64 index tensor
               optional_indices the same, or NULL (TensorScatter's
                                write_indices, NULL meaning zeros)
               updates          the values a scatter writes (its update)
               axis, batch_dims int64_t
               reduction        sgk_reduction
               mode             sgk_tensor_scatter_mode
     output  the output's shape: data (data's, for scatters), indices
             (indices'), or queried (sgk_<name>_shape(data, indices,
             <the int64_t parameter>, shape, rank) gives it) */
#define SGK_OPERATOR_LIST(X, arg)                                                       \
    X(scatter_nd, (data, indices, updates, reduction), data, arg)                       \
    X(gather_nd, (data, indices, batch_dims), queried, arg)                             \
    X(scatter_elements, (data, indices, updates, axis, reduction), data, arg)           \
    X(gather_elements, (data, indices, axis), indices, arg)                             \
    X(gather, (data, indices, axis), queried, arg)                                      \
    X(tensor_scatter, (data, updates, optional_indices, axis, mode), data, arg)

/* Masks of reductions, for a type's row: bit r for reduction r. */
#define SGK_REDUCTIONS_COPY (1u << SGK_REDUCE_NONE)
#define SGK_REDUCTIONS_ALL 0xffffffffu
#define SGK_REDUCTIONS_ARITHMETIC                                                    \
    (SGK_REDUCTIONS_COPY | 1u << SGK_REDUCE_ADD | 1u << SGK_REDUCE_SUB |             \
     1u << SGK_REDUCE_MUL)

/* One past the last code of each list, for sizing tables and bounding
   loops.  (The rows are in code order: registry.c checks it.) */
#define SGK_COUNT_ROW_(...) +1
enum {
    SGK_DTYPE_COUNT = 0 SGK_DTYPE_LIST(SGK_COUNT_ROW_, ~),
    SGK_REDUCTION_COUNT = 1 SGK_REDUCTION_LIST(SGK_COUNT_ROW_, ~),
    SGK_STATUS_COUNT = 0 SGK_STATUS_LIST(SGK_COUNT_ROW_, ~),
    SGK_OPERATOR_COUNT = 0 SGK_OPERATOR_LIST(SGK_COUNT_ROW_, ~),
};

/* A kernel table's row for type T: reduction r's cell is
   prefix<op>_<T>, generated from SGK_REDUCTION_LIST; NONE's is NULL (a
   copy, which the tables do not hold). */
#define SGK_REDUCTION_KERNEL_ROW(prefix, T)                                          \
    {[SGK_REDUCE_NONE] = NULL, SGK_REDUCTION_LIST(SGK_REDUCTION_KERNEL_CELL_, (prefix, T))}
#define SGK_REDUCTION_KERNEL_CELL_(code, op, alias, pt) [code] = SGK_KERNEL_NAME_(op, pt),
#define SGK_KERNEL_NAME_(op, pt) SGK_KERNEL_NAME2_(op, SGK_UNPAREN_ pt)
#define SGK_UNPAREN_(a, b) a, b
#define SGK_KERNEL_NAME2_(op, ...) SGK_KERNEL_NAME3_(op, __VA_ARGS__)
#define SGK_KERNEL_NAME3_(op, prefix, T) prefix##op##_##T

bool sgk_dtype_valid(sgk_dtype dtype);
bool sgk_reduction_valid(sgk_reduction reduction);

/* Bytes per element, inline: the exported sgk_dtype_size is reached
   through the PLT, and a tiny call asks for sizes several times. */
#define SGK_SIZE_CASE_(code, name, size, flags, reductions, arg) case code: return size;
static inline size_t sgk_elem_size(sgk_dtype dtype)
{
    switch (dtype) { SGK_DTYPE_LIST(SGK_SIZE_CASE_, ~) }
    return 0;
}

/* Whether the semantics (docs/semantics.md) define the cell. */
bool sgk_reduction_supported(sgk_dtype dtype, sgk_reduction reduction);
/* Whether the cell's result cannot depend on the order of its updates:
   integer and bool arithmetic wraps and commutes; float rounding, and
   NONE's last-wins, depend on the order. */
bool sgk_reduction_commutes(sgk_dtype dtype, sgk_reduction reduction);
/* Whether the cell's result depends only on the order of its updates,
   not on how they are grouped (folding a contiguous run of them apart
   and the result in afterwards gives the same bits): the cells that
   commute, and float max/min, which keep the first NaN or else the
   first of the largest (smallest) values (docs/semantics.md, "Grouping"). */
bool sgk_reduction_groups(sgk_dtype dtype, sgk_reduction reduction);

#endif
