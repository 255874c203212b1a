#include "codegen/opencl/cl_launch.h"

#include <algorithm>
#include <chrono>

#include "codegen/opencl/cl_api.h"
#include "codegen/opencl/cl_runtime.h"
#include "codegen/runtime/dynamic_library.h"

namespace tilesight::opencl {

using namespace cl;

namespace {

struct Api {
  explicit Api(const runtime::DynamicLibrary& lib) {
#define TS_CL(name) name = lib.get<decltype(name)>(#name); ok = ok && name;
    TS_CL(clCreateContext) TS_CL(clCreateCommandQueue) TS_CL(clCreateProgramWithSource) TS_CL(clBuildProgram)
    TS_CL(clGetProgramBuildInfo) TS_CL(clCreateKernel) TS_CL(clCreateBuffer) TS_CL(clSetKernelArg)
    TS_CL(clEnqueueNDRangeKernel) TS_CL(clEnqueueReadBuffer) TS_CL(clEnqueueWriteBuffer) TS_CL(clFinish)
    TS_CL(clReleaseMemObject) TS_CL(clReleaseKernel) TS_CL(clReleaseProgram) TS_CL(clReleaseCommandQueue)
    TS_CL(clReleaseContext) TS_CL(clGetDeviceInfo)
#undef TS_CL
  }
  bool ok = true;
  Handle (*clCreateContext)(const intptr_t*, Uint, const Handle*, void (*)(const char*, const void*, size_t, void*), void*, Int*);
  Handle (*clCreateCommandQueue)(Handle, Handle, Ulong, Int*);
  Handle (*clCreateProgramWithSource)(Handle, Uint, const char**, const size_t*, Int*);
  Int (*clBuildProgram)(Handle, Uint, const Handle*, const char*, void (*)(Handle, void*), void*);
  Int (*clGetProgramBuildInfo)(Handle, Handle, Uint, size_t, void*, size_t*);
  Handle (*clCreateKernel)(Handle, const char*, Int*);
  Handle (*clCreateBuffer)(Handle, Ulong, size_t, void*, Int*);
  Int (*clSetKernelArg)(Handle, Uint, size_t, const void*);
  Int (*clEnqueueNDRangeKernel)(Handle, Handle, Uint, const size_t*, const size_t*, const size_t*, Uint, const Handle*, Handle*);
  Int (*clEnqueueReadBuffer)(Handle, Handle, Uint, size_t, size_t, void*, Uint, const Handle*, Handle*);
  Int (*clEnqueueWriteBuffer)(Handle, Handle, Uint, size_t, size_t, const void*, Uint, const Handle*, Handle*);
  Int (*clFinish)(Handle);
  Int (*clReleaseMemObject)(Handle);
  Int (*clReleaseKernel)(Handle);
  Int (*clReleaseProgram)(Handle);
  Int (*clReleaseCommandQueue)(Handle);
  Int (*clReleaseContext)(Handle);
  Int (*clGetDeviceInfo)(Handle, Uint, size_t, void*, size_t*);
};

// Releases what a launch created, whatever way it ends.
struct Session {
  explicit Session(const Api& api) : api(api) {}
  ~Session() {
    for (Handle m : buffers) api.clReleaseMemObject(m);
    if (kernel) api.clReleaseKernel(kernel);
    if (program) api.clReleaseProgram(program);
    if (queue) api.clReleaseCommandQueue(queue);
    if (context) api.clReleaseContext(context);
  }
  const Api& api;
  Handle context = nullptr, queue = nullptr, program = nullptr, kernel = nullptr;
  std::vector<Handle> buffers;
};

std::string failed(const char* what, Int e) { return std::string(what) + " failed: OpenCL error " + std::to_string(e); }

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// The buffers whose device addresses address words take (runtime::hostBuffer's numbering).
std::vector<size_t> probedBuffers(const runtime::Launch& l) {
  std::vector<size_t> t;
  for (const runtime::AddressWord& w : l.addressWords)
    if (std::find(t.begin(), t.end(), w.target) == t.end()) t.push_back(w.target);
  return t;
}

// The device addresses of those buffers, as a kernel sees them:
// ts_addresses (appended to the source when there are some) writes each
// one's pointer as an integer; addresses[j] is buffer j's (0: not probed).
std::string probeAddresses(const Api& api, Session& s, const runtime::Launch& l, const std::vector<Handle>& mems,
                           std::vector<uint64_t>& addresses) {
  std::vector<size_t> probed = probedBuffers(l);
  Int e = 0;
  Handle k = api.clCreateKernel(s.program, "ts_addresses", &e);
  if (!k) return failed("clCreateKernel(ts_addresses)", e);
  Handle out = api.clCreateBuffer(s.context, kMemReadWrite, 8 * probed.size(), nullptr, &e);
  if (!out) return api.clReleaseKernel(k), failed("clCreateBuffer", e);
  s.buffers.push_back(out);
  e = api.clSetKernelArg(k, 0, sizeof(Handle), &out);
  for (size_t t = 0; t < probed.size() && e == 0; ++t)
    e = api.clSetKernelArg(k, static_cast<Uint>(t + 1), sizeof(Handle), &mems[probed[t]]);
  size_t one = 1;
  if (e == 0) e = api.clEnqueueNDRangeKernel(s.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr);
  std::vector<uint64_t> found(probed.size(), 0);
  if (e == 0) e = api.clEnqueueReadBuffer(s.queue, out, 1, 0, 8 * found.size(), found.data(), 0, nullptr, nullptr);
  api.clReleaseKernel(k);
  addresses.assign(mems.size(), 0);
  for (size_t t = 0; t < probed.size(); ++t) addresses[probed[t]] = found[t];
  return e ? failed("the address probe", e) : "";
}

// Buffers (runtime::hostBuffer's numbering, then the status words), the
// arguments, the runs and the read-back.
std::string runKernel(const Api& api, Session& s, const runtime::Launch& l, runtime::LaunchResult& r) {
  Int e = 0;
  size_t n = runtime::bufferCount(l);
  std::vector<Handle> mems;
  for (size_t j = 0; j <= n; ++j) {
    runtime::HostBuffer* h = j < n ? runtime::hostBuffer(l, j) : nullptr;
    if (!h && j < n) {
      mems.push_back(nullptr);
      continue;
    }
    Handle m = api.clCreateBuffer(s.context, kMemReadWrite, std::max<size_t>(h ? h->bytes.size() : 0, 8), nullptr, &e);
    if (!m) return failed("clCreateBuffer", e);
    s.buffers.push_back(m);
    mems.push_back(m);
  }
  std::vector<uint64_t> addresses;
  if (!l.addressWords.empty())
    if (std::string why = probeAddresses(api, s, l, mems, addresses); !why.empty()) return why;
  // The kernel's parameters: the arguments, the resident (indirect) buffers, the status words.
  for (size_t j = 0; j <= n && e == 0; ++j)
    e = j < l.args.size() && !l.args[j].buffer
            ? api.clSetKernelArg(s.kernel, static_cast<Uint>(j), l.args[j].scalar.size(), l.args[j].scalar.data())
            : api.clSetKernelArg(s.kernel, static_cast<Uint>(j), sizeof(Handle), &mems[j]);
  if (e != 0) return failed("clSetKernelArg", e);
  std::vector<std::vector<uint8_t>> uploaded(n);
  size_t local3[3] = {l.threads, 1, 1};
  size_t global3[3] = {static_cast<size_t>(l.grid[0]) * l.threads, static_cast<size_t>(l.grid[1]), static_cast<size_t>(l.grid[2])};
  for (unsigned rep = 0; rep < l.repeat; ++rep) {
    for (size_t j = 0; j < n; ++j) {
      if (!runtime::hostBuffer(l, j)) continue;
      uploaded[j] = runtime::uploadBytes(l, j, addresses);
      if (!uploaded[j].empty() &&
          (e = api.clEnqueueWriteBuffer(s.queue, mems[j], 1, 0, uploaded[j].size(), uploaded[j].data(), 0, nullptr, nullptr)) != 0)
        return failed("clEnqueueWriteBuffer", e);
    }
    int32_t zero[2] = {0, 0};
    if ((e = api.clEnqueueWriteBuffer(s.queue, mems[n], 1, 0, 8, zero, 0, nullptr, nullptr)) != 0)
      return failed("clEnqueueWriteBuffer", e);
    auto t = std::chrono::steady_clock::now();
    if ((e = api.clEnqueueNDRangeKernel(s.queue, s.kernel, 3, nullptr, global3, local3, 0, nullptr, nullptr)) != 0)
      return failed("clEnqueueNDRangeKernel", e);
    if ((e = api.clFinish(s.queue)) != 0) return failed("clFinish", e);
    r.runMs.push_back(msSince(t));
  }
  for (size_t j = 0; j < n; ++j) {
    runtime::HostBuffer* h = runtime::hostBuffer(l, j);
    if (!h || h->bytes.empty()) continue;
    if ((e = api.clEnqueueReadBuffer(s.queue, mems[j], 1, 0, h->bytes.size(), h->bytes.data(), 0, nullptr, nullptr)) != 0)
      return failed("clEnqueueReadBuffer", e);
    runtime::restoreAddressWords(l, j, uploaded[j]);
  }
  if ((e = api.clEnqueueReadBuffer(s.queue, mems[n], 1, 0, 8, r.status.data(), 0, nullptr, nullptr)) != 0)
    return failed("clEnqueueReadBuffer", e);
  return "";
}

// The source built: the kernel, and the address probe when memory holds buffers' addresses.
std::string sourceOf(const runtime::Launch& l) {
  if (l.addressWords.empty()) return l.source;
  std::string probe = "\n__kernel void ts_addresses(__global ulong* out";
  std::string body;
  for (size_t t = 0; t < probedBuffers(l).size(); ++t) {
    probe += ", __global void* b" + std::to_string(t);
    body += "  out[" + std::to_string(t) + "] = (ulong)b" + std::to_string(t) + ";\n";
  }
  return l.source + probe + ") {\n" + body + "}\n";
}

}  // namespace

runtime::LaunchResult launch(int device, const runtime::Launch& l) {
  runtime::LaunchResult r;
  runtime::DynamicLibrary lib({"libOpenCL.so.1"});
  std::vector<std::pair<Handle, Handle>> devices = deviceHandles(lib);
  if (device < 0 || static_cast<size_t>(device) >= devices.size()) {
    r.error = "no OpenCL device " + std::to_string(device) + ": " + probe().reason;
    return r;
  }
  Api api(lib);
  if (!api.ok) {
    r.error = "libOpenCL.so.1 lacks an entry point tilesight needs";
    return r;
  }
  Handle dev = devices[device].second;
  char name[256] = {0};
  api.clGetDeviceInfo(dev, kDeviceName, sizeof name - 1, name, nullptr);
  r.device = name;
  Ulong local = 0;
  api.clGetDeviceInfo(dev, kDeviceLocalMemSize, sizeof local, &local, nullptr);
  if (l.stageBytes > local) {
    r.error = "the kernel stages " + std::to_string(l.stageBytes) + " bytes per work-group; " + r.device + " has " +
              std::to_string(local) + " bytes of local memory";
    return r;
  }
  Session s(api);
  Int e = 0;
  s.context = api.clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
  if (!s.context) return r.error = failed("clCreateContext", e), r;
  s.queue = api.clCreateCommandQueue(s.context, dev, 0, &e);
  if (!s.queue) return r.error = failed("clCreateCommandQueue", e), r;
  auto start = std::chrono::steady_clock::now();
  std::string source = sourceOf(l);
  const char* text = source.c_str();
  s.program = api.clCreateProgramWithSource(s.context, 1, &text, nullptr, &e);
  if (!s.program) return r.error = failed("clCreateProgramWithSource", e), r;
  e = api.clBuildProgram(s.program, 1, &dev, "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt", nullptr, nullptr);
  if (e != 0) {
    size_t size = 0;
    api.clGetProgramBuildInfo(s.program, dev, kProgramBuildLog, 0, nullptr, &size);
    std::string log(size, '\0');
    api.clGetProgramBuildInfo(s.program, dev, kProgramBuildLog, size, log.data(), nullptr);
    r.error = "the OpenCL compiler of " + r.device + " rejected the generated kernel (error " + std::to_string(e) +
              "):\n" + log;
    return r;
  }
  s.kernel = api.clCreateKernel(s.program, l.kernel.c_str(), &e);
  if (!s.kernel) return r.error = failed("clCreateKernel", e), r;
  r.compileMs = msSince(start);
  if (l.compiled) l.compiled();
  std::string why = runKernel(api, s, l, r);
  if (!why.empty()) r.error = why;
  return r;
}

}  // namespace tilesight::opencl
