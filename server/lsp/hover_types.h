#pragma once
// Hover on a written type: its canonical text and a one-line description;
// for a tensor_view its layout, injectivity and offset table; for views
// their index space and a picture of the tile grid.
#include <string>

#include "analysis/checks/views.h"
#include "analysis/ir/types.h"

namespace tilesight::lsp {

// Most cells a tensor_view offset table shows per row and per column.
constexpr int64_t kTypeTableMaxCells = 16;
// Most tiles a view grid shows per row and per column (the last one included).
constexpr int64_t kTypeGridMaxCells = 16;

// One line: "tile of 16x16 f32", "pointer to f16", "token: ...".
std::string describeType(const Type &t);

// The hover markdown for a type occurrence.
std::string typeHover(const Type &t);
// A view's hover with its index space resolved by a launch (`space`: the
// tensor's dynamic sizes fixed) and the tensor's strides (kDynamic where
// unknown): its tile grid, and for a partition view the element offset each
// tile starts at.
std::string launchViewHover(const Type &view, const views::IndexSpace &space, const std::vector<int64_t> &strides);

} // namespace tilesight::lsp
