// Property tests of the layout algebra against brute force: 10,000 random
// small layouts per operation (fixed seed). Each test also asserts that a fair
// share of the random cases produced a result rather than an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "layout_test_util.h"

namespace tilesight::layout {
namespace {

constexpr int kCases = 10000;

class Gen {
public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int64_t in(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool chance(int percent) { return in(1, 100) <= percent; }

  // Up to maxRank flat modes, sometimes grouped into nested modes.
  Layout layout(int maxRank, int64_t maxShape, int64_t strideLo, int64_t strideHi) {
    std::vector<Layout> modes;
    for (int64_t r = in(1, maxRank); r > 0; --r)
      modes.push_back({IntTuple(in(1, maxShape)), IntTuple(in(strideLo, strideHi))});
    if (modes.size() == 1 && chance(70)) return modes[0];
    if (modes.size() >= 3 && chance(40)) modes = {concat({modes[0], modes[1]}), modes[2]};
    return concat(modes);
  }

  // A compact layout (below) in percent of the cases, else a random one.
  Layout mixed(int percent, int maxRank, int64_t maxShape, int64_t strideLo, int64_t strideHi) {
    return chance(percent) ? compact(maxRank, maxShape) : layout(maxRank, maxShape, strideLo, strideHi);
  }

  // A bijection onto [0, size): a compact layout with its modes in random stride order.
  Layout compact(int maxRank, int64_t maxShape) {
    std::vector<int64_t> s;
    for (int64_t r = in(1, maxRank); r > 0; --r) s.push_back(in(1, maxShape));
    std::vector<size_t> order(s.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    std::vector<int64_t> d(s.size());
    int64_t span = 1;
    for (size_t k : order) d[k] = span, span *= s[k];
    std::vector<IntTuple> ss(s.begin(), s.end()), dd(d.begin(), d.end());
    return {IntTuple::tuple(ss), IntTuple::tuple(dd)};
  }

  // A by-mode tiler over a's first modes; `_` entries sometimes.
  Tiler byModeFor(const Layout& a, int64_t maxShape, int64_t strideHi) {
    Tiler t;
    t.kind = Tiler::ByMode;
    for (size_t i = 0, n = static_cast<size_t>(in(1, static_cast<int64_t>(rank(a)))); i < n; ++i)
      t.modes.push_back(chance(20) ? Tiler{Tiler::Keep, {}, {}} : tilerOf(layout(2, maxShape, 1, strideHi)));
    return t;
  }

private:
  std::mt19937 rng_;
};

std::vector<int64_t> image(const Layout& l) { return offsets(l, size(l)); }

bool injective(const Layout& l) {
  std::vector<int64_t> v = image(l);
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

bool bijectiveOntoRange(const Layout& l) {
  std::vector<int64_t> v = image(l);
  std::sort(v.begin(), v.end());
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// Flat (shape, stride) leaves without size-1 modes, as a sorted multiset.
std::vector<std::pair<int64_t, int64_t>> modeMultiset(const Layout& l) {
  auto m = test::essentialModes(l);
  std::sort(m.begin(), m.end());
  return m;
}

bool hasPrefix(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

TEST(LayoutProperty, CoalesceKeepsTheFunction) {
  Gen g(1);
  for (int n = 0; n < kCases; ++n) {
    Layout l = g.layout(4, 5, -3, 12);
    Layout c = coalesce(l);
    ASSERT_EQ(image(c), image(l)) << toString(l) << " -> " << toString(c);
    ASSERT_LE(depth(c), 1);
    ASSERT_LE(leaves(c.shape).size(), leaves(l.shape).size());
  }
}

// The flattened evaluator the checks loop with is call() everywhere: inside
// and past the domain, at negative indices, with negative strides, size-1
// modes, mergeable neighbours and powers of two; compact layouts (which
// merge into one mode) and deep ones.
TEST(LayoutProperty, FlatLayoutIsCall) {
  Gen g(21);
  for (int n = 0; n < kCases; ++n) {
    Layout l = g.mixed(30, 5, 8, -4, 16);
    if (g.chance(20)) l = concat({l, g.compact(3, 4)});  // nests one level more
    FlatLayout f(l);
    int64_t sz = size(l);
    for (int k = 0; k < 40; ++k) {
      int64_t i = k < 20 ? k * sz / 20 : g.in(-3 * sz, 3 * sz);
      ASSERT_EQ(f(i), call(l, i)) << toString(l) << " at " << i;
    }
    ASSERT_EQ(f(sz - 1), call(l, sz - 1)) << toString(l);
  }
}

TEST(LayoutProperty, CompositionMeetsItsEquationOrErrs) {
  Gen g(2);
  int ok = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.mixed(50, 3, 6, 0, 12);
    Layout b = g.layout(2, 6, 0, 8);
    auto r = composition(a, tilerOf(b));
    if (!r) {
      ASSERT_TRUE(hasPrefix(r.error().rule, "composition:")) << r.error().text();
      continue;
    }
    ++ok;
    ASSERT_EQ(size(*r), size(b));
    for (int64_t i = 0; i < size(b); ++i)
      ASSERT_EQ(call(*r, i), call(a, call(b, i))) << toString(a) << " o " << toString(b) << " at " << i;
  }
  EXPECT_GT(ok, kCases / 2);
}

TEST(LayoutProperty, ByModeCompositionComposesEachModeAndDropsTheRest) {
  Gen g(3);
  int ok = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.mixed(50, 3, 6, 0, 12);
    Tiler t = g.byModeFor(a, 6, 6);
    auto r = composition(a, t);
    if (!r) continue;
    ++ok;
    ASSERT_EQ(rank(*r), t.modes.size());
    for (size_t k = 0; k < t.modes.size(); ++k) {
      Layout ak = mode(a, k), rk = mode(*r, k);
      Layout bk = t.modes[k].kind == Tiler::Keep ? compactColMajor(ak.shape) : t.modes[k].layout;
      for (int64_t i = 0; i < size(bk); ++i) ASSERT_EQ(call(rk, i), call(ak, call(bk, i)));
    }
  }
  EXPECT_GT(ok, kCases / 4);
}

TEST(LayoutProperty, ComplementIsOrderedDisjointAndCovers) {
  Gen g(4);
  int ok = 0, refusedNonInjective = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.mixed(50, 3, 5, 0, 16);
    int64_t cotarget = g.in(1, 2 * cosize(a) + 8);
    auto r = complement(a, cotarget);
    if (!r) {
      if (r.error().rule == "complement: the input must be injective") {
        ASSERT_FALSE(injective(filter(a))) << toString(a);
        ++refusedNonInjective;
      } else {
        ASSERT_TRUE(r.error().rule == "complement: the input's modes must not interleave" ||
                    r.error().rule == "complement: the result must reach the cotarget")
            << r.error().text();
      }
      continue;
    }
    ++ok;
    std::vector<int64_t> img = image(a), ri = image(*r);
    for (size_t i = 1; i < ri.size(); ++i) {
      ASSERT_LT(ri[i - 1], ri[i]) << toString(*r);
      ASSERT_EQ(std::count(img.begin(), img.end(), ri[i]), 0) << toString(a) << " and " << toString(*r);
    }
    Layout joined = concat({filter(a), *r});
    ASSERT_GE(cosize(joined), cotarget);
    ASSERT_TRUE(injective(joined) || !injective(filter(a))) << toString(a) << " and " << toString(*r);
  }
  EXPECT_GT(ok, kCases / 2);
  EXPECT_GT(refusedNonInjective, 100);
}

// pycute stops at the first stride that does not continue the chain; C++ (and
// we) keep scanning, so the result is never smaller.
int64_t stopAtFirstGapSize(const Layout& l) {
  Layout c = coalesce(l);
  std::vector<int64_t> s = leaves(c.shape), d = leaves(c.stride);
  std::vector<size_t> order(s.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return d[x] < d[y]; });
  int64_t next = 1, covered = 1;
  for (size_t k : order) {
    if (d[k] == 0) continue;
    if (d[k] != next) break;
    covered *= s[k];
    next = s[k] * d[k];
  }
  return covered;
}

TEST(LayoutProperty, RightInverseMeetsItsEquationAndIsMaximal) {
  Gen g(5);
  int full = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout l = g.mixed(40, 4, 4, -2, 12);
    auto r = rightInverse(l);
    ASSERT_TRUE(r.ok()) << toString(l) << ": " << r.error().text();
    for (int64_t i = 0; i < size(*r); ++i) ASSERT_EQ(call(l, call(*r, i)), i) << toString(l);
    ASSERT_GE(size(*r), stopAtFirstGapSize(l)) << toString(l);
    if (bijectiveOntoRange(l)) {
      ASSERT_EQ(size(*r), size(l)) << toString(l);
      ++full;
    }
  }
  EXPECT_GT(full, kCases / 4);
}

TEST(LayoutProperty, LeftInverseMeetsItsEquation) {
  Gen g(6);
  int ok = 0, injectiveOk = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout l = g.mixed(40, 3, 5, 0, 16);
    auto r = leftInverse(l);
    if (bijectiveOntoRange(l)) {
      ASSERT_TRUE(r.ok()) << toString(l) << ": " << r.error().text();
    }
    if (!r) {
      const std::string& rule = r.error().rule;
      ASSERT_TRUE(rule == "left_inverse: the divisibility condition fails" ||
                  rule == "left_inverse: the input must be injective")
          << r.error().text();
      if (rule == "left_inverse: the input must be injective") {
        ASSERT_FALSE(injective(l));
      }
      continue;
    }
    ++ok;
    bool inj = injective(l);
    injectiveOk += inj;
    for (int64_t i = 0; i < size(l); ++i) {
      int64_t back = call(*r, call(l, i));
      if (inj)
        ASSERT_EQ(back, i) << toString(l) << " with " << toString(*r);
      else
        ASSERT_EQ(call(l, back), call(l, i)) << toString(l) << " with " << toString(*r);
    }
  }
  EXPECT_GT(ok, kCases / 2);
  EXPECT_GT(injectiveOk, kCases / 4);
}

TEST(LayoutProperty, DividesMatchTheirDefinition) {
  Gen g(7);
  int ok = 0, compared = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.mixed(60, 3, 6, 1, 12);
    Layout b = g.mixed(50, 2, 4, 1, 6);
    auto d = logicalDivide(a, tilerOf(b));
    if (!d) continue;
    ++ok;
    ASSERT_EQ(rank(*d), 2u);
    Layout tile = mode(*d, 0);  // A ∘ B
    for (int64_t i = 0; i < size(b); ++i) ASSERT_EQ(call(tile, i), call(a, call(b, i)));
    // composition(A, make_layout(B, complement(B, size(A)))) agrees wherever both are defined.
    auto c = complement(b, size(a));
    auto e = c ? composition(a, tilerOf(concat({b, *c}))) : Expected<Layout>(c.error());
    if (e) {
      ++compared;
      for (int64_t i = 0, m = std::min(size(*d), size(*e)); i < m; ++i) ASSERT_EQ(call(*d, i), call(*e, i));
    }
    auto z = zippedDivide(a, tilerOf(b)), t = tiledDivide(a, tilerOf(b)), f = flatDivide(a, tilerOf(b));
    ASSERT_TRUE(z && t && f);
    ASSERT_EQ(image(*z), image(*d));
    ASSERT_EQ(leaves(t->shape), leaves(d->shape));
    ASSERT_EQ(leaves(f->stride), leaves(d->stride));
  }
  EXPECT_GT(ok, kCases / 2);
  EXPECT_GT(compared, kCases / 2);
}

