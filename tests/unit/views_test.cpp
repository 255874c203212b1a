// View geometry: tensor_view layouts with their injectivity, and the index
// spaces of partition, strided and gather/scatter views (the examples of
// cuda-tile's Types.td among them).
#include <gtest/gtest.h>

#include "analysis/checks/views.h"

namespace tilesight::views {
namespace {

class Views : public ::testing::Test {
protected:
  TypeContext ctx;
  TypeRef tv(std::vector<int64_t> shape, std::vector<int64_t> strides, Elem e = Elem::F32) {
    return ctx.tensorView(e, std::move(shape), std::move(strides));
  }
  std::optional<TensorViewLayout> tensorViewLayout(TypeRef view) {
    layout::WorkBudget budget(layout::kInteractiveWorkBudget, layout::kInteractiveWorkBudget);
    return views::tensorViewLayout(*view, budget);
  }
  IndexSpace space(TypeRef view) {
    auto s = indexSpace(*view);
    EXPECT_TRUE(s.has_value()) << view->text;
    return s.value_or(IndexSpace{});
  }
};

TEST_F(Views, TensorViewLayoutReadsAsDimsWithStrides) {
  auto l = tensorViewLayout(tv({64, 32}, {32, 1}, Elem::F16));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->text, "(64,32):(32,1)");
  ASSERT_TRUE(l->layout);
  EXPECT_EQ(layout::toString(*l->layout), "(64,32):(32,1)");
  EXPECT_EQ(layout::call(*l->layout, 1), 32);  // colex: mode 0 is fastest
  EXPECT_EQ(l->injective, Injectivity::Yes);
  EXPECT_FALSE(l->collision);
}

TEST_F(Views, TensorViewLayoutRankOneAndZero) {
  auto one = tensorViewLayout(tv({128}, {2}));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->text, "128:2");
  EXPECT_EQ(one->injective, Injectivity::Yes);
  auto zero = tensorViewLayout(tv({}, {}));
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->text, "1:0");
  EXPECT_EQ(zero->injective, Injectivity::Yes);
}

TEST_F(Views, TensorViewWithPaddedRowsIsInjective) {
  auto l = tensorViewLayout(tv({3, 5, 7}, {64, 8, 1}));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->text, "(3,5,7):(64,8,1)");
  EXPECT_EQ(l->injective, Injectivity::Yes);
}

TEST_F(Views, OverlappingStridesGiveAWitness) {
  auto l = tensorViewLayout(tv({4, 4}, {1, 1}));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->injective, Injectivity::No);
  ASSERT_TRUE(l->collision);
  EXPECT_EQ(layout::toString(l->collision->coord1), "(1,0)");
  EXPECT_EQ(layout::toString(l->collision->coord2), "(0,1)");
  EXPECT_EQ(l->collision->offset, 1);

  auto m = tensorViewLayout(tv({8, 4}, {2, 3}));
  ASSERT_TRUE(m && m->collision);
  EXPECT_EQ(m->injective, Injectivity::No);
  EXPECT_EQ(layout::toString(m->collision->coord1), "(3,0)");
  EXPECT_EQ(layout::toString(m->collision->coord2), "(0,2)");
  EXPECT_EQ(m->collision->offset, 6);
}

TEST_F(Views, ZeroStrideIsABroadcast) {
  auto l = tensorViewLayout(tv({4, 8}, {0, 1}));
  ASSERT_TRUE(l && l->collision);
  EXPECT_EQ(l->injective, Injectivity::No);
  EXPECT_EQ(layout::toString(l->collision->coord1), "(0,0)");
  EXPECT_EQ(layout::toString(l->collision->coord2), "(1,0)");
  EXPECT_EQ(l->collision->offset, 0);
}

TEST_F(Views, DynamicTensorViewHasTextButNoLayout) {
  auto l = tensorViewLayout(tv({kDynamic, 32}, {kDynamic, 1}));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->text, "(?,32):(?,1)");
  EXPECT_FALSE(l->layout);
  EXPECT_EQ(l->injective, Injectivity::Dynamic);
}

