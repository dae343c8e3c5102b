// sgk on PyTorch's intra-op pool: at::parallel_for behind
// sgk_set_parallel_backend, so that sgk starts no thread of its own and
// follows torch.set_num_threads.
#pragma once

namespace sgk_torch {

// Before each served call: installs the backend when it is not installed,
// when torch's thread count changed since, or in a forked child (whose
// sgk runs serially until a backend is installed again).  Cheap when
// nothing changed.
void sync_threads();
// Back to sgk's OpenMP (disable()).
void uninstall_threads();

}  // namespace sgk_torch
