#pragma once
// The NVIDIA driver API, loaded with dlopen("libcuda.so.1") and resolved
// through cuGetProcAddress with explicit ABI versions (a raw dlsym of
// "cuMemAlloc" would get the legacy ABI; cuda.h maps the names to versioned
// symbols). No CUDA header is needed to build: the few types and values used
// are declared here, from cuda.h of CUDA 13.0.
#include "codegen/runtime/devices.h"

namespace tilesight::cuda {

// cuda:N devices, or why there are none (no driver, a driver older than
// CUDA 12, cuInit failing with its error name, no device).
runtime::BackendReport probe();

}  // namespace tilesight::cuda
