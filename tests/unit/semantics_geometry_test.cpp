// The one definition of view geometry and of the lane maps of shape ops
// (analysis/semantics): the concrete rules the interpreter, the runtime, the
// SIMT lowering and the checks share.
#include <gtest/gtest.h>

#include "analysis/semantics/lane_maps.h"
#include "analysis/semantics/view_geometry.h"

namespace tilesight::semantics {
namespace {

TEST(ViewGeometry, WalkedDimAndStepFollowTheViewKind) {
  TypeContext ctx;
  TypeRef tv = ctx.tensorView(Elem::F32, {10, 20}, {20, 1});
  TypeRef part = ctx.partitionView({4, 8}, Padding::None, tv, {1, 0});
  EXPECT_EQ(walkedDim(*part, 0), 1u);
  EXPECT_EQ(tileStep(*part, 0), 4);
  TypeRef strided = ctx.stridedView({4, 8}, {2, 3}, Padding::None, tv, {0, 1});
  EXPECT_EQ(tileStep(*strided, 1), 3);
  TypeRef gather = ctx.gatherScatterView({4, 8}, Padding::None, tv, 0);
  EXPECT_EQ(walkedDim(*gather, 1), 1u);
  EXPECT_EQ(tileStep(*gather, 1), 1);  // its indices are element offsets
}

TEST(ViewGeometry, IndexSpaceAndPartialTiles) {
  EXPECT_EQ(indexExtent(10, 4), 3);
  EXPECT_EQ(indexExtent(0, 4), 0);
  EXPECT_EQ(firstPartialIndex(10, 4, 4), 2);  // tile 2 covers 8..11
  EXPECT_EQ(firstPartialIndex(12, 4, 4), 3);  // none: the extent
  EXPECT_EQ(firstPartialIndex(3, 4, 4), 0);   // the tensor is smaller than a tile
  EXPECT_EQ(elementsInside(tileStart(2, 4), 4, 10), 2);
  EXPECT_EQ(overhang(tileStart(2, 4), 4, 10), 2);
  EXPECT_EQ(elementsInside(12, 4, 10), 0);
  EXPECT_EQ(overhang(tileStart(INT64_MAX, 2), 4, 10), INT64_MAX - 10);  // saturates
}

TEST(ViewGeometry, OffsetsAndStrides) {
  EXPECT_EQ(elementOffset({2, 3}, {20, 1}), 43);
  EXPECT_EQ(lastElement({10, 20}, {20, 1}), 199);
  EXPECT_EQ(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
}

TEST(LaneMaps, BroadcastPermuteReshape) {
  DimSources b = broadcastDims({1, 4}, {3, 4});
  EXPECT_EQ(b, (DimSources{std::nullopt, 1}));
  EXPECT_EQ(broadcastDims({4}, {2, 4}), (DimSources{std::nullopt, 0}));
  Attr perm;
  perm.elems.resize(2);
  perm.elems[0].i = 1;
  perm.elems[1].i = 0;
  EXPECT_EQ(permuteDims(perm, 2), (DimSources{1, 0}));
  EXPECT_EQ(reshapeDims({4, 1, 8}, {1, 4, 8}), (DimSources{std::nullopt, 0, 2}));
  EXPECT_FALSE(reshapeDims({4, 8}, {32}));
  EXPECT_EQ(carriedStrides(DimSources{std::nullopt, 0}, {4}), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(sliceStart(3, 8), 24);
  EXPECT_EQ(catSplit({2, 5}, 1), 5);
}

}  // namespace
}  // namespace tilesight::semantics
