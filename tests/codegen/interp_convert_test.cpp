// Per-op interpreter tests, conversions: integer widths, float formats
// (seed 001 §5.1.3: rounding, saturation, NaN per target), float <-> int,
// bit casts and pointer casts. Format layouts used for the expected bits:
// f16 1+5+10 (bias 15), bf16 1+8+7 (127), f8E4M3FN 1+4+3 (7, no inf, max
// 448), f8E5M2 1+5+2 (15, max 57344), f8E8M0FNU 8 exponent bits (2^(b-127),
// 0xFF NaN), f4E2M1FN 1+2+1 (1; values 0 .5 1 1.5 2 3 4 6).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

// `%r = <op> %a : tile<n x from> -> tile<n x to>` over constant %a, stored to %out.
std::string convert(const std::string& op, const std::string& from, const std::string& to, const std::string& n,
                    const std::string& a) {
  std::string tf = "tile<" + n + "x" + from + ">", tt = "tile<" + n + "x" + to + ">";
  return "    %a = constant <" + from + ": " + a + "> : " + tf + "\n" +  //
         "    %r = " + op + " : " + tf + " -> " + tt + "\n" + store("%r", n, to);
}

// --- exti trunci -------------------------------------------------------------------

TEST(InterpOpsConvert, ExtiSignedAndUnsigned) {
  const std::string a = "[-1, 127, -128, 5]";
  expectBits<int32_t>(runOut<int32_t>("i32", 4, convert("exti %a signed", "i8", "i32", "4", a)), {-1, 127, -128, 5});
  expectBits<int32_t>(runOut<int32_t>("i32", 4, convert("exti %a unsigned", "i8", "i32", "4", a)), {255, 127, 128, 5});
  expectBits<int64_t>(runOut<int64_t>("i64", 2, convert("exti %a unsigned", "i16", "i64", "2", "[-1, 32767]")),
                      {65535, 32767});
  // i1: 1 is -1 signed, 1 unsigned.
  expectBits<int32_t>(runOut<int32_t>("i32", 2, convert("exti %a signed", "i1", "i32", "2", "[1, 0]")), {-1, 0});
  expectBits<int32_t>(runOut<int32_t>("i32", 2, convert("exti %a unsigned", "i1", "i32", "2", "[1, 0]")), {1, 0});
}

TEST(InterpOpsConvert, TrunciKeepsTheLowBits) {
  // 256 = 0x100 -> 0; 255 -> 0xFF = -1; -129 = 0x..FF7F -> 0x7F = 127; 0x12345678 -> 0x78 = 120.
  expectBits<int8_t>(runOut<int8_t>("i8", 4, convert("trunci %a", "i32", "i8", "4", "[256, 255, -129, 305419896]")),
                     {0, -1, 127, 120});
  // i64 -> i16: 0x1_0000_8000 -> 0x8000 = -32768.
  expectBits<int16_t>(runOut<int16_t>("i16", 2, convert("trunci %a", "i64", "i16", "2", "[4295000064, -1]")), {-32768, -1});
  // i32 -> i1: the low bit.
  expectBits<uint8_t>(runOut<uint8_t>("i1", 4, convert("trunci %a", "i32", "i1", "4", "[2, 3, -1, 0]")), {0, 1, 1, 0});
}

TEST(InterpOpsConvert, I4ThroughTrunciAndExti) {
  // i8 -> i4 keeps the low nibble: 7 -> 7, 8 -> 0b1000 = -8, -1 -> -1, 0x1F -> 0xF = -1;
  // back to i8 signed: 7, -8, -1, -1; unsigned: 7, 8, 15, 15.
  auto run = [](const char* sign) {
    return runOut<int8_t>("i8", 4, std::string("    %a = constant <i8: [7, 8, -1, 31]> : tile<4xi8>\n"
                                               "    %n = trunci %a : tile<4xi8> -> tile<4xi4>\n"
                                               "    %r = exti %n ") +
                                       sign + " : tile<4xi4> -> tile<4xi8>\n" + store("%r", "4", "i8"));
  };
  expectBits<int8_t>(run("signed"), {7, -8, -1, -1});
  expectBits<int8_t>(run("unsigned"), {7, 8, 15, 15});
}

