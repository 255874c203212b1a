// Conversions between the Tile IR float formats and double. Every expected
// bit pattern below is worked out by hand from the format's layout (sign,
// exponent field with its bias, mantissa); the comments show the arithmetic.
#include "codegen/runtime/float_formats.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace tilesight::runtime {
namespace {

constexpr Rounding NE = Rounding::NearestEven;
constexpr Rounding RZ = Rounding::Zero;
constexpr Rounding RD = Rounding::NegativeInf;
constexpr Rounding RU = Rounding::PositiveInf;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double p2(int e) { return std::ldexp(1.0, e); }

// Every bit pattern of a format, for the round-trip tests.
uint64_t patternCount(Elem e) { return uint64_t{1} << (e == Elem::TF32 ? 19 : elemBits(e)); }
uint64_t pattern(Elem e, uint64_t i) { return e == Elem::TF32 ? i << 13 : i; }

// --- f16: 1 sign, 5 exponent (bias 15), 10 mantissa bits -------------------

TEST(FloatFormatsF16, ExactValuesAndLimits) {
  EXPECT_EQ(encodeFloat(Elem::F16, 1.0), 0x3C00u);   // field 15
  EXPECT_EQ(encodeFloat(Elem::F16, -2.0), 0xC000u);  // sign, field 16
  EXPECT_EQ(encodeFloat(Elem::F16, 0.5), 0x3800u);   // field 14
  EXPECT_EQ(decodeFloat(Elem::F16, 0x3555), 1365.0 / 4096);  // (1 + 341/1024) / 4
  EXPECT_EQ(encodeFloat(Elem::F16, 65504.0), 0x7BFFu);       // (2 - 2^-10) * 2^15
  EXPECT_EQ(decodeFloat(Elem::F16, 0x7BFF), 65504.0);
  EXPECT_EQ(encodeFloat(Elem::F16, p2(-14)), 0x0400u);       // min normal
  EXPECT_EQ(encodeFloat(Elem::F16, p2(-24)), 0x0001u);       // min subnormal
  EXPECT_EQ(decodeFloat(Elem::F16, 0x0001), p2(-24));
  EXPECT_EQ(decodeFloat(Elem::F16, 0x03FF), 1023 * p2(-24)); // max subnormal
}

TEST(FloatFormatsF16, TiesToEven) {
  EXPECT_EQ(encodeFloat(Elem::F16, 1 + p2(-11)), 0x3C00u);      // 1 | 1+2^-10: down to even
  EXPECT_EQ(encodeFloat(Elem::F16, 1 + 3 * p2(-11)), 0x3C02u);  // 1+2^-10 | 1+2^-9: up to even
  EXPECT_EQ(encodeFloat(Elem::F16, -(1 + 3 * p2(-11))), 0xBC02u);
  // Just above a tie: one rounding from the double. (Through f32 first, the
  // 2^-30 would vanish and leave a tie that goes down.)
  EXPECT_EQ(encodeFloat(Elem::F16, 1 + p2(-11) + p2(-30)), 0x3C01u);
  EXPECT_EQ(roundTo(Elem::F16, 1 + p2(-11) + p2(-30)), 1 + p2(-10));
}

TEST(FloatFormatsF16, DirectedRounding) {
  const double x = 1 + p2(-12);  // between 0x3C00 and 0x3C01
  EXPECT_EQ(encodeFloat(Elem::F16, x, RZ), 0x3C00u);
  EXPECT_EQ(encodeFloat(Elem::F16, x, RD), 0x3C00u);
  EXPECT_EQ(encodeFloat(Elem::F16, x, RU), 0x3C01u);
  EXPECT_EQ(encodeFloat(Elem::F16, -x, RZ), 0xBC00u);
  EXPECT_EQ(encodeFloat(Elem::F16, -x, RD), 0xBC01u);
  EXPECT_EQ(encodeFloat(Elem::F16, -x, RU), 0xBC00u);
  // A mantissa of all ones rounded up carries into the exponent.
  EXPECT_EQ(encodeFloat(Elem::F16, 2 - p2(-12), RU), 0x4000u);
  // Modes other than the four round to nearest even.
  EXPECT_EQ(encodeFloat(Elem::F16, 1 + 3 * p2(-11), Rounding::Approx), 0x3C02u);
}

TEST(FloatFormatsF16, OverflowGoesToInfOrMaxByMode) {
  EXPECT_EQ(encodeFloat(Elem::F16, 65519.0), 0x7BFFu);  // below the 65520 midpoint
  EXPECT_EQ(encodeFloat(Elem::F16, 65520.0), 0x7C00u);  // tie: 0x7BFF is odd, so up, to inf
  EXPECT_EQ(encodeFloat(Elem::F16, 1e6, NE), 0x7C00u);
  EXPECT_EQ(encodeFloat(Elem::F16, 1e6, RZ), 0x7BFFu);
  EXPECT_EQ(encodeFloat(Elem::F16, 1e6, RU), 0x7C00u);
  EXPECT_EQ(encodeFloat(Elem::F16, 1e6, RD), 0x7BFFu);
  EXPECT_EQ(encodeFloat(Elem::F16, -1e6, NE), 0xFC00u);
  EXPECT_EQ(encodeFloat(Elem::F16, -1e6, RZ), 0xFBFFu);
  EXPECT_EQ(encodeFloat(Elem::F16, -1e6, RU), 0xFBFFu);
  EXPECT_EQ(encodeFloat(Elem::F16, -1e6, RD), 0xFC00u);
  EXPECT_EQ(roundTo(Elem::F16, 65520.0), kInf);
  EXPECT_EQ(roundTo(Elem::F16, -65520.0), -kInf);
  EXPECT_EQ(roundTo(Elem::F16, 65519.99), 65504.0);
}

TEST(FloatFormatsF16, Subnormals) {
  EXPECT_EQ(encodeFloat(Elem::F16, p2(-25)), 0x0000u);      // 0 | 2^-24 tie: even is 0
  EXPECT_EQ(encodeFloat(Elem::F16, 3 * p2(-25)), 0x0002u);  // 1 | 2 units tie: 2
  EXPECT_EQ(encodeFloat(Elem::F16, p2(-26), RU), 0x0001u);
  EXPECT_EQ(encodeFloat(Elem::F16, p2(-26), RZ), 0x0000u);
  EXPECT_EQ(encodeFloat(Elem::F16, -p2(-26), RD), 0x8001u);
  EXPECT_EQ(encodeFloat(Elem::F16, -p2(-26), NE), 0x8000u);
  EXPECT_EQ(encodeFloat(Elem::F16, 1023.5 * p2(-24)), 0x0400u);  // tie, rounds up to min normal
  EXPECT_EQ(roundTo(Elem::F16, 1e-8), 0.0);
  EXPECT_EQ(roundTo(Elem::F16, 1000.25 * p2(-24)), 1000 * p2(-24));
}

TEST(FloatFormatsF16, Specials) {
  EXPECT_EQ(encodeFloat(Elem::F16, kInf), 0x7C00u);
  EXPECT_EQ(encodeFloat(Elem::F16, -kInf, RZ), 0xFC00u);  // inf is exact in every mode
  EXPECT_EQ(decodeFloat(Elem::F16, 0x7C00), kInf);
  EXPECT_EQ(decodeFloat(Elem::F16, 0xFC00), -kInf);
  const uint64_t nan = encodeFloat(Elem::F16, kNaN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00u);
  EXPECT_EQ(nan & 0x0200, 0x0200u);  // quiet
  EXPECT_TRUE(std::isnan(decodeFloat(Elem::F16, 0x7E00)));
  EXPECT_TRUE(std::isnan(roundTo(Elem::F16, kNaN)));
  EXPECT_EQ(encodeFloat(Elem::F16, -0.0), 0x8000u);
  EXPECT_TRUE(std::signbit(decodeFloat(Elem::F16, 0x8000)));
  EXPECT_TRUE(std::signbit(roundTo(Elem::F16, -0.0)));
}

// --- bf16: 1 sign, 8 exponent (bias 127), 7 mantissa bits -------------------

TEST(FloatFormatsBF16, ExactValuesAndLimits) {
  EXPECT_EQ(encodeFloat(Elem::BF16, 1.0), 0x3F80u);
  EXPECT_EQ(encodeFloat(Elem::BF16, -3.0), 0xC040u);  // 1.5 * 2^1
  const double maxFinite = (2 - p2(-7)) * p2(127);
  EXPECT_EQ(encodeFloat(Elem::BF16, maxFinite), 0x7F7Fu);
  EXPECT_EQ(decodeFloat(Elem::BF16, 0x7F7F), maxFinite);
  EXPECT_EQ(encodeFloat(Elem::BF16, p2(-126)), 0x0080u);  // min normal
  EXPECT_EQ(encodeFloat(Elem::BF16, p2(-133)), 0x0001u);  // min subnormal
  EXPECT_EQ(decodeFloat(Elem::BF16, 0x0001), p2(-133));
}

TEST(FloatFormatsBF16, RoundingAndOverflow) {
  EXPECT_EQ(encodeFloat(Elem::BF16, 1 + p2(-8)), 0x3F80u);      // tie down to even
  EXPECT_EQ(encodeFloat(Elem::BF16, 1 + 3 * p2(-8)), 0x3F82u);  // tie up to even
  EXPECT_EQ(encodeFloat(Elem::BF16, 1 + p2(-8) + p2(-40)), 0x3F81u);  // no double rounding
  EXPECT_EQ(roundTo(Elem::BF16, 1 + p2(-8) + p2(-40)), 1 + p2(-7));
  EXPECT_EQ(encodeFloat(Elem::BF16, 1 + p2(-9), RU), 0x3F81u);
  EXPECT_EQ(encodeFloat(Elem::BF16, 1 + p2(-9), RZ), 0x3F80u);
  EXPECT_EQ(encodeFloat(Elem::BF16, -(1 + p2(-9)), RD), 0xBF81u);
  EXPECT_EQ(encodeFloat(Elem::BF16, -(1 + p2(-9)), RU), 0xBF80u);
  const double pastMaxTie = (2 - p2(-8)) * p2(127);  // midpoint of max and 2^128
  EXPECT_EQ(encodeFloat(Elem::BF16, pastMaxTie), 0x7F80u);
  EXPECT_EQ(encodeFloat(Elem::BF16, pastMaxTie, RZ), 0x7F7Fu);
  EXPECT_EQ(encodeFloat(Elem::BF16, 1e300, RD), 0x7F7Fu);
  EXPECT_EQ(encodeFloat(Elem::BF16, -1e300, RU), 0xFF7Fu);
  EXPECT_EQ(encodeFloat(Elem::BF16, -1e300, RD), 0xFF80u);
  EXPECT_EQ(roundTo(Elem::BF16, 1e300), kInf);
  EXPECT_EQ(encodeFloat(Elem::BF16, p2(-134)), 0x0000u);      // tie at half the min subnormal
  EXPECT_EQ(encodeFloat(Elem::BF16, p2(-140), RU), 0x0001u);
}

TEST(FloatFormatsBF16, Specials) {
  EXPECT_EQ(encodeFloat(Elem::BF16, -kInf), 0xFF80u);
  EXPECT_EQ(decodeFloat(Elem::BF16, 0x7F80), kInf);
  EXPECT_TRUE(std::isnan(decodeFloat(Elem::BF16, 0x7FC0)));
  const uint64_t nan = encodeFloat(Elem::BF16, kNaN);
  EXPECT_EQ(nan & 0x7F80, 0x7F80u);
  EXPECT_NE(nan & 0x7F, 0u);
  EXPECT_EQ(encodeFloat(Elem::BF16, -0.0), 0x8000u);
}

// --- tf32: f32's layout, 10 mantissa bits; the low 13 bits are not part of it

TEST(FloatFormatsTF32, ExactValuesAndLimits) {
  EXPECT_EQ(encodeFloat(Elem::TF32, 1.0), 0x3F800000u);
  const double maxFinite = (2 - p2(-10)) * p2(127);
  EXPECT_EQ(encodeFloat(Elem::TF32, maxFinite), 0x7F7FE000u);
  EXPECT_EQ(decodeFloat(Elem::TF32, 0x7F7FE000), maxFinite);
  EXPECT_EQ(encodeFloat(Elem::TF32, p2(-126)), 0x00800000u);  // min normal
  EXPECT_EQ(encodeFloat(Elem::TF32, p2(-136)), 0x00002000u);  // min subnormal
  EXPECT_EQ(decodeFloat(Elem::TF32, 0x00002000), p2(-136));
}

TEST(FloatFormatsTF32, LowBitsAreIgnored) {
  EXPECT_EQ(decodeFloat(Elem::TF32, 0x3F801FFF), 1.0);
  EXPECT_EQ(decodeFloat(Elem::TF32, 0x3F802000), 1 + p2(-10));
  EXPECT_EQ(decodeFloat(Elem::TF32, 0x00001FFF), 0.0);
  // A value f32 holds but tf32 does not is rounded, never kept in the low bits.
  EXPECT_EQ(encodeFloat(Elem::TF32, 1 + p2(-20)), 0x3F800000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, 1 + p2(-20), RU), 0x3F802000u);
}

