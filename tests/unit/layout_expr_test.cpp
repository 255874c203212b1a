// The layout expression language (DESIGN §4) and the renderers: parsing,
// evaluation, every error kind with its column, print_layout grids.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "analysis/layout/expr.h"
#include "analysis/layout/render.h"

namespace tilesight::layout {
namespace {

// The cells of a picture (legend swatches are smaller).
size_t cellRects(const std::string& svg) {
  size_t n = 0;
  for (size_t p = svg.find("width=\"48\" height=\"40\""); p != std::string::npos;
       p = svg.find("width=\"48\" height=\"40\"", p + 1))
    ++n;
  return n;
}


std::string eval(std::string_view text, const LayoutEnv& env = {}) {
  auto r = evaluate(text, env);
  return r.ok() ? valueText(r.value()) : "error: " + r.error().text();
}

Value value(std::string_view text) {
  auto r = evaluate(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.error().text();
  return r.ok() ? r.value() : Value{};
}

ExprError error(std::string_view text) {
  auto r = evaluate(text);
  EXPECT_FALSE(r.ok()) << text << " evaluated to " << valueText(r.value());
  return r.ok() ? ExprError{} : r.error();
}

// Each expression evaluates to the canonical text.
struct Example {
  const char* expr;
  const char* text;
};
void expectExamples(const std::vector<Example>& examples) {
  for (const Example& e : examples) EXPECT_EQ(eval(e.expr), e.text) << e.expr;
}

// The offset at a coordinate (integer, hierarchical or congruent).
int64_t at(const Value& v, const IntTuple& coord) {
  auto idx = callCoord(compactColMajor(v.layout.shape), coord);
  EXPECT_TRUE(idx.ok());
  return idx.ok() ? valueOffset(v, idx.value()) : -1;
}

// The cells of a print_layout grid, row by row (header and separators skipped).
std::vector<std::vector<int64_t>> gridCells(const std::string& table) {
  std::vector<std::vector<int64_t>> rows;
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find('|') == std::string::npos) continue;
    rows.emplace_back();
    std::istringstream cells(line.substr(line.find('|')));
    std::string bar;
    int64_t x;
    while (cells >> bar >> x) rows.back().push_back(x);
  }
  return rows;
}

// --- literals and the canonical text ---------------------------------------

TEST(LayoutExpr, LiteralsPrintCanonically) {
  EXPECT_EQ(eval("(4,(2,2)):(2,(1,8))"), "(4,(2,2)):(2,(1,8))");
  EXPECT_EQ(eval(" ( 4 , ( 2 , 2 ) ) : ( 2 , ( 1 , 8 ) ) "), "(4,(2,2)):(2,(1,8))");
  EXPECT_EQ(eval("20:2"), "20:2");
  EXPECT_EQ(eval("4:-1"), "4:-1");
  EXPECT_EQ(eval("(4,8)"), "(4,8):(1,4)");  // a shape alone is compact column-major
  EXPECT_EQ(eval("(2,(2,2))"), "(2,(2,2)):(1,(2,4))");
  EXPECT_EQ(eval("8"), "8:1");
}

TEST(LayoutExpr, MeasuresAreIntegers) {
  Value v = value("size((4,(2,2)):(2,(1,8)))");
  EXPECT_EQ(v.kind, Value::Int);
  EXPECT_EQ(v.integer, 16);
  EXPECT_EQ(value("cosize((4,(2,2)):(2,(1,8)))").integer, 16);
  EXPECT_EQ(value("cosize((4,2):(1,16))").integer, 20);
  EXPECT_EQ(value("rank((4,(2,2)):(2,(1,8)))").integer, 2);
  EXPECT_EQ(value("depth((4,(2,2)):(2,(1,8)))").integer, 2);
  EXPECT_EQ(value("depth(20:2)").integer, 0);
}

TEST(LayoutExpr, CoordinatesIndexAsInMoYe) {
  // MoYe's 1-based layout(6) = layout((2,2)) = layout((2,(2,1))) = 4, made 0-based.
  Value v = value("(4,(2,2)):(2,(1,8))");
  EXPECT_EQ(at(v, 5), 3);
  EXPECT_EQ(at(v, IntTuple::tuple({1, 1})), 3);
  EXPECT_EQ(at(v, IntTuple::tuple({1, IntTuple::tuple({1, 0})})), 3);
  auto c = parseCoordinate(" (1, (1,0)) ");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(toString(c.value()), "(1,(1,0))");
}

// --- the functions --------------------------------------------------------------

TEST(LayoutExpr, BasicsFunctions) {
  expectExamples({
      {"cat(4:1, (2,3):(4,8))", "(4,(2,3)):(1,(4,8))"},
      {"coalesce((2,(1,6)):(1,(6,2)))", "12:1"},
      {"coalesce((2,(1,6)):(1,(6,2)), (1,1))", "(2,6):(1,2)"},
      {"coalesce(layout = (2,(1,6)):(1,(6,2)), profile = (1,1))", "(2,6):(1,2)"},
      {"flatten(((4,3),1):((3,1),0))", "(4,3,1):(3,1,0)"},
      {"filter((2,1,6):(4,7,0))", "2:4"},
  });
}

TEST(LayoutExpr, CompositionTakesLayoutsShapesAndTilers) {
  expectExamples({
      {"composition((6,2):(8,2), (4,3):(3,1))", "((2,2),3):((24,2),8)"},
      {"composition(20:2, (5,4):(4,1))", "(5,4):(8,2)"},
      // A bare tuple is a by-mode tiler of stride-1 layouts, not a compact layout.
      {"composition((12,(4,8)):(59,(13,1)), (3,8))", "(3,(4,2)):(59,(13,1))"},
      {"composition((12,(4,8)):(59,(13,1)), [3:4, 8:2])", "(3,(2,4)):(236,(26,1))"},
  });
}

TEST(LayoutExpr, ComplementAndInverses) {
  expectExamples({
      {"complement(4:1, 24)", "6:4"},
      {"complement((2,2):(1,6), 24)", "(3,2):(2,12)"},
      {"complement((3,(5,2)):(1,(3,15)), (6,20))", "4:30"},  // a shape cotarget counts its size
      {"right_inverse((4,3):(3,1))", "(3,4):(4,1)"},
      // Tied strides: CUTLASS 3.9's exchange sort puts the 5:1 mode before the 2:1 mode.
      {"right_inverse((2,3,4,5,2):(1,6,12,1,0))", "5:24"},
      {"left_inverse((4,8):(8,1))", "(8,4):(4,1)"},
  });
}

TEST(LayoutExpr, DividesAndProducts) {
  expectExamples({
      {"logical_divide((4,2,3):(2,1,8), 4:2)", "((2,2),(2,3)):((4,1),(2,8))"},
      {"zipped_divide((9,(4,8)):(59,(13,1)), [3:3, (2,4):(1,8)])", "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"},
      {"tiled_divide((9,(4,8)):(59,(13,1)), [3:3, (2,4):(1,8)])", "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))"},
      {"logical_divide((6,8):(8,1), (3,4))", "((3,2),(4,2)):((8,24),(1,4))"},
      {"logical_product((2,2):(4,1), 6:1)", "((2,2),(2,3)):((4,1),(2,8))"},
      {"blocked_product((2,5):(5,1), (3,4):(1,3))", "((2,3),(5,4)):((5,10),(1,30))"},
      {"raked_product((2,5):(5,1), (3,4):(1,3))", "((3,2),(4,5)):((10,5),(30,1))"},
      {"flat_product((2,5):(5,1), (3,4):(1,3))", "(2,5,3,4):(5,1,10,30)"},
  });
}

TEST(LayoutExpr, Constructors) {
  expectExamples({
      {"make_ordered_layout((2,2,2,2), (0,2,3,1))", "(2,2,2,2):(1,4,8,2)"},
      {"make_identity_layout((2,(3,4),5))", "(2,(3,4),5):(1@0,(1@0@1,1@1@1),1@2)"},
      // 8-bit elements read as 32-bit words: four elements per word.
      {"recast_layout((32,4):(1,32), from = 8, to = 32)", "(8,4):(1,8)"},
  });
  EXPECT_EQ(value("make_identity_layout((2,3))").basis, (std::vector<BasisPath>{{0}, {1}}));
  Value tv = value("make_layout_tv((2,3):(3,1), (2,2):(2,1))");
  EXPECT_EQ(tv.kind, Value::TvValue);
  EXPECT_EQ(toString(tv.layout), "((3,2),(2,2)):((8,2),(4,1))");
  EXPECT_EQ(toString(tv.tvTiler), "(4,6)");
}

TEST(LayoutExpr, SwizzlesComposeAfterTheLayout) {
  Value sw = value("swizzle(3, 4, 3)");
  ASSERT_TRUE(sw.swizzle.has_value());
  EXPECT_EQ(size(sw.layout), 1024);
  const std::map<int64_t, int64_t> expected{{0, 0}, {16, 16}, {127, 127}, {128, 144}, {256, 288}, {1023, 911}};
  for (auto [x, y] : expected) EXPECT_EQ(valueOffset(sw, x), y) << x;
  Value tile = value("swizzle(3, 0, 3, (8,8):(8,1))");
  EXPECT_EQ(valueText(tile), "Sw<3,0,3> o (8,8):(8,1)");
  EXPECT_EQ(at(tile, IntTuple::tuple({1, 0})), 9);
  // The divides keep the swizzle outside: Sw o (L o B).
  Value part = value("logical_divide(swizzle(3, 0, 3, (8,8):(8,1)), [2:1, _])");
  ASSERT_TRUE(part.swizzle.has_value());
  EXPECT_EQ(at(part, IntTuple::tuple({IntTuple::tuple({1, 0}), 0})), 9);
}

// composition(A, Sw o L) and the inverses of Sw o L, as CuTe: A o Sw becomes
// Sw' o A with A's images of the swizzle's bits; a repeated swizzle cancels.
TEST(LayoutExpr, SwizzledSecondArgumentsAndInverses) {
  expectExamples({
      // The transpose sends bits 0,1 to 3,4 and 3,4 to 0,1: Sw<2,0,-3> becomes Sw<2,0,3>.
      {"composition((8,8):(8,1), swizzle(2,0,-3,(8,8):(8,1)))", "Sw<2,0,3> o (8,8):(1,8)"},
      {"composition(swizzle(2,0,3,(8,8):(8,1)), swizzle(2,0,-3,(8,8):(8,1)))", "(8,8):(1,8)"},
      // A swizzle that moves none of B's offsets is dropped.
      {"composition(64:1, swizzle(1,4,1,(4,4):(1,4)))", "(4,4):(1,4)"},
      {"right_inverse(swizzle(1,0,1,(4,4):(8,1)))", "Sw<1,2,1> o 4:4"},
      {"left_inverse(swizzle(1,0,1,(4,4):(8,1)))", "Sw<1,2,1> o (8,4):(4,1)"},
      {"left_inverse((4):(-1))", "4:-1"},
      // The swizzle moves offsets 2 and 3 to 3 and 2: 3:1 reaches 0, 1 and 3,
      // so the inverse stops at 2 (R(2) would be 3, outside L's domain).
      {"right_inverse(swizzle(1,0,1,3:1))", "2:1"},
      {"right_inverse(swizzle(1,1,1,(2,3):(1,2)))", "4:1"},
  });
  for (const char* e : {"right_inverse(swizzle(1,0,2,(4,4):(1,4)))", "right_inverse(swizzle(1,0,1,(4,4):(8,1)))"}) {
    Value l = value(std::string(e).substr(14, std::string(e).size() - 15)), inv = value(e);
    for (int64_t i = 0; i < size(inv.layout); ++i) EXPECT_EQ(valueOffset(l, valueOffset(inv, i)), i) << e;
  }
  ExprError e = error("composition((8,8):(1,9), swizzle(2,0,3,(8,8):(8,1)))");
  EXPECT_EQ(e.rule, "composition: (8,8):(1,9) o Sw<2,0,3> must be a swizzle of (8,8):(1,9)");
  EXPECT_EQ(e.message, "it maps bit 3 of Sw<2,0,3> (offset 8) to 9, not a power of two");
  EXPECT_EQ(error("composition(swizzle(1,0,1,16:1), swizzle(2,0,2,16:1))").rule,
            "composition: two different swizzles in a row");
  EXPECT_EQ(error("left_inverse((2,4):(-1,2))").rule, "left_inverse: the strides must not have both signs");
}

// Basis strides (CuTe's ScaledBasis): offsets are coordinates, and a
// composition with them takes modes of A.
TEST(LayoutExpr, BasisStrides) {
  expectExamples({
      {"(4,4):(1@1,1@0)", "(4,4):(1@1,1@0)"},
      {"composition((4,4):(4,1), (4,4):(1@1,1@0))", "(4,4):(1,4)"},
      {"composition((4,(2,3)):(6,(3,1)), (2,4):(1@1@1,1@0))", "(2,4):(1,6)"},
      {"composition((4,8):(8,1), make_identity_layout((4,8)))", "(4,8):(8,1)"},
      {"composition(((4,4)):((1,10)), (2,2):(1@0,2@0))", "(2,2):(1,2)"},
  });
  Value t = value("(4,4):(2@1,1@0)");
  EXPECT_EQ(valueCoord(t, 5), IntTuple::tuple({1, 2}));
  EXPECT_EQ(basisCodomain(t.layout, t.basis), IntTuple::tuple({4, 7}));
  Properties p = valueProperties(t);
  EXPECT_TRUE(p.injective);
  EXPECT_FALSE(p.surjective);  // odd rows of the codomain are never reached
  Properties twice = valueProperties(value("(2,2):(1@0,1@0)"));
  ASSERT_TRUE(twice.collision.has_value());
  EXPECT_EQ(twice.collision->coord1, IntTuple::tuple({1, 0}));
  EXPECT_EQ(twice.collision->coord2, IntTuple::tuple({0, 1}));
  EXPECT_EQ(error("(2,2):(1,1@0)").rule, "a coordinate place is either an integer or a tuple");
  EXPECT_EQ(error("(2,2):(1@0,1@0@0)").rule, "a coordinate place is either an integer or a tuple");
  EXPECT_EQ(error("(2,2):(-1@0,1@1)").rule, "basis strides need non-negative scales");
  EXPECT_EQ(error("composition(4:1, (2,2):(1@1,1@0))").message,
            "the stride's place 1@1 is not a mode of A = 4:1");
  // Two leaves along one place of A whose offsets do not add: not a layout.
  EXPECT_EQ(error("composition(((3,4)):((1,10)), (2,2):(1@0,2@0))").rule,
            "composition: the result breaks R(i) = A(B(i))");
  EXPECT_EQ(error("coalesce((4,4):(1@1,1@0))").message,
            "argument 'layout' of coalesce must be a plain layout (no tiler, basis strides or swizzle), found "
            "(4,4):(1@1,1@0)");
}

TEST(LayoutExpr, TilusSharedLayouts) {
  Value s = value("shared(shape=(64,32), mode_shape=(8,8,16,2), mode_strides=(256,2,16,1))");
  EXPECT_EQ(at(s, IntTuple::tuple({9, 3})), 275);  // (9//8)*256 + (9%8)*2 + (3//2)*16 + 3%2
  EXPECT_TRUE(valueProperties(s).bijective);
  Value r = value("shared_row_major(4, 8)");
  EXPECT_EQ(at(r, IntTuple::tuple({1, 0})), 8);
}

// The seeds' own spellings: enigma's make_layout(shape, stride=None) and
// Layout(shape, stride) (seed 002), MoYe's cat and GenRowMajor/GenColMajor
// (seed 004), tilus's shared_row_major(*shape), shared_layout and
// SharedLayout.create (seed 000).
TEST(LayoutExpr, SeedSpellings) {
  expectExamples({
      {"make_layout((4,8), (1,4))", "(4,8):(1,4)"},  // seed 002's own example, not a 128-element concatenation
      {"make_layout(shape=(4,8), stride=(1,4))", "(4,8):(1,4)"},
      {"Layout((4,8), (1,4))", "(4,8):(1,4)"},
      {"make_layout((4,8))", "(4,8):(8,1)"},  // stride omitted: row-major
      {"make_layout((2,(3,4)))", "(2,(3,4)):(12,(4,1))"},
      {"make_layout(8)", "8:1"},
      {"make_layout(4, 2)", "4:2"},
      {"make_layout((2,3), GenRowMajor)", "(2,3):(3,1)"},
      {"make_layout((2,3), GenColMajor)", "(2,3):(1,2)"},
      {"cat(4:1, 8:4, 2:32)", "(4,8,2):(1,4,32)"},
      {"cat((2,3))", "((2,3)):((1,2))"},
      {"shared_row_major(8, 4)", "(8,4):(4,1)"},
      {"shared_column_major(8, 4)", "(8,4):(1,8)"},
      {"shared_row_major(8, 1, 4)", "(8,1,4):(4,0,1)"},  // tilus drops the size-1 mode
      {"shared_layout((64,32), (8,8,16,2), (256,2,16,1))", "((8,8),(2,16)):((2,256),(1,16))"},
      {"shared_layout((64,32), (8,1,8,16,2), (256,7,2,16,1))", "((8,8),(2,16)):((2,256),(1,16))"},
      {"SharedLayout.create(shape=(64,32), mode_shape=(8,8,16,2), mode_strides=(256,2,16,1))",
       "((8,8),(2,16)):((2,256),(1,16))"},
  });
  Value sw = value("shared_layout((8,8), (8,8), (8,1), optional_swizzle=(0,3,3))");
  ASSERT_TRUE(sw.swizzle.has_value());
  EXPECT_FALSE(value("shared_layout((8,8), (8,8), (8,1), optional_swizzle=(0,0,3))").swizzle.has_value());
  // SharedLayout.create takes the modes as given: tilus rejects a size-1 mode there.
  EXPECT_NE(error("SharedLayout.create((64,32), (8,1,8,16,2), (256,7,2,16,1))").text().find("greater than 1"),
            std::string::npos);
}

// CuTe's by-mode tilers in the products (a bare shape is one, as C++ takes
// make_shape), MoYe's coalesce_result, a shape cotarget of complement.
TEST(LayoutExpr, ProductsByModeAndMoYeOptions) {
  expectExamples({
      {"logical_product((2,3):(1,2), [2:1, 4:1])", "((2,2),(3,(2,2))):((1,2),(2,(1,6)))"},
      {"logical_product((2,3):(1,2), (2,4))", "((2,2),(3,(2,2))):((1,2),(2,(1,6)))"},
      {"logical_product((2,3):(1,2), [_, 4:1])", "(2,(3,(2,2))):(1,(2,(1,6)))"},
      {"zipped_product((2,3):(1,2), [2:1, 4:1])", "((2,3),(2,(2,2))):((1,2),(2,(1,6)))"},
      {"flat_product((2,3):(1,2), [2:1, 4:1])", "(2,3,2,(2,2)):(1,2,2,(1,6))"},
      {"blocked_product((2,2):(1,2), (3,4):(4,1))", "((2,3),(2,4)):((1,16),(2,4))"},
      {"blocked_product((2,2):(1,6), (3,4):(1,3))", "((2,3),(2,4)):((1,2),(6,12))"},
      {"blocked_product((2,2):(1,6), (3,4):(1,3), coalesce_result = true)", "(6,8):(1,6)"},
      {"raked_product((2,2):(1,2), (3,4):(4,1), coalesce_result = false)", "((3,2),(4,2)):((16,1),(4,2))"},
      {"complement(4:2, (3,8))", "(2,3):(1,8)"},
  });
  EXPECT_EQ(eval("logical_product((2,3):(1,2), [2:1, 4:1])"),
            eval("cat(logical_product(2:1, 2:1), logical_product(3:2, 4:1))"));
}

// CuTe's nested tilers: an entry that is a list (or a tuple) tiles the
// sub-modes of its mode; zipped forms gather the tiles in the tiler's shape.
TEST(LayoutExpr, NestedTilers) {
  const char* a = "(4,(4,6)):(1,(4,16))";
  for (const char* f : {"logical_divide", "zipped_divide", "composition"}) {
    SCOPED_TRACE(f);
    EXPECT_EQ(eval(std::string(f) + "(" + a + ", [2:1, [2:1, 3:1]])"),
              eval(std::string(f) + "(" + a + ", [2:1, (2,3)])"));
  }
  EXPECT_EQ(eval(std::string("logical_divide(") + a + ", [2:1, [2:1, 3:1]])"),
            eval("cat(logical_divide(4:1, 2:1), cat(logical_divide(4:4, 2:1), logical_divide(6:16, 3:1)))"));
  expectExamples({
      {"zipped_divide((4,(4,6)):(1,(4,16)), [2:1, [2:1, 3:1]])", "((2,(2,3)),(2,(2,2))):((1,(4,16)),(2,(8,48)))"},
      {"logical_divide((4,(4,6)):(1,(4,16)), [_, [_, 3:1]])", "(4,(4,(3,2))):(1,(4,(16,48)))"},
      {"logical_product((2,(2,2)):(1,(2,4)), [2:1, [_, 3:1]])", "((2,2),(2,(2,3))):((1,2),(2,(4,1)))"},
  });
  EXPECT_NE(error("blocked_product(2:1, 2:1, coalesce_result = yes)").text().find("true|false"), std::string::npos);
}

// MoYe.jl's manual (docs/src/manual/layout.md at 0945402), in MoYe's own
// spellings where tilesight takes them: make_layout(shape, stride), products
// and divides of its tile and matrix of tiles, the subtile by mode.
TEST(LayoutExpr, MoYeManualExamples) {
  expectExamples({
      {"make_layout((2, (2, 2)), (4, (1, 2)))", "(2,(2,2)):(4,(1,2))"},
      {"size(make_layout((2, (2, 2)), (4, (1, 2))))", "8"},
      {"cosize(make_layout((2, (2, 2)), (4, (1, 2))))", "8"},
      {"depth(make_layout((2, (2, 2)), (4, (1, 2))))", "2"},
      {"flatten(make_layout(((4, 3), 1), ((3, 1), 0)))", "(4,3,1):(3,1,0)"},
      {"coalesce(make_layout((2, (1, 6)), (1, (6, 2))))", "12:1"},
      {"composition(make_layout(20, 2), make_layout((4, 5), (1, 4)))", "(4,5):(2,8)"},
      {"composition(make_layout(20, 2), make_layout((4, 5), (5, 1)))", "(4,5):(10,2)"},
      {"complement(make_layout(4, 1), 24)", "6:4"},
      {"complement(make_layout(6, 4), 24)", "4:1"},
      {"logical_product(make_layout((2,2), (1,2)), make_layout((3,4), (4,1)))", "((2,2),(3,4)):((1,2),(16,4))"},
      {"blocked_product(make_layout((2,2), (1,2)), make_layout((3,4), (4,1)))", "((2,3),(2,4)):((1,16),(2,4))"},
      {"raked_product(make_layout((2,2), (1,2)), make_layout((3,4), (4,1)))", "((3,2),(4,2)):((16,1),(4,2))"},
      {"zipped_divide(raked_product(make_layout((2,2), (1,2)), make_layout((3,4), (4,1))), [make_layout(2, 3), "
       "make_layout(2, 4)])",
       "((2,2),(3,4)):((1,2),(16,4))"},
  });
}

// The old spellings are errors that name the new ones; nothing changes
// meaning silently.
TEST(LayoutExprErrors, OldSpellingsNameTheNewOnes) {
  ExprError concat = error("make_layout(4:1, (2,3):(4,8))");
  EXPECT_EQ(concat.column, 12u);
  EXPECT_NE(concat.text().find("cat(L1, L2, ...)"), std::string::npos) << concat.text();
  EXPECT_NE(error("make_layout((4,8), 8:1)").text().find("cat("), std::string::npos);
  ExprError three = error("make_layout(4, 8, 2)");
  EXPECT_EQ(three.rule, "wrong arity");
  EXPECT_NE(three.text().find("make_layout(shape[, stride])"), std::string::npos) << three.text();
  EXPECT_NE(three.text().find("cat(L1, L2, ...)"), std::string::npos) << three.text();
  ExprError tuple = error("shared_row_major((4,8))");
  EXPECT_NE(tuple.text().find("shared_row_major(8, 4)"), std::string::npos) << tuple.text();
  EXPECT_EQ(error("Layout((4,8))").rule, "wrong arity");
  EXPECT_NE(error("make_layout((2,3), GenDiagonal)").text().find("GenRowMajor|GenColMajor"), std::string::npos);
  EXPECT_EQ(error("make_layout((4,8), (1,4,2))").rule, "shape and stride must be congruent");
}

TEST(LayoutExpr, WmmaFragments) {
  for (const char* e : {"wmma(gfx12, A)", "wmma(gfx12, B)", "wmma(gfx12, C)", "wmma(gfx11, C)",
                        "wmma(gfx12, A, colmajor)"}) {
    Value v = value(e);
    EXPECT_EQ(v.kind, Value::TvValue) << e;
    EXPECT_TRUE(valueProperties(v).bijective) << e;
  }
  Properties a11 = valueProperties(value("wmma(gfx11, A)"));
  EXPECT_FALSE(a11.injective);
  EXPECT_TRUE(a11.collision.has_value());
}

TEST(LayoutExpr, AliasesResolveThroughTheEnvironment) {
  LayoutEnv env = [](std::string_view name) -> std::optional<Value> {
    if (name == "sA") return evaluate("(64,32):(32,1)").value();
    return std::nullopt;
  };
  EXPECT_EQ(eval("#sA", env), "(64,32):(32,1)");
  EXPECT_EQ(eval("zipped_divide(#sA, [8:1, 8:1])", env), "((8,8),(8,4)):((32,1),(256,8))");
  auto r = evaluate("size(#sB)", env);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "unknown alias");
  EXPECT_EQ(r.error().column, 5u);
}

