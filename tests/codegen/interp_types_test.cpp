// Every element-wise op over each of its element types: i8/i16/i32/i64 for
// the integer ops, f16/bf16/f32/f64 for the float ops. The inputs are chosen
// so that the exact result fits every width (or is exactly representable in
// every format), so one literal expectation serves all four types; results
// are widened (exti signed / ftof, both exact) to i64 / f64 before they are
// stored. Width-specific behaviour (wrapping, rounding, saturation) has its
// own tests in the per-category files.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

const char* const kInts[] = {"i8", "i16", "i32", "i64"};
const char* const kFloats[] = {"f16", "bf16", "f32", "f64"};

// Runs `%r = <op> : <t>` (binary over %a, %b, or unary over %a when b is
// empty; %c is a third operand when given) for element type `elem` and
// returns the four results widened to i64. `resultElem` is the result's
// element type when it differs (cmpi: i1).
std::vector<int64_t> runInt(const std::string& elem, const std::string& op, const std::string& a, const std::string& b,
                            const std::string& resultElem = "") {
  std::string t = "tile<4x" + elem + ">", re = resultElem.empty() ? elem : resultElem;
  std::string s = "    %a = constant <" + elem + ": " + a + "> : " + t + "\n";
  if (!b.empty()) s += "    %b = constant <" + elem + ": " + b + "> : " + t + "\n";
  std::string opText = op;
  for (size_t at; (at = opText.find("$T")) != std::string::npos;) opText.replace(at, 2, t);
  s += "    %r = " + opText + "\n";
  if (re != "i64") s += "    %w = exti %r signed : tile<4x" + re + "> -> tile<4xi64>\n";
  s += store(re == "i64" ? "%r" : "%w", "4", "i64");
  return runOut<int64_t>("i64", 4, s);
}

struct IntCase {
  const char* op;
  const char* a;
  const char* b;
  std::vector<int64_t> want;
  const char* resultElem = "";
};

TEST(InterpOpsTypes, IntegerOpsOnEveryWidth) {
  // a = [7, -8, 10, -1], b = [2, 3, -3, 5]: every exact result fits in i8.
  const char* a = "[7, -8, 10, -1]";
  const char* b = "[2, 3, -3, 5]";
  const char* s = "[1, 2, 0, 3]";        // shift amounts
  const char* ua = "[7, 8, 10, 1]";      // non-negative: the same unsigned in every width
  const char* ub = "[2, 3, 3, 5]";
  const std::vector<IntCase> cases = {
      {"addi %a, %b : $T", a, b, {9, -5, 7, 4}},
      {"subi %a, %b : $T", a, b, {5, -11, 13, -6}},
      {"muli %a, %b : $T", a, b, {14, -24, -30, -5}},
      {"divi %a, %b signed : $T", a, b, {3, -2, -3, 0}},                         // toward zero
      {"divi %a, %b signed rounding<negative_inf> : $T", a, b, {3, -3, -4, -1}},  // floor
      {"divi %a, %b signed rounding<positive_inf> : $T", a, b, {4, -2, -3, 0}},   // ceiling
      {"divi %a, %b unsigned : $T", ua, ub, {3, 2, 3, 0}},
      {"divi %a, %b unsigned rounding<positive_inf> : $T", ua, ub, {4, 3, 4, 1}},
      {"remi %a, %b signed : $T", a, b, {1, -2, 1, -1}},
      {"remi %a, %b unsigned : $T", ua, ub, {1, 2, 1, 1}},
      {"maxi %a, %b signed : $T", a, b, {7, 3, 10, 5}},
      {"mini %a, %b signed : $T", a, b, {2, -8, -3, -1}},
      {"maxi %a, %b unsigned : $T", ua, ub, {7, 8, 10, 5}},
      {"mini %a, %b unsigned : $T", ua, ub, {2, 3, 3, 1}},
      // -8 & 3 = ...11111000 & 011 = 0; 10 & -3 = 1010 & ...1101 = 8.
      {"andi %a, %b : $T", a, b, {2, 0, 8, 5}},
      {"ori %a, %b : $T", a, b, {7, -5, -1, -1}},
      {"xori %a, %b : $T", a, b, {5, -5, -9, -6}},
      {"shli %a, %b : $T", a, s, {14, -32, 10, -8}},
      {"shri %a, %b signed : $T", a, s, {3, -2, 10, -1}},
      {"shri %a, %b unsigned : $T", ua, s, {3, 2, 10, 0}},
      // All ones times all ones: (2^w - 1)^2 = 2^2w - 2^(w+1) + 1, high half 2^w - 2 = -2;
      // all ones times 2: high half 1.
      {"mulhii %a, %b : $T", "[-1, 1, -1, 0]", "[-1, 1, 2, 5]", {-2, 0, 1, 0}},
      {"absi %a : $T", a, "", {7, 8, 10, 1}},
      {"negi %a : $T", a, "", {-7, 8, -10, 1}},
      {"cmpi less_than %a, %b, signed : $T -> tile<4xi1>", a, b, {0, -1, 0, -1}, "i1"},  // i1 1 widens to -1
      {"cmpi less_than %a, %b, unsigned : $T -> tile<4xi1>", a, b, {0, 0, -1, 0}, "i1"},  // -8, -3, -1 are huge
  };
  for (const char* elem : kInts) {
    for (const IntCase& c : cases) {
      SCOPED_TRACE(std::string(elem) + ": " + c.op);
      expectBits<int64_t>(runInt(elem, c.op, c.a, c.b, c.resultElem), c.want);
    }
  }
}

