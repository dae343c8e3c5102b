/*
 * The operators as the extension calls them, generated from the
 * registry's SGK_OPERATOR_LIST: for each, its parameters' kinds in the
 * library's order, its one-shot call, its planning call and its output
 * shape, all over one sgkpy_operands holding whatever an operator takes.
 * Adding an operator to the registry adds it here; nothing below names
 * an operator.
 */
#ifndef SGKPY_OPERATORS_H
#define SGKPY_OPERATORS_H

#include <stdbool.h>

#include "common.h"
#include "operands.h"

/* The kinds a registry row names its parameters by (registry.h). */
#define SGKPY_KIND_LIST(X) \
    X(data) X(indices) X(optional_indices) X(updates) X(axis) X(batch_dims) X(reduction) X(mode)
#define SGKPY_KIND_ENUM_(kind) SGKPY_KIND_##kind,
typedef enum { SGKPY_KIND_LIST(SGKPY_KIND_ENUM_) SGKPY_KIND_COUNT } sgkpy_kind;

/* The kind's name, as the registry spells it. */
const char *sgkpy_kind_name(sgkpy_kind kind);

/* Everything an operator may take; each reads the fields its kinds name. */
typedef struct {
    sgkpy_tensor data, indices, updates;
    bool has_indices;        /* optional_indices given (else NULL: zeros) */
    int64_t axis;            /* the axis, or batch_dims */
    sgk_reduction reduction;
    sgk_tensor_scatter_mode mode;
} sgkpy_operands;

/* The most parameters a registry row has. */
#define SGKPY_MAX_PARAMS 6

typedef struct {
    const char *name;
    int nparams;
    sgkpy_kind params[SGKPY_MAX_PARAMS];
    bool scatter; /* takes updates, as sgk_execute's second buffer */
    sgk_status (*oneshot)(const sgkpy_operands *o, void *output);
    sgk_status (*plan)(sgk_plan **plan, const sgkpy_operands *o, uint32_t flags);
    /* The output shape; shape holds 2 * SGK_MAX_RANK dimensions. */
    sgk_status (*output_shape)(const sgkpy_operands *o, int64_t *shape, int32_t *rank);
} sgkpy_operator;

#define SGKPY_OPERATOR_ENUM_(name, params, output, arg) SGKPY_OP_##name,
enum { SGK_OPERATOR_LIST(SGKPY_OPERATOR_ENUM_, ~) SGKPY_OPERATOR_COUNT };

extern const sgkpy_operator sgkpy_operators[SGKPY_OPERATOR_COUNT];

/* The operator named name, or NULL. */
const sgkpy_operator *sgkpy_operator_named(const char *name);

/* Reads x as a parameter of the given kind into o, as call's mode takes
   it (operands.h); 1 when it can be passed, else 0 (declined). */
int sgkpy_read_operand(sgkpy_call *call, sgkpy_kind kind, PyObject *x, sgkpy_operands *o);

/* Reads values[i] as op's i-th parameter into o, as call's mode takes it
   (operands.h); 1 when every one can be passed, else 0 (declined). */
int sgkpy_read_operands(sgkpy_call *call, const sgkpy_operator *op, PyObject *const *values,
                        sgkpy_operands *o);

#endif /* SGKPY_OPERATORS_H */
