#pragma once
// The three printers of a SIMT kernel: CUDA C++ (NVRTC, nvcc -cubin), HIP
// C++ (hiprtc, hipcc) and OpenCL C 1.2. Each prints a self-contained
// translation unit: a header comment (entry, threads per block, staging
// bytes, argument order), the prelude, and the kernel.
#include <algorithm>
#include <string>
#include <vector>

#include "codegen/simt/kernel.h"

namespace tilesight::simt {

// The macros and helpers generated code uses, for target t (prelude.cpp).
std::string prelude(Target t);

std::string printKernel(const Kernel& k, Target t);
// Several kernels in one translation unit (the prelude once).
std::string printKernels(const std::vector<Kernel>& ks, Target t);

// Bytes of static shared memory a CUDA or HIP block may declare; a kernel
// that stages more declares it extern (dynamic) and the launch passes it.
constexpr uint64_t kStaticSharedLimit = 48 * 1024;
// The staging bytes k's source for t declares (a target's matrix-unit
// variants may stage more than the portable code).
inline uint64_t stageBytes(const Kernel& k, Target t) {
  auto v = k.variantStageBytes.find(t);
  return v == k.variantStageBytes.end() ? k.stageBytes : std::max(k.stageBytes, v->second);
}
// Whether k's CUDA/HIP source declares its staging extern (the launch passes
// stageBytes(k, t) as dynamic shared memory).
inline bool dynamicStage(const Kernel& k, Target t) { return t != Target::OpenCL && stageBytes(k, t) > kStaticSharedLimit; }

}  // namespace tilesight::simt
