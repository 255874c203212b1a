#pragma once
// What is known about integer and pointer values of one program, computed
// in a single forward pass in program order (regions included), one unit (a
// function, or an op outside every function) at a time, and shared by the
// dataflow checks (bounds, overlap, subbyte, races).
//
// Every fact is sound: at run time the value lies in the stated interval and
// has the stated structure. What is not known is said plainly (a bound that is
// not evidence, a stride that is unknown, no pointer root), and a check must
// stay silent on it.
//
// Three kinds of facts:
//  - ScalarFact, for integer scalars (rank-0 tiles) and for integer tiles whose
//    elements are all equal (splats, broadcasts of a scalar): an interval, which
//    of its ends are evidence, where the evidence came from, a divisor, and an
//    affine form over symbols (block ids, loop induction variables, entry
//    arguments, any other opaque integer value).
//  - TileFact, for integer and pointer tiles of any rank: element
//    [e0, e1, ...] = base + sum_k stride_k * e_k, with `base` a ScalarFact and
//    each stride a known integer (0: the tile is broadcast along k) or unknown.
//    Pointer tiles also carry their root (the entry argument, global or alloca
//    they are derived from) and count base and strides in pointee elements.
//  - Provenance, for messages: the op and value a bound rests on.
//
// Branches: inside `if %x < %y` (a cmpi condition) the regions see %x and %y
// narrowed (scalarAt / tileAt), and so the values computed before as an exact
// c0 + k * %x; values defined inside see the narrowed facts.
//
// Loops: the body is analysed once. Induction variables get the loop's bounds;
// iter_values are unknown unless every `continue` passes them on unchanged
// (then they equal their initial value); loop and `if` results are the join of
// what can flow into them. No fixpoint iteration is needed.
//
// Arithmetic is exact in the value's integer width: a result that could wrap
// becomes unknown (unless an overflow flag makes wrapping undefined), never a
// silently wrapped interval.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>

#include "analysis/checks/checks.h"
#include "analysis/checks/views.h"
#include "analysis/ir/ir.h"

namespace tilesight {

// Where a bound came from.
enum class Evidence : uint8_t {
  None,      // nothing: the type's range (or the spec's limit, e.g. grid size < 2^24)
  Constant,  // a static fact: constant, iota, get_index_space_shape, get_tensor_shape, a root's offset 0
  Assume,    // `assume bounded<lo, hi>` (or div_by)
  Loop,      // a `for` induction variable, from its lower and upper bounds
  Grid,      // get_tile_block_id / get_num_tile_blocks (with --grid for the upper end)
  Launch,    // an entry argument the launch gives (--arg)
  Derived,   // arithmetic on facts of the kinds above; `basis` names the leaf
};

// Inclusive, signed, lo <= hi.
struct Interval {
  int64_t lo = 0;
  int64_t hi = 0;
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
  bool single() const { return lo == hi; }
  bool operator==(const Interval&) const = default;
};

// The op (and value) that supplied a bound: the constant, assume, for,
// get_tile_block_id or get_num_tile_blocks op. For Derived facts, the leaf
// whose evidence matters most (assume, loop, grid before constants).
struct Provenance {
  Evidence kind = Evidence::None;
  OpId op = kNoId;
  ValueId value = kNoId;
};

// c0 + sum(coeff * symbol), exact modulo 2^width of the value: two forms that
// differ by a constant d with 0 < |d| < 2^width denote different values.
// `exact` when no step of the computation could wrap: then the form equals the
// value as a mathematical integer (and survives exti).
// Symbols are ValueIds of integer scalars with no smaller form (block ids,
// loop induction variables, entry arguments, loads, ...). A symbol defined in
// a loop body stands for its value in one iteration.
struct Affine {
  int64_t c0 = 0;
  llvm::SmallVector<std::pair<ValueId, int64_t>, 2> terms;  // sorted by ValueId, no zero coefficient
  bool exact = true;

  static constexpr size_t kMaxTerms = 4;  // longer forms are not kept
  bool isConstant() const { return terms.empty(); }
  bool operator==(const Affine&) const = default;
  // this - other, when both have the same terms (then the difference is a constant).
  std::optional<int64_t> minus(const Affine& other) const;