TEST(LayoutExpr, ClaimsParseAfterTheExpression) {
  auto a = evaluateAttr("shared(shape=(64,32), mode_shape=(8,8,16,2), mode_strides=(256,2,16,1)), expect = bijective");
  ASSERT_TRUE(a.ok()) << a.error().text();
  ASSERT_TRUE(a.value().claim.has_value());
  EXPECT_EQ(*a.value().claim, Claim::Bijective);
  EXPECT_EQ(a.value().claimColumn, 82u);
  EXPECT_EQ(claimVerdict(Claim::Bijective, valueProperties(a.value().value)), ClaimVerdict::Holds);
  auto b = evaluateAttr("(4,2):(1,2), expect = injective");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(claimVerdict(*b.value().claim, valueProperties(b.value().value)), ClaimVerdict::Fails);
  EXPECT_EQ(claimVerdict(Claim::Surjective, valueProperties(b.value().value)), ClaimVerdict::Holds);
  EXPECT_FALSE(evaluateAttr("8:1").value().claim.has_value());
  auto bad = evaluateAttr("8:1, expect = sorted");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rule, "unknown claim");
  EXPECT_EQ(bad.error().column, 14u);
  EXPECT_EQ(evaluateAttr("8:1, hope = injective").error().column, 5u);
  EXPECT_STREQ(claimName(Claim::Surjective), "surjective");
}

