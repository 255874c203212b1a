#pragma once
// Launching a generated CUDA C++ kernel on an NVIDIA GPU: NVRTC to a cubin
// for the device's sm (or Launch::arch), the driver's primary context,
// buffers in, cuLaunchKernel timed with events, buffers and status words out.
#include "codegen/runtime/launch.h"

namespace tilesight::cuda {

runtime::LaunchResult launch(int device, const runtime::Launch& l);

}  // namespace tilesight::cuda