// --- ftof --------------------------------------------------------------------------

TEST(InterpOpsConvert, FtofF32ToF16TiesOverflowSubnormals) {
  // 65520 is halfway between 65504 (max) and 2^16: the tie goes to the even
  // side, 2^16, which is inf; 65519 is below it. 1 + 2^-11 (0x3F801000) ties
  // down to 1, 1 + 3*2^-11 (0x3F803000) up to 1 + 2^-9 (0x3C02). 2^-25
  // (0x33000000) is half the smallest subnormal 2^-24: to 0 (even);
  // 1.5 * 2^-24 (0x33C00000) ties to 2 * 2^-24 (0x0002).
  auto out = runOut<uint16_t>("f16", 8, convert("ftof %a", "f32", "f16", "8",
                                                "[1.0, 65520.0, 65519.0, 0x3F801000, 0x3F803000, 0x33000000, 0x33C00000, nan]"));
  expectHalf(out, {0x3C00, 0x7C00, 0x7BFF, 0x3C00, 0x3C02, 0x0000, 0x0002, kNaN16});
}

TEST(InterpOpsConvert, FtofF32ToBf16) {
  // bf16 keeps the top 16 bits of an f32, rounded: 0x3F808000 is a tie (to
  // even 0x3F80), 0x3F818000 a tie (up to 0x3F82), 0x3F808001 just above one
  // (up). f32 max 0x7F7FFFFF rounds up into inf.
  auto out = runOut<uint16_t>("bf16", 8, convert("ftof %a", "f32", "bf16", "8",
                                                 "[1.0, 0x3F808000, 0x3F818000, 0x7F7FFFFF, nan, 0x00000001, -inf, 0x3F808001]"));
  expectHalf(out, {0x3F80, 0x3F80, 0x3F82, 0x7F80, kNaN16, 0x0000, 0xFF80, 0x3F81}, true);
}

TEST(InterpOpsConvert, FtofToF8E4M3FNSaturates) {
  // 1 = 0 0111 000 = 0x38; 448 = 1.75 * 2^8 = 0 1111 110 = 0x7E (max). Out of
  // range and inf saturate to +-448 (seed 001 §5.1.3 satfinite); NaN gives
  // +MAX_NORM (§5.1.3: "NaN inputs are converted to positive MAX_NORM").
  // 1 + 1/16 ties to 1 (even), 1 + 3/16 to 1.25 (0x3A).
  auto out = runOut<uint8_t>("f8E4M3FN", 8, convert("ftof %a", "f32", "f8E4M3FN", "8",
                                                    "[1.0, 448.0, 500.0, inf, -inf, nan, 1.0625, 1.1875]"));
  expectBits<uint8_t>(out, {0x38, 0x7E, 0x7E, 0x7E, 0xFE, 0x7E, 0x38, 0x3A});
}

TEST(InterpOpsConvert, FtofToF8E4M3FNSubnormals) {
  // Subnormals are m * 2^-9: 2^-9 = 0x01; 2^-10 ties to 0; 1.5 * 2^-9 ties to
  // 0x02; signed zeros keep their sign; 240 = 1.875 * 2^7 = 0 1110 111 = 0x77;
  // 2^-6 is the smallest normal 0 0001 000 = 0x08.
  auto out = runOut<uint8_t>("f8E4M3FN", 8, convert("ftof %a", "f32", "f8E4M3FN", "8",
                                                    "[0.001953125, 0.0009765625, 0.0029296875, -0.001953125, 0.0, "
                                                    "-0.0, 240.0, 0.015625]"));
  expectBits<uint8_t>(out, {0x01, 0x00, 0x02, 0x81, 0x00, 0x80, 0x77, 0x08});
}

