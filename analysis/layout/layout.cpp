// Layout basics: construction, calling, size and cosize, coalesce, filter.
#include "analysis/layout/layout.h"

#include <bit>
#include <cstdlib>

namespace tilesight::layout {

Expected<Layout> makeLayout(const IntTuple& shape, const IntTuple& stride) {
  if (!congruent(shape, stride))
    return fail("shape and stride must be congruent", "shape " + toString(shape) + " and stride " + toString(stride) +
                                                          " have different profiles");
  for (int64_t s : leaves(shape))
    if (s <= 0) return fail("shape entries must be positive", toString(shape) + " has " + std::to_string(s));
  return Layout{shape, stride};
}

Layout compactColMajor(const IntTuple& shape) { return {shape, prefixProduct(shape)}; }

Layout concat(const std::vector<Layout>& modes) {
  std::vector<IntTuple> shape, stride;
  for (const Layout& m : modes) {
    shape.push_back(m.shape);
    stride.push_back(m.stride);
  }
  return {IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride))};
}

Layout mode(const Layout& l, size_t i) { return {l.shape[i], l.stride[i]}; }
size_t rank(const Layout& l) { return l.shape.rank(); }
int depth(const Layout& l) { return layout::depth(l.shape); }
int64_t size(const Layout& l) { return product(l.shape); }

int64_t cosize(const Layout& l) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  int64_t c = 0;
  for (size_t i = 0; i < s.size(); ++i) c = satAdd(c, satMul(s[i] - 1, d[i] == INT64_MIN ? INT64_MAX : std::llabs(d[i])));
  return satAdd(c, 1);
}

static void idx2crdImpl(int64_t& idx, const IntTuple& shape, bool last, std::vector<IntTuple>& out) {
  if (shape.isLeaf()) {
    int64_t s = shape.value();
    out.emplace_back(last ? idx : idx % s);
    idx = last ? 0 : idx / s;
    return;
  }
  std::vector<IntTuple> sub;
  for (size_t i = 0; i < shape.rank(); ++i) idx2crdImpl(idx, shape[i], last && i + 1 == shape.rank(), sub);
  out.push_back(IntTuple::tuple(std::move(sub)));
}

IntTuple idx2crd(int64_t idx, const IntTuple& shape) {
  std::vector<IntTuple> out;
  idx2crdImpl(idx, shape, true, out);
  return out.front();
}

int64_t crd2idx(const IntTuple& c, const IntTuple& s, const IntTuple& d) {
  if (!c.isLeaf()) {
    int64_t r = 0;
    for (size_t i = 0; i < c.rank() && i < s.rank(); ++i) r += crd2idx(c[i], s[i], d[i]);
    return r;
  }
  if (s.isLeaf()) return c.value() * d.value();
  int64_t x = c.value(), r = 0;
  for (size_t i = 0; i + 1 < s.rank(); ++i) {
    int64_t n = product(s[i]);
    r += crd2idx(IntTuple(x % n), s[i], d[i]);
    x /= n;
  }
  return r + crd2idx(IntTuple(x), s[s.rank() - 1], d[s.rank() - 1]);
}

namespace {
// crd2idx of an integer, leaf by leaf: each leaf takes its digit (colex), the
// last leaf what is left; the same as C++'s mode-by-mode recursion, without
// the products of the sub-shapes or a coordinate tuple per level.
void addLeafTerms(const IntTuple& s, const IntTuple& d, int64_t& x, int64_t& r, bool last) {
  if (s.isLeaf()) {
    if (last) {
      r += x * d.value();
    } else {
      r += x % s.value() * d.value();
      x /= s.value();
    }
    return;
  }
  for (size_t i = 0; i < s.rank(); ++i) addLeafTerms(s[i], d[i], x, r, last && i + 1 == s.rank());
}
}  // namespace

int64_t call(const Layout& l, int64_t idx) {
  int64_t r = 0;
  addLeafTerms(l.shape, l.stride, idx, r, true);
  return r;
}

int64_t FlatLayout::divided(int64_t i) const {
  int64_t r = 0;
  for (size_t k = 0; k + 1 < modes_.size(); ++k) {
    r += i % modes_[k].size * modes_[k].stride;
    i /= modes_[k].size;
  }
  return r + i * modes_.back().stride;
}