TEST(FloatFormatsTF32, RoundingAndOverflow) {
  EXPECT_EQ(encodeFloat(Elem::TF32, 1 + p2(-11)), 0x3F800000u);      // tie down to even
  EXPECT_EQ(encodeFloat(Elem::TF32, 1 + 3 * p2(-11)), 0x3F804000u);  // tie up to even
  EXPECT_EQ(roundTo(Elem::TF32, 1 + 3 * p2(-11)), 1 + p2(-9));
  EXPECT_EQ(encodeFloat(Elem::TF32, -(1 + p2(-12)), RD), 0xBF802000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, -(1 + p2(-12)), RZ), 0xBF800000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, 1e39), 0x7F800000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, 1e39, RZ), 0x7F7FE000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, -kInf), 0xFF800000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, kNaN) & 0x7FC00000u, 0x7FC00000u);
  EXPECT_EQ(encodeFloat(Elem::TF32, -0.0), 0x80000000u);
}

// --- f32 and f64 -------------------------------------------------------------

TEST(FloatFormatsF32, ExactValuesAndLimits) {
  EXPECT_EQ(encodeFloat(Elem::F32, 1.0), 0x3F800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, double(std::numeric_limits<float>::max())), 0x7F7FFFFFu);
  EXPECT_EQ(decodeFloat(Elem::F32, 0x7F7FFFFF), (2 - p2(-23)) * p2(127));
  EXPECT_EQ(decodeFloat(Elem::F32, 0x00800000), p2(-126));
  EXPECT_EQ(decodeFloat(Elem::F32, 0x00000001), p2(-149));
  EXPECT_EQ(encodeFloat(Elem::F32, p2(-149), RZ), 0x00000001u);
}