TEST_F(Views, HugeShapesAreUndecided) {
  // Past the exact search's work budget: coprime strides, no cheap test applies.
  auto l = tensorViewLayout(tv({1000000, 1000000, 1000000}, {1000003, 1000033, 1000037}));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->injective, Injectivity::Undecided);
  EXPECT_FALSE(l->collision);
  // A size past int64.
  auto o = tensorViewLayout(tv({INT64_MAX / 2, 4, 4}, {1, 1, 3}));
  ASSERT_TRUE(o);
  EXPECT_EQ(o->injective, Injectivity::Undecided);
}

TEST_F(Views, NotATensorView) {
  EXPECT_FALSE(tensorViewLayout(ctx.tile({4}, Elem::F32)));
  EXPECT_FALSE(indexSpace(*tv({4}, {1})));
}

TEST_F(Views, PartitionViewIndexSpace) {
  IndexSpace s = space(ctx.partitionView({16, 16}, Padding::None, tv({64, 32}, {32, 1}), {0, 1}));
  EXPECT_EQ(s.shapeText(), "4x2");
  EXPECT_TRUE(s.known());
  ASSERT_EQ(s.dims.size(), 2u);
  EXPECT_EQ(s.dims[0].firstPartial, 4);  // none partial
  EXPECT_EQ(s.dims[1].firstPartial, 2);
  EXPECT_EQ(s.dims[1].tensorDim, 1);
  EXPECT_EQ(s.dims[1].step, 16);
}

TEST_F(Views, PartitionViewPartialTiles) {
  IndexSpace s = space(ctx.partitionView({16, 8}, Padding::Zero, tv({60, 8}, {8, 1}), {0, 1}));
  EXPECT_EQ(s.shapeText(), "4x1");
  EXPECT_EQ(s.dims[0].firstPartial, 3);
  EXPECT_FALSE(s.dims[0].partial(2));
  EXPECT_TRUE(s.dims[0].partial(3));
  EXPECT_EQ(s.dims[0].overhang(3), 4);  // rows 60..63
  EXPECT_EQ(s.dims[0].overhang(2), 0);
  EXPECT_EQ(s.dims[1].firstPartial, 1);
  // A tile larger than the tensor: one index, partial.
  IndexSpace big = space(ctx.partitionView({32}, Padding::None, tv({20}, {1}), {0}));
  EXPECT_EQ(big.shapeText(), "1");
  EXPECT_EQ(big.dims[0].firstPartial, 0);
  EXPECT_EQ(big.dims[0].overhang(0), 12);
}

TEST_F(Views, PartitionViewDimMap) {
  // Types.td example (3): index dim 0 walks tensor dim 1.
  IndexSpace s = space(ctx.partitionView({4, 2}, Padding::None, tv({64, 16}, {16, 1}), {1, 0}));
  EXPECT_EQ(s.shapeText(), "4x32");
  EXPECT_EQ(s.dims[0].tensorDim, 1);
  EXPECT_EQ(s.dims[0].tile, 4);
  EXPECT_EQ(s.dims[1].tensorDim, 0);
  EXPECT_EQ(space(ctx.partitionView({4, 2}, Padding::None, tv({64, 16}, {16, 1}), {0, 1})).shapeText(), "16x8");
}

TEST_F(Views, PartitionViewDynamicDims) {
  IndexSpace s = space(ctx.partitionView({16, 16}, Padding::None, tv({kDynamic, 40}, {kDynamic, 1}), {0, 1}));
  EXPECT_EQ(s.shapeText(), "?x3");
  EXPECT_FALSE(s.known());
  EXPECT_FALSE(s.dims[0].extent);
  EXPECT_FALSE(s.dims[0].firstPartial);
  EXPECT_FALSE(s.dims[0].partial(5));
  EXPECT_EQ(s.dims[0].overhang(5), 0);
  EXPECT_EQ(s.dims[1].firstPartial, 2);
  EXPECT_EQ(s.dims[1].overhang(2), 8);
  // dim_map moves the unknown extent.
  EXPECT_EQ(space(ctx.partitionView({16, 16}, Padding::None, tv({kDynamic, 40}, {kDynamic, 1}), {1, 0})).shapeText(),
            "3x?");
}

