// Per-op interpreter tests, core ops: constants, the ops that move elements
// (iota, broadcast, reshape, permute, cat, extract, select, pack, unpack),
// reduce and scan, block ids, globals, assume, assert, print_tko, alloca and
// tokens. Tiles are built from iota or constants, so the expected element
// at each position can be read off the definition.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

// --- constant ----------------------------------------------------------------------

TEST(InterpOpsCore, ConstantSplatListAndNested) {
  expectBits<float>(runOut<float>("f32", 4, "    %r = constant <f32: 2.5> : tile<4xf32>\n" + store("%r", "4", "f32")),
                    {2.5f, 2.5f, 2.5f, 2.5f});
  // A nested literal is row-major.
  expectBits<int32_t>(
      runOut<int32_t>("i32", 4, "    %r = constant <i32: [[1, 2], [3, 4]]> : tile<2x2xi32>\n" + store("%r", "2x2", "i32")),
      {1, 2, 3, 4});
  expectBits<uint8_t>(
      runOut<uint8_t>("i1", 4, "    %r = constant <i1: [true, false, 1, 0]> : tile<4xi1>\n" + store("%r", "4", "i1")),
      {1, 0, 1, 0});
}

TEST(InterpOpsCore, ConstantHexBitPatterns) {
  // A hex literal is the element's bit pattern: 0x3F800000 = 1.0f; i16 0xFFFF = -1; i8 0x80 = -128.
  expectBits<float>(runOut<float>("f32", 2, "    %r = constant <f32: 0x3F800000> : tile<2xf32>\n" + store("%r", "2", "f32")),
                    {1.0f, 1.0f});
  expectBits<int16_t>(runOut<int16_t>("i16", 1, "    %r = constant <i16: 0xFFFF> : tile<i16>\n" + store("%r", "", "i16")),
                      {-1});
  expectBits<int8_t>(runOut<int8_t>("i8", 2, "    %r = constant <i8: [0x80, 0x7F]> : tile<2xi8>\n" + store("%r", "2", "i8")),
                     {-128, 127});
  expectHalf(runOut<uint16_t>("f16", 2, "    %r = constant <f16: [0x3C00, 0x7C00]> : tile<2xf16>\n" + store("%r", "2", "f16")),
             {0x3C00, 0x7C00});
  expectBits<int64_t>(runOut<int64_t>("i64", 2, "    %r = constant <i64: [0x8000000000000000, 0xFFFFFFFFFFFFFFFF]> : tile<2xi64>\n" +
                                                    store("%r", "2", "i64")),
                      {INT64_MIN, -1});
  expectBits<double>(
      runOut<double>("f64", 1, "    %r = constant <f64: 0x3FF8000000000000> : tile<1xf64>\n" + store("%r", "1", "f64")),
      {1.5});
}

TEST(InterpOpsCore, ConstantSpecialFloats) {
  auto out = runOut<float>("f32", 4, "    %r = constant <f32: [inf, -inf, nan, -0.0]> : tile<4xf32>\n" + store("%r", "4", "f32"));
  expectBits<float>(out, {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(), -0.0f});
  expectHalf(runOut<uint16_t>("bf16", 2, "    %r = constant <bf16: [-inf, nan]> : tile<2xbf16>\n" + store("%r", "2", "bf16")),
             {0xFF80, kNaN16}, true);
}

TEST(InterpOpsCore, ConstantRoundsDecimalsToTheFormat) {
  // 0.1 = 1.6 * 2^-4. f16: field 11, mantissa 0.6*1024 = 614.4 -> 614 -> 0x2E66.
  // bf16: field 123, 0.6*128 = 76.8 -> 77 -> 0x3DCD. f64: 0x3FB999999999999A.
  expectHalf(runOut<uint16_t>("f16", 1, "    %r = constant <f16: 0.1> : tile<1xf16>\n" + store("%r", "1", "f16")), {0x2E66});
  // Past the format's range: inf (cuda-tile's dense_attr test: 70000.0 in f16 prints as 0x7C00).
  expectHalf(runOut<uint16_t>("f16", 2, "    %r = constant <f16: [70000.0, -70000.0]> : tile<2xf16>\n" + store("%r", "2", "f16")),
             {0x7C00, 0xFC00});
  expectHalf(runOut<uint16_t>("bf16", 1, "    %r = constant <bf16: 0.1> : tile<1xbf16>\n" + store("%r", "1", "bf16")),
             {0x3DCD}, true);
  EXPECT_EQ(bitsOf(runOut<double>("f64", 1, "    %r = constant <f64: 0.1> : tile<1xf64>\n" + store("%r", "1", "f64"))[0]),
            0x3FB999999999999Au);
}

// --- iota offset broadcast reshape permute cat extract select -------------------------

TEST(InterpOpsCore, Iota) {
  expectBits<int8_t>(runOut<int8_t>("i8", 8, "    %r = iota : tile<8xi8>\n" + store("%r", "8", "i8")), {0, 1, 2, 3, 4, 5, 6, 7});
  expectBits<int64_t>(runOut<int64_t>("i64", 4, "    %r = iota : tile<4xi64>\n" + store("%r", "4", "i64")), {0, 1, 2, 3});
  // "The result values should be interpreted as unsigned": 128 elements of i8
  // end at 127; 256 would not fit (the verifier's bound).
  auto out = runOut<int8_t>("i8", 128, "    %r = iota : tile<128xi8>\n" + store("%r", "128", "i8"));
  EXPECT_EQ(out[127], 127);
}

