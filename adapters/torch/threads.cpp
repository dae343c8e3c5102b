#include "threads.hpp"

#include <atomic>
#include <mutex>
#include <set>

#include <pthread.h>

#include <ATen/Parallel.h>

#include "sgk.h"

namespace sgk_torch {

namespace {

// sgk hands over tasks already balanced for one thread each: grain 1, so
// that at::parallel_for gives each thread its share of them.
void torch_parallel_for(void* pool, size_t n, sgk_task_fn task, void* task_ctx) {
    (void)pool;
    at::parallel_for(0, static_cast<int64_t>(n), 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            task(task_ctx, static_cast<size_t>(i));
    });
}

// at::parallel_for runs serially inside a parallel region: sgk, told so,
// plans for one thread there instead of many.
int torch_in_worker(void* pool) {
    (void)pool;
    return at::in_parallel_region() ? 1 : 0;
}

// The thread count the installed backend announced; 0 when none is.
std::atomic<int> installed_workers{0};
std::mutex install_lock;
std::once_flag atfork_once;

// A forked child inherits neither sgk's backend (sgk drops it at fork and
// runs serially) nor a working OpenMP pool: libgomp's team of the parent
// is gone, and a parallel region there waits forever, as PyTorch's own
// kernels do unless the child sets one thread (DataLoader workers do).
// So sgk stays serial in the child, whatever its thread count.
std::atomic<bool> forked_child{false};

void after_fork_in_child() {
    forked_child.store(true, std::memory_order_relaxed);
    installed_workers.store(0, std::memory_order_relaxed);
}

}  // namespace

void sync_threads() {
    if (forked_child.load(std::memory_order_relaxed))
        return;
    const int workers = at::get_num_threads();
    if (installed_workers.load(std::memory_order_relaxed) == workers)
        return;
    std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, after_fork_in_child); });
    std::lock_guard<std::mutex> hold(install_lock);
    sgk_parallel_backend backend{};
    backend.parallel_for = torch_parallel_for;
    backend.pool = nullptr;
    backend.workers = workers;
    backend.in_worker = torch_in_worker;
    if (sgk_set_parallel_backend(&backend) == SGK_OK)
        installed_workers.store(workers, std::memory_order_relaxed);
}

int parallel_reach(int tasks) {
    std::mutex lock;
    std::set<pthread_t> seen;
    struct Ctx {
        std::mutex* lock;
        std::set<pthread_t>* seen;
    } ctx{&lock, &seen};
    torch_parallel_for(
        nullptr, static_cast<size_t>(tasks > 0 ? tasks : 0),
        [](void* c, size_t) {
            auto* ctx = static_cast<Ctx*>(c);
            std::lock_guard<std::mutex> hold(*ctx->lock);
            ctx->seen->insert(pthread_self());
        },
        &ctx);
    return static_cast<int>(seen.size());
}

void uninstall_threads() {
    std::lock_guard<std::mutex> hold(install_lock);
    if (installed_workers.exchange(0) != 0)
        sgk_set_parallel_backend(nullptr);
}

}  // namespace sgk_torch
