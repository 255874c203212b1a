// Per-op interpreter tests, float ops: arithmetic with its IEEE rounding
// modes, fma, max/min with NaN and signed zeros, the math functions,
// comparisons and flush-to-zero. Expected bit patterns are worked out by
// hand from the formats (f32: 1+8+23 bits, bias 127; f16: 1+5+10, bias 15;
// bf16: 1+8+7, bias 127; f64: 1+11+52, bias 1023).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

const float kInfF = std::numeric_limits<float>::infinity();
const float kNaNF = std::numeric_limits<float>::quiet_NaN();
const double kInfD = std::numeric_limits<double>::infinity();
const double kNaND = std::numeric_limits<double>::quiet_NaN();

// `%r = <op>` over constants %a, %b (and %c when given) of tile<n x elem>.
std::string body(const std::string& elem, const std::string& n, const std::string& op, const std::string& a,
                 const std::string& b = "", const std::string& c = "") {
  std::string t = "tile<" + n + "x" + elem + ">";
  std::string s = "    %a = constant <" + elem + ": " + a + "> : " + t + "\n";
  if (!b.empty()) s += "    %b = constant <" + elem + ": " + b + "> : " + t + "\n";
  if (!c.empty()) s += "    %c = constant <" + elem + ": " + c + "> : " + t + "\n";
  return s + "    %r = " + op + " : " + t + "\n" + store("%r", n, elem);
}

std::vector<float> runF32(const std::string& n, const std::string& op, const std::string& a, const std::string& b = "",
                          const std::string& c = "") {
  return runOut<float>("f32", shapeCount(n), body("f32", n, op, a, b, c));
}

// --- addf subf mulf divf ------------------------------------------------------

TEST(InterpOpsFloat, AddfSpecialValuesF32) {
  // -0 + -0 = -0; inf + -inf = NaN; +0 + -0 = +0; 3e38 + 3e38 overflows to inf;
  // 1 + -1 is an exact zero, +0 when rounding to nearest; NaN propagates.
  auto out = runF32("8", "addf %a, %b", "[1.5, -0.0, inf, inf, 0.0, 3.0e38, 1.0, nan]",
                    "[2.25, -0.0, -inf, 1.0, -0.0, 3.0e38, -1.0, 1.0]");
  expectBits<float>(out, {3.75f, -0.0f, kNaNF, kInfF, 0.0f, kInfF, 0.0f, kNaNF});
}

TEST(InterpOpsFloat, SubfF64) {
  // 0 - 0 = +0, -0 - 0 = -0, 1e308 - -1e308 = 2e308 -> inf.
  auto out = runOut<double>("f64", 4, body("f64", "4", "subf %a, %b", "[1.0, 0.0, -0.0, 1.0e308]",
                                           "[0.25, 0.0, 0.0, -1.0e308]"));
  expectBits<double>(out, {0.75, 0.0, -0.0, kInfD});
}

TEST(InterpOpsFloat, MulfF16) {
  // 2*3 = 6 = 1.5*2^2 -> 0x4600; 65504*2 overflows -> inf 0x7C00; 0.25 = 0x3400;
  // -3*0 = -0 = 0x8000; 2^-14 * 0.5 = 2^-15, an f16 subnormal (0x0200), kept.
  auto out = runOut<uint16_t>("f16", 8, body("f16", "8", "mulf %a, %b",
                                             "[2.0, 65504.0, 0.5, -3.0, 0x0400, 1.0, -1.0, 0.0]",
                                             "[3.0, 2.0, 0.5, 0.0, 0.5, 1.0, 1.0, inf]"));
  expectHalf(out, {0x4600, 0x7C00, 0x3400, 0x8000, 0x0200, 0x3C00, 0xBC00, kNaN16});
}

TEST(InterpOpsFloat, DivfBf16) {
  // 1/3 = 1.0101010|1010..b * 2^-2: the dropped bits are above half, round up
  // to 1.0101011b -> 0x3EAB. 1/0 = inf, -1/0 = -inf, 0/0 = NaN.
  auto out = runOut<uint16_t>("bf16", 4, body("bf16", "4", "divf %a, %b", "[1.0, 1.0, -1.0, 0.0]", "[3.0, 0.0, 0.0, 0.0]"));
  expectHalf(out, {0x3EAB, 0x7F80, 0xFF80, kNaN16}, true);
}

struct RoundCase {
  const char* mode;
  std::vector<uint32_t> want;
};

TEST(InterpOpsFloat, DivfRoundingModesF32) {
  // 1/3 = 1.01010101010101010101010|1010..b * 2^-2: the 23-bit mantissa
  // 0x2AAAAA, the rest is 2/3 of an ulp. Nearest and up: 0x3EAAAAAB; toward
  // zero and down: 0x3EAAAAAA. For -1/3 down and up swap.
  const std::vector<RoundCase> cases = {
      {"", {0x3EAAAAAB, 0xBEAAAAAB}},
      {" rounding<nearest_even>", {0x3EAAAAAB, 0xBEAAAAAB}},
      {" rounding<zero>", {0x3EAAAAAA, 0xBEAAAAAA}},
      {" rounding<negative_inf>", {0x3EAAAAAA, 0xBEAAAAAB}},
      {" rounding<positive_inf>", {0x3EAAAAAB, 0xBEAAAAAA}},
  };
  for (const RoundCase& c : cases) {
    SCOPED_TRACE(c.mode);
    auto out = runF32("2", std::string("divf %a, %b") + c.mode, "[1.0, -1.0]", "[3.0, 3.0]");
    EXPECT_EQ(bitsOf(out[0]), c.want[0]);
    EXPECT_EQ(bitsOf(out[1]), c.want[1]);
  }
}