TEST(FloatFormatsF32, Rounding) {
  EXPECT_EQ(encodeFloat(Elem::F32, 1 + p2(-24)), 0x3F800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, 1 + 3 * p2(-24)), 0x3F800002u);
  const double x = 1 + p2(-30);
  EXPECT_EQ(encodeFloat(Elem::F32, x, RZ), 0x3F800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, x, RD), 0x3F800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, x, RU), 0x3F800001u);
  EXPECT_EQ(encodeFloat(Elem::F32, -x, RD), 0xBF800001u);
  EXPECT_EQ(encodeFloat(Elem::F32, -x, RU), 0xBF800000u);
  EXPECT_EQ(roundTo(Elem::F32, x, RU), 1 + p2(-23));
  EXPECT_EQ(encodeFloat(Elem::F32, 1e39), 0x7F800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, 1e39, RZ), 0x7F7FFFFFu);
  EXPECT_EQ(encodeFloat(Elem::F32, -1e39, RU), 0xFF7FFFFFu);
  EXPECT_EQ(encodeFloat(Elem::F32, -1e39, RD), 0xFF800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, p2(-150)), 0x00000000u);      // tie to even zero
  EXPECT_EQ(encodeFloat(Elem::F32, 3 * p2(-150)), 0x00000002u);  // tie up to 2 units
  EXPECT_EQ(encodeFloat(Elem::F32, p2(-160), RU), 0x00000001u);
  EXPECT_EQ(encodeFloat(Elem::F32, -p2(-160), RD), 0x80000001u);
  EXPECT_EQ(encodeFloat(Elem::F32, 3 * p2(-151), RD), 0x00000000u);
}

