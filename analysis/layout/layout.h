#pragma once
// CuTe layouts (0-based, colexicographic: mode 0 varies fastest) and the
// functions of DESIGN §4, with CuTe C++ semantics. Operations whose
// preconditions fail return an error naming the rule and the mode; a result
// is never returned unless it meets the operation's post-condition.
//
// Files: layout.cpp (basics: calling, size, coalesce, filter), algebra.cpp
// (composition, complement, inverses), divide_product.cpp, construct.cpp
// (ordered/identity/recast/TV), swizzle.cpp, decide.cpp (injective,
// surjective, bijective with witnesses); swizzled.h and basis.h extend
// composition and the inverses to swizzled layouts and basis strides.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/layout/int_tuple.h"
#include "analysis/layout/result.h"

namespace tilesight::layout {

struct Layout {
  IntTuple shape;
  IntTuple stride;  // congruent to shape
  bool operator==(const Layout& o) const { return shape == o.shape && stride == o.stride; }
};

// --- basics (layout.cpp) -------------------------------------------------------
Expected<Layout> makeLayout(const IntTuple& shape, const IntTuple& stride);  // checks congruence
Layout compactColMajor(const IntTuple& shape);  // `(4,8)` = `(4,8):(1,4)`
Layout concat(const std::vector<Layout>& modes);  // cat(L1, L2, ...): one mode per argument
Layout mode(const Layout& l, size_t i);           // the i-th top-level mode
size_t rank(const Layout& l);
int depth(const Layout& l);
int64_t size(const Layout& l);
int64_t cosize(const Layout& l);  // C++: inner_product(shape - 1, |stride|) + 1
IntTuple idx2crd(int64_t idx, const IntTuple& shape);  // colex; the last mode takes the rest unreduced
int64_t crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);
int64_t call(const Layout& l, int64_t idx);                    // L(i)

// L as a function of non-negative integers, for loops that call it often:
// its leaves in order, adjacent ones that act as one merged and size-1 ones
// (but the last) dropped, so it equals call(L, i) for every i >= 0 (past
// size(L) too); a power-of-two extent shifts and masks. A deep layout such
// as (2,(2,(...))):(1,(2,(...))) becomes one mode.
class FlatLayout {
public:
  explicit FlatLayout(const Layout& l);
  int64_t operator()(int64_t i) const {
    if (i < 0) return divided(i);  // C++'s truncating division, as call()
    int64_t r = 0;
    for (size_t k = 0; k + 1 < modes_.size(); ++k) {
      const Mode& m = modes_[k];
      if (m.shift >= 0) {
        r += (i & (m.size - 1)) * m.stride;
        i >>= m.shift;
      } else {
        r += i % m.size * m.stride;
        i /= m.size;
      }
    }
    return r + i * modes_.back().stride;
  }

private:
  int64_t divided(int64_t i) const;
  struct Mode {
    int64_t size, stride;
    int shift;  // log2(size) when size is a power of two, else -1
  };
  std::vector<Mode> modes_;  // never empty
};
Expected<int64_t> callCoord(const Layout& l, const IntTuple& coord);  // integer, hierarchical or congruent
std::vector<int64_t> offsets(const Layout& l, int64_t limit);  // L(0..min(size,limit)-1)
Layout flatten(const Layout& l);
Layout coalesce(const Layout& l);                                   // same function, fewest modes
Expected<Layout> coalesce(const Layout& l, const IntTuple& profile);  // by-mode
Layout filter(const Layout& l);                                     // drop size-1 and stride-0 modes
std::string toString(const Layout& l);                              // (4,(2,2)):(2,(1,8))

// --- algebra (algebra.cpp) -----------------------------------------------------
// B as a tiler: a layout, a shape (an IntTuple of stride-1 layouts) or a by-mode
// list whose entries are tilers again (`_`, Keep: keep the mode; a by-mode
// entry tiles the sub-modes of its mode, as CuTe's nested tuples).
struct Tiler {
  enum Kind { OneLayout, ByMode, Keep } kind = OneLayout;
  Layout layout;             // OneLayout
  std::vector<Tiler> modes;  // ByMode
};
Tiler tilerOf(const Layout& l);
Tiler tilerOfShape(const IntTuple& shape);  // (3,(2,2)) -> [3:1, [2:1, 2:1]]
std::string toString(const Tiler& t);       // 4:1, [_,[2:1,2:1]]

