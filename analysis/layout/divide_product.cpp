// Divides and products (reference/layouts.md §1.8-1.9), built from
// composition and complement with CuTe C++'s regrouping of the modes.
#include <algorithm>

#include "analysis/layout/algebra_detail.h"

namespace tilesight::layout {

namespace {

std::vector<Layout> topModes(const Layout& l) {
  std::vector<Layout> out;
  for (size_t i = 0; i < rank(l); ++i) out.push_back(mode(l, i));
  return out;
}

// C++ slicing with a `_` per sub-mode: a mode of rank >= 2 is replaced by its
// sub-modes, any other mode stays as it is.
void appendUnpacked(const Layout& m, std::vector<Layout>& out) {
  if (m.shape.isLeaf() || m.shape.rank() < 2) {
    out.push_back(m);
    return;
  }
  for (const Layout& x : topModes(m)) out.push_back(x);
}

// The tiled form unpacks mode 1 of a zipped result, the flat form both modes.
Expected<Layout> unpacked(const Expected<Layout>& zipped, bool flat) {
  if (!zipped) return zipped;
  std::vector<Layout> out;
  if (flat)
    appendUnpacked(mode(*zipped, 0), out);
  else
    out.push_back(mode(*zipped, 0));
  appendUnpacked(mode(*zipped, 1), out);
  return concat(out);
}

// Divide by one layout: A ∘ (B, complement(B, shape(coalesce(A)))).
Expected<Layout> divideBy(const Layout& a, const Layout& b) {
  std::string where = "logical_divide(" + toString(a) + ", " + toString(b) + ")";
  auto rest = detail::complementTo(b, coalesce(a).shape);
  if (!rest) return detail::inContext(rest.error(), where);
  auto r = composition(a, tilerOf(concat({b, *rest})));
  if (!r) return detail::inContext(r.error(), where);
  return r;
}

// C++ zip2_by: the (tile, rest) pairs of the tiled modes become
// ((tiles...), (rests..., untouched modes...)), a nested entry's pairs
// gathered the same way inside. A `_` entry's mode must already be such a pair.
Expected<std::pair<Layout, Layout>> zip2By(const Layout& l, const Tiler& t, const char* op) {
  if (t.kind != Tiler::ByMode) {
    if (l.shape.isLeaf() || l.shape.rank() != 2)
      return fail(std::string(op) + ": a `_` tiler entry needs a rank-2 mode (tile, rest)",
                  "the mode is " + toString(l));
    return std::pair(mode(l, 0), mode(l, 1));
  }
  std::vector<Layout> tiles, rests;
  for (size_t i = 0; i < rank(l); ++i) {
    if (i >= t.modes.size()) {
      rests.push_back(mode(l, i));
      continue;
    }
    auto pair = zip2By(mode(l, i), t.modes[i], op);
    if (!pair) return detail::inContext(pair.error(), "mode " + std::to_string(i));
    tiles.push_back(pair->first);
    rests.push_back(pair->second);
  }
  return std::pair(concat(tiles), concat(rests));
}

Expected<Layout> zipByTiler(const Layout& l, const Tiler& t, const char* op) {
  if (t.kind != Tiler::ByMode) return l;
  auto pair = zip2By(l, t, op);
  if (!pair) return pair.error();
  return concat({pair->first, pair->second});
}

// append<R>: pad with 1:0 modes up to rank r (a leaf stays a leaf for r = 1).
Layout padToRank(const Layout& l, size_t r) {
  if (rank(l) >= r) return l;
  std::vector<Layout> modes = topModes(l);
  while (modes.size() < r) modes.push_back(Layout{IntTuple(1), IntTuple(0)});
  return concat(modes);
}

// C++ zip of two layouts: mode-wise pairs when the first is a tuple, else one pair.
Expected<Layout> zipPair(const Layout& x, const Layout& y, const char* op) {
  if (x.shape.isLeaf()) return concat({concat({x, y})});
  if (y.shape.isLeaf() || rank(x) != rank(y))
    return fail(std::string(op) + ": the block and the tiler product must have equal ranks",
                toString(x) + " and " + toString(y));
  std::vector<Layout> pairs;
  for (size_t i = 0; i < rank(x); ++i) pairs.push_back(concat({mode(x, i), mode(y, i)}));
  return concat(pairs);
}

// (A, complement(A, size(A)·cosize(B)) ∘ B): B's copies of A, in B's order.
Expected<Layout> productBy(const Layout& a, const Layout& b) {
  std::string where = "logical_product(" + toString(a) + ", " + toString(b) + ")";
  auto rest = detail::complementTo(a, IntTuple(size(a) * cosize(b)));
  if (!rest) return detail::inContext(rest.error(), where);
  auto tiles = composition(*rest, tilerOf(b));
  if (!tiles) return detail::inContext(tiles.error(), where);
  return concat({a, *tiles});
}

Expected<Layout> rankSensitiveProduct(const Layout& a, const Layout& b, bool raked) {
  const char* op = raked ? "raked_product" : "blocked_product";
  size_t r = std::max(rank(a), rank(b));
  auto p = productBy(padToRank(a, r), padToRank(b, r));
  if (!p) return detail::inContext(p.error(), op);
  Layout block = mode(*p, 0), tiles = mode(*p, 1);
  return raked ? zipPair(tiles, block, op) : zipPair(block, tiles, op);
}

}  // namespace

// A by-mode divide keeps the modes of A that the tiler does not reach.
Expected<Layout> logicalDivide(const Layout& a, const Tiler& b) {
  if (b.kind == Tiler::OneLayout) return divideBy(a, b.layout);
  return detail::byMode("logical_divide", a, b, true, divideBy);
}

Expected<Layout> zippedDivide(const Layout& a, const Tiler& b) {
  auto l = logicalDivide(a, b);
  if (!l) return l;
  return zipByTiler(*l, b, "zipped_divide");
}

Expected<Layout> tiledDivide(const Layout& a, const Tiler& b) { return unpacked(zippedDivide(a, b), false); }

Expected<Layout> flatDivide(const Layout& a, const Tiler& b) { return unpacked(zippedDivide(a, b), true); }

// A by-mode tiler multiplies mode by mode and keeps the modes it does not reach.
Expected<Layout> logicalProduct(const Layout& a, const Tiler& b) {
  if (b.kind == Tiler::OneLayout) return productBy(a, b.layout);
  return detail::byMode("logical_product", a, b, true, productBy);
}

// C++'s zip2_by: a layout leaves the product as it is, a by-mode tiler
// gathers the blocks and the products.
Expected<Layout> zippedProduct(const Layout& a, const Tiler& b) {
  auto l = logicalProduct(a, b);
  if (!l) return l;
  return zipByTiler(*l, b, "zipped_product");
}

Expected<Layout> tiledProduct(const Layout& a, const Tiler& b) { return unpacked(zippedProduct(a, b), false); }

Expected<Layout> flatProduct(const Layout& a, const Tiler& b) { return unpacked(zippedProduct(a, b), true); }

Expected<Layout> blockedProduct(const Layout& a, const Layout& b) { return rankSensitiveProduct(a, b, false); }

Expected<Layout> rakedProduct(const Layout& a, const Layout& b) { return rankSensitiveProduct(a, b, true); }

}  // namespace tilesight::layout