TEST(InterpOpsConvert, FtofToF8E5M2SaturatesButKeepsNaN) {
  // 1 = 0 01111 00 = 0x3C; 57344 = 1.75 * 2^15 = 0 11110 11 = 0x7B (max);
  // out of range and inf saturate (never inf, §5.1.3); NaN stays NaN. 1.125
  // ties to 1 (even), 1.375 to 1.5 (0x3E).
  auto out = runOut<uint8_t>("f8E5M2", 8, convert("ftof %a", "f32", "f8E5M2", "8",
                                                  "[1.0, 57344.0, 1.0e6, inf, -inf, nan, 1.125, 1.375]"));
  EXPECT_EQ(out[5] & 0x7C, 0x7C);
  EXPECT_NE(out[5] & 0x03, 0);  // a NaN: all-ones exponent, nonzero mantissa
  out[5] = 0;
  expectBits<uint8_t>(out, {0x3C, 0x7B, 0x7B, 0x7B, 0xFB, 0, 0x3C, 0x3E});
}

TEST(InterpOpsConvert, FtofToF8E8M0FNUZeroAndPositiveInf) {
  // Powers of two 2^(b-127): 1 = 0x7F, 2 = 0x80, 4 = 0x81, 8 = 0x82, 0.5 = 0x7E,
  // 2^-127 (f32 subnormal 0x00400000) = 0x00, 2^127 = 0xFE; NaN = 0xFF.
  const std::string a = "[1.0, 3.0, 0.75, 0x00400000, 0x7F000000, nan, 5.0, 0.5]";
  expectBits<uint8_t>(runOut<uint8_t>("f8E8M0FNU", 8, convert("ftof %a rounding<zero>", "f32", "f8E8M0FNU", "8", a)),
                      {0x7F, 0x80, 0x7E, 0x00, 0xFE, 0xFF, 0x81, 0x7E});
  expectBits<uint8_t>(runOut<uint8_t>("f8E8M0FNU", 8, convert("ftof %a rounding<positive_inf>", "f32", "f8E8M0FNU", "8", a)),
                      {0x7F, 0x81, 0x7F, 0x00, 0xFE, 0xFF, 0x82, 0x7E});
}

TEST(InterpOpsConvert, FtofToF8E8M0FNUNeedsADirectedRounding) {
  // Ops.td: for f8E8M0FNU only zero and positive_inf; otherwise only nearest_even.
  std::vector<Arg> none;
  RunResult r = runProgram(kernel("", "    %a = constant <f32: 1.0> : tile<f32>\n"
                                      "    %r = ftof %a : tile<f32> -> tile<f8E8M0FNU>"),
                           none);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.reasons.find("rounding"), std::string::npos) << r.reasons;
  r = runProgram(kernel("", "    %a = constant <f32: 1.0> : tile<f32>\n"
                            "    %r = ftof %a rounding<zero> : tile<f32> -> tile<f16>"),
                 none);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.reasons.find("rounding<zero>"), std::string::npos) << r.reasons;
}

TEST(InterpOpsConvert, FtofToF4E2M1FNPacksTwoPerByte) {
  // 0.5 = 0001, 1.5 = 0011, 7 and inf saturate to 6 = 0111, -1 = 1010, 2.5
  // ties to 2 = 0100 (even), 0.25 ties to 0, -0 = 1000. Element 2k is the
  // low nibble of byte k (seed 001 §5.2.2).
  auto out = runOut<uint8_t>("f4E2M1FN", 4, convert("ftof %a", "f32", "f4E2M1FN", "8",
                                                    "[0.5, 1.5, 7.0, inf, -1.0, 2.5, 0.25, -0.0]"));
  expectBits<uint8_t>(out, {0x31, 0x77, 0x4A, 0x80});
}

