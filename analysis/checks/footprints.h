#pragma once
// Where a memory op reads or writes, for the race checks: the root it reaches
// memory through (an entry argument, a global or an alloca; a view or
// tensor_view argument stands for itself) and, as exactly as the value facts
// allow, which tile of a view it indexes and which elements (a strided box,
// offsets in bits from the root) it touches. Comparisons say whether two
// accesses must, may or cannot touch a common element: in one run of the code
// around them, in different iterations of a loop, and in different tile blocks
// of a known grid.
//
// "Must" is a proof that some element is shared when both run (the same tile
// index, or element boxes that intersect at a constant distance); "No" a proof
// that none is; everything else on the same root is "May". Across tile blocks
// only proofs are returned (May is reported as No there: the grid is checked,
// not guessed), from the executions a launch runs (executions.h: the tile
// blocks and the iterations of loops whose bounds they fix, grid-stride loops
// included), for grids of at most kMaxBlocks blocks and at most kMaxPlaces
// executions per access.
#include <array>
#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include "analysis/checks/executions.h"
#include "analysis/checks/value_facts.h"
#include "analysis/ir/attr_values.h"
#include "analysis/ir/ir.h"

namespace tilesight {

enum class Overlap : uint8_t { No, May, Must };

// Elements base + sum e_k * stride_k for 0 <= e_k < extent_k, each `width`
// bits wide; offsets in bits from the root.
struct Box {
  Affine base;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> dims;  // (extent, stride)
  int64_t width = 0;
  bool exact = true;  // false: a superset of what is touched (a mask, a possibly partial tile)
};

struct Access {
  OpId op = kNoId;
  bool reads = false;
  bool writes = false;
  MemoryOrdering ordering = MemoryOrdering::Weak;
  std::optional<MemoryScope> scope;  // none for weak
  ValueId root = kNoId;
  // View accesses: the view, its source (equal sources tile the same memory
  // the same way) and each index with its form (nullopt: unknown).
  ValueId view = kNoId;
  uint32_t source = kNoId;
  llvm::SmallVector<ValueId, 2> indices;
  llvm::SmallVector<std::optional<Affine>, 2> forms;
  std::optional<Box> box;
  ValueId mask = kNoId;  // a pointer access's mask that the facts do not decide
  // The root is a pointer that int_to_ptr makes (from a loaded list of
  // arrays, say): it may differ between the executions of its definition, so
  // only the same value in one execution is known to be the same memory.
  bool loose = false;

  bool weak() const { return !scope; }
  // Device or system scope: it reaches other tile blocks.
  bool coversBlocks() const { return scope == MemoryScope::Device || scope == MemoryScope::Sys; }
};

class Footprints {
public:
  static constexpr int64_t kMaxBlocks = 4096;
  static constexpr size_t kMaxPlaces = size_t(1) << 16;
  static constexpr int64_t kMaxEnumerated = 4096;  // elements per box compared one by one

  // The accesses of `memoryOps`: the memory ops of one entry (the caches
  // below are kept per entry, so they stay small).
  Footprints(const Program& program, const ValueFacts& facts, const Executions& executions,
             llvm::ArrayRef<OpId> memoryOps, layout::WorkBudget& layoutBudget);

  const std::vector<Access>& accesses() const { return accesses_; }
  // The memory operand(s) of `a` in the text: the view with its index list,
  // or the pointers; empty when absent.
  Range at(const Access& a) const;

  // The access that stands in for `a` in the other arm of the `if` right
  // around both: the same elements (equal view source and index forms, or
  // equal exact boxes), the same kind of access, ordering and scope. Whichever
  // arm runs, one of the two does. nullptr when there is none.
  const Access* twin(const Access& a) const;

  struct Result {
    Overlap kind = Overlap::No;
    std::string where;       // "tile (0, 1) of %pv", "element 3 of %p"
    int64_t distance = 0;    // across iterations: iteration of a minus that of b; 0 for any
    std::string whereOther;  // across iterations: b's tile, when its indices read differently
  };
  // In one run of the code around both (same iterations, same tile block).
  // Without `describe`, only the kind and the distance are computed (no text).
  Result same(const Access& a, const Access& b, bool describe = true) const;
  // In different iterations of `loop`, which holds both.
  Result acrossIterations(const Access& a, const Access& b, OpId loop, bool describe = true) const;
  // In two different tile blocks of the grid (CheckOptions::grid): Must when
  // both certainly run, May when one of them is under a branch whose
  // condition is not known, else No.
  struct BlockResult {
    Overlap kind = Overlap::No;
    std::array<int64_t, 3> blockA{}, blockB{};
    std::string where;
    bool twinA = false, twinB = false;  // a (b) or its twin runs there, whichever arm is taken
    std::string why;  // for May: what is not known (empty: a branch that may not run)
    // For May: the value whose unknown value decides it (a remainder's
    // divisor), when that is what is not known.
    ValueId divisor = kNoId;
  };
  // Pairs of blocks that `ordered` says are ordered (by a lock) are skipped.
  // With `eitherA` (`eitherB`), a (b) counts as run whenever the `if` around
  // it and its twin runs: the caller has checked that the twin is
  // interchangeable with it for the question asked.
  BlockResult acrossBlocks(const Access& a, const Access& b,
                           llvm::function_ref<bool(const BlockId&, const BlockId&)> ordered,
                           bool eitherA = false, bool eitherB = false) const;
  // Whether a's root is the same memory in every iteration of `loop` (a
  // loose root defined inside it may not be).
  bool rootFixedIn(const Access& a, OpId loop) const;
  // How many times `loop` runs its body, when its bounds are constants.
  std::optional<int64_t> tripCount(OpId loop) const;
  // "%p", "@g" (a global), "%pv" (a view argument).
  std::string rootName(ValueId root) const;

private:
  using Block = std::array<int64_t, 3>;
  void addView(Access& a, const Operation& op);
  std::vector<int64_t> sourceKey(const Access& a) const;
  void addPointer(Access& a, const Operation& op, ValueId pointers, ValueId mask);
  std::optional<Box> viewBox(const Access& a, const Type& view, const std::optional<Affine>& base) const;
  // Whether tiles of a's view that differ in some index dimension share no
  // element: the tensor_view, less the dimensions that `fixed` (a mask of
  // index dimensions with one equal coordinate on both sides) pins, is injective.
  bool apart(const Access& a, uint32_t fixed) const;

