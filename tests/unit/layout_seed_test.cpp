// The seeds' own examples: tilus SharedLayout (seed 000), TileLang's RDNA
// WMMA maps (seed 003), CuTe swizzles, and the text and properties of values.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "analysis/layout/tilus.h"
#include "analysis/layout/wmma.h"

namespace tilesight::layout {
namespace {

IntTuple ints(std::initializer_list<IntTuple> v) { return IntTuple::tuple(v); }

Value sharedOk(const IntTuple& shape, const IntTuple& modes, const IntTuple& strides,
               const std::optional<IntTuple>& sw = std::nullopt) {
  auto v = tilusShared(shape, modes, strides, sw);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().text());
  return v.ok() ? *v : Value{};
}

Value composeOk(const Value& a, const Value& b) {
  auto v = tilusSharedCompose(a, b);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().text());
  return v.ok() ? *v : Value{};
}

std::string sharedError(const IntTuple& shape, const IntTuple& modes, const IntTuple& strides,
                        const std::optional<IntTuple>& sw = std::nullopt) {
  auto v = tilusShared(shape, modes, strides, sw);
  EXPECT_FALSE(v.ok());
  return v.ok() ? "" : v.error().text();
}

// --- tilus SharedLayout -------------------------------------------------------

TEST(TilusShared, DocstringExampleConvertsToColexModes) {
  Value v = sharedOk(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}));
  EXPECT_EQ(valueText(v), "((8,8),(2,16)):((2,256),(1,16))");
  EXPECT_EQ(*callCoord(v.layout, ints({9, 3})), 275);
}

TEST(TilusShared, DocstringFormulaHoldsForEveryElement) {
  Value v = sharedOk(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}));
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 32; ++j) {
      int64_t expected = (i / 8) * 256 + (i % 8) * 2 + (j / 2) * 16 + (j % 2);
      ASSERT_EQ(*callCoord(v.layout, ints({i, j})), expected) << i << "," << j;
      ASSERT_EQ(valueOffset(v, i + 64 * j), expected) << i << "," << j;
    }
}

TEST(TilusShared, SwizzleFieldsAreBaseBitsShift) {
  Value v = sharedOk(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}), ints({1, 3, 3}));
  ASSERT_TRUE(v.swizzle.has_value());
  EXPECT_EQ(*v.swizzle, (Swizzle{3, 1, 3}));
  EXPECT_EQ(valueText(v), "Sw<3,1,3> o ((8,8),(2,16)):((2,256),(1,16))");
  int64_t plain = *callCoord(v.layout, ints({9, 3}));
  EXPECT_EQ(valueOffset(v, 9 + 64 * 3), (Swizzle{3, 1, 3}.apply(plain)));
  Value none = sharedOk(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}), ints({1, 0, 3}));
  EXPECT_FALSE(none.swizzle.has_value());  // tilus: bits = 0 is no swizzle
}

TEST(TilusShared, RowAndColumnMajor) {
  EXPECT_EQ(valueText(*tilusSharedRowMajor(ints({4, 8}))), "(4,8):(8,1)");
  EXPECT_EQ(valueText(*tilusSharedColumnMajor(ints({4, 8}))), "(4,8):(1,4)");
  EXPECT_EQ(valueText(*tilusSharedRowMajor(ints({1, 8}))), "(1,8):(0,1)");
  EXPECT_EQ(valueText(*tilusSharedRowMajor(ints({2, 3, 4}))), "(2,3,4):(12,4,1)");
  EXPECT_EQ(valueText(*tilusSharedRowMajor(IntTuple(16))), "(16):(1)");
}

TEST(TilusShared, ComposeTilesTheInnerLayout) {
  Value c = composeOk(*tilusSharedRowMajor(ints({2, 2})), *tilusSharedColumnMajor(ints({4, 8})));
  EXPECT_EQ(valueText(c), "((4,2),(8,2)):((1,64),(4,32))");
  // tilus: offset(i, j) = outer(i / 4, j / 8) * count_size(inner) + inner(i % 4, j % 8).
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 16; ++j)
      EXPECT_EQ(*callCoord(c.layout, ints({i, j})), ((i / 4) * 2 + j / 8) * 32 + (i % 4) + 4 * (j % 8));
}