TEST(InterpOpsConvert, FtofNaNToF4E2M1FN) {
  // f4E2M1FN has no NaN (and no inf). §5.1.3's table does not list it; read
  // like e4m3, the other format without NaN: +MAX_NORM (6 = 0111). -6.5
  // saturates to -6 (1111).
  auto out = runOut<uint8_t>("f4E2M1FN", 1, convert("ftof %a", "f32", "f4E2M1FN", "2", "[nan, -6.5]"));
  expectBits<uint8_t>(out, {0xF7});
}

TEST(InterpOpsConvert, FtofWidening) {
  // f16 -> f32 is exact: 0x3555 = (1 + 341/1024) / 4 = 0.333251953125; the
  // subnormal 0x0001 = 2^-24 = f32 0x33800000.
  auto f = runOut<float>("f32", 4, convert("ftof %a", "f16", "f32", "4", "[0x3555, 0x0001, 0x7BFF, -inf]"));
  expectBits<float>(f, {0.333251953125f, f32(0x33800000), 65504.0f, -std::numeric_limits<float>::infinity()});
  // f8 and f4 to f32: e4m3 0x7E = 448, 0x01 = 2^-9; e5m2 0x7C = inf; e8m0 0x00 = 2^-127; f4 0xF = -6.
  auto e4 = runOut<float>("f32", 2, convert("ftof %a", "f8E4M3FN", "f32", "2", "[0x7E, 0x01]"));
  expectBits<float>(e4, {448.0f, 0.001953125f});
  auto e5 = runOut<float>("f32", 2, convert("ftof %a", "f8E5M2", "f32", "2", "[0x7C, 0xBC]"));
  expectBits<float>(e5, {std::numeric_limits<float>::infinity(), -1.0f});
  auto e8 = runOut<float>("f32", 2, convert("ftof %a", "f8E8M0FNU", "f32", "2", "[0x00, 0xFF]"));
  expectBits<float>(e8, {f32(0x00400000), std::numeric_limits<float>::quiet_NaN()});
  auto f4 = runOut<float>("f32", 2, convert("ftof %a", "f4E2M1FN", "f32", "2", "[0x7, 0xF]"));
  expectBits<float>(f4, {6.0f, -6.0f});
  auto d = runOut<double>("f64", 1, convert("ftof %a", "f16", "f64", "1", "[0x3555]"));
  expectBits<double>(d, {0.333251953125});
}

TEST(InterpOpsConvert, FtofNarrowing) {
  // f64 -> f32: 1e40 -> inf; 0.1 -> 0x3DCCCCCD (nearest); -1e-50 -> -0.
  auto f = runOut<float>("f32", 4, convert("ftof %a", "f64", "f32", "4", "[1.0e40, 0.1, -1.0e-50, 0.5]"));
  expectBits<float>(f, {std::numeric_limits<float>::infinity(), f32(0x3DCCCCCD), -0.0f, 0.5f});
  // bf16 -> f16: 0x4780 = 2^16 overflows f16; 0x3EAB = 0.333984375 = 1.3359375 * 2^-2
  // -> field 13, mantissa 344 = 0x158 -> 0x3558; bf16 subnormal 2^-133 -> 0.
  auto h = runOut<uint16_t>("f16", 4, convert("ftof %a", "bf16", "f16", "4", "[0x4780, 0x3EAB, 0x0001, 0xC000]"));
  expectHalf(h, {0x7C00, 0x3558, 0x0000, 0xC000});
}

// --- ftoi itof ---------------------------------------------------------------------

TEST(InterpOpsConvert, FtoiTruncatesAndSaturates) {
  // Toward zero. Ops.td leaves NaN, inf and out-of-range inputs undefined;
  // the interpreter saturates to the integer range and gives 0 for NaN
  // (what PTX cvt.rzi does), which these lanes pin down.
  auto out = runOut<int32_t>("i32", 8, convert("ftoi %a signed", "f32", "i32", "8",
                                               "[1.9, -1.9, 2147483648.0, -3.0e9, nan, inf, -0.5, 100.5]"));
  expectBits<int32_t>(out, {1, -1, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(), 0,
                            std::numeric_limits<int32_t>::max(), 0, 100});
  // Unsigned i8: 255.9 -> 255 (0xFF, read back as -1); 256 and -1 saturate to 255 and 0.
  expectBits<int8_t>(runOut<int8_t>("i8", 4, convert("ftoi %a unsigned", "f32", "i8", "4", "[255.9, 256.0, -1.0, 3.7]")),
                     {-1, -1, 0, 3});
}