TEST(InterpOpsCore, OffsetIsSignedAndScaledByTheElementSize) {
  // Four pointers to element 4, offset by [-4, -3, -2, -1] (i16, signed): elements 0..3.
  std::string program = kernel("%out: tile<ptr<f64>>",
                               "    %c4 = constant <i32: 4> : tile<i32>\n"
                               "    %p4 = offset %out, %c4 : tile<ptr<f64>>, tile<i32> -> tile<ptr<f64>>\n"
                               "    %p1 = reshape %p4 : tile<ptr<f64>> -> tile<1xptr<f64>>\n"
                               "    %pb = broadcast %p1 : tile<1xptr<f64>> -> tile<4xptr<f64>>\n"
                               "    %o = constant <i16: [-4, -3, -2, -1]> : tile<4xi16>\n"
                               "    %pp = offset %pb, %o : tile<4xptr<f64>>, tile<4xi16> -> tile<4xptr<f64>>\n"
                               "    %v = constant <f64: [1.0, 2.0, 3.0, 4.0]> : tile<4xf64>\n"
                               "    %t = store_ptr_tko weak %pp, %v : tile<4xptr<f64>>, tile<4xf64> -> token\n");
  std::vector<Arg> args{Arg::zeros(8 * 8)};
  expectRan(runProgram(program, args), program);
  expectBits<double>(args[0].as<double>(), {1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0});
}

TEST(InterpOpsCore, BroadcastSizeOneDimensions) {
  // [[0, 1, 2, 3]] along dim 0; [[5], [6]] along dim 1; a scalar, via 1x1, to 2x2.
  auto rows = runOut<int32_t>("i32", 8, "    %a = constant <i32: [[0, 1, 2, 3]]> : tile<1x4xi32>\n"
                                        "    %r = broadcast %a : tile<1x4xi32> -> tile<2x4xi32>\n" +
                                            store("%r", "2x4", "i32"));
  expectBits<int32_t>(rows, {0, 1, 2, 3, 0, 1, 2, 3});
  auto cols = runOut<int32_t>("i32", 8, "    %a = constant <i32: [[5], [6]]> : tile<2x1xi32>\n"
                                        "    %r = broadcast %a : tile<2x1xi32> -> tile<2x4xi32>\n" +
                                            store("%r", "2x4", "i32"));
  expectBits<int32_t>(cols, {5, 5, 5, 5, 6, 6, 6, 6});
  auto scalar = runOut<uint16_t>("f16", 4, "    %a = constant <f16: 1.0> : tile<f16>\n"
                                           "    %a1 = reshape %a : tile<f16> -> tile<1x1xf16>\n"
                                           "    %r = broadcast %a1 : tile<1x1xf16> -> tile<2x2xf16>\n" +
                                               store("%r", "2x2", "f16"));
  expectHalf(scalar, {0x3C00, 0x3C00, 0x3C00, 0x3C00});
}

TEST(InterpOpsCore, ReshapeIsRowMajor) {
  // Ops.td's example: [[0, 1, 2, 3], [4, 5, 6, 7]] -> 2x2x2 [[[0, 1], [2, 3]], [[4, 5], [6, 7]]];
  // extracting [1, 0, 0] of that takes the 1x2x2 block [[4, 5], [6, 7]].
  auto out = runOut<int32_t>("i32", 4, "    %a = constant <i32: [[0, 1, 2, 3], [4, 5, 6, 7]]> : tile<2x4xi32>\n"
                                       "    %b = reshape %a : tile<2x4xi32> -> tile<2x2x2xi32>\n"
                                       "    %c1 = constant <i32: 1> : tile<i32>\n"
                                       "    %c0 = constant <i32: 0> : tile<i32>\n"
                                       "    %r = extract %b[%c1, %c0, %c0] : tile<2x2x2xi32> -> tile<1x2x2xi32>\n" +
                                           store("%r", "1x2x2", "i32"));
  expectBits<int32_t>(out, {4, 5, 6, 7});
}

TEST(InterpOpsCore, Permute2D) {
  // Transpose of [[0..3], [4..7]]: R[i][j] = S[j][i].
  auto out = runOut<int32_t>("i32", 8, "    %a = constant <i32: [[0, 1, 2, 3], [4, 5, 6, 7]]> : tile<2x4xi32>\n"
                                       "    %r = permute %a [1, 0] : tile<2x4xi32> -> tile<4x2xi32>\n" +
                                           store("%r", "4x2", "i32"));
  expectBits<int32_t>(out, {0, 4, 1, 5, 2, 6, 3, 7});
}

TEST(InterpOpsCore, Permute3D) {
  // S = iota reshaped to 2x2x4: S[x][y][z] = 8x + 4y + z. Permutation [2, 0, 1]
  // gives shape [4, 2, 2] with R[a][b][c] = S[b][c][a] = 8b + 4c + a.
  auto out = runOut<int32_t>("i32", 16, "    %i = iota : tile<16xi32>\n"
                                        "    %a = reshape %i : tile<16xi32> -> tile<2x2x4xi32>\n"
                                        "    %r = permute %a [2, 0, 1] : tile<2x2x4xi32> -> tile<4x2x2xi32>\n" +
                                            store("%r", "4x2x2", "i32"));
  expectBits<int32_t>(out, {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15});
}

TEST(InterpOpsCore, CatAlongEachDimension) {
  const std::string ab = "    %a = constant <f32: [[0.0, 1.0], [2.0, 3.0]]> : tile<2x2xf32>\n"
                         "    %b = constant <f32: [[4.0, 5.0], [6.0, 7.0]]> : tile<2x2xf32>\n";
  auto rows = runOut<float>("f32", 8, ab + "    %r = cat %a, %b dim = 0 : tile<2x2xf32>, tile<2x2xf32> -> tile<4x2xf32>\n" +
                                          store("%r", "4x2", "f32"));
  expectBits<float>(rows, {0, 1, 2, 3, 4, 5, 6, 7});
  auto cols = runOut<float>("f32", 8, ab + "    %r = cat %a, %b dim = 1 : tile<2x2xf32>, tile<2x2xf32> -> tile<2x4xf32>\n" +
                                          store("%r", "2x4", "f32"));
  expectBits<float>(cols, {0, 1, 4, 5, 2, 3, 6, 7});
  // Unequal sizes along the concatenated dimension: 1 + 2 is not a power of
  // two, so 2 + 2 in 1-D with i64.
  auto flat = runOut<int64_t>("i64", 4, "    %a = constant <i64: [-1, -2]> : tile<2xi64>\n"
                                        "    %b = constant <i64: [3, 4]> : tile<2xi64>\n"
                                        "    %r = cat %a, %b dim = 0 : tile<2xi64>, tile<2xi64> -> tile<4xi64>\n" +
                                            store("%r", "4", "i64"));
  expectBits<int64_t>(flat, {-1, -2, 3, 4});
}