TEST(FloatFormatsF32, Specials) {
  EXPECT_EQ(encodeFloat(Elem::F32, kInf, RZ), 0x7F800000u);
  EXPECT_EQ(encodeFloat(Elem::F32, -0.0, RU), 0x80000000u);
  EXPECT_EQ(encodeFloat(Elem::F32, kNaN, RZ) & 0x7FC00000u, 0x7FC00000u);
  EXPECT_TRUE(std::isnan(decodeFloat(Elem::F32, 0x7FC00000)));
}

// The directed modes go through the integer path, nearest even through the
// hardware cast: the two must agree (the cast is one of the two neighbours).
TEST(FloatFormatsF32, DirectedModesBracketTheHardwareCast) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-160, 130);
  for (int i = 0; i < 20000; ++i) {
    const double x = (i & 1 ? -1 : 1) * std::ldexp(mantissa(rng), exponent(rng));
    const double down = roundTo(Elem::F32, x, RD), up = roundTo(Elem::F32, x, RU);
    const double nearest = roundTo(Elem::F32, x);
    ASSERT_LE(down, x);
    ASSERT_GE(up, x);
    ASSERT_TRUE(nearest == down || nearest == up) << x;
    ASSERT_EQ(roundTo(Elem::F32, x, RZ), x < 0 ? up : down) << x;
    if (std::isfinite(down) && std::isfinite(up) && down != up) {
      ASSERT_EQ(float(up), std::nextafter(float(down), HUGE_VALF)) << x;
    }
  }
}

