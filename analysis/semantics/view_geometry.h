#pragma once
// View geometry on concrete integers, the one definition: which tensor
// dimension a view's index walks, where its tiles start, how many there are,
// how much of an edge tile lies inside the tensor, and where an element lies.
// The interpreter, the runtime and the SIMT lowering compute with it; the
// checks' index spaces (checks/views.cpp) and footprints build their
// abstract facts from it. Rules: cuda-tile 13.3 Types.td (partition_view,
// strided_view) and seed 001 §5.6.1 (gather_scatter_view).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/ir/types.h"

namespace tilesight::semantics {

// The tensor_view dimension that index (and tile) dimension i of `view`
// walks: dim_map[i] for partition and strided views, i for a gather/scatter
// view (and for a view whose dim_map is not written).
size_t walkedDim(const Type& view, size_t i);

// The distance, in elements, between the starts of consecutive tiles along
// index dimension i: the tile size (partition_view), the traversal stride
// (strided_view), 1 (gather/scatter_view: its indices are element offsets,
// so its index space is the tensor's shape).
int64_t tileStep(const Type& view, size_t i);

// Where tile `index` starts along its tensor dimension: index * step
// (saturating, so that a start past int64 stays past every edge).
int64_t tileStart(int64_t index, int64_t step);

// The number of indices along a tensor dimension of `size` elements (size
// >= 0) whose tiles start every `step` (> 0) elements: an index is valid
// while its tile starts inside the tensor, so ceildiv(size, step).
int64_t indexExtent(int64_t size, int64_t step);

// The first index whose tile of `tile` elements overhangs the edge (every
// later one does too); indexExtent when none does.
int64_t firstPartialIndex(int64_t size, int64_t tile, int64_t step);

// Of a tile of `tile` elements starting at `start`, how many lie inside a
// dimension of `size` elements (start >= 0): min(tile, size - start), 0 past
// the edge. The rest are masked (loads read the view's padding value).
int64_t elementsInside(int64_t start, int64_t tile, int64_t size);

// How many elements of that tile lie past the edge (0 when none; saturating).
int64_t overhang(int64_t start, int64_t tile, int64_t size);

// The element offset of coordinates `coords` in a tensor of `strides`:
// the sum of coordinate * stride.
int64_t elementOffset(const std::vector<int64_t>& coords, const std::vector<int64_t>& strides);

// The farthest element a tensor of `shape` and `strides` reaches (every size
// positive): the offset of its last coordinate.
int64_t lastElement(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides);

// The strides of a dense array of `shape` in row-major (C) order, the order
// of a tile's elements and of the runtime's arrays.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape);

}  // namespace tilesight::semantics