TEST(InterpOpsFloat, AddfRoundingModesF32) {
  // 1 + 2^-30 (0x30800000) lies strictly between 1 and 1+2^-23; -1 - 2^-30 likewise.
  // max + max = 2^129 - 2^105 overflows: nearest and up give inf, zero and down
  // the largest finite 0x7F7FFFFF. 1 + -1 is an exact zero: +0, except -0
  // when rounding down (IEEE 754 §6.3).
  const std::string a = "[1.0, -1.0, 0x7F7FFFFF, 1.0]", b = "[0x30800000, 0xB0800000, 0x7F7FFFFF, -1.0]";
  const std::vector<RoundCase> cases = {
      {"", {0x3F800000, 0xBF800000, 0x7F800000, 0x00000000}},
      {" rounding<zero>", {0x3F800000, 0xBF800000, 0x7F7FFFFF, 0x00000000}},
      {" rounding<negative_inf>", {0x3F800000, 0xBF800001, 0x7F7FFFFF, 0x80000000}},
      {" rounding<positive_inf>", {0x3F800001, 0xBF800000, 0x7F800000, 0x00000000}},
  };
  for (const RoundCase& c : cases) {
    SCOPED_TRACE(c.mode);
    auto out = runF32("4", std::string("addf %a, %b") + c.mode, a, b);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(bitsOf(out[i]), c.want[i]) << "element " << i;
  }
}

TEST(InterpOpsFloat, AddfRoundingModesF16) {
  // f16 directed rounding is emulated (Ops.td: "yes*"), the result the same as
  // a direct rounding: 1 + 2^-12 (0x0C00) lies between 0x3C00 and 0x3C01;
  // 65504 + 65504 overflows; 1 + -1 is an exact zero.
  const std::string a = "[0x3C00, 0xBC00, 0x7BFF, 0x3C00]", b = "[0x0C00, 0x8C00, 0x7BFF, 0xBC00]";
  const std::vector<std::pair<const char*, std::vector<uint16_t>>> cases = {
      {"", {0x3C00, 0xBC00, 0x7C00, 0x0000}},
      {" rounding<zero>", {0x3C00, 0xBC00, 0x7BFF, 0x0000}},
      {" rounding<negative_inf>", {0x3C00, 0xBC01, 0x7BFF, 0x8000}},
      {" rounding<positive_inf>", {0x3C01, 0xBC00, 0x7C00, 0x0000}},
  };
  for (const auto& [mode, want] : cases) {
    SCOPED_TRACE(mode);
    expectHalf(runOut<uint16_t>("f16", 4, body("f16", "4", std::string("addf %a, %b") + mode, a, b)), want);
  }
}

TEST(InterpOpsFloat, SubfRoundingModesBf16) {
  // 1 - 2^-10 lies between 0x3F7F (1 - 2^-8) and 0x3F80 (1), nearer to 1.
  const std::vector<std::pair<const char*, uint16_t>> cases = {
      {"", 0x3F80}, {" rounding<zero>", 0x3F7F}, {" rounding<negative_inf>", 0x3F7F}, {" rounding<positive_inf>", 0x3F80}};
  for (const auto& [mode, want] : cases) {
    SCOPED_TRACE(mode);
    auto out = runOut<uint16_t>("bf16", 2, body("bf16", "2", std::string("subf %a, %b") + mode, "[1.0, 2.0]",
                                                "[0x3A80, 0.5]"));
    expectHalf(out, {want, 0x3FC0}, true);  // 2 - 0.5 = 1.5 exactly: 0x3FC0 in every mode
  }
}

TEST(InterpOpsFloat, DivfRoundingModesF64) {
  // 1/3 = 1.0101..b * 2^-2 with 52 mantissa bits 0x5555555555555 and 1/3 ulp left over.
  const std::vector<std::pair<const char*, uint64_t>> cases = {{"", 0x3FD5555555555555},
                                                               {" rounding<zero>", 0x3FD5555555555555},
                                                               {" rounding<negative_inf>", 0x3FD5555555555555},
                                                               {" rounding<positive_inf>", 0x3FD5555555555556}};
  for (const auto& [mode, want] : cases) {
    SCOPED_TRACE(mode);
    auto out = runOut<double>("f64", 1, body("f64", "1", std::string("divf %a, %b") + mode, "[1.0]", "[3.0]"));
    EXPECT_EQ(bitsOf(out[0]), want);
  }
}

