#pragma once
// Launching a generated HIP C++ kernel on an AMD GPU: hiprtc to a code
// object for the device (or Launch::arch), hipModuleLaunchKernel with the
// arguments packed in one buffer (ROCm 5's kernelParams is not implemented:
// `extra` it is), timed with events, buffers and status words out.
#include "codegen/runtime/launch.h"

namespace tilesight::hip {

runtime::LaunchResult launch(int device, const runtime::Launch& l);

}  // namespace tilesight::hip
