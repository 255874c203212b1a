#include "codegen/cuda/launch.h"

#include <algorithm>
#include <chrono>

#include "codegen/cuda/driver_api.h"
#include "codegen/cuda/nvrtc.h"

namespace tilesight::cuda {

namespace {

// Releases what a launch created, whatever way it ends.
struct Session {
  explicit Session(const DriverApi& api) : api(api) {}
  ~Session() {
    for (CUdeviceptr p : buffers) api.memFree(p);
    for (CUevent e : events) api.eventDestroy(e);
    if (module) api.moduleUnload(module);
    if (context) api.primaryCtxRelease(device);
  }
  const DriverApi& api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> buffers;
  std::vector<CUevent> events;
};

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// The device's sm_XY.
std::string smOf(const DriverApi& api, CUdevice dev) {
  int major = 0, minor = 0;
  api.deviceGetAttribute(&major, kComputeCapabilityMajor, dev);
  api.deviceGetAttribute(&minor, kComputeCapabilityMinor, dev);
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

// Loads the cubin and finds the entry; sets the dynamic shared memory the
// kernel needs past the 48 KiB default.
std::string loadKernel(Session& s, const runtime::Launch& l, const std::vector<char>& cubin, CUfunction& fn) {
  const DriverApi& api = s.api;
  char log[8192] = {};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
  void* values[] = {log, reinterpret_cast<void*>(sizeof log - 1)};
  if (CUresult r = api.moduleLoadDataEx(&s.module, cubin.data(), 2, options, values); r != 0)
    return "cuModuleLoadDataEx failed: " + errorText(api, r) + (log[0] ? std::string(":\n") + log : "") +
           (r == 209 || r == 222 ? " (the driver is older than the NVRTC that compiled the kernel: update the driver)" : "");
  if (CUresult r = api.moduleGetFunction(&fn, s.module, l.kernel.c_str()); r != 0)
    return "cuModuleGetFunction(" + l.kernel + ") failed: " + errorText(api, r);
  if (!l.dynamicStage) return "";
  int optin = 0;
  api.deviceGetAttribute(&optin, kSharedPerBlockOptin, s.device);
  if (l.stageBytes > static_cast<uint64_t>(optin))
    return "the kernel stages " + std::to_string(l.stageBytes) + " bytes of shared memory per block; the device allows " +
           std::to_string(optin);
  if (CUresult r = api.funcSetAttribute(fn, kMaxDynamicSharedBytes, static_cast<int>(l.stageBytes)); r != 0)
    return "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) failed: " + errorText(api, r);
  return "";
}

// The device buffers (runtime::hostBuffer's numbering, then the status
// words) and what was uploaded to each.
struct Buffers {
  std::vector<CUdeviceptr> mems;
  std::vector<std::vector<uint8_t>> uploaded;
};

// One run: inputs in, status zeroed, the launch between two events.
std::string runOnce(Session& s, const runtime::Launch& l, CUfunction fn, Buffers& b, std::vector<void*>& params,
                    runtime::LaunchResult& r) {
  const DriverApi& api = s.api;
  std::vector<uint64_t> addresses(b.mems.begin(), b.mems.end() - 1);
  for (size_t j = 0; j < runtime::bufferCount(l); ++j) {
    if (!runtime::hostBuffer(l, j)) continue;
    b.uploaded[j] = runtime::uploadBytes(l, j, addresses);
    if (!b.uploaded[j].empty())
      if (CUresult e = api.memcpyHtoD(b.mems[j], b.uploaded[j].data(), b.uploaded[j].size()))
        return "cuMemcpyHtoD failed: " + errorText(api, e);
  }
  int32_t zero[2] = {0, 0};
  if (CUresult e = api.memcpyHtoD(b.mems.back(), zero, sizeof zero)) return "cuMemcpyHtoD failed: " + errorText(api, e);
  CUevent start = s.events[0], stop = s.events[1];
  api.eventRecord(start, nullptr);
  unsigned shared = l.dynamicStage ? static_cast<unsigned>(l.stageBytes) : 0;
  if (CUresult e = api.launchKernel(fn, static_cast<unsigned>(l.grid[0]), static_cast<unsigned>(l.grid[1]),
                                    static_cast<unsigned>(l.grid[2]), l.threads, 1, 1, shared, nullptr, params.data(), nullptr))
    return "cuLaunchKernel failed: " + errorText(api, e);
  api.eventRecord(stop, nullptr);
  // A fault in the kernel (an illegal address...) surfaces here.
  if (CUresult e = api.eventSynchronize(stop)) return "the kernel failed on the device: " + errorText(api, e);
  float ms = 0;
  api.eventElapsedTime(&ms, start, stop);
  r.runMs.push_back(ms);
  return "";
}

std::string readBack(Session& s, const runtime::Launch& l, const Buffers& b, runtime::LaunchResult& r) {
  const DriverApi& api = s.api;
  for (size_t j = 0; j < runtime::bufferCount(l); ++j) {
    runtime::HostBuffer* h = runtime::hostBuffer(l, j);
    if (!h || h->bytes.empty()) continue;
    if (CUresult e = api.memcpyDtoH(h->bytes.data(), b.mems[j], h->bytes.size())) return "cuMemcpyDtoH failed: " + errorText(api, e);
    runtime::restoreAddressWords(l, j, b.uploaded[j]);
  }
  if (CUresult e = api.memcpyDtoH(r.status.data(), b.mems.back(), 8)) return "cuMemcpyDtoH failed: " + errorText(api, e);
  return "";
}

std::string launchOn(Session& s, const runtime::Launch& l, runtime::LaunchResult& r) {
  const DriverApi& api = s.api;
  auto t = std::chrono::steady_clock::now();
  Compiled c = compileCubin(l.source, r.arch);
  if (!c.error.empty()) return c.error;
  if (CUresult e = api.primaryCtxRetain(&s.context, s.device)) return "cuDevicePrimaryCtxRetain failed: " + errorText(api, e);
  if (CUresult e = api.ctxSetCurrent(s.context)) return "cuCtxSetCurrent failed: " + errorText(api, e);
  CUfunction fn = nullptr;
  if (std::string why = loadKernel(s, l, c.image, fn); !why.empty()) return why;
  r.compileMs = msSince(t);
  if (l.compiled) l.compiled();
  Buffers b;
  for (size_t j = 0; j <= runtime::bufferCount(l); ++j) {  // the last one: the status words
    runtime::HostBuffer* h = j < runtime::bufferCount(l) ? runtime::hostBuffer(l, j) : nullptr;
    CUdeviceptr p = 0;
    if (h || j == runtime::bufferCount(l)) {
      if (CUresult e = api.memAlloc(&p, std::max<size_t>(h ? h->bytes.size() : 0, 8))) return "cuMemAlloc failed: " + errorText(api, e);
      s.buffers.push_back(p);
    }
    b.mems.push_back(p);
  }
  b.uploaded.resize(runtime::bufferCount(l));
  // cuLaunchKernel takes a pointer to each argument's value.
  std::vector<void*> params;
  for (size_t i = 0; i < l.args.size(); ++i)
    params.push_back(l.args[i].buffer ? static_cast<void*>(&b.mems[i]) : const_cast<uint8_t*>(l.args[i].scalar.data()));
  params.push_back(&b.mems.back());
  for (int k = 0; k < 2; ++k) {
    CUevent e = nullptr;
    if (CUresult err = api.eventCreate(&e, 0)) return "cuEventCreate failed: " + errorText(api, err);
    s.events.push_back(e);
  }
  for (unsigned rep = 0; rep < l.repeat; ++rep)
    if (std::string why = runOnce(s, l, fn, b, params, r); !why.empty()) return why;
  return readBack(s, l, b, r);
}

}  // namespace

runtime::LaunchResult launch(int device, const runtime::Launch& l) {
  runtime::LaunchResult r;
  runtime::DynamicLibrary lib(driverLibrary());
  DriverApi api;
  if (std::string why = loadDriver(lib, api); !why.empty()) return r.error = why, r;
  int count = 0;
  api.deviceGetCount(&count);
  if (device < 0 || device >= count) return r.error = "no device cuda:" + std::to_string(device) + " (" + std::to_string(count) + " found)", r;
  if (l.grid[1] > 65535 || l.grid[2] > 65535 || l.grid[0] > 0x7fffffff)
    return r.error = "the grid is larger than CUDA allows (x < 2^31, y and z <= 65535)", r;
  Session s(api);
  if (CUresult e = api.deviceGet(&s.device, device)) return r.error = "cuDeviceGet failed: " + errorText(api, e), r;
  char name[256] = {};
  api.deviceGetName(name, sizeof name - 1, s.device);
  r.device = name;
  r.arch = l.arch.empty() ? smOf(api, s.device) : l.arch;
  r.error = launchOn(s, l, r);
  return r;
}

}  // namespace tilesight::cuda
