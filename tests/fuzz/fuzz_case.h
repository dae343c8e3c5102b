/*
 * A decoded call as the fuzz harness holds it (included by fuzz_run.h):
 * its operator, types and shapes, the outcome counts and trace printed
 * under SGK_FUZZ_STATS and SGK_FUZZ_TRACE, and where its indices point.
 */
#ifndef SGK_FUZZ_CASE_H
#define SGK_FUZZ_CASE_H

enum { FZ_SCATTER_ND, FZ_GATHER_ND, FZ_SCATTER_ELEMENTS, FZ_GATHER_ELEMENTS };

typedef struct {
    int op;
    sgk_dtype dtype, udtype, idtype;
    sgk_reduction red;     /* scatters */
    int64_t param;         /* batch_dims (GatherND) or axis (Elements), as passed */
    int32_t r, q, ur;      /* ranks of data, indices, updates */
    int64_t ddims[FZ_DIMS], idims[FZ_DIMS], udims[2 * FZ_DIMS];
    /* Filled by the target's prediction from the shape and type rules. */
    fz_expect e;           /* statuses the shapes and types allow (not index values) */
    int64_t dn, n_idx, un, on; /* element counts, -1 when not computable */
    int k, b, axis;        /* ND: tuple length, batch dims; Elements: axis, normalized */
} fz_case;

/* Outcome counts, printed at exit under SGK_FUZZ_STATS=1 (to see that the
   decoder reaches every outcome, not only the failures). */
enum { FZ_N_COMPARED, FZ_N_FAILED_AS_EXPECTED, FZ_N_PLAN_ONLY, FZ_N_TOO_LARGE, FZ_N_KINDS };
static unsigned long fz_counts[4][FZ_N_KINDS];

static void fz_print_counts(void)
{
    static const char *const ops[] = {"scatter_nd", "gather_nd", "scatter_elements",
                                      "gather_elements"};
    for (int o = 0; o < 4; o++)
        if (fz_counts[o][0] + fz_counts[o][1] + fz_counts[o][2] + fz_counts[o][3])
            fprintf(stderr, "%s: %lu compared with the reference, %lu failed as predicted, "
                    "%lu planned only, %lu too large\n", ops[o], fz_counts[o][0],
                    fz_counts[o][1], fz_counts[o][2], fz_counts[o][3]);
}

static void fz_count_outcome(int op, int kind)
{
    static int registered;
    if (!registered) {
        registered = 1;
        if (getenv("SGK_FUZZ_STATS") != NULL)
            atexit(fz_print_counts);
    }
    fz_counts[op][kind]++;
}

static int fz_is_scatter(const fz_case *c)
{
    return c->op == FZ_SCATTER_ND || c->op == FZ_SCATTER_ELEMENTS;
}

static const char *fz_op_name(const fz_case *c)
{
    static const char *const names[] = {"scatter_nd", "gather_nd", "scatter_elements",
                                        "gather_elements"};
    return names[c->op];
}

/* Under SGK_FUZZ_TRACE=1, describes the decoded call (to turn a crashing
   input into a reproducer). */
static void fz_trace(const fz_case *c)
{
    if (getenv("SGK_FUZZ_TRACE") == NULL)
        return;
    fprintf(stderr, "%s dtype %d/%d idtype %d red %d param %lld; allowed 0x%x; counts "
            "%lld %lld %lld %lld\n", fz_op_name(c), (int)c->dtype, (int)c->udtype,
            (int)c->idtype, (int)c->red, (long long)c->param, c->e.allowed,
            (long long)c->dn, (long long)c->n_idx, (long long)c->un, (long long)c->on);
    const int32_t ranks[3] = {c->r, c->q, c->ur};
    const int64_t *dims[3] = {c->ddims, c->idims, c->udims};
    for (int t = 0; t < 3; t++) {
        fprintf(stderr, "  %s rank %d [", t == 0 ? "data" : t == 1 ? "indices" : "updates",
                (int)ranks[t]);
        for (int d = 0; d < ranks[t] && d < FZ_DIMS; d++)
            fprintf(stderr, "%s%lld", d ? ", " : "", (long long)dims[t][d]);
        fprintf(stderr, "]\n");
    }
}

/* The dimension index element i is checked against (valid shapes only). */
static int64_t fz_index_dim(const fz_case *c, int64_t i)
{
    if (c->op == FZ_SCATTER_ND || c->op == FZ_GATHER_ND)
        return c->ddims[c->b + (int)(i % c->k)];
    return c->ddims[c->axis];
}

/* Output element of each update element (scatters, valid shapes, indices in
   range); target has c->un entries. */
static void fz_targets(const fz_case *c, const void *indices, int64_t *target)
{
    if (c->op == FZ_SCATTER_ND) {
        int64_t slice = fz_count(c->ddims + c->k, c->r - c->k);
        int64_t count = fz_count(c->idims, c->q - 1);
        for (int64_t u = 0; u < count; u++) {
            int64_t slot = 0;
            for (int j = 0; j < c->k; j++) {
                int64_t v = fz_load_index(c->idtype, indices, u * c->k + j);
                slot = slot * c->ddims[j] + (v < 0 ? v + c->ddims[j] : v);
            }
            for (int64_t e = 0; e < slice; e++)
                target[u * slice + e] = slot * slice + e;
        }
        return;
    }
    int64_t coord[SGK_MAX_RANK];
    for (int64_t p = 0; p < c->n_idx; p++) {
        int64_t rest = p;
        for (int d = c->q - 1; d >= 0; d--) {
            coord[d] = rest % c->idims[d];
            rest /= c->idims[d];
        }
        int64_t v = fz_load_index(c->idtype, indices, p);
        coord[c->axis] = v < 0 ? v + c->ddims[c->axis] : v;
        int64_t off = 0;
        for (int d = 0; d < c->r; d++)
            off = off * c->ddims[d] + coord[d];
        target[p] = off;
    }
}

#endif /* SGK_FUZZ_CASE_H */
