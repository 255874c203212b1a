#pragma once
// The float matrix product under mmaf: cout = cin + a x b for one row-major
// m x k by k x n product. Each result element sums its products in k order
// with one rounding per addition, so every path gives the same bits: when
// `exactProducts` (inputs of at most 12 significant bits: f16, bf16, tf32,
// the f8 and f4 formats) a fused multiply-add equals a multiply then an
// add, and the register-blocked kernels use FMA; f32 inputs multiply and
// add separately.
#include <cstdint>

namespace tilesight::interp {

void gemmFloat(const float* a, const float* b, const float* cin, float* cout, int64_t m, int64_t k, int64_t n,
               bool exactProducts);

}  // namespace tilesight::interp
