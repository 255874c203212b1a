#pragma once
// Building and launching one generated OpenCL C kernel (the SIMT lowering's
// output) on an OpenCL device through the ICD loader: buffers in, the grid
// of work-groups, buffers out, the kernel's status words.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/runtime/buffers.h"

namespace tilesight::opencl {

struct KernelArg {
  runtime::HostBuffer* buffer = nullptr;  // a pointer argument (copied in, read back)
  std::vector<uint8_t> scalar;            // else: the value's bytes
};

struct Launch {
  std::string source, kernel;
  unsigned threads = 32;
  uint64_t stageBytes = 0;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::vector<KernelArg> args;  // the status words are added last
  unsigned repeat = 1;          // every run starts from the buffers' initial bytes
};

struct LaunchResult {
  std::string error;             // non-empty: the runtime or its compiler failed (exit 3); the build log
  std::string device;            // the device's name
  double compileMs = 0;
  std::vector<double> runMs;     // per repetition, enqueue to finish
  std::array<int32_t, 2> status{0, 0};  // of the last run
};

LaunchResult launch(int device, const Launch& l);

}  // namespace tilesight::opencl
