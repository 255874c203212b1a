// tilus SharedLayout: validation of the mode groups and the conversion of
// row-major modes to CuTe's colexicographic order.
#include "analysis/layout/tilus.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace tilesight::layout {

namespace {

using Mode = std::pair<int64_t, int64_t>;  // (extent, stride)

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

// An argument that is a flat list of integers; a single integer is a list of one.
Expected<std::vector<int64_t>> flatInts(const IntTuple& t, const std::string& what) {
  if (t.isLeaf()) return std::vector<int64_t>{t.value()};
  std::vector<int64_t> out;
  for (const IntTuple& e : t.elems()) {
    if (!e.isLeaf()) return fail("shared: " + what + " must be a flat list of integers", what + " is " + toString(t));
    out.push_back(e.value());
  }
  return out;
}

LayoutError groupError(const std::string& message) {
  return fail("shared: the modes of each dimension must multiply to its extent (consecutive modes, in order)", message);
}

// tilus get_mode_groups: consecutive modes whose product is each dimension's
// extent. A dimension of extent 1 has no modes.
Expected<std::vector<std::vector<size_t>>> modeGroups(const std::vector<int64_t>& shape,
                                                      const std::vector<int64_t>& modes) {
  for (size_t i = 0; i < modes.size(); ++i)
    if (modes[i] <= 1)
      return fail("shared: every mode must be greater than 1",
                  "mode " + std::to_string(i) + " of mode_shape " + listText(modes) + " is " + std::to_string(modes[i]));
  std::vector<std::vector<size_t>> groups;
  size_t next = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 1)
      return fail("shared: dimension extents must be positive",
                  "dimension " + std::to_string(k) + " of shape " + listText(shape) + " is " + std::to_string(shape[k]));
    std::string dim = "dimension " + std::to_string(k) + " (extent " + std::to_string(shape[k]) + ")";
    groups.emplace_back();
    for (int64_t rest = shape[k]; rest > 1; rest /= modes[next++]) {
      if (next == modes.size())
        return groupError(dim + " has " + std::to_string(rest) + " left but mode_shape " + listText(modes) +
                          " has no more modes");
      if (rest % modes[next] != 0)
        return groupError("mode " + std::to_string(next) + " (" + std::to_string(modes[next]) +
                          ") does not divide the remaining " + std::to_string(rest) + " of " + dim);
      groups.back().push_back(next);
    }
  }
  if (next != modes.size())
    return groupError("modes " + std::to_string(next) + ".." + std::to_string(modes.size() - 1) + " of mode_shape " +
                      listText(modes) + " are left over after shape " + listText(shape));
  return groups;
}

// One dimension from its modes, fastest first: 1:0 when it has none, a single
// mode as a leaf, else a tuple.
Layout dimension(const std::vector<Mode>& colex) {
  if (colex.empty()) return {IntTuple(1), IntTuple(0)};
  if (colex.size() == 1) return {IntTuple(colex[0].first), IntTuple(colex[0].second)};
  std::vector<IntTuple> s, d;
  for (const auto& [extent, stride] : colex) s.emplace_back(extent), d.emplace_back(stride);
  return {IntTuple::tuple(std::move(s)), IntTuple::tuple(std::move(d))};
}

// The modes of one dimension of a layout, fastest first, without size-1 modes.
std::vector<Mode> colexModes(const Layout& dim) {
  std::vector<int64_t> s = leaves(dim.shape), d = leaves(dim.stride);
  std::vector<Mode> out;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != 1) out.emplace_back(s[i], d[i]);
  return out;
}

// The tilus swizzle (base, bits, shift); bits = 0 is no swizzle.
Expected<std::optional<Swizzle>> tilusSwizzle(const IntTuple& t) {
  auto v = flatInts(t, "swizzle");
  if (!v) return v.error();
  if (v->size() != 3) return fail("shared: swizzle must be (base, bits, shift)", "got " + toString(t));
  int64_t base = (*v)[0], bits = (*v)[1], shift = (*v)[2];
  if (shift < 0) return fail("shared: the tilus swizzle shift must be non-negative", "got " + toString(t));
  if (bits == 0) return std::optional<Swizzle>{};
  auto sw = makeSwizzle(bits, base, shift);
  if (!sw) return sw.error();
  return std::optional<Swizzle>{*sw};
}

int64_t swizzleBlock(const Swizzle& s) { return int64_t{1} << (s.bits + s.base + std::abs(s.shift)); }

