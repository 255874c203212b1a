#pragma once
// The cell grid shared by the table, markdown and SVG renderers.
#include <cstdint>
#include <string>
#include <utility>

#include "analysis/layout/value.h"

namespace tilesight::layout::detail {

// Rank-2 layouts: rows = size(mode 0), columns = size(mode 1); otherwise one
// row of size(L) cells. Cell (m, n) is the colex index m + rows * n.
struct Grid {
  int64_t rows = 1, cols = 1;
  int64_t shownRows = 1, shownCols = 1;
  int64_t index(int64_t m, int64_t n) const { return m + rows * n; }
  bool truncated() const { return shownRows < rows || shownCols < cols; }
  std::string note() const;  // the truncation note, empty when complete
};
Grid gridOf(int64_t rows, int64_t cols, int64_t maxCells);
Grid gridOf(const Layout& l, int64_t maxCells);

// The shapes along the two axes: modes 0 and 1 of a rank-2 layout, else one
// row along the whole shape.
std::pair<IntTuple, IntTuple> axisShapes(const Layout& l);
// Index i along an axis of that shape: its coordinate, hierarchical where
// the axis is nested ("(1,0)"), else the number.
std::string axisLabel(int64_t i, const IntTuple& shape);

bool isLayoutLike(const Value& v);
// The offset at index i, or the coordinate for identity layouts.
std::string cellText(const Value& v, int64_t i);

}  // namespace tilesight::layout::detail
