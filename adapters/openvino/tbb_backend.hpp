// sgk's parallel loops on oneTBB, so that inside evaluate() sgk runs on the
// calling stream's own TBB arena (the CPU plugin's threads) instead of
// starting OpenMP threads beside them (openvinotoolkit/openvino#16503:
// OpenMP inside evaluate() is very slow; OpenVINO's threading guide warns
// against mixing the two).
#pragma once

namespace sgk_openvino {

// Which parallel-for sgk runs on in this process: "tbb" or "openmp".
const char* threading_name();

// Installs the TBB backend, once per process, unless SGK_OPENVINO_THREADS
// is "openmp" (to measure against sgk's own OpenMP threads).
void install_threading();

// Restores sgk's OpenMP backend if this module installed TBB's: the module
// may be unloaded while libsgk stays loaded, which must then not call into
// it.  (sgk keeps one backend per process: a host that installs its own
// after loading the extension replaces this one, and loses it here.)
void uninstall_threading();

}  // namespace sgk_openvino
