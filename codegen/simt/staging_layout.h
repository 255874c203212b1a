#pragma once
// The shared-memory layout a tensor-core operand is staged in, chosen and
// checked with the layout algebra (analysis/layout): rows x cols elements
// of `elemBytes`, row-major, rows `ld` elements apart — the CuTe layout
// (rows, cols):(ld, 1). ld is the smallest >= cols that keeps WMMA's rules
// (a multiple of 16 bytes) and puts the 16-byte row segments that one 8x8
// fragment load reads (8 consecutive rows, ldmatrix's shape) in 8 distinct
// groups of four 4-byte banks: (ld * elemBytes / 16) odd. The padding makes
// the layout injective but not surjective (ld - cols elements of each row
// are never addressed), which decide() proves before the lowering uses it.
#include <cstdint>
#include <string>

#include <llvm/Support/Error.h>

#include "analysis/layout/layout.h"

namespace tilesight::simt {

struct StagingLayout {
  int64_t rows = 0, cols = 0, ld = 0, elemBytes = 0;
  layout::Layout layout;  // (rows, cols):(ld, 1), in elements
  int64_t conflictDegree = 0;  // the most row segments of one 8-row load that share a bank group (1: none)
  int64_t bytes() const { return rows * ld * elemBytes; }
};

// An error when no padding within 8 segments gives an injective,
// conflict-free layout (it does not happen for WMMA's shapes; the lowering
// then keeps the portable loop).
llvm::Expected<StagingLayout> stagingLayout(int64_t rows, int64_t cols, int64_t elemBytes);

}  // namespace tilesight::simt