TEST(InterpOpsCore, ExtractTakesSlicesNotOffsets) {
  // 4x4 iota; the result is 2x2, so index [1, 0] is rows 2-3, columns 0-1.
  const std::string src = "    %i = iota : tile<16xi32>\n"
                          "    %a = reshape %i : tile<16xi32> -> tile<4x4xi32>\n"
                          "    %c0 = constant <i32: 0> : tile<i32>\n"
                          "    %c1 = constant <i32: 1> : tile<i32>\n";
  expectBits<int32_t>(runOut<int32_t>("i32", 4, src + "    %r = extract %a[%c1, %c0] : tile<4x4xi32> -> tile<2x2xi32>\n" +
                                                    store("%r", "2x2", "i32")),
                      {8, 9, 12, 13});
  expectBits<int32_t>(runOut<int32_t>("i32", 4, src + "    %r = extract %a[%c1, %c1] : tile<4x4xi32> -> tile<2x2xi32>\n" +
                                                    store("%r", "2x2", "i32")),
                      {10, 11, 14, 15});
  // 1-D: slice 3 of 2 elements is elements 6, 7.
  expectBits<int8_t>(runOut<int8_t>("i8", 2, "    %a = iota : tile<8xi8>\n"
                                             "    %c3 = constant <i32: 3> : tile<i32>\n"
                                             "    %r = extract %a[%c3] : tile<8xi8> -> tile<2xi8>\n" +
                                                 store("%r", "2", "i8")),
                     {6, 7});
}

TEST(InterpOpsCore, InsertWritesOneSubTileOfTheDestination) {
  // A 2x2 tile of 100s into a 4x4 zero tile at sub-tile [1, 0]: rows 2-3,
  // columns 0-1 (slices, as extract's); the rest stays the destination's.
  const std::string src = "    %d = constant <i32: 0> : tile<4x4xi32>\n"
                          "    %s = constant <i32: 100> : tile<2x2xi32>\n"
                          "    %c0 = constant <i32: 0> : tile<i32>\n"
                          "    %c1 = constant <i32: 1> : tile<i32>\n"
                          "    %r = insert %s into %d[%c1, %c0] : tile<2x2xi32> -> tile<4x4xi32>\n";
  expectBits<int32_t>(runOut<int32_t>("i32", 16, src + store("%r", "4x4", "i32")),
                      {0, 0, 0, 0, 0, 0, 0, 0, 100, 100, 0, 0, 100, 100, 0, 0});
  // 1-D f32, the last of 4 slices; extract gives the inserted tile back.
  auto f = runOut<float>("f32", 2, "    %d = constant <f32: 1.5> : tile<8xf32>\n"
                                   "    %s = constant <f32: [7.0, 8.0]> : tile<2xf32>\n"
                                   "    %c3 = constant <i32: 3> : tile<i32>\n"
                                   "    %r = insert %s into %d[%c3] : tile<2xf32> -> tile<8xf32>\n"
                                   "    %e = extract %r[%c3] : tile<8xf32> -> tile<2xf32>\n" +
                                       store("%e", "2", "f32"));
  EXPECT_EQ(f, (std::vector<float>{7.0f, 8.0f}));
}

TEST(InterpOpsCore, GridDependencyControlAndTheAliasFencePassTheirToken) {
  // Each makes a token from its operand's (or a fresh one); the store after
  // them runs as usual.
  auto out = runOut<int32_t>("i32", 1, "    %w = gdc_wait_tko : token\n"
                                       "    %f = memory_fence_alias_tko token = %w : token\n"
                                       "    %l = gdc_launch_dependents_tko token = %f : token\n"
                                       "    %v = constant <i32: 42> : tile<i32>\n" +
                                           store("%v", "", "i32"));
  EXPECT_EQ(out, (std::vector<int32_t>{42}));
}

TEST(InterpOpsCore, Select) {
  const std::string c = "    %c = constant <i1: [1, 0, 1, 0]> : tile<4xi1>\n";
  expectBits<int32_t>(runOut<int32_t>("i32", 4, c + "    %t = constant <i32: [1, 2, 3, 4]> : tile<4xi32>\n"
                                                    "    %f = constant <i32: [5, 6, 7, 8]> : tile<4xi32>\n"
                                                    "    %r = select %c, %t, %f : tile<4xi1>, tile<4xi32>\n" +
                                                    store("%r", "4", "i32")),
                      {1, 6, 3, 8});
  expectHalf(runOut<uint16_t>("bf16", 4, c + "    %t = constant <bf16: -0.0> : tile<4xbf16>\n"
                                             "    %f = constant <bf16: nan> : tile<4xbf16>\n"
                                             "    %r = select %c, %t, %f : tile<4xi1>, tile<4xbf16>\n" +
                                             store("%r", "4", "bf16")),
             {0x8000, kNaN16, 0x8000, kNaN16}, true);
}

// --- pack unpack ----------------------------------------------------------------------

