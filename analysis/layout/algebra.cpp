// Composition, complement and the inverses with CuTe C++ semantics
// (reference/layouts.md §1.5-1.7). C++ checks its divisibility conditions only
// where they are cheap and can still return a wrong layout (issue #3177), so
// every result here is also checked against its post-condition.
#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "analysis/layout/algebra_detail.h"

namespace tilesight::layout {

namespace detail {

Layout fromModes(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride) {
  if (shape.empty()) return {IntTuple(1), IntTuple(0)};
  if (shape.size() == 1) return {IntTuple(shape[0]), IntTuple(stride[0])};
  std::vector<IntTuple> s(shape.begin(), shape.end()), d(stride.begin(), stride.end());
  return {IntTuple::tuple(std::move(s)), IntTuple::tuple(std::move(d))};
}

Expected<Layout> byMode(const std::string& name, const Layout& a, const Tiler& t, bool keepRest, ModeOp op) {
  if (t.modes.empty() || t.modes.size() > rank(a))
    return fail(name + ": a by-mode tiler needs between 1 and rank(A) modes",
                "the tiler has " + std::to_string(t.modes.size()) + " modes and A = " + toString(a) + " has rank " +
                    std::to_string(rank(a)));
  std::vector<Layout> parts;
  for (size_t i = 0; i < rank(a); ++i) {
    bool reached = i < t.modes.size();
    if (!reached && !keepRest) continue;
    if (!reached || t.modes[i].kind == Tiler::Keep) {
      parts.push_back(mode(a, i));
      continue;
    }
    const Tiler& entry = t.modes[i];
    auto p = entry.kind == Tiler::ByMode ? byMode(name, mode(a, i), entry, keepRest, op) : op(mode(a, i), entry.layout);
    if (!p) return inContext(p.error(), "mode " + std::to_string(i));
    parts.push_back(*p);
  }
  return concat(parts);
}

LayoutError inContext(LayoutError e, const std::string& where) {
  e.message = "in " + where + (e.message.empty() ? "" : ": " + e.message);
  return e;
}

}  // namespace detail

namespace {

using detail::fromModes;

std::string modeText(int64_t s, int64_t d) { return std::to_string(s) + ":" + std::to_string(d); }

struct Modes {
  std::vector<int64_t> shape, stride;
};

// C++ detail::coalesce_x: the fewest flat modes with the same function on every
// i >= 0, past size(A) too, where the last mode takes the rest of the index.
// Merging runs back to front. A size-1 last mode gets a placeholder size so that
// its stride, which matters outside the domain, survives; composition reads the
// last mode's stride only, never its size.
Modes coalesceX(const Layout& a) {
  std::vector<int64_t> s = leaves(a.shape), d = leaves(a.stride);
  Modes r;
  r.shape.push_back(s.back() == 1 ? 2 : s.back());
  r.stride.push_back(d.back());
  for (size_t k = s.size() - 1; k-- > 0;) {
    if (s[k] == 1) continue;
    if (s[k] * d[k] == r.stride.back()) {
      r.shape.back() *= s[k];
      r.stride.back() = d[k];
    } else {
      r.shape.push_back(s[k]);
      r.stride.push_back(d[k]);
    }
  }
  std::reverse(r.shape.begin(), r.shape.end());
  std::reverse(r.stride.begin(), r.stride.end());
  return r;
}

// A ∘ (s:d) for a coalesced A: divide the stride d out of A's modes, then take
// s elements (C++ composition_impl with its weak divisibility checks).
Expected<Layout> composeMode(const Modes& a, int64_t s, int64_t d) {
  if (d == 0) return Layout{IntTuple(s), IntTuple(0)};
  size_t last = a.shape.size() - 1;
  if (last == 0) return Layout{IntTuple(s), IntTuple(d * a.stride[0])};
  std::vector<int64_t> rs, rd;
  int64_t restShape = s, restStride = d;
  for (size_t i = 0; i < last; ++i) {
    int64_t cs = a.shape[i];
    if (restStride % cs != 0 && restStride >= cs)
      return fail("composition: Stride Divisibility Condition",
                  "B's mode " + modeText(s, d) + " reaches mode " + modeText(cs, a.stride[i]) +
                      " of coalesced A with remaining stride " + std::to_string(restStride) +
                      ", which is neither a multiple of " + std::to_string(cs) + " nor smaller");
    int64_t nextShape = ceilDiv(cs, std::llabs(restStride));
    int64_t nextStride = ceilDiv(std::llabs(restStride), cs) * (restStride < 0 ? -1 : 1);
    if (nextShape != 1 && restShape != 1) {
      int64_t newShape = std::min(nextShape, restShape);
      if (restShape % newShape != 0)
        return fail("composition: Shape Divisibility Condition",
                    "B's mode " + modeText(s, d) + " takes " + std::to_string(newShape) + " elements from mode " +
                        modeText(cs, a.stride[i]) + " of coalesced A, which does not divide the remaining size " +
                        std::to_string(restShape));
      rs.push_back(newShape);
      rd.push_back(restStride * a.stride[i]);
      restShape /= newShape;
    }
    restStride = nextStride;
  }
  if (rs.empty() || restShape != 1) {
    rs.push_back(restShape);
    rd.push_back(restStride * a.stride[last]);
  }
  return fromModes(rs, rd);
}

// Right-distributivity: compose with each mode of B, keeping B's hierarchy.
Expected<Layout> distribute(const Modes& a, const IntTuple& bs, const IntTuple& bd) {
  if (bs.isLeaf()) return composeMode(a, bs.value(), bd.value());
  std::vector<Layout> parts;
  for (size_t i = 0; i < bs.rank(); ++i) {
    auto p = distribute(a, bs[i], bd[i]);
    if (!p) return p;
    parts.push_back(*p);
  }
  return concat(parts);
}

std::optional<LayoutError> checkComposed(const Layout& a, const Layout& b, const Layout& r) {
  const char* rule = "composition: the result breaks R(i) = A(B(i))";
  if (size(r) != size(b))
    return fail(rule, "R = " + toString(r) + " has size " + std::to_string(size(r)) + " but B has size " +
                          std::to_string(size(b)));
  FlatLayout fr(r), fa(a), fb(b);
  int64_t i = detail::firstFailing(size(b), [&](int64_t j) { return fr(j) == fa(fb(j)); });
  if (i < 0) return std::nullopt;
  return fail(rule, "C++'s algorithm gives R = " + toString(r) + ", but R(" + std::to_string(i) +
                        ") = " + std::to_string(call(r, i)) + " while A(B(" + std::to_string(i) + ")) = A(" +
                        std::to_string(call(b, i)) + ") = " + std::to_string(call(a, call(b, i))));
}

Expected<Layout> composeLayouts(const Layout& a, const Layout& b) {
  std::string where = toString(a) + " o " + toString(b);
  auto r = distribute(coalesceX(a), b.shape, b.stride);
  if (!r) return detail::inContext(r.error(), where);
  if (auto e = checkComposed(a, b, *r)) return detail::inContext(*e, where);
  return r;
}

// The size of C++ ceil_div(target, d) for a shape target: each mode is divided
// in turn by what is left of d (mixed radix), so it can exceed ceil(size/d).
int64_t ceilDivSize(const IntTuple& target, int64_t d) {
  if (target.isLeaf()) return ceilDiv(target.value(), d);
  int64_t p = 1;
  for (const IntTuple& e : target.elems()) {
    p *= ceilDivSize(e, d);
    d = ceilDiv(d, product(e));
  }
  return p;
}

// C++ stops when a mode starts inside the span of the mode below it. Say why:
// the two modes collide (a witness), or they only interleave.
LayoutError overlapError(int64_t s1, int64_t d1, int64_t s2, int64_t d2, const Layout& f) {
  std::string modes = "modes " + modeText(s1, d1) + " and " + modeText(s2, d2) + " of filter(A) = " + toString(f);
  int64_t g = std::gcd(d1, d2);
  if (d2 / g < s1 && d1 / g < s2)
    return fail("complement: the input must be injective",
                modes + " collide: coordinate " + std::to_string(d2 / g) + " of the first and " +
                    std::to_string(d1 / g) + " of the second both reach offset " + std::to_string(d1 / g * d2));
  return fail("complement: the input's modes must not interleave",
              modes + ": stride " + std::to_string(d2) + " starts inside the span " + std::to_string(s1 * d1) +
                  " of the mode below it");
}

// R increases with i, and R(i) for i >= 1 is never an offset of A.
std::optional<LayoutError> checkOrderedDisjoint(const Layout& a, const Layout& r) {
  std::vector<int64_t> s = leaves(r.shape), d = leaves(r.stride);
  int64_t span = 0;  // increasing iff every stride exceeds the span of the modes below it
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == 1) continue;
    if (d[k] <= span) return fail("complement: the result must be ordered", "R = " + toString(r));
    span += (s[k] - 1) * d[k];
  }
  Layout f = filter(a);
  if (size(f) > detail::kCheckLimit) return std::nullopt;
  std::vector<int64_t> image = offsets(f, size(f));
  std::sort(image.begin(), image.end());
  FlatLayout fr(r);
  int64_t i = detail::firstFailing(size(r), [&](int64_t j) {
    return j == 0 || !std::binary_search(image.begin(), image.end(), fr(j));
  });
  if (i < 0) return std::nullopt;
  return fail("complement: the result must be disjoint from the input",
              "R = " + toString(r) + " reaches " + std::to_string(call(r, i)) + " at " + std::to_string(i) +
                  ", an offset of A = " + toString(a));
}