// The swizzle of a composition of a (outer) and b (inner, count size cs), if
// one Sw<...> describes it: Sw(a*cs + y) = a*cs + Sw(y) when cs is a multiple of
// b's swizzle block; Sw_a(x)*cs + y = Sw'(x*cs + y) with the base raised by
// log2(cs) when cs is a power of two and b's offsets lie in [0, cs).
Expected<std::optional<Swizzle>> composedSwizzle(const Value& a, const Value& b, int64_t cs) {
  const char* rule = "shared_compose: the swizzle must stay one Sw<B,M,S> of the composed offset";
  if (a.swizzle && b.swizzle) return fail(rule, "both layouts are swizzled");
  if (b.swizzle) {
    if (cs % swizzleBlock(*b.swizzle) != 0)
      return fail(rule, "the inner count size " + std::to_string(cs) + " is not a multiple of the " +
                            b.swizzle->toString() + " block " + std::to_string(swizzleBlock(*b.swizzle)));
    return b.swizzle;
  }
  if (!a.swizzle) return std::optional<Swizzle>{};
  auto strides = leaves(b.layout.stride);
  bool nonNegative = std::all_of(strides.begin(), strides.end(), [](int64_t d) { return d >= 0; });
  if ((cs & (cs - 1)) != 0 || !nonNegative)
    return fail(rule, "the outer layout is swizzled, so the inner count size " + std::to_string(cs) +
                          " must be a power of two with non-negative strides");
  int log2cs = 0;
  while ((int64_t{1} << log2cs) < cs) ++log2cs;
  auto sw = makeSwizzle(a.swizzle->bits, a.swizzle->base + log2cs, a.swizzle->shift);
  if (!sw) return sw.error();
  return std::optional<Swizzle>{*sw};
}

// The per-dimension modes of a layout: its top-level modes (a leaf is one).
std::vector<Layout> dimensions(const Layout& l) {
  std::vector<Layout> out;
  for (size_t k = 0; k < rank(l); ++k) out.push_back(mode(l, k));
  return out;
}

Expected<Value> compact(const IntTuple& shape, bool rowMajor) {
  auto dims = flatInts(shape, "shape");
  if (!dims) return dims.error();
  size_t n = dims->size();
  std::vector<int64_t> strides(n);
  int64_t acc = 1;
  for (size_t i = 0; i < n; ++i) {
    size_t k = rowMajor ? n - 1 - i : i;
    strides[k] = acc;
    acc *= (*dims)[k];
  }
  std::vector<IntTuple> modes, modeStrides;
  for (size_t k = 0; k < n; ++k)
    if ((*dims)[k] != 1) modes.emplace_back((*dims)[k]), modeStrides.emplace_back(strides[k]);
  return tilusShared(shape, IntTuple::tuple(std::move(modes)), IntTuple::tuple(std::move(modeStrides)));
}

}  // namespace

Expected<Value> tilusShared(const IntTuple& shape, const IntTuple& modeShape, const IntTuple& modeStrides,
                            const std::optional<IntTuple>& swizzle) {
  auto dims = flatInts(shape, "shape");
  auto modes = flatInts(modeShape, "mode_shape");
  auto strides = flatInts(modeStrides, "mode_strides");
  if (!dims) return dims.error();
  if (!modes) return modes.error();
  if (!strides) return strides.error();
  if (dims->empty()) return fail("shared: shape must have at least one dimension");
  if (modes->size() != strides->size())
    return fail("shared: mode_shape and mode_strides must have the same length",
                "mode_shape " + listText(*modes) + " vs mode_strides " + listText(*strides));
  auto groups = modeGroups(*dims, *modes);
  if (!groups) return groups.error();
  std::vector<Layout> cute;
  for (const auto& group : *groups) {
    std::vector<Mode> colex;
    for (auto it = group.rbegin(); it != group.rend(); ++it) colex.emplace_back((*modes)[*it], (*strides)[*it]);
    cute.push_back(dimension(colex));
  }
  Value v = Value::ofLayout(concat(cute));
  if (swizzle) {
    auto sw = tilusSwizzle(*swizzle);
    if (!sw) return sw.error();
    v.swizzle = *sw;
  }
  return v;
}

Expected<Value> tilusSharedRowMajor(const IntTuple& shape) { return compact(shape, true); }
Expected<Value> tilusSharedColumnMajor(const IntTuple& shape) { return compact(shape, false); }

Expected<Value> tilusSharedCompose(const Value& a, const Value& b) {
  for (const Value* v : {&a, &b})
    if (v->kind != Value::LayoutValue || v->hasBasis())
      return fail("shared_compose: both arguments must be shared layouts", "got " + valueText(*v));
  std::vector<Layout> da = dimensions(a.layout), db = dimensions(b.layout);
  if (da.size() != db.size())
    return fail("shared_compose: both layouts must have the same number of dimensions",
                valueText(a) + " has " + std::to_string(da.size()) + ", " + valueText(b) + " has " +
                    std::to_string(db.size()));
  int64_t cs = cosize(b.layout);  // tilus count_size: the span of b's offsets
  auto sw = composedSwizzle(a, b, cs);
  if (!sw) return sw.error();
  std::vector<Layout> cute;
  for (size_t k = 0; k < da.size(); ++k) {
    std::vector<Mode> colex = colexModes(db[k]);  // b's index is the fast part
    for (auto [extent, stride] : colexModes(da[k])) colex.emplace_back(extent, stride * cs);
    cute.push_back(dimension(colex));
  }
  Value v = Value::ofLayout(concat(cute));
  v.swizzle = *sw;
  return v;
}

}  // namespace tilesight::layout
