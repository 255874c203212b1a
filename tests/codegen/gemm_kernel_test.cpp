// The blocked float kernel under mmaf gives the bits of the plain k-order
// loop: with FMA for inputs whose products are exact in float, with a
// separate multiply and add for f32 inputs; at sizes that leave edges in
// both dimensions.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "codegen/interp/gemm_kernel.h"

namespace tilesight::interp {
namespace {

// The reference: one element at a time, products rounded to float, then added.
std::vector<float> naive(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                         int64_t m, int64_t k, int64_t n) {
  std::vector<float> out(c);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float s = c[i * n + j];
      for (int64_t p = 0; p < k; ++p) {
        volatile float prod = a[i * k + p] * b[p * n + j];  // rounded before the add
        s = s + prod;
      }
      out[i * n + j] = s;
    }
  return out;
}

// Values with 11 significant bits (f16-like) or full f32 values.
std::vector<float> values(size_t count, bool short11, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(count);
  for (float& x : v) {
    x = u(gen);
    if (short11) x = std::ldexp(std::round(std::ldexp(x, 10)), -10);
  }
  return v;
}

void expectSameBits(const std::vector<float>& want, const std::vector<float>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(0, std::memcmp(&want[i], &got[i], 4)) << "element " << i << ": " << want[i] << " vs " << got[i];
}

TEST(GemmKernel, ExactProductsWithFmaMatchTheLoopBitForBit) {
  for (auto [m, k, n] : {std::array<int64_t, 3>{128, 32, 128}, {19, 7, 45}, {8, 64, 32}, {1, 3, 1}}) {
    auto a = values(m * k, true, 1), b = values(k * n, true, 2), c = values(m * n, false, 3);
    std::vector<float> got(m * n);
    gemmFloat(a.data(), b.data(), c.data(), got.data(), m, k, n, true);
    expectSameBits(naive(a, b, c, m, k, n), got);
  }
}

TEST(GemmKernel, F32InputsMultiplyAndAddSeparately) {
  for (auto [m, k, n] : {std::array<int64_t, 3>{64, 48, 96}, {13, 9, 37}}) {
    auto a = values(m * k, false, 4), b = values(k * n, false, 5), c = values(m * n, false, 6);
    std::vector<float> got(m * n);
    gemmFloat(a.data(), b.data(), c.data(), got.data(), m, k, n, false);
    expectSameBits(naive(a, b, c, m, k, n), got);
  }
}

}  // namespace
}  // namespace tilesight::interp
