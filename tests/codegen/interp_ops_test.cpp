// Per-op interpreter tests, integer ops: each program computes one tile from
// constants and stores it to %out; the expected values are worked out by
// hand from the op's definition (Ops.td descriptions, seed 001), with the
// arithmetic in the comments. Element types i1/i8/i16/i32/i64 all appear.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

// `%r = <op line>` over constants %a, %b of tile<n x elem>, stored to %out.
std::string binaryBody(const std::string& elem, const std::string& n, const std::string& a, const std::string& b,
                       const std::string& op) {
  std::string t = "tile<" + n + "x" + elem + ">";
  return "    %a = constant <" + elem + ": " + a + "> : " + t + "\n" +  //
         "    %b = constant <" + elem + ": " + b + "> : " + t + "\n" +  //
         "    %r = " + op + "\n" + store("%r", n, elem);
}

TEST(InterpOpsInteger, AddiWrapsI8) {
  // 100+100 = 200 -> 200-256 = -56; -128+-1 = -129 -> 127; 127+1 -> -128.
  auto out = runOut<int8_t>("i8", 4, binaryBody("i8", "4", "[100, -128, 127, 5]", "[100, -1, 1, -5]",
                                                "addi %a, %b : tile<4xi8>"));
  expectBits<int8_t>(out, {-56, 127, -128, 0});
}

TEST(InterpOpsInteger, AddiOverflowFlagChangesNothingI64) {
  // overflow<no_signed_wrap> is a promise to the compiler; the values are the same.
  auto out = runOut<int64_t>("i64", 2, binaryBody("i64", "2", "[9223372036854775807, -3]", "[1, 10]",
                                                  "addi %a, %b overflow<no_signed_wrap> : tile<2xi64>"));
  expectBits<int64_t>(out, {std::numeric_limits<int64_t>::min(), 7});
}

TEST(InterpOpsInteger, SubiWrapsI16) {
  // -32768 - 1 = -32769 -> +32767; 100 - -200 = 300.
  auto out = runOut<int16_t>("i16", 4, binaryBody("i16", "4", "[0, -32768, 100, 5]", "[1, 1, -200, 7]",
                                                  "subi %a, %b : tile<4xi16>"));
  expectBits<int16_t>(out, {-1, 32767, 300, -2});
}

TEST(InterpOpsInteger, MuliKeepsTheLowHalfI32) {
  // 65536^2 = 2^32 -> 0; 0x7fffffff * 2 = 0xfffffffe -> -2.
  auto out = runOut<int32_t>("i32", 4, binaryBody("i32", "4", "[65536, -3, 2147483647, 7]", "[65536, 5, 2, -6]",
                                                  "muli %a, %b : tile<4xi32>"));
  expectBits<int32_t>(out, {0, -15, -2, -42});
}

TEST(InterpOpsInteger, MuliI64) {
  // 2^32 * 2^32 = 2^64 -> 0; 3037000500^2 = 9223372037000250000 > 2^63 -> wraps by 2^64.
  auto out = runOut<int64_t>("i64", 2, binaryBody("i64", "2", "[4294967296, 3037000500]", "[4294967296, 3037000500]",
                                                  "muli %a, %b : tile<2xi64>"));
  expectBits<int64_t>(out, {0, static_cast<int64_t>(9223372037000250000ull)});
}

TEST(InterpOpsInteger, ShliI32) {
  // 1<<31 = 0x80000000; -1<<4 = -16; 3<<30 = 0xC0000000 = -1073741824.
  auto out = runOut<int32_t>("i32", 4, binaryBody("i32", "4", "[1, 1, -1, 3]", "[31, 0, 4, 30]",
                                                  "shli %a, %b : tile<4xi32>"));
  expectBits<int32_t>(out, {std::numeric_limits<int32_t>::min(), 1, -16, -1073741824});
}

TEST(InterpOpsInteger, ShriSignedFillsWithTheSignBitI8) {
  // -128>>7 = -1; -1>>3 = -1; 64>>6 = 1; -7>>1 = floor(-3.5) = -4.
  auto out = runOut<int8_t>("i8", 4, binaryBody("i8", "4", "[-128, -1, 64, -7]", "[7, 3, 6, 1]",
                                                "shri %a, %b signed : tile<4xi8>"));
  expectBits<int8_t>(out, {-1, -1, 1, -4});
}