Expected<Layout> composition(const Layout& a, const Tiler& b);    // R(i) = A(B(i)), checked
Expected<Layout> complement(const Layout& a, int64_t cotarget);    // ordered, disjoint from A
Expected<Layout> complement(const Layout& a, const IntTuple& cotarget);  // a shape, divided as C++ does
Expected<Layout> complement(const Layout& a);                      // cotarget = cosize(filter(a))
Expected<Layout> rightInverse(const Layout& l);                    // L(R(i)) = i, as CuTe C++ 3.9+
Expected<Layout> leftInverse(const Layout& l);                     // R(L(i)) = i

// --- divides and products (divide_product.cpp) ---------------------------------
Expected<Layout> logicalDivide(const Layout& a, const Tiler& b);
Expected<Layout> zippedDivide(const Layout& a, const Tiler& b);
Expected<Layout> tiledDivide(const Layout& a, const Tiler& b);
Expected<Layout> flatDivide(const Layout& a, const Tiler& b);
Expected<Layout> logicalProduct(const Layout& a, const Tiler& b);
Expected<Layout> zippedProduct(const Layout& a, const Tiler& b);
Expected<Layout> tiledProduct(const Layout& a, const Tiler& b);
Expected<Layout> flatProduct(const Layout& a, const Tiler& b);
Expected<Layout> blockedProduct(const Layout& a, const Layout& b);
Expected<Layout> rakedProduct(const Layout& a, const Layout& b);

// --- constructors (construct.cpp) ----------------------------------------------
Expected<Layout> makeOrderedLayout(const IntTuple& shape, const IntTuple& order);
// Repeats `block` over `shape` (blocked_product with an ordered layout of the
// block counts); `order` defaults to column-major.
Expected<Layout> tileToShape(const Layout& block, const IntTuple& shape, const std::optional<IntTuple>& order);
Expected<Layout> recastLayout(const Layout& l, int64_t fromBits, int64_t toBits);
struct TvLayout {
  IntTuple tiler;  // the tile shape (M, N)
  Layout tv;       // (thread, value) -> colex index in the tile
};
Expected<TvLayout> makeLayoutTv(const Layout& thr, const Layout& val);

// --- decisions (decide.cpp) -----------------------------------------------------
struct Collision {
  IntTuple coord1, coord2;  // natural coordinates (congruent to the shape)
  int64_t offset = 0;
};
struct Properties {
  bool injective = false;
  bool surjective = false;  // the image is a whole integer interval
  bool bijective = false;
  std::optional<Collision> collision;  // when not injective
  std::optional<int64_t> gap;          // when not surjective: a missing offset inside the image's span
  int64_t minOffset = 0, maxOffset = 0;
  std::string method;  // how injectivity was decided (for docs and hover)
  // False only for layouts that no exact test reduces and whose exact search
  // would exceed the work budget; `injective` is then unknown (reported false).
  bool decided = true;
  double work = 0;  // what the exact searches cost, in the budget's units
};
// The exact search's work budget, in word operations (or bytes of memory):
// about 2^33 costs seconds, which a command that asks about one layout can
// afford; an editor or a whole-program check asks with the interactive one
// (milliseconds) and reports "undecided" sooner.
constexpr double kWorkUnit = double(1 << 30);  // what `check --layout-budget` counts in
constexpr double kBatchWorkBudget = 8 * kWorkUnit;
constexpr double kInteractiveWorkBudget = 1.6e7;
// What one analysis in the editor may spend on all its decisions together.
constexpr double kInteractiveTotalBudget = 16 * kInteractiveWorkBudget;
Properties decide(const Layout& l, double workBudget = kBatchWorkBudget);

// A budget that many decisions share, so that no input can make them cost
// more than `total` (one file's #layout claims in `check`, one analysis in
// the editor): each decision may spend at most `perDecision` and is charged
// what it spent. Past the total, decisions come back undecided, which every
// user of them treats as "unknown".
class WorkBudget {
public:
  WorkBudget(double perDecision, double total) : perDecision_(perDecision), total_(total) {}
  // What the next decision may spend.
  double next() const { return std::max(0.0, std::min(perDecision_, total_ - spent_)); }
  void charge(const Properties& p) { spent_ += p.work; }
  double spent() const { return spent_; }

private:
  double perDecision_, total_, spent_ = 0;
};

}  // namespace tilesight::layout
