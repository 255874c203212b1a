// Per-op interpreter tests, matrix ops (mmaf, mmai, mmaf_scaled) and control
// flow (if/else with results, for with iter_values, loop with break and
// continue, early return). The products are small enough to work out by hand;
// the loops' results follow from counting their iterations.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

// --- mmaf ---------------------------------------------------------------------------

TEST(InterpOpsMatrix, MmafF16IntoF32) {
  // A = [[1, 2, 3, 4], [5, 6, 7, 8]], B = [[1, 0], [0, 1], [1, 1], [2, -1]]:
  // AB row 0 = [1 + 3 + 8, 2 + 3 - 4] = [12, 1]; row 1 = [5 + 7 + 16, 6 + 7 - 8] = [28, 5].
  // Plus C = [[0.5, 0], [0, 0]].
  auto out = runOut<float>("f32", 4, "    %a = constant <f16: [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tile<2x4xf16>\n"
                                     "    %b = constant <f16: [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]]> : tile<4x2xf16>\n"
                                     "    %c = constant <f32: [[0.5, 0.0], [0.0, 0.0]]> : tile<2x2xf32>\n"
                                     "    %r = mmaf %a, %b, %c : tile<2x4xf16>, tile<4x2xf16>, tile<2x2xf32>\n" +
                                         store("%r", "2x2", "f32"));
  expectBits<float>(out, {12.5f, 1.0f, 28.0f, 5.0f});
}

TEST(InterpOpsMatrix, MmafF32AndF64) {
  // [[1.5, 2], [0, -1]] x [[2, 0], [1, 4]] = [[5, 8], [-1, -4]], plus ones.
  auto f = runOut<float>("f32", 4, "    %a = constant <f32: [[1.5, 2.0], [0.0, -1.0]]> : tile<2x2xf32>\n"
                                   "    %b = constant <f32: [[2.0, 0.0], [1.0, 4.0]]> : tile<2x2xf32>\n"
                                   "    %c = constant <f32: 1.0> : tile<2x2xf32>\n"
                                   "    %r = mmaf %a, %b, %c : tile<2x2xf32>, tile<2x2xf32>, tile<2x2xf32>\n" +
                                       store("%r", "2x2", "f32"));
  expectBits<float>(f, {6.0f, 9.0f, 0.0f, -3.0f});
  // f64: [[0.25, 0.5]] x [[4], [8]] = [[1 + 4]] = 5, plus -5 = 0.
  auto d = runOut<double>("f64", 1, "    %a = constant <f64: [[0.25, 0.5]]> : tile<1x2xf64>\n"
                                    "    %b = constant <f64: [[4.0], [8.0]]> : tile<2x1xf64>\n"
                                    "    %c = constant <f64: -5.0> : tile<1x1xf64>\n"
                                    "    %r = mmaf %a, %b, %c : tile<1x2xf64>, tile<2x1xf64>, tile<1x1xf64>\n" +
                                        store("%r", "1x1", "f64"));
  expectBits<double>(d, {0.0});
}

TEST(InterpOpsMatrix, MmafNarrowInputs) {
  // bf16 0x3F81 = 1.0078125; 1.0078125 + 2 = 3.0078125 exactly in f32.
  expectBits<float>(runOut<float>("f32", 1, "    %a = constant <bf16: [[0x3F81, 2.0]]> : tile<1x2xbf16>\n"
                                            "    %b = constant <bf16: [[1.0], [1.0]]> : tile<2x1xbf16>\n"
                                            "    %c = constant <f32: 0.0> : tile<1x1xf32>\n"
                                            "    %r = mmaf %a, %b, %c : tile<1x2xbf16>, tile<2x1xbf16>, tile<1x1xf32>\n" +
                                                store("%r", "1x1", "f32")),
                    {3.0078125f});
  // f8E4M3FN: 1.5*2 + 2*0.5 = 4; f8E5M2: -1*3 + 0.25*4 = -2.
  expectBits<float>(runOut<float>("f32", 1, "    %a = constant <f8E4M3FN: [[1.5, 2.0]]> : tile<1x2xf8E4M3FN>\n"
                                            "    %b = constant <f8E4M3FN: [[2.0], [0.5]]> : tile<2x1xf8E4M3FN>\n"
                                            "    %c = constant <f32: 0.0> : tile<1x1xf32>\n"
                                            "    %r = mmaf %a, %b, %c : tile<1x2xf8E4M3FN>, tile<2x1xf8E4M3FN>, tile<1x1xf32>\n" +
                                                store("%r", "1x1", "f32")),
                    {4.0f});
  expectBits<float>(runOut<float>("f32", 1, "    %a = constant <f8E5M2: [[-1.0, 0.25]]> : tile<1x2xf8E5M2>\n"
                                            "    %b = constant <f8E5M2: [[3.0], [4.0]]> : tile<2x1xf8E5M2>\n"
                                            "    %c = constant <f32: 0.0> : tile<1x1xf32>\n"
                                            "    %r = mmaf %a, %b, %c : tile<1x2xf8E5M2>, tile<2x1xf8E5M2>, tile<1x1xf32>\n" +
                                                store("%r", "1x1", "f32")),
                    {-2.0f});
}

