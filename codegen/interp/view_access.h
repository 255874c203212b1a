#pragma once
// Where the elements of one tile of a view lie: the walk that load, store
// and atomic reduction through views share (ops_view.cpp), a contiguous run
// of the tile's last dimension at a time.
#include <cstdint>
#include <functional>
#include <vector>

#include "codegen/interp/values.h"

namespace tilesight::interp {

// One run: tile elements [k, k + count) are tensor elements offset,
// offset + stride, ...; the `pad` elements after them lie outside the tensor.
struct ViewRun {
  int64_t k = 0;
  int64_t offset = 0, stride = 0, count = 0;
  int64_t pad = 0;
};

// The tile of `view` at `index` (one start per view dimension; for a
// gather/scatter view, `rows` holds the sparse dimension's row indices).
// Calls f for every run in tile order.
void forEachRun(const ViewValue& view, const std::vector<int64_t>& index, const std::vector<int64_t>& rows,
                const std::function<void(const ViewRun&)>& f);

// The view's index-space extents (the number of tiles along each dimension).
std::vector<int64_t> indexSpaceShape(const ViewValue& view);
// How many elements the tile at index `idx` along index dimension i reaches
// past the tensor's edge (0: none; a gather/scatter view's rows: 0).
int64_t overhang(const ViewValue& view, size_t i, int64_t idx);

}  // namespace tilesight::interp
