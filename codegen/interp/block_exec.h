#pragma once
// One tile block's execution: the values of its SSA names, and the walk over
// an entry's regions. Ops are evaluated by the files named for their
// category (ops_*.cpp) through evalOp (dispatch.cpp).
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringMap.h>

#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"
#include "codegen/interp/op_observer.h"
#include "codegen/interp/sanitizer.h"
#include "codegen/interp/values.h"
#include "codegen/runtime/buffers.h"

namespace tilesight::interp {

// A run-time error that stops the run: an access outside every buffer, a
// division by zero, a failed assert. `at` is the op's source offset.
struct RunFault : std::runtime_error {
  RunFault(uint32_t at, std::string message) : std::runtime_error(std::move(message)), at(at) {}
  uint32_t at;
};

// What every block of one launch shares.
struct LaunchState {
  LaunchState(const Program& p, runtime::AddressSpace& m) : program(p), memory(m) {}
  const Program& program;
  runtime::AddressSpace& memory;
  std::array<int64_t, 3> grid{1, 1, 1};
  uint64_t maxLoopIterations = 0;  // a `loop` stops the run past this many iterations
  llvm::StringMap<uint64_t> globals;       // global symbol (@name) -> its buffer's address
  Sanitizer* sanitizer = nullptr;
  OpObserver* observer = nullptr;
  std::mutex outputMutex;
  std::string output;                      // print_tko text, in the order blocks print
  std::array<std::mutex, 64> atomicLocks;  // atomics on one address take one lock (address hash)
  // Writes to memory so far: store ops, and atomics that changed a value
  // (what tells a `loop` that spins on nothing, control.cpp).
  std::atomic<uint64_t> writes{0};
  int64_t blocks = 1;                 // in the grid
  std::atomic<int64_t> started{0};    // tile blocks taken by a worker so far
  std::atomic<int64_t> running{0};    // started and not finished
  // Whether no other tile block can run from now on while this one does: it
  // is the only one started and unfinished, and none is left to start.
  bool alone() const { return started.load() >= blocks && running.load() == 1; }

  std::mutex& lockFor(uint64_t address) { return atomicLocks[(address >> 3) % atomicLocks.size()]; }
};

// Tile block `linear` of the grid in grid order (x fastest); BlockExec::linearId is the inverse.
inline std::array<int64_t, 3> blockAt(const std::array<int64_t, 3>& grid, int64_t linear) {
  return {linear % grid[0], linear / grid[0] % grid[1], linear / (grid[0] * grid[1])};
}

// How a region's block ended.
struct Exit {
  enum Kind { Fallthrough, Yield, Continue, Break, Return } kind = Fallthrough;
  std::vector<RtValue> values;
};

class BlockExec {
public:
  BlockExec(LaunchState& launch, std::array<int64_t, 3> blockId);

  // Runs function `fn` (an entry) with its arguments bound to `args`.
  void runFunction(const Operation& fn, llvm::ArrayRef<RtValue> args);
  // Runs the ops of `block` with its arguments bound to `args`.
  Exit runBlock(const Block& block, llvm::ArrayRef<RtValue> args);

  const Program& program() const { return launch_.program; }
  LaunchState& launch() { return launch_; }
  const std::array<int64_t, 3>& blockId() const { return blockId_; }
  // The block's index in grid order (x fastest).
  int64_t linearId() const { return blockId_[0] + launch_.grid[0] * (blockId_[1] + launch_.grid[1] * blockId_[2]); }
  Sanitizer* sanitizer() const { return launch_.sanitizer; }
  // Tells the launch's observer, if any, that `op` ran.
  void observe(const Operation& op) const {
    if (launch_.observer) launch_.observer->afterOp(*this, op);
  }
  BlockClock& clock() { return clock_; }

  // --- values -----------------------------------------------------------------
  const RtValue& value(ValueId v) const { return env_[v]; }
  void set(ValueId v, RtValue x) { env_[v] = std::move(x); }
  const Tile& tile(ValueId v) const;
  // The single element of a scalar (or one-element) integer tile.
  int64_t scalar(ValueId v) const;
  TypeRef typeOf(ValueId v) const { return program().typeOf(v); }
  // A fresh tile for result `i` of `op` (n = the type's elements times lanes).
  std::shared_ptr<Tile> result(const Operation& op, size_t i = 0);
  // Elements in a tile of type t here (lanes > 1 inside reduce/scan bodies,
  // which run on a whole slice of the reduced tile at once).
  int64_t count(TypeRef t) const { return t->numElements() * lanes_; }
  int64_t lanes() const { return lanes_; }
  void setLanes(int64_t l) { lanes_ = l; }

  // The op's token operand (none: orders after nothing).
  TokenValue token(const Operation& op) const;

  [[noreturn]] void fail(const Operation& op, const std::string& message) const;

private:
  LaunchState& launch_;
  std::array<int64_t, 3> blockId_;
  std::vector<RtValue> env_;
  int64_t lanes_ = 1;
  BlockClock clock_;  // the sanitizer's view of this block's memory events
};

// Evaluates one op (not a terminator) and sets its results; control ops run
// their regions and return how they exited when a break/continue/return
// leaves them (Fallthrough otherwise).
Exit evalOp(BlockExec& x, const Operation& op);

// --- per-category evaluators (ops_*.cpp, control.cpp) ------------------------------
void evalInteger(BlockExec& x, const Operation& op, OpKind k);
void evalFloat(BlockExec& x, const Operation& op, OpKind k);
void evalConversion(BlockExec& x, const Operation& op, OpKind k);
void evalShape(BlockExec& x, const Operation& op, OpKind k);
void evalReduction(BlockExec& x, const Operation& op, OpKind k);
void evalMisc(BlockExec& x, const Operation& op, OpKind k);
void evalPointerMemory(BlockExec& x, const Operation& op, OpKind k);
void evalView(BlockExec& x, const Operation& op, OpKind k);
void evalMatrix(BlockExec& x, const Operation& op, OpKind k);
Exit evalControl(BlockExec& x, const Operation& op, OpKind k);

}  // namespace tilesight::interp