TEST(InterpOpsMatrix, MmafF16Accumulator) {
  // The result is f16: 2048 + 2 + 4 = 2054 = 2048 * (1 + 3/1024) -> 0x6803
  // (every partial sum is representable, so the order does not matter);
  // 65504 + 16 + 16 overflows to inf in any order.
  auto out = runOut<uint16_t>("f16", 2, "    %a = constant <f16: [[2.0, 4.0], [16.0, 16.0]]> : tile<2x2xf16>\n"
                                        "    %b = constant <f16: [[1.0], [1.0]]> : tile<2x1xf16>\n"
                                        "    %c = constant <f16: [[2048.0], [65504.0]]> : tile<2x1xf16>\n"
                                        "    %r = mmaf %a, %b, %c : tile<2x2xf16>, tile<2x1xf16>, tile<2x1xf16>\n" +
                                            store("%r", "2x1", "f16"));
  expectHalf(out, {0x6803, 0x7C00});
}

TEST(InterpOpsMatrix, MmafBatched3D) {
  // Batch 0: I x B = B; batch 1: 2I x B = 2B; B = [[1, 2], [3, 4]] in both.
  auto out = runOut<float>("f32", 8, "    %a = constant <f32: [[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]]> : tile<2x2x2xf32>\n"
                                     "    %b = constant <f32: [[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]]> : tile<2x2x2xf32>\n"
                                     "    %c = constant <f32: [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.5]]]> : tile<2x2x2xf32>\n"
                                     "    %r = mmaf %a, %b, %c : tile<2x2x2xf32>, tile<2x2x2xf32>, tile<2x2x2xf32>\n" +
                                         store("%r", "2x2x2", "f32"));
  expectBits<float>(out, {1, 2, 3, 4, 2, 4, 6, 8.5f});
}

// --- mmai ----------------------------------------------------------------------------

TEST(InterpOpsMatrix, MmaiEachSignedness) {
  // A = [[-1, 2], [3, -4]], B = [[5, -6], [-7, 8]] as i8. Unsigned, -1 = 255,
  // -4 = 252, -6 = 250, -7 = 249.
  struct Case {
    const char* signs;
    std::vector<int32_t> want;
  };
  const std::vector<Case> cases = {
      // [[-5 - 14, 6 + 16], [15 + 28, -18 - 32]] + [[100, 0], [0, -100]]
      {"signed signed", {81, 22, 43, -150}},
      // [[1275 + 498, 63750 + 16], [15 + 62748, 750 + 2016]] + C
      {"unsigned unsigned", {1873, 63766, 62763, 2666}},
      // [[-5 + 498, -250 + 16], [15 - 996, 750 - 32]] + C
      {"signed unsigned", {593, -234, -981, 618}},
      // [[1275 - 14, -1530 + 16], [15 - 1764, -18 + 2016]] + C
      {"unsigned signed", {1361, -1514, -1749, 1898}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.signs);
    auto out = runOut<int32_t>("i32", 4, "    %a = constant <i8: [[-1, 2], [3, -4]]> : tile<2x2xi8>\n"
                                         "    %b = constant <i8: [[5, -6], [-7, 8]]> : tile<2x2xi8>\n"
                                         "    %c = constant <i32: [[100, 0], [0, -100]]> : tile<2x2xi32>\n"
                                         "    %r = mmai %a, %b, %c " +
                                             std::string(c.signs) + " : tile<2x2xi8>, tile<2x2xi8>, tile<2x2xi32>\n" +
                                             store("%r", "2x2", "i32"));
    expectBits<int32_t>(out, c.want);
  }
}

