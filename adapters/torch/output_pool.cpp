#include "output_pool.hpp"

#include <sys/mman.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <ATen/EmptyTensor.h>
#include <ATen/ops/empty.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>

namespace sgk_torch {

namespace {

// Smaller buffers come from malloc's heap, which reuses them without
// faults; larger ones are mapped and unmapped by glibc each time.
constexpr size_t pooled_min = size_t{4} << 20;

struct Buffer {
    void* data;
    size_t bytes;
};

// Pages of a new buffer are advised onto transparent huge pages: the
// first use of a buffer still faults every page in, and 2 MiB pages fault
// 512 times less often (NumPy advises its large arrays the same way).
void* allocate_large(size_t bytes) {
    void* data = c10::alloc_cpu(bytes);
    constexpr uintptr_t huge = uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<uintptr_t>(data);
    const uintptr_t first = (begin + huge - 1) & ~(huge - 1);
    const uintptr_t last = (begin + bytes) & ~(huge - 1);
    if (last > first)  // advice only: failing changes nothing
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    return data;
}

// The buffers kept, oldest first, and their total size.  A plain mutex:
// a call takes it twice at most, far from any copy.  Leaked on purpose:
// tensors freed during the interpreter's exit still return their buffer
// here, after static destructors would have run.
struct Pool {
    std::mutex lock;
    std::vector<Buffer> kept;
    size_t total = 0;
};

Pool& pool() {
    static Pool* const p = [] {
        auto* made = new Pool;
        // A fork while another thread holds the lock would leave it held
        // in the child forever: take it around fork.
        pthread_atfork([] { pool().lock.lock(); }, [] { pool().lock.unlock(); },
                       [] { pool().lock.unlock(); });
        return made;
    }();
    return *p;
}

void give_back(void* context) {
    auto* buffer = static_cast<Buffer*>(context);
    Pool& p = pool();
    {
        std::lock_guard<std::mutex> hold(p.lock);
        const size_t limit = pool_limit();
        if (buffer->bytes <= limit) {
            // Oldest first out: a loop's sizes recur, a one-off's do not.
            size_t evicted = 0;
            while (p.total + buffer->bytes > limit && evicted < p.kept.size()) {
                c10::free_cpu(p.kept[evicted].data);
                p.total -= p.kept[evicted].bytes;
                ++evicted;
            }
            p.kept.erase(p.kept.begin(), p.kept.begin() + static_cast<ptrdiff_t>(evicted));
            p.kept.push_back(*buffer);
            p.total += buffer->bytes;
            delete buffer;
            return;
        }
    }
    c10::free_cpu(buffer->data);
    delete buffer;
}

// The smallest kept buffer of `bytes` to `bytes` + 1/4, taken out of the
// pool; else a new one.
Buffer take(size_t bytes) {
    Pool& p = pool();
    {
        std::lock_guard<std::mutex> hold(p.lock);
        size_t best = p.kept.size();
        for (size_t i = 0; i < p.kept.size(); ++i) {
            const size_t b = p.kept[i].bytes;
            if (b >= bytes && b - bytes <= bytes / 4 &&
                (best == p.kept.size() || b < p.kept[best].bytes))
                best = i;
        }
        if (best < p.kept.size()) {
            const Buffer found = p.kept[best];
            p.kept.erase(p.kept.begin() + static_cast<ptrdiff_t>(best));
            p.total -= found.bytes;
            return found;
        }
    }
    return {allocate_large(bytes), bytes};
}

// The allocator of pooled tensors' storage, which PyTorch also calls when
// it resizes one: small sizes go to PyTorch's own CPU allocator.
struct PoolAllocator final : c10::Allocator {
    c10::DataPtr allocate(size_t bytes) override {
        if (bytes < pooled_min || pool_limit() == 0)
            return c10::GetCPUAllocator()->allocate(bytes);
        auto* buffer = new Buffer(take(bytes));
        return {buffer->data, buffer, &give_back, c10::Device(c10::DeviceType::CPU)};
    }
    void copy_data(void* dest, const void* src, size_t count) const override {
        default_copy_data(dest, src, count);
    }
};

PoolAllocator pool_allocator;

}  // namespace

size_t pool_limit() {
    static const size_t limit = [] {
        if (const char* v = std::getenv("SGK_TORCH_POOL_MB"); v != nullptr && *v != '\0') {
            char* end = nullptr;
            const long long mb = std::strtoll(v, &end, 10);
            if (*end == '\0' && mb >= 0)
                return static_cast<size_t>(mb) << 20;
        }
        const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        const size_t eighth = pages > 0 && page > 0 ? static_cast<size_t>(pages) *
                                                          static_cast<size_t>(page) / 8
                                                    : 0;
        const size_t bound = size_t{512} << 20;
        return eighth > 0 && eighth < bound ? eighth : bound;
    }();
    return limit;
}

at::Tensor pooled_empty(at::IntArrayRef sizes, const at::TensorOptions& options) {
    if (pool_limit() == 0 || options.device().type() != c10::DeviceType::CPU ||
        options.pinned_memory())
        return at::empty(sizes, options);
    return at::Tensor(at::detail::empty_generic(
        sizes, &pool_allocator, c10::DispatchKeySet(c10::DispatchKey::CPU),
        c10::typeMetaToScalarType(options.dtype()), c10::MemoryFormat::Contiguous));
}

void drain_pool() {
    std::vector<Buffer> freed;
    {
        Pool& p = pool();
        std::lock_guard<std::mutex> hold(p.lock);
        freed.swap(p.kept);
        p.total = 0;
    }
    for (const Buffer& b : freed)
        c10::free_cpu(b.data);
}

}  // namespace sgk_torch
