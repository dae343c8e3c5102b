#include "tbb_backend.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include "sgk.h"

namespace sgk_openvino {

namespace {

// sgk's tasks are ranges already balanced for one thread each: one TBB task
// per sgk task (simple_partitioner, grain 1).  Isolated, so that a thread
// waiting here takes none of the arena's unrelated work, which could be
// another sgk call nested on this thread.
void tbb_parallel_for(void* pool, size_t n, sgk_task_fn task, void* task_ctx) {
    (void)pool;
    tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(
            tbb::blocked_range<size_t>(0, n, 1),
            [&](const tbb::blocked_range<size_t>& range) {
                for (size_t i = range.begin(); i != range.end(); ++i)
                    task(task_ctx, i);
            },
            tbb::simple_partitioner());
    });
}

std::once_flag installed_once;
bool installed = false;

}  // namespace

const char* threading_name() {
    return installed ? "tbb" : "openmp";
}

void install_threading() {
    std::call_once(installed_once, [] {
        const char* choice = std::getenv("SGK_OPENVINO_THREADS");
        if (choice != nullptr && std::strcmp(choice, "openmp") == 0)
            return;
        sgk_parallel_backend backend{};
        backend.parallel_for = tbb_parallel_for;
        backend.pool = nullptr;
        // The default thread count of later plans; inside evaluate() the
        // stream's arena decides how many of those tasks run at once.
        backend.workers = tbb::info::default_concurrency();
        backend.in_worker = nullptr;  // TBB nests
        installed = sgk_set_parallel_backend(&backend) == SGK_OK;
    });
}

void uninstall_threading() {
    if (installed) {
        sgk_set_parallel_backend(nullptr);
        installed = false;
    }
}

}  // namespace sgk_openvino