TEST(TilusShared, ComposeKeepsAnInnerSwizzleOnWholeBlocks) {
  Value inner = sharedOk(ints({8, 8}), ints({8, 8}), ints({8, 1}), ints({0, 3, 3}));
  EXPECT_EQ(valueText(composeOk(*tilusSharedRowMajor(ints({2, 1})), inner)), "Sw<3,0,3> o ((8,2),8):((8,64),1)");
  Value small = sharedOk(ints({4, 8}), ints({4, 8}), ints({8, 1}), ints({0, 3, 3}));
  auto bad = tilusSharedCompose(*tilusSharedRowMajor(ints({2, 1})), small);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().text().find("not a multiple of the Sw<3,0,3> block 64"), std::string::npos);
}

TEST(TilusShared, ComposeRaisesAnOuterSwizzleBase) {
  Value outer = sharedOk(ints({8, 8}), ints({8, 8}), ints({8, 1}), ints({0, 3, 3}));
  Value c = composeOk(outer, *tilusSharedRowMajor(ints({1, 4})));
  EXPECT_EQ(valueText(c), "Sw<3,2,3> o (8,(4,8)):(32,(1,4))");
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 32; ++j)
      EXPECT_EQ(valueOffset(c, i + 8 * j), (Swizzle{3, 0, 3}.apply(i * 8 + j / 4) * 4 + j % 4));
}

TEST(TilusShared, ValidationNamesTheRule) {
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 1, 8, 16, 2}), ints({256, 0, 2, 16, 1}))
                .find("every mode must be greater than 1: mode 1 of mode_shape (8,1,8,16,2) is 1"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 8, 16, 3}), ints({256, 2, 16, 1}))
                .find("mode 3 (3) does not divide the remaining 2 of dimension 1 (extent 32)"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 8, 16}), ints({256, 2, 16}))
                .find("must multiply to its extent"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 8, 16, 2, 2}), ints({256, 2, 16, 1, 1}))
                .find("modes 4..4 of mode_shape (8,8,16,2,2) are left over"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16})).find("same length"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}), ints({1, 3}))
                .find("(base, bits, shift)"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}), ints({0, 3, 2}))
                .find("|S| must be at least B"),
            std::string::npos);
  EXPECT_NE(sharedError(ints({ints({64}), 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1}))
                .find("flat list of integers"),
            std::string::npos);
  auto mismatch = tilusSharedCompose(*tilusSharedRowMajor(ints({2, 2})), *tilusSharedRowMajor(ints({2, 2, 2})));
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.error().rule.find("same number of dimensions"), std::string::npos);
}

// --- WMMA fragment maps ---------------------------------------------------------

// The seed's reverse maps: (lane t, local l) -> (i, j) of the stored matrix.
using Reverse = std::function<std::pair<int64_t, int64_t>(int64_t, int64_t)>;

struct WmmaCase {
  const char* target;
  const char* matrix;
  bool colMajor;
  int64_t locals;
  Reverse reverse;
};

std::vector<WmmaCase> wmmaCases() {
  auto swap = [](Reverse r) { return [r](int64_t t, int64_t l) { auto [i, j] = r(t, l); return std::pair{j, i}; }; };
  Reverse a12 = [](int64_t t, int64_t l) { return std::pair{t % 16, (t / 16) * 8 + l}; };
  Reverse b12 = [](int64_t t, int64_t l) { return std::pair{(t / 16) * 8 + l, t % 16}; };
  Reverse c12 = [](int64_t t, int64_t l) { return std::pair{(t / 16) * 8 + l, t % 16}; };
  Reverse a11 = [](int64_t t, int64_t l) { return std::pair{t % 16, l}; };
  Reverse b11 = [](int64_t t, int64_t l) { return std::pair{l, t % 16}; };
  Reverse c11 = [](int64_t t, int64_t l) { return std::pair{t / 16 + 2 * l, t % 16}; };
  return {{"gfx12", "A", false, 8, a12}, {"gfx12", "A", true, 8, swap(a12)}, {"gfx12", "B", false, 8, b12},
          {"gfx12", "B", true, 8, swap(b12)}, {"gfx12", "C", false, 8, c12},  {"gfx11", "A", false, 16, a11},
          {"gfx11", "A", true, 16, swap(a11)}, {"gfx11", "B", false, 16, b11}, {"gfx11", "B", true, 16, swap(b11)},
          {"gfx11", "C", false, 8, c11}};
}

