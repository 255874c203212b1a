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
};

llvm::Expected<Kernel> lower(const VerifiedProgram& program, const Operation& entry, const LowerOptions& options = {});

}  // namespace tilesight::simt