TEST(InterpOpsFloat, DivfApproxAndFull) {
  // Ops.td: approx multiplies by the reciprocal; "For 2^(126) < |rhs| <
  // 2^(128), if lhs is infinity the operation returns NaN, otherwise 0". Below
  // that, within 2 ulp: these quotients are exact. 0x7F000000 = 2^127.
  auto approx = runF32("8", "divf %a, %b rounding<approx>", "[1.0, -3.0, inf, 0x7F000000, 8.0, 1.0, 0x7F000000, 6.0]",
                       "[0x7F000000, 0x7F000000, 0x7F000000, 0x7F000000, 2.0, 0x7E800000, 0xFF000000, -3.0]");
  expectBits<float>(approx, {0.0f, -0.0f, kNaNF, 0.0f, 4.0f, f32(0x00800000), -0.0f, -2.0f});
  // full: full range; these are exact.
  expectBits<float>(runF32("2", "divf %a, %b rounding<full>", "[0x7F000000, 1.0]", "[0x7F000000, 4.0]"), {1.0f, 0.25f});
}

TEST(InterpOpsFloat, MulfRoundingPositiveInfF32) {
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: up gives 1 + 2^-21 (0x3F800003), the others 0x3F800002.
  EXPECT_EQ(bitsOf(runF32("1", "mulf %a, %b rounding<positive_inf>", "[0x3F800001]", "[0x3F800001]")[0]), 0x3F800003u);
  EXPECT_EQ(bitsOf(runF32("1", "mulf %a, %b rounding<zero>", "[0x3F800001]", "[0x3F800001]")[0]), 0x3F800002u);
}

// --- fma ----------------------------------------------------------------------

TEST(InterpOpsFloat, FmaRoundsOnceF32) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24; minus 1 exactly is 2^-11 * (1 + 2^-13)
  // = 0x3A000400. A separate multiply would round the 2^-24 away (a tie, to
  // even) and give 2^-11 = 0x3A000000.
  auto out = runF32("2", "fma %a, %b, %c", "[0x3F800800, 2.0]", "[0x3F800800, 3.0]", "[-1.0, 1.0]");
  expectBits<float>(out, {f32(0x3A000400), 7.0f});
}

TEST(InterpOpsFloat, FmaRoundingModeF32) {
  // 1*1 + 2^-30: up gives 1 + 2^-23.
  EXPECT_EQ(bitsOf(runF32("1", "fma %a, %b, %c rounding<positive_inf>", "[1.0]", "[1.0]", "[0x30800000]")[0]),
            0x3F800001u);
}

TEST(InterpOpsFloat, FmaF16Bf16F64) {
  // f16: (1 + 2^-6)^2 - 1 = 2^-5 + 2^-12 = 2^-5 * (1 + 2^-7): exponent field 10,
  // mantissa 2^-7 -> 0x2808 (a separate f16 multiply would give 0x2800).
  expectHalf(runOut<uint16_t>("f16", 1, body("f16", "1", "fma %a, %b, %c", "[0x3C10]", "[0x3C10]", "[-1.0]")), {0x2808});
  // bf16: 2*3 + 1 = 7 = 1.75 * 2^2 -> 0x40E0.
  expectHalf(runOut<uint16_t>("bf16", 1, body("bf16", "1", "fma %a, %b, %c", "[2.0]", "[3.0]", "[1.0]")), {0x40E0}, true);
  // f64: 0.1 is 0.1 + 2^-54/10 too big, so 0.1*10 - 1 = 2^-54 exactly (a
  // separate multiply rounds 0.1*10 to 1 and gives 0).
  auto d = runOut<double>("f64", 1, body("f64", "1", "fma %a, %b, %c", "[0.1]", "[10.0]", "[-1.0]"));
  EXPECT_EQ(bitsOf(d[0]), 0x3C90000000000000u);
}

TEST(InterpOpsFloat, FmaNarrowFormatsRoundOnceFromTheExactValue) {
  // f16: 0.75 (0x3A00) * 1.333984375 (0x3D56, 683/512) = 2049/2048 = 1 + 2^-11
  // exactly, the tie between 1 and 1 + 2^-10; adding 2^-24 (0x0001) puts the
  // exact result just above it: 1 + 2^-10 = 0x3C01. (Rounding to f32 first
  // would drop the 2^-24 -- half an f32 ulp, a tie to even -- and leave a tie
  // that goes down to 1.)
  expectHalf(runOut<uint16_t>("f16", 1, body("f16", "1", "fma %a, %b, %c", "[0x3A00]", "[0x3D56]", "[0x0001]")), {0x3C01});
  // bf16: 1.75 * 0.578125 (37/64) = 259/256 = 1 + 3 * 2^-8, the tie between
  // 0x3F81 and 0x3F82; minus 2^-24 (0xB380) is just below it: 0x3F81.
  expectHalf(runOut<uint16_t>("bf16", 1, body("bf16", "1", "fma %a, %b, %c", "[1.75]", "[0.578125]", "[0xB380]")), {0x3F81},
             true);
  // bf16 with an addend far below double precision: 1 + 3 * 2^-8 + 2^-100 still rounds up (0x3F82),
  // and 1 + 3 * 2^-8 - 2^-100 down (0x3F81). 2^-100 = 0x0D80.
  expectHalf(runOut<uint16_t>("bf16", 2, body("bf16", "2", "fma %a, %b, %c", "[1.75, 1.75]", "[0.578125, 0.578125]",
                                              "[0x0D80, 0x8D80]")),
             {0x3F82, 0x3F81}, true);
}