TEST(InterpOpsCore, PackIsLittleEndian) {
  // i16 0x0102 -> bytes 02 01; -1 -> FF FF; 0x1234 -> 34 12.
  auto out = runOut<uint8_t>("i8", 8, "    %a = constant <i16: [258, -1, 4660, 0]> : tile<4xi16>\n"
                                      "    %r = pack %a : tile<4xi16> -> tile<8xi8>\n" +
                                          store("%r", "8", "i8"));
  expectBits<uint8_t>(out, {0x02, 0x01, 0xFF, 0xFF, 0x34, 0x12, 0x00, 0x00});
  // f32 1.0 = 0x3F800000 -> 00 00 80 3F.
  auto f = runOut<uint8_t>("i8", 4, "    %a = constant <f32: [1.0]> : tile<1xf32>\n"
                                    "    %r = pack %a : tile<1xf32> -> tile<4xi8>\n" +
                                        store("%r", "4", "i8"));
  expectBits<uint8_t>(f, {0x00, 0x00, 0x80, 0x3F});
}

TEST(InterpOpsCore, PackF4LowNibbleFirst) {
  // Seed 001 §5.2.2: [0.5, 1.5] is the byte 0x31 (0.5 = 0001 low, 1.5 = 0011 high).
  auto out = runOut<uint8_t>("i8", 2, "    %a = constant <f4E2M1FN: [0.5, 1.5, -6.0, 0.0]> : tile<4xf4E2M1FN>\n"
                                      "    %r = pack %a : tile<4xf4E2M1FN> -> tile<2xi8>\n" +
                                          store("%r", "2", "i8"));
  expectBits<uint8_t>(out, {0x31, 0x0F});
}

TEST(InterpOpsCore, UnpackReadsElementsBackOut) {
  // Bytes 00 3C 00 C0 are the f16 patterns 0x3C00 (1.0) and 0xC000 (-2.0).
  expectHalf(runOut<uint16_t>("f16", 2, "    %a = constant <i8: [0, 60, 0, -64]> : tile<4xi8>\n"
                                        "    %r = unpack %a : tile<4xi8> -> tile<2xf16>\n" +
                                            store("%r", "2", "f16")),
             {0x3C00, 0xC000});
  // Bytes 0x21, 0xF0 as i4: low nibble first -> [1, 2, 0, -1] (0xF signed), widened to i8.
  expectBits<int8_t>(runOut<int8_t>("i8", 4, "    %a = constant <i8: [0x21, 0xF0]> : tile<2xi8>\n"
                                             "    %n = unpack %a : tile<2xi8> -> tile<4xi4>\n"
                                             "    %r = exti %n signed : tile<4xi4> -> tile<4xi8>\n" +
                                                 store("%r", "4", "i8")),
                     {1, 2, 0, -1});
  // i8 -> i32: bytes 78 56 34 12 are 0x12345678.
  expectBits<int32_t>(runOut<int32_t>("i32", 1, "    %a = constant <i8: [0x78, 0x56, 0x34, 0x12]> : tile<4xi8>\n"
                                                "    %r = unpack %a : tile<4xi8> -> tile<1xi32>\n" +
                                                    store("%r", "1", "i32")),
                      {0x12345678});
}

// --- reduce scan -----------------------------------------------------------------------

TEST(InterpOpsCore, ReduceSumAlongEachDimension) {
  const std::string a = "    %a = constant <f32: [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tile<2x4xf32>\n";
  const std::string body = "    (%e: tile<f32>, %acc: tile<f32>) {\n"
                           "      %s = addf %e, %acc : tile<f32>\n"
                           "      yield %s : tile<f32>\n"
                           "    }\n";
  auto rows = runOut<float>("f32", 2, a + "    %r = reduce %a dim=1 identities=[0.000000e+0 : f32] : tile<2x4xf32> -> tile<2xf32>\n" +
                                          body + store("%r", "2", "f32"));
  expectBits<float>(rows, {10.0f, 26.0f});
  auto cols = runOut<float>("f32", 4, a + "    %r = reduce %a dim=0 identities=[0.000000e+0 : f32] : tile<2x4xf32> -> tile<4xf32>\n" +
                                          body + store("%r", "4", "f32"));
  expectBits<float>(cols, {6.0f, 8.0f, 10.0f, 12.0f});
  // 3-D, the middle dimension: S[a][b][c] = 4a + 2b + c, R[a][c] = S[a][0][c] + S[a][1][c] = 8a + 2c + 2.
  auto mid = runOut<int16_t>("i16", 4, "    %i = iota : tile<8xi16>\n"
                                       "    %a = reshape %i : tile<8xi16> -> tile<2x2x2xi16>\n"
                                       "    %r = reduce %a dim=1 identities=[0 : i16] : tile<2x2x2xi16> -> tile<2x2xi16>\n"
                                       "    (%e: tile<i16>, %acc: tile<i16>) {\n"
                                       "      %s = addi %e, %acc : tile<i16>\n"
                                       "      yield %s : tile<i16>\n"
                                       "    }\n" +
                                           store("%r", "2x2", "i16"));
  expectBits<int16_t>(mid, {2, 4, 10, 12});
}

TEST(InterpOpsCore, ReduceMaxI32ToAScalar) {
  auto out = runOut<int32_t>("i32", 1, "    %a = constant <i32: [3, -9, 17, 0, -2147483648, 16, 2, 5]> : tile<8xi32>\n"
                                       "    %r = reduce %a dim=0 identities=[-2147483648 : i32] : tile<8xi32> -> tile<i32>\n"
                                       "    (%e: tile<i32>, %acc: tile<i32>) {\n"
                                       "      %m = maxi %e, %acc signed : tile<i32>\n"
                                       "      yield %m : tile<i32>\n"
                                       "    }\n" +
                                           store("%r", "", "i32"));
  expectBits<int32_t>(out, {17});
}

