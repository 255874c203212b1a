// Composition and inverses of swizzled layouts (swizzled.h).
#include "analysis/layout/swizzled.h"

#include <algorithm>

namespace tilesight::layout {

namespace {

// The rewrites are checked point by point up to this many points.
constexpr int64_t kMaxPoints = int64_t{1} << 22;

int64_t apply(const SwizzledLayout& l, int64_t i) {
  int64_t off = call(l.layout, i);
  return l.swizzle ? l.swizzle->apply(off) : off;
}

std::string text(const SwizzledLayout& l) {
  return l.swizzle ? l.swizzle->toString() + " o " + toString(l.layout) : toString(l.layout);
}

// The lowest bit of the B source (Y) and target (Z) bits of Sw<B,M,S>.
int lowY(const Swizzle& s) { return s.base + std::max(0, s.shift); }
int lowZ(const Swizzle& s) { return s.base + std::max(0, -s.shift); }

int log2Exact(int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((int64_t{1} << k) != v) ++k;
  return k;
}

std::optional<LayoutError> tooMany(const std::string& op, int64_t n) {
  if (n <= kMaxPoints) return std::nullopt;
  return fail(op + ": not decided for a swizzled layout of size " + std::to_string(n),
              "the rewrite is checked point by point up to " + std::to_string(kMaxPoints) + " points");
}

// Sw' with A(Sw(p)) = Sw'(A(p)) for every p in `points`; none when Sw moves no
// point. A must send Sw's Y bits and Z bits, one by one, to runs of bits.
Expected<std::optional<Swizzle>> conjugate(const std::string& op, const Layout& a, const Swizzle& sw,
                                           const std::vector<int64_t>& points) {
  if (std::all_of(points.begin(), points.end(), [&](int64_t p) { return sw.apply(p) == p; }))
    return std::optional<Swizzle>{};
  std::string rule = op + ": " + toString(a) + " o " + sw.toString() + " must be a swizzle of " + toString(a);
  int ly = log2Exact(call(a, int64_t{1} << lowY(sw))), lz = log2Exact(call(a, int64_t{1} << lowZ(sw)));
  for (int k = 0; k < sw.bits; ++k) {
    for (auto [from, to] : {std::pair{lowY(sw) + k, ly}, std::pair{lowZ(sw) + k, lz}}) {
      int64_t image = call(a, int64_t{1} << from);
      if (to < 0 || image != int64_t{1} << (to + k))
        return fail(rule, "it maps bit " + std::to_string(from) + " of " + sw.toString() + " (offset " +
                              std::to_string(int64_t{1} << from) + ") to " + std::to_string(image) +
                              (to < 0 ? ", not a power of two" : ", not to bit " + std::to_string(to + k)));
    }
  }
  auto s = makeSwizzle(sw.bits, std::min(ly, lz), ly - lz);
  if (!s) return fail(rule, s.error().text());
  for (int64_t p : points) {
    int64_t lhs = call(a, sw.apply(p)), rhs = s->apply(call(a, p));
    if (lhs != rhs)
      return fail(rule, "at " + std::to_string(p) + ": " + toString(a) + "(" + sw.toString() + "(" + std::to_string(p) +
                            ")) = " + std::to_string(lhs) + " but " + s->toString() + "(" + toString(a) + "(" +
                            std::to_string(p) + ")) = " + std::to_string(rhs));
  }
  return std::optional<Swizzle>(*s);
}

// Outer o inner: a swizzle is an involution, so a repeated one cancels.
Expected<std::optional<Swizzle>> stack(const std::optional<Swizzle>& outer, const std::optional<Swizzle>& inner) {
  if (!outer || !inner) return outer ? outer : inner;
  if (*outer == *inner) return std::optional<Swizzle>{};
  return fail("composition: two different swizzles in a row",
              outer->toString() + " o " + inner->toString() +
                  ": a layout value carries one swizzle (CuTe nests them as ComposedLayouts)");
}

// The offsets of a layout, for the points a rewrite is checked on.
std::vector<int64_t> offsets(const SwizzledLayout& l) {
  std::vector<int64_t> v(static_cast<size_t>(size(l.layout)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = apply(l, static_cast<int64_t>(i));
  return v;
}

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i);
  return v;
}

// R o Sw as Sw' o R, with `post` checked on every point.
template <class Post>
Expected<SwizzledLayout> inverse(const std::string& op, const Layout& r, const Swizzle& sw,
                                 const std::vector<int64_t>& points, Post post) {
  auto conj = conjugate(op, r, sw, points);
  if (!conj) return conj.error();
  SwizzledLayout result{*conj, r};
  if (auto bad = post(result)) return fail(op + ": the post-condition fails for the swizzled layout", *bad);
  return result;
}

}  // namespace

Expected<SwizzledLayout> composition(const SwizzledLayout& a, const SwizzledLayout& b) {
  if (auto e = tooMany("composition", size(b.layout))) return *e;
  auto r = composition(a.layout, tilerOf(b.layout));
  if (!r) return r.error();
  std::optional<Swizzle> conj;
  if (b.swizzle) {
    SwizzledLayout inner{std::nullopt, b.layout};
    auto c = conjugate("composition", a.layout, *b.swizzle, offsets(inner));
    if (!c) return c.error();
    conj = *c;
  }
  auto sw = stack(a.swizzle, conj);
  if (!sw) return sw.error();
  SwizzledLayout result{*sw, *r};
  for (int64_t i = 0; i < size(b.layout); ++i)
    if (apply(result, i) != apply(a, apply(b, i)))
      return fail("composition: the post-condition R(i) = A(B(i)) fails",
                  "at i = " + std::to_string(i) + ": " + text(result) + " gives " + std::to_string(apply(result, i)) +
                      ", A(B(i)) = " + std::to_string(apply(a, apply(b, i))));
  return result;
}

namespace {

// The first i whose R(i) leaves L's domain or breaks L(R(i)) = i, or size(R).
int64_t firstNotInverted(const SwizzledLayout& l, const SwizzledLayout& inv) {
  for (int64_t i = 0; i < size(inv.layout); ++i) {
    int64_t at = apply(inv, i);
    if (at < 0 || at >= size(l.layout) || apply(l, at) != i) return i;
  }
  return size(inv.layout);
}

}  // namespace

Expected<SwizzledLayout> rightInverse(const SwizzledLayout& l) {
  auto r = rightInverse(l.layout);
  if (!r || !l.swizzle) return r ? Expected<SwizzledLayout>(SwizzledLayout{std::nullopt, *r}) : r.error();
  if (auto e = tooMany("right_inverse", size(*r))) return *e;
  // L^-1 o Sw can leave L's domain past some index (the swizzle moves an
  // offset L does not reach): the inverse is its longest prefix that stays.
  Layout inner = *r;
  for (;;) {
    auto conj = conjugate("right_inverse", inner, *l.swizzle, iota(size(inner)));
    if (!conj) return conj.error();
    SwizzledLayout inv{*conj, inner};
    int64_t k = firstNotInverted(l, inv);
    if (k == size(inner)) return inv;
    auto cut = composition(inner, tilerOf(Layout{IntTuple(std::max<int64_t>(k, 1)), IntTuple(1)}));
    if (!cut || k == 0) return fail("right_inverse: the post-condition fails for the swizzled layout",
                                    "at index " + std::to_string(k) + " of " + text(inv));
    inner = *cut;
  }
}

Expected<SwizzledLayout> leftInverse(const SwizzledLayout& l) {
  auto r = leftInverse(l.layout);
  if (!r || !l.swizzle) return r ? Expected<SwizzledLayout>(SwizzledLayout{std::nullopt, *r}) : r.error();
  if (auto e = tooMany("left_inverse", size(l.layout))) return *e;
  return inverse("left_inverse", *r, *l.swizzle, offsets(l), [&](const SwizzledLayout& inv) {
    std::optional<std::string> bad;
    for (int64_t i = 0; i < size(l.layout) && !bad; ++i)
      if (apply(inv, apply(l, i)) != i) bad = "R(L(" + std::to_string(i) + ")) = " + std::to_string(apply(inv, apply(l, i)));
    return bad;
  });
}

}  // namespace tilesight::layout
