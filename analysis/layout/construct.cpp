// Constructors with CuTe C++ semantics: make_ordered_layout (compact_order),
// recast_layout (upcast/downcast) and make_layout_tv (reference/layouts.md
// §1.10-1.12).
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <tuple>

#include "analysis/layout/algebra_detail.h"

namespace tilesight::layout {

namespace {

// (order, size) of every leaf of the order, the size being the product of the
// sub-shape under it.
void collectOrders(const IntTuple& shape, const IntTuple& order, std::vector<std::pair<int64_t, int64_t>>& out) {
  if (order.isLeaf()) {
    out.emplace_back(order.value(), product(shape));
    return;
  }
  for (size_t i = 0; i < order.rank(); ++i) collectOrders(shape[i], order[i], out);
}

// Each order leaf starts at the product of the sizes with a strictly smaller
// order (so equal orders share a start) and is compact column-major inside.
IntTuple orderedStrides(const IntTuple& shape, const IntTuple& order,
                        const std::vector<std::pair<int64_t, int64_t>>& all) {
  if (order.isLeaf()) {
    int64_t start = 1;
    for (auto [o, n] : all)
      if (o < order.value()) start *= n;
    return prefixProduct(shape, start);
  }
  std::vector<IntTuple> out;
  for (size_t i = 0; i < order.rank(); ++i) out.push_back(orderedStrides(shape[i], order[i], all));
  return IntTuple::tuple(std::move(out));
}

using LeafMap = std::pair<int64_t, int64_t> (*)(int64_t s, int64_t d, int64_t n);

Layout mapLeaves(const Layout& l, int64_t n, LeafMap f) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  for (size_t i = 0; i < s.size(); ++i) std::tie(s[i], d[i]) = f(s[i], d[i], n);
  return {replaceLeaves(l.shape, s), replaceLeaves(l.stride, d)};
}

// upcast<n>: n old elements become one; a unit-stride mode shrinks, other strides divide.
Expected<Layout> upcast(const Layout& l, int64_t n) {
  for (int64_t d : leaves(l.stride))
    if (d != 0 && std::llabs(d) % n != 0 && n % std::llabs(d) != 0)
      return fail("recast_layout: upcast divisibility condition",
                  "stride " + std::to_string(d) + " of " + toString(l) + " and the ratio " + std::to_string(n) +
                      " divide neither way");
  return mapLeaves(l, n, [](int64_t s, int64_t d, int64_t k) -> std::pair<int64_t, int64_t> {
    if (d == 0) return {s, d};
    return {ceilDiv(s, ceilDiv(k, std::llabs(d))), (d < 0 ? -1 : 1) * ceilDiv(std::llabs(d), k)};
  });
}

// downcast<n>: one old element becomes n; a unit-stride mode grows, other strides multiply.
Expected<Layout> downcast(const Layout& l, int64_t n) {
  std::vector<int64_t> d = leaves(l.stride);
  if (std::none_of(d.begin(), d.end(), [](int64_t x) { return std::llabs(x) == 1; }))
    return fail("recast_layout: downcast needs a unit-stride mode", toString(l) + " has none");
  return mapLeaves(l, n, [](int64_t s, int64_t x, int64_t k) -> std::pair<int64_t, int64_t> {
    // Saturated: a result past int64 fails the size limit with its own message.
    if (std::llabs(x) == 1) return {satMul(s, k), x};
    return {s, satMul(x, k)};
  });
}

IntTuple productEach(const IntTuple& shape) {
  if (shape.isLeaf()) return shape;
  std::vector<IntTuple> out;
  for (const IntTuple& e : shape.elems()) out.emplace_back(product(e));
  return IntTuple::tuple(std::move(out));
}

}  // namespace

Expected<Layout> makeOrderedLayout(const IntTuple& shape, const IntTuple& order) {
  if (!weaklyCongruent(order, shape))
    return fail("make_ordered_layout: the order must be weakly congruent to the shape",
                "order " + toString(order) + " vs shape " + toString(shape));
  std::vector<std::pair<int64_t, int64_t>> all;
  collectOrders(shape, order, all);
  return makeLayout(shape, orderedStrides(shape, order, all));
}

// The ratio toBits/fromBits in lowest terms num/den: upcast by num, then downcast by den.
Expected<Layout> recastLayout(const Layout& l, int64_t fromBits, int64_t toBits) {
  if (fromBits <= 0 || toBits <= 0)
    return fail("recast_layout: element widths must be positive",
                "from = " + std::to_string(fromBits) + ", to = " + std::to_string(toBits));
  int64_t g = std::gcd(fromBits, toBits), num = toBits / g, den = fromBits / g;
  Layout r = l;
  if (num != 1) {
    auto u = upcast(r, num);
    if (!u) return u;
    r = *u;
  }
  if (den != 1) return downcast(r, den);
  return r;
}

// tile position -> (thread, value) is raked_product(thr, val); its right
// inverse read through the compact (size(thr), size(val)) layout gives
// (thread, value) -> column-major index in the tile.
Expected<TvLayout> makeLayoutTv(const Layout& thr, const Layout& val) {
  auto mn = rakedProduct(thr, val);
  if (!mn) return detail::inContext(mn.error(), "make_layout_tv");
  auto inv = rightInverse(*mn);
  if (!inv) return detail::inContext(inv.error(), "make_layout_tv");
  if (size(*inv) != size(*mn))
    return fail("make_layout_tv: thr and val must be compact",
                "raked_product(thr, val) = " + toString(*mn) + " is not a bijection onto [0, " +
                    std::to_string(size(*mn)) + "); its right inverse covers only " + std::to_string(size(*inv)));
  IntTuple tvShape = IntTuple::tuple({size(thr), size(val)});
  auto tv = composition(*inv, tilerOf(compactColMajor(tvShape)));
  if (!tv) return detail::inContext(tv.error(), "make_layout_tv");
  return TvLayout{productEach(mn->shape), *tv};
}

Expected<Layout> tileToShape(const Layout& block, const IntTuple& shape, const std::optional<IntTuple>& order) {
  size_t r = shape.rank();
  if (rank(block) > r)
    return fail("tile_to_shape: the block must not have more modes than the target shape",
                "block " + toString(block) + " has rank " + std::to_string(rank(block)) + ", shape " + toString(shape) +
                    " has rank " + std::to_string(r));
  std::vector<Layout> padded;
  std::vector<IntTuple> counts, colex;
  for (size_t i = 0; i < r; ++i) {
    Layout m = i < rank(block) ? (block.shape.isLeaf() ? block : mode(block, i)) : Layout{IntTuple(1), IntTuple(0)};
    int64_t want = product(shape[i]), have = size(m);
    if (want % have != 0)
      return fail("tile_to_shape: each target extent must be a multiple of the block's",
                  "mode " + std::to_string(i) + ": " + std::to_string(want) + " is not a multiple of " +
                      std::to_string(have));
    padded.push_back(m);
    counts.emplace_back(want / have);
    colex.emplace_back(static_cast<int64_t>(i));
  }
  auto grid = makeOrderedLayout(IntTuple::tuple(counts), order.value_or(IntTuple::tuple(colex)));
  if (!grid) return grid.error();
  return blockedProduct(concat(padded), *grid);
}

}  // namespace tilesight::layout