TEST(InterpOpsInteger, ShriUnsignedFillsWithZerosI8) {
  // 0x80>>7 = 1; 0xFF>>3 = 31; 64>>6 = 1; 0xF9 (249)>>1 = 124.
  auto out = runOut<int8_t>("i8", 4, binaryBody("i8", "4", "[-128, -1, 64, -7]", "[7, 3, 6, 1]",
                                                "shri %a, %b unsigned : tile<4xi8>"));
  expectBits<int8_t>(out, {1, 31, 1, 124});
}

TEST(InterpOpsInteger, ShriUnsignedI16) {
  // 0x8000>>15 = 1; 255>>8 = 0; 1>>15 = 0; 3>>1 = 1. (Amounts of the width or
  // more are undefined by the spec and not tested.)
  auto out = runOut<int16_t>("i16", 4, binaryBody("i16", "4", "[-32768, 255, 1, 3]", "[15, 8, 15, 1]",
                                                  "shri %a, %b unsigned : tile<4xi16>"));
  expectBits<int16_t>(out, {1, 0, 0, 1});
}

struct DivCase {
  const char* attrs;
  std::vector<int32_t> want;
};

TEST(InterpOpsInteger, DiviSignedEachRounding) {
  // 7/2 = 3.5, -7/2 = -3.5, 7/-2 = -3.5, -7/-2 = 3.5, then exact 6/3 = 2 and -6/3 = -2,
  // and 1/3 = 0.33.., -1/3 = -0.33..
  const std::vector<DivCase> cases = {
      {"signed", {3, -3, -3, 3, 2, -2, 0, 0}},                          // toward zero
      {"signed rounding<zero>", {3, -3, -3, 3, 2, -2, 0, 0}},           // the default, spelled out
      {"signed rounding<negative_inf>", {3, -4, -4, 3, 2, -2, 0, -1}},  // floor
      {"signed rounding<positive_inf>", {4, -3, -3, 4, 2, -2, 1, 0}},   // ceiling
  };
  for (const DivCase& c : cases) {
    SCOPED_TRACE(c.attrs);
    auto out = runOut<int32_t>("i32", 8, binaryBody("i32", "8", "[7, -7, 7, -7, 6, -6, 1, -1]", "[2, 2, -2, -2, 3, 3, 3, 3]",
                                                    std::string("divi %a, %b ") + c.attrs + " : tile<8xi32>"));
    expectBits<int32_t>(out, c.want);
  }
}

TEST(InterpOpsInteger, DiviUnsignedI8) {
  // As unsigned: -1 = 255, -56 = 200. 255/2 = 127.5, 7/2 = 3.5, 200/3 = 66.7, 10/5 = 2.
  auto zero = runOut<int8_t>("i8", 4, binaryBody("i8", "4", "[-1, 7, -56, 10]", "[2, 2, 3, 5]",
                                                 "divi %a, %b unsigned : tile<4xi8>"));
  expectBits<int8_t>(zero, {127, 3, 66, 2});
  // Ceiling: 128 is 0x80, read back as i8 -128.
  auto up = runOut<int8_t>("i8", 4, binaryBody("i8", "4", "[-1, 7, -56, 10]", "[2, 2, 3, 5]",
                                               "divi %a, %b unsigned rounding<positive_inf> : tile<4xi8>"));
  expectBits<int8_t>(up, {-128, 4, 67, 2});
}

TEST(InterpOpsInteger, DiviUnsignedDivisorAboveSignedRangeI64) {
  // -1 as unsigned is 2^64-1: (2^64-1) / (2^63) = 1 (remainder 2^63-1); 5 / (2^64-2) = 0.
  auto out = runOut<int64_t>("i64", 2, binaryBody("i64", "2", "[-1, 5]", "[-9223372036854775808, -2]",
                                                  "divi %a, %b unsigned : tile<2xi64>"));
  expectBits<int64_t>(out, {1, 0});
}

TEST(InterpOpsInteger, DiviNegativeInfWithUnsignedIsRejected) {
  // Ops.td: "The use of the rounding flag negative_inf with unsigned is not a valid combination."
  std::string program = kernel("", "    %a = constant <i32: 7> : tile<i32>\n"
                                   "    %r = divi %a, %a unsigned rounding<negative_inf> : tile<i32>");
  std::vector<Arg> args;
  RunResult r = runProgram(program, args);
  EXPECT_FALSE(r.verified);
  EXPECT_NE(r.reasons.find("unsigned"), std::string::npos) << r.reasons;
}