TEST(Wmma, MapsMatchTheSeedFormulas) {
  for (const WmmaCase& c : wmmaCases()) {
    auto v = wmmaLayout(c.target, c.matrix, c.colMajor);
    ASSERT_TRUE(v.ok()) << v.error().text();
    EXPECT_EQ(v->kind, Value::TvValue);
    EXPECT_EQ(v->tvTiler, ints({16, 16}));
    ASSERT_EQ(size(v->layout), 32 * c.locals) << c.target << c.matrix;
    for (int64_t t = 0; t < 32; ++t)
      for (int64_t l = 0; l < c.locals; ++l) {
        auto [i, j] = c.reverse(t, l);
        ASSERT_EQ(valueOffset(*v, t + 32 * l), i + 16 * j) << c.target << c.matrix << c.colMajor << " t" << t << " l" << l;
      }
  }
}

TEST(Wmma, LayoutsAsText) {
  EXPECT_EQ(valueText(*wmmaLayout("gfx12", "A")), "((16,2),8):((1,128),16)");
  EXPECT_EQ(valueText(*wmmaLayout("gfx12", "B")), "((16,2),8):((16,8),1)");
  EXPECT_EQ(valueText(*wmmaLayout("gfx12", "C")), "((16,2),8):((16,8),1)");
  EXPECT_EQ(valueText(*wmmaLayout("gfx11", "A")), "((16,2),16):((1,0),16)");
  EXPECT_EQ(valueText(*wmmaLayout("gfx11", "C")), "((16,2),8):((16,1),2)");
  EXPECT_EQ(valueText(*wmmaLayout("gfx11", "B", true)), "((16,2),16):((1,0),16)");
}

// How many (lane, local) pairs land on each cell of the 16x16 tile.
std::map<int64_t, int> cellCounts(const Value& v) {
  std::map<int64_t, int> counts;
  for (int64_t k = 0; k < size(v.layout); ++k) ++counts[valueOffset(v, k)];
  return counts;
}

TEST(Wmma, BijectiveOntoTheTileExceptGfx11AB) {
  for (const WmmaCase& c : wmmaCases()) {
    Value v = *wmmaLayout(c.target, c.matrix, c.colMajor);
    bool replicated = std::string(c.target) == "gfx11" && std::string(c.matrix) != "C";
    auto counts = cellCounts(v);
    ASSERT_EQ(counts.size(), 256u) << c.target << c.matrix;
    EXPECT_EQ(counts.begin()->first, 0);
    EXPECT_EQ(counts.rbegin()->first, 255);
    for (auto [cell, n] : counts) ASSERT_EQ(n, replicated ? 2 : 1) << c.target << c.matrix << " cell " << cell;
    Properties p = valueProperties(v);
    EXPECT_EQ(p.bijective, !replicated) << c.target << c.matrix;
    EXPECT_EQ(p.injective, !replicated) << c.target << c.matrix;
    EXPECT_TRUE(p.surjective) << c.target << c.matrix;
    EXPECT_EQ(p.minOffset, 0);
    EXPECT_EQ(p.maxOffset, 255);
    EXPECT_EQ(p.collision.has_value(), replicated);
    EXPECT_EQ(v.note.find("replication by design") != std::string::npos, replicated) << v.note;
  }
}

TEST(Wmma, ReplicatedLanesHoldTheSameCells) {
  Value v = *wmmaLayout("gfx11", "A");
  for (int64_t t = 0; t < 16; ++t)
    for (int64_t l = 0; l < 16; ++l) EXPECT_EQ(valueOffset(v, t + 32 * l), valueOffset(v, t + 16 + 32 * l));
  Properties p = valueProperties(v);
  ASSERT_TRUE(p.collision.has_value());
  EXPECT_EQ(*callCoord(v.layout, p.collision->coord1), p.collision->offset);
  EXPECT_EQ(*callCoord(v.layout, p.collision->coord2), p.collision->offset);
  EXPECT_NE(p.collision->coord1, p.collision->coord2);
}