TEST(InterpOpsConvert, FtoiWideAndNarrowFormats) {
  // f64 -> i64: 9.2e18 is exactly 9200000000000000000; -9.3e18 saturates.
  expectBits<int64_t>(
      runOut<int64_t>("i64", 4, convert("ftoi %a signed", "f64", "i64", "4", "[9.2e18, -9.3e18, -1.5, 0.0]")),
      {9200000000000000000ll, std::numeric_limits<int64_t>::min(), -1, 0});
  // f64 -> u64: 1.8e19 = 18000000000000000000 < 2^64, stored as its bit pattern.
  expectBits<uint64_t>(runOut<uint64_t>("i64", 1, convert("ftoi %a unsigned", "f64", "i64", "1", "[1.8e19]")),
                       {18000000000000000000ull});
  // f16 -> i16: 65504 saturates to 32767; -2.5 -> -2.
  expectBits<int16_t>(runOut<int16_t>("i16", 2, convert("ftoi %a signed", "f16", "i16", "2", "[65504.0, -2.5]")),
                      {32767, -2});
  expectBits<int32_t>(runOut<int32_t>("i32", 1, convert("ftoi %a unsigned", "bf16", "i32", "1", "[3.5]")), {3});
}

TEST(InterpOpsConvert, ItofRoundsToNearestEven) {
  // 2^24 + 1 ties between 2^24 and 2^24 + 2: even mantissa, 2^24; 2^31 - 1 -> 2^31.
  expectBits<float>(runOut<float>("f32", 4, convert("itof %a signed", "i32", "f32", "4", "[-1, 16777217, 2147483647, 3]")),
                    {-1.0f, 16777216.0f, 2147483648.0f, 3.0f});
  // Unsigned: -1 is 2^32 - 1 -> 2^32; 2^24 + 3 ties between 2^24+2 (odd) and 2^24+4 (even).
  expectBits<float>(runOut<float>("f32", 2, convert("itof %a unsigned", "i32", "f32", "2", "[-1, 16777219]")),
                    {4294967296.0f, 16777220.0f});
  // i64 -> f64: 2^53 + 1 ties to 2^53; unsigned -1 = 2^64 - 1 -> 2^64.
  expectBits<double>(runOut<double>("f64", 1, convert("itof %a signed", "i64", "f64", "1", "[9007199254740993]")),
                     {9007199254740992.0});
  expectBits<double>(runOut<double>("f64", 1, convert("itof %a unsigned", "i64", "f64", "1", "[-1]")),
                     {18446744073709551616.0});
  expectBits<double>(runOut<double>("f64", 1, convert("itof %a signed", "i16", "f64", "1", "[-32768]")), {-32768.0});
}

TEST(InterpOpsConvert, ItofToHalfFormats) {
  // i8 -> f16: -128 = -1 * 2^7 -> 1 10110 0 = 0xD800; 127 = 1.984375 * 2^6 -> 0 10101 1111110000 = 0x57F0.
  expectHalf(runOut<uint16_t>("f16", 2, convert("itof %a signed", "i8", "f16", "2", "[-128, 127]")), {0xD800, 0x57F0});
  // i32 -> f16: 65519 -> 65504; 65520 ties into inf; 70000 overflows.
  expectHalf(runOut<uint16_t>("f16", 4, convert("itof %a signed", "i32", "f16", "4", "[65519, 65520, 70000, -2]")),
             {0x7BFF, 0x7C00, 0x7C00, 0xC000});
  // i32 -> bf16 (8 significant bits): 257 ties to 256 (0x4380), 259 to 260 (0x4382).
  expectHalf(runOut<uint16_t>("bf16", 2, convert("itof %a signed", "i32", "bf16", "2", "[257, 259]")), {0x4380, 0x4382},
             true);
}