TEST(InterpOpsCore, ReduceSumF16RoundsToF16) {
  // 2048 + 1 + 1: f16 has an ulp of 2 at 2048, and every order of the three
  // additions meets a tie (2049 -> 2048) or an exact sum (1 + 1 = 2, 2048 + 2
  // = 2050). The identity 0 changes nothing. In any order the sum is 2048 or
  // 2050; with the pairing 1 + 1 first it is 2050. Only check it is one of
  // them: the order of a reduction is unspecified (Ops.td).
  auto out = runOut<uint16_t>("f16", 1, "    %a = constant <f16: [2048.0, 1.0, 1.0, 0.0]> : tile<4xf16>\n"
                                        "    %r = reduce %a dim=0 identities=[0.000000e+0 : f16] : tile<4xf16> -> tile<f16>\n"
                                        "    (%e: tile<f16>, %acc: tile<f16>) {\n"
                                        "      %s = addf %e, %acc : tile<f16>\n"
                                        "      yield %s : tile<f16>\n"
                                        "    }\n" +
                                            store("%r", "", "f16"));
  // 2048 = 0x6800; 2050 = 0x6801.
  EXPECT_TRUE(out[0] == 0x6800 || out[0] == 0x6801) << std::hex << out[0];
}

TEST(InterpOpsCore, ReduceTwoOperandsArgmax) {
  // (value, index) pairs reduced together: the largest value, ties to the
  // lowest index (an associative, commutative body, so any order gives the same).
  std::string body = "    %v = constant <f32: [3.0, 9.0, 2.0, 9.0, 1.0, 0.0, 5.0, 4.0]> : tile<8xf32>\n"
                     "    %i = iota : tile<8xi32>\n"
                     "    %rv, %ri = reduce %v, %i dim=0 identities=[-1.000000e+30 : f32, 2147483647 : i32]"
                     " : tile<8xf32>, tile<8xi32> -> tile<f32>, tile<i32>\n"
                     "    (%ve: tile<f32>, %va: tile<f32>, %ie: tile<i32>, %ia: tile<i32>) {\n"
                     "      %gt = cmpf greater_than ordered %ve, %va : tile<f32> -> tile<i1>\n"
                     "      %eq = cmpf equal ordered %ve, %va : tile<f32> -> tile<i1>\n"
                     "      %lt = cmpi less_than %ie, %ia, signed : tile<i32> -> tile<i1>\n"
                     "      %tie = andi %eq, %lt : tile<i1>\n"
                     "      %take = ori %gt, %tie : tile<i1>\n"
                     "      %nv = select %take, %ve, %va : tile<i1>, tile<f32>\n"
                     "      %ni = select %take, %ie, %ia : tile<i1>, tile<i32>\n"
                     "      yield %nv, %ni : tile<f32>, tile<i32>\n"
                     "    }\n";
  std::string program = kernel("%ov: tile<ptr<f32>>, %oi: tile<ptr<i32>>",
                               body + store("%rv", "", "f32", "%ov") + store("%ri", "", "i32", "%oi"));
  std::vector<Arg> args{Arg::zeros(4), Arg::zeros(4)};
  expectRan(runProgram(program, args), program);
  EXPECT_EQ(args[0].as<float>()[0], 9.0f);
  EXPECT_EQ(args[1].as<int32_t>()[0], 1);
}

TEST(InterpOpsCore, ReduceBodyMayUseOuterValues) {
  // The body is not isolated from above: it may use a value defined before the
  // reduce, here a cap of 5: min(max(e, acc), 5) is the row maximum clamped at 5
  // in any order. Rows [1, 2], [7, 3], [4, 9], [0, -1]: maxima 2, 7, 9, 0.
  auto out = runOut<float>("f32", 4, "    %cap = constant <f32: 5.0> : tile<f32>\n"
                                     "    %a = constant <f32: [[1.0, 2.0], [7.0, 3.0], [4.0, 9.0], [0.0, -1.0]]> : tile<4x2xf32>\n"
                                     "    %r = reduce %a dim=1 identities=[-1.000000e+30 : f32] : tile<4x2xf32> -> tile<4xf32>\n"
                                     "    (%e: tile<f32>, %acc: tile<f32>) {\n"
                                     "      %m = maxf %e, %acc : tile<f32>\n"
                                     "      %c = minf %m, %cap : tile<f32>\n"
                                     "      yield %c : tile<f32>\n"
                                     "    }\n" +
                                         store("%r", "4", "f32"));
  expectBits<float>(out, {2.0f, 5.0f, 5.0f, 0.0f});
  // The same in a scan, with an outer i64 step added at each position: row 0,
  // prefix sums of [1, 2, 3, 0] plus 10 per element: [11, 23, 36, 46]; row 1,
  // of zeros: [10, 20, 30, 40].
  auto scan = runOut<int64_t>("i64", 8, "    %k = constant <i64: 10> : tile<i64>\n"
                                        "    %a = constant <i64: [[1, 2, 3, 0], [0, 0, 0, 0]]> : tile<2x4xi64>\n"
                                        "    %r = scan %a dim=1 reverse=false identities=[0 : i64] : tile<2x4xi64> -> tile<2x4xi64>\n"
                                        "    (%e: tile<i64>, %acc: tile<i64>) {\n"
                                        "      %s = addi %e, %acc : tile<i64>\n"
                                        "      %t = addi %s, %k : tile<i64>\n"
                                        "      yield %t : tile<i64>\n"
                                        "    }\n" +
                                            store("%r", "2x4", "i64"));
  expectBits<int64_t>(scan, {11, 23, 36, 46, 10, 20, 30, 40});
}

std::string scanBody(const std::string& t, const std::string& op) {
  return "    (%e: " + t + ", %acc: " + t + ") {\n      %s = " + op + " %e, %acc : " + t + "\n      yield %s : " + t + "\n    }\n";
}