// --- maxf minf ----------------------------------------------------------------

TEST(InterpOpsFloat, MaxfMinfNaNAndSignedZeroF32) {
  // Ops.td: without propagate_nan a NaN loses to a number (maximumNumber);
  // both NaN gives NaN; +0 is greater than -0.
  const std::string a = "[1.0, nan, nan, -0.0, 0.0, -inf, inf, 7.0]", b = "[2.0, 3.0, nan, 0.0, -0.0, 5.0, -inf, -7.0]";
  expectBits<float>(runF32("8", "maxf %a, %b", a, b), {2.0f, 3.0f, kNaNF, 0.0f, 0.0f, 5.0f, kInfF, 7.0f});
  expectBits<float>(runF32("8", "minf %a, %b", a, b), {1.0f, 3.0f, kNaNF, -0.0f, -0.0f, -kInfF, -kInfF, -7.0f});
  // propagate_nan: any NaN operand gives NaN (IEEE 754-2019 maximum/minimum).
  expectBits<float>(runF32("8", "maxf %a, %b propagate_nan", a, b), {2.0f, kNaNF, kNaNF, 0.0f, 0.0f, 5.0f, kInfF, 7.0f});
  expectBits<float>(runF32("8", "minf %a, %b propagate_nan", a, b),
                    {1.0f, kNaNF, kNaNF, -0.0f, -0.0f, -kInfF, -kInfF, -7.0f});
}

TEST(InterpOpsFloat, MaxfMinfF16Bf16F64) {
  // f16: max(-0, +0) = +0 (0x0000), max(NaN, -1) = -1 (0xBC00).
  expectHalf(runOut<uint16_t>("f16", 2, body("f16", "2", "maxf %a, %b", "[-0.0, nan]", "[0.0, -1.0]")), {0x0000, 0xBC00});
  // bf16: min(+0, -0) = -0 (0x8000), min(2, 3) = 2 (0x4000).
  expectHalf(runOut<uint16_t>("bf16", 2, body("bf16", "2", "minf %a, %b", "[0.0, 2.0]", "[-0.0, 3.0]")), {0x8000, 0x4000},
             true);
  auto d = runOut<double>("f64", 2, body("f64", "2", "maxf %a, %b propagate_nan", "[1.0, nan]", "[-1.0, 1.0]"));
  expectBits<double>(d, {1.0, kNaND});
}

// --- remf pow atan2 -------------------------------------------------------------

TEST(InterpOpsFloat, RemfTruncatedSpecialCases) {
  // x - trunc(x/y)*y: 7.5 - 3*2 = 1.5, sign of the dividend; y = 0 -> NaN;
  // x = inf -> NaN; y = inf -> x; 5 - 2*2.5 = 0; NaN -> NaN.
  auto out = runF32("8", "remf %a, %b", "[7.5, -7.5, 7.5, 1.0, inf, 3.0, 5.0, nan]",
                    "[2.0, 2.0, -2.0, 0.0, 1.0, inf, 2.5, 1.0]");
  expectBits<float>(out, {1.5f, -1.5f, 1.5f, kNaNF, kNaNF, 3.0f, 0.0f, kNaNF});
  auto d = runOut<double>("f64", 2, body("f64", "2", "remf %a, %b", "[-10.0, 0.5]", "[3.0, 0.25]"));
  expectBits<double>(d, {-1.0, 0.0});  // -10 - (-3)*3 = -1; 0.5 - 2*0.25 = 0
}

TEST(InterpOpsFloat, Pow) {
  // 2^10, 4^0.5, 9^-0.5 = 1/3, 0^0 = 1 (IEEE pow).
  auto out = runF32("4", "pow %a, %b", "[2.0, 4.0, 9.0, 0.0]", "[10.0, 0.5, -0.5, 0.0]");
  EXPECT_EQ(out[0], 1024.0f);
  EXPECT_FLOAT_EQ(out[1], 2.0f);
  EXPECT_FLOAT_EQ(out[2], 0.333333333f);
  EXPECT_EQ(out[3], 1.0f);
  auto h = runOut<uint16_t>("f16", 1, body("f16", "1", "pow %a, %b", "[3.0]", "[3.0]"));
  expectHalf(h, {0x4EC0});  // 27 = 1.6875 * 2^4: field 19, mantissa 0.6875*1024 = 704 = 0x2C0
}