TEST(Wmma, UnknownTargetOrMatrixIsAnError) {
  auto target = wmmaLayout("gfx10", "A");
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.error().text(), "wmma: the target must be gfx11 or gfx12: got 'gfx10'");
  auto matrix = wmmaLayout("gfx12", "D");
  ASSERT_FALSE(matrix.ok());
  EXPECT_EQ(matrix.error().rule, "wmma: the matrix must be A, B or C");
  auto colC = wmmaLayout("gfx11", "C", true);
  ASSERT_FALSE(colC.ok());
  EXPECT_EQ(colC.error().rule, "wmma: only A and B have column-major variants");
}

// --- Swizzle ----------------------------------------------------------------------

Swizzle sw(int64_t b, int64_t m, int64_t s) {
  auto r = makeSwizzle(b, m, s);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().text());
  return r.ok() ? *r : Swizzle{};
}

std::vector<int64_t> applyAll(const Swizzle& s, const std::vector<int64_t>& xs) {
  std::vector<int64_t> out;
  for (int64_t x : xs) out.push_back(s.apply(x));
  return out;
}

TEST(SwizzleExamples, MasksOfMakeSwizzle) {
  // make_swizzle<Y, Z> with Y = 0b1000, Z = 0b0100 is Sw<1,2,1>: bit 3 is XORed into bit 2.
  EXPECT_EQ(sw(1, 2, 1).apply(0b1000), 0b1100);
  EXPECT_EQ(sw(1, 2, 1).apply(0b0100), 0b0100);
  // Y = 0b11000000, Z = 0b00000110 is Sw<2,1,5>.
  EXPECT_EQ(sw(2, 1, 5).apply(0b11000000), 0b11000110);
  EXPECT_EQ(sw(2, 1, 5).apply(0b00000110), 0b00000110);
}

TEST(SwizzleExamples, Values) {
  EXPECT_EQ(applyAll(sw(3, 4, 3), {0, 16, 127, 128, 256, 1023}), (std::vector<int64_t>{0, 16, 127, 144, 288, 911}));
  EXPECT_EQ(applyAll(sw(2, 0, -2), {0, 1, 2, 3, 4, 5, 6, 7}), (std::vector<int64_t>{0, 5, 10, 15, 4, 1, 14, 11}));
  EXPECT_EQ(applyAll(sw(3, 0, 3), {0, 8, 16, 24, 32, 40, 48, 56}), (std::vector<int64_t>{0, 9, 18, 27, 36, 45, 54, 63}));
  EXPECT_EQ(applyAll(sw(3, 0, 3), {8, 9, 10, 11, 12, 13, 14, 15}), (std::vector<int64_t>{9, 8, 11, 10, 13, 12, 15, 14}));
  EXPECT_EQ(sw(3, 4, 3).toString(), "Sw<3,4,3>");
}

TEST(SwizzleExamples, InvolutionOnAlignedBlocks) {
  Swizzle s = sw(3, 4, 3);  // blocks of 2^10
  std::vector<bool> seen(2048, false);
  for (int64_t x = 0; x < 2048; ++x) {
    int64_t y = s.apply(x);
    ASSERT_EQ(s.apply(y), x);
    ASSERT_EQ(y / 1024, x / 1024);
    seen[static_cast<size_t>(y)] = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 2048);
}

