#pragma once
// The entry points of the NVIDIA driver API that probing and launching use,
// resolved through cuGetProcAddress_v2 with the ABI version of each one's
// cudaTypedefs.h PFN (a raw dlsym of "cuMemAlloc" would get the legacy ABI:
// cuda.h maps the names to versioned symbols). The types and values are
// declared here from cuda.h of CUDA 13.0, so no CUDA header is needed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/runtime/dynamic_library.h"

namespace tilesight::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUevent = void*;
using CUstream = void*;

// Attributes and options used (cuda.h).
constexpr int kComputeCapabilityMajor = 75;   // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;   // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr int kSharedPerBlockOptin = 97;      // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
constexpr int kMaxDynamicSharedBytes = 8;     // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr int kJitErrorLogBuffer = 5;         // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferSize = 6;     // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES

struct DriverApi {
  CUresult (*init)(unsigned) = nullptr;                                          // cuInit 2000
  CUresult (*driverGetVersion)(int*) = nullptr;                                  // 2020
  CUresult (*deviceGetCount)(int*) = nullptr;                                    // 2000
  CUresult (*deviceGet)(CUdevice*, int) = nullptr;                               // 2000
  CUresult (*deviceGetName)(char*, int, CUdevice) = nullptr;                     // 2000
  CUresult (*deviceGetAttribute)(int*, int, CUdevice) = nullptr;                 // 2000
  CUresult (*deviceTotalMem)(size_t*, CUdevice) = nullptr;                       // _v2: 3020
  CUresult (*getErrorName)(CUresult, const char**) = nullptr;                    // 6000
  CUresult (*getErrorString)(CUresult, const char**) = nullptr;                  // 6000
  // Launching.
  CUresult (*primaryCtxRetain)(CUcontext*, CUdevice) = nullptr;                  // 7000
  CUresult (*primaryCtxRelease)(CUdevice) = nullptr;                             // _v2: 11000
  CUresult (*ctxSetCurrent)(CUcontext) = nullptr;                                // 4000
  CUresult (*ctxSynchronize)() = nullptr;                                        // 2000
  CUresult (*moduleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;  // 2010
  CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;   // 2000
  CUresult (*moduleUnload)(CUmodule) = nullptr;                                  // 2000
  CUresult (*funcSetAttribute)(CUfunction, int, int) = nullptr;                  // 9000
  CUresult (*memAlloc)(CUdeviceptr*, size_t) = nullptr;                          // _v2: 3020
  CUresult (*memFree)(CUdeviceptr) = nullptr;                                    // _v2: 3020
  CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;            // _v2: 3020
  CUresult (*memcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;                  // _v2: 3020
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void**, void**) = nullptr;                  // 4000
  CUresult (*eventCreate)(CUevent*, unsigned) = nullptr;                         // 2000
  CUresult (*eventRecord)(CUevent, CUstream) = nullptr;                          // 2000
  CUresult (*eventSynchronize)(CUevent) = nullptr;                               // 2000
  CUresult (*eventElapsedTime)(float*, CUevent, CUevent) = nullptr;             // _v2: 12080
  CUresult (*eventDestroy)(CUevent) = nullptr;                                   // _v2: 4000
};

// libcuda.so.1, which loadDriver takes.
inline std::vector<std::string> driverLibrary() { return {"libcuda.so.1"}; }

// Resolves every entry point of `lib` (driverLibrary()) and calls cuInit.
// Empty on success; else why there is no usable driver (not loaded, older
// than CUDA 12, the toolkit's stub library, cuInit's error).
std::string loadDriver(const runtime::DynamicLibrary& lib, DriverApi& api);

// "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected".
std::string errorText(const DriverApi& api, CUresult r);

}  // namespace tilesight::cuda
