#pragma once
// The waits-for relation of the memory model (spec §7.5-7.6) over the token
// def-use of every entry: make_token, join_tokens, the result tokens of memory
// ops, if results (from their yields), for/loop results and iter_values (from
// continue and break), across loop iterations included. Program order and
// data dependencies order nothing: only a token chain does.
//
// Representation. Memory ops are split into chains: an op that consumes the
// result token of the op at the end of a chain extends that chain, so along a
// chain each op waits for the one before it. A token's dependencies are, per
// chain, the positions it waits for (a short sorted vector of spans: a prefix
// of the chain, or after a join of paths, a suffix inside one branch). A token
// iter_value of a loop is a chain of its own (one pseudo position) whose
// meaning is resolved per query: the same iteration, or earlier ones.
//
// Paths. Where control flow joins (if results, loop results) a position
// counts only if every path that can run the op waits for it: a path through
// a terminator the op cannot precede (the op is after it, or in the other
// branch of an if) does not need to.
//
// Bounds. A token that waits for more than kMaxChains chains is taken to order
// everything before it, and loops with more than 64 token iter_values are
// taken to order their iterations: both keep the work linear, and both can
// only hide a race, never invent one. Ops of testing$func bodies are not
// analysed: no grid runs a test function, and NVIDIA's valid tests race there
// on purpose (three unordered stores to one tile in memory_consistency_ops).
#include <cstdint>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

class TokenGraph {
public:
  // The per-op and per-value tables are sized for the whole program; entries
  // are added one at a time, so a check can work on each while its IR is
  // still in cache.
  explicit TokenGraph(const Program& program);

  static constexpr size_t kMaxChains = 64;

  // Builds the relation over entry `fn` (nothing for any other op) and
  // returns its token-ordered memory ops (print_tko included), in program order.
  llvm::ArrayRef<OpId> addFunction(OpId fn);
  // The token an op consumes (its `token = %t` operand) and the one it produces; kNoId when absent.
  ValueId tokenIn(OpId op) const;
  ValueId tokenOut(OpId op) const;

  // The innermost for/loop enclosing `op` (kNoId: none); the loop enclosing a loop.
  OpId loopOf(OpId op) const { return loopOf_[op]; }
  OpId innermostCommonLoop(OpId a, OpId b) const;
  // Whether a and b lie in different branches of one `if`: one run of the
  // enclosing code runs at most one of them.
  bool exclusive(OpId a, OpId b) const;

  // Whether `later` waits for `earlier` whenever both run in the same
  // iterations of every loop enclosing both (`earlier` comes first in the text).
  bool waitsFor(OpId later, OpId earlier) const;
  // Whether, in `loop` (which encloses both), `later` in iteration k waits for
  // `earlier` in iteration k - distance; distance 0 asks for every earlier iteration.
  bool waitsAcross(OpId later, OpId earlier, OpId loop, uint32_t distance) const;

private:
  struct Dep {  // positions lo..hi of a chain
    uint32_t chain;
    uint32_t lo, hi;
  };
  struct DepSet {
    llvm::SmallVector<Dep, 4> deps;  // sorted by chain and position, disjoint
    bool all = false;                // taken to order everything before it
  };
  using Spans = llvm::SmallVector<std::pair<uint32_t, uint32_t>, 2>;
  struct Chain {
    std::vector<OpId> ops;  // empty for the chain of a loop iter_value
    ValueId arg = kNoId;    // the iter_value
    OpId loop = kNoId;      // its loop
    uint32_t argIndex = 0;  // in LoopInfo::args
  };
  struct LoopArg {
    ValueId arg = kNoId;
    uint32_t chain = 0;
    uint32_t slot = 0;  // operand number in continue
    DepSet init;
    DepSet resolved;  // what every iteration's value waits for outside the loop
  };
  struct LoopInfo {
    std::vector<LoopArg> args;  // token iter_values
    std::vector<OpId> continues, breaks;
    size_t firstExtended = 0;  // where the body starts in extended_
  };

  // Building (program order).
  void walkRegion(const Region& r, OpId loop);
  bool alwaysLeaves(OpId id) const;
  bool regionLeaves(const Region& r) const;
  void visit(OpId id, OpId loop);
  void visitMemoryOp(OpId id);
  void noteExit(OpId id, OpKind kind);
  void visitIf(OpId id, OpId loop);
  void visitLoop(OpId id, OpId loop);
  void resolveArgs(OpId loop);
  DepSet outsidePart(const DepSet& s, OpId loop) const;
  DepSet loopResult(OpId loop, const std::vector<OpId>& terminators, uint32_t slot, const DepSet* init) const;
  // `extra`: chains to ask `spans` about besides those the sets name.
  DepSet merge(const std::vector<OpId>& terminators, const std::vector<const DepSet*>& sets,
               llvm::ArrayRef<uint32_t> extra, llvm::function_ref<Spans(size_t, uint32_t)> spans) const;
  void setToken(ValueId v, DepSet s);
  const DepSet& setOf(ValueId v) const;

  // Queries.
  static void join(DepSet& into, const DepSet& from);
  DepSet meet(const DepSet& a, const DepSet& b) const;
  Spans spansOf(const DepSet& s, uint32_t chain) const;
  uint32_t highest(const DepSet& s, uint32_t chain) const;  // kNoId when absent
  bool has(const DepSet& s, uint32_t chain, uint32_t pos) const;
  static Spans normalize(Spans s);
  static Spans intersect(const Spans& a, const Spans& b);
  bool strictlyInside(OpId inner, OpId outer) const;  // loop nesting; outer kNoId: any loop
  bool inside(OpId op, OpId region) const;            // by text range
  bool mayPrecede(OpId a, OpId terminator) const;
  bool leavesAfter(OpId op, OpId loop) const;  // a break out of `loop` follows op in its iteration
  const std::vector<OpId>* blockOf(OpId op) const;
  bool covers(const DepSet& s, OpId a, OpId level) const;
  uint64_t argsAt(const DepSet& s, OpId loop) const;  // bit i: args[i] of `loop`
  bool coversAcross(const DepSet& s, OpId a, OpId loop, uint32_t distance) const;
  uint64_t coveredAtOne(OpId a, OpId loop) const;
  uint64_t step(uint64_t covered, OpId loop) const;
  uint32_t lastBefore(uint32_t chain, OpId region) const;  // last position outside `region`

  const Program& p_;
  std::vector<OpId> memOps_;
  std::vector<OpId> loopOf_;               // per op
  std::vector<uint32_t> regionOf_;         // per op: index of the region of its parent that holds it
  std::vector<uint32_t> chainOf_, posOf_;  // per memory op
  std::vector<Chain> chains_;
  // The chain each memory op extends, in program order: the chains a loop
  // body extends are a slice of it (no scan over every chain per loop).
  std::vector<uint32_t> extended_;
  std::vector<DepSet> sets_;
  std::vector<uint32_t> setOf_;  // per value: index into sets_
  llvm::DenseMap<OpId, LoopInfo> loops_;
  bool dead_ = false;  // walking ops that never run (after an op that always leaves the block)
};

}  // namespace tilesight