TEST(InterpOpsConvert, ItofI64ToBf16RoundsOnce) {
  // 2^60 + 2^52 + 1: bf16 keeps 8 significant bits, so near 2^60 its ulp is
  // 2^53 and 2^60 + 2^52 is the tie; the +1 puts the value above it: round up
  // to 2^60 + 2^53 = 0 10111011 0000001 = 0x5D81. (Through double, whose ulp
  // there is 2^8, the +1 is lost and the tie goes to even, 0x5D80.)
  expectHalf(runOut<uint16_t>("bf16", 2, convert("itof %a signed", "i64", "bf16", "2",
                                                 "[1157425104234217473, -1157425104234217473]")),
             {0x5D81, 0xDD81}, true);
  // Unsigned: 2^63 + 2^55 + 1 is above the tie 2^63 + 2^55: up to 2^63 + 2^56 = 0x5F01.
  expectHalf(runOut<uint16_t>("bf16", 1, convert("itof %a unsigned", "i64", "bf16", "1", "[-9187343239835811839]")), {0x5F01},
             true);
}

TEST(InterpOpsConvert, FtofToTf32) {
  // tf32: f32's exponent, 10 mantissa bits, stored in 4 bytes (the top 19
  // bits carry the value). 1 + 2^-11 (0x3F801000) ties to 1; 1 + 3 * 2^-11 to
  // 1 + 2^-9 (0x3F804000); just above a tie rounds up; f32 max rounds up to inf.
  auto out = runOut<uint32_t>("tf32", 4, convert("ftof %a", "f32", "tf32", "4",
                                                 "[0x3F801000, 0x3F803000, 0x3F801001, 0x7F7FFFFF]"));
  for (uint32_t& b : out) b &= 0xFFFFE000u;
  expectBits<uint32_t>(out, {0x3F800000u, 0x3F804000u, 0x3F802000u, 0x7F800000u});
}

TEST(InterpOpsConvert, ItofI1) {
  // An i1 1 is -1 signed and 1 unsigned.
  expectBits<float>(runOut<float>("f32", 2, convert("itof %a signed", "i1", "f32", "2", "[1, 0]")), {-1.0f, 0.0f});
  expectBits<float>(runOut<float>("f32", 2, convert("itof %a unsigned", "i1", "f32", "2", "[1, 0]")), {1.0f, 0.0f});
}

TEST(InterpOpsConvert, ItofToF8E4M3FNSaturates) {
  // Seed 001 §5.1.3 covers itof: e4m3 takes the nearest finite value, so
  // 1000 -> 448 (0x7E). (Ops.td's itof warning says out-of-range values
  // become NaN for types without inf; §5.1.3 is the more specific rule.)
  // 17 = 1.0625 * 2^4 ties to 16 = 0 1011 000 = 0x58.
  expectBits<uint8_t>(runOut<uint8_t>("f8E4M3FN", 2, convert("itof %a signed", "i32", "f8E4M3FN", "2", "[1000, 17]")),
                      {0x7E, 0x58});
  // e5m2 likewise: 100000 -> 57344 (0x7B), -100000 -> 0xFB.
  expectBits<uint8_t>(runOut<uint8_t>("f8E5M2", 2, convert("itof %a signed", "i32", "f8E5M2", "2", "[100000, -100000]")),
                      {0x7B, 0xFB});
}

// --- bitcast -----------------------------------------------------------------------