  static Affine constant(int64_t c) {
    Affine a;
    a.c0 = c;
    return a;
  }
};

// "%b - %a", "2*%x + 1": a form over the program's value names (positive
// terms first), for messages.
std::string formText(const Program& p, const Affine& f);

// a + k * b; nullopt when a coefficient overflows or the form grows past
// Affine::kMaxTerms.
std::optional<Affine> addScaled(const Affine& a, const Affine& b, int64_t k);

struct ScalarFact {
  // Sound: every run-time value lies in it (the type's range when nothing is
  // known). Signed interpretation of the value's bits.
  Interval range;
  // Whether each end is evidence rather than a type or spec limit: only those
  // ends may be reported (a block id without --grid is [0, 2^24-2], upper end
  // not evidence).
  bool loKnown = false;
  bool hiKnown = false;
  Evidence evidence = Evidence::None;  // how this fact was obtained
  Provenance basis;                    // what it rests on (the op a note points at)
  // The value is a multiple of `divisor` (0: the value is 0).
  int64_t divisor = 1;
  std::optional<Affine> affine;
  unsigned bits = 0;  // integer width (64 for pointer offsets)
  // The cmpi whose if-branch narrowed this fact (see scalarAt), else kNoId.
  OpId narrowedBy = kNoId;

  bool known() const { return loKnown || hiKnown; }
  // The value, when the fact pins it to one number.
  std::optional<int64_t> exact() const;
};

struct TileFact {
  llvm::ArrayRef<int64_t> shape;  // empty for rank 0; the interned type's shape
  // Element [0, ..., 0]. For pointer tiles: the offset from `root` in pointee
  // elements (64-bit arithmetic).
  ScalarFact base;
  // Per dimension: element e differs from element e - unit_k by stride_k.
  llvm::SmallVector<std::optional<int64_t>, 4> strides;
  bool pointer = false;
  // Pointer tiles: the value every pointer derives from (an entry argument, a
  // get_global or alloca result); kNoId when unknown (int_to_ptr, loads, ...).
  ValueId root = kNoId;
  unsigned elemBits = 0;  // integer width, or the pointee's width in bits
  // Every element lies in it: set for integer tiles whose elements are known
  // although not affine (a constant such as [3, 0, 5, 1]).
  std::optional<Interval> values;

  bool affine() const;   // every stride known
  bool uniform() const;  // every stride known to be 0: all elements equal `base`
  // The interval covering every element (sound; whether its ends are evidence
  // is base.loKnown / base.hiKnown): from base and strides when the strides are
  // known, else `values`.
  std::optional<Interval> range() const;
};

// ceil(n / den), den > 0: what `divi ... rounding<positive_inf>` of a
// scalar n by a positive constant computes (cuTile's ct.cdiv). `num` is n's
// affine form and `bits` its width: a scalar of that width with an equal form
// (exact or not: inexact forms agree modulo 2^bits) is equal to n.
struct CeilDiv {
  Affine num;
  int64_t den = 1;
  unsigned bits = 0;
};

class FactBuilder;

class ValueFacts {
public:
  // Empty tables for `program`: facts are built one unit at a time (build).
  ValueFacts(const Program& program, const CheckOptions& options);
  ~ValueFacts();

  // Builds the facts of the values that `unit` and its nested ops (the ids
  // [unit, end)) define: a function, or an op outside every function. Values
  // of a unit never depend on those of another.
  void build(OpId unit, OpId end);

  // Integer scalars and uniform integer tiles; nullptr for anything else.
  const ScalarFact* scalar(ValueId v) const;
  // Integer and pointer tiles of any rank (rank 0 included); nullptr for
  // anything else (floats, views, tokens, unknown types).
  const TileFact* tile(ValueId v) const;

  // The same, as seen by the op `user`: inside `if %c` where %c = cmpi PRED
  // %x, %y, the then region sees %x and %y narrowed by PRED and the else
  // region by its negation (when both sides are uniform integers). A check
  // should ask these for the operands of the op it checks. user == kNoId: the
  // plain facts.
  const ScalarFact* scalarAt(ValueId v, OpId user) const;
  const TileFact* tileAt(ValueId v, OpId user) const;