TEST(InterpOpsMatrix, MmaiBatched) {
  // Batch 1 multiplies by -1 * I: the negated B.
  auto out = runOut<int32_t>("i32", 8, "    %a = constant <i8: [[[1, 0], [0, 1]], [[-1, 0], [0, -1]]]> : tile<2x2x2xi8>\n"
                                       "    %b = constant <i8: [[[1, 2], [3, 4]], [[127, -128], [0, 1]]]> : tile<2x2x2xi8>\n"
                                       "    %c = constant <i32: 0> : tile<2x2x2xi32>\n"
                                       "    %r = mmai %a, %b, %c signed signed : tile<2x2x2xi8>, tile<2x2x2xi8>, tile<2x2x2xi32>\n" +
                                           store("%r", "2x2x2", "i32"));
  expectBits<int32_t>(out, {1, 2, 3, 4, -127, 128, 0, -1});
}

// --- mmaf_scaled -------------------------------------------------------------------------

TEST(InterpOpsMatrix, MmafScaledF8WithE8M0Scales) {
  // Ops.td: sum_k (lhs[i][k] * lhs_scale[i][k/V]) * (rhs[k][j] * rhs_scale[k/V][j]) + acc,
  // V = 32 for f8 inputs. lhs rows: 16 ones then 16 halves (sum 24); rhs all 1.
  // Scales (E8M0 2^(b-127)): lhs [[2], [0.5]] = 0x80, 0x7E; rhs [[1, 4]] = 0x7F, 0x81.
  // result[i][j] = 24 * ls[i] * rs[j] + acc: [[48 + 1, 192], [12, 48]].
  auto out = runOut<float>("f32", 4, "    %a1 = constant <f8E4M3FN: 1.0> : tile<2x16xf8E4M3FN>\n"
                                     "    %a2 = constant <f8E4M3FN: 0.5> : tile<2x16xf8E4M3FN>\n"
                                     "    %a = cat %a1, %a2 dim = 1 : tile<2x16xf8E4M3FN>, tile<2x16xf8E4M3FN> -> tile<2x32xf8E4M3FN>\n"
                                     "    %b = constant <f8E4M3FN: 1.0> : tile<32x2xf8E4M3FN>\n"
                                     "    %c = constant <f32: [[1.0, 0.0], [0.0, 0.0]]> : tile<2x2xf32>\n"
                                     "    %as = constant <f8E8M0FNU: [[0x80], [0x7E]]> : tile<2x1xf8E8M0FNU>\n"
                                     "    %bs = constant <f8E8M0FNU: [[0x7F, 0x81]]> : tile<1x2xf8E8M0FNU>\n"
                                     "    %r = mmaf_scaled %a, %b, %c, %as, %bs : tile<2x32xf8E4M3FN>, tile<32x2xf8E4M3FN>, "
                                     "tile<2x2xf32>, tile<2x1xf8E8M0FNU>, tile<1x2xf8E8M0FNU>\n" +
                                         store("%r", "2x2", "f32"));
  expectBits<float>(out, {49.0f, 192.0f, 12.0f, 48.0f});
}

TEST(InterpOpsMatrix, MmafScaledF4WithE4M3Scales) {
  // f4E2M1FN with f8E4M3FN scales, V = 16: two scale blocks along K = 32.
  // lhs all 1.5, rhs all 2: each block adds 16 * 1.5 * 2 * ls[i][g] * rs[g][j]
  // = 48 * ls * rs. ls = [[1, 2], [0.5, 1]], rs = [[1, 1], [1, 3]]:
  // [[48 * (1 + 2), 48 * (1 + 6)], [48 * (0.5 + 1), 48 * (0.5 + 3)]].
  auto out = runOut<float>("f32", 4, "    %a = constant <f4E2M1FN: 1.5> : tile<2x32xf4E2M1FN>\n"
                                     "    %b = constant <f4E2M1FN: 2.0> : tile<32x2xf4E2M1FN>\n"
                                     "    %c = constant <f32: 0.0> : tile<2x2xf32>\n"
                                     "    %as = constant <f8E4M3FN: [[1.0, 2.0], [0.5, 1.0]]> : tile<2x2xf8E4M3FN>\n"
                                     "    %bs = constant <f8E4M3FN: [[1.0, 1.0], [1.0, 3.0]]> : tile<2x2xf8E4M3FN>\n"
                                     "    %r = mmaf_scaled %a, %b, %c, %as, %bs : tile<2x32xf4E2M1FN>, tile<32x2xf4E2M1FN>, "
                                     "tile<2x2xf32>, tile<2x2xf8E4M3FN>, tile<2x2xf8E4M3FN>\n" +
                                         store("%r", "2x2", "f32"));
  expectBits<float>(out, {144.0f, 336.0f, 72.0f, 168.0f});
}

