#include <gtest/gtest.h>

#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

TEST(Types, InterningMakesEqualTypesIdentical) {
  TypeContext ctx;
  EXPECT_EQ(ctx.tile({4, 8}, Elem::F32), ctx.tile({4, 8}, ctx.scalar(Elem::F32)));
  EXPECT_NE(ctx.tile({4, 8}, Elem::F32), ctx.tile({8, 4}, Elem::F32));
  EXPECT_EQ(ctx.tile({4}, ctx.ptr(Elem::F16))->text, "!cuda_tile.tile<4xptr<f16>>");
  TypeRef tv = ctx.tensorView(Elem::F32, {kDynamic, 32}, {kDynamic, 1});
  EXPECT_EQ(tv->text, "!cuda_tile.tensor_view<?x32xf32, strides=[?,1]>");
  EXPECT_EQ(ctx.partitionView({16, 16}, Padding::Zero, tv, {1, 0})->text,
            "!cuda_tile.partition_view<tile=(16x16), padding_value = zero, tensor_view<?x32xf32, strides=[?,1]>, dim_map=[1, 0]>");
}

static std::vector<std::string> errorsOf(const std::string& argType) {
  return messages(analyze(kernel("%a: " + argType, "")));
}

TEST(Types, TileShapeRules) {
  EXPECT_TRUE(anyContains(errorsOf("tile<3x4xf32>"), "powers of two"));
  EXPECT_TRUE(anyContains(errorsOf("tile<8192x4096xf32>"), "maximum of 16777216"));
  EXPECT_TRUE(anyContains(errorsOf("tile<1xf4E2M1FN>"), "even number"));
  EXPECT_TRUE(errorsOf("tile<2xf4E2M1FN>").size() <= 1u);  // entry args must be scalars, shape itself is fine
}

TEST(Types, TensorViewAndViewRules) {
  EXPECT_TRUE(anyContains(errorsOf("tensor_view<4x4xf32, strides=[4,-1]>"), "strictly positive"));
  EXPECT_TRUE(anyContains(errorsOf("tensor_view<4x4xf32>"), "strides"));
  EXPECT_TRUE(anyContains(errorsOf("partition_view<tile=(4x3), tensor_view<16x16xf32, strides=[16,1]>>"), "powers of two"));
  EXPECT_TRUE(anyContains(errorsOf("partition_view<tile=(4), tensor_view<16x16xf32, strides=[16,1]>>"), "rank"));
  EXPECT_TRUE(anyContains(errorsOf("partition_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>, dim_map=[0, 0]>"),
                          "mapped twice"));
  EXPECT_TRUE(anyContains(errorsOf("partition_view<tile=(4x4), padding_value = nan, tensor_view<16x16xi32, strides=[16,1]>>"),
                          "float"));
  EXPECT_TRUE(errorsOf("partition_view<tile=(4x4), padding_value = zero, tensor_view<16x16xi32, strides=[16,1]>>").empty());
}
