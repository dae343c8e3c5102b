// Large outputs of the adapter's kernels come from a pool of buffers they
// had before, not from fresh pages.  A tensor above glibc's mmap threshold
// is mapped on allocation and unmapped when freed, so every new one pays a
// page fault per page it is written through, and on a VM that reports
// free memory to its host (virtio-balloon free page reporting) the host
// faults too: on the 2-core Xeon, a gather of 500k rows of 64 floats took
// 46-91 ms into a fresh tensor (huge pages advised) and 16-18 ms into one
// already mapped, against PyTorch's 37 ms into a mapped one.  A training
// or inference loop makes outputs of the same sizes every step, so freed
// ones are kept, up to a bound, for the next call of that size.
#pragma once

#include <cstddef>

#include <ATen/core/Tensor.h>

namespace sgk_torch {

// A new contiguous CPU tensor; from the pool when it is large (4 MiB or
// more) and a kept buffer of at least its size (at most a quarter more)
// is free, else newly allocated (large ones advised onto transparent huge
// pages).  Its storage is resizable as at::empty's is; freeing it returns
// a large buffer to the pool.
at::Tensor pooled_empty(at::IntArrayRef sizes, const at::TensorOptions& options);

// Frees every buffer the pool keeps (sgk.torch.empty_cache()).  disable()
// does not: a program that turns sgk on and off around its steps would
// lose the buffers of one step before the next, and the pool is bounded.
void drain_pool();

// The pool's bound in bytes: SGK_TORCH_POOL_MB (read once; 0 turns the
// pool off), else 512 MiB or an eighth of physical memory if less.
size_t pool_limit();

}  // namespace sgk_torch
