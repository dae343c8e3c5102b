// How OpenVINO element types map onto sgk's, asked of the library: sgk's
// dtypes are looked up by name (sgk_dtype_count, sgk_dtype_name) and by
// kind and size (sgk_dtype_flags, sgk_dtype_size), once per process.
#pragma once

#include <openvino/core/type/element_type.hpp>

#include "sgk.h"

namespace sgk_openvino {

// What sgk computes a tensor of one OpenVINO element type as.
struct SgkType {
    bool known;           // false: OpenVINO type sgk cannot hold (sub-byte)
    sgk_dtype dtype;      // sgk's type of the same bytes
    bool exact;           // false: another format moved as bytes (no reduction)
};

// Types sgk has map to themselves.  The 8-bit float formats (and any other
// whole-byte type sgk has no dtype for) move as unsigned integers of their
// width: copies and gathers stay exact, reductions are refused.
SgkType sgk_type_of(ov::element::Type type);

// Whether sgk computes the reduction on tensors of the type: every type
// copies; the others are the library's to say (sgk_reduction_flags), and
// are refused on formats moved as bytes.
bool sgk_reduces(const SgkType& type, sgk_reduction reduction);

// The type sgk runs a tensor as, given the type the ONNX model declared
// before the CPU plugin lowered it: booleans the plugin holds as u8 keep
// their logical reductions (OR, AND), not byte arithmetic.
sgk_dtype sgk_run_type(ov::element::Type received, ov::element::Type declared);

// The plugin lowers f16 (and bf16 without hardware support) to f32; a
// float reduction must then be computed in the declared type, rounding
// after every update as the model's own type would (copies and gathers
// are exact in f32 already).
bool runs_narrowed(ov::element::Type received, ov::element::Type declared);

}  // namespace sgk_openvino
