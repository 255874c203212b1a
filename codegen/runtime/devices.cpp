#include "codegen/runtime/devices.h"

#include <unistd.h>

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

uint64_t hostMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(size) : 0;
}

}  // namespace tilesight::runtime
