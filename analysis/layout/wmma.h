#pragma once
// TileLang's RDNA WMMA fragment maps for 16x16x16 f16 on wave32 (seed 003;
// reference/layouts.md §5) as TV values: (lane, local) -> colex index
// i + 16*j of the 16x16 tile, where (i, j) indexes the matrix as stored
// (A[M][K], B[K][N], C[M][N]; the column-major variants swap i and j).
// Lanes are the hierarchical mode (16,2): lane % 16, then the half-wave.
#include <string_view>

#include "analysis/layout/value.h"

namespace tilesight::layout {

// target: gfx11 | gfx12; matrix: A | B | C (C has no column-major variant).
// gfx11 A and B are replicated in lanes 16..31 (a stride-0 half-wave mode);
// the value's note says so.
Expected<Value> wmmaLayout(std::string_view target, std::string_view matrix, bool colMajor = false);

}  // namespace tilesight::layout