TEST(FloatFormatsF64, IsTheIdentity) {
  EXPECT_EQ(encodeFloat(Elem::F64, 1.0, RZ), 0x3FF0000000000000u);
  EXPECT_EQ(encodeFloat(Elem::F64, -0.0), 0x8000000000000000u);
  EXPECT_EQ(decodeFloat(Elem::F64, 0x0000000000000001), p2(-1074));
  EXPECT_EQ(roundTo(Elem::F64, 0.1, RU), 0.1);
  EXPECT_EQ(roundTo(Elem::F64, -kInf), -kInf);
  EXPECT_TRUE(std::isnan(roundTo(Elem::F64, kNaN)));
  EXPECT_EQ(encodeFloat(Elem::F64, kNaN) & 0x7FF8000000000000u, 0x7FF8000000000000u);
}

// --- f8E4M3FN: bias 7, 3 mantissa bits, no inf, only S.1111.111 is NaN -------

TEST(FloatFormatsE4M3FN, ExactValuesAndLimits) {
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1.0), 0x38u);    // field 7
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -1.5), 0xBCu);   // sign, field 7, mantissa 100
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 448.0), 0x7Eu);  // 1.75 * 2^8, the max
  EXPECT_EQ(decodeFloat(Elem::F8E4M3FN, 0x7E), 448.0);
  EXPECT_EQ(decodeFloat(Elem::F8E4M3FN, 0x78), 256.0);   // field 15 holds finite values
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, p2(-6)), 0x08u); // min normal
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, p2(-9)), 0x01u); // min subnormal
  EXPECT_EQ(decodeFloat(Elem::F8E4M3FN, 0x07), 7 * p2(-9));
  EXPECT_TRUE(std::isnan(decodeFloat(Elem::F8E4M3FN, 0x7F)));
  EXPECT_TRUE(std::isnan(decodeFloat(Elem::F8E4M3FN, 0xFF)));
}

TEST(FloatFormatsE4M3FN, Rounding) {
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1.0625), 0x38u);  // 1 | 1.125 tie: even 1
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1.1875), 0x3Au);  // 1.125 | 1.25 tie: even 1.25
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1.05, RZ), 0x38u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1.05, RD), 0x38u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1.05, RU), 0x39u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -1.05, RD), 0xB9u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -1.05, RU), 0xB8u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, p2(-10)), 0x00u);      // tie at half the min subnormal
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 3 * p2(-10)), 0x02u);  // tie up to 2 units
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, p2(-12), RU), 0x01u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -p2(-12), RD), 0x81u);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, p2(-12), RZ), 0x00u);
  EXPECT_EQ(roundTo(Elem::F8E4M3FN, 0.3), 0.3125);  // 1.25 * 2^-2
}

TEST(FloatFormatsE4M3FN, SaturatesAndHasNoNaN) {
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 464.0), 0x7Eu);  // 448 | (480) tie: even 448
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 470.0), 0x7Eu);  // nearer the NaN pattern's 480: saturates
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1000.0), 0x7Eu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 1000.0, RU), 0x7Eu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, 449.0, RU), 0x7Eu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -1000.0, RD), 0xFEu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, kInf), 0x7Eu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -kInf), 0xFEu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, kNaN), 0x7Eu);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -kNaN), 0x7Eu);  // +max whatever the sign
  EXPECT_EQ(roundTo(Elem::F8E4M3FN, kNaN), 448.0);
  EXPECT_EQ(encodeFloat(Elem::F8E4M3FN, -0.0), 0x80u);
}

