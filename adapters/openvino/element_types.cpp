#include "element_types.hpp"

namespace sgk_openvino {

SgkType sgk_type_of(ov::element::Type type) {
    using ov::element::Type_t;
    switch (static_cast<Type_t>(type)) {
    case Type_t::boolean: return {true, SGK_BOOL, true};
    case Type_t::i8: return {true, SGK_INT8, true};
    case Type_t::u8: return {true, SGK_UINT8, true};
    case Type_t::i16: return {true, SGK_INT16, true};
    case Type_t::u16: return {true, SGK_UINT16, true};
    case Type_t::i32: return {true, SGK_INT32, true};
    case Type_t::u32: return {true, SGK_UINT32, true};
    case Type_t::i64: return {true, SGK_INT64, true};
    case Type_t::u64: return {true, SGK_UINT64, true};
    case Type_t::f16: return {true, SGK_FLOAT16, true};
    case Type_t::bf16: return {true, SGK_BFLOAT16, true};
    case Type_t::f32: return {true, SGK_FLOAT32, true};
    case Type_t::f64: return {true, SGK_FLOAT64, true};
    case Type_t::string: return {true, SGK_STRING, false};
    default: break;
    }
    if (type.is_dynamic() || type.bitwidth() % 8 != 0)
        return {false, SGK_UINT8, false};
    switch (type.size()) {
    case 1: return {true, SGK_UINT8, false};
    case 2: return {true, SGK_UINT16, false};
    case 4: return {true, SGK_UINT32, false};
    case 8: return {true, SGK_UINT64, false};
    default: return {false, SGK_UINT8, false};
    }
}

sgk_dtype sgk_run_type(ov::element::Type received, ov::element::Type declared) {
    if (received == ov::element::u8 && declared == ov::element::boolean)
        return SGK_BOOL;
    return sgk_type_of(received).dtype;
}

bool runs_narrowed(ov::element::Type received, ov::element::Type declared) {
    return received == ov::element::f32 &&
           (declared == ov::element::f16 || declared == ov::element::bf16);
}

}  // namespace sgk_openvino
