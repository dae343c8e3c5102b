/* The workload suite (docs/performance.md), through the public API only.

   Minimal traffic (bytes any implementation must move per call), by kind:

   copying scatter (none, or a reduction, duplicates or not):
       read data + write output + read updates + read indices
       (every output byte is written once and every data byte it starts from
       is read once, whatever the updates overwrite)
   in-place scatter `none` (and TensorScatter in place):
       read updates + read indices + write the updated slices
       (the rest of the tensor is never touched)
   gather (GatherND, GatherElements, Gather):
       read indices + read the distinct 64-byte lines the gathered slices
       cover + write output
       (memory moves whole lines: a line read for one output serves every
       other output in it, and a row gathered twice need not be read twice;
       bench/peer_workloads.py counts the same way)

   Inputs are deterministic (fixed seeds).  Float values are multiples of
   1/256 below 128 in magnitude, finite and exact; float16 values are random
   finite bit patterns (only `none` runs on float16, which copies bits).
   Every variant's first result is checked against a direct computation of
   sampled output elements before any time is taken. */
#include <stddef.h>

#include "bench.h"
#include "workloads.h"

/* ---- the suite (each workload in the workloads_*.c that workloads.h names) */

const bench_workload bench_workloads[] = {
    {"kv_cache_token", "ScatterND none, [1,32,2048,128] f32/f16, one token per head; "
                       "copying and in place", kv_cache_token},
    {"ov_example5", "ScatterND none, ScatterNDUpdate-15 example 5: [1000,256,10,15] by "
                    "[25,125,3]", ov_example5},
    {"embedding_grad_add", "ScatterND add, [50000,256] f32 by 65536 Zipf(1.1) rows",
     embedding_grad_add},
    {"elementwise_add", "ScatterND add, k = r, [2048,2048] f32, 2M random elements",
     elementwise_add},
    {"elementwise_max", "ScatterND max, k = r, [2048,2048] f32, 2M random elements",
     elementwise_max},
    {"elementwise_add_i32", "ScatterND add, k = r, [2048,2048] f32, 2M random elements, "
                            "int32 indices", elementwise_add_i32},
    {"dense_max_l3", "ScatterND max, [2M] f32 (fits L3, not L2) by 8M random elements",
     dense_max_l3},
    {"dense_max_l2", "ScatterND max, [64k] f32 (fits L2) by 4M random elements",
     dense_max_l2},
    {"gather_embedding", "GatherND, [50000,256] f32 by 65536 int32 rows", gather_embedding},
    {"gather_rows_64b", "GatherND, [1M,16] f32 (64-byte rows) by 1M rows", gather_rows_64b},
    {"gather_batch1", "GatherND batch_dims 1, [64,2048,128] by [64,512,1]", gather_batch1},
    {"scatter_elements_add", "ScatterElements add axis 1, [4096,4096] by [4096,1024]",
     scatter_elements_add},
    {"scatter_elements_none", "ScatterElements none axis 1, [4096,4096] by [4096,1024]",
     scatter_elements_none},
    {"scatter_rows_512b_add", "ScatterND add, [131072,128] f32 (512-byte rows) by 131072 rows",
     scatter_rows_512b_add},
    {"sorted_rows_add", "ScatterND add, [50000,64] f32 by 500000 sorted random rows",
     sorted_rows_add},
    {"sorted_rows_max", "ScatterND max, [50000,64] f32 by 500000 sorted random rows",
     sorted_rows_max},
    {"gather_elements", "GatherElements axis 1, [4096,4096] by [4096,1024]", gather_elements},
    {"gather_elements_rows",
     "GatherElements axis 0, [4096,4096] by [4096,4096] constant along rows", gather_elements_rows},
    {"tiny", "each operator on [16,16] f32: one-shot, reused plan, plain C loop", tiny},
    {"gather", "Gather axis 0, [50000,256] f32 by 65536 ids; axis 1, [64,2048,128] by 512",
     gather_workload},
    {"tensor_scatter", "TensorScatter, one token into [B,32,4096,128] f16, B 1 and 8, linear "
                       "and circular; in place against a memcpy loop, and copying",
     tensor_scatter_workload},
};

const size_t bench_workload_count = sizeof bench_workloads / sizeof bench_workloads[0];