// Flat-mode indices sorted by stride in the order CuTe C++ (3.9 and later)
// sorts them: its exchange sort (each place takes every smaller key after it
// in turn) is not stable, and where strides tie the inverses follow the
// mode it puts first: right_inverse((2,3,4,5,2):(1,6,12,1,0)) is 5:24.
std::vector<size_t> byStride(const std::vector<int64_t>& d) {
  std::vector<size_t> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t j = i + 1; j < order.size(); ++j)
      if (d[order[j]] < d[order[i]]) std::swap(order[i], order[j]);
  return order;
}

std::optional<LayoutError> negativeStride(const char* rule, const Layout& l) {
  for (int64_t x : leaves(l.stride))
    if (x < 0) return fail(rule, toString(l) + " has stride " + std::to_string(x));
  return std::nullopt;
}

// The first index whose offset an earlier index already reached, or -1.
std::pair<int64_t, int64_t> firstCollision(const Layout& l) {
  std::vector<std::pair<int64_t, int64_t>> seen;  // (offset, index)
  int64_t n = std::min(size(l), detail::kCheckLimit);
  FlatLayout f(l);
  for (int64_t i = 0; i < n; ++i) seen.emplace_back(f(i), i);
  std::sort(seen.begin(), seen.end());
  for (size_t k = 1; k < seen.size(); ++k)
    if (seen[k].first == seen[k - 1].first) return {seen[k - 1].second, seen[k].second};
  return {-1, -1};
}

}  // namespace

