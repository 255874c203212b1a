// print_layout grid, markdown table, cosize and the JSON facts of a value.
#include "analysis/layout/render.h"

#include <algorithm>
#include <cstdio>

#include "analysis/layout/render_grid.h"

namespace tilesight::layout {

namespace detail {

std::string Grid::note() const {
  if (!truncated()) return {};
  return "truncated: showing " + std::to_string(shownRows) + " of " + std::to_string(rows) + " rows and " +
         std::to_string(shownCols) + " of " + std::to_string(cols) + " columns";
}

Grid gridOf(int64_t rows, int64_t cols, int64_t maxCells) {
  return {rows, cols, std::min(rows, maxCells), std::min(cols, maxCells)};
}

Grid gridOf(const Layout& l, int64_t maxCells) {
  if (rank(l) == 2 && !l.shape.isLeaf()) return gridOf(product(l.shape[0]), product(l.shape[1]), maxCells);
  return gridOf(1, size(l), maxCells);
}

std::pair<IntTuple, IntTuple> axisShapes(const Layout& l) {
  if (rank(l) == 2 && !l.shape.isLeaf()) return {l.shape[0], l.shape[1]};
  return {IntTuple(1), l.shape};
}

std::string axisLabel(int64_t i, const IntTuple& shape) {
  return shape.isLeaf() ? std::to_string(i) : toString(idx2crd(i, shape));
}

bool isLayoutLike(const Value& v) { return v.kind == Value::LayoutValue || v.kind == Value::TvValue; }

std::string cellText(const Value& v, int64_t i) {
  if (v.hasBasis()) return toString(valueCoord(v, i));
  return std::to_string(valueOffset(v, i));
}

}  // namespace detail

namespace {

using detail::Grid;

size_t numDigits(int64_t x) { return std::to_string(x).size(); }

std::string padLeft(const std::string& s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

// The cells shown, as text, and the CuTe cell width (digits of cosize + 2).
struct Cells {
  Grid grid;
  std::vector<std::vector<std::string>> text;  // [row][column]
  size_t width = 0;
};

Cells cellsOf(const Value& v, int64_t maxCells) {
  Cells c{detail::gridOf(v.layout, maxCells), {}, 0};
  if (!v.hasBasis()) c.width = numDigits(cosize(v.layout));
  for (int64_t m = 0; m < c.grid.shownRows; ++m) {
    c.text.emplace_back();
    for (int64_t n = 0; n < c.grid.shownCols; ++n) {
      c.text.back().push_back(detail::cellText(v, c.grid.index(m, n)));
      c.width = std::max(c.width, c.text.back().back().size());
    }
  }
  c.width += 2;
  return c;
}

}  // namespace

// Exactly CuTe's print_layout (reference/layouts.md §3), including the
// trailing space after the last column header.
std::string renderTable(const Value& v) {
  if (!detail::isLayoutLike(v)) return valueText(v) + "\n";
  Cells c = cellsOf(v, kTableMaxCells);
  std::string out = valueText(v) + "\n    ";
  for (int64_t n = 0; n < c.grid.shownCols; ++n) out += "  " + padLeft(std::to_string(n), c.width - 2) + " ";
  out += "\n";
  std::string sep = "    ";
  for (int64_t n = 0; n < c.grid.shownCols; ++n) sep += "+" + std::string(c.width, '-');
  sep += "+\n";
  for (int64_t m = 0; m < c.grid.shownRows; ++m) {
    out += sep + padLeft(std::to_string(m), 2) + "  ";
    for (const std::string& cell : c.text[m]) out += "| " + padLeft(cell, c.width - 2) + " ";
    out += "|\n";
  }
  out += sep;
  if (c.grid.truncated()) out += "(" + c.grid.note() + ")\n";
  return out;
}

// The grid with each axis labelled by its coordinates (hierarchical where a
// mode is nested), for hover.
std::string renderMarkdown(const Value& v) {
  std::string out = "`" + valueText(v) + "`\n";
  if (!detail::isLayoutLike(v)) return out;
  Cells c = cellsOf(v, kTableMaxCells);
  auto [rowShape, colShape] = detail::axisShapes(v.layout);
  out += "\n|   |";
  std::string rule = "|---|";
  for (int64_t n = 0; n < c.grid.shownCols; ++n) {
    out += " " + detail::axisLabel(n, colShape) + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (int64_t m = 0; m < c.grid.shownRows; ++m) {
    out += "| **" + detail::axisLabel(m, rowShape) + "** |";
    for (const std::string& cell : c.text[m]) out += " " + cell + " |";
    out += "\n";
  }
  if (c.grid.truncated()) out += "\n_" + c.grid.note() + "_\n";
  return out;
}

Expected<int64_t> valueCosize(const Value& v) {
  if (v.hasBasis())
    return fail("cosize: a layout with basis strides has no cosize",
                "its offsets are coordinates of shape " + toString(basisCodomain(v.layout, v.basis)));
  if (!v.swizzle) return cosize(v.layout);
  constexpr int64_t kMaxEnumerated = int64_t(1) << 22;
  if (size(v.layout) > kMaxEnumerated)
    return fail("cosize: a swizzled layout is measured by enumeration",
                "size " + std::to_string(size(v.layout)) + " is above 2^22");
  int64_t hi = 0;
  for (int64_t i = 0; i < size(v.layout); ++i) hi = std::max(hi, valueOffset(v, i));
  return hi + 1;
}

LayoutFacts layoutFacts(const Value& v) {
  LayoutFacts f;
  f.layout = valueText(v);
  f.shape = v.layout.shape;
  f.stride = v.layout.stride;
  f.basis = v.basis;
  f.size = size(v.layout);
  f.rank = static_cast<int64_t>(rank(v.layout));
  f.depth = depth(v.layout);
  if (auto c = valueCosize(v); c.ok()) f.cosize = c.value();
  f.properties = valueProperties(v);
  if (f.size <= kFactsMaxOffsets) {
    f.offsets.emplace();
    for (int64_t i = 0; i < f.size; ++i)
      f.offsets->push_back(v.hasBasis() ? valueCoord(v, i) : IntTuple(valueOffset(v, i)));
  }
  if (v.kind == Value::TvValue) f.tiler = v.tvTiler;
  f.note = v.note;
  return f;
}

}  // namespace tilesight::layout
