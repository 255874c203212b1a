#pragma once
// A hook into the interpreter's walk, for developer tools that watch every
// value a run computes (the soundness harness of the value facts,
// fact_checker.h). Set LaunchOptions::observer; the run then takes one thread.
#include "analysis/ir/ir.h"

namespace tilesight::interp {

class BlockExec;

class OpObserver {
public:
  virtual ~OpObserver() = default;
  // After `op` ran and set its results (a control op only when its regions
  // fell through or yielded; one that a break, continue or return left sets
  // none). Not called for terminators.
  virtual void afterOp(const BlockExec& x, const Operation& op) = 0;
  // After `block`'s arguments were bound: an entry's, a loop body's at every
  // iteration, a region's of reduce and scan.
  virtual void afterBlockArgs(const BlockExec& x, const Block& block) = 0;
};

}  // namespace tilesight::interp