Tiler tilerOf(const Layout& l) {
  Tiler t;
  t.layout = l;
  return t;
}

// A shape is a by-mode tiler at every level, as C++ reads a tuple tiler.
Tiler tilerOfShape(const IntTuple& shape) {
  if (shape.isLeaf()) return tilerOf(compactColMajor(shape));
  Tiler t;
  t.kind = Tiler::ByMode;
  for (const IntTuple& e : shape.elems()) t.modes.push_back(tilerOfShape(e));
  return t;
}

std::string toString(const Tiler& t) {
  switch (t.kind) {
    case Tiler::OneLayout: return toString(t.layout);
    case Tiler::Keep: return "_";
    case Tiler::ByMode: break;
  }
  std::string s = "[";
  for (size_t i = 0; i < t.modes.size(); ++i) s += (i ? "," : "") + toString(t.modes[i]);
  return s + "]";
}

// C++ drops the modes of A that a by-mode tiler does not reach.
Expected<Layout> composition(const Layout& a, const Tiler& b) {
  if (b.kind == Tiler::OneLayout) return composeLayouts(a, b.layout);
  return detail::byMode("composition", a, b, false, composeLayouts);
}

Expected<Layout> detail::complementTo(const Layout& a, const IntTuple& cotarget) {
  if (auto e = negativeStride("complement: strides must be non-negative", a)) return *e;
  Layout f = filter(a);
  std::vector<int64_t> s = leaves(f.shape), d = leaves(f.stride);
  Layout r;
  if (d.size() == 1 && d[0] == 0) {
    r = coalesce(Layout{IntTuple(product(cotarget)), IntTuple(1)});
  } else {
    // Take the modes by increasing stride; each gap below a mode becomes a mode of R.
    std::vector<int64_t> rs, rd{1};
    std::vector<bool> used(s.size(), false);
    size_t prev = 0;
    for (size_t step = 0; step < s.size(); ++step) {
      size_t k = s.size();
      for (size_t j = 0; j < s.size(); ++j)
        if (!used[j] && (k == s.size() || d[j] < d[k])) k = j;
      int64_t gap = d[k] / rd.back();
      if (gap == 0) return overlapError(s[prev], d[prev], s[k], d[k], f);
      rs.push_back(gap);
      rd.push_back(d[k] * s[k]);
      used[k] = true;
      prev = k;
    }
    rs.push_back(ceilDivSize(cotarget, rd.back()));
    r = coalesce(fromModes(rs, rd));
  }
  if (auto e = checkOrderedDisjoint(a, r)) return *e;
  return r;
}

// The public operation also promises to reach the cotarget, which C++'s result
// misses when a stride is not a multiple of the span below it: the gap mode is
// rounded down ((4,5):(1,7) with cotarget 68 gives 2:35, reaching only 67).
// A shape cotarget is divided as C++ divides it (the rule logical_divide uses
// with shape(coalesce(A))), and must be reached as its size.
Expected<Layout> complement(const Layout& a, const IntTuple& cotarget) {
  if (product(cotarget) < 1)
    return fail("complement: the cotarget must be positive", "got " + toString(cotarget));
  auto r = detail::complementTo(a, cotarget);
  if (r && cosize(concat({a, *r})) < product(cotarget))
    return fail("complement: the result must reach the cotarget",
                "C++'s algorithm gives R = " + toString(*r) + ", and cosize(cat(A, R)) = " +
                    std::to_string(cosize(concat({a, *r}))) + " is below " + std::to_string(product(cotarget)));
  return r;
}

