// enable() and disable(): one torch::Library of kind IMPL for (aten, CPU),
// made by enable() and destroyed by disable(), whose destruction restores
// PyTorch's own kernels.  A static TORCH_LIBRARY_IMPL could not be undone,
// and would cost PyTorch users who load sgk without enabling it.
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include <torch/headeronly/version.h>
#include <torch/library.h>

#include "adapter_api.h"
#include "counters.hpp"
#include "kernels.hpp"
#include "output_pool.hpp"
#include "threads.hpp"

extern "C" const char sgk_torch_built_against[] = "sgk-torch-built-against:" TORCH_VERSION;

namespace sgk_torch {

namespace {

std::mutex lock;
std::unique_ptr<torch::Library> library;
std::string last_error;

void register_kernels(torch::Library& m) {
    m.impl("gather", TORCH_FN(gather));
    m.impl("gather.out", TORCH_FN(gather_out));
    m.impl("index_select", TORCH_FN(index_select));
    m.impl("index_select.out", TORCH_FN(index_select_out));
    m.impl("take", TORCH_FN(take));
    m.impl("take.out", TORCH_FN(take_out));

    m.impl("scatter.src", TORCH_FN(scatter_src));
    m.impl("scatter_.src", TORCH_FN(scatter_src_));
    m.impl("scatter.src_out", TORCH_FN(scatter_src_out));
    m.impl("scatter.value", TORCH_FN(scatter_value));
    m.impl("scatter_.value", TORCH_FN(scatter_value_));
    m.impl("scatter.value_out", TORCH_FN(scatter_value_out));
    m.impl("scatter.reduce", TORCH_FN(scatter_reduce_src));
    m.impl("scatter_.reduce", TORCH_FN(scatter_reduce_src_));
    m.impl("scatter.reduce_out", TORCH_FN(scatter_reduce_src_out));
    m.impl("scatter.value_reduce", TORCH_FN(scatter_reduce_value));
    m.impl("scatter_.value_reduce", TORCH_FN(scatter_reduce_value_));
    m.impl("scatter.value_reduce_out", TORCH_FN(scatter_reduce_value_out));
    m.impl("scatter_add", TORCH_FN(scatter_add));
    m.impl("scatter_add_", TORCH_FN(scatter_add_));
    m.impl("scatter_add.out", TORCH_FN(scatter_add_out));
    m.impl("scatter_reduce.two", TORCH_FN(scatter_reduce_two));
    m.impl("scatter_reduce_.two", TORCH_FN(scatter_reduce_two_));
    m.impl("scatter_reduce.two_out", TORCH_FN(scatter_reduce_two_out));

    m.impl("index_add", TORCH_FN(index_add));
    m.impl("index_add_", TORCH_FN(index_add_));
    m.impl("index_add.out", TORCH_FN(index_add_out));
    m.impl("index_copy", TORCH_FN(index_copy));
    m.impl("index_copy_", TORCH_FN(index_copy_));
    m.impl("index_copy.out", TORCH_FN(index_copy_out));
    m.impl("index_reduce", TORCH_FN(index_reduce));
    m.impl("index_reduce_", TORCH_FN(index_reduce_));
    m.impl("index_reduce.out", TORCH_FN(index_reduce_out));
    m.impl("index_fill_.int_Scalar", TORCH_FN(index_fill_));
    m.impl("index_fill_.int_Tensor", TORCH_FN(index_fill_tensor_));
    m.impl("_index_put_impl_", TORCH_FN(index_put_impl_));
    m.impl("embedding_dense_backward", TORCH_FN(embedding_dense_backward));
}

}  // namespace

}  // namespace sgk_torch

using namespace sgk_torch;

extern "C" int sgk_torch_enable(void) {
    std::lock_guard<std::mutex> hold(lock);
    if (library)
        return 0;
    try {
        auto made = std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                                     c10::DispatchKey::CPU, __FILE__, __LINE__);
        register_kernels(*made);
        library = std::move(made);
        sync_threads();
        return 0;
    } catch (const std::exception& e) {
        last_error = e.what();
        return -1;
    }
}

extern "C" void sgk_torch_disable(void) {
    std::lock_guard<std::mutex> hold(lock);
    library.reset();
    uninstall_threads();
}

extern "C" int sgk_torch_is_enabled(void) {
    std::lock_guard<std::mutex> hold(lock);
    return library ? 1 : 0;
}

extern "C" const char* sgk_torch_error(void) {
    return last_error.c_str();
}

extern "C" size_t sgk_torch_counters_json(char* buf, size_t size) {
    const std::string text = counters_json();
    if (buf != nullptr && size > 0) {
        const size_t n = text.size() < size - 1 ? text.size() : size - 1;
        std::memcpy(buf, text.data(), n);
        buf[n] = '\0';
    }
    return text.size();
}

extern "C" void sgk_torch_reset_counters(void) {
    reset_counters();
}

extern "C" void sgk_torch_empty_cache(void) {
    drain_pool();
}

extern "C" int sgk_torch_parallel_reach(int tasks) {
    return parallel_reach(tasks);
}
