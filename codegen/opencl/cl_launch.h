#pragma once
// Building and launching one generated OpenCL C kernel (the SIMT lowering's
// output) on an OpenCL device through the ICD loader: buffers in, the grid
// of work-groups, buffers out, the kernel's status words.
#include "codegen/runtime/launch.h"

namespace tilesight::opencl {

// Builds with the device's OpenCL compiler and launches (runtime/launch.h).
runtime::LaunchResult launch(int device, const runtime::Launch& l);

}  // namespace tilesight::opencl
