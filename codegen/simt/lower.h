#pragma once
// Lowering one entry of a verified tile program to a SIMT kernel
// (kernel.h). An op or element type the lowering does not handle yet is an
// error naming it and its line, never a kernel that computes something else.
#include <llvm/Support/Error.h>

#include "analysis/verified.h"
#include "codegen/simt/kernel.h"

namespace tilesight::simt {

struct LowerOptions {
  unsigned maxThreads = 256;  // threads per block, at most (a power of two)
  // CUDA: mmaf on tensor cores (WMMA, sm_80+) where its types and shapes
  // allow; off, every target sums in the reference's order (bit-exact).
  bool tensorCores = true;
  // For tests: every target runs the tensor-core variant's staging, chunks
  // and warp tiles, with the fragment operations as loops summing in the
  // reference's order (so results are its bits), instead of the portable form.
  bool emulateTensorCores = false;
  // Check every global access against the launch's buffers (Kernel::guarded;
  // `run --no-guard` turns it off for timing).
  bool guard = true;
};

llvm::Expected<Kernel> lower(const VerifiedProgram& program, const Operation& entry, const LowerOptions& options = {});

}  // namespace tilesight::simt
