#pragma once
// Critical sections of spin locks, for the race checks across tile blocks.
//
// The memory model (seed 001 §7; reference/tileir.md): a release operation
// synchronizes-with an acquire operation that reads the value it wrote, when
// both scopes cover both tile blocks, and token order within a tile block plus
// synchronizes-with form happens-before. A spin lock uses exactly that: an
// acquiring atomic (a compare-and-swap, or an exchange, retried in a `loop`
// until it takes the lock), the protected accesses ordered after it by
// tokens, then a releasing write to the same address that waits for them. Two
// tile blocks that take the same lock run their critical sections one after
// the other: whichever releases first, its accesses happen before the other's.
//
// An access lies in a critical section (acquire, release) when it waits for
// the acquire through tokens and the release waits for it, and both lock ops
// have scope device or sys and reach the same address. Two accesses in
// different tile blocks are ordered by the lock when their sections' lock
// addresses are equal in those blocks (computed per block, executions.h). What
// this does not prove stays a race: a store the release does not wait for, a
// load that does not wait for the acquire, a relaxed or block-scoped lock op
// (whose pair is race.scope), a lock address no execution fixes.
#include <optional>
#include <vector>

#include <llvm/ADT/DenseMap.h>

#include "analysis/checks/executions.h"
#include "analysis/checks/footprints.h"
#include "analysis/checks/token_graph.h"

namespace tilesight {

class Locks {
public:
  Locks(const Program& program, const TokenGraph& tokens, const Footprints& footprints,
        const Executions& executions);

  // Whether `a` run by tile block `ba` and `b` run by `bb` lie in critical
  // sections of one lock.
  bool ordered(const Access& a, const BlockId& ba, const Access& b, const BlockId& bb) const;

  struct Section {
    const Access* acquire;
    const Access* release;
  };
  // A critical section `x` lies in, if any.
  const Section* sectionOf(const Access& x) const {
    const auto& s = sectionsOf(x, false);
    return s.empty() ? nullptr : &s.front();
  }
  // A section `x` would lie in if its tokens were right and the lock ops had
  // acquire and release semantics with a scope that covers every block: the
  // acquire comes before x in the text and the release after it, but x does
  // not wait for the acquire, or the release does not wait for x, or the lock
  // is taken with a relaxed (or block-scoped) op, or given back with one.
  const Section* brokenSectionOf(const Access& x) const {
    const auto& s = sectionsOf(x, true);
    return s.empty() ? nullptr : &s.front();
  }
  // The acquiring op of a section x lies in whose mask is off in `block`:
  // there the lock is not taken (and the spin loop may leave at once).
  const Access* maskedOff(const Access& x, const BlockId& block) const;
  static bool acquires(const Access& lockOp);
  static bool releases(const Access& lockOp);

private:
  const std::vector<Section>& sectionsOf(const Access& x, bool broken) const;
  std::optional<int64_t> lockOffset(const Access& lock, const BlockId& block) const;
  bool maskedOffIn(const Access& lock, const BlockId& block) const;  // its mask is known false there
  bool spins(OpId op) const;  // inside a `loop`: retried until it succeeds

  const Program& p_;
  const TokenGraph& tokens_;
  const Executions& executions_;
  std::vector<const Access*> takes_, gives_;  // lock-word ops that spin on it, and writes to it
  mutable llvm::DenseMap<std::pair<OpId, unsigned>, std::vector<Section>> sections_;  // (op, broken)
};

}  // namespace tilesight
