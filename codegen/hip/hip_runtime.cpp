#include "codegen/hip/hip_runtime.h"

#include <string>

#include "codegen/runtime/dynamic_library.h"

namespace tilesight::hip {

namespace {

using hipError = int;  // hipError_t; hipDevice_t is an int

std::string errorText(const runtime::DynamicLibrary& lib, hipError e) {
  auto name = lib.get<const char* (*)(hipError)>("hipGetErrorName");
  const char* text = name ? name(e) : nullptr;
  return (text ? std::string(text) + " " : std::string()) + "(" + std::to_string(e) + ")";
}

}  // namespace

runtime::BackendReport probe() {
  runtime::BackendReport report{runtime::Backend::Hip, "", "", {}};
  runtime::DynamicLibrary lib({"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"});
  if (!lib.loaded()) {
    report.reason = "no ROCm runtime: libamdhip64 cannot be loaded (Debian: apt-get install libamdhip64-5)";
    return report;
  }
  report.library = lib.name();
  auto init = lib.get<hipError (*)(unsigned)>("hipInit");
  auto count = lib.get<hipError (*)(int*)>("hipGetDeviceCount");
  auto name = lib.get<hipError (*)(char*, int, int)>("hipDeviceGetName");
  auto totalMem = lib.get<hipError (*)(size_t*, int)>("hipDeviceTotalMem");
  if (!init || !count || !name || !totalMem) {
    report.reason = lib.name() + " lacks an entry point tilesight needs (hipInit, hipGetDeviceCount...)";
    return report;
  }
  // Without a GPU, ROCm 5.2 answers hipInit with 101 (invalid device) and
  // hipGetDeviceCount with 100 (no device).
  if (hipError e = init(0); e != 0) {
    report.reason = "hipInit failed: " + errorText(lib, e) + ": no usable AMD GPU";
    return report;
  }
  int n = 0;
  if (hipError e = count(&n); e != 0 || n == 0) {
    report.reason = e ? "hipGetDeviceCount failed: " + errorText(lib, e) : "the HIP runtime reports no device";
    return report;
  }
  for (int i = 0; i < n; ++i) {
    char text[256] = {};
    size_t memory = 0;
    name(text, sizeof text - 1, i);
    totalMem(&memory, i);
    runtime::Device d;
    d.backend = runtime::Backend::Hip;
    d.index = i;
    d.name = text;
    d.memoryBytes = memory;
    d.gpu = true;
    report.devices.push_back(d);
  }
  return report;
}

}  // namespace tilesight::hip