// --- f8E5M2: bias 15, 2 mantissa bits, IEEE-like but saturating ------------

TEST(FloatFormatsE5M2, ExactValuesAndLimits) {
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1.0), 0x3Cu);  // field 15
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -0.75), 0xBAu);  // 1.5 * 2^-1: field 14, mantissa 10
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 57344.0), 0x7Bu);  // 1.75 * 2^15
  EXPECT_EQ(decodeFloat(Elem::F8E5M2, 0x7B), 57344.0);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, p2(-14)), 0x04u);  // min normal
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, p2(-16)), 0x01u);  // min subnormal
  EXPECT_EQ(decodeFloat(Elem::F8E5M2, 0x7C), kInf);
  EXPECT_EQ(decodeFloat(Elem::F8E5M2, 0xFC), -kInf);
  for (uint64_t b : {0x7Du, 0x7Eu, 0x7Fu, 0xFFu}) EXPECT_TRUE(std::isnan(decodeFloat(Elem::F8E5M2, b)));
}

TEST(FloatFormatsE5M2, Rounding) {
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1.125), 0x3Cu);  // 1 | 1.25 tie: even 1
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1.375), 0x3Eu);  // 1.25 | 1.5 tie: even 1.5
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1.1, RZ), 0x3Cu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1.1, RU), 0x3Du);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1.1, RD), 0x3Cu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -1.1, RD), 0xBDu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -1.1, RU), 0xBCu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, p2(-17)), 0x00u);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 3 * p2(-17)), 0x02u);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, p2(-20), RU), 0x01u);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -p2(-20), RZ), 0x80u);
}

TEST(FloatFormatsE5M2, SaturatesButKeepsNaN) {
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 61440.0), 0x7Bu);  // 57344 | 65536 tie: would be inf
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1e9), 0x7Bu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, 1e9, RU), 0x7Bu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -1e9, RD), 0xFBu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, kInf), 0x7Bu);
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -kInf), 0xFBu);
  const uint64_t nan = encodeFloat(Elem::F8E5M2, kNaN);
  EXPECT_EQ(nan & 0x7C, 0x7Cu);
  EXPECT_NE(nan & 0x03, 0u);
  EXPECT_TRUE(std::isnan(roundTo(Elem::F8E5M2, kNaN)));
  EXPECT_EQ(encodeFloat(Elem::F8E5M2, -0.0), 0x80u);
}

// --- f8E8M0FNU: 2^(bits - 127), 0xFF NaN, no sign, no zero -----------------

TEST(FloatFormatsE8M0FNU, ExactValuesAndLimits) {
  EXPECT_EQ(decodeFloat(Elem::F8E8M0FNU, 127), 1.0);
  EXPECT_EQ(decodeFloat(Elem::F8E8M0FNU, 0), p2(-127));
  EXPECT_EQ(decodeFloat(Elem::F8E8M0FNU, 254), p2(127));
  EXPECT_TRUE(std::isnan(decodeFloat(Elem::F8E8M0FNU, 0xFF)));
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 1.0), 127u);
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 0.25, RU), 125u);
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, p2(-127), RZ), 0u);
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, p2(127), RU), 254u);
}

TEST(FloatFormatsE8M0FNU, RoundsNonPowersOfTwo) {
  // Between 2^k and 2^(k+1) the midpoint is 1.5 * 2^k; a tie goes to the
  // even encoding.
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 2.5), 128u);   // nearer 2
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 3.5), 129u);   // nearer 4
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 3.0), 128u);   // tie 2 (128) | 4 (129): 128
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 6.0), 130u);   // tie 4 (129) | 8 (130): 130
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 0.75), 126u);  // tie 0.5 (126) | 1 (127): 126
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 3.5, RZ), 128u);
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 3.5, RD), 128u);
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 2.5, RU), 129u);
  EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 1 + p2(-40), RU), 128u);
  EXPECT_EQ(roundTo(Elem::F8E8M0FNU, 100.0), 128.0);
  EXPECT_EQ(roundTo(Elem::F8E8M0FNU, 100.0, RD), 64.0);
}

