// Offsets, canonical text and properties of layout values (value.h).
#include "analysis/layout/value.h"

#include <algorithm>
#include <cstdlib>

namespace tilesight::layout {

namespace {

// Surjectivity of a swizzled layout is computed by enumeration up to this size.
constexpr int64_t kMaxSwizzleEnumeration = int64_t{1} << 22;

// A by-mode tiler as a layout: its modes side by side, `_` as 1:0.
Layout tilerLayout(const Tiler& t) {
  switch (t.kind) {
    case Tiler::OneLayout: return t.layout;
    case Tiler::Keep: return {IntTuple(1), IntTuple(0)};
    case Tiler::ByMode: break;
  }
  std::vector<Layout> modes;
  for (const Tiler& m : t.modes) modes.push_back(tilerLayout(m));
  return concat(modes);
}

// The layout a value stands for: an integer n is the layout n:1, as CuTe
// reads an integer tiler.
Layout layoutOf(const Value& v) {
  switch (v.kind) {
    case Value::Int: return {IntTuple(v.integer), IntTuple(1)};
    case Value::TilerValue: return tilerLayout(v.tiler);
    default: return v.layout;
  }
}

// `(4,(2,2)):(1@0,(1@0@1,1@1@1))`: the scales at the shape's leaves with their paths.
std::string basisStrides(const IntTuple& shape, const std::vector<int64_t>& scales,
                         const std::vector<BasisPath>& paths, size_t& next) {
  if (shape.isLeaf()) {
    size_t k = next++;
    return basisStrideText(scales[k], paths[k]);
  }
  std::string s = "(";
  for (size_t i = 0; i < shape.rank(); ++i) s += (i ? "," : "") + basisStrides(shape[i], scales, paths, next);
  return s + ")";
}

// Sw o L: Sw is a bijection, so injectivity (and a collision) is L's; the image
// is enumerated, or is L's when L covers whole aligned swizzle blocks.
Properties swizzledProperties(const Layout& l, const Swizzle& sw, double workBudget) {
  Properties p = decide(l, workBudget);
  if (p.collision) p.collision->offset = sw.apply(p.collision->offset);
  p.gap.reset();
  int64_t n = size(l);
  int64_t block = int64_t{1} << (sw.bits + sw.base + std::abs(sw.shift));
  if (n <= kMaxSwizzleEnumeration) {
    std::vector<int64_t> image;
    image.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) image.push_back(sw.apply(call(l, i)));
    std::sort(image.begin(), image.end());
    image.erase(std::unique(image.begin(), image.end()), image.end());
    p.minOffset = image.front();
    p.maxOffset = image.back();
    p.surjective = static_cast<int64_t>(image.size()) == p.maxOffset - p.minOffset + 1;
    for (size_t k = 1; k < image.size() && !p.gap; ++k)
      if (image[k] != image[k - 1] + 1) p.gap = image[k - 1] + 1;
    p.method += "; the image of " + sw.toString() + " o L by enumeration of " + std::to_string(n) + " offsets";
  } else if (p.surjective && p.minOffset % block == 0 && (p.maxOffset + 1) % block == 0) {
    p.method += "; " + sw.toString() + " permutes each aligned block of " + std::to_string(block) +
                " offsets, and L's image is whole blocks, so the image is L's";
  } else {
    p.surjective = false;
    p.method += "; surjectivity of " + sw.toString() + " o L not decided: size " + std::to_string(n) +
                " is above the enumeration limit and L's image is not whole aligned blocks of " +
                std::to_string(block);
  }
  p.bijective = p.injective && p.surjective;
  return p;
}

}  // namespace

int64_t valueOffset(const Value& v, int64_t i) {
  if (v.hasBasis()) {
    IntTuple codomain = basisCodomain(v.layout, v.basis);
    return crd2idx(valueCoord(v, i), codomain, compactColMajor(codomain).stride);
  }
  int64_t off = call(layoutOf(v), i);
  return v.swizzle ? v.swizzle->apply(off) : off;
}

IntTuple valueCoord(const Value& v, int64_t i) { return basisCoord(v.layout, v.basis, i); }

std::string valueText(const Value& v) {
  if (v.kind == Value::Int) return std::to_string(v.integer);
  if (v.kind == Value::TilerValue) return toString(v.tiler);
  if (v.hasBasis()) {
    size_t next = 0;
    return toString(v.layout.shape) + ":" + basisStrides(v.layout.shape, leaves(v.layout.stride), v.basis, next);
  }
  std::string text = toString(v.layout);
  return v.swizzle ? v.swizzle->toString() + " o " + text : text;
}

Properties valueProperties(const Value& v, double workBudget) {
  if (v.hasBasis()) return basisProperties(v.layout, v.basis, workBudget);
  if (v.swizzle) return swizzledProperties(layoutOf(v), *v.swizzle, workBudget);
  return decide(layoutOf(v), workBudget);
}

}  // namespace tilesight::layout