// --- if ---------------------------------------------------------------------------------

TEST(InterpOpsControl, IfElseWithResults) {
  std::string program = kernel("%c: tile<i1>, %of: tile<ptr<f32>>, %oi: tile<ptr<i32>>",
                               "    %x, %y = if %c -> (tile<f32>, tile<i32>) {\n"
                               "      %a = constant <f32: 1.5> : tile<f32>\n"
                               "      %b = constant <i32: 2> : tile<i32>\n"
                               "      yield %a, %b : tile<f32>, tile<i32>\n"
                               "    } else {\n"
                               "      %a = constant <f32: 2.5> : tile<f32>\n"
                               "      %b = constant <i32: 42> : tile<i32>\n"
                               "      yield %a, %b : tile<f32>, tile<i32>\n"
                               "    }\n" +
                                   store("%x", "", "f32", "%of") + store("%y", "", "i32", "%oi"));
  for (int c : {1, 0}) {
    SCOPED_TRACE(c);
    std::vector<Arg> args{Arg::integer(c), Arg::zeros(4), Arg::zeros(4)};
    expectRan(runProgram(program, args), program);
    EXPECT_EQ(args[1].as<float>()[0], c ? 1.5f : 2.5f);
    EXPECT_EQ(args[2].as<int32_t>()[0], c ? 2 : 42);
  }
}

TEST(InterpOpsControl, IfWithoutElseRunsOnlyWhenTrue) {
  std::string program = kernel("%c: tile<i1>, %out: tile<ptr<i32>>",
                               "    if %c {\n"
                               "      %v = constant <i32: 7> : tile<i32>\n"
                               "      %t = store_ptr_tko weak %out, %v : tile<ptr<i32>>, tile<i32> -> token\n"
                               "    }\n");
  for (int c : {1, 0}) {
    std::vector<Arg> args{Arg::integer(c), Arg::buffer<int32_t>({-1})};
    expectRan(runProgram(program, args), program);
    EXPECT_EQ(args[1].as<int32_t>()[0], c ? 7 : -1);
  }
}

TEST(InterpOpsControl, ReturnInsideIfEndsTheKernel) {
  // Ops.td: return may end an entry from inside an if; the store after it
  // runs only when the condition is false.
  std::string program = kernel("%c: tile<i1>, %out: tile<ptr<i32>>",
                               "    if %c {\n"
                               "      return\n"
                               "    }\n"
                               "    %v = constant <i32: 7> : tile<i32>\n"
                               "    %t = store_ptr_tko weak %out, %v : tile<ptr<i32>>, tile<i32> -> token\n");
  for (int c : {1, 0}) {
    std::vector<Arg> args{Arg::integer(c), Arg::buffer<int32_t>({-1})};
    expectRan(runProgram(program, args), program);
    EXPECT_EQ(args[1].as<int32_t>()[0], c ? -1 : 7);
  }
}

// --- for -----------------------------------------------------------------------------------

// A for loop over [lb, ub) by step (tile<elem>, from the arguments) that sums
// the induction variable and counts iterations; both go to %out.
std::string sumLoop(const std::string& elem, const std::string& unsignedCmp = "") {
  std::string t = "tile<" + elem + ">";
  return kernel("%lb: " + t + ", %ub: " + t + ", %st: " + t + ", %out: tile<ptr<" + elem + ">>",
                "    %z = constant <" + elem + ": 0> : " + t + "\n"
                "    %one = constant <" + elem + ": 1> : " + t + "\n"
                "    %s, %n = for " + unsignedCmp + "%iv in (%lb to %ub, step %st) : " + t + "\n"
                "        iter_values(%acc = %z, %cnt = %z) -> (" + t + ", " + t + ") {\n"
                "      %a2 = addi %acc, %iv : " + t + "\n"
                "      %c2 = addi %cnt, %one : " + t + "\n"
                "      continue %a2, %c2 : " + t + ", " + t + "\n"
                "    }\n" +
                    gather("%r", {"%s", "%n"}, elem) + store("%r", "2", elem));
}

