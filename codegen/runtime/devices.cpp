#include "codegen/runtime/devices.h"

#include <unistd.h>

#include <fstream>
#include <thread>

#include "codegen/cuda/driver.h"
#include "codegen/hip/hip_runtime.h"
#include "codegen/opencl/cl_runtime.h"

namespace tilesight::runtime {

std::string_view backendName(Backend b) {
  switch (b) {
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
    case Backend::Hip: return "hip";
    case Backend::OpenCL: return "opencl";
  }
  return "cpu";
}

std::optional<Backend> backendNamed(std::string_view name) {
  for (Backend b : {Backend::Cpu, Backend::Cuda, Backend::Hip, Backend::OpenCL})
    if (backendName(b) == name) return b;
  return std::nullopt;
}

std::string Device::id() const {
  return backend == Backend::Cpu ? "cpu" : std::string(backendName(backend)) + ":" + std::to_string(index);
}

namespace {

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      std::string name = line.substr(line.find(':') + 1);
      return name.substr(name.find_first_not_of(' '));
    }
  return "CPU";
}

std::string cpuVectors() {
  std::string out = "x86-64";  // the extensions the interpreter's kernels use
  if (__builtin_cpu_supports("avx512f")) out += " avx512f";
  if (__builtin_cpu_supports("avx2")) out += " avx2";
  if (__builtin_cpu_supports("f16c")) out += " f16c";
  return out;
}

BackendReport probeCpu() {
  Device d;
  d.name = cpuModel() + ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
           " cores (the reference interpreter)";
  d.arch = cpuVectors();
  d.memoryBytes = hostMemoryBytes();
  return BackendReport{Backend::Cpu, "", "", {d}};
}

}  // namespace

uint64_t hostMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(size) : 0;
}

BackendReport probe(Backend b) {
  switch (b) {
    case Backend::Cpu: return probeCpu();
    case Backend::Cuda: return cuda::probe();
    case Backend::Hip: return hip::probe();
    case Backend::OpenCL: return opencl::probe();
  }
  return probeCpu();
}

std::vector<BackendReport> probeDevices() {
  return {probe(Backend::Cpu), probe(Backend::Cuda), probe(Backend::Hip), probe(Backend::OpenCL)};
}

}  // namespace tilesight::runtime
