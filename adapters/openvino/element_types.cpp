#include "element_types.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace sgk_openvino {

namespace {

const SgkType unknown_type = {false, SGK_UINT8, false};

// The name sgk would give the type: OpenVINO abbreviates the kind ("i8",
// "bf16", "u64") where sgk_dtype_name spells it out ("int8", "bfloat16",
// "uint64").  Formats sgk has no dtype for get names it does not know
// ("float8e4m3", "nf4").
std::string sgk_spelling(ov::element::Type type) {
    static const struct {
        const char *openvino, *sgk;
    } kinds[] = {{"boolean", "bool"}, {"string", "string"}, {"bf", "bfloat"},
                 {"f", "float"},      {"i", "int"},         {"u", "uint"}};
    const std::string name = type.get_type_name();
    for (const auto& kind : kinds) {
        const size_t length = std::strlen(kind.openvino);
        if (name.compare(0, length, kind.openvino) == 0)
            return kind.sgk + name.substr(length);
    }
    return name;
}

// sgk's dtype of that name and of the type's size (strings excepted: sgk
// holds pointers to OpenVINO's std::string objects).
bool find_same_type(ov::element::Type type, sgk_dtype* found) {
    const std::string name = sgk_spelling(type);
    for (int code = 0; code < sgk_dtype_count(); ++code) {
        const sgk_dtype dtype = static_cast<sgk_dtype>(code);
        const bool pointers = (sgk_dtype_flags(dtype) & SGK_DTYPE_POINTER) != 0;
        if (name == sgk_dtype_name(dtype) && (pointers || sgk_dtype_size(dtype) == type.size())) {
            *found = dtype;
            return true;
        }
    }
    return false;
}

// sgk's unsigned integer of the given size, which moves any format of that
// width bit for bit.
bool find_unsigned_of_size(size_t size, sgk_dtype* found) {
    for (int code = 0; code < sgk_dtype_count(); ++code) {
        const sgk_dtype dtype = static_cast<sgk_dtype>(code);
        if (sgk_dtype_flags(dtype) == SGK_DTYPE_INTEGER && sgk_dtype_size(dtype) == size) {
            *found = dtype;
            return true;
        }
    }
    return false;
}

SgkType ask_sgk(ov::element::Type type) {
    sgk_dtype dtype = SGK_UINT8;
    if (type.is_dynamic())
        return unknown_type;
    if (find_same_type(type, &dtype))
        return {true, dtype, true};
    if (type.bitwidth() % 8 == 0 && find_unsigned_of_size(type.size(), &dtype))
        return {true, dtype, false};
    return unknown_type;
}

// Every OpenVINO type's answer, by its Type_t code: evaluate() asks for
// each inference.
std::vector<SgkType> answers_by_code() {
    std::vector<SgkType> answers;
    for (const ov::element::Type* type : ov::element::Type::get_known_types()) {
        const size_t code = static_cast<size_t>(static_cast<ov::element::Type_t>(*type));
        if (code >= answers.size())
            answers.resize(code + 1, unknown_type);
        answers[code] = ask_sgk(*type);
    }
    return answers;
}

}  // namespace

SgkType sgk_type_of(ov::element::Type type) {
    static const std::vector<SgkType> answers = answers_by_code();
    const size_t code = static_cast<size_t>(static_cast<ov::element::Type_t>(type));
    return code < answers.size() ? answers[code] : unknown_type;
}

bool sgk_reduces(const SgkType& type, sgk_reduction reduction) {
    if (reduction == SGK_REDUCE_NONE)
        return true;
    return type.known && type.exact && (sgk_reduction_flags(type.dtype, reduction) & SGK_CELL_SUPPORTED) != 0;
}

sgk_dtype sgk_run_type(ov::element::Type received, ov::element::Type declared) {
    if (received == ov::element::u8 && declared == ov::element::boolean)
        return sgk_type_of(declared).dtype;
    return sgk_type_of(received).dtype;
}

bool runs_narrowed(ov::element::Type received, ov::element::Type declared) {
    return received == ov::element::f32 &&
           (declared == ov::element::f16 || declared == ov::element::bf16);
}

}  // namespace sgk_openvino