  // "[0, 7]", "4", "[0, ?]" (an end that is not evidence shows as ?).
  static std::string rangeText(const ScalarFact& f);
  // The value, its range and where that comes from, for messages:
  //   "%c is the constant 4"
  //   "%a ranges over [0, 7] from assume bounded<0, 7> at line 12"
  //   "%i ranges over [0, 8] from the loop at line 10"
  //   "%bx ranges over [0, 3] from the grid (--grid=4,2,1)"
  //   "%next ranges over [1, 4], derived from %bx, which ranges over [0, 3] from
  //    the grid (--grid=4,2,1)"
  //   "%rows has elements in [0, 70] (the constant at line 5)"
  // ("..., narrowed by the comparison at line 9" inside a branch). Empty when
  // nothing is known. With `user`, the fact as that op sees it (see tileAt).
  std::string describe(ValueId v, OpId user = kNoId) const;
  // The range a note should point at for the fact's evidence (the basis op's
  // name); nullopt when there is none.
  std::optional<Range> evidenceRange(ValueId v, OpId user = kNoId) const;
  // 1-based line of a byte offset in the program's source.
  uint32_t line(uint32_t offset) const;
  // How messages name the place of the op at `offset`: "line N", or what
  // CheckOptions::placeName says.
  std::string place(uint32_t offset) const;

  // The tensor_view under a view (or the tensor_view itself): its shape, a
  // dynamic dim resolved from its make_tensor_view operand when the facts pin
  // it (an --arg, a constant), else kDynamic. Empty for anything else.
  std::vector<int64_t> tensorShape(ValueId view) const;
  // Its strides, resolved the same way (cuTile passes strides it cannot
  // specialise, such as the zeros of a broadcast array, as operands).
  std::vector<int64_t> tensorStrides(ValueId view) const;
  // The value that gives tensor dimension `dim` under a view (or of a
  // tensor_view) when the type leaves it dynamic; kNoId otherwise.
  ValueId tensorDimValue(ValueId view, size_t dim) const;
  // The ceiling division that defines scalar `v`, when it is one; its own
  // affine form is the symbol `v`, so a form over it can be compared with
  // another division of an equal numerator.
  const CeilDiv* ceilDiv(ValueId v) const;
  // The continue, break and yield ops that leave the body of `op` (a for,
  // loop or if of a unit built so far): a continue or break through the ifs
  // around it, a yield of its own regions.
  llvm::ArrayRef<OpId> exitsOf(OpId op) const;
  // The index space of a view value, with those resolved dims (computed once
  // per view).
  const std::optional<views::IndexSpace>& indexSpace(ValueId view) const;

  const Program& program() const { return program_; }
  const CheckOptions& options() const { return options_; }

private:
  friend class FactBuilder;
  const Program& program_;
  std::unique_ptr<FactBuilder> builder_;
  const CheckOptions& options_;
  std::vector<uint32_t> slot_;  // per ValueId: index into facts_, or kNoId
  std::vector<TileFact> facts_;
  // (if op, region index) -> values narrowed there, with their fact in facts_.
  llvm::DenseMap<std::pair<OpId, uint32_t>, llvm::SmallVector<std::pair<ValueId, uint32_t>, 2>> narrowed_;
  llvm::DenseMap<ValueId, CeilDiv> ceilDivs_;
  llvm::DenseMap<OpId, llvm::SmallVector<OpId, 2>> exits_;  // see exitsOf
  mutable std::vector<uint32_t> lineStarts_;  // built on the first line() call
  // Node-based: a reference handed out stays valid as the cache grows.
  mutable std::unordered_map<ValueId, std::optional<views::IndexSpace>> spaces_;

  std::string predicate(ValueId v, OpId user) const;
  std::string predicate(ValueId v, const TileFact& t, OpId user) const;
  // indexSpace without the cache (the builder's, while dims are still pinned).
  std::optional<views::IndexSpace> computeIndexSpace(ValueId view) const;
};

}  // namespace tilesight
