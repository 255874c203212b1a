#pragma once
// Which lane holds which element of a 16x16 matrix-instruction fragment on
// AMD GPUs, as TV layouts of the layout algebra: (lane, local) -> colex
// index i + 16*j of the operand as stored (A[M][K], B[K][N], C[M][N]).
// CDNA's v_mfma_f32_16x16x16f16 (gfx908, gfx90a, gfx94x; wave64) is written
// here from AMD's matrix-instruction tables; RDNA's WMMA maps (gfx11, gfx12;
// wave32) are the layout library's (seed 003, analysis/layout/wmma.h).
// fragmentMaps() checks with layout::decide that every accumulator element
// has exactly one (lane, local), and every A and B element at least one.
#include <string>

#include <llvm/Support/Error.h>

#include "analysis/layout/layout.h"

namespace tilesight::simt {

enum class MatrixUnit { Mfma, WmmaGfx11, WmmaGfx12 };

struct FragmentMaps {
  MatrixUnit unit;
  int lanes = 0;      // the wave size
  layout::Layout a, b, c;
  int64_t aLocals = 0, bLocals = 0, cLocals = 0;  // elements per lane
  const char* condition = "";  // the preprocessor test for the architectures that have it
  const char* builtin = "";    // fc = builtin(fa, fb, fc ...)
  const char* extraArgs = "";  // after fc
};

llvm::Expected<FragmentMaps> fragmentMaps(MatrixUnit u);

// A C expression of the colex index tv(lane, local), for variables named
// `lane` and `local`.
std::string indexExpr(const layout::Layout& tv, const std::string& lane, const std::string& local);

}  // namespace tilesight::simt
