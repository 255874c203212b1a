#pragma once
// The executions of an op that a launch certainly performs, enumerated
// concretely: each tile block of a known grid and, inside it, each iteration
// of the `for` loops around the op, with the integer scalars that follow from
// block ids, the grid, constants and induction variables computed exactly,
// with the ops' own wrap-around (the value the program computes).
//
// An execution is reported only when every `for` bound and `if` condition on
// the way to the op is computed in it: the op then certainly runs there, so a
// value found in one is a fact of the launch, not an over-approximation (the
// bounds checks call that "must"). Only what the values asked about depend on
// is enumerated: a block axis or a loop they do not depend on is visited once
// (a loop only checked to run at least once). `forEach` also says whether it
// saw every execution: then a property that holds in all of them holds in the
// program. The work per program is bounded (kWork value computations): past
// it enumerations stop and say they are incomplete, which can hide a finding
// but never invent one. No fixpoints: an iter_value is known in the first
// iteration (its initial value) and, when every `continue` adds the same
// constant to it (`x = x + c`), in each later one. Of a `loop` only what its
// first iteration runs before any op that can leave the body certainly runs;
// asked for possible executions, its later iterations (up to kLoopIterations)
// are entered as possible when a value asked about changes with them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include "analysis/checks/value_facts.h"
#include "analysis/ir/ir.h"

namespace tilesight {

using BlockId = std::array<int64_t, 3>;

struct Execution {
  BlockId block{0, 0, 0};
  // `for` op -> its induction variable; `loop` op -> its iteration number (from 0).
  llvm::SmallVector<std::pair<OpId, int64_t>, 4> iterations;
  // What was enumerated (the rest stands for any value): block axes, loops.
  uint8_t axes = 0;
  llvm::SmallVector<OpId, 4> varied;
  // Reached through an `if` whose condition no execution fixes (only when
  // asked for): the op may run there, not certainly.
  bool possible = false;
  // Reached through the `eitherArm` of forEach, whose condition no execution
  // fixes: this op or its twin in the other arm runs.
  bool eitherArm = false;
};

class Executions {
public:
  static constexpr int64_t kWork = int64_t(1) << 22;  // value computations per program
  static constexpr int kMaxNodes = 256;               // ops walked back per value
  static constexpr int64_t kLoopIterations = 64;      // iterations of a `loop` entered

  Executions(const Program& program, const ValueFacts& facts);

  // Whether some execution fixes v (it follows from block ids, the grid,
  // constants, induction variables of `for` loops, iter_values and the
  // results of `if`s whose condition and yielded values it fixes).
  bool computable(ValueId v) const;

  // The value of integer scalar v in execution e; nullopt when it does not
  // follow from what e fixes (or the computation divides by zero).
  std::optional<int64_t> value(ValueId v, const Execution& e) const;

  // Calls f for each execution of `op` that differs in what `of` (and the
  // bounds and conditions on the way) depend on, until f returns false.
  // Returns true when every execution of `op` was visited (f never stopped it,
  // nothing on the way was beyond computing, the work bound held).
  // With `branches`, an `if` whose condition is not computed is entered too,
  // and so is the first iteration of a `for` whose upper bound is not, and
  // the part of a `loop` that may not be reached: what runs under them is
  // marked `possible` (and the walk incomplete),
  // except under `eitherArm`: an `if` whose other arm runs an access that
  // stands in for `op` (footprints.h, twins), so one of the two certainly runs.
  bool forEach(OpId op, llvm::ArrayRef<ValueId> of, llvm::function_ref<bool(const Execution&)> f,
               bool branches = false, OpId eitherArm = kNoId) const;

  // What singles the execution out: "in tile block (3, 0, 0) when %k = 16 in
  // the loop at line 12"; empty when nothing does (every execution is alike).
  std::string describe(const Execution& e) const;

  // Where `op` may not run although the function does: the innermost `if`
  // whose condition the facts do not decide, `for` not known to iterate at
  // least once, or `loop` with an exit before it; kNoId when it certainly
  // runs (in every execution of the code around it that reaches it).
  OpId mayNotRun(OpId op) const;

  // How an iter_value is computed: "%j is an iter_value of the loop at line
  // 9: 2 in the first iteration, then 1 more in each"; empty for other values.
  std::string explain(ValueId v) const;

  // The grid, when the options give one.
  const std::optional<BlockId>& grid() const { return grid_; }

private:
  struct Deps {
    uint8_t axes = 0;                     // bit i: block id axis i
    llvm::SmallVector<OpId, 4> loops;     // `for` and `loop` ops whose iteration matters
    bool computable = true;               // false: something no execution fixes
  };
  struct Step {          // one op between the function and `op`, outermost first
    OpId op;
    uint32_t region;     // for an `if`: which region holds `op` (of a guard: after which `op` runs)
    bool certain = true; // for a `loop`: its first iteration reaches `op` (no exit before it)
    bool guard = false;  // an op before `op` in a block around it that may return
  };
  static constexpr uint32_t kAnyRegion = ~0u;  // a guard whose return no condition decides
  void collect(ValueId v, Deps& d, int& budget) const;
  static void merge(Deps& into, const Deps& d);
  std::optional<int64_t> compute(ValueId v, const Execution& e, int& budget) const;
  std::optional<int64_t> compare(const Operation& cmp, int64_t lhs, const Execution& e, int& budget) const;
  std::optional<int64_t> iterValue(const Value& arg, const Execution& e, int& budget) const;
  // The constant c of `x = x + c` that every continue of `loop` passes as
  // iter_value i; nullopt when one passes something else (or none continues).
  std::optional<int64_t> increment(OpId loop, uint32_t i) const;
  struct Walk {  // what stays the same during one forEach
    const llvm::SmallVector<Step, 8>& path;
    const Deps& need;
    llvm::function_ref<bool(const Execution&)> f;
    bool branches;
    OpId eitherArm;
    bool stopped = false;
  };
  bool walk(Walk& w, size_t at, Execution& e) const;
  bool walkLoop(Walk& w, size_t at, Execution& e) const;
  bool charge(int64_t n) const;
  bool beforeEveryExit(const Operation& loop, OpId child) const;
  bool holdsExit(OpId op) const;
  bool firstIterationReaches(OpId loop, OpId child) const;

  std::optional<uint32_t> regionWithoutReturn(OpId guard) const;

  const Program& p_;
  const ValueFacts& facts_;
  std::vector<bool> returns_;        // per op: it is or holds a `return`
  std::vector<OpId> returnBefore_;   // per op: the nearest earlier op of its block that returns
  llvm::DenseMap<OpId, std::optional<uint32_t>> goesOn_;  // per op that returns: regionWithoutReturn
  std::optional<BlockId> grid_;
  mutable int64_t work_ = kWork;
  mutable llvm::DenseMap<std::pair<OpId, uint32_t>, std::optional<int64_t>> increments_;
};

}  // namespace tilesight
