#pragma once
// The CPU reference interpreter's front door: run one entry of a verified
// program over a grid of tile blocks, on host threads (or one thread, in
// grid order, for reproducible runs).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verified.h"
#include "codegen/interp/values.h"
#include "codegen/runtime/arguments.h"
#include "codegen/runtime/buffers.h"

namespace tilesight::interp {

class OpObserver;
class Sanitizer;

struct LaunchOptions {
  std::array<int64_t, 3> grid{1, 1, 1};
  unsigned threads = 0;        // 0: every core
  bool deterministic = false;  // one thread, blocks in grid order (x fastest)
  uint64_t maxLoopIterations = uint64_t{1} << 32;  // per `loop`, then the run stops (0: no limit)
  Sanitizer* sanitizer = nullptr;  // when set: one thread, blocks in grid order
  OpObserver* observer = nullptr;  // when set: told of every op run (op_observer.h); one thread, grid order
};

struct RunOutcome {
  bool ok = true;
  // The first fault (when !ok): where (a source offset) and what.
  uint32_t faultAt = 0;
  std::string fault;
  std::array<int64_t, 3> faultBlock{0, 0, 0};
  std::string printed;  // print_tko output
};

// A module global (a `global` op) as a buffer holding its initial value,
// named by its symbol: the interpreter's, and a device's copy.
runtime::HostBuffer globalBuffer(const Operation& global);

// The entry arguments as the interpreter holds them: scalar tiles, pointers
// as the addresses of their buffers.
std::vector<RtValue> entryArguments(const std::vector<runtime::ArgValue>& args);

// Runs `entry` (an entry op of `program`) with its arguments bound to `args`
// (one value per entry argument: scalar tiles; pointers are addresses of
// buffers in `memory`). Module globals get buffers in `memory` first.
RunOutcome runEntry(const VerifiedProgram& program, const Operation& entry, const std::vector<RtValue>& args,
                    runtime::AddressSpace& memory, const LaunchOptions& options);

}  // namespace tilesight::interp
