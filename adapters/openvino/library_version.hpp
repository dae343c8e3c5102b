// The libsgk this module runs on must serve the sgk.h it was built against:
// the module is installed beside libsgk and finds it through $ORIGIN, but
// a process may have loaded another libsgk first (an older Python package,
// LD_LIBRARY_PATH), whose missing entry points or changed tables would
// otherwise show only as wrong results or a crash at the first inference.
#pragma once

#include "sgk.h"

namespace sgk_openvino {

// Throws an ov::Exception naming both versions when sgk_check_version
// refuses the libsgk loaded (another major version, or an older minor one).
void require_library_version(int major = SGK_VERSION_MAJOR, int minor = SGK_VERSION_MINOR);

}  // namespace sgk_openvino