// --- errors: the rule and the column ----------------------------------------------

TEST(LayoutExprErrors, AlgebraPreconditionsNameTheRule) {
  ExprError c = error("complement((4,2):(1,2), 16)");
  EXPECT_EQ(c.column, 0u);
  EXPECT_NE(c.rule.find("complement"), std::string::npos) << c.text();
  EXPECT_NE(c.text().find("injective"), std::string::npos) << c.text();
  ExprError l = error("left_inverse((8,4,2):(13,2,1))");
  EXPECT_EQ(l.column, 0u);
  EXPECT_NE(l.rule.find("left_inverse"), std::string::npos) << l.text();
  ExprError s = error("swizzle(3, 4, 2)");
  EXPECT_NE(s.rule.find("|S| must be at least B"), std::string::npos) << s.text();
  // Nested: the column is the inner call's.
  EXPECT_EQ(error("cat(4:1, complement((4,2):(1,2), 16))").column, 9u);
}

TEST(LayoutExprErrors, LiteralsMustBeCongruentAndBounded) {
  ExprError e = error("size((4,8):(1,4,2))");
  EXPECT_EQ(e.rule, "shape and stride must be congruent");
  EXPECT_EQ(e.column, 5u);
  EXPECT_EQ(error("(4,0)").rule, "shape entries must be positive");
  EXPECT_EQ(error("99999999999999999999:1").rule, "integer out of range");
  EXPECT_EQ(error("(1048576,1048576,1048576,1048576)").rule, "layout too large");
}