TEST_F(Views, StridedViewIndexSpace) {
  // Types.td examples (1)-(3): traversal strides 2, 3, 1.
  IndexSpace s2 = space(ctx.stridedView({2}, {2}, Padding::None, tv({16}, {1}), {0}));
  EXPECT_EQ(s2.shapeText(), "8");
  EXPECT_EQ(s2.dims[0].firstPartial, 8);
  IndexSpace s3 = space(ctx.stridedView({2}, {3}, Padding::None, tv({16}, {1}), {0}));
  EXPECT_EQ(s3.shapeText(), "6");
  EXPECT_EQ(s3.dims[0].firstPartial, 5);  // tile 5 covers 15..16
  EXPECT_EQ(s3.dims[0].overhang(5), 1);
  IndexSpace s1 = space(ctx.stridedView({2}, {1}, Padding::None, tv({8}, {1}), {0}));
  EXPECT_EQ(s1.shapeText(), "8");
  EXPECT_EQ(s1.dims[0].firstPartial, 7);
  // Overlapping tiles: several are partial.
  IndexSpace wide = space(ctx.stridedView({4}, {1}, Padding::None, tv({8}, {1}), {0}));
  EXPECT_EQ(wide.dims[0].firstPartial, 5);
  EXPECT_EQ(wide.dims[0].overhang(5), 1);
  EXPECT_EQ(wide.dims[0].overhang(7), 3);
}

TEST_F(Views, StridedView2dAndDimMap) {
  // Types.td example (4): 16x6.
  EXPECT_EQ(space(ctx.stridedView({4, 2}, {4, 3}, Padding::None, tv({64, 16}, {16, 1}), {0, 1})).shapeText(), "16x6");
  // Example (5), dim_map [1, 0]: index dim 0 walks tensor dim 1 by 4, dim 1
  // walks tensor dim 0 by 3 (as its picture and the permute note say).
  IndexSpace t = space(ctx.stridedView({4, 2}, {4, 3}, Padding::None, tv({64, 16}, {16, 1}), {1, 0}));
  EXPECT_EQ(t.shapeText(), "4x22");
  EXPECT_EQ(t.dims[1].tensorDim, 0);
  EXPECT_EQ(t.dims[1].step, 3);
  EXPECT_EQ(t.dims[1].firstPartial, 21);  // rows 63..64
  EXPECT_EQ(t.dims[1].overhang(21), 1);
}

TEST_F(Views, GatherScatterViewIndexSpace) {
  IndexSpace s = space(ctx.gatherScatterView({64, 64}, Padding::None, tv({8192, 128}, {128, 1}), 0));
  // Seed 001 §5.6.1: the tensor's shape; the column index is an element
  // offset, so a 64-wide tile at column 65 or later runs past the edge.
  EXPECT_EQ(s.shapeText(), "8192x128");
  EXPECT_TRUE(s.dims[0].sparse);
  EXPECT_FALSE(s.dims[0].partial(8191));
  EXPECT_FALSE(s.dims[1].sparse);
  EXPECT_EQ(s.dims[1].step, 1);
  EXPECT_EQ(s.dims[1].firstPartial, 65);
  EXPECT_EQ(s.dims[1].overhang(100), 36);
  EXPECT_EQ(space(ctx.gatherScatterView({8, 16}, Padding::None, tv({kDynamic, 64}, {64, 1}), 1)).shapeText(), "?x64");
}

TEST_F(Views, MalformedViewsHaveNoIndexSpace) {
  TypeRef t2 = tv({16, 16}, {16, 1});
  EXPECT_FALSE(indexSpace(*ctx.partitionView({4}, Padding::None, t2, {0})));            // rank
  EXPECT_FALSE(indexSpace(*ctx.partitionView({4, 4}, Padding::None, t2, {0, 0})));      // dim_map
  EXPECT_FALSE(indexSpace(*ctx.stridedView({4, 4}, {4}, Padding::None, t2, {0, 1})));   // strides
  EXPECT_FALSE(indexSpace(*ctx.stridedView({4, 4}, {4, 0}, Padding::None, t2, {0, 1})));
  EXPECT_FALSE(indexSpace(*ctx.gatherScatterView({4, 4}, Padding::None, t2, 2)));       // sparse_dim
}

}  // namespace
}  // namespace tilesight::views