TEST(SwizzleExamples, PreconditionsNameTheRule) {
  for (auto [b, m, s] : {std::tuple{3, 4, 2}, {5, 0, 1}, {3, 4, -2}}) {
    auto r = makeSwizzle(b, m, s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().rule.find("|S| must be at least B"), std::string::npos) << r.error().text();
  }
  EXPECT_EQ(makeSwizzle(3, 4, 2).error().text(),
            "swizzle: |S| must be at least B (the XOR source and target bits would overlap): Sw<3,4,2> has |S| = 2 "
            "< B = 3");
  EXPECT_NE(makeSwizzle(-1, 4, 3).error().rule.find("B must be non-negative"), std::string::npos);
  EXPECT_NE(makeSwizzle(1, -4, 3).error().rule.find("M must be non-negative"), std::string::npos);
  EXPECT_NE(makeSwizzle(20, 3, 40).error().rule.find("at most 62 bits"), std::string::npos);
  EXPECT_NE(makeSwizzle(1, 0, INT64_MIN).error().rule.find("at most 62 bits"), std::string::npos);
  EXPECT_TRUE(makeSwizzle(20, 2, 40).ok());
  EXPECT_EQ(sw(20, 2, 40).apply(int64_t{0xFFFFF} << 42), (int64_t{0xFFFFF} << 42) | (int64_t{0xFFFFF} << 2));
}

// --- Values -----------------------------------------------------------------------

TEST(ValueText, EveryKind) {
  EXPECT_EQ(valueText(Value::ofInt(12)), "12");
  Value tiler;
  tiler.kind = Value::TilerValue;
  tiler.tiler.kind = Tiler::ByMode;
  tiler.tiler.modes = {tilerOf(Layout{IntTuple(3), IntTuple(1)}), Tiler{Tiler::Keep, {}, {}}};
  EXPECT_EQ(valueText(tiler), "[3:1,_]");
  Value id = Value::ofLayout(Layout{ints({2, ints({3, 4}), 5}), ints({1, ints({1, 1}), 1})});
  id.basis = {{0}, {1, 0}, {1, 1}, {2}};
  EXPECT_EQ(valueText(id), "(2,(3,4),5):(1@0,(1@0@1,1@1@1),1@2)");
  EXPECT_EQ(valueOffset(id, 17), 17);
  Value swizzled = Value::ofLayout(Layout{ints({8, 8}), ints({8, 1})});
  swizzled.swizzle = sw(3, 0, 3);
  EXPECT_EQ(valueText(swizzled), "Sw<3,0,3> o (8,8):(8,1)");
  EXPECT_EQ(valueOffset(swizzled, 1), 9);
}

TEST(ValueProperties, IdentityIsBijectiveOntoItsCoordinates) {
  Value id = Value::ofLayout(Layout{ints({4, 8}), ints({1, 1})});
  id.basis = {{0}, {1}};
  Properties p = valueProperties(id);
  EXPECT_TRUE(p.bijective);
  EXPECT_EQ(p.maxOffset, 31);
}

TEST(ValueProperties, SwizzledLayouts) {
  Value whole = Value::ofLayout(Layout{ints({8, 128}), ints({128, 1})});
  whole.swizzle = sw(3, 4, 3);
  Properties p = valueProperties(whole);
  EXPECT_TRUE(p.bijective);
  EXPECT_EQ(p.maxOffset, 1023);

  Value sparse = Value::ofLayout(Layout{IntTuple(8), IntTuple(1)});
  sparse.swizzle = sw(2, 0, -2);  // image {0,1,4,5,10,11,14,15}
  p = valueProperties(sparse);
  EXPECT_TRUE(p.injective);
  EXPECT_FALSE(p.surjective);
  EXPECT_EQ(p.gap, 2);
  EXPECT_EQ(p.maxOffset, 15);

  Value clash = Value::ofLayout(Layout{ints({4, 2}), ints({1, 2})});
  clash.swizzle = sw(1, 0, 1);
  p = valueProperties(clash);
  EXPECT_FALSE(p.injective);
  ASSERT_TRUE(p.collision.has_value());
  EXPECT_EQ(p.collision->offset, clash.swizzle->apply(*callCoord(clash.layout, p.collision->coord1)));
  EXPECT_TRUE(p.surjective);  // Sw<1,0,1> maps L's image [0,6) onto itself
}

TEST(ValueProperties, TilusExampleIsBijective) {
  Properties p = valueProperties(sharedOk(ints({64, 32}), ints({8, 8, 16, 2}), ints({256, 2, 16, 1})));
  EXPECT_TRUE(p.bijective);
  EXPECT_EQ(p.maxOffset, 2047);
}

}  // namespace
}  // namespace tilesight::layout