TEST(FloatFormatsE8M0FNU, OutOfRangeClampsAndNaN) {
  for (Rounding r : {NE, RZ, RD, RU}) {
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 0.0, r), 0u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, -0.0, r), 0u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, -4.0, r), 0u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, -kInf, r), 0u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, p2(-130), r), 0u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, p2(-1074), r), 0u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, p2(128), r), 254u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, 1.9 * p2(127), r), 254u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, kInf, r), 254u);
    EXPECT_EQ(encodeFloat(Elem::F8E8M0FNU, kNaN, r), 0xFFu);
  }
}

// --- f4E2M1FN: bias 1, 1 mantissa bit: 0 0.5 1 1.5 2 3 4 6 ------------------

TEST(FloatFormatsE2M1FN, EveryValue) {
  const double values[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint64_t b = 0; b < 8; ++b) {
    EXPECT_EQ(decodeFloat(Elem::F4E2M1FN, b), values[b]);
    EXPECT_EQ(decodeFloat(Elem::F4E2M1FN, b | 8), -values[b]);
    EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, -values[b]), b | 8);  // -0.0 too
  }
  EXPECT_EQ(decodeFloat(Elem::F4E2M1FN, 0xF7), 6.0);  // only the low 4 bits count
}

TEST(FloatFormatsE2M1FN, Rounding) {
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 0.25), 0x0u);  // 0 | 0.5 tie: 0
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 0.75), 0x2u);  // 0.5 | 1 tie: 1
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 1.25), 0x2u);  // 1 | 1.5 tie: 1
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 1.75), 0x4u);  // 1.5 | 2 tie: 2
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 2.5), 0x4u);   // 2 | 3 tie: 2
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 5.0), 0x6u);   // 4 | 6 tie: 4
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 2.2, RZ), 0x4u);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 2.2, RD), 0x4u);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 2.2, RU), 0x5u);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, -2.2, RD), 0xDu);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, -2.2, RU), 0xCu);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 0.1, RU), 0x1u);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 0.1), 0x0u);
}

TEST(FloatFormatsE2M1FN, SaturatesAndHasNoNaN) {
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 7.0), 0x7u);  // 6 | 8 tie
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 100.0), 0x7u);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, 6.1, RU), 0x7u);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, -6.1, RD), 0xFu);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, -kInf), 0xFu);
  EXPECT_EQ(encodeFloat(Elem::F4E2M1FN, kNaN), 0x7u);
  EXPECT_EQ(roundTo(Elem::F4E2M1FN, 1e30), 6.0);
}

// --- every format ----------------------------------------------------------

bool isNaNPattern(Elem e, uint64_t bits) { return std::isnan(decodeFloat(e, bits)); }

// Decoding a pattern and encoding the value back gives the pattern under
// every rounding mode (the value is exact). A NaN comes back as a NaN, with
// its quiet bit set, except where the format has no NaN to give; f8E5M2's
// infinities come back as its max finite.
TEST(FloatFormatsAll, EveryPatternRoundTrips) {
  for (Elem e : {Elem::F16, Elem::BF16, Elem::TF32, Elem::F8E4M3FN, Elem::F8E5M2,
                 Elem::F8E8M0FNU, Elem::F4E2M1FN}) {
    for (uint64_t i = 0; i < patternCount(e); ++i) {
      const uint64_t bits = pattern(e, i);
      const double v = decodeFloat(e, bits);
      for (Rounding r : {NE, RZ, RD, RU}) {
        const uint64_t back = encodeFloat(e, v, r);
        if (std::isinf(v) && e == Elem::F8E5M2) {
          ASSERT_EQ(back, (bits & 0x80) | 0x7B);  // ±inf saturates to ±max
        } else if (!std::isnan(v)) {
          ASSERT_EQ(back, bits) << elemName(e) << " " << bits;
        } else if (e == Elem::F8E4M3FN) {
          ASSERT_EQ(back, 0x7Eu);
        } else {
          ASSERT_TRUE(isNaNPattern(e, back)) << elemName(e) << " " << bits;
        }
      }
      if (std::isfinite(v)) {
        ASSERT_EQ(roundTo(e, v), v) << elemName(e) << " " << bits;
      }
    }
  }
}

// roundTo's nearest-even shortcut for f16/bf16/tf32 agrees with the general
// encoder around every binade, the overflow edge and the subnormals.
TEST(FloatFormatsAll, NearestShortcutMatchesEncoder) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-140, 130);
  for (Elem e : {Elem::F16, Elem::BF16, Elem::TF32}) {
    for (int i = 0; i < 20000; ++i) {
      const double x = (i & 1 ? -1 : 1) * std::ldexp(mantissa(rng), exponent(rng));
      ASSERT_EQ(roundTo(e, x), decodeFloat(e, encodeFloat(e, x))) << elemName(e) << " " << x;
    }
  }
}