TEST(InterpOpsCore, ScanForwardAndReverse) {
  // Inclusive prefix sums of [1, 2, 3, 4]: forward [1, 3, 6, 10]; reverse
  // (from the last element) [10, 9, 7, 4].
  const std::string a = "    %a = constant <i32: [1, 2, 3, 4]> : tile<4xi32>\n";
  auto fwd = runOut<int32_t>("i32", 4, a + "    %r = scan %a dim=0 reverse=false identities=[0 : i32] : tile<4xi32> -> tile<4xi32>\n" +
                                           scanBody("tile<i32>", "addi") + store("%r", "4", "i32"));
  expectBits<int32_t>(fwd, {1, 3, 6, 10});
  auto rev = runOut<int32_t>("i32", 4, a + "    %r = scan %a dim=0 reverse=true identities=[0 : i32] : tile<4xi32> -> tile<4xi32>\n" +
                                           scanBody("tile<i32>", "addi") + store("%r", "4", "i32"));
  expectBits<int32_t>(rev, {10, 9, 7, 4});
}

TEST(InterpOpsCore, ScanAlongDimensionsOf2D) {
  const std::string a = "    %a = constant <f32: [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tile<2x4xf32>\n";
  // Products along dim 1 (identity 1): [1, 2, 6, 24], [5, 30, 210, 1680].
  auto prod = runOut<float>("f32", 8, a + "    %r = scan %a dim=1 reverse=false identities=[1.000000e+0 : f32] : tile<2x4xf32> -> tile<2x4xf32>\n" +
                                          scanBody("tile<f32>", "mulf") + store("%r", "2x4", "f32"));
  expectBits<float>(prod, {1, 2, 6, 24, 5, 30, 210, 1680});
  // Sums along dim 0, reversed: row 1 stays, row 0 becomes row 0 + row 1.
  auto sum = runOut<float>("f32", 8, a + "    %r = scan %a dim=0 reverse=true identities=[0.000000e+0 : f32] : tile<2x4xf32> -> tile<2x4xf32>\n" +
                                         scanBody("tile<f32>", "addf") + store("%r", "2x4", "f32"));
  expectBits<float>(sum, {6, 8, 10, 12, 5, 6, 7, 8});
}

// --- block ids, globals --------------------------------------------------------------------

TEST(InterpOpsCore, TileBlockIdsAcrossAGrid) {
  // Each block of a 2x3x2 grid writes [x, y, z, 100*nx + 10*ny + nz] at slot
  // x + 2*(y + 3*z) (4 i32 per slot).
  std::string program = kernel("%out: tile<ptr<i32>>",
                               "    %x, %y, %z = get_tile_block_id : tile<i32>\n"
                               "    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>\n"
                               "    %zy = muli %z, %ny : tile<i32>\n"
                               "    %yzy = addi %y, %zy : tile<i32>\n"
                               "    %t = muli %yzy, %nx : tile<i32>\n"
                               "    %b = addi %x, %t : tile<i32>\n"
                               "    %c4 = constant <i32: 4> : tile<i32>\n"
                               "    %slot = muli %b, %c4 : tile<i32>\n"
                               "    %p = offset %out, %slot : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>\n"
                               "    %c100 = constant <i32: 100> : tile<i32>\n"
                               "    %c10 = constant <i32: 10> : tile<i32>\n"
                               "    %g0 = muli %nx, %c100 : tile<i32>\n"
                               "    %g1 = muli %ny, %c10 : tile<i32>\n"
                               "    %g01 = addi %g0, %g1 : tile<i32>\n"
                               "    %g = addi %g01, %nz : tile<i32>\n"
                               "    %x1 = reshape %x : tile<i32> -> tile<1xi32>\n"
                               "    %y1 = reshape %y : tile<i32> -> tile<1xi32>\n"
                               "    %z1 = reshape %z : tile<i32> -> tile<1xi32>\n"
                               "    %g1x = reshape %g : tile<i32> -> tile<1xi32>\n"
                               "    %xy = cat %x1, %y1 dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>\n"
                               "    %zg = cat %z1, %g1x dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>\n"
                               "    %v = cat %xy, %zg dim = 0 : tile<2xi32>, tile<2xi32> -> tile<4xi32>\n" +
                                   store("%v", "4", "i32", "%p"));
  std::vector<Arg> args{Arg::zeros(12 * 4 * 4)};
  expectRan(runProgram(program, args, {2, 3, 2}), program);
  std::vector<int32_t> want;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 2; ++x) want.insert(want.end(), {x, y, z, 232});
  expectBits<int32_t>(args[0].as<int32_t>(), want);
}

TEST(InterpOpsCore, GetGlobalReadsAndWritesTheGlobal) {
  // The global starts as [1, 2, 3, 4]; the kernel doubles it in place and
  // copies the new contents out. A second global, splat, is read as it is.
  std::string program = "cuda_tile.module @m {\n"
                        "  global @g <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>\n"
                        "  global private constant @k <i32: 42> : tile<2xi32>\n"
                        "  entry @k1(%out: tile<ptr<f32>>, %ko: tile<ptr<i32>>) {\n"
                        "    %p = get_global @g : tile<ptr<f32>>\n"
                        "    %pk = get_global @k : tile<ptr<i32>>\n" +
                        load("%v", 4, "f32", "%p") +
                        "    %w = addf %v, %v : tile<4xf32>\n"
                        "    %ws = store_ptr_tko weak %v_pp, %w token=%v_t : tile<4xptr<f32>>, tile<4xf32> -> token\n"
                        "    %v2, %t2 = load_ptr_tko weak %v_pp token=%ws : tile<4xptr<f32>> -> tile<4xf32>, token\n" +
                        store("%v2", "4", "f32") + load("%kv", 2, "i32", "%pk") + store("%kv", "2", "i32", "%ko") +
                        "    return\n  }\n}\n";
  std::vector<Arg> args{Arg::zeros(16), Arg::zeros(8)};
  expectRan(runProgram(program, args), program);
  expectBits<float>(args[0].as<float>(), {2.0f, 4.0f, 6.0f, 8.0f});
  expectBits<int32_t>(args[1].as<int32_t>(), {42, 42});
}

