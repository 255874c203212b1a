#pragma once
// One launch of a generated kernel (the SIMT lowering's output) on a GPU
// runtime: what every backend takes (source, entry, block size, staging
// bytes, grid, arguments) and what it gives back. CUDA (cuda/launch.cpp),
// HIP (hip/launch.cpp) and OpenCL (opencl/cl_launch.cpp) each implement
// `launch(device, Launch)` with this contract.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "codegen/runtime/buffers.h"

namespace tilesight::runtime {

struct KernelArg {
  HostBuffer* buffer = nullptr;  // a pointer argument (copied in, read back)
  std::vector<uint8_t> scalar;   // else: the value's bytes, as the kernel's parameter type
};

// A word of argument buffer `arg` at byte `offset` that holds the host
// address of buffer `target` (hostBuffer's numbering): the device's address
// of that buffer goes there on the device (cuTile's lists hold their
// arrays' addresses; the guard's table holds every buffer's).
struct AddressWord {
  size_t arg = 0;
  uint64_t offset = 0;
  size_t target = 0;
};

struct Launch {
  std::string source, kernel;
  unsigned threads = 32;
  uint64_t stageBytes = 0;  // CUDA/HIP: passed as dynamic shared memory when the kernel declares it extern
  bool dynamicStage = false;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::vector<KernelArg> args;  // the status words are added last
  unsigned repeat = 1;          // every run starts from the buffers' initial bytes
  std::string arch;             // the target to compile for; empty: the device's own
  // Buffers no argument passes but the kernel reaches through AddressWords:
  // copied in and read back like argument buffers. OpenCL binds them to the
  // kernel's resident parameters (simt::Kernel::residentBuffers).
  std::vector<HostBuffer*> indirect;
  std::vector<AddressWord> addressWords;
  // Called once the kernel is compiled and loaded, before its buffers and
  // launch (`run --progress` reports the stage); may be empty.
  std::function<void()> compiled;
};

struct LaunchResult {
  std::string error;     // non-empty: the runtime or its compiler failed (exit 3), with the build log
  std::string device;    // the device's name
  std::string arch;      // what the kernel was compiled for (sm_90, gfx90a; empty for OpenCL)
  double compileMs = 0;
  std::vector<double> runMs;            // per repetition, on the device's clock where it has events
  std::array<int32_t, 2> status{0, 0};  // of the last run
};

// The device buffers of a launch, numbered j: the arguments' (j <
// args.size(); null for a scalar), then the indirect ones.
size_t bufferCount(const Launch& l);
HostBuffer* hostBuffer(const Launch& l, size_t j);
// The bytes to upload to buffer j: its host bytes with the address words
// replaced by device addresses (`addresses[t]` is buffer t's).
std::vector<uint8_t> uploadBytes(const Launch& l, size_t j, const std::vector<uint64_t>& addresses);
// After buffer j was read back into its host bytes: the address words the
// kernel left as uploaded hold the host addresses again.
void restoreAddressWords(const Launch& l, size_t j, const std::vector<uint8_t>& uploaded);

}  // namespace tilesight::runtime
