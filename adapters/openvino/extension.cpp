// The module's entry point for OpenVINO (ov::Core::add_extension): the six
// operators, for IR and model cloning, and the ONNX-frontend conversions
// of conversions.cpp that create them.  Loading it checks that the libsgk
// loaded serves the sgk.h the module was built against (library_version.hpp)
// and moves sgk's parallel loops onto oneTBB (tbb_backend.hpp).
#include <memory>
#include <vector>

#include <openvino/core/extension.hpp>
#include <openvino/core/op_extension.hpp>
#include <openvino/frontend/onnx/extension/conversion.hpp>

#include "conversions.hpp"
#include "gather_elements_op.hpp"
#include "gather_nd_op.hpp"
#include "gather_op.hpp"
#include "library_version.hpp"
#include "scatter_elements_op.hpp"
#include "scatter_nd_op.hpp"
#include "tensor_scatter_op.hpp"
#include "tbb_backend.hpp"

namespace {

std::vector<ov::Extension::Ptr> make_extensions() {
    sgk_openvino::require_library_version();
    sgk_openvino::install_threading();
    std::vector<ov::Extension::Ptr> extensions = {
        std::make_shared<ov::OpExtension<sgk_openvino::ScatterNDOp>>(),
        std::make_shared<ov::OpExtension<sgk_openvino::GatherNDOp>>(),
        std::make_shared<ov::OpExtension<sgk_openvino::ScatterElementsOp>>(),
        std::make_shared<ov::OpExtension<sgk_openvino::GatherElementsOp>>(),
        std::make_shared<ov::OpExtension<sgk_openvino::GatherOp>>(),
        std::make_shared<ov::OpExtension<sgk_openvino::TensorScatterOp>>(),
    };
    for (const auto& conversion : sgk_openvino::conversions()) {
        extensions.push_back(std::make_shared<ov::frontend::onnx::ConversionExtension>(
            conversion.onnx_op_type, ov::frontend::CreatorFunction(conversion.convert)));
    }
    return extensions;
}

// Restores sgk's own threads when the module is unloaded.
struct ThreadingAtUnload {
    ~ThreadingAtUnload() { sgk_openvino::uninstall_threading(); }
} threading_at_unload;

}  // namespace

OPENVINO_CREATE_EXTENSIONS(make_extensions());
