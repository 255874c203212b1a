#include "codegen/hip/launch.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "codegen/hip/hiprtc.h"
#include "codegen/runtime/dynamic_library.h"

namespace tilesight::hip {

namespace {

using hipError = int;

// The entry points used (hip_runtime_api.h of ROCm 5.2; handles are pointers).
struct Api {
  explicit Api(const runtime::DynamicLibrary& lib) {
#define TS_HIP(field, name) field = lib.get<decltype(field)>(#name); ok = ok && field;
    TS_HIP(init, hipInit) TS_HIP(getDeviceCount, hipGetDeviceCount) TS_HIP(setDevice, hipSetDevice)
    TS_HIP(deviceGetName, hipDeviceGetName) TS_HIP(moduleLoadData, hipModuleLoadData)
    TS_HIP(moduleGetFunction, hipModuleGetFunction) TS_HIP(moduleUnload, hipModuleUnload)
    TS_HIP(moduleLaunchKernel, hipModuleLaunchKernel) TS_HIP(malloc, hipMalloc) TS_HIP(free, hipFree)
    TS_HIP(memcpyHtoD, hipMemcpyHtoD) TS_HIP(memcpyDtoH, hipMemcpyDtoH) TS_HIP(eventCreate, hipEventCreate)
    TS_HIP(eventRecord, hipEventRecord) TS_HIP(eventSynchronize, hipEventSynchronize)
    TS_HIP(eventElapsedTime, hipEventElapsedTime) TS_HIP(eventDestroy, hipEventDestroy)
    TS_HIP(getErrorString, hipGetErrorString)
#undef TS_HIP
  }
  bool ok = true;
  hipError (*init)(unsigned);
  hipError (*getDeviceCount)(int*);
  hipError (*setDevice)(int);
  hipError (*deviceGetName)(char*, int, int);
  hipError (*moduleLoadData)(void**, const void*);
  hipError (*moduleGetFunction)(void**, void*, const char*);
  hipError (*moduleUnload)(void*);
  hipError (*moduleLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                                 void**, void**);
  hipError (*malloc)(void**, size_t);
  hipError (*free)(void*);
  hipError (*memcpyHtoD)(void*, void*, size_t);
  hipError (*memcpyDtoH)(void*, void*, size_t);
  hipError (*eventCreate)(void**);
  hipError (*eventRecord)(void*, void*);
  hipError (*eventSynchronize)(void*);
  hipError (*eventElapsedTime)(float*, void*, void*);
  hipError (*eventDestroy)(void*);
  const char* (*getErrorString)(hipError);
};

std::string failed(const Api& api, const char* what, hipError e) {
  return std::string(what) + " failed: " + api.getErrorString(e) + " (" + std::to_string(e) + ")";
}

struct Session {
  explicit Session(const Api& api) : api(api) {}
  ~Session() {
    for (void* p : buffers) api.free(p);
    for (void* e : events) api.eventDestroy(e);
    if (module) api.moduleUnload(module);
  }
  const Api& api;
  void* module = nullptr;
  std::vector<void*> buffers, events;
};

// The device buffers (runtime::hostBuffer's numbering, then the status
// words) and what was uploaded to each.
struct Buffers {
  std::vector<void*> mems;
  std::vector<std::vector<uint8_t>> uploaded;
};

// The arguments as one buffer, each at its natural alignment (`extra`).
std::vector<uint8_t> packArguments(const runtime::Launch& l, const Buffers& b) {
  std::vector<uint8_t> packed;
  auto put = [&](const void* p, size_t n) {
    size_t at = (packed.size() + n - 1) / n * n;
    packed.resize(at + n);
    std::memcpy(packed.data() + at, p, n);
  };
  for (size_t i = 0; i < l.args.size(); ++i) {
    if (l.args[i].buffer) put(&b.mems[i], sizeof(void*));
    else put(l.args[i].scalar.data(), l.args[i].scalar.size());
  }
  put(&b.mems.back(), sizeof(void*));
  return packed;
}

std::string runOnce(Session& s, const runtime::Launch& l, void* fn, Buffers& b, std::vector<uint8_t>& packed,
                    runtime::LaunchResult& r) {
  const Api& api = s.api;
  std::vector<uint64_t> addresses;
  for (auto it = b.mems.begin(); it != b.mems.end() - 1; ++it) addresses.push_back(reinterpret_cast<uint64_t>(*it));
  for (size_t j = 0; j < runtime::bufferCount(l); ++j) {
    if (!runtime::hostBuffer(l, j)) continue;
    b.uploaded[j] = runtime::uploadBytes(l, j, addresses);
    if (!b.uploaded[j].empty())
      if (hipError e = api.memcpyHtoD(b.mems[j], b.uploaded[j].data(), b.uploaded[j].size())) return failed(api, "hipMemcpyHtoD", e);
  }
  int32_t zero[2] = {0, 0};
  if (hipError e = api.memcpyHtoD(b.mems.back(), zero, sizeof zero)) return failed(api, "hipMemcpyHtoD", e);
  size_t size = packed.size();
  void* extra[] = {reinterpret_cast<void*>(1), packed.data(), reinterpret_cast<void*>(2), &size, reinterpret_cast<void*>(3)};
  api.eventRecord(s.events[0], nullptr);
  unsigned shared = l.dynamicStage ? static_cast<unsigned>(l.stageBytes) : 0;
  if (hipError e = api.moduleLaunchKernel(fn, static_cast<unsigned>(l.grid[0]), static_cast<unsigned>(l.grid[1]),
                                          static_cast<unsigned>(l.grid[2]), l.threads, 1, 1, shared, nullptr, nullptr, extra))
    return failed(api, "hipModuleLaunchKernel", e);
  api.eventRecord(s.events[1], nullptr);
  if (hipError e = api.eventSynchronize(s.events[1])) return failed(api, "the kernel on the device", e);
  float ms = 0;
  api.eventElapsedTime(&ms, s.events[0], s.events[1]);
  r.runMs.push_back(ms);
  return "";
}

std::string readBack(Session& s, const runtime::Launch& l, const Buffers& b, runtime::LaunchResult& r) {
  const Api& api = s.api;
  for (size_t j = 0; j < runtime::bufferCount(l); ++j) {
    runtime::HostBuffer* h = runtime::hostBuffer(l, j);
    if (!h || h->bytes.empty()) continue;
    if (hipError e = api.memcpyDtoH(h->bytes.data(), b.mems[j], h->bytes.size())) return failed(api, "hipMemcpyDtoH", e);
    runtime::restoreAddressWords(l, j, b.uploaded[j]);
  }
  if (hipError e = api.memcpyDtoH(r.status.data(), b.mems.back(), 8)) return failed(api, "hipMemcpyDtoH", e);
  return "";
}

std::string launchOn(Session& s, const runtime::Launch& l, runtime::LaunchResult& r) {
  const Api& api = s.api;
  auto t = std::chrono::steady_clock::now();
  CodeObject c = compileCodeObject(l.source, l.arch);
  if (!c.error.empty()) return c.error;
  if (hipError e = api.moduleLoadData(&s.module, c.image.data())) return failed(api, "hipModuleLoadData", e);
  void* fn = nullptr;
  if (hipError e = api.moduleGetFunction(&fn, s.module, l.kernel.c_str())) return failed(api, "hipModuleGetFunction", e);
  r.compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  if (l.compiled) l.compiled();
  Buffers b;
  for (size_t j = 0; j <= runtime::bufferCount(l); ++j) {  // the last one: the status words
    runtime::HostBuffer* h = j < runtime::bufferCount(l) ? runtime::hostBuffer(l, j) : nullptr;
    void* p = nullptr;
    if (h || j == runtime::bufferCount(l)) {
      if (hipError e = api.malloc(&p, std::max<size_t>(h ? h->bytes.size() : 0, 8))) return failed(api, "hipMalloc", e);
      s.buffers.push_back(p);
    }
    b.mems.push_back(p);
  }
  b.uploaded.resize(runtime::bufferCount(l));
  std::vector<uint8_t> packed = packArguments(l, b);
  for (int k = 0; k < 2; ++k) {
    void* e = nullptr;
    if (hipError err = api.eventCreate(&e)) return failed(api, "hipEventCreate", err);
    s.events.push_back(e);
  }
  for (unsigned rep = 0; rep < l.repeat; ++rep)
    if (std::string why = runOnce(s, l, fn, b, packed, r); !why.empty()) return why;
  return readBack(s, l, b, r);
}

}  // namespace

runtime::LaunchResult launch(int device, const runtime::Launch& l) {
  runtime::LaunchResult r;
  runtime::DynamicLibrary lib({"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"});
  if (!lib.loaded()) return r.error = "no ROCm runtime: libamdhip64 cannot be loaded (" + lib.error() + ")", r;
  Api api(lib);
  if (!api.ok) return r.error = lib.name() + " lacks an entry point tilesight needs (hipModuleLaunchKernel...)", r;
  if (hipError e = api.init(0)) return r.error = failed(api, "hipInit", e) + ": no usable AMD GPU", r;
  int count = 0;
  api.getDeviceCount(&count);
  if (device < 0 || device >= count) return r.error = "no device hip:" + std::to_string(device) + " (" + std::to_string(count) + " found)", r;
  if (hipError e = api.setDevice(device)) return r.error = failed(api, "hipSetDevice", e), r;
  char name[256] = {};
  api.deviceGetName(name, sizeof name - 1, device);
  r.device = name;
  r.arch = l.arch;
  Session s(api);
  r.error = launchOn(s, l, r);
  return r;
}

}  // namespace tilesight::hip