TEST(LayoutProperty, ByModeDividesRegroupTheSameModes) {
  Gen g(8);
  int ok = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.mixed(60, 3, 6, 1, 12);
    Tiler t = g.byModeFor(a, 4, 4);
    auto d = logicalDivide(a, t);
    if (!d) continue;
    ASSERT_EQ(rank(*d), rank(a));
    for (size_t k = 0; k < rank(a); ++k) {
      bool tiled = k < t.modes.size() && t.modes[k].kind != Tiler::Keep;
      auto want = tiled ? logicalDivide(mode(a, k), t.modes[k]) : Expected<Layout>(mode(a, k));
      ASSERT_TRUE(want.ok());
      ASSERT_EQ(mode(*d, k), *want);
    }
    auto z = zippedDivide(a, t);
    if (!z) {  // only a `_` entry over a mode that is not (tile, rest) may refuse
      ASSERT_NE(z.error().rule.find("rank-2 mode"), std::string::npos) << z.error().text();
      continue;
    }
    ++ok;
    ASSERT_EQ(rank(*z), 2u);
    ASSERT_EQ(modeMultiset(*z), modeMultiset(*d));
    auto td = tiledDivide(a, t), fd = flatDivide(a, t);
    ASSERT_TRUE(td && fd);
    ASSERT_EQ(leaves(td->stride), leaves(z->stride));
    ASSERT_EQ(leaves(fd->shape), leaves(z->shape));
  }
  EXPECT_GT(ok, kCases / 4);
}