TEST(LayoutExprErrors, MalformedTextMarksTheColumn) {
  ExprError e = error("composition((4,8):(1,4) 2:1)");
  EXPECT_EQ(e.rule, "malformed expression");
  EXPECT_EQ(e.column, 24u);
  EXPECT_NE(e.message.find("expected ',' or ')'"), std::string::npos) << e.message;
  EXPECT_EQ(error("").column, 0u);
  EXPECT_EQ(error("4:1 )").column, 4u);
  EXPECT_EQ(error("(4,8):").column, 6u);
  EXPECT_EQ(error("[4:1, 2:1").column, 9u);
  EXPECT_EQ(error("#").column, 1u);
  EXPECT_EQ(error("gfx12").rule, "malformed expression");
  EXPECT_EQ(error(std::string(500, '(') + "1" + std::string(500, ')')).rule, "malformed expression");
}

TEST(LayoutExprErrors, CallsCheckNamesArityAndArguments) {
  ExprError u = error("size(frobnicate(4:1))");
  EXPECT_EQ(u.rule, "unknown function");
  EXPECT_EQ(u.column, 5u);
  ExprError a = error("composition(4:1)");
  EXPECT_EQ(a.rule, "wrong arity");
  EXPECT_NE(a.message.find("composition(a, b)"), std::string::npos) << a.message;
  EXPECT_NE(error("coalesce(4:1, 1, 2)").message.find("coalesce(layout[, profile])"), std::string::npos);
  ExprError k = error("recast_layout(4:1, from = 8, bits = 16)");
  EXPECT_EQ(k.rule, "unknown argument");
  EXPECT_EQ(k.column, 29u);
  EXPECT_EQ(error("complement(4:1, a = 2:1)").rule, "unknown argument");
  ExprError w = error("wmma(gfx13, A)");
  EXPECT_EQ(w.rule, "wrong argument");
  EXPECT_EQ(w.column, 5u);
  EXPECT_EQ(error("composition([2:1], 4:1)").rule, "wrong argument");
  EXPECT_EQ(error("swizzle(3, 0, 3, swizzle(3, 0, 3))").column, 17u);
}