TEST(InterpOpsTypes, IntegerWrapAtEachWidth) {
  // max + 1 = min and min - 1 = max, width by width.
  struct W {
    const char* elem;
    const char* max;
    const char* min;
    int64_t vmax, vmin;
  };
  const W widths[] = {{"i8", "127", "-128", 127, -128},
                      {"i16", "32767", "-32768", 32767, -32768},
                      {"i32", "2147483647", "-2147483648", 2147483647, -2147483648ll},
                      {"i64", "9223372036854775807", "-9223372036854775808", INT64_MAX, INT64_MIN}};
  for (const W& w : widths) {
    SCOPED_TRACE(w.elem);
    std::string a = std::string("[") + w.max + ", " + w.min + ", " + w.min + ", " + w.max + "]";
    expectBits<int64_t>(runInt(w.elem, "addi %a, %b : $T", a, "[1, -1, 0, 0]"), {w.vmin, w.vmax, w.vmin, w.vmax});
    expectBits<int64_t>(runInt(w.elem, "negi %a : $T", a, ""), {-w.vmax, w.vmin, w.vmin, -w.vmax});  // -min wraps to min
  }
}

// The float version: results widened to f64 (ftof is exact from every format).
std::vector<double> runFloat(const std::string& elem, const std::string& op, const std::string& a,
                             const std::string& b = "", const std::string& c = "") {
  std::string t = "tile<4x" + elem + ">";
  std::string s = "    %a = constant <" + elem + ": " + a + "> : " + t + "\n";
  if (!b.empty()) s += "    %b = constant <" + elem + ": " + b + "> : " + t + "\n";
  if (!c.empty()) s += "    %c = constant <" + elem + ": " + c + "> : " + t + "\n";
  std::string opText = op;
  for (size_t at; (at = opText.find("$T")) != std::string::npos;) opText.replace(at, 2, t);
  s += "    %r = " + opText + "\n";
  if (std::string(elem) != "f64") s += "    %w = ftof %r : " + t + " -> tile<4xf64>\n";
  s += store(elem == std::string("f64") ? "%r" : "%w", "4", "f64");
  return runOut<double>("f64", 4, s);
}

struct FloatCase {
  const char* op;
  const char* a;
  const char* b;
  const char* c;
  std::vector<double> want;
};