TEST(InterpOpsConvert, BitcastKeepsTheBits) {
  // f32 -> i32: 1.0, -0.0, inf; a signaling NaN keeps its pattern exactly
  // (Ops.td: "without modifying the underlying bits").
  expectBits<uint32_t>(
      runOut<uint32_t>("i32", 4, convert("bitcast %a", "f32", "i32", "4", "[1.0, -0.0, inf, 0x7FA00001]")),
      {0x3F800000u, 0x80000000u, 0x7F800000u, 0x7FA00001u});
  // i32 -> f32 -> memory: the same patterns back.
  expectBits<uint32_t>(runOut<uint32_t>("f32", 2, convert("bitcast %a", "i32", "f32", "2", "[1065353216, 2141192193]")),
                       {0x3F800000u, 0x7FA00001u});
  // i64 <-> f64.
  expectBits<double>(runOut<double>("f64", 1, convert("bitcast %a", "i64", "f64", "1", "[4607182418800017408]")), {1.0});
  expectBits<int64_t>(runOut<int64_t>("i64", 1, convert("bitcast %a", "f64", "i64", "1", "[-2.0]")),
                      {static_cast<int64_t>(0xC000000000000000ull)});
}

// Disabled: fails today. f16/bf16 elements are held as the f32 of their
// value and written back through float_formats' encodeFloat, which sets the
// quiet bit of a NaN, so a signaling f16 NaN (0x7D00) comes back as 0x7F00.
// Keeping it needs the narrow formats' NaN payloads kept exactly (the f32
// and f64 cases are kept, BitcastKeepsTheBits).
TEST(InterpOpsConvert, DISABLED_BitcastKeepsSignalingNaNsOfF16) {
  expectHalf(runOut<uint16_t>("f16", 1, convert("bitcast %a", "i16", "f16", "1", "[32000]")), {0x7D00});
}

TEST(InterpOpsConvert, BitcastHalfFormats) {
  // i16 0x3C00 -> f16 1.0; bf16 1.0 (0x3F80) -> i16 0x3F80; f16 0x3C00 read
  // as bf16 is 2^-7 (exponent 120), widened to f32 0x3C000000.
  expectHalf(runOut<uint16_t>("f16", 1, convert("bitcast %a", "i16", "f16", "1", "[15360]")), {0x3C00});
  expectBits<int16_t>(runOut<int16_t>("i16", 1, convert("bitcast %a", "bf16", "i16", "1", "[1.0]")), {0x3F80});
  auto out = runOut<float>("f32", 1, "    %a = constant <f16: 1.0> : tile<1xf16>\n"
                                     "    %b = bitcast %a : tile<1xf16> -> tile<1xbf16>\n"
                                     "    %r = ftof %b : tile<1xbf16> -> tile<1xf32>\n" +
                                         store("%r", "1", "f32"));
  expectBits<float>(out, {0.0078125f});
}

// --- pointers ------------------------------------------------------------------------