TEST(InterpOpsControl, ForCarriesIterValues) {
  struct Case {
    int64_t lb, ub, step, sum, count;
  };
  // [0, 10) by 3: 0, 3, 6, 9. [-5, 5) by 4: -5, -1, 3 (signed bounds).
  // [4, 4): no iteration, the results are the initial values. [7, 8) by 100: just 7.
  const std::vector<Case> cases = {{0, 10, 3, 18, 4}, {-5, 5, 4, -3, 3}, {4, 4, 1, 0, 0}, {7, 8, 100, 7, 1}};
  std::string program = sumLoop("i32");
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.lb) + " to " + std::to_string(c.ub));
    std::vector<Arg> args{Arg::integer(c.lb), Arg::integer(c.ub), Arg::integer(c.step), Arg::zeros(8)};
    expectRan(runProgram(program, args), program);
    expectBits<int32_t>(args[3].as<int32_t>(), {static_cast<int32_t>(c.sum), static_cast<int32_t>(c.count)});
  }
  // i64 bounds past 2^32: 2^33 and 2^33 + 5, step 5: one iteration.
  std::string wide = sumLoop("i64");
  std::vector<Arg> args{Arg::integer(8589934592), Arg::integer(8589934597), Arg::integer(5), Arg::zeros(16)};
  expectRan(runProgram(wide, args), wide);
  expectBits<int64_t>(args[3].as<int64_t>(), {8589934592, 1});
}

TEST(InterpOpsControl, ForUnsignedComparesUnsigned) {
  // Upper bound 0x80000000: unsigned 2^31, signed -2^31. From 0 by 2^30:
  // unsigned, iterations 0 and 2^30 (then 2^31 is not below 2^31); signed, 0
  // is not below -2^31: none.
  std::vector<Arg> args{Arg::integer(0), Arg::integer(std::numeric_limits<int32_t>::min()), Arg::integer(1073741824),
                        Arg::zeros(8)};
  std::string u = sumLoop("i32", "unsigned ");
  expectRan(runProgram(u, args), u);
  expectBits<int32_t>(args[3].as<int32_t>(), {1073741824, 2});
  std::string s = sumLoop("i32");
  args[3] = Arg::zeros(8);
  expectRan(runProgram(s, args), s);
  expectBits<int32_t>(args[3].as<int32_t>(), {0, 0});
}

TEST(InterpOpsControl, ForStepMustBePositive) {
  // Ops.td: "step must be positive" (not a verifier rule): a step of 0 would
  // never end; the interpreter stops the run and says why.
  std::string program = sumLoop("i32");
  std::vector<Arg> args{Arg::integer(0), Arg::integer(4), Arg::integer(0), Arg::zeros(8)};
  RunResult r = runProgram(program, args);
  ASSERT_TRUE(r.verified) << r.reasons;
  EXPECT_FALSE(r.outcome.ok);
  EXPECT_NE(r.outcome.fault.find("step"), std::string::npos) << r.outcome.fault;
}

TEST(InterpOpsControl, ForContinueFromInsideIf) {
  // Sum the even iv in [0, 8): odd ones continue early with the sum unchanged.
  std::string program = kernel("%out: tile<ptr<i32>>",
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %c8 = constant <i32: 8> : tile<i32>\n"
                               "    %s = for %iv in (%c0 to %c8, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {\n"
                               "      %low = andi %iv, %c1 : tile<i32>\n"
                               "      %odd = cmpi equal %low, %c1, signed : tile<i32> -> tile<i1>\n"
                               "      if %odd {\n"
                               "        continue %acc : tile<i32>\n"
                               "      }\n"
                               "      %a2 = addi %acc, %iv : tile<i32>\n"
                               "      continue %a2 : tile<i32>\n"
                               "    }\n" +
                                   store("%s", "", "i32"));
  std::vector<Arg> args{Arg::zeros(4)};
  expectRan(runProgram(program, args), program);
  EXPECT_EQ(args[0].as<int32_t>()[0], 0 + 2 + 4 + 6);
}

