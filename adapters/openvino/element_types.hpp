// How OpenVINO element types map onto sgk's.
#pragma once

#include <openvino/core/type/element_type.hpp>

#include "sgk.h"

namespace sgk_openvino {

// What sgk computes a tensor of one OpenVINO element type as.
struct SgkType {
    bool known;           // false: OpenVINO type sgk cannot hold (sub-byte)
    sgk_dtype dtype;      // sgk's type of the same bytes
    bool arithmetic;      // false: sgk moves the bytes only (no reduction)
};

// Exact types map to themselves.  The 8-bit float formats (and any other
// whole-byte type sgk has no arithmetic for) move as unsigned integers of
// their width: copies and gathers stay exact, reductions are refused.
SgkType sgk_type_of(ov::element::Type type);

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
