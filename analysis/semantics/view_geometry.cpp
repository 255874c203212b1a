#include "analysis/semantics/view_geometry.h"

#include <algorithm>

namespace tilesight::semantics {

namespace {

// Saturating, as the checks' layout arithmetic: a start past int64 is past
// every edge instead of wrapping to a small number.
int64_t saturate(__int128 v) {
  return static_cast<int64_t>(std::clamp<__int128>(v, INT64_MIN, INT64_MAX));
}

}  // namespace

size_t walkedDim(const Type& view, size_t i) {
  if (view.kind == TypeKind::GatherScatterView || view.dimMap.empty()) return i;
  return static_cast<size_t>(view.dimMap[i]);
}

int64_t tileStep(const Type& view, size_t i) {
  if (view.kind == TypeKind::GatherScatterView) return 1;
  return view.kind == TypeKind::StridedView ? view.strides[i] : view.shape[i];
}

int64_t tileStart(int64_t index, int64_t step) { return saturate(__int128(index) * step); }

int64_t indexExtent(int64_t size, int64_t step) {
  // Truncating, as the SIMT lowering prints it: for size >= 0 the ceiling.
  return static_cast<int64_t>((__int128(size) + step - 1) / step);
}

int64_t firstPartialIndex(int64_t size, int64_t tile, int64_t step) {
  // Tile k overhangs when k * step + tile > size.
  int64_t first = size >= tile ? (size - tile) / step + 1 : 0;
  return std::min(first, indexExtent(size, step));
}

int64_t elementsInside(int64_t start, int64_t tile, int64_t size) {
  return std::clamp(size - start, int64_t(0), tile);
}

int64_t overhang(int64_t start, int64_t tile, int64_t size) {
  return std::max<int64_t>(0, saturate(__int128(start) + tile) - size);
}

int64_t elementOffset(const std::vector<int64_t>& coords, const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < coords.size() && d < strides.size(); ++d) offset += coords[d] * strides[d];
  return offset;
}

int64_t lastElement(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  int64_t last = 0;
  for (size_t d = 0; d < shape.size() && d < strides.size(); ++d) last += (shape[d] - 1) * strides[d];
  return last;
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

}  // namespace tilesight::semantics
