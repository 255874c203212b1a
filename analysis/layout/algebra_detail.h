#pragma once
// Helpers shared by the files that implement the layout algebra (algebra.cpp,
// divide_product.cpp, construct.cpp). Not part of the library's API.
#include <string>
#include <vector>

#include "analysis/layout/layout.h"

namespace tilesight::layout::detail {

// Post-conditions are checked at every index up to this many, and at an even
// sample of indices beyond it.
constexpr int64_t kCheckLimit = int64_t{1} << 20;

// The first checked index i of [0, n) where holds(i) is false, or -1.
template <class F>
int64_t firstFailing(int64_t n, F&& holds) {
  int64_t step = n <= kCheckLimit ? 1 : n / kCheckLimit;
  for (int64_t i = 0; i < n; i += step)
    if (!holds(i)) return i;
  return n > 0 && !holds(n - 1) ? n - 1 : -1;
}

// A flat layout from its modes: a single mode is a leaf, no modes is 1:0.
Layout fromModes(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride);

// C++'s complement, checked to be ordered and disjoint from A but not to reach
// the cotarget (the divides and products rely on composition's check instead).
// A shape cotarget, as in logical_divide, sizes the rest mode by the
// mode-by-mode ceil_div of the cotarget by the covered span.
Expected<Layout> complementTo(const Layout& a, const IntTuple& cotarget);

// A by-mode tiler: op(mode of A, tiler entry) for each entry, a `_` entry
// keeping its mode. Modes of A past the tiler are kept or (composition) dropped.
using ModeOp = Expected<Layout> (*)(const Layout& aMode, const Layout& entry);
Expected<Layout> byMode(const std::string& name, const Layout& a, const Tiler& t, bool keepRest, ModeOp op);

// The same error, with where it happened in front of its message.
LayoutError inContext(LayoutError e, const std::string& where);

}  // namespace tilesight::layout::detail