// --- renderers ----------------------------------------------------------------------

TEST(LayoutRender, PrintLayoutGridIsCuteExact) {
  EXPECT_EQ(renderTable(value("(2,(2,2)):(4,(2,1))")),
            "(2,(2,2)):(4,(2,1))\n"
            "      0   1   2   3 \n"
            "    +---+---+---+---+\n"
            " 0  | 0 | 2 | 1 | 3 |\n"
            "    +---+---+---+---+\n"
            " 1  | 4 | 6 | 5 | 7 |\n"
            "    +---+---+---+---+\n");
  EXPECT_EQ(renderTable(value("size((4,8))")), "32\n");
}

// MoYe's print_layout examples (seed 004), with its 1-based values made 0-based.
TEST(LayoutRender, MoyeTablesZeroBased) {
  using Rows = std::vector<std::vector<int64_t>>;
  EXPECT_EQ(gridCells(renderTable(value("(4,(2,2)):(2,(1,8))"))),
            (Rows{{0, 1, 8, 9}, {2, 3, 10, 11}, {4, 5, 12, 13}, {6, 7, 14, 15}}));
  EXPECT_EQ(gridCells(renderTable(value("(2,2):(1,2)"))), (Rows{{0, 2}, {1, 3}}));
  EXPECT_EQ(gridCells(renderTable(value("(3,4):(4,1)"))), (Rows{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}));
  Rows product{{0, 16, 32, 4, 20, 36, 8, 24, 40, 12, 28, 44},
               {1, 17, 33, 5, 21, 37, 9, 25, 41, 13, 29, 45},
               {2, 18, 34, 6, 22, 38, 10, 26, 42, 14, 30, 46},
               {3, 19, 35, 7, 23, 39, 11, 27, 43, 15, 31, 47}};
  EXPECT_EQ(gridCells(renderTable(value("logical_product((2,2):(1,2), (3,4):(4,1))"))), product);
  Rows blocked{{0, 2, 4, 6, 8, 10, 12, 14},        {1, 3, 5, 7, 9, 11, 13, 15},
               {16, 18, 20, 22, 24, 26, 28, 30},   {17, 19, 21, 23, 25, 27, 29, 31},
               {32, 34, 36, 38, 40, 42, 44, 46},   {33, 35, 37, 39, 41, 43, 45, 47}};
  EXPECT_EQ(gridCells(renderTable(value("blocked_product((2,2):(1,2), (3,4):(4,1))"))), blocked);
  Rows raked{{0, 4, 8, 12, 2, 6, 10, 14},      {16, 20, 24, 28, 18, 22, 26, 30},
             {32, 36, 40, 44, 34, 38, 42, 46},  {1, 5, 9, 13, 3, 7, 11, 15},
             {17, 21, 25, 29, 19, 23, 27, 31},  {33, 37, 41, 45, 35, 39, 43, 47}};
  EXPECT_EQ(gridCells(renderTable(value("raked_product((2,2):(1,2), (3,4):(4,1))"))), raked);
  const char* rakedLayout = "((3,2),(4,2)):((16,1),(4,2))";
  EXPECT_EQ(gridCells(renderTable(value(rakedLayout))), raked);
  EXPECT_EQ(gridCells(renderTable(value(std::string("logical_divide(") + rakedLayout + ", [2:3, 2:4])"))), blocked);
  EXPECT_EQ(gridCells(renderTable(value(std::string("zipped_divide(") + rakedLayout + ", [2:3, 2:4])"))), product);
}