TEST(InterpOpsConvert, PtrToIntCountsBytes) {
  // Offsetting a ptr<f32> by 3 elements moves 12 bytes; a ptr<f16> by 3, 6;
  // a ptr<f4E2M1FN> by 2 elements, 1 byte (two per byte).
  std::string program = kernel("%out: tile<ptr<i64>>, %f: tile<ptr<f32>>, %h: tile<ptr<f16>>, %q: tile<ptr<f4E2M1FN>>",
                               "    %c3 = constant <i32: 3> : tile<i32>\n"
                               "    %c2 = constant <i32: 2> : tile<i32>\n"
                               "    %f3 = offset %f, %c3 : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>\n"
                               "    %h3 = offset %h, %c3 : tile<ptr<f16>>, tile<i32> -> tile<ptr<f16>>\n"
                               "    %q2 = offset %q, %c2 : tile<ptr<f4E2M1FN>>, tile<i32> -> tile<ptr<f4E2M1FN>>\n"
                               "    %fa = ptr_to_int %f : tile<ptr<f32>> -> tile<i64>\n"
                               "    %fb = ptr_to_int %f3 : tile<ptr<f32>> -> tile<i64>\n"
                               "    %ha = ptr_to_int %h : tile<ptr<f16>> -> tile<i64>\n"
                               "    %hb = ptr_to_int %h3 : tile<ptr<f16>> -> tile<i64>\n"
                               "    %qa = ptr_to_int %q : tile<ptr<f4E2M1FN>> -> tile<i64>\n"
                               "    %qb = ptr_to_int %q2 : tile<ptr<f4E2M1FN>> -> tile<i64>\n"
                               "    %d0 = subi %fb, %fa : tile<i64>\n"
                               "    %d1 = subi %hb, %ha : tile<i64>\n"
                               "    %d2 = subi %qb, %qa : tile<i64>\n"
                               "    %e0 = reshape %d0 : tile<i64> -> tile<1xi64>\n"
                               "    %e1 = reshape %d1 : tile<i64> -> tile<1xi64>\n"
                               "    %e2 = reshape %d2 : tile<i64> -> tile<1xi64>\n"
                               "    %e01 = cat %e0, %e1 dim = 0 : tile<1xi64>, tile<1xi64> -> tile<2xi64>\n"
                               "    %z = constant <i64: 0> : tile<1xi64>\n"
                               "    %e2z = cat %e2, %z dim = 0 : tile<1xi64>, tile<1xi64> -> tile<2xi64>\n"
                               "    %r = cat %e01, %e2z dim = 0 : tile<2xi64>, tile<2xi64> -> tile<4xi64>\n" +
                                   store("%r", "4", "i64"));
  std::vector<Arg> args{Arg::zeros(32), Arg::zeros(16), Arg::zeros(8), Arg::zeros(4)};
  expectRan(runProgram(program, args), program);
  expectBits<int64_t>(args[0].as<int64_t>(), {12, 6, 1, 0});
}

TEST(InterpOpsConvert, IntToPtrAndPtrToPtr) {
  // int_to_ptr(ptr_to_int(p) + 4) is element 1 of an f32 array; ptr_to_ptr
  // to ptr<i32> stores 0x40400000 = 3.0 into element 2 through an i32 view
  // of the same bytes.
  std::string program = kernel("%out: tile<ptr<f32>>",
                               "    %a = ptr_to_int %out : tile<ptr<f32>> -> tile<i64>\n"
                               "    %four = constant <i64: 4> : tile<i64>\n"
                               "    %b = addi %a, %four : tile<i64>\n"
                               "    %p1 = int_to_ptr %b : tile<i64> -> tile<ptr<f32>>\n"
                               "    %v = constant <f32: 7.0> : tile<f32>\n"
                               "    %t0 = store_ptr_tko weak %p1, %v : tile<ptr<f32>>, tile<f32> -> token\n"
                               "    %pi = ptr_to_ptr %out : tile<ptr<f32>> -> tile<ptr<i32>>\n"
                               "    %c2 = constant <i32: 2> : tile<i32>\n"
                               "    %pi2 = offset %pi, %c2 : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>\n"
                               "    %w = constant <i32: 1077936128> : tile<i32>\n"
                               "    %t1 = store_ptr_tko weak %pi2, %w : tile<ptr<i32>>, tile<i32> -> token\n");
  std::vector<Arg> args{Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<float>(args[0].as<float>(), {0.0f, 7.0f, 3.0f, 0.0f});
}

TEST(InterpOpsConvert, PtrToPtrIntoNibbles) {
  // A ptr<i8> cast to ptr<f4E2M1FN> addresses the low nibble of its byte;
  // offset 1 is the high nibble: storing 1.0 (0010) and 6.0 (0111) there gives 0x72.
  std::string program = kernel("%out: tile<ptr<i8>>",
                               "    %q = ptr_to_ptr %out : tile<ptr<i8>> -> tile<ptr<f4E2M1FN>>\n"
                               "    %v = constant <f4E2M1FN: [1.0, 6.0]> : tile<2xf4E2M1FN>\n" +
                                   store("%v", "2", "f4E2M1FN", "%q"));
  std::vector<Arg> args{Arg::zeros(2)};
  expectRan(runProgram(program, args), program);
  expectBits<uint8_t>(args[0].as<uint8_t>(), {0x72, 0x00});
}

}  // namespace
}  // namespace tilesight::testing
