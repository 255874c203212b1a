// Exact decisions (injective / surjective / bijective) against the
// counter-examples where naive checks fail, and against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "analysis/layout/layout.h"

namespace tilesight::layout {
namespace {

using T = IntTuple;

Layout L(const T& shape, const T& stride) { return {shape, stride}; }
T tup(std::initializer_list<T> e) { return T::tuple(e); }

struct Truth {
  bool injective, surjective;
  int64_t minOffset, maxOffset;
};

Truth bruteForce(const Layout& l) {
  std::set<int64_t> image;
  for (int64_t i = 0; i < size(l); ++i) image.insert(call(l, i));
  int64_t lo = *image.begin(), hi = *image.rbegin();
  return {static_cast<int64_t>(image.size()) == size(l), hi - lo + 1 == static_cast<int64_t>(image.size()), lo, hi};
}

// Both coordinates are congruent to the shape, differ, and reach the offset.
void expectWitness(const Layout& l, const Properties& p) {
  ASSERT_TRUE(p.collision.has_value()) << toString(l);
  const Collision& c = *p.collision;
  EXPECT_TRUE(congruent(c.coord1, l.shape)) << toString(c.coord1) << " vs " << toString(l);
  EXPECT_TRUE(congruent(c.coord2, l.shape)) << toString(c.coord2) << " vs " << toString(l);
  EXPECT_NE(c.coord1, c.coord2) << toString(l);
  auto a = callCoord(l, c.coord1), b = callCoord(l, c.coord2);
  ASSERT_TRUE(a.ok() && b.ok()) << toString(l);
  EXPECT_EQ(*a, c.offset) << toString(l);
  EXPECT_EQ(*b, c.offset) << toString(l);
}

void expectGap(const Layout& l, const Properties& p) {
  ASSERT_TRUE(p.gap.has_value()) << toString(l);
  EXPECT_GT(*p.gap, p.minOffset);
  EXPECT_LT(*p.gap, p.maxOffset);
  for (int64_t off : offsets(l, size(l))) EXPECT_NE(off, *p.gap) << toString(l);
}

// The counter-examples where naive checks go wrong, with the exact verdicts.
struct Row {
  Layout layout;
  bool injective, surjective;
  std::optional<int64_t> gap;
  int64_t minOffset, maxOffset;
  std::string method;
};

TEST(LayoutDecide, CounterExamplesWhereNaiveChecksFail) {
  const std::vector<Row> rows = {
      // Bijective, though coalescing without sorting keeps two modes.
      {L(tup({2, 4}), tup({4, 1})), true, true, {}, 0, 7, "sorted strides"},
      // Offsets 0, 2, 3, 5: injective, though CuTe's complement calls it non-injective.
      {L(tup({2, 2}), tup({2, 3})), true, false, 1, 0, 5, "superincreasing"},
      // Nine distinct offsets in 0..10, not superincreasing (3 <= 4).
      {L(tup({3, 3}), tup({2, 3})), true, false, 1, 0, 10, "rank-2 gcd rule"},
      // No two disjoint subsets of {3, 5, 6} have the same sum.
      {L(tup({2, 2, 2}), tup({3, 5, 6})), true, false, 1, 0, 14, "bitset over [0, C)"},
      // 1 + 3 = 4, though size 8 <= cosize 9 and no pair of modes collides.
      {L(tup({2, 2, 2}), tup({1, 3, 4})), false, false, 2, 0, 8, "bitset over [0, C)"},
      // Sorted, non-decreasing strides, yet 2 * 1 = 1 * 2.
      {L(tup({4, 2}), tup({1, 2})), false, true, {}, 0, 5, "pair collision"},
      {L(tup({2, 2}), tup({1, 1})), false, true, {}, 0, 2, "pair collision"},
      // A stride-0 mode of size 1 broadcasts nothing.
      {L(tup({1, 4}), tup({0, 1})), true, true, {}, 0, 3, "sorted strides"},
      {L(4, -1), true, true, {}, -3, 0, "sorted strides"},
      // Lanes 16..31 repeat lanes 0..15 (a replicated TV layout).
      {L(tup({tup({16, 2}), 16}), tup({tup({1, 0}), 16})), false, true, {}, 0, 255, "stride 0 (broadcast)"},
      {L(tup({1, 1}), tup({5, 0})), true, true, {}, 0, 0, "sorted strides"},
  };
  for (const Row& r : rows) {
    Properties p = decide(r.layout);
    EXPECT_EQ(p.injective, r.injective) << toString(r.layout);
    EXPECT_EQ(p.surjective, r.surjective) << toString(r.layout);
    EXPECT_EQ(p.bijective, r.injective && r.surjective) << toString(r.layout);
    EXPECT_EQ(p.gap, r.gap) << toString(r.layout);
    EXPECT_EQ(p.minOffset, r.minOffset) << toString(r.layout);
    EXPECT_EQ(p.maxOffset, r.maxOffset) << toString(r.layout);
    EXPECT_EQ(p.method, r.method) << toString(r.layout);
    if (r.injective)
      EXPECT_FALSE(p.collision) << toString(r.layout);
    else
      expectWitness(r.layout, p);
  }
}

struct WitnessRow {
  Layout layout;
  T coord1, coord2;
  int64_t offset;
};

TEST(LayoutDecide, WitnessesAreCoordinatesOfTheOriginalShape) {
  const std::vector<WitnessRow> rows = {
      {L(tup({2, 2, 2}), tup({1, 3, 4})), tup({1, 1, 0}), tup({0, 0, 1}), 4},
      {L(tup({4, 2}), tup({1, 2})), tup({2, 0}), tup({0, 1}), 2},
      {L(tup({tup({16, 2}), 16}), tup({tup({1, 0}), 16})), tup({tup({0, 0}), 0}), tup({tup({0, 1}), 0}), 0},
      // Nested modes keep their nesting in the coordinates.
      {L(tup({tup({2, 2}), 2}), tup({tup({1, 3}), 4})), tup({tup({1, 1}), 0}), tup({tup({0, 0}), 1}), 4},
      // Negative modes are reflected back: x becomes s - 1 - x.
      {L(tup({2, 2, 2}), tup({-1, 3, -4})), tup({0, 1, 1}), tup({1, 0, 0}), -1},
  };
  for (const WitnessRow& r : rows) {
    Properties p = decide(r.layout);
    ASSERT_TRUE(p.collision) << toString(r.layout);
    EXPECT_EQ(p.collision->coord1, r.coord1) << toString(r.layout);
    EXPECT_EQ(p.collision->coord2, r.coord2) << toString(r.layout);
    EXPECT_EQ(p.collision->offset, r.offset) << toString(r.layout);
  }
}

// Layouts that get past the quick tests, with the step that decides each.
struct Case {
  Layout layout;
  bool injective;
  std::string method;
};

TEST(LayoutDecide, ReductionsAndExactSearchDecideTheHardCases) {
  const int64_t big = 1 << 20;
  const std::vector<Case> cases = {
      // Sparse and small: enumerating 8 points beats a bitset of 4000 bits.
      {L(tup({2, 2, 2}), tup({1000, 1001, 1999})), true, "enumeration"},
      {L(tup({2, 2, 2}), tup({1000, 1001, 2001})), false, "enumeration"},
      // 16 coordinates, 14 offsets.
      {L(tup({2, 2, 2, 2}), tup({1, 3, 4, 5})), false, "pigeonhole (size > cosize), bitset over [0, C)"},
      // Strides 3, 5, 6 stay below 16, so the high mode only stacks copies.
      {L(tup({2, 2, 2, big}), tup({3, 5, 6, 16})), true, "block split, bitset over [0, C), superincreasing"},
      {L(tup({2, 2, 2, big}), tup({1, 3, 4, 16})), false, "block split, bitset over [0, C)"},
      // Only one step of the long mode can meet a difference of the others.
      {L(tup({2, 2, 2, big}), tup({3, 5, 6, 13})), true, "mode cap, bitset over [0, C)"},
      {L(tup({2, 2, 2, big}), tup({3, 5, 6, 11})), false, "mode cap, bitset over [0, C)"},
  };
  for (const Case& c : cases) {
    Properties p = decide(c.layout);
    EXPECT_EQ(p.injective, c.injective) << toString(c.layout);
    EXPECT_EQ(p.method, c.method) << toString(c.layout);
    if (!c.injective) expectWitness(c.layout, p);
  }
}

TEST(LayoutDecide, LargeStructuredLayoutsAreDecidedWithoutEnumerating) {
  Properties tv = decide(L(tup({tup({4, 8, 1 << 10}), tup({2, 2, 1 << 14})}),
                           tup({tup({16, 1, 1 << 7}), tup({8, 64, 1 << 17})})));
  EXPECT_TRUE(tv.bijective);
  EXPECT_EQ(tv.method, "sorted strides");
  Properties gaps = decide(L(tup({64, 1 << 24}), tup({1, 80})));
  EXPECT_TRUE(gaps.injective);
  EXPECT_FALSE(gaps.surjective);
  EXPECT_EQ(gaps.gap, 64);
  EXPECT_EQ(gaps.method, "superincreasing");
  Layout pair = L(tup({4, 1 << 28}), tup({3, 2}));
  Properties col = decide(pair);
  EXPECT_FALSE(col.injective);
  EXPECT_EQ(col.method, "pair collision");
  expectWitness(pair, col);
}

// A random layout: rank 1..maxRank, shapes 1..maxShape, strides lo..hi;
// sometimes the last two modes are nested so that witnesses must follow the
// hierarchy.
Layout randomLayout(std::mt19937& rng, int maxRank = 4, int maxShape = 6, int lo = -3, int hi = 12) {
  std::uniform_int_distribution<int> rankD(1, maxRank), shapeD(1, maxShape), strideD(lo, hi), coin(0, 2);
  int r = rankD(rng);
  std::vector<T> s, d;
  for (int i = 0; i < r; ++i) {
    s.emplace_back(shapeD(rng));
    d.emplace_back(strideD(rng));
  }
  if (r >= 3 && coin(rng) == 0) {
    T ns = tup({s[r - 2], s[r - 1]}), nd = tup({d[r - 2], d[r - 1]});
    s.resize(r - 2);
    d.resize(r - 2);
    s.push_back(ns);
    d.push_back(nd);
  }
  if (r == 1) return L(s[0], d[0]);
  return L(T::tuple(s), T::tuple(d));
}

// Checks decide() against brute force; returns how often each verdict came up.
struct Tally {
  int nonInjective = 0, nonSurjective = 0, bijective = 0;
  std::set<std::string> methods;
};

Tally checkAgainstBruteForce(std::mt19937& rng, int count, int maxRank, int maxShape, int lo, int hi) {
  Tally tally;
  for (int iter = 0; iter < count; ++iter) {
    Layout l = randomLayout(rng, maxRank, maxShape, lo, hi);
    Truth t = bruteForce(l);
    Properties p = decide(l);
    EXPECT_EQ(p.injective, t.injective) << toString(l) << " by " << p.method;
    EXPECT_EQ(p.surjective, t.surjective) << toString(l);
    EXPECT_EQ(p.bijective, t.injective && t.surjective) << toString(l);
    EXPECT_EQ(p.minOffset, t.minOffset) << toString(l);
    EXPECT_EQ(p.maxOffset, t.maxOffset) << toString(l);
    if (!p.injective) {
      ++tally.nonInjective;
      expectWitness(l, p);
    } else {
      EXPECT_FALSE(p.collision) << toString(l);
    }
    if (!p.surjective) {
      ++tally.nonSurjective;
      expectGap(l, p);
    }
    tally.bijective += p.bijective;
    tally.methods.insert(p.method);
  }
  return tally;
}

TEST(LayoutDecide, AgreesWithBruteForceOnRandomLayouts) {
  std::mt19937 rng(20240603);
  Tally t = checkAgainstBruteForce(rng, 10000, 4, 6, -3, 12);
  // The sample exercises every verdict and the main tests.
  EXPECT_GT(t.nonInjective, 1000);
  EXPECT_GT(t.nonSurjective, 1000);
  EXPECT_GT(t.bijective, 100);
  for (const char* m : {"sorted strides", "superincreasing", "pair collision", "rank-2 gcd rule",
                        "stride 0 (broadcast)", "bitset over [0, C)"})
    EXPECT_TRUE(t.methods.count(m)) << m;
}

// Wide strides reach the reductions (block split, mode cap) and enumeration.
TEST(LayoutDecide, AgreesWithBruteForceOnWideStrides) {
  std::mt19937 rng(77);
  Tally t = checkAgainstBruteForce(rng, 3000, 5, 5, -400, 400);
  EXPECT_GT(t.nonInjective, 200);
  auto seen = [&](const std::string& part) {
    return std::any_of(t.methods.begin(), t.methods.end(),
                       [&](const std::string& m) { return m.find(part) != std::string::npos; });
  };
  EXPECT_TRUE(seen("block split"));
  EXPECT_TRUE(seen("mode cap"));
  EXPECT_TRUE(seen("enumeration"));
}

// Offsets past 64 bits (a fuzzed tensor_view stride) were summed with signed
// overflow: they are undecided now, never a wrong verdict.
TEST(LayoutDecide, OffsetsBeyond64BitsAreUndecided) {
  Properties p = decide(L(tup({4, 4}), tup({int64_t{1} << 62, 1})));
  EXPECT_FALSE(p.decided);
  EXPECT_EQ(p.method, "offsets beyond 64 bits");
  Properties fine = decide(L(tup({4, 4}), tup({4, 1})));
  EXPECT_TRUE(fine.decided && fine.bijective);
}

}  // namespace
}  // namespace tilesight::layout