TEST(InterpOpsFloat, FpowiRoundsTheExactPowerOnce) {
  // Integer exponents of either sign and zero; 0^-1 = inf; (-2)^3 = -8.
  // 1.1f squared is 1.21000008...: rounded once it is the f32 product 1.1f * 1.1f.
  auto prog = [](const std::string& elem, const std::string& a) {
    std::string t = "tile<8x" + elem + ">";
    return "    %a = constant <" + elem + ": " + a + "> : " + t + "\n"
           "    %n = constant <i32: [2, -1, 0, -1, 3, 2, -2, 1]> : tile<8xi32>\n"
           "    %r = fpowi %a, %n : " + t + ", tile<8xi32>\n" + store("%r", "8", elem);
  };
  auto out = runOut<float>("f32", 8, prog("f32", "[3.0, 4.0, 7.0, 0.0, -2.0, 1.1, 2.0, nan]"));
  expectBits<float>(out, {9.0f, 0.25f, 1.0f, kInfF, -8.0f, 1.1f * 1.1f, 0.25f, kNaNF});
  auto d = runOut<double>("f64", 8, prog("f64", "[3.0, 4.0, 7.0, 0.0, -2.0, 1.5, -2.0, 0.5]"));
  expectBits<double>(d, {9.0, 0.25, 1.0, kInfD, -8.0, 2.25, 0.25, 0.5});
  // f16: 9, 0.25, 1, inf, -8; 300^2 = 90000 overflows to inf; 2^-2; 3^1.
  auto h = runOut<uint16_t>("f16", 8, prog("f16", "[3.0, 4.0, 7.0, 0.0, -2.0, 300.0, 2.0, 3.0]"));
  expectHalf(h, {0x4880, 0x3400, 0x3C00, 0x7C00, 0xC800, 0x7C00, 0x3400, 0x4200});
}

TEST(InterpOpsFloat, Atan2TakesTheQuadrantFromBothSigns) {
  // Ops.td: atan2(x, y) is the angle of x / y (x the numerator), the
  // quadrant from both signs; its example: x = [1, -1, 0, 2], y = [1, 1, 1, 0].
  auto out = runF32("8", "atan2 %a, %b", "[1.0, -1.0, 0.0, 2.0, 1.0, -1.0, 0.0, 0.0]",
                    "[1.0, 1.0, 1.0, 0.0, -1.0, -1.0, -1.0, 1.0]");
  const float pi = 3.14159265f;
  EXPECT_FLOAT_EQ(out[0], pi / 4);
  EXPECT_FLOAT_EQ(out[1], -pi / 4);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_FLOAT_EQ(out[3], pi / 2);
  EXPECT_FLOAT_EQ(out[4], 3 * pi / 4);   // atan(1 / -1) in the second quadrant
  EXPECT_FLOAT_EQ(out[5], -3 * pi / 4);  // third
  EXPECT_FLOAT_EQ(out[6], pi);           // atan2(+0, -1) = pi
  EXPECT_EQ(bitsOf(out[7]), 0u);
}

// --- unary --------------------------------------------------------------------

TEST(InterpOpsFloat, AbsfF16ClearsTheSignBit) {
  // -2 0xC000 -> 0x4000; -0 0x8000 -> 0; -inf 0xFC00 -> 0x7C00; a negative
  // NaN 0xFE00 -> a positive NaN.
  auto out = runOut<uint16_t>("f16", 4, "    %a = constant <f16: [-2.0, -0.0, -inf, 0xFE00]> : tile<4xf16>\n"
                                        "    %r = absf %a : tile<4xf16>\n" +
                                            store("%r", "4", "f16"));
  expectHalf(out, {0x4000, 0x0000, 0x7C00, kNaN16});
  EXPECT_EQ(out[3] & 0x8000, 0);
}

TEST(InterpOpsFloat, NegfBf16FlipsTheSignBit) {
  auto out = runOut<uint16_t>("bf16", 4, "    %a = constant <bf16: [1.0, 0.0, -inf, -0.0]> : tile<4xbf16>\n"
                                         "    %r = negf %a : tile<4xbf16>\n" +
                                             store("%r", "4", "bf16"));
  expectHalf(out, {0xBF80, 0x8000, 0x7F80, 0x0000}, true);
}

TEST(InterpOpsFloat, CeilFloorF64) {
  const std::string a = "[1.5, -1.5, -0.5, 2.0, -0.0, inf, 0.5, 4503599627370497.0]";  // the last is 2^52 + 1
  auto up = runOut<double>("f64", 8, body("f64", "8", "ceil %a", a));
  expectBits<double>(up, {2.0, -1.0, -0.0, 2.0, -0.0, kInfD, 1.0, 4503599627370497.0});  // ceil(-0.5) = -0
  auto down = runOut<double>("f64", 8, body("f64", "8", "floor %a", a));
  expectBits<double>(down, {1.0, -2.0, -1.0, 2.0, -0.0, kInfD, 0.0, 4503599627370497.0});
}

TEST(InterpOpsFloat, CeilFloorF32) {
  expectBits<float>(runF32("4", "ceil %a", "[0.1, -0.1, -inf, nan]"), {1.0f, -0.0f, -kInfF, kNaNF});
  expectBits<float>(runF32("4", "floor %a", "[0.1, -0.1, 1.0e30, -2.5]"), {0.0f, -1.0f, 1.0e30f, -3.0f});
}

