#pragma once
// The few OpenCL types and values tilesight uses, from CL/cl.h (OpenCL 3.0),
// so that no OpenCL header is needed to build: the library itself is
// loaded with dlopen (cl_runtime.cpp, cl_launch.cpp).
#include <cstddef>
#include <cstdint>

namespace tilesight::opencl::cl {

using Int = int32_t;
using Uint = uint32_t;
using Ulong = uint64_t;
using Handle = void*;  // cl_platform_id, cl_device_id, cl_context, cl_mem, ...

constexpr Uint kPlatformName = 0x0902;
constexpr Uint kDeviceType = 0x1000, kDeviceGlobalMemSize = 0x101F, kDeviceLocalMemSize = 0x1023,
               kDeviceName = 0x102B, kDeviceVersion = 0x102F;
constexpr Uint kProgramBuildLog = 0x1183;
constexpr Ulong kDeviceTypeGpu = 1 << 2, kDeviceTypeAll = 0xFFFFFFFF;
constexpr Ulong kMemReadWrite = 1;
constexpr Int kPlatformNotFoundKhr = -1001;  // the ICD loader found no platform

using GetPlatformIds = Int (*)(Uint, Handle*, Uint*);
using GetPlatformInfo = Int (*)(Handle, Uint, size_t, void*, size_t*);
using GetDeviceIds = Int (*)(Handle, Ulong, Uint, Handle*, Uint*);
using GetDeviceInfo = Int (*)(Handle, Uint, size_t, void*, size_t*);

}  // namespace tilesight::opencl::cl
