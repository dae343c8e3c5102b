// Row-shaped indices: PyG and most GNN code pass index.view(-1, 1)
// .expand_as(src), an index constant (stride 0) along every dimension after
// `dim`.  Such a gather or scatter moves whole rows, which sgk serves as
// Gather/GatherND and ScatterND with k = 1, reading each row's index once
// and never materializing the expanded index.
#pragma once

#include <optional>
#include <vector>

#include <ATen/core/Tensor.h>

namespace sgk_torch {

// When `index` has dimensions after `dim`, each of stride 0 (or size 1)
// and of the size `full` has there, and (when `match_leading`) the sizes of
// `full` before `dim`: the compact index index[..., :, 0, ..., 0] of
// shape index.shape[:dim+1], contiguous (a copy of those values only when
// the view is not).  Otherwise an undefined tensor.
at::Tensor row_index(const at::Tensor& index, int64_t dim, at::IntArrayRef full,
                     bool match_leading);

// The distinct slots a row index (1-d, int32 or int64, none negative)
// names, ascending; nullopt when one is `slots` or more (found in the same
// pass, rather than by a max over the index first).
std::optional<std::vector<int64_t>> touched_slots(const at::Tensor& rows, int64_t slots);

// out[s] = value for each of `slots` (touched_slots of out.size(0)), each
// written once however often the index names it: PyTorch writes a value,
// or a reduction's identity, into the touched rows of a scatter that way,
// and making a tensor of the value for every index row would write the
// index's extent twice (128 MiB for a GNN layer's edges).
void fill_rows(at::Tensor& out, const std::vector<int64_t>& slots, const at::Scalar& value);

// How many times `rows` names each of out's rows, as out's type, shaped
// [slots, 1, ..., 1] to divide out by (a mean's count).
at::Tensor count_rows(const at::Tensor& out, const at::Tensor& rows, bool include_self);

}  // namespace sgk_torch