TEST(InterpOpsFloat, TrigonometryF32) {
  // pi/2 and pi as f32 are off by less than an ulp; sin(inf) is NaN.
  auto s = runF32("4", "sin %a", "[0.0, -0.0, 1.5707964, inf]");
  EXPECT_EQ(bitsOf(s[0]), 0u);
  EXPECT_EQ(bitsOf(s[1]), 0x80000000u);  // sin(-0) = -0
  EXPECT_FLOAT_EQ(s[2], 1.0f);
  EXPECT_TRUE(std::isnan(s[3]));
  auto c = runF32("4", "cos %a", "[0.0, 3.14159265, 1.0, -1.0]");
  EXPECT_EQ(c[0], 1.0f);
  EXPECT_FLOAT_EQ(c[1], -1.0f);
  EXPECT_FLOAT_EQ(c[2], 0.540302306f);
  EXPECT_FLOAT_EQ(c[3], 0.540302306f);
  auto t = runF32("2", "tan %a", "[0.0, 0.785398163]");
  EXPECT_EQ(t[0], 0.0f);
  EXPECT_FLOAT_EQ(t[1], 1.0f);
}

TEST(InterpOpsFloat, HyperbolicF32) {
  auto ch = runF32("2", "cosh %a", "[0.0, 1.0]");
  EXPECT_EQ(ch[0], 1.0f);
  EXPECT_FLOAT_EQ(ch[1], 1.54308063f);  // (e + 1/e) / 2
  auto sh = runF32("2", "sinh %a", "[-0.0, 1.0]");
  EXPECT_EQ(bitsOf(sh[0]), 0x80000000u);
  EXPECT_FLOAT_EQ(sh[1], 1.17520119f);  // (e - 1/e) / 2
  auto th = runF32("4", "tanh %a", "[0.0, inf, -inf, 1.0]");
  EXPECT_EQ(th[0], 0.0f);
  EXPECT_EQ(th[1], 1.0f);
  EXPECT_EQ(th[2], -1.0f);
  EXPECT_FLOAT_EQ(th[3], 0.761594156f);
}

TEST(InterpOpsFloat, ExpAndLogF32) {
  auto e = runF32("4", "exp %a", "[0.0, 1.0, -inf, inf]");
  expectBits<float>({e[0], e[2], e[3]}, {1.0f, 0.0f, kInfF});
  EXPECT_FLOAT_EQ(e[1], 2.71828183f);
  expectBits<float>(runF32("4", "exp2 %a", "[3.0, -1.0, -inf, 10.0]"), {8.0f, 0.5f, 0.0f, 1024.0f});
  auto l = runF32("4", "log %a", "[1.0, 2.71828183, 0.0, -1.0]");
  EXPECT_EQ(l[0], 0.0f);
  EXPECT_FLOAT_EQ(l[1], 1.0f);
  EXPECT_EQ(l[2], -kInfF);  // log(0) = -inf
  EXPECT_TRUE(std::isnan(l[3]));
  expectBits<float>(runF32("4", "log2 %a", "[8.0, 0.5, inf, 1.0]"), {3.0f, -1.0f, kInfF, 0.0f});
}

TEST(InterpOpsFloat, ExpRoundsToTheNarrowFormats) {
  // e = 2.71828..: f16 (10 bits): 2 * (1 + 368/1024) = 2.71875 -> 0x4000 + 368 = 0x4170;
  // bf16 (7 bits): 2 * (1 + 46/128) = 2.71875 -> 0x4000 + 46 = 0x402E.
  expectHalf(runOut<uint16_t>("f16", 1, body("f16", "1", "exp %a", "[1.0]")), {0x4170});
  expectHalf(runOut<uint16_t>("bf16", 1, body("bf16", "1", "exp %a", "[1.0]")), {0x402E}, true);
  auto d = runOut<double>("f64", 2, body("f64", "2", "exp %a", "[1.0, 0.0]"));
  EXPECT_DOUBLE_EQ(d[0], 2.718281828459045);
  EXPECT_EQ(d[1], 1.0);
  auto l = runOut<double>("f64", 2, body("f64", "2", "log2 %a", "[1024.0, 0.125]"));
  expectBits<double>(l, {10.0, -3.0});
}

TEST(InterpOpsFloat, SqrtAndRsqrt) {
  // sqrt(-0) = -0 (IEEE); sqrt(-1) = NaN.
  expectBits<float>(runF32("4", "sqrt %a", "[4.0, 0.25, -1.0, -0.0]"), {2.0f, 0.5f, kNaNF, -0.0f});
  // rsqrt(+0) = inf, rsqrt(-0) = -inf, rsqrt(inf) = 0.
  expectBits<float>(runF32("4", "rsqrt %a", "[4.0, 0.25, inf, -0.0]"), {0.5f, 2.0f, 0.0f, -kInfF});
  // f16: sqrt(2) = 1.41421356 = 1 + 424.15/1024 -> 0x3C00 + 424 = 0x3DA8.
  expectHalf(runOut<uint16_t>("f16", 1, body("f16", "1", "sqrt %a", "[2.0]")), {0x3DA8});
  auto d = runOut<double>("f64", 1, body("f64", "1", "rsqrt %a", "[16.0]"));
  EXPECT_EQ(d[0], 0.25);
}

