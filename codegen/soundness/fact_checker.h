#pragma once
// The soundness harness of the value facts (analysis/checks/value_facts.h):
// an observer of one run that computes the facts for the run's launch (its
// grid and integer arguments, as `check` would take them from --grid and
// --arg) and checks, at every op the interpreter runs, that each integer and
// pointer result lies inside them: the interval, the divisor, the affine form
// evaluated on the current values of its symbols, and the strides between
// elements. A fact narrowed inside an `if` region is checked where an op of
// that region uses the value. A fact that does not hold is a violation that
// names the op: a check that trusts it could invent a finding.
//
// An `assume` whose predicate fails at run time is the program's undefined
// behaviour: the facts rest on it, so checking stops there (falseAssume).
//
// Not checked: facts that say nothing (an interval that is the type's range,
// a divisor of 1, a form that is the value itself), pointers without a root
// (except their strides), and values of reduce and scan bodies, which run on
// a slice of lanes at a time.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/checks/checks.h"
#include "analysis/ir/ir.h"
#include "analysis/source/source_text.h"
#include "codegen/interp/op_observer.h"
#include "codegen/interp/values.h"

namespace tilesight {
class ValueFacts;
struct TileFact;
}

namespace tilesight::interp {

struct FactCounts {
  uint64_t interval = 0, divisor = 0, affine = 0, strides = 0;
  uint64_t total() const { return interval + divisor + affine + strides; }
};

struct FactViolation {
  OpId op = kNoId;
  std::string message;  // "'addi' at 12:5: %x = 9, outside the fact's interval [0, 7]"
};

// The options under which `check` computes the facts of a run of `entry`
// over `grid` with `args` (its entry arguments): the grid, and each integer
// scalar argument's value by name.
CheckOptions launchCheckOptions(const Program& program, const Operation& entry, const std::array<int64_t, 3>& grid,
                                const std::vector<RtValue>& args);

class FactChecker : public OpObserver {
public:
  // Builds the facts of every unit of `program` under `options`.
  FactChecker(const Program& program, CheckOptions options);
  ~FactChecker() override;

  void afterOp(const BlockExec& x, const Operation& op) override;
  void afterBlockArgs(const BlockExec& x, const Block& block) override;

  // Facts checked so far, by kind (one per fact and op run, whatever the
  // number of elements).
  const FactCounts& counts() const { return counts_; }
  // Every violation counted; the first kMaxKept kept with their message.
  uint64_t violationCount() const { return violationCount_; }
  const std::vector<FactViolation>& violations() const { return violations_; }
  static constexpr size_t kMaxKept = 20;
  // "'assume' at 33:5" when the run broke an assume (nothing is checked
  // after it); empty otherwise.
  const std::string& falseAssume() const { return falseAssume_; }

  // The facts, for tests that inject a wrong one.
  ValueFacts& facts() { return *facts_; }

private:
  const Program& program_;
  CheckOptions options_;  // the facts keep a reference to it
  std::unique_ptr<ValueFacts> facts_;
  SourceText text_;
  FactCounts counts_;
  uint64_t violationCount_ = 0;
  std::vector<FactViolation> violations_;
  std::string falseAssume_;

  void checkValue(const BlockExec& x, ValueId v, const TileFact& f, OpId at, const char* how);
  void checkScalar(const BlockExec& x, ValueId v, const TileFact& f, const Tile& t, OpId at, const char* how);
  void checkStrides(ValueId v, const TileFact& f, const Tile& t, OpId at, const char* how);
  void violation(OpId at, ValueId v, const std::string& what, const char* how);
  std::string placeOf(const Operation& op) const;
};

}  // namespace tilesight::interp
