// The worked examples of reference/layouts.md §2 for coalesce, composition,
// complement, the inverses, divides, products and the constructors, stated as
// data. Results compare modulo the strides of size-1 modes, and as functions.
#include <gtest/gtest.h>

#include "layout_test_util.h"

namespace tilesight::layout {
namespace {

using test::byMode;
using test::failsWith;
using test::lay;
using test::sameLayout;
using test::sameModuloUnitModes;
using test::tup;

struct Row {
  const char* a;
  const char* b;
  const char* want;
};

TEST(LayoutCoalesce, WorkedExamples) {
  const std::pair<const char*, const char*> rows[] = {
      {"(2,(1,6)):(1,(6,2))", "12:1"},
      {"((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)", "(24,6):(4,2)"},
      {"((2,2),(2,2)):((1,4),(8,32))", "(2,4,2):(1,4,32)"},
      {"(2,1,6):(4,7,8)", "12:4"},
      {"(2,1,3):(3,0,1)", "(2,3):(3,1)"},
      {"(2,4,6):(24,6,1)", "(2,4,6):(24,6,1)"},
      {"(3,(4,5)):(8,(1,4))", "(3,20):(8,1)"},
  };
  for (auto [in, want] : rows) {
    SCOPED_TRACE(in);
    EXPECT_TRUE(sameLayout(coalesce(lay(in)), want));
  }
}

TEST(LayoutCoalesce, ByModeProfile) {
  const Row rows[] = {
      {"(2,(1,6)):(1,(6,2))", "(1,1)", "(2,6):(1,2)"},
      {"((2,2),(2,2)):((1,2),(16,32))", "(1)", "(4,(2,2)):(1,(16,32))"},
      {"((2,2),(2,2)):((1,2),(16,32))", "(1,2)", "(4,4):(1,16)"},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.a);
    EXPECT_TRUE(sameLayout(coalesce(lay(r.a), tup(r.b)), r.want));
  }
}

TEST(LayoutComposition, WorkedExamplesWithLayouts) {
  const Row rows[] = {
      {"(6,2):(8,2)", "(4,3):(3,1)", "((2,2),3):((24,2),8)"},
      {"20:2", "(5,4):(4,1)", "(5,4):(8,2)"},
      {"(10,2):(16,4)", "(5,4):(1,5)", "(5,(2,2)):(16,(80,4))"},
      {"(4,3):(3,1)", "(6,2):(2,1)", "((2,3),2):((6,1),3)"},
      {"((4,2)):((1,16))", "(4,2):(2,1)", "((2,2),2):((2,16),1)"},
      {"(8,8):(8,1)", "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))", "((2,2,2),(2,2,2)):((8,2,32),(1,16,4))"},
      {"(4,6,8,10):(2,3,5,7)", "6:12", "(2,3):(9,5)"},
      {"(4,8,2):(2,8,1)", "(4,2,2):(2,8,1)", "(4,2,2):(4,16,2)"},
      {"(4,3,1):(3,1,0)", "4:1", "4:3"},
      {"(8,8):(8,1)", "3:3", "3:24"},           // C++'s weak stride check accepts it
      {"(4,3):(3,1)", "(24):(1)", "((4,6)):((3,1))"},  // B runs past A: A's last mode extends
      {"(4,8):(1,4)", "16:0", "16:0"},
      {"(4,1):(1,8)", "8:1", "(4,2):(1,8)"},  // past A's end its size-1 last mode's stride counts
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(std::string(r.a) + " o " + r.b);
    EXPECT_TRUE(sameLayout(composition(lay(r.a), tilerOf(lay(r.b))), r.want));
  }
}

TEST(LayoutComposition, SymbolicStridesModuloUnitModes) {
  // (3,6,2,8):(w,x,y,z) o 16:9 = (1,2,2,4):(9w,3x,y,z), with w,x,y,z = 7,11,13,17.
  EXPECT_TRUE(sameModuloUnitModes(composition(lay("(3,6,2,8):(7,11,13,17)"), tilerOf(lay("16:9"))),
                                  "(1,2,2,4):(63,33,13,17)"));
}

TEST(LayoutComposition, Tilers) {
  Layout a = lay("(12,(4,8)):(59,(13,1))");
  EXPECT_TRUE(sameLayout(composition(a, byMode({"3:4", "8:2"})), "(3,(2,4)):(236,(26,1))"));
  EXPECT_TRUE(sameLayout(composition(a, tilerOfShape(tup("(3,8)"))), "(3,(4,2)):(59,(13,1))"));
  // Modes of A that the tiler does not reach are dropped, as in C++.
  EXPECT_TRUE(sameLayout(composition(lay("(4,8):(1,4)"), byMode({"(2,4):(1,2)"})), "((2,4)):((1,2))"));
  EXPECT_TRUE(sameLayout(composition(lay("(4,8):(1,4)"), byMode({"_", "2:2"})), "(4,2):(1,8)"));
  EXPECT_TRUE(sameLayout(composition(lay("(4,8):(1,4)"), tilerOfShape(tup("6"))), "6:1"));  // A coalesces to 32:1
}

TEST(LayoutComposition, BrokenPreconditionsAreErrors) {
  EXPECT_TRUE(failsWith(composition(lay("(4,8):(2,1)"), tilerOf(lay("33:5"))), "Stride Divisibility Condition"));
  EXPECT_TRUE(
      failsWith(composition(lay("(4,8):(2,1)"), tilerOf(lay("(2,5):(1,5)"))), "Stride Divisibility Condition"));
  EXPECT_TRUE(failsWith(composition(lay("(4,8):(2,1)"), byMode({"2:1", "2:1", "2:1"})), "by-mode tiler"));
}

TEST(LayoutComposition, WrongCppResultsAreCaught) {
  // C++ returns (2,3):(6,3) here (issue #3177): R(2) = 3 but A(B(2)) = A(6) = 7.
  auto r = composition(lay("(4,6,8):(2,3,5)"), tilerOf(lay("6:3")));
  ASSERT_TRUE(failsWith(r, "composition: the result breaks R(i) = A(B(i))"));
  EXPECT_NE(r.error().message.find("R(2) = 3 while A(B(2)) = A(6) = 7"), std::string::npos) << r.error().text();
  // Issue #2955: R(5) = 7 but A(B(5)) = 8.
  auto s = composition(lay("(6,2):(1,7)"), tilerOf(lay("(3,2):(2,3)")));
  ASSERT_TRUE(failsWith(s, "composition: the result breaks R(i) = A(B(i))"));
  EXPECT_NE(s.error().message.find("R(5) = 7 while A(B(5)) = A(7) = 8"), std::string::npos) << s.error().text();
}

TEST(LayoutComplement, WorkedExamples) {
  const std::tuple<const char*, int64_t, const char*> rows[] = {
      {"4:1", 24, "6:4"},
      {"6:4", 24, "4:1"},
      {"(4,6):(1,4)", 24, "1:0"},
      {"4:2", 24, "(2,3):(1,8)"},
      {"(2,4):(1,6)", 24, "3:2"},
      {"(2,2):(1,6)", 24, "(3,2):(2,12)"},
      {"(2,4,8):(8,1,64)", 460, "(2,4):(4,16)"},
      {"4:4", 17, "(4,2):(1,16)"},
      {"(3,(5,2)):(1,(3,15))", 120, "4:30"},
      {"((2,2),(2,2)):((1,32),(8,4))", 46, "(2,2):(2,16)"},
      {"4:0", 8, "8:1"},
  };
  for (auto [a, cotarget, want] : rows) {
    SCOPED_TRACE(a);
    EXPECT_TRUE(sameLayout(complement(lay(a), cotarget), want));
  }
  EXPECT_TRUE(sameLayout(complement(lay("(2,2):(1,6)")), "3:2"));  // cotarget cosize(filter(A)) = 8
}

TEST(LayoutComplement, InputsCppRejects) {
  auto r = complement(lay("(4,2):(1,2)"), 16);
  ASSERT_TRUE(failsWith(r, "complement: the input must be injective"));
  EXPECT_NE(r.error().message.find("modes 4:1 and 2:2"), std::string::npos) << r.error().text();
  // Injective, but the second mode starts inside the first one's span.
  EXPECT_TRUE(failsWith(complement(lay("(2,2):(2,3)"), 16), "complement: the input's modes must not interleave"));
  EXPECT_TRUE(failsWith(complement(lay("4:-1"), 16), "complement: strides must be non-negative"));
}

TEST(LayoutInverse, RightInverseWorkedExamples) {
  const std::pair<const char*, const char*> rows[] = {
      {"(4,3):(3,1)", "(3,4):(4,1)"},
      {"(2,4,6):(4,1,8)", "(4,2,6):(2,1,8)"},
      {"((2,4),(3,5)):((4,1),(2,8))", "(4,2,5):(2,1,24)"},  // C++ keeps scanning after stride 2 fails
      {"(32,128):(0,1)", "128:32"},
      {"(4,2):(1,16)", "4:1"},
      {"4:-1", "1:0"},
  };
  for (auto [in, want] : rows) {
    SCOPED_TRACE(in);
    EXPECT_TRUE(sameLayout(rightInverse(lay(in)), want));
  }
}

TEST(LayoutInverse, LeftInverseWorkedExamples) {
  const std::pair<const char*, const char*> rows[] = {
      {"(4,2):(1,16)", "(16,2):(1,4)"},
      {"4:2", "(2,4):(0,1)"},
      {"(2,4,8):(32,0,2)", "(2,16,2):(0,8,1)"},
      {"(32,3,8):(65536,512,1)", "(512,128,32):(96,32,1)"},
      {"(4,8):(8,1)", "(8,4):(4,1)"},
      {"(3,8192):(16384,1)", "(16384,3):(3,1)"},
      {"(2,3,4):(12,1,3)", "(12,2):(2,1)"},
      {"(4,2):(1,5)", "(5,2):(1,4)"},
  };
  for (auto [in, want] : rows) {
    SCOPED_TRACE(in);
    EXPECT_TRUE(sameLayout(leftInverse(lay(in)), want));
  }
}

TEST(LayoutInverse, LeftInverseErrors) {
  auto r = leftInverse(lay("(8,4,2):(13,2,1)"));
  ASSERT_TRUE(failsWith(r, "left_inverse: the divisibility condition fails"));
  EXPECT_NE(r.error().message.find("stride 13"), std::string::npos) << r.error().text();
  // C++'s quasi-inverse of this non-injective layout does not even meet L(R(L(i))) = L(i).
  EXPECT_TRUE(failsWith(leftInverse(lay("(2,2):(1,1)")), "left_inverse: the input must be injective"));
}

TEST(LayoutDivide, WorkedExamples) {
  EXPECT_TRUE(sameLayout(logicalDivide(lay("(4,2,3):(2,1,8)"), tilerOf(lay("4:2"))), "((2,2),(2,3)):((4,1),(2,8))"));
  EXPECT_TRUE(sameLayout(logicalDivide(lay("(6,8):(8,1)"), tilerOfShape(tup("(3,4)"))),
                         "((3,2),(4,2)):((8,24),(1,4))"));
  EXPECT_TRUE(sameLayout(logicalDivide(lay("(6,8):(8,1)"), tilerOf(lay("(3,4):(1,3)"))),
                         "((3,(2,2)),4):((8,(24,1)),2)"));
  EXPECT_TRUE(sameLayout(logicalDivide(lay("(8,8):(8,1)"), tilerOf(lay("32:2"))), "((4,8),2):((16,1),8)"));
  EXPECT_TRUE(sameLayout(logicalDivide(lay("32:1"), tilerOf(lay("2:8"))), "(2,(8,2)):(8,(1,16))"));
  EXPECT_TRUE(sameLayout(logicalDivide(lay("128:4"), tilerOf(lay("8:1"))), "(8,16):(4,32)"));
  EXPECT_TRUE(sameLayout(zippedDivide(lay("(8,32):(1,8)"), byMode({"4:1", "16:2"})), "((4,16),(2,2)):((1,16),(4,8))"));
  EXPECT_TRUE(sameLayout(flatDivide(lay("(6,8):(8,1)"), tilerOfShape(tup("(3,4)"))), "(3,4,2,2):(8,1,24,4)"));
  EXPECT_TRUE(sameLayout(zippedDivide(lay("((3,2),(4,2)):((16,1),(4,2))"), byMode({"2:3", "2:4"})),
                         "((2,2),(3,4)):((1,2),(16,4))"));
}

TEST(LayoutDivide, FourFormsOfOneDivide) {
  Layout a = lay("(9,(4,8)):(59,(13,1))");
  Tiler t = byMode({"3:3", "(2,4):(1,8)"});
  EXPECT_TRUE(sameLayout(logicalDivide(a, t), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"));
  EXPECT_TRUE(sameLayout(zippedDivide(a, t), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"));
  EXPECT_TRUE(sameLayout(tiledDivide(a, t), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))"));
  EXPECT_TRUE(sameLayout(flatDivide(a, t), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))"));
}

TEST(LayoutDivide, UnderscoreEntryIsAlreadyTileAndRest) {
  Layout a = lay("((2,3),8):((1,2),6)");
  EXPECT_TRUE(sameLayout(zippedDivide(a, byMode({"_", "4:1"})), "((2,4),(3,2)):((1,6),(2,24))"));
  EXPECT_TRUE(sameLayout(tiledDivide(a, byMode({"_", "4:1"})), "((2,4),3,2):((1,6),2,24)"));
  EXPECT_TRUE(sameLayout(logicalDivide(a, byMode({"_", "4:1"})), "((2,3),(4,2)):((1,2),(6,24))"));
  EXPECT_TRUE(failsWith(zippedDivide(lay("(4,8):(1,4)"), byMode({"_", "4:1"})), "needs a rank-2 mode"));
}

TEST(LayoutDivide, DivisibilityErrors) {
  EXPECT_TRUE(failsWith(logicalDivide(lay("(12,32):(1,128)"), tilerOf(lay("(4,8):(1,4)"))),
                        "Shape Divisibility Condition"));
}

using Product = Expected<Layout> (*)(const Layout&, const Layout&);

// The products by one layout (a Tiler of one layout).
Expected<Layout> logicalProductOf(const Layout& a, const Layout& b) { return logicalProduct(a, tilerOf(b)); }

TEST(LayoutProduct, WorkedExamples) {
  const std::tuple<Product, const char*, const char*, const char*> rows[] = {
      {logicalProductOf, "(2,2):(4,1)", "6:1", "((2,2),(2,3)):((4,1),(2,8))"},
      {logicalProductOf, "3:32", "(8,8):(8,1)", "(3,((4,2),8)):(32,((8,96),1))"},
      {logicalProductOf, "(4,2):(1,16)", "(4,2):(2,1)", "((4,2),((2,2),2)):((1,16),((8,32),4))"},
      {logicalProductOf, "(128,16):(1,128)", "(2,4):(1,2)", "((128,16),(2,4)):((1,128),(2048,4096))"},
      {blockedProduct, "(2,5):(5,1)", "(3,4):(1,3)", "((2,3),(5,4)):((5,10),(1,30))"},
      {blockedProduct, "(3,4):(4,1)", "(2,5):(1,2)", "((3,2),(4,5)):((4,12),(1,24))"},
      {blockedProduct, "(2,2):(1,2)", "(3,4):(4,1)", "((2,3),(2,4)):((1,16),(2,4))"},
      {rakedProduct, "(2,5):(5,1)", "(3,4):(1,3)", "((3,2),(4,5)):((10,5),(30,1))"},
      {rakedProduct, "(3,4):(4,1)", "(2,5):(1,2)", "((2,3),(5,4)):((12,4),(24,1))"},
      {rakedProduct, "(2,2):(1,2)", "(3,4):(4,1)", "((3,2),(4,2)):((16,1),(4,2))"},
  };
  for (auto [op, a, b, want] : rows) {
    SCOPED_TRACE(std::string(a) + " x " + b);
    EXPECT_TRUE(sameLayout(op(lay(a), lay(b)), want));
  }
}

TEST(LayoutProduct, RegroupedForms) {
  Layout a = lay("(2,5):(5,1)"), b = lay("(3,4):(1,3)");
  EXPECT_TRUE(sameLayout(zippedProduct(a, tilerOf(b)), "((2,5),(3,4)):((5,1),(10,30))"));
  EXPECT_TRUE(sameLayout(tiledProduct(a, tilerOf(b)), "((2,5),3,4):((5,1),10,30)"));
  EXPECT_TRUE(sameLayout(flatProduct(a, tilerOf(b)), "(2,5,3,4):(5,1,10,30)"));
  // Rank 1: C++ zips the two leaves into one pair.
  EXPECT_TRUE(sameLayout(blockedProduct(lay("4:1"), lay("3:1")), "((4,3)):((1,4))"));
}

TEST(LayoutConstruct, OrderedLayouts) {
  const Row rows[] = {
      {"(2,2,2,2)", "(0,2,3,1)", "(2,2,2,2):(1,4,8,2)"},
      {"(2,3,4,5)", "(2,52,53,50)", "(2,3,4,5):(1,10,30,2)"},  // C++'s dynamic orders 67, 42 rank as 52, 53
      {"(2,(2,2),2)", "(0,(2,3),1)", "(2,(2,2),2):(1,(4,8),2)"},
      {"(4,3,5,2)", "(2,1,3,4)", "(4,3,5,2):(3,1,12,60)"},
      {"(32,16,8)", "(2,0,1)", "(32,16,8):(128,1,16)"},
      {"(2,3)", "(0,0)", "(2,3):(1,1)"},                // equal orders start at the same stride
      {"((2,3),4)", "(1,0)", "((2,3),4):((4,8),1)"},   // an order leaf over a sub-shape
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.a);
    EXPECT_TRUE(sameLayout(makeOrderedLayout(tup(r.a), tup(r.b)), r.want));
  }
  EXPECT_TRUE(failsWith(makeOrderedLayout(tup("4"), tup("(0,1)")), "weakly congruent"));
}

TEST(LayoutConstruct, Recast) {
  const std::tuple<const char*, int64_t, int64_t, const char*> rows[] = {
      {"(32,4):(1,32)", 8, 32, "(8,4):(1,8)"},
      {"(8,4):(1,8)", 32, 8, "(32,4):(1,32)"},
      {"(128,64):(1,128)", 4, 32, "(16,64):(1,16)"},
      {"(6,4):(1,6)", 16, 24, "(4,4):(1,4)"},  // ratio 3/2: upcast by 3, then downcast by 2
      {"(8,4):(0,1)", 8, 16, "(8,2):(0,1)"},   // stride 0 stays
  };
  for (auto [in, from, to, want] : rows) {
    SCOPED_TRACE(in);
    EXPECT_TRUE(sameLayout(recastLayout(lay(in), from, to), want));
  }
  EXPECT_TRUE(failsWith(recastLayout(lay("4:3"), 8, 16), "upcast divisibility condition"));
  EXPECT_TRUE(failsWith(recastLayout(lay("4:2"), 16, 8), "downcast needs a unit-stride mode"));
  EXPECT_TRUE(failsWith(recastLayout(lay("4:1"), 0, 8), "element widths must be positive"));
}

TEST(LayoutConstruct, LayoutTv) {
  auto tv = makeLayoutTv(lay("(2,3):(3,1)"), lay("(2,2):(2,1)"));
  ASSERT_TRUE(tv.ok()) << tv.error().text();
  EXPECT_EQ(tv->tiler, tup("(4,6)"));
  EXPECT_TRUE(sameLayout(tv->tv, "((3,2),(2,2)):((8,2),(4,1))"));
  auto gappy = makeLayoutTv(lay("(2,3):(4,1)"), lay("(2,2):(2,1)"));
  EXPECT_FALSE(gappy.ok());
  EXPECT_NE(gappy.error().text().find("make_layout_tv"), std::string::npos) << gappy.error().text();
}

}  // namespace
}  // namespace tilesight::layout