TEST(InterpOpsFloat, SqrtRoundingModesF32) {
  // sqrt(2) = 1.4142135623..; its f32 neighbours 0x3FB504F3 = 1.4142135381
  // (2.4e-8 below) and 0x3FB504F4 = 1.4142136574 (9.5e-8 above).
  const std::vector<std::pair<const char*, uint32_t>> cases = {{"", 0x3FB504F3},
                                                               {" rounding<zero>", 0x3FB504F3},
                                                               {" rounding<negative_inf>", 0x3FB504F3},
                                                               {" rounding<positive_inf>", 0x3FB504F4}};
  for (const auto& [mode, want] : cases) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(bitsOf(runF32("1", std::string("sqrt %a") + mode, "[2.0]")[0]), want);
  }
}

// --- cmpf ---------------------------------------------------------------------

struct CmpfCase {
  const char* pred;
  std::vector<uint8_t> ordered, unordered;
};

TEST(InterpOpsFloat, CmpfEachPredicateOrderedAndUnordered) {
  // Pairs: 1=1, 1<2, NaN?1, 2>1, -0=+0, inf=inf, NaN?NaN, -inf<5. A NaN makes
  // every ordered comparison false and every unordered one true.
  const std::string a = "[1.0, 1.0, nan, 2.0, -0.0, inf, nan, -inf]", b = "[1.0, 2.0, 1.0, 1.0, 0.0, inf, nan, 5.0]";
  const std::vector<CmpfCase> cases = {
      {"equal", {1, 0, 0, 0, 1, 1, 0, 0}, {1, 0, 1, 0, 1, 1, 1, 0}},
      {"not_equal", {0, 1, 0, 1, 0, 0, 0, 1}, {0, 1, 1, 1, 0, 0, 1, 1}},
      {"less_than", {0, 1, 0, 0, 0, 0, 0, 1}, {0, 1, 1, 0, 0, 0, 1, 1}},
      {"less_than_or_equal", {1, 1, 0, 0, 1, 1, 0, 1}, {1, 1, 1, 0, 1, 1, 1, 1}},
      {"greater_than", {0, 0, 0, 1, 0, 0, 0, 0}, {0, 0, 1, 1, 0, 0, 1, 0}},
      {"greater_than_or_equal", {1, 0, 0, 1, 1, 1, 0, 0}, {1, 0, 1, 1, 1, 1, 1, 0}},
  };
  for (const CmpfCase& c : cases) {
    for (const char* ord : {"ordered", "unordered"}) {
      SCOPED_TRACE(std::string(c.pred) + " " + ord);
      std::string prog = "    %a = constant <f32: " + a + "> : tile<8xf32>\n    %b = constant <f32: " + b +
                         "> : tile<8xf32>\n    %r = cmpf " + c.pred + " " + ord +
                         " %a, %b : tile<8xf32> -> tile<8xi1>\n" + store("%r", "8", "i1");
      expectBits<uint8_t>(runOut<uint8_t>("i1", 8, prog), std::string(ord) == "ordered" ? c.ordered : c.unordered);
    }
  }
}

TEST(InterpOpsFloat, CmpfF16Bf16F64) {
  auto run = [](const std::string& elem, const std::string& pred) {
    std::string t = "tile<2x" + elem + ">";
    return runOut<uint8_t>("i1", 2, "    %a = constant <" + elem + ": [1.0, nan]> : " + t + "\n    %b = constant <" + elem +
                                        ": [2.0, 0.0]> : " + t + "\n    %r = cmpf " + pred + " %a, %b : " + t +
                                        " -> tile<2xi1>\n" + store("%r", "2", "i1"));
  };
  expectBits<uint8_t>(run("f16", "less_than ordered"), {1, 0});
  expectBits<uint8_t>(run("bf16", "greater_than unordered"), {0, 1});
  expectBits<uint8_t>(run("f64", "not_equal ordered"), {1, 0});
}

// --- flush_to_zero (f32 only) ---------------------------------------------------
// Ops.td: "If set, flushes subnormal inputs and results to sign-preserving
// zero"; seed 001 §5.1.3: rounding first, then flushing the rounded result.
// (mulf's description says "to positive zero"; only positive subnormals meet
// mulf below, where the two readings agree.)

TEST(InterpOpsFloat, AddfFlushToZero) {
  // 0x00000001 and 0x00400000 are subnormal, 0x00800000 is the smallest normal.
  // 1.5*2^-126 - 2^-126 = 2^-127 = 0x00400000: a subnormal result.
  const std::string a = "[0x00000001, 0x00400000, 0x00C00000, 0x80C00000]";
  const std::string b = "[0.0, 0x00400000, 0x80800000, 0x00800000]";
  auto kept = runF32("4", "addf %a, %b", a, b);
  expectBits<float>(kept, {f32(0x00000001), f32(0x00800000), f32(0x00400000), f32(0x80400000)});
  auto flushed = runF32("4", "addf %a, %b flush_to_zero", a, b);
  // Inputs flushed: 0 + 0; 0 + 0 (the normal sum never happens); results flushed: +0, -0.
  expectBits<float>(flushed, {0.0f, 0.0f, 0.0f, -0.0f});
}