TEST(InterpOpsCore, GlobalsOfNarrowTypes) {
  // Globals hold their initial values in memory in linear order (Ops.td),
  // in the element's storage format: f16 1.0 = 0x3C00, -2.0 = 0xC000; bf16 0.1 = 0x3DCD.
  std::string program = "cuda_tile.module @m {\n"
                        "  global @h <f16: [1.0, -2.0]> : tile<2xf16>\n"
                        "  global @b <bf16: [0.1, 0x7F80]> : tile<2xbf16>\n"
                        "  entry @k(%oh: tile<ptr<f16>>, %ob: tile<ptr<bf16>>) {\n"
                        "    %ph = get_global @h : tile<ptr<f16>>\n"
                        "    %pb = get_global @b : tile<ptr<bf16>>\n" +
                        load("%vh", 2, "f16", "%ph") + load("%vb", 2, "bf16", "%pb") + store("%vh", "2", "f16", "%oh") +
                        store("%vb", "2", "bf16", "%ob") + "    return\n  }\n}\n";
  std::vector<Arg> args{Arg::zeros(4), Arg::zeros(4)};
  expectRan(runProgram(program, args), program);
  expectHalf(args[0].as<uint16_t>(), {0x3C00, 0xC000});
  expectHalf(args[1].as<uint16_t>(), {0x3DCD, 0x7F80}, true);
}

// --- assume assert print_tko ------------------------------------------------------------

TEST(InterpOpsCore, AssumePassesValuesThrough) {
  auto out = runOut<int32_t>("i32", 4, "    %a = constant <i32: [0, 4, 8, 12]> : tile<4xi32>\n"
                                       "    %b = assume div_by<4>, %a : tile<4xi32>\n"
                                       "    %c = assume bounded<0, ?>, %b : tile<4xi32>\n"
                                       "    %d = assume same_elements<[1]>, %c : tile<4xi32>\n" +
                                           store("%d", "4", "i32"));
  expectBits<int32_t>(out, {0, 4, 8, 12});
}

TEST(InterpOpsCore, AssertPassesAndFails) {
  std::vector<Arg> none;
  std::string ok = kernel("", "    %c = constant <i1: [1, 1]> : tile<2xi1>\n"
                              "    assert %c, \"never\" : tile<2xi1>");
  RunResult r = runProgram(ok, none);
  expectRan(r, ok);
  // Ops.td: for each 0 it prints the message with the element's index, and
  // an error reaches the host: the run is not ok.
  std::string bad = kernel("", "    %c = constant <i1: [1, 0, 1, 1]> : tile<4xi1>\n"
                               "    assert %c, \"lane one is false\" : tile<4xi1>");
  r = runProgram(bad, none);
  ASSERT_TRUE(r.verified) << r.reasons;
  EXPECT_FALSE(r.outcome.ok);
  EXPECT_NE(r.outcome.fault.find("lane one is false"), std::string::npos) << r.outcome.fault;
  EXPECT_NE(r.outcome.fault.find("element 1"), std::string::npos) << r.outcome.fault;
}

TEST(InterpOpsCore, AssertFailsInOneBlockOfTheGrid) {
  std::string program = kernel("", "    %x, %y, %z = get_tile_block_id : tile<i32>\n"
                                   "    %c1 = constant <i32: 1> : tile<i32>\n"
                                   "    %ok = cmpi not_equal %x, %c1, signed : tile<i32> -> tile<i1>\n"
                                   "    assert %ok, \"block one\" : tile<i1>");
  std::vector<Arg> none;
  RunResult r = runProgram(program, none, {3, 1, 1});
  ASSERT_TRUE(r.verified) << r.reasons;
  EXPECT_FALSE(r.outcome.ok);
  EXPECT_NE(r.outcome.fault.find("block one"), std::string::npos) << r.outcome.fault;
  EXPECT_EQ(r.outcome.faultBlock[0], 1);
}

TEST(InterpOpsCore, PrintTkoFormatsLikePrintf) {
  // Ops.td: a C-printf-style format string; its examples include "%+08.3f".
  // 1.5 as %+08.3f is "+1.500" padded with zeros to 8: "+001.500".
  std::string program = kernel("", "    %i = constant <i32: -7> : tile<i32>\n"
                                   "    %f = constant <f32: 1.5> : tile<f32>\n"
                                   "    %h = constant <f16: 0.25> : tile<f16>\n"
                                   "    %b = constant <i1: true> : tile<i1>\n"
                                   "    %t0 = print_tko \"i=%d f=%f %+08.3f h=%g b=%i 100%%\\n\", %i, %f, %f, %h, %b"
                                   " : tile<i32>, tile<f32>, tile<f32>, tile<f16>, tile<i1> -> token\n"
                                   "    %t1 = print_tko \"done\" token=%t0 -> token");
  std::vector<Arg> none;
  RunResult r = runProgram(program, none);
  expectRan(r, program);
  EXPECT_EQ(r.outcome.printed, "i=-7 f=1.500000 +001.500 h=0.25 b=1 100%\ndone");
}

TEST(InterpOpsCore, PrintTkoUnsignedConversionsSeeTheIntegersBits) {
  // As in C, where an i32 is an int: -1 as %u is 4294967295, as %x ffffffff,
  // as %o 37777777777; an i64 -1 as %llx is sixteen f's.
  std::string program = kernel("", "    %i = constant <i32: -1> : tile<i32>\n"
                                   "    %l = constant <i64: -1> : tile<i64>\n"
                                   "    %t0 = print_tko \"%u %x %X %o %d %llx\", %i, %i, %i, %i, %i, %l"
                                   " : tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i64> -> token");
  std::vector<Arg> none;
  RunResult r = runProgram(program, none);
  expectRan(r, program);
  EXPECT_EQ(r.outcome.printed, "4294967295 ffffffff FFFFFFFF 37777777777 -1 ffffffffffffffff");
}

