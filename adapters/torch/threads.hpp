// sgk on PyTorch's intra-op pool: at::parallel_for behind
// sgk_set_parallel_backend, so that sgk starts no thread of its own and
// follows torch.set_num_threads.
#pragma once

namespace sgk_torch {

// Before each served call: installs the backend when it is not installed
// or when torch's thread count changed since.  Cheap when nothing changed.
// In a forked child sgk stays serial (threads.cpp says why).
void sync_threads();
// Back to sgk's OpenMP (disable()).
void uninstall_threads();
// The distinct threads that `tasks` tasks of one loop of the backend sgk
// is given run on: torch's thread count when it parallelizes (an adapter
// compiled without -fopenmp ran every loop on the calling thread).
int parallel_reach(int tasks);

}  // namespace sgk_torch
