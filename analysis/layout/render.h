#pragma once
// Pictures and tables of layout values (DESIGN §3): the CuTe print_layout
// grid, a markdown table for hover, an SVG picture, and the facts behind
// `tilesight layout --format=json` (serialized by the caller). Output is
// always bounded: large layouts are truncated with a note saying so.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/layout/value.h"

namespace tilesight::layout {

constexpr int64_t kTableMaxCells = 64;      // rows and columns in table and markdown
constexpr int64_t kSvgMaxCells = 32;        // rows and columns in a picture, by default
constexpr int64_t kPictureMaxCells = 256;   // the most a picture may be asked to draw
constexpr int64_t kFactsMaxOffsets = 65536;  // offsets listed by layoutFacts

// print_layout: rank-2 layouts as rows = mode 0, columns = mode 1; other
// ranks as one row. Integers and tilers print their text.
std::string renderTable(const Value& v);
std::string renderMarkdown(const Value& v);
// What a picture draws: at most maxCells rows and columns; with `banks`,
// plain layouts coloured by the shared-memory bank of each element's 4-byte
// word (elementBytes per element), with the bank conflicts of warps reading
// 32 consecutive indices counted in a note.
struct PictureOptions {
  int64_t maxCells = kSvgMaxCells;
  std::optional<int64_t> banks;
  int64_t elementBytes = 4;
};
// Cells with offsets, axes with each mode's (hierarchical) coordinates, a
// colour legend; TV layouts drawn over their tile, coloured by thread with
// T/V labels; swizzled layouts coloured by the swizzled offset's bits. As SVG,
// or as a TikZ document (CuTe's print_latex).
std::string renderSvg(const Value& v, const PictureOptions& o = {});
std::string renderLatex(const Value& v, const PictureOptions& o = {});
// WCAG contrast of two "#rrggbb" colours; a label's colour on a fill (black
// or white, whichever contrasts more).
double contrastRatio(const std::string& a, const std::string& b);
std::string labelColour(const std::string& fill);

// cosize of a value: C++'s inner-product rule for plain layouts, the
// largest offset + 1 for swizzled ones; a layout with basis strides has none.
Expected<int64_t> valueCosize(const Value& v);

// Everything the JSON format reports about a layout-like value.
struct LayoutFacts {
  std::string layout;  // canonical text
  IntTuple shape, stride;
  std::vector<BasisPath> basis;  // basis strides: `stride` holds the scales (see valueText)
  int64_t size = 0, rank = 0, depth = 0;
  std::optional<int64_t> cosize;   // none with basis strides
  Properties properties;
  std::optional<std::vector<IntTuple>> offsets;  // size <= kFactsMaxOffsets; coordinates with basis strides
  std::optional<IntTuple> tiler;   // TV layouts
  std::string note;
};
LayoutFacts layoutFacts(const Value& v);

}  // namespace tilesight::layout