TEST(InterpOpsCore, PrintTkoInEveryBlock) {
  std::string program = kernel("", "    %x, %y, %z = get_tile_block_id : tile<i32>\n"
                                   "    %t = print_tko \"[%d]\", %x : tile<i32> -> token");
  std::vector<Arg> none;
  RunResult r = runProgram(program, none, {3, 1, 1});
  expectRan(r, program);
  EXPECT_EQ(r.outcome.printed, "[0][1][2]");  // one thread, blocks in grid order
}

TEST(InterpOpsCore, PrintTkoNestsTilesAsTheirShape) {
  // As cuTile's test_ct_print_ordering expects of the GPU: a (2, 4) tile is
  // "[[0, 1, 2, 3], [4, 5, 6, 7]]", a (2, 1) one "[[6], [22]]", a 1-element
  // 1-d tile "[9]", a 0-d tile its value.
  std::string program = kernel("", "    %a = iota : tile<8xi32>\n"
                                   "    %t = reshape %a : tile<8xi32> -> tile<2x4xi32>\n"
                                   "    %c = constant <i32: [6, 22]> : tile<2xi32>\n"
                                   "    %k = reshape %c : tile<2xi32> -> tile<2x1xi32>\n"
                                   "    %one = constant <i32: 9> : tile<1xi32>\n"
                                   "    %s = constant <i32: 28> : tile<i32>\n"
                                   "    %c3 = reshape %a : tile<8xi32> -> tile<2x2x2xi32>\n"
                                   "    %t0 = print_tko \"%d|%d|%d|%d|%d\", %t, %k, %one, %s, %c3"
                                   " : tile<2x4xi32>, tile<2x1xi32>, tile<1xi32>, tile<i32>, tile<2x2x2xi32> -> token");
  std::vector<Arg> none;
  RunResult r = runProgram(program, none);
  expectRan(r, program);
  EXPECT_EQ(r.outcome.printed, "[[0, 1, 2, 3], [4, 5, 6, 7]]|[[6], [22]]|[9]|28|[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]");
}

// --- alloca, tokens -------------------------------------------------------------------------

TEST(InterpOpsCore, AllocaGivesScratchMemory) {
  std::string program = kernel("%out: tile<ptr<f32>>",
                               "    %s = alloca num_elem = 4, alignment = 16 : tile<ptr<f32>>\n"
                               "    %v = constant <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>\n" +
                                   store("%v", "4", "f32", "%s") +
                                   "    %sp1 = reshape %s : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
                                   "    %spb = broadcast %sp1 : tile<1xptr<f32>> -> tile<4xptr<f32>>\n"
                                   "    %si = iota : tile<4xi32>\n"
                                   "    %spp = offset %spb, %si : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>\n"
                                   "    %w, %wt = load_ptr_tko weak %spp token=%v_s_0_t : tile<4xptr<f32>> -> tile<4xf32>, token\n"
                                   "    %w2 = mulf %w, %w : tile<4xf32>\n" +
                                   store("%w2", "4", "f32"));
  std::vector<Arg> args{Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<float>(args[0].as<float>(), {1.0f, 4.0f, 9.0f, 16.0f});
}

// Disabled: fails today. alloca's buffer is a runtime::HostBuffer, whose
// address is its byte vector's (malloc's 16-byte alignment); an aligned
// address with exact bounds checking needs an aligned start inside the
// buffer, a change to codegen/runtime/buffers.h (not the interpreter's ops).
// `global ... alignment = N` has the same limit (interpreter.cpp).
TEST(InterpOpsCore, DISABLED_AllocaHonoursItsAlignment) {
  // Ops.td: "The returned address is guaranteed to be aligned to alignment bytes".
  std::string program = kernel("%out: tile<ptr<i64>>",
                               "    %s = alloca num_elem = 3, alignment = 256 : tile<ptr<i8>>\n"
                               "    %a = ptr_to_int %s : tile<ptr<i8>> -> tile<i64>\n"
                               "    %m = constant <i64: 255> : tile<i64>\n"
                               "    %r = andi %a, %m : tile<i64>\n" +
                                   store("%r", "", "i64"));
  for (int i = 0; i < 4; ++i) {  // a few allocations, so that a lucky address does not hide the rule
    std::vector<Arg> args{Arg::buffer<int64_t>({-1})};
    expectRan(runProgram(program, args), program);
    EXPECT_EQ(args[0].as<int64_t>()[0], 0);
  }
}

TEST(InterpOpsCore, TokensOrderAStoreBeforeALoad) {
  // make_token starts a chain; join_tokens waits for both inputs; the load
  // after them sees the store: out[1] = 2 * out[0] = 6.
  std::string program = kernel("%out: tile<ptr<i64>>",
                               "    %t0 = make_token : token\n"
                               "    %v = constant <i64: 3> : tile<i64>\n"
                               "    %t1 = store_ptr_tko weak %out, %v token=%t0 : tile<ptr<i64>>, tile<i64> -> token\n"
                               "    %t2 = make_token : token\n"
                               "    %t3 = join_tokens %t1, %t2 : token\n"
                               "    %w, %t4 = load_ptr_tko weak %out token=%t3 : tile<ptr<i64>> -> tile<i64>, token\n"
                               "    %w2 = addi %w, %w : tile<i64>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %p1 = offset %out, %c1 : tile<ptr<i64>>, tile<i32> -> tile<ptr<i64>>\n"
                               "    %t5 = store_ptr_tko weak %p1, %w2 token=%t4 : tile<ptr<i64>>, tile<i64> -> token\n");
  std::vector<Arg> args{Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<int64_t>(args[0].as<int64_t>(), {3, 6});
}

}  // namespace
}  // namespace tilesight::testing
