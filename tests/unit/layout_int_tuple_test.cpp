// Reference rows on IntTuples, calling conventions, LayoutLeft, tile_to_shape
// and the identity layout (reference/layouts.md §2, rows 1–8, 11, 77, 78, 83).
#include <gtest/gtest.h>

#include "analysis/layout/expr.h"
#include "analysis/layout/layout.h"

using namespace tilesight::layout;

namespace {
IntTuple T(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }

std::string eval(const std::string& expr) {
  auto r = evaluate(expr);
  return r.ok() ? valueText(r.value()) : "error: " + r.error().text();
}
}  // namespace

TEST(LayoutIntTuple, ProductsAndShapeDivision) {
  EXPECT_EQ(product(T({T({2, 3}), 4})), 24);
  EXPECT_EQ(innerProduct(T({T({2, 3}), 4}), T({T({2, 1}), 2})), 15);
  EXPECT_EQ(toString(*shapeDiv(T({3, 4}), 6)), "(1,2)");
  EXPECT_EQ(toString(*shapeDiv(T({T({3, 4}), 6}), 36)), "((1,1),2)");
  EXPECT_EQ(toString(*shapeDiv(T({6, T({3, 4})}), 36)), "(1,(1,2))");
  EXPECT_FALSE(shapeDiv(IntTuple(6), IntTuple(4)).has_value());  // neither divides the other
  EXPECT_EQ(toString(prefixProduct(T({T({2, 3}), T({2, 1, 2}), T({5, 2, 1})}))), "((1,2),(6,12,12),(24,120,240))");
}

TEST(LayoutIntTuple, IntegerHierarchicalAndCongruentCoordinatesAgree) {
  IntTuple shape = T({3, T({2, 3})});
  EXPECT_EQ(toString(idx2crd(16, shape)), "(1,(1,2))");
  Layout l{shape, T({3, T({12, 1})})};
  for (const IntTuple& c : {IntTuple(16), T({1, 5}), T({1, T({1, 2})})}) {
    auto off = callCoord(l, c);
    ASSERT_TRUE(off.ok()) << toString(c);
    EXPECT_EQ(*off, 17) << toString(c);
  }
  EXPECT_FALSE(callCoord(l, T({3, 0})).ok());  // 3 is outside mode 0 of extent 3
}

TEST(LayoutIntTuple, OneDimensionalOrderIsColexicographic) {
  EXPECT_EQ(offsets(Layout{T({2, T({2, 2})}), T({4, T({2, 1})})}, 8), (std::vector<int64_t>{0, 4, 2, 6, 1, 5, 3, 7}));
  EXPECT_EQ(offsets(Layout{T({T({4, 2})}), T({T({2, 1})})}, 8), (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(LayoutIntTuple, ShapeAloneIsColumnMajor) {
  EXPECT_EQ(toString(compactColMajor(T({2, T({2, 2})}))), "(2,(2,2)):(1,(2,4))");
  EXPECT_EQ(eval("(4,8)"), "(4,8):(1,4)");
}

TEST(LayoutIntTuple, TileToShapeAndIdentity) {
  EXPECT_EQ(eval("tile_to_shape((3,2):(1,3), (6,8))"), "((3,2),(2,4)):((1,6),(3,12))");
  EXPECT_EQ(eval("tile_to_shape((128,128):(128,1), (1024,512), (1,0))"), "((128,8),(128,4)):((128,65536),(1,16384))");
  EXPECT_EQ(eval("tile_to_shape((3,2):(1,3), (7,8))").rfind("error: tile_to_shape", 0), 0u);
  EXPECT_EQ(eval("make_identity_layout((2,(3,4),5))"), "(2,(3,4),5):(1@0,(1@0@1,1@1@1),1@2)");
}
