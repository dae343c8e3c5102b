#include "library_version.hpp"

#include <openvino/core/except.hpp>

namespace sgk_openvino {

void require_library_version(int major, int minor) {
    if (sgk_check_version(major, minor) != SGK_OK)
        OPENVINO_THROW("sgk's OpenVINO extension cannot run on the libsgk loaded: ", sgk_last_error(),
                       "; load it with the libsgk it was built with (installed beside it)");
}

}  // namespace sgk_openvino