TEST(InterpOpsInteger, DiviByZeroStopsTheRun) {
  // Undefined by the spec; the interpreter reports it instead of crashing.
  std::string program = kernel("", "    %a = constant <i32: 7> : tile<i32>\n"
                                   "    %z = constant <i32: 0> : tile<i32>\n"
                                   "    %r = divi %a, %z signed : tile<i32>");
  std::vector<Arg> args;
  RunResult r = runProgram(program, args);
  ASSERT_TRUE(r.verified) << r.reasons;
  EXPECT_FALSE(r.outcome.ok);
  EXPECT_NE(r.outcome.fault.find("division by zero"), std::string::npos) << r.outcome.fault;
}

TEST(InterpOpsInteger, RemiSignedTakesTheDividendsSign) {
  // Ops.td: remi(7, 3) = 1, remi(7, -3) = 1, remi(-7, 3) = -1, remi(-7, -3) = -1.
  auto out = runOut<int32_t>("i32", 4, binaryBody("i32", "4", "[7, 7, -7, -7]", "[3, -3, 3, -3]",
                                                  "remi %a, %b signed : tile<4xi32>"));
  expectBits<int32_t>(out, {1, 1, -1, -1});
}

TEST(InterpOpsInteger, RemiUnsigned) {
  // -8 as u32 is 4294967288 = 3 * 1431655762 + 2; 7 % 4294967295 = 7; 9 % 4 = 1;
  // i16 case below.
  auto out = runOut<int32_t>("i32", 4, binaryBody("i32", "4", "[-8, 7, 9, -1]", "[3, -1, 4, 16]",
                                                  "remi %a, %b unsigned : tile<4xi32>"));
  // 4294967295 % 16 = 15.
  expectBits<int32_t>(out, {2, 7, 1, 15});
  auto i16 = runOut<int16_t>("i16", 2, binaryBody("i16", "2", "[-1, -1]", "[10, -10]",
                                                  "remi %a, %b unsigned : tile<2xi16>"));
  // 65535 % 10 = 5; 65535 % 65526 = 9.
  expectBits<int16_t>(i16, {5, 9});
}

TEST(InterpOpsInteger, MaxiMiniSignedAndUnsignedI16) {
  const std::string a = "[-1, 5, -32768, 7]", b = "[1, -5, 32767, 7]";
  // Signed: plain order. Unsigned: -1 = 65535, -5 = 65531, -32768 = 32768.
  expectBits<int16_t>(runOut<int16_t>("i16", 4, binaryBody("i16", "4", a, b, "maxi %a, %b signed : tile<4xi16>")),
                      {1, 5, 32767, 7});
  expectBits<int16_t>(runOut<int16_t>("i16", 4, binaryBody("i16", "4", a, b, "mini %a, %b signed : tile<4xi16>")),
                      {-1, -5, -32768, 7});
  expectBits<int16_t>(runOut<int16_t>("i16", 4, binaryBody("i16", "4", a, b, "maxi %a, %b unsigned : tile<4xi16>")),
                      {-1, -5, -32768, 7});
  expectBits<int16_t>(runOut<int16_t>("i16", 4, binaryBody("i16", "4", a, b, "mini %a, %b unsigned : tile<4xi16>")),
                      {1, 5, 32767, 7});
}

TEST(InterpOpsInteger, MaxiMiniI64Extremes) {
  const std::string a = "[-9223372036854775808, 0]", b = "[9223372036854775807, -1]";
  expectBits<int64_t>(runOut<int64_t>("i64", 2, binaryBody("i64", "2", a, b, "maxi %a, %b signed : tile<2xi64>")),
                      {std::numeric_limits<int64_t>::max(), 0});
  // Unsigned: 2^63 > 2^63-1, and 2^64-1 > 0.
  expectBits<int64_t>(runOut<int64_t>("i64", 2, binaryBody("i64", "2", a, b, "mini %a, %b unsigned : tile<2xi64>")),
                      {std::numeric_limits<int64_t>::max(), 0});
}

TEST(InterpOpsInteger, MulhiiIsTheUnsignedHighHalf) {
  // Ops.td's example: 2^31 * 2 = 2^32 -> high word 1. 0xFFFFFFFF^2 = 0xFFFFFFFE00000001
  // -> 0xFFFFFFFE = -2. 65536^2 = 2^32 -> 1. 3 * 5 = 15 -> 0.
  auto out = runOut<int32_t>("i32", 4, binaryBody("i32", "4", "[-2147483648, -1, 65536, 3]", "[2, -1, 65536, 5]",
                                                  "mulhii %a, %b : tile<4xi32>"));
  expectBits<int32_t>(out, {1, -2, 1, 0});
}