  Result sameTiles(const Access& a, const Access& b, bool describe) const;
  Result boxes(const Box& a, const Box& b, ValueId root, bool describe) const;
  std::string tileText(const Access& a, const std::vector<std::string>& dims) const;
  std::string elementText(ValueId root, const Affine& base, int64_t bits) const;

  bool varies(ValueId symbol, OpId loop) const;
  ValueId inductionVar(OpId loop) const;
  // Walks the computation of `v` back through at most kMaxNodes values.
  static constexpr int kMaxNodes = 256;
  bool uniform(ValueId v, int& budget) const;
  bool uniform(ValueId v) const {
    int budget = kMaxNodes;
    return uniform(v, budget);
  }

  // Across tile blocks.
  struct Place {  // one execution of an access: its block and the values asked for
    Block block;
    uint8_t axes = 0;  // the block axes enumerated: every block that agrees on them has these values
    bool possible = false;  // under a branch whose condition is not known: it may not run
    bool eitherArm = false;  // it or its twin runs (Execution::eitherArm)
    llvm::SmallVector<std::optional<int64_t>, 4> values;
  };
  struct Reached {
    std::vector<Place> places;
    bool complete = false;
  };
  static bool smallGrid(const CheckOptions& options);
  const Reached& reached(const Access& a, const llvm::SmallVector<ValueId, 4>& of, bool eitherArm) const;
  std::optional<std::pair<Block, Block>> distinctBlocks(
      const Place& a, const Place& b, llvm::function_ref<bool(const Block&, const Block&)> ordered) const;
  BlockResult tilesAcross(const Access& a, const Access& b,
                          llvm::function_ref<bool(const Block&, const Block&)> ordered, bool eitherA,
                          bool eitherB) const;
  BlockResult boxesAcross(const Access& a, const Access& b,
                          llvm::function_ref<bool(const Block&, const Block&)> ordered, bool eitherA,
                          bool eitherB) const;
  bool sameMemoryInEveryBlock(const Access& a) const;
  // One op that computes the same access in two tile blocks: what selects its
  // memory (pointers and mask, or view and indices) follows there from equal
  // values of the scalars in `leaves` (computed per execution), besides
  // entry arguments, constants and memory that no op of the entry writes.
  BlockResult sameAccessAcross(const Access& a, llvm::function_ref<bool(const Block&, const Block&)> ordered,
                               bool eitherA) const;
  // A remainder `remi dividend, divisor` whose divisor no execution fixes
  // although it is the same in both executions (determinedBy without leaves
  // of its own): two executions whose dividends differ by a multiple of the
  // divisor compute the same remainder.
  struct Remainder {
    ValueId rem = kNoId, dividend = kNoId, divisor = kNoId;
  };
  // With `remainder`, the first such remainder met stands for itself: its
  // dividend is not a leaf (the caller compares dividends modulo the divisor).
  bool determinedBy(ValueId v, llvm::SmallVector<ValueId, 4>& leaves, bool& loads, int& budget,
                    Remainder* remainder = nullptr) const;
  static constexpr size_t kRemainderTries = 64;  // divisor values, and places per value, tried
  std::vector<int64_t> divisorValues(const Remainder& rem, OpId at, const std::vector<Place>& places) const;
  bool readOnly(const Access& load) const;
  const Access* accessOf(OpId op) const;
  // Whether different tiles of a's view never share an element.
  bool tilesDisjoint(const Access& a) const;
  bool indicesComputable(const Access& a) const;  // every tile index follows from an execution
  void findTwins();
  void writtenByPick(ValueId root, int depth);
  bool sameElements(const Access& a, const Access& b) const;

  const Program& p_;
  const ValueFacts& facts_;
  const Executions& executions_;
  layout::WorkBudget& layoutBudget_;  // for tensor_view injectivity
  std::vector<Access> accesses_;  // in op order
  bool unknownWrites_ = false;     // some op writes memory reached through an unknown pointer
  bool looseWrites_ = false;       // some op writes through a loose root
  llvm::DenseSet<ValueId> writtenRoots_;  // the roots some access writes
  mutable std::map<std::pair<ValueId, uint32_t>, bool> apart_;
  mutable llvm::DenseMap<ValueId, bool> sameMemory_;  // view -> sameMemoryInEveryBlock
  llvm::DenseMap<OpId, size_t> twins_;  // op -> index of its twin in accesses_
  mutable std::map<std::tuple<OpId, llvm::SmallVector<ValueId, 4>, bool>, Reached> reached_;
};

}  // namespace tilesight