TEST(InterpOpsControl, ForCarriesATile) {
  // acc += [1, 2, 3, 4] three times.
  auto out = runOut<float>("f32", 4, "    %c0 = constant <i16: 0> : tile<i16>\n"
                                     "    %c1 = constant <i16: 1> : tile<i16>\n"
                                     "    %c3 = constant <i16: 3> : tile<i16>\n"
                                     "    %z = constant <f32: 0.0> : tile<4xf32>\n"
                                     "    %d = constant <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>\n"
                                     "    %s = for %iv in (%c0 to %c3, step %c1) : tile<i16> iter_values(%acc = %z) -> (tile<4xf32>) {\n"
                                     "      %a2 = addf %acc, %d : tile<4xf32>\n"
                                     "      continue %a2 : tile<4xf32>\n"
                                     "    }\n" +
                                         store("%s", "4", "f32"));
  expectBits<float>(out, {3, 6, 9, 12});
}

// --- loop -----------------------------------------------------------------------------------

TEST(InterpOpsControl, LoopBreakAndContinue) {
  // i counts 0, 1, ...; odd i continue without adding; at i = 5 break with
  // the sum 0 + 2 + 4 = 6.
  auto out = runOut<int32_t>("i32", 1, "    %c0 = constant <i32: 0> : tile<i32>\n"
                                       "    %c1 = constant <i32: 1> : tile<i32>\n"
                                       "    %c5 = constant <i32: 5> : tile<i32>\n"
                                       "    %r = loop iter_values(%i = %c0, %s = %c0) : tile<i32>, tile<i32> -> tile<i32> {\n"
                                       "      %done = cmpi equal %i, %c5, signed : tile<i32> -> tile<i1>\n"
                                       "      if %done {\n"
                                       "        break %s : tile<i32>\n"
                                       "      }\n"
                                       "      %i1 = addi %i, %c1 : tile<i32>\n"
                                       "      %low = andi %i, %c1 : tile<i32>\n"
                                       "      %odd = cmpi equal %low, %c1, signed : tile<i32> -> tile<i1>\n"
                                       "      if %odd {\n"
                                       "        continue %i1, %s : tile<i32>, tile<i32>\n"
                                       "      }\n"
                                       "      %s1 = addi %s, %i : tile<i32>\n"
                                       "      continue %i1, %s1 : tile<i32>, tile<i32>\n"
                                       "    }\n" +
                                           store("%r", "", "i32"));
  expectBits<int32_t>(out, {6});
}

TEST(InterpOpsControl, BreakFromAnIfInsideAnIf) {
  // Ops.td: break returns to the innermost enclosing loop, even from nested
  // ifs. i = 0, 1, 2 are not above 2; 3 is odd; 4 breaks with 4.
  auto out = runOut<int32_t>("i32", 1, "    %c0 = constant <i32: 0> : tile<i32>\n"
                                       "    %c1 = constant <i32: 1> : tile<i32>\n"
                                       "    %c2 = constant <i32: 2> : tile<i32>\n"
                                       "    %r = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {\n"
                                       "      %big = cmpi greater_than %i, %c2, signed : tile<i32> -> tile<i1>\n"
                                       "      if %big {\n"
                                       "        %low = andi %i, %c1 : tile<i32>\n"
                                       "        %even = cmpi equal %low, %c0, signed : tile<i32> -> tile<i1>\n"
                                       "        if %even {\n"
                                       "          break %i : tile<i32>\n"
                                       "        }\n"
                                       "      }\n"
                                       "      %i1 = addi %i, %c1 : tile<i32>\n"
                                       "      continue %i1 : tile<i32>\n"
                                       "    }\n" +
                                           store("%r", "", "i32"));
  expectBits<int32_t>(out, {4});
}

TEST(InterpOpsControl, BreakFromTheElseOfAnIfWithResults) {
  // The then branch yields the next value, the else branch leaves the loop:
  // i = 0, 1, 2 step on; at 3 the loop breaks with 3 * 10.
  auto out = runOut<int32_t>("i32", 1, "    %c0 = constant <i32: 0> : tile<i32>\n"
                                       "    %c1 = constant <i32: 1> : tile<i32>\n"
                                       "    %c3 = constant <i32: 3> : tile<i32>\n"
                                       "    %c10 = constant <i32: 10> : tile<i32>\n"
                                       "    %r = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {\n"
                                       "      %small = cmpi less_than %i, %c3, signed : tile<i32> -> tile<i1>\n"
                                       "      %n = if %small -> (tile<i32>) {\n"
                                       "        %i1 = addi %i, %c1 : tile<i32>\n"
                                       "        yield %i1 : tile<i32>\n"
                                       "      } else {\n"
                                       "        %b = muli %i, %c10 : tile<i32>\n"
                                       "        break %b : tile<i32>\n"
                                       "      }\n"
                                       "      continue %n : tile<i32>\n"
                                       "    }\n" +
                                           store("%r", "", "i32"));
  expectBits<int32_t>(out, {30});
}

