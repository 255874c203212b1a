// Per-op interpreter tests, memory through pointers: masked loads with
// padding, masked stores, atomic read-modify-write in every mode (old values
// returned) and compare-and-swap. The host arrays' contents before and after
// are written out by hand.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

// Ops for %pp: four pointers to consecutive elements of `ptr` (tile<4xptr<elem>>).
std::string pointers4(const std::string& elem, const std::string& ptr) {
  return "    %p1 = reshape " + ptr + " : tile<ptr<" + elem + ">> -> tile<1xptr<" + elem + ">>\n" +
         "    %pb = broadcast %p1 : tile<1xptr<" + elem + ">> -> tile<4xptr<" + elem + ">>\n" +
         "    %pi = iota : tile<4xi32>\n" +
         "    %pp = offset %pb, %pi : tile<4xptr<" + elem + ">>, tile<4xi32> -> tile<4xptr<" + elem + ">>\n";
}

TEST(InterpOpsMemory, LoadPtrMaskedWithPadding) {
  // Masked-off lanes take the padding value's element.
  std::string program = kernel("%in: tile<ptr<i32>>, %out: tile<ptr<i32>>",
                               pointers4("i32", "%in") +
                                   "    %m = constant <i1: [1, 0, 1, 0]> : tile<4xi1>\n"
                                   "    %pad = constant <i32: [-1, -2, -3, -4]> : tile<4xi32>\n"
                                   "    %v, %t = load_ptr_tko weak %pp, %m, %pad : tile<4xptr<i32>>, tile<4xi1>, tile<4xi32>"
                                   " -> tile<4xi32>, token\n" +
                                   store("%v", "4", "i32"));
  std::vector<Arg> args{Arg::buffer<int32_t>({10, 20, 30, 40}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<int32_t>(args[1].as<int32_t>(), {10, -2, 30, -4});
}

TEST(InterpOpsMemory, MaskedOffLanesAreNotAccessed) {
  // Lanes 2 and 3 point far past the 2-element buffer but are masked off:
  // no access, no fault. (Without padding their values are undefined.)
  std::string program = kernel("%in: tile<ptr<f64>>, %out: tile<ptr<f64>>",
                               "    %p1 = reshape %in : tile<ptr<f64>> -> tile<1xptr<f64>>\n"
                               "    %pb = broadcast %p1 : tile<1xptr<f64>> -> tile<4xptr<f64>>\n"
                               "    %o = constant <i64: [0, 1, 1000000, -1000000]> : tile<4xi64>\n"
                               "    %pp = offset %pb, %o : tile<4xptr<f64>>, tile<4xi64> -> tile<4xptr<f64>>\n"
                               "    %m = constant <i1: [1, 1, 0, 0]> : tile<4xi1>\n"
                               "    %v, %t = load_ptr_tko weak %pp, %m : tile<4xptr<f64>>, tile<4xi1> -> tile<4xf64>, token\n"
                               "    %t2 = store_ptr_tko weak %pp, %v, %m : tile<4xptr<f64>>, tile<4xf64>, tile<4xi1> -> token\n" +
                                   store("%v", "4", "f64"));
  std::vector<Arg> args{Arg::buffer<double>({1.5, -2.5}), Arg::zeros(32)};
  expectRan(runProgram(program, args), program);
  std::vector<double> out = args[1].as<double>();
  EXPECT_EQ(out[0], 1.5);
  EXPECT_EQ(out[1], -2.5);
}

TEST(InterpOpsMemory, LoadI1CanonicalizesEachByte) {
  // Ops.td: an i1 is loaded from a full byte; any nonzero byte is 1.
  std::string program = kernel("%in: tile<ptr<i1>>, %out: tile<ptr<i8>>",
                               pointers4("i1", "%in") +
                                   "    %v, %t = load_ptr_tko weak %pp : tile<4xptr<i1>> -> tile<4xi1>, token\n"
                                   "    %w = exti %v unsigned : tile<4xi1> -> tile<4xi8>\n" +
                                   store("%w", "4", "i8"));
  std::vector<Arg> args{Arg::buffer<uint8_t>({0, 1, 2, 255}), Arg::zeros(4)};
  expectRan(runProgram(program, args), program);
  expectBits<int8_t>(args[1].as<int8_t>(), {0, 1, 1, 1});
}

TEST(InterpOpsMemory, LoadNibblesThroughPointers) {
  // Bytes 31 0F: f4E2M1FN elements [0.5 (0001), 1.5 (0011), -6 (1111), 0].
  std::string program = kernel("%in: tile<ptr<f4E2M1FN>>, %out: tile<ptr<f32>>",
                               pointers4("f4E2M1FN", "%in") +
                                   "    %v, %t = load_ptr_tko weak %pp : tile<4xptr<f4E2M1FN>> -> tile<4xf4E2M1FN>, token\n"
                                   "    %w = ftof %v : tile<4xf4E2M1FN> -> tile<4xf32>\n" +
                                   store("%w", "4", "f32"));
  std::vector<Arg> args{Arg::buffer<uint8_t>({0x31, 0x0F}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<float>(args[1].as<float>(), {0.5f, 1.5f, -6.0f, 0.0f});
}

TEST(InterpOpsMemory, StorePtrMasked) {
  std::string program = kernel("%out: tile<ptr<i16>>", pointers4("i16", "%out") +
                                                           "    %v = constant <i16: [1, 2, 3, 4]> : tile<4xi16>\n"
                                                           "    %m = constant <i1: [0, 1, 1, 0]> : tile<4xi1>\n"
                                                           "    %t = store_ptr_tko weak %pp, %v, %m : tile<4xptr<i16>>, "
                                                           "tile<4xi16>, tile<4xi1> -> token\n");
  std::vector<Arg> args{Arg::buffer<int16_t>({9, 9, 9, 9})};
  expectRan(runProgram(program, args), program);
  expectBits<int16_t>(args[0].as<int16_t>(), {9, 2, 3, 9});
}

TEST(InterpOpsMemory, StoreAndLoadNarrowFloats) {
  // f16/bf16 in memory are their 16-bit patterns; f8 one byte each.
  std::string program = kernel("%h: tile<ptr<f16>>, %b: tile<ptr<bf16>>, %e: tile<ptr<f8E5M2>>",
                               "    %vh = constant <f16: [1.0, -2.0]> : tile<2xf16>\n"
                               "    %vb = constant <bf16: [1.0, -2.0]> : tile<2xbf16>\n"
                               "    %ve = constant <f8E5M2: [1.0, -2.0]> : tile<2xf8E5M2>\n" +
                                   store("%vh", "2", "f16", "%h") + store("%vb", "2", "bf16", "%b") +
                                   store("%ve", "2", "f8E5M2", "%e"));
  std::vector<Arg> args{Arg::zeros(4), Arg::zeros(4), Arg::zeros(2)};
  expectRan(runProgram(program, args), program);
  expectHalf(args[0].as<uint16_t>(), {0x3C00, 0xC000});
  expectHalf(args[1].as<uint16_t>(), {0x3F80, 0xC000}, true);
  expectBits<uint8_t>(args[2].as<uint8_t>(), {0x3C, 0xC0});  // e5m2: 1 = 0 01111 00, -2 = 1 10000 00
}

// --- atomic_rmw_tko ------------------------------------------------------------------

struct RmwCase {
  const char* mode;
  std::vector<int32_t> memory, arg, after;
};

// One atomic_rmw_tko over four consecutive elements of %mem; the old values go to %old.
std::string rmwProgram(const std::string& elem, const std::string& mode, const std::string& arg,
                       const std::string& mask = "") {
  std::string t = "tile<4x" + elem + ">";
  std::string m = mask.empty() ? "" : "    %m = constant <i1: " + mask + "> : tile<4xi1>\n";
  return kernel("%mem: tile<ptr<" + elem + ">>, %old: tile<ptr<" + elem + ">>",
                pointers4(elem, "%mem") + m + "    %a = constant <" + elem + ": " + arg + "> : " + t + "\n" +
                    "    %r, %t = atomic_rmw_tko relaxed device %pp, " + mode + ", %a" + (mask.empty() ? "" : ", %m") +
                    " : tile<4xptr<" + elem + ">>, " + t + (mask.empty() ? "" : ", tile<4xi1>") + " -> " + t + ", token\n" +
                    store("%r", "4", elem, "%old"));
}

TEST(InterpOpsMemory, AtomicRmwEachIntegerModeI32) {
  const std::vector<RmwCase> cases = {
      {"add", {10, -3, 2147483647, 0}, {5, 3, 1, -1}, {15, 0, std::numeric_limits<int32_t>::min(), -1}},  // wraps
      {"and", {12, -1, 0, 5}, {10, 7, -1, 3}, {8, 7, 0, 1}},
      {"or", {12, -1, 0, 5}, {10, 7, -1, 3}, {14, -1, -1, 7}},
      {"xor", {12, -1, 0, 5}, {10, 7, -1, 3}, {6, -8, -1, 6}},
      {"max", {-1, 5, -7, 0}, {3, 2, -8, 0}, {3, 5, -7, 0}},
      {"min", {-1, 5, -7, 0}, {3, 2, -8, 0}, {-1, 2, -8, 0}},
      // Unsigned: -1 = 0xFFFFFFFF is the largest; -7 = 0xFFFFFFF9 > -8 = 0xFFFFFFF8.
      {"umax", {-1, 5, -7, 0}, {3, 2, -8, 0}, {-1, 5, -7, 0}},
      {"umin", {-1, 5, -7, 0}, {3, 2, -8, 0}, {3, 2, -8, 0}},
      {"xchg", {1, 2, 3, 4}, {7, 8, 9, 10}, {7, 8, 9, 10}},
  };
  for (const RmwCase& c : cases) {
    SCOPED_TRACE(c.mode);
    std::string arg = "[" + std::to_string(c.arg[0]) + ", " + std::to_string(c.arg[1]) + ", " + std::to_string(c.arg[2]) +
                      ", " + std::to_string(c.arg[3]) + "]";
    std::string program = rmwProgram("i32", c.mode, arg);
    std::vector<Arg> args{Arg::buffer<int32_t>(c.memory), Arg::zeros(16)};
    expectRan(runProgram(program, args), program);
    expectBits<int32_t>(args[0].as<int32_t>(), c.after);
    expectBits<int32_t>(args[1].as<int32_t>(), c.memory);  // the values before the update
  }
}

TEST(InterpOpsMemory, AtomicRmwI64) {
  std::string program = rmwProgram("i64", "add", "[1, -1, 4294967296, 0]");
  std::vector<Arg> args{Arg::buffer<int64_t>({std::numeric_limits<int64_t>::max(), 0, 4294967296, 7}), Arg::zeros(32)};
  expectRan(runProgram(program, args), program);
  expectBits<int64_t>(args[0].as<int64_t>(), {std::numeric_limits<int64_t>::min(), -1, 8589934592, 7});
  expectBits<int64_t>(args[1].as<int64_t>(), {std::numeric_limits<int64_t>::max(), 0, 4294967296, 7});
  std::string umax = rmwProgram("i64", "umax", "[-1, 1, 0, 5]");
  args = {Arg::buffer<int64_t>({0, -1, 3, 4}), Arg::zeros(32)};
  expectRan(runProgram(umax, args), umax);
  expectBits<int64_t>(args[0].as<int64_t>(), {-1, -1, 3, 5});
}

TEST(InterpOpsMemory, AtomicRmwAddfF32) {
  // -0.5 + 0.5 = +0 (nearest); 3e38 + 3e38 = inf; 1 + 2^-30 rounds back to 1.
  std::string program = rmwProgram("f32", "addf", "[2.25, 0.5, 3.0e38, 0x30800000]");
  std::vector<Arg> args{Arg::buffer<float>({1.5f, -0.5f, 3.0e38f, 1.0f}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<float>(args[0].as<float>(), {3.75f, 0.0f, std::numeric_limits<float>::infinity(), 1.0f});
  expectBits<float>(args[1].as<float>(), {1.5f, -0.5f, 3.0e38f, 1.0f});
}

TEST(InterpOpsMemory, AtomicRmwAddfHalfFormatsAndF64) {
  // f16 (nearest even): 1 + 2^-11 (0x1000) is a tie -> 1 (0x3C00); 65504 * 2 -> inf;
  // 2^-24 + 2^-24 = 2^-23 (0x0002: subnormals kept; Ops.td notes today's
  // compiler flushes them and says not to rely on it); -1 + 1 = +0.
  std::string h = rmwProgram("f16", "addf", "[0x1000, 0x7BFF, 0x0001, 1.0]");
  std::vector<Arg> args{Arg::buffer<uint16_t>({0x3C00, 0x7BFF, 0x0001, 0xBC00}), Arg::zeros(8)};
  expectRan(runProgram(h, args), h);
  expectHalf(args[0].as<uint16_t>(), {0x3C00, 0x7C00, 0x0002, 0x0000});
  expectHalf(args[1].as<uint16_t>(), {0x3C00, 0x7BFF, 0x0001, 0xBC00});
  // bf16: 1 + 1 = 2 (0x4000); 1 + 2^-8 (0x3B80) ties to 1 (0x3F80).
  std::string b = rmwProgram("bf16", "addf", "[1.0, 0x3B80, 0.5, -2.0]");
  args = {Arg::buffer<uint16_t>({0x3F80, 0x3F80, 0x3F80, 0x4000}), Arg::zeros(8)};
  expectRan(runProgram(b, args), b);
  expectHalf(args[0].as<uint16_t>(), {0x4000, 0x3F80, 0x3FC0, 0x0000}, true);
  // f64: 0.1 + 0.2 = 0.30000000000000004 (0x3FD3333333333334).
  std::string d = rmwProgram("f64", "addf", "[0.2, 1.0, 0.0, -0.0]");
  args = {Arg::buffer<double>({0.1, 2.0, -0.0, -0.0}), Arg::zeros(32)};
  expectRan(runProgram(d, args), d);
  std::vector<double> after = args[0].as<double>();
  EXPECT_EQ(bitsOf(after[0]), 0x3FD3333333333334u);
  expectBits<double>({after[1], after[2], after[3]}, {3.0, 0.0, -0.0});  // -0 + 0 = +0; -0 + -0 = -0
}

TEST(InterpOpsMemory, AtomicRmwXchgF32) {
  std::string program = rmwProgram("f32", "xchg", "[-0.0, 2.0, nan, 4.0]");
  std::vector<Arg> args{Arg::buffer<float>({1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f, 0.0f}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<float>(args[0].as<float>(), {-0.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(), 4.0f});
  expectBits<float>(args[1].as<float>(), {1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f, 0.0f});
}

TEST(InterpOpsMemory, AtomicRmwMaskedLanesLeaveMemoryAlone) {
  // The values returned for masked-off lanes are implementation-defined; only
  // the active lanes' old values are checked.
  std::string program = rmwProgram("i32", "add", "[100, 100, 100, 100]", "[1, 0, 1, 0]");
  std::vector<Arg> args{Arg::buffer<int32_t>({1, 2, 3, 4}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<int32_t>(args[0].as<int32_t>(), {101, 2, 103, 4});
  std::vector<int32_t> old = args[1].as<int32_t>();
  EXPECT_EQ(old[0], 1);
  EXPECT_EQ(old[2], 3);
}

TEST(InterpOpsMemory, AtomicRmwOnOneAddressFromEveryLane) {
  // Four lanes add 1, 2, 3, 4 to one element, one atomic transaction each:
  // the sum is 10 in any order. The lanes' order is unspecified, so of the old
  // values check only what every order gives: the first lane saw 0, and the
  // last one saw 10 minus its own argument.
  std::string program = kernel("%mem: tile<ptr<i32>>, %old: tile<ptr<i32>>",
                               "    %p1 = reshape %mem : tile<ptr<i32>> -> tile<1xptr<i32>>\n"
                               "    %pp = broadcast %p1 : tile<1xptr<i32>> -> tile<4xptr<i32>>\n"
                               "    %a = constant <i32: [1, 2, 3, 4]> : tile<4xi32>\n"
                               "    %r, %t = atomic_rmw_tko relaxed device %pp, add, %a : tile<4xptr<i32>>, tile<4xi32>"
                               " -> tile<4xi32>, token\n" +
                                   store("%r", "4", "i32", "%old"));
  std::vector<Arg> args{Arg::zeros(4), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  EXPECT_EQ(args[0].as<int32_t>()[0], 10);
  std::vector<int32_t> old = args[1].as<int32_t>();
  int32_t adds[4] = {1, 2, 3, 4};
  int32_t lastIndex = static_cast<int32_t>(std::max_element(old.begin(), old.end()) - old.begin());
  EXPECT_EQ(old[lastIndex] + adds[lastIndex], 10);
  EXPECT_EQ(*std::min_element(old.begin(), old.end()), 0);
}

// --- atomic_cas_tko -------------------------------------------------------------------------

std::string casProgram(const std::string& elem, const std::string& cmp, const std::string& val, const std::string& mask = "") {
  std::string t = "tile<4x" + elem + ">";
  std::string m = mask.empty() ? "" : "    %m = constant <i1: " + mask + "> : tile<4xi1>\n";
  return kernel("%mem: tile<ptr<" + elem + ">>, %old: tile<ptr<" + elem + ">>",
                pointers4(elem, "%mem") + m + "    %c = constant <" + elem + ": " + cmp + "> : " + t + "\n" +
                    "    %v = constant <" + elem + ": " + val + "> : " + t + "\n" +
                    "    %r, %t = atomic_cas_tko relaxed device %pp, %c, %v" + (mask.empty() ? "" : ", %m") +
                    " : tile<4xptr<" + elem + ">>, " + t + (mask.empty() ? "" : ", tile<4xi1>") + " -> " + t + ", token\n" +
                    store("%r", "4", elem, "%old"));
}

TEST(InterpOpsMemory, AtomicCasSwapsWhereEqual) {
  std::string program = casProgram("i32", "[1, 0, 3, 0]", "[10, 20, 30, 40]");
  std::vector<Arg> args{Arg::buffer<int32_t>({1, 2, 3, 4}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<int32_t>(args[0].as<int32_t>(), {10, 2, 30, 4});
  expectBits<int32_t>(args[1].as<int32_t>(), {1, 2, 3, 4});
  std::string wide = casProgram("i64", "[-1, 5, 0, 0]", "[7, 8, 9, 10]");
  args = {Arg::buffer<int64_t>({-1, 6, 0, 1}), Arg::zeros(32)};
  expectRan(runProgram(wide, args), wide);
  expectBits<int64_t>(args[0].as<int64_t>(), {7, 6, 9, 1});
  expectBits<int64_t>(args[1].as<int64_t>(), {-1, 6, 0, 1});
}

TEST(InterpOpsMemory, AtomicCasMaskedLanesReturnCmp) {
  // Ops.td: "The returned value for a masked element at position i is cmp[i]."
  // Lanes 2 and 3 are masked off (their cmp differs from memory to tell).
  std::string program = casProgram("i32", "[1, 2, 33, 44]", "[10, 20, 30, 40]", "[1, 1, 0, 0]");
  std::vector<Arg> args{Arg::buffer<int32_t>({1, 2, 3, 4}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<int32_t>(args[0].as<int32_t>(), {10, 20, 3, 4});
  expectBits<int32_t>(args[1].as<int32_t>(), {1, 2, 33, 44});
}

TEST(InterpOpsMemory, AtomicCasComparesFloatBits) {
  // Ops.td: bitwise equality: -0 differs from +0; a NaN equals a NaN with the
  // same bits (0x7FC00000), not one with another payload (0x7FC00001).
  std::string program = casProgram("f32", "[0.0, 0x7FC00000, 1.0, 0x7FC00000]", "[5.0, 6.0, 7.0, 8.0]");
  std::vector<Arg> args{Arg::buffer<uint32_t>({0x80000000u, 0x7FC00000u, 0x3F800000u, 0x7FC00001u}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  expectBits<uint32_t>(args[0].as<uint32_t>(), {0x80000000u, 0x40C00000u, 0x40E00000u, 0x7FC00001u});  // 6.0, 7.0
  expectBits<uint32_t>(args[1].as<uint32_t>(), {0x80000000u, 0x7FC00000u, 0x3F800000u, 0x7FC00001u});
  // f64: 2^-1074 is not 0.
  std::string d = casProgram("f64", "[0.0, 1.0, 0.5, 0.0]", "[1.0, 2.0, 3.0, 4.0]");
  args = {Arg::buffer<double>({f64(1), 1.0, 0.5, 0.0}), Arg::zeros(32)};
  expectRan(runProgram(d, args), d);
  expectBits<double>(args[0].as<double>(), {f64(1), 2.0, 3.0, 4.0});
}

TEST(InterpOpsMemory, AtomicCasKeepsSignalingNaNBits) {
  // A signaling NaN (0x7FA00001) compared with itself swaps; its bits come back untouched.
  std::string program = casProgram("f32", "[0x7FA00001, 0x7FA00001, 1.0, 1.0]", "[5.0, 6.0, 7.0, 8.0]");
  std::vector<Arg> args{Arg::buffer<uint32_t>({0x7FA00001u, 0x7FE00001u, 0x3F800000u, 0x3F800000u}), Arg::zeros(16)};
  expectRan(runProgram(program, args), program);
  // 0x7FE00001 is the quiet twin: not equal bit for bit.
  expectBits<uint32_t>(args[0].as<uint32_t>(), {0x40A00000u, 0x7FE00001u, 0x40E00000u, 0x41000000u});
  expectBits<uint32_t>(args[1].as<uint32_t>(), {0x7FA00001u, 0x7FE00001u, 0x3F800000u, 0x3F800000u});
}

}  // namespace
}  // namespace tilesight::testing
