#pragma once
// The devices `tilesight run` can use (DESIGN §3 `devices`): the CPU
// reference interpreter always, and what each GPU runtime reports when it is
// installed — or why it is not available. Each runtime fills these in
// (cuda/driver.h, hip/hip_runtime.h, opencl/cl_runtime.h); device/probe.h
// asks them all.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesight::runtime {

enum class Backend { Cpu, Cuda, Hip, OpenCL };
std::string_view backendName(Backend b);  // "cpu", "cuda", "hip", "opencl"
std::optional<Backend> backendNamed(std::string_view name);

struct Device {
  Backend backend = Backend::Cpu;
  int index = 0;             // within its backend
  std::string name;          // what the runtime calls it
  std::string arch;          // sm_90, gfx90a, the OpenCL version, the CPU's vector extensions
  uint64_t memoryBytes = 0;  // 0: not known
  bool gpu = false;
  std::string id() const;    // "cpu", "cuda:0", "opencl:1"
};

// One runtime: the library it loaded and its devices, or why it has none.
struct BackendReport {
  Backend backend = Backend::Cpu;
  std::string library;  // the shared library that loaded (empty for cpu or when none did)
  std::string reason;   // empty when it has devices; else why not, and what to do
  std::vector<Device> devices;
};

// The machine's memory in bytes (what the cpu device reports); 0 when not known.
uint64_t hostMemoryBytes();

}  // namespace tilesight::runtime
