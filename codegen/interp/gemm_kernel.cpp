// The library is built with -ffp-contract=off: the separate multiply and
// add of f32 inputs stay separate (gemm_kernel.h). The blocked kernel is a
// macro because each instance needs its own target attribute (AVX-512,
// AVX2) for its intrinsics; one body serves both.
#include "codegen/interp/gemm_kernel.h"

#include <immintrin.h>

namespace tilesight::interp {

namespace {

// One result element, k order.
inline float dot(const float* a, const float* b, float c, int64_t k, int64_t n) {
  for (int64_t p = 0; p < k; ++p) c = c + a[p] * b[p * n];
  return c;
}

// Rows [i0, m) x columns [j0, n), one element at a time.
void edge(const float* a, const float* b, const float* cin, float* cout, int64_t i0, int64_t m, int64_t j0,
          int64_t k, int64_t n) {
  for (int64_t i = i0; i < m; ++i)
    for (int64_t j = j0; j < n; ++j) cout[i * n + j] = dot(a + i * k, b + j, cin[i * n + j], k, n);
}

// Register blocking: MR rows x 2 vectors of columns held in registers over
// the whole k loop; each loaded pair of b vectors serves MR rows.
#define TILESIGHT_GEMM_KERNEL(NAME, TARGET, V, W, MR, LOAD, STORE, SET1, FMA, MUL, ADD)                      \
  __attribute__((target(TARGET))) void NAME(const float* a, const float* b, const float* cin, float* cout,     \
                                            int64_t m, int64_t k, int64_t n, bool fused) {                     \
    int64_t mb = m - m % (MR), nb = n - n % (2 * (W));                                                          \
    for (int64_t i0 = 0; i0 < mb; i0 += (MR))                                                                  \
      for (int64_t j0 = 0; j0 < nb; j0 += 2 * (W)) {                                                           \
        V c0[MR], c1[MR];                                                                                      \
        for (int r = 0; r < (MR); ++r) {                                                                       \
          c0[r] = LOAD(cin + (i0 + r) * n + j0);                                                               \
          c1[r] = LOAD(cin + (i0 + r) * n + j0 + (W));                                                         \
        }                                                                                                      \
        const float* ap = a + i0 * k;                                                                          \
        if (fused)                                                                                             \
          for (int64_t p = 0; p < k; ++p) {                                                                    \
            V b0 = LOAD(b + p * n + j0), b1 = LOAD(b + p * n + j0 + (W));                                      \
            for (int r = 0; r < (MR); ++r) {                                                                   \
              V av = SET1(ap[r * k + p]);                                                                      \
              c0[r] = FMA(av, b0, c0[r]);                                                                      \
              c1[r] = FMA(av, b1, c1[r]);                                                                      \
            }                                                                                                  \
          }                                                                                                    \
        else                                                                                                   \
          for (int64_t p = 0; p < k; ++p) {                                                                    \
            V b0 = LOAD(b + p * n + j0), b1 = LOAD(b + p * n + j0 + (W));                                      \
            for (int r = 0; r < (MR); ++r) {                                                                   \
              V av = SET1(ap[r * k + p]);                                                                      \
              c0[r] = ADD(c0[r], MUL(av, b0));                                                                 \
              c1[r] = ADD(c1[r], MUL(av, b1));                                                                 \
            }                                                                                                  \
          }                                                                                                    \
        for (int r = 0; r < (MR); ++r) {                                                                       \
          STORE(cout + (i0 + r) * n + j0, c0[r]);                                                              \
          STORE(cout + (i0 + r) * n + j0 + (W), c1[r]);                                                        \
        }                                                                                                      \
      }                                                                                                        \
    edge(a, b, cin, cout, 0, mb, nb, k, n);                                                                    \
    edge(a, b, cin, cout, mb, m, 0, k, n);                                                                     \
  }

TILESIGHT_GEMM_KERNEL(gemm512, "avx512f", __m512, 16, 8, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps,
                      _mm512_fmadd_ps, _mm512_mul_ps, _mm512_add_ps)
TILESIGHT_GEMM_KERNEL(gemm256, "avx2,fma", __m256, 8, 6, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps,
                      _mm256_fmadd_ps, _mm256_mul_ps, _mm256_add_ps)
#undef TILESIGHT_GEMM_KERNEL

}  // namespace

void gemmFloat(const float* a, const float* b, const float* cin, float* cout, int64_t m, int64_t k, int64_t n,
               bool exactProducts) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx512) return gemm512(a, b, cin, cout, m, k, n, exactProducts);
  if (avx2) return gemm256(a, b, cin, cout, m, k, n, exactProducts);
  edge(a, b, cin, cout, 0, m, 0, k, n);
}

}  // namespace tilesight::interp