TEST(InterpOpsControl, BreakLeavesOnlyTheInnerLoop) {
  // For iv in 0..3 an inner loop counts j up to iv and breaks with it; the
  // outer loop sums those: 0 + 1 + 2 = 3.
  auto out = runOut<int32_t>("i32", 1, "    %c0 = constant <i32: 0> : tile<i32>\n"
                                       "    %c1 = constant <i32: 1> : tile<i32>\n"
                                       "    %c3 = constant <i32: 3> : tile<i32>\n"
                                       "    %s = for %iv in (%c0 to %c3, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {\n"
                                       "      %j = loop iter_values(%k = %c0) : tile<i32> -> tile<i32> {\n"
                                       "        %at = cmpi equal %k, %iv, signed : tile<i32> -> tile<i1>\n"
                                       "        if %at {\n"
                                       "          break %k : tile<i32>\n"
                                       "        }\n"
                                       "        %k1 = addi %k, %c1 : tile<i32>\n"
                                       "        continue %k1 : tile<i32>\n"
                                       "      }\n"
                                       "      %a2 = addi %acc, %j : tile<i32>\n"
                                       "      continue %a2 : tile<i32>\n"
                                       "    }\n" +
                                           store("%s", "", "i32"));
  expectBits<int32_t>(out, {3});
}

TEST(InterpOpsControl, LoopResultsMayDifferFromItsIterValues) {
  // Ops.td's example: i32 iter values, an f32 result from break. Halve x
  // until it drops below 1: 10 -> 5 -> 2.5 -> 1.25 -> 0.625, four halvings.
  std::string program = kernel("%of: tile<ptr<f32>>, %oi: tile<ptr<i32>>",
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %x0 = constant <f32: 10.0> : tile<f32>\n"
                               "    %one = constant <f32: 1.0> : tile<f32>\n"
                               "    %half = constant <f32: 0.5> : tile<f32>\n"
                               "    %x, %n = loop iter_values(%xi = %x0, %ni = %c0) : tile<f32>, tile<i32> -> tile<f32>, tile<i32> {\n"
                               "      %small = cmpf less_than ordered %xi, %one : tile<f32> -> tile<i1>\n"
                               "      if %small {\n"
                               "        break %xi, %ni : tile<f32>, tile<i32>\n"
                               "      }\n"
                               "      %x2 = mulf %xi, %half : tile<f32>\n"
                               "      %n2 = addi %ni, %c1 : tile<i32>\n"
                               "      continue %x2, %n2 : tile<f32>, tile<i32>\n"
                               "    }\n" +
                                   store("%x", "", "f32", "%of") + store("%n", "", "i32", "%oi"));
  std::vector<Arg> args{Arg::zeros(4), Arg::zeros(4)};
  expectRan(runProgram(program, args), program);
  EXPECT_EQ(args[0].as<float>()[0], 0.625f);
  EXPECT_EQ(args[1].as<int32_t>()[0], 4);
  std::string other = kernel("%out: tile<ptr<f32>>",
                             "    %c0 = constant <i32: 0> : tile<i32>\n"
                             "    %c3 = constant <i32: 3> : tile<i32>\n"
                             "    %c1 = constant <i32: 1> : tile<i32>\n"
                             "    %r = loop iter_values(%i = %c0) : tile<i32> -> tile<f32> {\n"
                             "      %done = cmpi equal %i, %c3, signed : tile<i32> -> tile<i1>\n"
                             "      if %done {\n"
                             "        %f = itof %i signed : tile<i32> -> tile<f32>\n"
                             "        break %f : tile<f32>\n"
                             "      }\n"
                             "      %i1 = addi %i, %c1 : tile<i32>\n"
                             "      continue %i1 : tile<i32>\n"
                             "    }\n" +
                                 store("%r", "", "f32"));
  std::vector<Arg> one{Arg::zeros(4)};
  expectRan(runProgram(other, one), other);
  EXPECT_EQ(one[0].as<float>()[0], 3.0f);
}

}  // namespace
}  // namespace tilesight::testing