TEST(LayoutRender, MarkdownTable) {
  EXPECT_EQ(renderMarkdown(value("(2,2):(1,2)")),
            "`(2,2):(1,2)`\n\n"
            "|   | 0 | 1 |\n"
            "|---|---|---|\n"
            "| **0** | 0 | 2 |\n"
            "| **1** | 1 | 3 |\n");
}

TEST(LayoutRender, LargeLayoutsAreTruncatedWithANote) {
  std::string t = renderTable(value("(100,200)"));
  EXPECT_EQ(gridCells(t).size(), 64u);
  EXPECT_EQ(gridCells(t)[0].size(), 64u);
  EXPECT_NE(t.find("(truncated: showing 64 of 100 rows and 64 of 200 columns)"), std::string::npos);
  std::string one = renderTable(value("1000:3"));  // rank 1: one row
  EXPECT_EQ(gridCells(one).size(), 1u);
  EXPECT_NE(one.find("64 of 1000 columns"), std::string::npos);
  std::string svg = renderSvg(value("(100,200)"));
  EXPECT_EQ(cellRects(svg), 32u * 32u);
  EXPECT_NE(svg.find("showing 32 of 100 rows and 32 of 200 columns"), std::string::npos);
  EXPECT_NE(renderMarkdown(value("(100,200)")).find("_truncated: showing 64 of 100 rows"), std::string::npos);
}

