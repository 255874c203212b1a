#include "codegen/device/probe.h"

#include <algorithm>
#include <fstream>
#include <thread>

#include "codegen/cuda/driver.h"
#include "codegen/hip/hip_runtime.h"
#include "codegen/opencl/cl_runtime.h"

namespace tilesight::device {

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

runtime::BackendReport probeCpu() {
  runtime::Device d;
  d.name = cpuModel() + ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
           " cores (the reference interpreter)";
  d.arch = cpuVectors();
  d.memoryBytes = runtime::hostMemoryBytes();
  return runtime::BackendReport{runtime::Backend::Cpu, "", "", {d}};
}

}  // namespace

runtime::BackendReport probe(runtime::Backend b) {
  switch (b) {
    case runtime::Backend::Cpu: return probeCpu();
    case runtime::Backend::Cuda: return cuda::probe();
    case runtime::Backend::Hip: return hip::probe();
    case runtime::Backend::OpenCL: return opencl::probe();
  }
  return probeCpu();
}

std::vector<runtime::BackendReport> probeDevices() {
  using runtime::Backend;
  return {probe(Backend::Cpu), probe(Backend::Cuda), probe(Backend::Hip), probe(Backend::OpenCL)};
}

}  // namespace tilesight::device