TEST(LayoutProperty, ProductsMatchTheirDefinition) {
  Gen g(9);
  int ok = 0, compactPairs = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.mixed(60, 2, 4, 1, 8);
    Layout b = g.mixed(60, 2, 4, 0, 6);
    auto p = logicalProduct(a, tilerOf(b));
    if (!p) continue;
    ++ok;
    ASSERT_EQ(mode(*p, 0), a);
    auto rest = complement(a, size(a) * cosize(b));
    if (!rest) {  // the product uses C++'s complement even where it falls short of its cotarget
      ASSERT_EQ(rest.error().rule, "complement: the result must reach the cotarget");
      continue;
    }
    Layout tiles = mode(*p, 1);
    for (int64_t i = 0; i < size(b); ++i) ASSERT_EQ(call(tiles, i), call(*rest, call(b, i)));
    if (bijectiveOntoRange(a) && bijectiveOntoRange(b)) {
      ASSERT_TRUE(bijectiveOntoRange(*p)) << toString(a) << " x " << toString(b) << " = " << toString(*p);
      ++compactPairs;
    }
    for (int k = 0; k < 5; ++k) {
      auto q = k == 0   ? zippedProduct(a, tilerOf(b))
               : k == 1 ? tiledProduct(a, tilerOf(b))
               : k == 2 ? flatProduct(a, tilerOf(b))
               : k == 3 ? blockedProduct(a, b)
                        : rakedProduct(a, b);
      if (!q) {  // C++ cannot zip a rank-1 tuple block with a leaf tile layout either
        ASSERT_NE(q.error().rule.find("equal ranks"), std::string::npos) << q.error().text();
        continue;
      }
      ASSERT_EQ(modeMultiset(*q), modeMultiset(*p));
    }
  }
  EXPECT_GT(ok, kCases / 2);
  EXPECT_GT(compactPairs, kCases / 10);
}

}  // namespace
}  // namespace tilesight::layout