// Pictures: the cell limit, hierarchical axes, the legend, bank colours
// with a conflict count, TikZ, and labels readable on every fill.
TEST(LayoutRender, PictureOptionsAxesLegendBanksAndLatex) {
  // A 128x32 TV layout: threads T32..T127 are drawn once the limit allows.
  Value tv = value("make_layout_tv((32,4):(4,1), (4,8):(8,1))");
  EXPECT_EQ(renderSvg(tv).find(">T127</text>"), std::string::npos);
  std::string all = renderSvg(tv, {128, std::nullopt, 4});
  EXPECT_NE(all.find(">T127</text>"), std::string::npos);
  EXPECT_EQ(all.find("showing"), std::string::npos);  // nothing truncated
  EXPECT_NE(all.find(">T0, T8, ...</text>"), std::string::npos);  // the thread legend
  // Nested modes label their axes with hierarchical coordinates.
  std::string nested = renderSvg(value("(8,(4,2)):(8,(1,32))"));
  EXPECT_NE(nested.find(">(3,1)</text>"), std::string::npos) << nested;
  EXPECT_NE(nested.find(">offset % 8 = 7</text>"), std::string::npos);
  EXPECT_NE(renderMarkdown(value("(8,(4,2)):(8,(1,32))")).find(" (3,1) |"), std::string::npos);  // hover's table
  // Banks: a column-major 32x4 is read conflict-free, a row-major one 4-way.
  PictureOptions banks{32, 32, 4};
  EXPECT_NE(renderSvg(value("(32,4):(1,32)"), banks).find("4 reads, 4 wavefronts (0 from bank conflicts), worst 1-way"),
            std::string::npos);
  EXPECT_NE(renderSvg(value("(32,4):(4,1)"), banks).find("4 reads, 16 wavefronts (12 from bank conflicts), worst 4-way"),
            std::string::npos);
  // Two-byte elements: two share a word, so (64,2):(2,1) reads 2 words per bank.
  EXPECT_NE(renderSvg(value("(64,2):(1,64)"), {32, 32, 2}).find("worst 1-way"), std::string::npos);
  std::string tex = renderLatex(value("(4,(2,2)):(2,(1,8))"));
  EXPECT_NE(tex.find("\\begin{tikzpicture}"), std::string::npos);
  EXPECT_NE(tex.find("{\\shortstack{9}}"), std::string::npos);
  EXPECT_NE(tex.find("{(1,1)}"), std::string::npos);  // a column's coordinate
  // Every label is black or white, at least 4.5:1 on its fill, in every picture.
  for (const char* e : {"(8,8):(1,8)", "swizzle(3, 0, 3, (8,8):(8,1))", "make_layout_tv((32,4):(4,1), (4,8):(8,1))"})
    for (bool byBank : {false, true}) {
      std::string svg = renderSvg(value(e), {64, byBank ? std::optional<int64_t>(32) : std::nullopt, 4});
      size_t checked = 0;
      const std::string cell = "width=\"48\" height=\"40\" fill=\"";
      for (size_t at = svg.find(cell); at != std::string::npos; at = svg.find(cell, at + 1)) {
        std::string fill = svg.substr(at + cell.size(), 7);
        size_t next = svg.find("<", at);  // the cell's first label, if any
        if (svg.compare(next, 5, "<text") != 0) continue;
        size_t colour = svg.find(" fill=\"", next);
        ASSERT_EQ(svg.substr(colour + 7, 7), labelColour(fill));
        EXPECT_GE(contrastRatio(fill, labelColour(fill)), 4.5) << fill;
        ++checked;
      }
      EXPECT_GT(checked, 8u) << e;
    }
}