TEST(InterpOpsTypes, FloatOpsOnEveryFormat) {
  // Every input and result below is exact in f16, bf16, f32 and f64.
  const char* a = "[1.5, -2.0, 0.25, 3.0]";
  const char* b = "[0.5, 4.0, -0.5, 2.0]";
  const std::vector<FloatCase> cases = {
      {"addf %a, %b : $T", a, b, "", {2.0, 2.0, -0.25, 5.0}},
      {"subf %a, %b : $T", a, b, "", {1.0, -6.0, 0.75, 1.0}},
      {"mulf %a, %b : $T", a, b, "", {0.75, -8.0, -0.125, 6.0}},
      {"divf %a, %b : $T", a, b, "", {3.0, -0.5, -0.5, 1.5}},
      {"fma %a, %b, %c : $T", a, b, a, {2.25, -10.0, 0.125, 9.0}},
      {"maxf %a, %b : $T", a, b, "", {1.5, 4.0, 0.25, 3.0}},
      {"minf %a, %b : $T", a, b, "", {0.5, -2.0, -0.5, 2.0}},
      {"maxf %a, %b propagate_nan : $T", a, "[nan, 4.0, -0.5, 2.0]", "", {NAN, 4.0, 0.25, 3.0}},
      {"remf %a, %b : $T", a, b, "", {0.0, -2.0, 0.25, 1.0}},
      {"pow %a, %b : $T", "[2.0, -2.0, 4.0, 0.5]", "[3.0, 2.0, 0.5, -1.0]", "", {8.0, 4.0, 2.0, 2.0}},
      {"absf %a : $T", a, "", "", {1.5, 2.0, 0.25, 3.0}},
      {"negf %a : $T", a, "", "", {-1.5, 2.0, -0.25, -3.0}},
      {"ceil %a : $T", a, "", "", {2.0, -2.0, 1.0, 3.0}},
      {"floor %a : $T", a, "", "", {1.0, -2.0, 0.0, 3.0}},
      {"sqrt %a : $T", "[4.0, 0.25, 1.0, 16.0]", "", "", {2.0, 0.5, 1.0, 4.0}},
      {"rsqrt %a : $T", "[4.0, 0.25, 1.0, 16.0]", "", "", {0.5, 2.0, 1.0, 0.25}},
      {"exp2 %a : $T", "[3.0, -1.0, 0.0, 2.0]", "", "", {8.0, 0.5, 1.0, 4.0}},
      {"log2 %a : $T", "[8.0, 0.5, 1.0, 4.0]", "", "", {3.0, -1.0, 0.0, 2.0}},
      {"exp %a : $T", "[0.0, -0.0, -inf, inf]", "", "", {1.0, 1.0, 0.0, INFINITY}},
      {"log %a : $T", "[1.0, 0.0, inf, -1.0]", "", "", {0.0, -INFINITY, INFINITY, NAN}},
      {"sin %a : $T", "[0.0, -0.0, 0.0, -0.0]", "", "", {0.0, -0.0, 0.0, -0.0}},
      {"cos %a : $T", "[0.0, -0.0, 0.0, -0.0]", "", "", {1.0, 1.0, 1.0, 1.0}},
      {"tan %a : $T", "[0.0, -0.0, 0.0, -0.0]", "", "", {0.0, -0.0, 0.0, -0.0}},
      {"sinh %a : $T", "[0.0, -0.0, 0.0, -0.0]", "", "", {0.0, -0.0, 0.0, -0.0}},
      {"cosh %a : $T", "[0.0, -0.0, 0.0, -0.0]", "", "", {1.0, 1.0, 1.0, 1.0}},
      {"tanh %a : $T", "[0.0, -0.0, inf, -inf]", "", "", {0.0, -0.0, 1.0, -1.0}},
      {"atan2 %a, %b : $T", "[0.0, -0.0, 1.0, -1.0]", "[1.0, 1.0, inf, inf]", "", {0.0, -0.0, 0.0, -0.0}},
  };
  for (const char* elem : kFloats) {
    for (const FloatCase& c : cases) {
      SCOPED_TRACE(std::string(elem) + ": " + c.op);
      expectBits<double>(runFloat(elem, c.op, c.a, c.b, c.c), c.want);
    }
  }
}