// Merging and dropping keep the function for negative i too: with
// truncation, i % (a*b) = i % a + a * ((i / a) % b).
FlatLayout::FlatLayout(const Layout& l) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == 1 && k + 1 < s.size()) continue;  // digit 0, and the rest passes on whole
    // (a, da) then (b, a*da) is (a*b):da, for the last mode too: i*da; a
    // last size-1 mode keeps its own stride for the rest
    if (!modes_.empty() && s[k] != 1 && d[k] == modes_.back().size * modes_.back().stride) {
      modes_.back().size *= s[k];
      continue;
    }
    modes_.push_back({s[k], d[k], -1});
  }
  if (modes_.empty()) modes_.push_back({1, 0, -1});
  for (Mode& m : modes_)
    m.shift = m.size > 0 && (m.size & (m.size - 1)) == 0 ? std::countr_zero(static_cast<uint64_t>(m.size)) : -1;
}

// A coordinate is an integer in [0, size) for its (sub)shape, or a tuple of the
// shape's rank whose entries are coordinates of the modes.
static std::optional<std::string> checkCoord(const IntTuple& c, const IntTuple& s, const std::string& where) {
  if (c.isLeaf()) {
    int64_t n = product(s);
    if (c.value() < 0 || c.value() >= n)
      return "coordinate " + std::to_string(c.value()) + " is outside [0, " + std::to_string(n) + ") for " + where +
             " of shape " + toString(s);
    return std::nullopt;
  }
  if (s.isLeaf() || c.rank() != s.rank())
    return "coordinate " + toString(c) + " has rank " + std::to_string(c.rank()) + " but " + where + " of shape " +
           toString(s) + " has rank " + std::to_string(s.rank());
  for (size_t i = 0; i < c.rank(); ++i)
    if (auto e = checkCoord(c[i], s[i], "mode " + std::to_string(i) + " of " + where)) return e;
  return std::nullopt;
}

Expected<int64_t> callCoord(const Layout& l, const IntTuple& coord) {
  if (auto e = checkCoord(coord, l.shape, "the layout")) return fail("coordinate out of range", *e);
  return crd2idx(coord, l.shape, l.stride);
}

std::vector<int64_t> offsets(const Layout& l, int64_t limit) {
  int64_t n = std::min(size(l), limit);
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(n, 0)));
  FlatLayout f(l);
  for (int64_t i = 0; i < n; ++i) out.push_back(f(i));
  return out;
}

Layout flatten(const Layout& l) { return {layout::flatten(l.shape), layout::flatten(l.stride)}; }

Layout coalesce(const Layout& l) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  std::vector<int64_t> rs{1}, rd{0};
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 1) continue;
    if (rs.back() == 1) {
      rs.back() = s[i];
      rd.back() = d[i];
    } else if (rs.back() * rd.back() == d[i]) {
      rs.back() *= s[i];  // s0:d0 ++ s1:s0*d0 -> s0*s1:d0
    } else {
      rs.push_back(s[i]);
      rd.push_back(d[i]);
    }
  }
  if (rs.size() == 1) return {IntTuple(rs[0]), IntTuple(rs[0] == 1 ? 0 : rd[0])};
  std::vector<IntTuple> ss(rs.begin(), rs.end()), dd(rd.begin(), rd.end());
  return {IntTuple::tuple(std::move(ss)), IntTuple::tuple(std::move(dd))};
}

Expected<Layout> coalesce(const Layout& l, const IntTuple& profile) {
  if (profile.isLeaf()) return coalesce(l);
  if (l.shape.isLeaf() || profile.rank() > l.shape.rank())
    return fail("coalesce: the profile must not have more modes than the layout",
                "profile " + toString(profile) + " vs layout " + toString(l));
  std::vector<Layout> modes;
  for (size_t i = 0; i < l.shape.rank(); ++i) {
    Layout m = mode(l, i);
    if (i < profile.rank()) {
      auto c = coalesce(m, profile[i]);
      if (!c) return c.error();
      m = *c;
    }
    modes.push_back(m);
  }
  return concat(modes);
}

Layout filter(const Layout& l) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  std::vector<IntTuple> fs, fd;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != 1 && d[i] != 0) fs.emplace_back(s[i]), fd.emplace_back(d[i]);
  if (fs.empty()) return {IntTuple(1), IntTuple(0)};
  return coalesce(Layout{IntTuple::tuple(std::move(fs)), IntTuple::tuple(std::move(fd))});
}

std::string toString(const Layout& l) { return toString(l.shape) + ":" + toString(l.stride); }

}  // namespace tilesight::layout
