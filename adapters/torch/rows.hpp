// Row-shaped indices: PyG and most GNN code pass index.view(-1, 1)
// .expand_as(src), an index constant (stride 0) along every dimension after
// `dim`.  Such a gather or scatter moves whole rows, which sgk serves as
// Gather/GatherND and ScatterND with k = 1, reading each row's index once
// and never materializing the expanded index.
#pragma once

#include <ATen/core/Tensor.h>

namespace sgk_torch {

// When `index` has dimensions after `dim`, each of stride 0 (or size 1)
// and of the size `full` has there, and (when `match_leading`) the sizes of
// `full` before `dim`: the compact index index[..., :, 0, ..., 0] of
// shape index.shape[:dim+1], contiguous (a copy of those values only when
// the view is not).  Otherwise an undefined tensor.
at::Tensor row_index(const at::Tensor& index, int64_t dim, at::IntArrayRef full,
                     bool match_leading);

}  // namespace sgk_torch