TEST(InterpOpsInteger, MulhiiI8AndI64) {
  // 255 * 255 = 65025 = 0xFE01 -> 0xFE = -2; 16 * 16 = 256 -> 1.
  expectBits<int8_t>(runOut<int8_t>("i8", 2, binaryBody("i8", "2", "[-1, 16]", "[-1, 16]", "mulhii %a, %b : tile<2xi8>")),
                     {-2, 1});
  // (2^64-1) * 2 = 2^65 - 2 -> high 64 bits 1; 2^32 * 2^32 = 2^64 -> 1.
  expectBits<int64_t>(runOut<int64_t>("i64", 2, binaryBody("i64", "2", "[-1, 4294967296]", "[2, 4294967296]",
                                                           "mulhii %a, %b : tile<2xi64>")),
                      {1, 1});
}

TEST(InterpOpsInteger, BitwiseI64) {
  const std::string a = "[1085102592571150095, -1]", b = "[71777214294589695, 0]";  // 0x0F0F.., 0x00FF00FF..
  expectBits<int64_t>(runOut<int64_t>("i64", 2, binaryBody("i64", "2", a, b, "andi %a, %b : tile<2xi64>")),
                      {0x000F000F000F000Fll, 0});
  expectBits<int64_t>(runOut<int64_t>("i64", 2, binaryBody("i64", "2", a, b, "ori %a, %b : tile<2xi64>")),
                      {0x0FFF0FFF0FFF0FFFll, -1});
  expectBits<int64_t>(runOut<int64_t>("i64", 2, binaryBody("i64", "2", a, b, "xori %a, %b : tile<2xi64>")),
                      {0x0FF00FF00FF00FF0ll, -1});
}

TEST(InterpOpsInteger, BitwiseI1) {
  // i1 values are stored one per byte, 0 or 1.
  const std::string a = "[0, 0, 1, 1]", b = "[0, 1, 0, 1]";
  expectBits<uint8_t>(runOut<uint8_t>("i1", 4, binaryBody("i1", "4", a, b, "andi %a, %b : tile<4xi1>")), {0, 0, 0, 1});
  expectBits<uint8_t>(runOut<uint8_t>("i1", 4, binaryBody("i1", "4", a, b, "ori %a, %b : tile<4xi1>")), {0, 1, 1, 1});
  expectBits<uint8_t>(runOut<uint8_t>("i1", 4, binaryBody("i1", "4", a, b, "xori %a, %b : tile<4xi1>")), {0, 1, 1, 0});
  // 1 + 1 = 2 wraps to 0 in one bit.
  expectBits<uint8_t>(runOut<uint8_t>("i1", 4, binaryBody("i1", "4", a, b, "addi %a, %b : tile<4xi1>")), {0, 1, 1, 0});
}

TEST(InterpOpsInteger, AbsiReadsSignedWritesUnsigned) {
  // |-128| = 128, which is 0x80: the i8 bit pattern of -128 (Ops.td: the
  // result is read as unsigned).
  auto out = runOut<int8_t>("i8", 4, "    %a = constant <i8: [-128, -5, 0, 127]> : tile<4xi8>\n"
                                     "    %r = absi %a : tile<4xi8>\n" +
                                         store("%r", "4", "i8"));
  expectBits<int8_t>(out, {-128, 5, 0, 127});
  auto wide = runOut<int64_t>("i64", 2, "    %a = constant <i64: [-9223372036854775807, -1]> : tile<2xi64>\n"
                                        "    %r = absi %a : tile<2xi64>\n" +
                                            store("%r", "2", "i64"));
  expectBits<int64_t>(wide, {std::numeric_limits<int64_t>::max(), 1});
}

TEST(InterpOpsInteger, NegiWrapsAtTheMinimumI16) {
  // Ops.td example: negi [0, 1, 2, 3] = [0, -1, -2, -3]; -(-32768) wraps to -32768.
  auto out = runOut<int16_t>("i16", 8, "    %a = constant <i16: [0, 1, 2, 3, -32768, 32767, -5, 100]> : tile<8xi16>\n"
                                       "    %r = negi %a : tile<8xi16>\n" +
                                           store("%r", "8", "i16"));
  expectBits<int16_t>(out, {0, -1, -2, -3, -32768, -32767, 5, -100});
}

struct CmpCase {
  const char* pred;
  const char* sign;
  std::vector<uint8_t> want;
};

