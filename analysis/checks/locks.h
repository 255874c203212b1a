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
//
// A flag hands memory over the same way without a lock (a chained scan's
// "block b waits for block b - 1", a split-K turnstile): a releasing write
// of one element (a post) that waits for accesses of tile block A, and a
// plain acquiring load of that element retried in a `loop` (a wait) that
// accesses of tile block B wait for. A hands over to B when the post in A and
// the wait in B address the same element and the value A writes can end B's
// loop (the loop's `if` on the loaded value that breaks out; a value not
// computed is taken to end it); hand-overs chain through the blocks between
// (a turnstile's split 0 -> 1 -> 2), at most kChain blocks deep, for grids
// of at most Footprints::kMaxBlocks blocks. A compare-and-swap is a lock, not
// a wait: it succeeds on the value it finds at first, which no block wrote.
// Whether the loop could also end on the value memory held at the launch is
// not known; taking it not to can only hide a race, never report one.
#include <map>
#include <optional>
#include <vector>

#include <llvm/ADT/DenseMap.h>

#include "analysis/checks/executions.h"
#include "analysis/checks/footprints.h"
#include "analysis/checks/token_graph.h"

namespace tilesight {

class Locks {
public:
  static constexpr size_t kChain = 64;  // blocks a hand-over chain passes through

  Locks(const Program& program, const TokenGraph& tokens, const Footprints& footprints,
        const Executions& executions, const std::optional<BlockId>& grid);

  // Whether `a` run by tile block `ba` and `b` run by `bb` lie in critical
  // sections of one lock, or a flag hands one's block over to the other's.
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
  // Whether `before` in tile block x happens before `after` in y through flags.
  bool handedOver(const Access& before, const BlockId& x, const Access& after, const BlockId& y) const;
  struct Handover {
    std::vector<const Access*> posts;  // releasing flag writes that wait for the access
    std::vector<const Access*> waits;  // spinning acquiring flag reads the access waits for
  };
  const Handover& handoverOf(const Access& x) const;
  // How a wait's loop ends: it breaks when `loaded pred other` is `breakOn`.
  struct Exit {
    ValueId other = kNoId;
    Predicate pred = Predicate::Equal;
    bool loadedLeft = true, breakOn = true;
  };
  std::optional<Exit> exitOf(const Access& wait) const;
  bool ends(const Access& wait, const BlockId& block, std::optional<int64_t> written) const;
  std::optional<int64_t> written(const Access& post, const BlockId& block) const;
  // The blocks whose wait `w` reads the element of each offset (filled once).
  const std::map<int64_t, std::vector<BlockId>>& waitersOf(const Access& w) const;

  const Program& p_;
  const TokenGraph& tokens_;
  const Executions& executions_;
  std::vector<const Access*> takes_, gives_;  // lock-word ops that spin on it, and writes to it
  std::vector<const Access*> posts_, waits_;  // flag writes that release, flag reads that spin acquiring
  mutable std::map<OpId, Handover> handovers_;
  mutable std::map<OpId, std::map<int64_t, std::vector<BlockId>>> waiters_;
  std::optional<BlockId> grid_;  // node-based: references stay valid as it grows
  mutable llvm::DenseMap<std::pair<OpId, unsigned>, std::vector<Section>> sections_;  // (op, broken)
};

}  // namespace tilesight
