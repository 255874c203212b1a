#include "codegen/opencl/cl_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/runtime/dynamic_library.h"

namespace tilesight::opencl {

namespace {

// From CL/cl.h (OpenCL 3.0).
using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using PlatformId = void*;
using DeviceId = void*;
constexpr cl_uint kPlatformName = 0x0902;
constexpr cl_uint kDeviceType = 0x1000, kDeviceGlobalMemSize = 0x101F, kDeviceName = 0x102B, kDeviceVersion = 0x102F;
constexpr cl_ulong kDeviceTypeGpu = 1 << 2, kDeviceTypeAll = 0xFFFFFFFF;
constexpr cl_int kPlatformNotFoundKhr = -1001;  // the ICD loader found no platform

using GetPlatformIds = cl_int (*)(cl_uint, PlatformId*, cl_uint*);
using GetPlatformInfo = cl_int (*)(PlatformId, cl_uint, size_t, void*, size_t*);
using GetDeviceIds = cl_int (*)(PlatformId, cl_ulong, cl_uint, DeviceId*, cl_uint*);
using GetDeviceInfo = cl_int (*)(DeviceId, cl_uint, size_t, void*, size_t*);

template <class F, class H>
std::string text(F info, H handle, cl_uint what) {
  size_t size = 0;
  if (info(handle, what, 0, nullptr, &size) != 0 || size == 0) return "";
  std::string s(size, '\0');
  if (info(handle, what, size, s.data(), nullptr) != 0) return "";
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

}  // namespace

std::vector<std::pair<void*, void*>> deviceHandles(const runtime::DynamicLibrary& lib) {
  std::vector<std::pair<void*, void*>> out;
  auto platforms = lib.get<GetPlatformIds>("clGetPlatformIDs");
  auto devices = lib.get<GetDeviceIds>("clGetDeviceIDs");
  cl_uint n = 0;
  if (!platforms || !devices || platforms(0, nullptr, &n) != 0 || n == 0) return out;
  std::vector<PlatformId> ids(n);
  platforms(n, ids.data(), nullptr);
  for (PlatformId p : ids) {
    cl_uint m = 0;
    if (devices(p, kDeviceTypeAll, 0, nullptr, &m) != 0 || m == 0) continue;
    std::vector<DeviceId> devs(m);
    devices(p, kDeviceTypeAll, m, devs.data(), nullptr);
    for (DeviceId d : devs) out.emplace_back(p, d);
  }
  return out;
}

runtime::BackendReport probe() {
  runtime::BackendReport report{runtime::Backend::OpenCL, "", "", {}};
  runtime::DynamicLibrary lib({"libOpenCL.so.1"});
  if (!lib.loaded()) {
    report.reason = "no OpenCL ICD loader: libOpenCL.so.1 cannot be loaded (Debian: apt-get install "
                    "ocl-icd-libopencl1 pocl-opencl-icd for the CPU)";
    return report;
  }
  report.library = lib.name();
  auto platforms = lib.get<GetPlatformIds>("clGetPlatformIDs");
  auto platformInfo = lib.get<GetPlatformInfo>("clGetPlatformInfo");
  auto devices = lib.get<GetDeviceIds>("clGetDeviceIDs");
  auto deviceInfo = lib.get<GetDeviceInfo>("clGetDeviceInfo");
  if (!platforms || !platformInfo || !devices || !deviceInfo) {
    report.reason = "libOpenCL.so.1 lacks an entry point tilesight needs (clGetPlatformIDs...)";
    return report;
  }
  cl_uint n = 0;
  if (cl_int e = platforms(0, nullptr, &n); e != 0 || n == 0) {
    report.reason = e == kPlatformNotFoundKhr || n == 0
                        ? "the OpenCL ICD loader finds no platform (Debian: apt-get install pocl-opencl-icd)"
                        : "clGetPlatformIDs failed: error " + std::to_string(e);
    return report;
  }
  for (auto [p, d] : deviceHandles(lib)) {
    cl_ulong type = 0, memory = 0;
    deviceInfo(d, kDeviceType, sizeof type, &type, nullptr);
    deviceInfo(d, kDeviceGlobalMemSize, sizeof memory, &memory, nullptr);
    runtime::Device dev;
    dev.backend = runtime::Backend::OpenCL;
    dev.index = static_cast<int>(report.devices.size());
    dev.name = text(deviceInfo, d, kDeviceName) + " (" + text(platformInfo, p, kPlatformName) + ")";
    dev.arch = text(deviceInfo, d, kDeviceVersion);
    dev.memoryBytes = memory;
    dev.gpu = (type & kDeviceTypeGpu) != 0;
    report.devices.push_back(dev);
  }
  if (report.devices.empty()) report.reason = "no OpenCL platform has a device";
  return report;
}

}  // namespace tilesight::opencl
