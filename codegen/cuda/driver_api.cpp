#include "codegen/cuda/driver_api.h"

namespace tilesight::cuda {

namespace {

using GetProcAddress = CUresult (*)(const char*, void**, int, uint64_t, int*);

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

bool resolveAll(GetProcAddress g, DriverApi& a) {
  bool ok = resolve(g, "cuInit", 2000, a.init) && resolve(g, "cuDriverGetVersion", 2020, a.driverGetVersion) &&
            resolve(g, "cuDeviceGetCount", 2000, a.deviceGetCount) && resolve(g, "cuDeviceGet", 2000, a.deviceGet) &&
            resolve(g, "cuDeviceGetName", 2000, a.deviceGetName) &&
            resolve(g, "cuDeviceGetAttribute", 2000, a.deviceGetAttribute) &&
            resolve(g, "cuDeviceTotalMem", 3020, a.deviceTotalMem) &&
            resolve(g, "cuDevicePrimaryCtxRetain", 7000, a.primaryCtxRetain) &&
            resolve(g, "cuDevicePrimaryCtxRelease", 11000, a.primaryCtxRelease) &&
            resolve(g, "cuCtxSetCurrent", 4000, a.ctxSetCurrent) && resolve(g, "cuCtxSynchronize", 2000, a.ctxSynchronize) &&
            resolve(g, "cuModuleLoadDataEx", 2010, a.moduleLoadDataEx) &&
            resolve(g, "cuModuleGetFunction", 2000, a.moduleGetFunction) &&
            resolve(g, "cuModuleUnload", 2000, a.moduleUnload) &&
            resolve(g, "cuFuncSetAttribute", 9000, a.funcSetAttribute) && resolve(g, "cuMemAlloc", 3020, a.memAlloc) &&
            resolve(g, "cuMemFree", 3020, a.memFree) && resolve(g, "cuMemcpyHtoD", 3020, a.memcpyHtoD) &&
            resolve(g, "cuMemcpyDtoH", 3020, a.memcpyDtoH) && resolve(g, "cuLaunchKernel", 4000, a.launchKernel) &&
            resolve(g, "cuEventCreate", 2000, a.eventCreate) && resolve(g, "cuEventRecord", 2000, a.eventRecord) &&
            resolve(g, "cuEventSynchronize", 2000, a.eventSynchronize) &&
            resolve(g, "cuEventDestroy", 4000, a.eventDestroy);
  // cuEventElapsedTime_v2 is CUDA 12.8's; older drivers have the first ABI (same signature).
  ok = ok && (resolve(g, "cuEventElapsedTime", 12080, a.eventElapsedTime) ||
              resolve(g, "cuEventElapsedTime", 2000, a.eventElapsedTime));
  resolve(g, "cuGetErrorName", 6000, a.getErrorName);
  resolve(g, "cuGetErrorString", 6000, a.getErrorString);
  return ok;
}

}  // namespace

std::string errorText(const DriverApi& api, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (!(api.getErrorName && api.getErrorName(r, &name) == 0 && name)) name = knownError(r);
  if (api.getErrorString) api.getErrorString(r, &text);
  return (name ? std::string(name) + " " : std::string()) + "(" + std::to_string(r) + ")" +
         (text && *text ? ": " + std::string(text) : "");
}

std::string loadDriver(const runtime::DynamicLibrary& lib, DriverApi& api) {
  if (!lib.loaded()) return "no NVIDIA driver: libcuda.so.1 cannot be loaded (" + lib.error() + ")";
  auto getProc = lib.get<GetProcAddress>("cuGetProcAddress_v2");
  if (!getProc) return "the NVIDIA driver is older than CUDA 12 (libcuda.so.1 has no cuGetProcAddress_v2): update it";
  if (!resolveAll(getProc, api)) {
    // The stub library resolves nothing through cuGetProcAddress; its cuInit says what it is.
    auto plainInit = lib.get<CUresult (*)(unsigned)>("cuInit");
    CUresult r = plainInit ? plainInit(0) : 0;
    return r ? "cuInit failed: " + errorText(api, r)
             : "the NVIDIA driver lacks an entry point tilesight needs (cuInit, cuLaunchKernel...)";
  }
  if (CUresult r = api.init(0); r != 0) return "cuInit failed: " + errorText(api, r);  // 100 no device, 34 a stub...
  return "";
}

}  // namespace tilesight::cuda