TEST(InterpOpsTypes, MathFunctionsNearTheTrueValue) {
  // Values of the functions at 1 (and log at 2, atan2(1, 2), pow(2, 0.5)),
  // to 10 digits; each format's result must be within one unit in its last
  // place (a relative 2^-10 for f16, 2^-7 for bf16, 2^-23 for f32; f64 is
  // checked to 1e-15).
  struct M {
    const char* op;
    double want;
  };
  const M cases[] = {{"sin %a : $T", 0.8414709848}, {"cos %a : $T", 0.5403023059},   {"tan %a : $T", 1.5574077247},
                     {"sinh %a : $T", 1.1752011936}, {"cosh %a : $T", 1.5430806348}, {"tanh %a : $T", 0.7615941560},
                     {"exp %a : $T", 2.7182818285}};
  const std::pair<const char*, double> tolerance[] = {{"f16", 0x1p-10}, {"bf16", 0x1p-7}, {"f32", 0x1p-23}, {"f64", 1e-10}};
  for (const auto& [elem, tol] : tolerance) {
    for (const M& m : cases) {
      SCOPED_TRACE(std::string(elem) + ": " + m.op);
      EXPECT_NEAR(runFloat(elem, m.op, "[1.0, 1.0, 1.0, 1.0]")[0], m.want, m.want * tol);
    }
    SCOPED_TRACE(elem);
    EXPECT_NEAR(runFloat(elem, "log %a : $T", "[2.0, 2.0, 2.0, 2.0]")[0], 0.6931471806, 0.6931471806 * tol);
    EXPECT_NEAR(runFloat(elem, "atan2 %a, %b : $T", "[1.0, 1.0, 1.0, 1.0]", "[2.0, 2.0, 2.0, 2.0]")[0], 0.4636476090,
                0.4636476090 * tol);
    EXPECT_NEAR(runFloat(elem, "pow %a, %b : $T", "[2.0, 2.0, 2.0, 2.0]", "[0.5, 0.5, 0.5, 0.5]")[0], 1.4142135624,
                1.4142135624 * tol);
  }
}

TEST(InterpOpsTypes, CmpfOnEveryFormat) {
  for (const char* elem : kFloats) {
    SCOPED_TRACE(elem);
    std::string t = std::string("tile<4x") + elem + ">";
    std::string body = std::string("    %a = constant <") + elem + ": [1.5, -2.0, nan, 3.0]> : " + t + "\n" +
                       "    %b = constant <" + elem + ": [0.5, 4.0, 0.0, 3.0]> : " + t + "\n" +
                       "    %r = cmpf less_than_or_equal unordered %a, %b : " + t + " -> tile<4xi1>\n" + store("%r", "4", "i1");
    expectBits<uint8_t>(runOut<uint8_t>("i1", 4, body), {0, 1, 1, 1});
  }
}