TEST(InterpOpsInteger, CmpiEachPredicateSignedAndUnsigned) {
  // a = [-1, 1, 5, 5], b = [1, -1, 5, 6]. Unsigned, -1 is 0xFFFFFFFF, the largest.
  const std::vector<CmpCase> cases = {
      {"equal", "signed", {0, 0, 1, 0}},
      {"not_equal", "signed", {1, 1, 0, 1}},
      {"less_than", "signed", {1, 0, 0, 1}},
      {"less_than_or_equal", "signed", {1, 0, 1, 1}},
      {"greater_than", "signed", {0, 1, 0, 0}},
      {"greater_than_or_equal", "signed", {0, 1, 1, 0}},
      {"equal", "unsigned", {0, 0, 1, 0}},
      {"not_equal", "unsigned", {1, 1, 0, 1}},
      {"less_than", "unsigned", {0, 1, 0, 1}},
      {"less_than_or_equal", "unsigned", {0, 1, 1, 1}},
      {"greater_than", "unsigned", {1, 0, 0, 0}},
      {"greater_than_or_equal", "unsigned", {1, 0, 1, 0}},
  };
  for (const CmpCase& c : cases) {
    SCOPED_TRACE(std::string(c.pred) + " " + c.sign);
    std::string body = "    %a = constant <i32: [-1, 1, 5, 5]> : tile<4xi32>\n"
                       "    %b = constant <i32: [1, -1, 5, 6]> : tile<4xi32>\n"
                       "    %r = cmpi " +
                       std::string(c.pred) + " %a, %b, " + c.sign + " : tile<4xi32> -> tile<4xi1>\n" + store("%r", "4", "i1");
    expectBits<uint8_t>(runOut<uint8_t>("i1", 4, body), c.want);
  }
}

TEST(InterpOpsInteger, CmpiI8AndI64Unsigned) {
  // i8: -128 is 128 unsigned, above 127. i64: -1 is 2^64-1.
  std::string body = "    %a = constant <i8: [-128, 127]> : tile<2xi8>\n"
                     "    %b = constant <i8: [127, -128]> : tile<2xi8>\n"
                     "    %r = cmpi greater_than %a, %b, unsigned : tile<2xi8> -> tile<2xi1>\n" +
                     store("%r", "2", "i1");
  expectBits<uint8_t>(runOut<uint8_t>("i1", 2, body), {1, 0});
  std::string wide = "    %a = constant <i64: [-1, 0]> : tile<2xi64>\n"
                     "    %b = constant <i64: [0, -1]> : tile<2xi64>\n"
                     "    %r = cmpi less_than %a, %b, unsigned : tile<2xi64> -> tile<2xi1>\n" +
                     store("%r", "2", "i1");
  expectBits<uint8_t>(runOut<uint8_t>("i1", 2, wide), {0, 1});
}

TEST(InterpOpsInteger, I1SignedIsMinusOne) {
  // Read signed, an i1 1 is -1: less than 0, and the smaller of the two.
  std::string cmp = "    %a = constant <i1: [1, 0]> : tile<2xi1>\n"
                    "    %b = constant <i1: [0, 1]> : tile<2xi1>\n"
                    "    %r = cmpi less_than %a, %b, signed : tile<2xi1> -> tile<2xi1>\n" +
                    store("%r", "2", "i1");
  expectBits<uint8_t>(runOut<uint8_t>("i1", 2, cmp), {1, 0});
  std::string ucmp = "    %a = constant <i1: [1, 0]> : tile<2xi1>\n"
                     "    %b = constant <i1: [0, 1]> : tile<2xi1>\n"
                     "    %r = cmpi less_than %a, %b, unsigned : tile<2xi1> -> tile<2xi1>\n" +
                     store("%r", "2", "i1");
  expectBits<uint8_t>(runOut<uint8_t>("i1", 2, ucmp), {0, 1});
  expectBits<uint8_t>(runOut<uint8_t>("i1", 2, binaryBody("i1", "2", "[1, 1]", "[0, 1]", "maxi %a, %b signed : tile<2xi1>")),
                      {0, 1});
}

TEST(InterpOpsInteger, ScalarTiles) {
  // Rank-0 tiles work like one-element tiles: 40 + 2.
  auto out = runOut<int32_t>("i32", 1, "    %a = constant <i32: 40> : tile<i32>\n"
                                       "    %b = constant <i32: 2> : tile<i32>\n"
                                       "    %r = addi %a, %b : tile<i32>\n" +
                                           store("%r", "", "i32"));
  expectBits<int32_t>(out, {42});
}

}  // namespace
}  // namespace tilesight::testing
