/* The machine as hwloc sees it, read once per process. */
#ifndef SGK_TOPOLOGY_H
#define SGK_TOPOLOGY_H

#include <stdint.h>

typedef struct {
    int physical_cores;   /* >= 1 */
    int logical_cpus;     /* >= 1 */
    int numa_nodes;       /* >= 1 */
    int64_t l1d_bytes;    /* per core; 0 when unknown */
    int64_t l2_bytes;
    int64_t l3_bytes;     /* per package */
    int from_hwloc;       /* 0 when hwloc could not load a topology */
} sgk_topology;

const sgk_topology *sgk_topology_get(void);

#endif