TEST(InterpOpsTypes, ShapeOpsOnEveryType) {
  // A = [[1, 2], [3, 4]]; P = permute(A) = [[1, 3], [2, 4]]; C = cat(A, P) along
  // dim 1 = [[1, 2, 1, 3], [3, 4, 2, 4]]; E = slice [0, 1] of 2x2 = [[1, 3], [2, 4]];
  // R = reshape(E) = [1, 3, 2, 4]; S = select([1, 0, 1, 0], R, broadcast 9) = [1, 9, 2, 9].
  for (const char* elem : {"i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"}) {
    SCOPED_TRACE(elem);
    bool isFloat = elem[0] == 'f' || elem[0] == 'b';
    std::string e = elem;
    auto lit = [&](const std::string& v) { return isFloat ? v + ".0" : v; };
    std::string body =
        "    %a = constant <" + e + ": [[" + lit("1") + ", " + lit("2") + "], [" + lit("3") + ", " + lit("4") + "]]> : tile<2x2x" + e + ">\n" +
        "    %p = permute %a [1, 0] : tile<2x2x" + e + "> -> tile<2x2x" + e + ">\n" +
        "    %c = cat %a, %p dim = 1 : tile<2x2x" + e + ">, tile<2x2x" + e + "> -> tile<2x4x" + e + ">\n" +
        "    %c0 = constant <i32: 0> : tile<i32>\n"
        "    %c1 = constant <i32: 1> : tile<i32>\n"
        "    %x = extract %c[%c0, %c1] : tile<2x4x" + e + "> -> tile<2x2x" + e + ">\n" +
        "    %r = reshape %x : tile<2x2x" + e + "> -> tile<4x" + e + ">\n" +
        "    %n = constant <" + e + ": " + lit("9") + "> : tile<1x" + e + ">\n" +
        "    %nb = broadcast %n : tile<1x" + e + "> -> tile<4x" + e + ">\n" +
        "    %m = constant <i1: [1, 0, 1, 0]> : tile<4xi1>\n"
        "    %s = select %m, %r, %nb : tile<4xi1>, tile<4x" + e + ">\n" +
        "    %rs = cat %r, %s dim = 0 : tile<4x" + e + ">, tile<4x" + e + "> -> tile<8x" + e + ">\n";
    if (isFloat) {
      if (e != "f64") body += "    %w = ftof %rs : tile<8x" + e + "> -> tile<8xf64>\n";
      body += store(e == "f64" ? "%rs" : "%w", "8", "f64");
      expectBits<double>(runOut<double>("f64", 8, body), {1, 3, 2, 4, 1, 9, 2, 9});
    } else {
      if (e != "i64") body += "    %w = exti %rs signed : tile<8x" + e + "> -> tile<8xi64>\n";
      body += store(e == "i64" ? "%rs" : "%w", "8", "i64");
      expectBits<int64_t>(runOut<int64_t>("i64", 8, body), {1, 3, 2, 4, 1, 9, 2, 9});
    }
  }
}

TEST(InterpOpsTypes, ReduceAndScanOnEveryType) {
  // Sum of [1, 2, 3, 4] = 10; its inclusive prefix sums [1, 3, 6, 10].
  for (const char* elem : {"i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"}) {
    SCOPED_TRACE(elem);
    std::string e = elem;
    bool isFloat = e[0] == 'f' || e[0] == 'b';
    std::string add = isFloat ? "addf" : "addi";
    std::string zero = isFloat ? "0.000000e+0 : " + e : "0 : " + e;
    std::string t = "tile<" + e + ">";
    std::string region = "    (%x: " + t + ", %acc: " + t + ") {\n      %y = " + add + " %x, %acc : " + t + "\n      yield %y : " +
                         t + "\n    }\n";
    std::string body = "    %a = constant <" + e + ": " + (isFloat ? "[1.0, 2.0, 3.0, 4.0]" : "[1, 2, 3, 4]") + "> : tile<4x" +
                       e + ">\n" + "    %s = reduce %a dim=0 identities=[" + zero + "] : tile<4x" + e + "> -> " + t + "\n" +
                       region + "    %p = scan %a dim=0 reverse=false identities=[" + zero + "] : tile<4x" + e +
                       "> -> tile<4x" + e + ">\n" + region + "    %s1 = reshape %s : " + t + " -> tile<1x" + e + ">\n" +
                       "    %s2 = broadcast %s1 : tile<1x" + e + "> -> tile<4x" + e + ">\n" +
                       "    %sp = cat %s2, %p dim = 0 : tile<4x" + e + ">, tile<4x" + e + "> -> tile<8x" + e + ">\n";
    if (isFloat) {
      if (e != "f64") body += "    %w = ftof %sp : tile<8x" + e + "> -> tile<8xf64>\n";
      body += store(e == "f64" ? "%sp" : "%w", "8", "f64");
      expectBits<double>(runOut<double>("f64", 8, body), {10, 10, 10, 10, 1, 3, 6, 10});
    } else {
      if (e != "i64") body += "    %w = exti %sp signed : tile<8x" + e + "> -> tile<8xi64>\n";
      body += store(e == "i64" ? "%sp" : "%w", "8", "i64");
      expectBits<int64_t>(runOut<int64_t>("i64", 8, body), {10, 10, 10, 10, 1, 3, 6, 10});
    }
  }
}

}  // namespace
}  // namespace tilesight::testing
