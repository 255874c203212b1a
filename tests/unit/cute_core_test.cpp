// CuTe's own C++ unit tests (NVIDIA/cutlass test/unit/cute/core: composition,
// complement, the inverses, logical_divide, logical_product, coalesce), their
// 255 cases translated into layout expressions by scripts/port_cute_tests.py
// (tests/unit/data/cute_core_cases.txt), each checked with the
// post-conditions the C++ test checks.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/layout/expr.h"

namespace tilesight::layout {
namespace {

struct Case {
  std::string function;
  bool isStatic = true;  // C++'s is_static of the arguments: some checks apply only then
  std::vector<std::string> args;
  int line = 0;
};

std::vector<Case> readCases() {
  std::ifstream in(std::string(TILESIGHT_TESTS_DIR) + "/unit/data/cute_core_cases.txt");
  std::vector<Case> cases;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream fields(text);
    Case c;
    std::string staticness, arg;
    std::getline(fields, c.function, '\t');
    std::getline(fields, staticness, '\t');
    c.isStatic = staticness == "static";
    while (std::getline(fields, arg, '\t')) c.args.push_back(arg);
    c.line = line;
    cases.push_back(std::move(c));
  }
  return cases;
}

Value eval(const std::string& text) {
  auto r = evaluate(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().text());
  return r.ok() ? r.value() : Value::ofInt(0);
}

int64_t at(const Value& v, int64_t i) { return valueOffset(v, i); }

// CuTe's compatible(A, B): B's shape refines A's (an integer of A is B's
// mode's size, a tuple of A has B's rank).
bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.isLeaf()) return a.value() == size(compactColMajor(b));
  if (b.isLeaf() || a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!compatible(a[i], b[i])) return false;
  return true;
}

std::string call(const std::string& f, const std::vector<std::string>& args) {
  std::string s = f + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ")";
}

// R(c) = A(B(c)): B's offset, or its coordinate with basis strides.
void checkComposition(const Case& c) {
  Value a = eval(c.args[0]), b = eval(c.args[1]), r = eval(call("composition", c.args));
  EXPECT_TRUE(compatible(b.layout.shape, r.layout.shape)) << valueText(r);
  for (int64_t i = 0; i < size(b.layout); ++i) {
    int64_t want = 0;
    if (b.hasBasis()) {
      auto off = callCoord(a.layout, valueCoord(b, i));
      ASSERT_TRUE(off.ok()) << off.error().text();
      want = a.swizzle ? a.swizzle->apply(off.value()) : off.value();
    } else {
      want = at(a, at(b, i));
    }
    ASSERT_EQ(at(r, i), want) << "R = " << valueText(r) << " at " << i;
  }
}

int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

void checkComplement(const Case& c) {
  Value l = eval(c.args[0]);
  std::string cotarget = c.args.size() > 1 ? c.args[1] : "cosize(" + c.args[0] + ")";
  Value r = eval(call("complement", {c.args[0], cotarget}));
  Value completed = eval("cat(" + c.args[0] + ", " + valueText(r) + ")");
  int64_t target = size(eval(cotarget).kind == Value::Int ? compactColMajor(IntTuple(eval(cotarget).integer))
                                                           : eval(cotarget).layout);
  int64_t sizeR = size(r.layout), cosR = cosize(r.layout), cosL = cosize(l.layout);
  int64_t filtered = size(filter(l.layout));
  std::string what = "complement = " + valueText(r);
  EXPECT_GE(cosize(completed.layout), target) << what;                 // (1)
  EXPECT_LE(cosR, roundUp(target, cosL)) << what;                      // (2)
  for (int64_t i = 1; i < sizeR; ++i) {
    EXPECT_LT(at(r, i - 1), at(r, i)) << what;                        // ordered (3)
    for (int64_t j = 0; j < size(l.layout); ++j) EXPECT_NE(at(r, i), at(l, j)) << what;  // disjoint (4)
  }
  EXPECT_LE(sizeR, cosR) << what;
  EXPECT_GE(sizeR, target / filtered) << what;
  EXPECT_LE(cosize(completed.layout), cosR + cosL) << what;
  EXPECT_GE(cosR, target / filtered) << what;
  if (!c.isStatic) return;
  EXPECT_EQ(size(eval("complement(" + valueText(completed) + ")").layout), 1) << what;
  Value again = eval("complement(complement(" + valueText(r) + ", " + std::to_string(cosL) + "), " + cotarget + ")");
  EXPECT_EQ(again.layout, r.layout) << what << ", again " << valueText(again);
}

void checkRightInverse(const Case& c) {
  Value l = eval(c.args[0]), inv = eval(call("right_inverse", c.args));
  for (int64_t i = 0; i < size(inv.layout); ++i) ASSERT_EQ(at(l, at(inv, i)), i) << valueText(inv);
}

void checkLeftInverse(const Case& c) {
  Value l = eval(c.args[0]), inv = eval(call("left_inverse", c.args));
  for (int64_t i = 0; i < size(l.layout); ++i) ASSERT_EQ(at(l, at(inv, at(l, i))), at(l, i)) << valueText(inv);
}

void checkLogicalDivide(const Case& c) {
  Value b = eval(c.args[1]), r = eval(call("logical_divide", c.args));
  ASSERT_EQ(rank(r.layout), 2u) << valueText(r);
  EXPECT_TRUE(compatible(b.layout.shape, mode(r.layout, 0).shape)) << valueText(r);
}

void checkLogicalProduct(const Case& c) {
  Value a = eval(c.args[0]), b = eval(c.args[1]), r = eval(call("logical_product", c.args));
  ASSERT_EQ(rank(r.layout), 2u) << valueText(r);
  EXPECT_EQ(mode(r.layout, 0), a.layout) << valueText(r);
  EXPECT_TRUE(compatible(b.layout.shape, mode(r.layout, 1).shape)) << valueText(r);
}

void checkCoalesce(const Case& c) {
  Value l = eval(c.args[0]), r = eval(call("coalesce", c.args));
  EXPECT_LE(depth(r.layout), 1) << valueText(r);
  ASSERT_EQ(size(r.layout), size(l.layout));
  for (int64_t i = 0; i < size(l.layout); ++i) EXPECT_EQ(at(r, i), at(l, i)) << valueText(r);
}

TEST(CuteCoreUnitTests, EveryCaseMeetsCuTesPostConditions) {
  std::vector<Case> cases = readCases();
  ASSERT_EQ(cases.size(), 255u);
  std::map<std::string, int> ran;
  for (const Case& c : cases) {
    SCOPED_TRACE("cute_core_cases.txt:" + std::to_string(c.line) + ": " + call(c.function, c.args));
    if (c.function == "composition") checkComposition(c);
    else if (c.function == "complement") checkComplement(c);
    else if (c.function == "inverse_right") checkRightInverse(c);
    else if (c.function == "inverse_left") checkLeftInverse(c);
    else if (c.function == "logical_divide") checkLogicalDivide(c);
    else if (c.function == "logical_product") checkLogicalProduct(c);
    else if (c.function == "coalesce") checkCoalesce(c);
    else ADD_FAILURE() << "no check for " << c.function;
    ++ran[c.function];
  }
  EXPECT_EQ(ran, (std::map<std::string, int>{{"coalesce", 20}, {"complement", 62}, {"composition", 68},
                                             {"inverse_left", 26}, {"inverse_right", 32}, {"logical_divide", 25},
                                             {"logical_product", 22}}));
}

}  // namespace
}  // namespace tilesight::layout