Expected<Layout> complement(const Layout& a, int64_t cotarget) { return complement(a, IntTuple(cotarget)); }

Expected<Layout> complement(const Layout& a) { return complement(a, cosize(filter(a))); }

// C++: follow the strides from 1 upwards (stride == the span reached so far),
// skipping modes that do not continue the chain rather than stopping there.
Expected<Layout> rightInverse(const Layout& l) {
  Layout c = coalesce(l);
  std::vector<int64_t> s = leaves(c.shape), d = leaves(c.stride), pre = leaves(prefixProduct(c.shape));
  std::vector<int64_t> rs{1}, rd{0};
  int64_t next = 1;
  for (size_t k : byStride(d)) {
    if (d[k] != next) continue;
    rs.push_back(s[k]);
    rd.push_back(pre[k]);
    next = s[k] * d[k];
  }
  Layout r = coalesce(fromModes(rs, rd));
  FlatLayout fl(l), fr(r);
  int64_t i = detail::firstFailing(size(r), [&](int64_t j) { return fl(fr(j)) == j; });
  if (i >= 0)
    return fail("right_inverse: the result breaks L(R(i)) = i",
                "R = " + toString(r) + " but L(R(" + std::to_string(i) + ")) = " + std::to_string(call(l, call(r, i))));
  return r;
}

namespace {

// R(L(i)) = i wherever L is injective; otherwise the collision is the error.
Expected<Layout> checkedLeftInverse(const Layout& l, const Layout& r) {
  FlatLayout fl(l), fr(r);
  int64_t n = size(l);
  int64_t i = detail::firstFailing(n, [&](int64_t j) {
    int64_t k = fr(fl(j));
    return k == j || (k >= 0 && k < n && fl(k) == fl(j));
  });
  if (i < 0) return r;
  auto [x, y] = firstCollision(l);
  if (x >= 0)
    return fail("left_inverse: the input must be injective",
                "L(" + std::to_string(x) + ") = L(" + std::to_string(y) + ") = " + std::to_string(call(l, x)));
  return fail("left_inverse: the result breaks R(L(i)) = i", "R = " + toString(r) + " but R(L(" + std::to_string(i) +
                                                                  ")) = " + std::to_string(call(r, call(l, i))));
}

Layout negated(const Layout& l) {
  std::vector<int64_t> d = leaves(l.stride);
  for (int64_t& x : d) x = -x;
  return {l.shape, replaceLeaves(l.stride, d)};
}

}  // namespace

// C++'s quasi-inverse: modes by increasing stride, each stride a multiple of
// the size the smaller strides already cover. With negative strides (C++'s
// beta support tests one sign only) L(i) = -L'(i) for L' with the strides
// negated, and R(x) = R'(-x) is R' with its strides negated, because
// truncating division and remainder are odd in x.
Expected<Layout> leftInverse(const Layout& l) {
  std::vector<int64_t> d = leaves(l.stride);
  bool negative = std::any_of(d.begin(), d.end(), [](int64_t x) { return x < 0; });
  if (negative && std::any_of(d.begin(), d.end(), [](int64_t x) { return x > 0; }))
    return fail("left_inverse: the strides must not have both signs", toString(l));
  if (negative) {
    auto r = leftInverse(negated(l));
    if (!r) return r;
    return checkedLeftInverse(l, negated(*r));
  }
  Layout c = coalesce(l);
  std::vector<int64_t> s = leaves(c.shape), cd = leaves(c.stride), pre = leaves(prefixProduct(c.shape));
  std::vector<size_t> order = byStride(cd);
  std::vector<int64_t> rs, rd{0};
  int64_t covered = 1;
  for (size_t k : order) {
    if (cd[k] == 0) continue;
    if (cd[k] % covered != 0)
      return fail("left_inverse: the divisibility condition fails",
                  "stride " + std::to_string(cd[k]) + " of mode " + modeText(s[k], cd[k]) + " of coalesce(L) = " +
                      toString(c) + " is not a multiple of " + std::to_string(covered) +
                      ", the span of the smaller strides");
    rs.push_back(cd[k] / covered);
    rd.push_back(pre[k]);
    covered = cd[k];
  }
  rs.push_back(s[order.back()]);
  return checkedLeftInverse(l, coalesce(fromModes(rs, rd)));
}

}  // namespace tilesight::layout
