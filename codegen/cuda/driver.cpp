#include "codegen/cuda/driver.h"

#include <cstdint>
#include <string>

#include "codegen/runtime/dynamic_library.h"

namespace tilesight::cuda {

namespace {

// From cuda.h (CUDA 13.0): CUresult and CUdevice are ints.
using CUresult = int;
using CUdevice = int;
constexpr int kComputeCapabilityMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

using GetProcAddress = CUresult (*)(const char*, void**, int, uint64_t, int*);

// The entry points, each with the ABI version of its cudaTypedefs.h PFN.
struct Api {
  CUresult (*init)(unsigned) = nullptr;                              // cuInit, 2000
  CUresult (*driverGetVersion)(int*) = nullptr;                      // cuDriverGetVersion, 2020
  CUresult (*deviceGetCount)(int*) = nullptr;                        // 2000
  CUresult (*deviceGet)(CUdevice*, int) = nullptr;                   // 2000
  CUresult (*deviceGetName)(char*, int, CUdevice) = nullptr;         // 2000
  CUresult (*deviceGetAttribute)(int*, int, CUdevice) = nullptr;     // 2000
  CUresult (*deviceTotalMem)(size_t*, CUdevice) = nullptr;           // cuDeviceTotalMem_v2, 3020
  CUresult (*getErrorName)(CUresult, const char**) = nullptr;        // 6000
};

template <class F>
bool resolve(GetProcAddress getProc, const char* name, int version, F& out) {
  void* p = nullptr;
  int status = 0;
  if (getProc(name, &p, version, 0, &status) != 0 || !p) return false;
  out = reinterpret_cast<F>(p);
  return true;
}

// cuInit's usual failures (cuda.h), for when the driver cannot name them.
const char* knownError(CUresult r) {
  switch (r) {
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY: the toolkit's stub libcuda is on the library path, not a driver";
    case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER: the driver is older than the runtime";
    case 46: return "CUDA_ERROR_DEVICE_UNAVAILABLE";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 802: return "CUDA_ERROR_SYSTEM_NOT_READY";
    case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    default: return nullptr;
  }
}

std::string errorText(const Api& api, CUresult r) {
  const char* name = nullptr;
  if (!(api.getErrorName && api.getErrorName(r, &name) == 0 && name)) name = knownError(r);
  return (name ? std::string(name) + " " : std::string()) + "(" + std::to_string(r) + ")";
}

}  // namespace

runtime::BackendReport probe() {
  runtime::BackendReport report{runtime::Backend::Cuda, "", "", {}};
  runtime::DynamicLibrary lib({"libcuda.so.1"});
  if (!lib.loaded()) {
    report.reason = "no NVIDIA driver: libcuda.so.1 cannot be loaded (" + lib.error() + ")";
    return report;
  }
  report.library = lib.name();
  auto getProc = lib.get<GetProcAddress>("cuGetProcAddress_v2");
  if (!getProc) {
    report.reason = "the NVIDIA driver is older than CUDA 12 (libcuda.so.1 has no cuGetProcAddress_v2): update it";
    return report;
  }
  Api api;
  bool ok = resolve(getProc, "cuInit", 2000, api.init) && resolve(getProc, "cuDriverGetVersion", 2020, api.driverGetVersion) &&
            resolve(getProc, "cuDeviceGetCount", 2000, api.deviceGetCount) &&
            resolve(getProc, "cuDeviceGet", 2000, api.deviceGet) &&
            resolve(getProc, "cuDeviceGetName", 2000, api.deviceGetName) &&
            resolve(getProc, "cuDeviceGetAttribute", 2000, api.deviceGetAttribute) &&
            resolve(getProc, "cuDeviceTotalMem", 3020, api.deviceTotalMem);
  resolve(getProc, "cuGetErrorName", 6000, api.getErrorName);
  if (!ok) {
    // The stub library resolves nothing through cuGetProcAddress; its cuInit says what it is.
    auto plainInit = lib.get<CUresult (*)(unsigned)>("cuInit");
    CUresult r = plainInit ? plainInit(0) : 0;
    report.reason = r ? "cuInit failed: " + errorText(api, r)
                      : "the NVIDIA driver lacks an entry point tilesight needs (cuInit, cuDeviceGet...)";
    return report;
  }
  if (CUresult r = api.init(0); r != 0) {  // 100 no device, 34 a stub library, 35 a driver too old...
    report.reason = "cuInit failed: " + errorText(api, r);
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
