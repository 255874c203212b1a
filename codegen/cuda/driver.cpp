#include "codegen/cuda/driver.h"

#include <cstdint>
#include <string>

#include "codegen/cuda/driver_api.h"

namespace tilesight::cuda {

runtime::BackendReport probe() {
  runtime::BackendReport report{runtime::Backend::Cuda, "", "", {}};
  runtime::DynamicLibrary lib(driverLibrary());
  if (lib.loaded()) report.library = lib.name();
  DriverApi api;
  if (std::string why = loadDriver(lib, api); !why.empty()) {
    report.reason = why;
    return report;
  }
  int version = 0, count = 0;
  api.driverGetVersion(&version);
  if (CUresult r = api.deviceGetCount(&count); r != 0 || count == 0) {
    report.reason = r ? "cuDeviceGetCount failed: " + errorText(api, r) : "the NVIDIA driver reports no device";
    return report;
  }
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (api.deviceGet(&dev, i) != 0) continue;
    char name[256] = {};
    int major = 0, minor = 0;
    size_t memory = 0;
    api.deviceGetName(name, sizeof name - 1, dev);
    api.deviceGetAttribute(&major, kComputeCapabilityMajor, dev);
    api.deviceGetAttribute(&minor, kComputeCapabilityMinor, dev);
    api.deviceTotalMem(&memory, dev);
    runtime::Device d;
    d.backend = runtime::Backend::Cuda;
    d.index = i;
    d.name = name;
    d.arch = "sm_" + std::to_string(major) + std::to_string(minor) + ", driver " + std::to_string(version / 1000) +
             "." + std::to_string(version % 1000 / 10);
    d.memoryBytes = memory;
    d.gpu = true;
    report.devices.push_back(d);
  }
  return report;
}

}  // namespace tilesight::cuda