TEST(FloatFormatsAll, IsSubnormalIn) {
  EXPECT_TRUE(isSubnormalIn(Elem::F16, p2(-15)));
  EXPECT_TRUE(isSubnormalIn(Elem::F16, -p2(-24)));
  EXPECT_FALSE(isSubnormalIn(Elem::F16, p2(-14)));
  EXPECT_FALSE(isSubnormalIn(Elem::F16, 0.0));
  EXPECT_FALSE(isSubnormalIn(Elem::F16, -0.0));
  EXPECT_FALSE(isSubnormalIn(Elem::F16, kNaN));
  EXPECT_TRUE(isSubnormalIn(Elem::BF16, p2(-127)));
  EXPECT_TRUE(isSubnormalIn(Elem::F32, 1e-40));
  EXPECT_FALSE(isSubnormalIn(Elem::F32, 1e-37));
  EXPECT_TRUE(isSubnormalIn(Elem::TF32, p2(-127)));
  EXPECT_TRUE(isSubnormalIn(Elem::F64, p2(-1074)));
  EXPECT_FALSE(isSubnormalIn(Elem::F64, std::numeric_limits<double>::min()));
  EXPECT_TRUE(isSubnormalIn(Elem::F8E4M3FN, p2(-7)));
  EXPECT_FALSE(isSubnormalIn(Elem::F8E4M3FN, p2(-6)));
  EXPECT_TRUE(isSubnormalIn(Elem::F8E5M2, p2(-15)));
  EXPECT_TRUE(isSubnormalIn(Elem::F4E2M1FN, 0.5));
  EXPECT_FALSE(isSubnormalIn(Elem::F4E2M1FN, 1.0));
  EXPECT_FALSE(isSubnormalIn(Elem::F8E8M0FNU, p2(-127)));
}

TEST(FloatFormatsAll, FloatToIntTruncatesAndSaturates) {
  const Signedness S = Signedness::Signed, U = Signedness::Unsigned;
  EXPECT_EQ(floatToInt(3.7, 32, S), 3);
  EXPECT_EQ(floatToInt(-3.7, 32, S), -3);
  EXPECT_EQ(floatToInt(1e10, 32, S), 2147483647);
  EXPECT_EQ(floatToInt(-1e10, 32, S), -2147483648LL);
  EXPECT_EQ(floatToInt(kInf, 32, S), 2147483647);
  EXPECT_EQ(floatToInt(-kInf, 32, S), -2147483648LL);
  EXPECT_EQ(floatToInt(kNaN, 32, S), 0);
  EXPECT_EQ(floatToInt(kNaN, 8, U), 0);
  EXPECT_EQ(floatToInt(127.9, 8, S), 127);
  EXPECT_EQ(floatToInt(128.0, 8, S), 127);
  EXPECT_EQ(floatToInt(-128.9, 8, S), -128);
  EXPECT_EQ(floatToInt(-129.0, 8, S), -128);
  EXPECT_EQ(floatToInt(255.9, 8, U), 255);
  EXPECT_EQ(floatToInt(256.0, 8, U), 255);
  EXPECT_EQ(floatToInt(-5.0, 8, U), 0);
  EXPECT_EQ(floatToInt(-0.5, 8, U), 0);
  EXPECT_EQ(floatToInt(1e19, 64, S), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(floatToInt(-1e19, 64, S), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(floatToInt(-p2(63), 64, S), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(floatToInt(p2(62), 64, S), int64_t{1} << 62);
  EXPECT_EQ(floatToInt(1e20, 64, U), -1);  // u64 max, as its bit pattern
  EXPECT_EQ(uint64_t(floatToInt(p2(63), 64, U)), uint64_t{1} << 63);
  EXPECT_EQ(floatToInt(5.0, 1, S), 0);   // i1 signed: [-1, 0]
  EXPECT_EQ(floatToInt(-1.5, 1, S), -1);
  EXPECT_EQ(floatToInt(5.0, 1, U), 1);
  EXPECT_EQ(floatToInt(65535.5, 16, U), 65535);
}

}  // namespace
}  // namespace tilesight::runtime