TEST(LayoutRender, IdentityCellsAreCoordinates) {
  std::string t = renderTable(value("make_identity_layout((2,3))"));
  EXPECT_NE(t.find("| (1,2) |"), std::string::npos) << t;
}

TEST(LayoutRender, SvgColoursThreadsAndSwizzles) {
  std::string tv = renderSvg(value("make_layout_tv((2,3):(3,1), (2,2):(2,1))"));
  EXPECT_EQ(tv.rfind("<svg", 0), 0u);
  EXPECT_NE(tv.find(">T5</text>"), std::string::npos);
  EXPECT_NE(tv.find(">V3</text>"), std::string::npos);
  EXPECT_NE(tv.find("#afafff"), std::string::npos);  // thread 0's colour
  std::string rep = renderSvg(value("wmma(gfx11, A)"));
  EXPECT_NE(rep.find(">x2</text>"), std::string::npos);  // replicated half-waves
  std::string sw = renderSvg(value("swizzle(3, 0, 3, (8,8):(8,1))"));
  EXPECT_NE(sw.find("colour: bits 0..2 of the swizzled offset"), std::string::npos);
  EXPECT_NE(sw.find("Sw&lt;3,0,3&gt; o (8,8):(8,1)"), std::string::npos);
}

TEST(LayoutRender, FactsForJson) {
  LayoutFacts f = layoutFacts(value("(4,2):(1,2)"));
  EXPECT_EQ(f.size, 8);
  EXPECT_EQ(f.cosize, 6);
  EXPECT_FALSE(f.properties.injective);
  EXPECT_TRUE(f.properties.surjective);
  ASSERT_TRUE(f.offsets.has_value());
  EXPECT_EQ(f.offsets->size(), 8u);
  EXPECT_EQ(f.offsets->at(4), IntTuple(2));
  EXPECT_FALSE(f.tiler.has_value());
  EXPECT_TRUE(layoutFacts(value("make_layout_tv((2,3):(3,1), (2,2):(2,1))")).tiler.has_value());
  EXPECT_FALSE(layoutFacts(value("(512,512)")).offsets.has_value());  // 262144 > 65536
  EXPECT_FALSE(layoutFacts(value("make_identity_layout((2,3))")).cosize.has_value());
  EXPECT_EQ(valueCosize(value("swizzle(3, 0, 3, (8,8):(8,1))")).value(), 64);
}

}  // namespace
}  // namespace tilesight::layout
