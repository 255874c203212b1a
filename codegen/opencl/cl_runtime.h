#pragma once
// OpenCL through the ICD loader, loaded with dlopen("libOpenCL.so.1"): any
// platform counts, PoCL on the CPU included (Debian: ocl-icd-libopencl1 and
// pocl-opencl-icd). No OpenCL header is needed to build: the values used
// are declared here, from CL/cl.h of OpenCL 3.0.
#include <utility>
#include <vector>

#include "codegen/runtime/devices.h"
#include "codegen/runtime/dynamic_library.h"

namespace tilesight::opencl {

// opencl:N devices over every platform, or why there are none.
runtime::BackendReport probe();

// (platform, device) of every device, in the order probe() numbers them.
std::vector<std::pair<void*, void*>> deviceHandles(const runtime::DynamicLibrary& lib);

}  // namespace tilesight::opencl
