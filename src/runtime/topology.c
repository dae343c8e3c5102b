#include <hwloc.h>
#include <pthread.h>
#include <unistd.h>

#include "runtime/topology.h"

static sgk_topology topology;
static pthread_once_t topology_once = PTHREAD_ONCE_INIT;

static int64_t first_cache_size(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    hwloc_obj_t obj = hwloc_get_next_obj_by_type(topo, type, NULL);
    return obj != NULL && obj->attr != NULL ? (int64_t)obj->attr->cache.size : 0;
}

static int count_or_one(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);
    return n > 0 ? n : 1;
}

static void load_topology(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    topology.logical_cpus = online > 0 ? (int)online : 1;
    topology.physical_cores = topology.logical_cpus;
    topology.numa_nodes = 1;

    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return;
    if (hwloc_topology_load(topo) == 0) {
        topology.physical_cores = count_or_one(topo, HWLOC_OBJ_CORE);
        topology.logical_cpus = count_or_one(topo, HWLOC_OBJ_PU);
        topology.numa_nodes = count_or_one(topo, HWLOC_OBJ_NUMANODE);
        topology.l1d_bytes = first_cache_size(topo, HWLOC_OBJ_L1CACHE);
        topology.l2_bytes = first_cache_size(topo, HWLOC_OBJ_L2CACHE);
        topology.l3_bytes = first_cache_size(topo, HWLOC_OBJ_L3CACHE);
        topology.from_hwloc = 1;
    }
    hwloc_topology_destroy(topo);
}

const sgk_topology *sgk_topology_get(void)
{
    pthread_once(&topology_once, load_topology);
    return &topology;
}