TEST(InterpOpsFloat, FlushToZeroAppliesToInputsUnderDirectedRounding) {
  // 1 + 2^-149 rounded up is 1 + 2^-23; with flush_to_zero the subnormal
  // input is zero first, and 1 + 0 = 1 in every mode.
  EXPECT_EQ(bitsOf(runF32("1", "addf %a, %b rounding<positive_inf>", "[1.0]", "[0x00000001]")[0]), 0x3F800001u);
  EXPECT_EQ(bitsOf(runF32("1", "addf %a, %b rounding<positive_inf> flush_to_zero", "[1.0]", "[0x00000001]")[0]),
            0x3F800000u);
  // -1 - 2^-149 rounded down is 0xBF800001 unless the input is flushed.
  EXPECT_EQ(bitsOf(runF32("1", "subf %a, %b rounding<negative_inf> flush_to_zero", "[-1.0]", "[0x00000001]")[0]),
            0xBF800000u);
  // 2^-127 * 4 = 2^-125 (normal), unless 2^-127 is flushed first.
  EXPECT_EQ(bitsOf(runF32("1", "mulf %a, %b rounding<zero> flush_to_zero", "[0x00400000]", "[4.0]")[0]), 0u);
  // fma(2^-127, 2, 2^-127) = 3 * 2^-127 = 0x00C00000 (normal), 0 with flushed inputs.
  EXPECT_EQ(bitsOf(runF32("1", "fma %a, %b, %c rounding<positive_inf> flush_to_zero", "[0x00400000]", "[2.0]",
                          "[0x00400000]")[0]),
            0u);
}

TEST(InterpOpsFloat, MulfDivfFmaFlushToZero) {
  // 2^-126 * 0.5 = 2^-127 (subnormal result); 2^-127 * 4 = 2^-125 (subnormal input).
  expectBits<float>(runF32("2", "mulf %a, %b", "[0x00800000, 0x00400000]", "[0.5, 4.0]"),
                    {f32(0x00400000), f32(0x01000000)});
  expectBits<float>(runF32("2", "mulf %a, %b flush_to_zero", "[0x00800000, 0x00400000]", "[0.5, 4.0]"), {0.0f, 0.0f});
  // 1 / 2^127 = 2^-127 is flushed; 2^-148 / 2^-149 = 2, but 0 / 0 = NaN when flushed.
  expectBits<float>(runF32("2", "divf %a, %b", "[1.0, 0x00000002]", "[0x7F000000, 0x00000001]"), {f32(0x00400000), 2.0f});
  expectBits<float>(runF32("2", "divf %a, %b flush_to_zero", "[1.0, 0x00000002]", "[0x7F000000, 0x00000001]"),
                    {0.0f, kNaNF});
  expectBits<float>(runF32("1", "fma %a, %b, %c", "[0x00400000]", "[2.0]", "[0x00400000]"), {f32(0x00C00000)});
  expectBits<float>(runF32("1", "fma %a, %b, %c flush_to_zero", "[0x00400000]", "[2.0]", "[0x00400000]"), {0.0f});
}

TEST(InterpOpsFloat, MathFlushToZero) {
  // sqrt(2^-149) = 2^-74.5 is normal, but the input flushes to 0.
  EXPECT_NE(runF32("1", "sqrt %a", "[0x00000001]")[0], 0.0f);
  expectBits<float>(runF32("1", "sqrt %a flush_to_zero", "[0x00000001]"), {0.0f});
  // exp2(-130) = 2^-130 = 0x00080000 (2^19 * 2^-149), a subnormal result.
  expectBits<float>(runF32("1", "exp2 %a", "[-130.0]"), {f32(0x00080000)});
  expectBits<float>(runF32("1", "exp2 %a flush_to_zero", "[-130.0]"), {0.0f});
  // rsqrt(2^-127) = 2^63.5; flushed, rsqrt(0) = inf.
  EXPECT_FLOAT_EQ(runF32("1", "rsqrt %a", "[0x00400000]")[0], 13043817825332782212.0f);
  expectBits<float>(runF32("1", "rsqrt %a flush_to_zero", "[0x00400000]"), {kInfF});
}

TEST(InterpOpsFloat, MaxfMinfFlushToZero) {
  // Flushed, 2^-149 is +0 and -2^-149 is -0: max(+0, -0) = +0, min(-0, +0) = -0.
  expectBits<float>(runF32("1", "maxf %a, %b", "[0x00000001]", "[-0.0]"), {f32(0x00000001)});
  expectBits<float>(runF32("1", "maxf %a, %b flush_to_zero", "[0x00000001]", "[-0.0]"), {0.0f});
  expectBits<float>(runF32("1", "minf %a, %b", "[0x80000001]", "[0.0]"), {f32(0x80000001)});
  expectBits<float>(runF32("1", "minf %a, %b flush_to_zero", "[0x80000001]", "[0.0]"), {-0.0f});
}

TEST(InterpOpsFloat, FlushToZeroIsRejectedForF16) {
  // Ops.td: the flush_to_zero modifier applies only to f32.
  std::string program = kernel("", "    %a = constant <f16: 1.0> : tile<f16>\n"
                                   "    %r = addf %a, %a flush_to_zero : tile<f16>");
  std::vector<Arg> args;
  RunResult r = runProgram(program, args);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.reasons.find("flush_to_zero"), std::string::npos) << r.reasons;
}

}  // namespace
}  // namespace tilesight::testing
