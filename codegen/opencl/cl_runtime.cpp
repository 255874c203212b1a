#include "codegen/opencl/cl_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/opencl/cl_api.h"
#include "codegen/runtime/dynamic_library.h"

namespace tilesight::opencl {

using namespace cl;

namespace {

template <class F, class H>
std::string text(F info, H handle, Uint what) {
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
  Uint n = 0;
  if (!platforms || !devices || platforms(0, nullptr, &n) != 0 || n == 0) return out;
  std::vector<Handle> ids(n);
  platforms(n, ids.data(), nullptr);
  for (Handle p : ids) {
    Uint m = 0;
    if (devices(p, kDeviceTypeAll, 0, nullptr, &m) != 0 || m == 0) continue;
    std::vector<Handle> devs(m);
    devices(p, kDeviceTypeAll, m, devs.data(), nullptr);
    for (Handle d : devs) out.emplace_back(p, d);
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
  Uint n = 0;
  if (Int e = platforms(0, nullptr, &n); e != 0 || n == 0) {
    report.reason = e == kPlatformNotFoundKhr || n == 0
                        ? "the OpenCL ICD loader finds no platform (Debian: apt-get install pocl-opencl-icd)"
                        : "clGetPlatformIDs failed: error " + std::to_string(e);
    return report;
  }
  for (auto [p, d] : deviceHandles(lib)) {
    Ulong type = 0, memory = 0;
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
