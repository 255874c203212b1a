#pragma once
// AMD's HIP runtime, loaded with dlopen (libamdhip64.so.6 or .5; ROCm 5.x also
// holds hiprtc there). No HIP header is needed to build: the few functions
// used take ints and pointers (hip_runtime_api.h of ROCm 5.2).
#include "codegen/runtime/devices.h"

namespace tilesight::hip {

// hip:N devices, or why there are none (no ROCm runtime, hipInit failing, no device).
runtime::BackendReport probe();

}  // namespace tilesight::hip
