// Per-op interpreter tests, views: make_tensor_view (static and dynamic),
// partition views (dim_map, padding on partial tiles), strided and
// gather/scatter views, their shapes, and loads, stores and atomic
// reductions through them. Tensors are filled with T[r][c] = a simple
// formula of the position, so each expected element is the formula at the
// position the spec's view definition (seed 001 §5.4-5.6) gives.
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

const float kNaNF = std::numeric_limits<float>::quiet_NaN();
const float kInfF = std::numeric_limits<float>::infinity();

template <class T>
std::vector<T> iotaOf(size_t n) {
  std::vector<T> v(n);
  std::iota(v.begin(), v.end(), T(0));
  return v;
}

RunResult run(const std::string& program, std::vector<Arg>& args) {
  RunResult r = runProgram(program, args);
  expectRan(r, program);
  return r;
}

// --- partition views ------------------------------------------------------------------

TEST(InterpOpsView, PartitionViewLoadsTheTileAtAnIndex) {
  // A 4x8 tensor, T[r][c] = 8r + c, in 2x4 tiles: index (1, 1) is rows 2-3,
  // columns 4-7. The index space is (4/2, 8/4) = (2, 2).
  const std::string pv = "partition_view<tile=(2x4), tensor_view<4x8xf32, strides=[8,1]>>";
  std::string program = kernel("%in: tile<ptr<f32>>, %out: tile<ptr<f32>>, %shape: tile<ptr<i32>>",
                               "    %tv = make_tensor_view %in, shape=[4, 8], strides=[8, 1] : tensor_view<4x8xf32, strides=[8,1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c1, %c1] : " + pv + ", tile<i32> -> tile<2x4xf32>, token\n"
                               "    %d0, %d1 = get_index_space_shape %v : " + pv + " -> tile<i32>\n" +
                                   store("%t", "2x4", "f32") + gather("%d", {"%d0", "%d1"}, "i32") +
                                   store("%d", "2", "i32", "%shape"));
  std::vector<Arg> args{Arg::buffer(iotaOf<float>(32)), Arg::zeros(32), Arg::zeros(8)};
  run(program, args);
  expectBits<float>(args[1].as<float>(), {20, 21, 22, 23, 28, 29, 30, 31});
  expectBits<int32_t>(args[2].as<int32_t>(), {2, 2});
}

TEST(InterpOpsView, PartitionViewDimMap) {
  // Seed 001 §5.6.2: with dim_map=[1, 0], tile dimension 0 walks tensor
  // dimension 1; a load at [a, b] equals a load at [b, a] of the 2x4 view
  // with the identity map, permuted. Tensor 4x16, T[r][c] = 16r + c; tile 4x2:
  // element (i, j) at [3, 1] is T[2 + j][12 + i] = 44 + 16j + i. The index
  // space is (16/4, 4/2) = (4, 2).
  const std::string pv = "partition_view<tile=(4x2), tensor_view<4x16xi32, strides=[16,1]>, dim_map=[1, 0]>";
  std::string program = kernel("%in: tile<ptr<i32>>, %out: tile<ptr<i32>>, %shape: tile<ptr<i64>>",
                               "    %tv = make_tensor_view %in, shape=[4, 16], strides=[16, 1] : tensor_view<4x16xi32, strides=[16,1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %c3 = constant <i32: 3> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c3, %c1] : " + pv + ", tile<i32> -> tile<4x2xi32>, token\n"
                               "    %d0, %d1 = get_index_space_shape %v : " + pv + " -> tile<i64>\n" +
                                   store("%t", "4x2", "i32") + gather("%d", {"%d0", "%d1"}, "i64") +
                                   store("%d", "2", "i64", "%shape"));
  std::vector<Arg> args{Arg::buffer(iotaOf<int32_t>(64)), Arg::zeros(32), Arg::zeros(16)};
  run(program, args);
  expectBits<int32_t>(args[1].as<int32_t>(), {44, 60, 45, 61, 46, 62, 47, 63});
  expectBits<int64_t>(args[2].as<int64_t>(), {4, 2});
}

TEST(InterpOpsView, PartitionViewDimMap3D) {
  // Tensor 2x4x8, T[a][b][c] = 32a + 8b + c; tile 1x2x4 with dim_map [0, 2, 1]:
  // tile dimension 1 walks tensor dimension 2, tile dimension 2 walks tensor
  // dimension 1. Index space (2/1, 8/2, 4/4) = (2, 4, 1). At [1, 3, 0] element
  // (0, j, k) is T[1][k][6 + j] = 38 + 8k + j.
  const std::string tvt = "tensor_view<2x4x8xi32, strides=[32,8,1]>";
  const std::string pv = "partition_view<tile=(1x2x4), " + tvt + ", dim_map=[0, 2, 1]>";
  std::string program = kernel("%in: tile<ptr<i32>>, %out: tile<ptr<i32>>, %shape: tile<ptr<i32>>",
                               "    %tv = make_tensor_view %in, shape=[2, 4, 8], strides=[32, 8, 1] : " + tvt + "\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %c3 = constant <i32: 3> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c1, %c3, %c0] : " + pv + ", tile<i32> -> tile<1x2x4xi32>, token\n"
                               "    %d0, %d1, %d2 = get_index_space_shape %v : " + pv + " -> tile<i32>\n" +
                                   store("%t", "1x2x4", "i32") + gather("%d", {"%d0", "%d1", "%d2", "%c0"}, "i32") +
                                   store("%d", "4", "i32", "%shape"));
  std::vector<Arg> args{Arg::buffer(iotaOf<int32_t>(64)), Arg::zeros(32), Arg::zeros(16)};
  run(program, args);
  expectBits<int32_t>(args[1].as<int32_t>(), {38, 46, 54, 62, 39, 47, 55, 63});
  expectBits<int32_t>(args[2].as<int32_t>(), {2, 4, 1, 0});
}

TEST(InterpOpsView, SubByteViewLoadAndStore) {
  // f4E2M1FN packed two per byte, element 2k in the low nibble (seed 001
  // §5.2.2). Bytes 31 77 4A 80 hold [0.5, 1.5, 6, 6, -1, 2, 0, -0]; tile 1 of
  // four is [-1, 2, 0, -0]. Storing [1, 3, 4, -6] (0010, 0101, 0110, 1111) as
  // tile 0 rewrites bytes 0-1 as 0x52, 0xF6.
  const std::string tvt = "tensor_view<8xf4E2M1FN, strides=[1]>";
  const std::string pv = "partition_view<tile=(4), " + tvt + ">";
  std::string program = kernel("%io: tile<ptr<f4E2M1FN>>, %out: tile<ptr<f32>>",
                               "    %tv = make_tensor_view %io, shape=[8], strides=[1] : " + tvt + "\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c1] : " + pv + ", tile<i32> -> tile<4xf4E2M1FN>, token\n"
                               "    %w = ftof %t : tile<4xf4E2M1FN> -> tile<4xf32>\n"
                               "    %n = constant <f4E2M1FN: [1.0, 3.0, 4.0, -6.0]> : tile<4xf4E2M1FN>\n"
                               "    %t2 = store_view_tko weak %n, %v[%c0] token=%tok : tile<4xf4E2M1FN>, " + pv + ", tile<i32> -> token\n" +
                                   store("%w", "4", "f32"));
  std::vector<Arg> args{Arg::buffer<uint8_t>({0x31, 0x77, 0x4A, 0x80}), Arg::zeros(16)};
  run(program, args);
  expectBits<float>(args[1].as<float>(), {-1.0f, 2.0f, 0.0f, -0.0f});
  expectBits<uint8_t>(args[0].as<uint8_t>(), {0x52, 0xF6, 0x4A, 0x80});
}

TEST(InterpOpsView, PaddingValuesFillThePartOutsideTheTensor) {
  // A 3x3 tensor (0..8) in 2x2 tiles: the index space is (2, 2); tile (1, 1)
  // holds only T[2][2] = 8, tile (0, 1) only column 2 of rows 0-1 (2 and 5).
  auto load = [](const std::string& padding, const char* i, const char* j) {
    std::string pv = "partition_view<tile=(2x2), padding_value = " + padding + ", tensor_view<3x3xf32, strides=[3,1]>>";
    std::string program = kernel("%in: tile<ptr<f32>>, %out: tile<ptr<f32>>",
                                 "    %tv = make_tensor_view %in, shape=[3, 3], strides=[3, 1] : tensor_view<3x3xf32, strides=[3,1]>\n"
                                 "    %v = make_partition_view %tv : " + pv + "\n"
                                 "    %i = constant <i32: " + i + "> : tile<i32>\n"
                                 "    %j = constant <i32: " + j + "> : tile<i32>\n"
                                 "    %t, %tok = load_view_tko weak %v[%i, %j] : " + pv + ", tile<i32> -> tile<2x2xf32>, token\n" +
                                     store("%t", "2x2", "f32"));
    std::vector<Arg> args{Arg::buffer(iotaOf<float>(9)), Arg::zeros(16)};
    run(program, args);
    return args[1].as<float>();
  };
  expectBits<float>(load("nan", "1", "1"), {8, kNaNF, kNaNF, kNaNF});
  expectBits<float>(load("nan", "0", "1"), {2, kNaNF, 5, kNaNF});
  expectBits<float>(load("zero", "1", "0"), {6, 7, 0.0f, 0.0f});
  expectBits<float>(load("neg_zero", "1", "0"), {6, 7, -0.0f, -0.0f});
  expectBits<float>(load("pos_inf", "1", "1"), {8, kInfF, kInfF, kInfF});
  expectBits<float>(load("neg_inf", "0", "1"), {2, -kInfF, 5, -kInfF});
  expectBits<float>(load("zero", "0", "0"), {0, 1, 3, 4});  // a full tile: no padding
}

TEST(InterpOpsView, PaddingInF16) {
  // The same on an f16 tensor: a 3-element tensor in 2-element tiles, tile 1
  // is [T[2], pad]; -inf in f16 is 0xFC00.
  const std::string pv = "partition_view<tile=(2), padding_value = neg_inf, tensor_view<3xf16, strides=[1]>>";
  std::string program = kernel("%in: tile<ptr<f16>>, %out: tile<ptr<f16>>",
                               "    %tv = make_tensor_view %in, shape=[3], strides=[1] : tensor_view<3xf16, strides=[1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c1] : " + pv + ", tile<i32> -> tile<2xf16>, token\n" +
                                   store("%t", "2", "f16"));
  std::vector<Arg> args{Arg::buffer<uint16_t>({0x3C00, 0x4000, 0x4200}), Arg::zeros(4)};
  run(program, args);
  expectHalf(args[1].as<uint16_t>(), {0x4200, 0xFC00});
}

TEST(InterpOpsView, DynamicShapeAndStrides) {
  // shape [m, n] = [3, 5] and row stride 8 come from the kernel's arguments.
  // T[r][c] = 10r + c at element 8r + c. 2x4 tiles: index space (2, 2).
  const std::string tvt = "tensor_view<?x?xf32, strides=[?,1]>";
  const std::string pv = "partition_view<tile=(2x4), padding_value = neg_inf, " + tvt + ">";
  std::string program = kernel("%in: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s: tile<i32>, %out: tile<ptr<f32>>, "
                               "%shape: tile<ptr<i64>>",
                               "    %tv = make_tensor_view %in, shape=[%m, %n], strides=[%s, 1] : tile<i32> -> " + tvt + "\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %a, %ta = load_view_tko weak %v[%c0, %c1] : " + pv + ", tile<i32> -> tile<2x4xf32>, token\n"
                               "    %b, %tb = load_view_tko weak %v[%c1, %c1] : " + pv + ", tile<i32> -> tile<2x4xf32>, token\n"
                               "    %ab = cat %a, %b dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>\n"
                               "    %s0, %s1 = get_tensor_shape %tv : " + tvt + " -> tile<i64>\n"
                               "    %d0, %d1 = get_index_space_shape %v : " + pv + " -> tile<i64>\n" +
                                   store("%ab", "4x4", "f32") + gather("%sd", {"%s0", "%s1", "%d0", "%d1"}, "i64") +
                                   store("%sd", "4", "i64", "%shape"));
  std::vector<float> in(24, -1.0f);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 8; ++c) in[8 * r + c] = static_cast<float>(c < 5 ? 10 * r + c : 99);  // 99: past n
  std::vector<Arg> args{Arg::buffer(in), Arg::integer(3), Arg::integer(5), Arg::integer(8), Arg::zeros(64), Arg::zeros(32)};
  run(program, args);
  const float n = -kInfF;
  // [0, 1]: rows 0-1, columns 4-7 (only column 4 is inside); [1, 1]: row 2, column 4.
  expectBits<float>(args[4].as<float>(), {4, n, n, n, 14, n, n, n, 24, n, n, n, n, n, n, n});
  expectBits<int64_t>(args[5].as<int64_t>(), {3, 5, 2, 2});
}

TEST(InterpOpsView, DynamicShapeOperandsAreUnsigned) {
  // Ops.td: the dynamicShape and dynamicStrides operands are interpreted as
  // unsigned. An i8 -56 is 200 elements.
  const std::string tvt = "tensor_view<?xi8, strides=[1]>";
  std::string program = kernel("%in: tile<ptr<i8>>, %out: tile<ptr<i32>>",
                               "    %n = constant <i8: -56> : tile<i8>\n"
                               "    %tv = make_tensor_view %in, shape=[%n], strides=[1] : tile<i8> -> " + tvt + "\n"
                               "    %s0 = get_tensor_shape %tv : " + tvt + " -> tile<i32>\n" +
                                   store("%s0", "", "i32"));
  std::vector<Arg> args{Arg::zeros(200), Arg::zeros(4)};
  run(program, args);
  EXPECT_EQ(args[1].as<int32_t>()[0], 200);
}

TEST(InterpOpsView, ViewIndicesAreUnsigned) {
  // Ops.td: the index operands are interpreted as unsigned: an i8 -56 is tile
  // 200 of a 512-element tensor in 2-element tiles, elements 400 and 401.
  const std::string pv = "partition_view<tile=(2), tensor_view<512xi16, strides=[1]>>";
  std::string program = kernel("%in: tile<ptr<i16>>, %out: tile<ptr<i16>>",
                               "    %tv = make_tensor_view %in, shape=[512], strides=[1] : tensor_view<512xi16, strides=[1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %i = constant <i8: -56> : tile<i8>\n"
                               "    %t, %tok = load_view_tko weak %v[%i] : " + pv + ", tile<i8> -> tile<2xi16>, token\n" +
                                   store("%t", "2", "i16"));
  std::vector<Arg> args{Arg::buffer(iotaOf<int16_t>(512)), Arg::zeros(4)};
  run(program, args);
  expectBits<int16_t>(args[1].as<int16_t>(), {400, 401});
}

TEST(InterpOpsView, StoreViewMasksTheOutsidePart) {
  // 3x3 tensor of -1, 2x2 tiles: tile (1, 1) writes only T[2][2]; tile (0, 1)
  // only column 2 of rows 0-1. Elements outside are masked (never written).
  const std::string pv = "partition_view<tile=(2x2), tensor_view<3x3xi64, strides=[3,1]>>";
  std::string program = kernel("%io: tile<ptr<i64>>",
                               "    %tv = make_tensor_view %io, shape=[3, 3], strides=[3, 1] : tensor_view<3x3xi64, strides=[3,1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %a = constant <i64: [[1, 2], [3, 4]]> : tile<2x2xi64>\n"
                               "    %b = constant <i64: [[5, 6], [7, 8]]> : tile<2x2xi64>\n"
                               "    %t0 = store_view_tko weak %a, %v[%c1, %c1] : tile<2x2xi64>, " + pv + ", tile<i32> -> token\n"
                               "    %t1 = store_view_tko weak %b, %v[%c0, %c1] token=%t0 : tile<2x2xi64>, " + pv + ", tile<i32> -> token\n");
  std::vector<Arg> args{Arg::buffer<int64_t>(std::vector<int64_t>(9, -1))};
  run(program, args);
  expectBits<int64_t>(args[0].as<int64_t>(), {-1, -1, 5, -1, -1, 7, -1, -1, 1});
}

TEST(InterpOpsView, StoreThenLoadThroughAColumnMajorTensor) {
  // strides [1, 2]: T[r][c] lives at element r + 2c. Storing [[1, 2], [3, 4]]
  // to the whole 2x2 tensor puts 1, 3, 2, 4 in memory.
  const std::string pv = "partition_view<tile=(2x2), tensor_view<2x2xi16, strides=[1,2]>>";
  std::string program = kernel("%io: tile<ptr<i16>>",
                               "    %tv = make_tensor_view %io, shape=[2, 2], strides=[1, 2] : tensor_view<2x2xi16, strides=[1,2]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %a = constant <i16: [[1, 2], [3, 4]]> : tile<2x2xi16>\n"
                               "    %t0 = store_view_tko weak %a, %v[%c0, %c0] : tile<2x2xi16>, " + pv + ", tile<i32> -> token\n");
  std::vector<Arg> args{Arg::zeros(8)};
  run(program, args);
  expectBits<int16_t>(args[0].as<int16_t>(), {1, 3, 2, 4});
}

// --- strided views ------------------------------------------------------------------

TEST(InterpOpsView, StridedView1D) {
  // Seed 001 §5.6.4 (2): 16 elements, tile 2, traversal stride 3: tile k
  // starts at 3k, the index space is ceil(16/3) = 6, tile 5 is [15, pad].
  // (3): stride 1 over 8 elements overlaps, tile 7 is [7, pad].
  auto load = [](int n, int stride, int index) {
    std::string tvt = "tensor_view<" + std::to_string(n) + "xf32, strides=[1]>";
    std::string sv = "strided_view<tile=(2), traversal_strides=[" + std::to_string(stride) + "], padding_value = zero, " + tvt + ">";
    std::string program = kernel("%in: tile<ptr<f32>>, %out: tile<ptr<f32>>, %shape: tile<ptr<i32>>",
                                 "    %tv = make_tensor_view %in, shape=[" + std::to_string(n) + "], strides=[1] : " + tvt + "\n"
                                 "    %v = make_strided_view %tv : " + sv + "\n"
                                 "    %i = constant <i32: " + std::to_string(index) + "> : tile<i32>\n"
                                 "    %t, %tok = load_view_tko weak %v[%i] : " + sv + ", tile<i32> -> tile<2xf32>, token\n"
                                 "    %d0 = get_index_space_shape %v : " + sv + " -> tile<i32>\n" +
                                     store("%t", "2", "f32") + store("%d0", "", "i32", "%shape"));
    std::vector<Arg> args{Arg::buffer(iotaOf<float>(n)), Arg::zeros(8), Arg::zeros(4)};
    run(program, args);
    std::vector<float> out = args[1].as<float>();
    out.push_back(static_cast<float>(args[2].as<int32_t>()[0]));
    return out;
  };
  expectBits<float>(load(16, 3, 1), {3, 4, 6});
  expectBits<float>(load(16, 3, 5), {15, 0, 6});
  expectBits<float>(load(8, 1, 3), {3, 4, 8});
  expectBits<float>(load(8, 1, 7), {7, 0, 8});
}

TEST(InterpOpsView, StridedView2D) {
  // 4x8 tensor T[r][c] = 8r + c, 2x2 tiles with traversal strides [2, 3]:
  // tile (1, 2) starts at (2, 6): [22, 23, 30, 31]. Index space (2, ceil(8/3) = 3).
  const std::string sv = "strided_view<tile=(2x2), traversal_strides=[2,3], tensor_view<4x8xi32, strides=[8,1]>>";
  std::string program = kernel("%in: tile<ptr<i32>>, %out: tile<ptr<i32>>, %shape: tile<ptr<i32>>",
                               "    %tv = make_tensor_view %in, shape=[4, 8], strides=[8, 1] : tensor_view<4x8xi32, strides=[8,1]>\n"
                               "    %v = make_strided_view %tv : " + sv + "\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %c2 = constant <i32: 2> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c1, %c2] : " + sv + ", tile<i32> -> tile<2x2xi32>, token\n"
                               "    %d0, %d1 = get_index_space_shape %v : " + sv + " -> tile<i32>\n" +
                                   store("%t", "2x2", "i32") + gather("%d", {"%d0", "%d1"}, "i32") +
                                   store("%d", "2", "i32", "%shape"));
  std::vector<Arg> args{Arg::buffer(iotaOf<int32_t>(32)), Arg::zeros(16), Arg::zeros(8)};
  run(program, args);
  expectBits<int32_t>(args[1].as<int32_t>(), {22, 23, 30, 31});
  expectBits<int32_t>(args[2].as<int32_t>(), {2, 3});
}

TEST(InterpOpsView, StridedViewStoreWithDimMap) {
  // 4x4 zeros, 2x2 tile with dim_map=[1, 0] and traversal strides [1, 2]: tile
  // dimension 0 walks tensor columns from 1*index0, dimension 1 walks rows from
  // 2*index1. At [1, 1] element (i, j) lands at T[2 + j][1 + i].
  const std::string sv = "strided_view<tile=(2x2), traversal_strides=[1,2], tensor_view<4x4xf32, strides=[4,1]>, dim_map=[1, 0]>";
  std::string program = kernel("%io: tile<ptr<f32>>",
                               "    %tv = make_tensor_view %io, shape=[4, 4], strides=[4, 1] : tensor_view<4x4xf32, strides=[4,1]>\n"
                               "    %v = make_strided_view %tv : " + sv + "\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %a = constant <f32: [[1.0, 2.0], [3.0, 4.0]]> : tile<2x2xf32>\n"
                               "    %t = store_view_tko weak %a, %v[%c1, %c1] : tile<2x2xf32>, " + sv + ", tile<i32> -> token\n");
  std::vector<Arg> args{Arg::zeros(64)};
  run(program, args);
  // (0,0)->T[2][1], (0,1)->T[3][1], (1,0)->T[2][2], (1,1)->T[3][2].
  expectBits<float>(args[0].as<float>(), {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 2, 4, 0});
}

// --- gather/scatter views ---------------------------------------------------------------

TEST(InterpOpsView, GatherRows) {
  // Seed 001 §5.6.1 (2): the index at sparse_dim is a tile of row indices,
  // rows [5, 1, 7, 3] in that order. The other index is an offset into its
  // dimension, not a tile number: the index space equals the tensor's shape
  // (8x4 here; "!gsv_2d_padded has an index space shape of 128x256"), and
  // example (3) has an index in [241, 255] run past the 256 columns. So
  // column index 1 selects columns 1-2. T[r][c] = 4r + c.
  const std::string gv = "gather_scatter_view<tile=(4x2), tensor_view<8x4xi32, strides=[4,1]>, sparse_dim=0>";
  std::string program = kernel("%in: tile<ptr<i32>>, %out: tile<ptr<i32>>, %shape: tile<ptr<i32>>",
                               "    %tv = make_tensor_view %in, shape=[8, 4], strides=[4, 1] : tensor_view<8x4xi32, strides=[4,1]>\n"
                               "    %v = make_gather_scatter_view %tv : " + gv + "\n"
                               "    %rows = constant <i32: [5, 1, 7, 3]> : tile<4xi32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%rows, %c1] : " + gv + ", tile<4xi32>, tile<i32> -> tile<4x2xi32>, token\n"
                               "    %d0, %d1 = get_index_space_shape %v : " + gv + " -> tile<i32>\n" +
                                   store("%t", "4x2", "i32") + gather("%d", {"%d0", "%d1"}, "i32") +
                                   store("%d", "2", "i32", "%shape"));
  std::vector<Arg> args{Arg::buffer(iotaOf<int32_t>(32)), Arg::zeros(32), Arg::zeros(8)};
  run(program, args);
  expectBits<int32_t>(args[1].as<int32_t>(), {21, 22, 5, 6, 29, 30, 13, 14});
  expectBits<int32_t>(args[2].as<int32_t>(), {8, 4});
}

TEST(InterpOpsView, GatherPadsRowsAndColumnsOutside) {
  // §5.6.1 (3): an out-of-bounds row index yields a row of the padding value;
  // the contiguous dimension may run past the edge too. Rows [9, 0, 2, 8]
  // (9 and 8 are outside 8 rows), columns 3-4 (4 is outside 4 columns).
  const std::string gv = "gather_scatter_view<tile=(4x2), padding_value = nan, tensor_view<8x4xf32, strides=[4,1]>, sparse_dim=0>";
  std::string program = kernel("%in: tile<ptr<f32>>, %out: tile<ptr<f32>>",
                               "    %tv = make_tensor_view %in, shape=[8, 4], strides=[4, 1] : tensor_view<8x4xf32, strides=[4,1]>\n"
                               "    %v = make_gather_scatter_view %tv : " + gv + "\n"
                               "    %rows = constant <i32: [9, 0, 2, 8]> : tile<4xi32>\n"
                               "    %c3 = constant <i32: 3> : tile<i32>\n"
                               "    %t, %tok = load_view_tko weak %v[%rows, %c3] : " + gv + ", tile<4xi32>, tile<i32> -> tile<4x2xf32>, token\n" +
                                   store("%t", "4x2", "f32"));
  std::vector<Arg> args{Arg::buffer(iotaOf<float>(32)), Arg::zeros(32)};
  run(program, args);
  expectBits<float>(args[1].as<float>(), {kNaNF, kNaNF, 3, kNaNF, 11, kNaNF, kNaNF, kNaNF});
}

TEST(InterpOpsView, GatherAlongTheLastDimension) {
  // sparse_dim=1 on a 4x8 tensor (T[r][c] = 8r + c), tile 2x4: the row index 2
  // selects rows 2-3, the column indices [7, 0, 3, 3] pick single columns
  // (repeats allowed for loads).
  const std::string gv = "gather_scatter_view<tile=(2x4), tensor_view<4x8xi32, strides=[8,1]>, sparse_dim=1>";
  std::string program = kernel("%in: tile<ptr<i32>>, %out: tile<ptr<i32>>",
                               "    %tv = make_tensor_view %in, shape=[4, 8], strides=[8, 1] : tensor_view<4x8xi32, strides=[8,1]>\n"
                               "    %v = make_gather_scatter_view %tv : " + gv + "\n"
                               "    %c2 = constant <i32: 2> : tile<i32>\n"
                               "    %cols = constant <i32: [7, 0, 3, 3]> : tile<4xi32>\n"
                               "    %t, %tok = load_view_tko weak %v[%c2, %cols] : " + gv + ", tile<i32>, tile<4xi32> -> tile<2x4xi32>, token\n" +
                                   store("%t", "2x4", "i32"));
  std::vector<Arg> args{Arg::buffer(iotaOf<int32_t>(32)), Arg::zeros(32)};
  run(program, args);
  expectBits<int32_t>(args[1].as<int32_t>(), {23, 16, 19, 19, 31, 24, 27, 27});
}

TEST(InterpOpsView, ScatterRows) {
  // §5.6.1 (5): tile row 0 goes to row 5, row 1 to row 1, row 2 to row 7, row 3
  // to row 3, columns from 0; an out-of-bounds row (9) is masked.
  const std::string gv = "gather_scatter_view<tile=(4x2), tensor_view<8x2xi32, strides=[2,1]>, sparse_dim=0>";
  std::string program = kernel("%io: tile<ptr<i32>>",
                               "    %tv = make_tensor_view %io, shape=[8, 2], strides=[2, 1] : tensor_view<8x2xi32, strides=[2,1]>\n"
                               "    %v = make_gather_scatter_view %tv : " + gv + "\n"
                               "    %rows = constant <i32: [5, 1, 9, 3]> : tile<4xi32>\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %a = constant <i32: [[1, 2], [3, 4], [5, 6], [7, 8]]> : tile<4x2xi32>\n"
                               "    %t = store_view_tko weak %a, %v[%rows, %c0] : tile<4x2xi32>, " + gv + ", tile<4xi32>, tile<i32> -> token\n");
  std::vector<Arg> args{Arg::zeros(64)};
  run(program, args);
  expectBits<int32_t>(args[0].as<int32_t>(), {0, 0, 3, 4, 0, 0, 7, 8, 0, 0, 1, 2, 0, 0, 0, 0});
}

// --- atomic_red_view_tko ----------------------------------------------------------------

TEST(InterpOpsView, AtomicReduceEachMode) {
  // A 2x4 i32 tensor in 2x2 tiles; tile (0, 1) is columns 2-3. Memory
  // T = [[1, -2, 3, -4], [5, -6, 7, -8]], value [[10, -1], [-7, 8]].
  struct Case {
    const char* mode;
    std::vector<int32_t> after;
  };
  const std::vector<Case> cases = {
      {"add", {1, -2, 13, -5, 5, -6, 0, 0}},
      {"max", {1, -2, 10, -1, 5, -6, 7, 8}},
      {"min", {1, -2, 3, -4, 5, -6, -7, -8}},
      {"umax", {1, -2, 10, -1, 5, -6, -7, -8}},  // unsigned: -1 > -4, -7 > 7, -8 > 8
      {"umin", {1, -2, 3, -4, 5, -6, 7, 8}},
      {"and", {1, -2, 3 & 10, -4 & -1, 5, -6, 7 & -7, -8 & 8}},
      {"or", {1, -2, 3 | 10, -4 | -1, 5, -6, 7 | -7, -8 | 8}},
      {"xor", {1, -2, 3 ^ 10, -4 ^ -1, 5, -6, 7 ^ -7, -8 ^ 8}},
  };
  const std::string pv = "partition_view<tile=(2x2), tensor_view<2x4xi32, strides=[4,1]>>";
  for (const Case& c : cases) {
    SCOPED_TRACE(c.mode);
    std::string program = kernel("%io: tile<ptr<i32>>",
                                 "    %tv = make_tensor_view %io, shape=[2, 4], strides=[4, 1] : tensor_view<2x4xi32, strides=[4,1]>\n"
                                 "    %v = make_partition_view %tv : " + pv + "\n"
                                 "    %c0 = constant <i32: 0> : tile<i32>\n"
                                 "    %c1 = constant <i32: 1> : tile<i32>\n"
                                 "    %a = constant <i32: [[10, -1], [-7, 8]]> : tile<2x2xi32>\n"
                                 "    %t = atomic_red_view_tko relaxed device %v[%c0, %c1], " + std::string(c.mode) +
                                     ", %a : tile<2x2xi32>, " + pv + ", tile<i32> -> token\n");
    std::vector<Arg> args{Arg::buffer<int32_t>({1, -2, 3, -4, 5, -6, 7, -8})};
    run(program, args);
    expectBits<int32_t>(args[0].as<int32_t>(), c.after);
  }
}

TEST(InterpOpsView, AtomicReduceAddfAndTheEdge) {
  // f32 addf into a 3x3 tensor through 2x2 tiles: tile (1, 1) adds only to
  // T[2][2]; the other three lanes lie outside and are masked.
  const std::string pv = "partition_view<tile=(2x2), tensor_view<3x3xf32, strides=[3,1]>>";
  std::string program = kernel("%io: tile<ptr<f32>>",
                               "    %tv = make_tensor_view %io, shape=[3, 3], strides=[3, 1] : tensor_view<3x3xf32, strides=[3,1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %c1 = constant <i32: 1> : tile<i32>\n"
                               "    %a = constant <f32: 0.5> : tile<2x2xf32>\n"
                               "    %t0 = atomic_red_view_tko relaxed device %v[%c1, %c1], addf, %a : tile<2x2xf32>, " + pv + ", tile<i32> -> token\n"
                               "    %t1 = atomic_red_view_tko relaxed tl_blk %v[%c0, %c0], addf, %a token=%t0 : tile<2x2xf32>, " + pv + ", tile<i32> -> token\n");
  std::vector<Arg> args{Arg::buffer(iotaOf<float>(9))};
  run(program, args);
  expectBits<float>(args[0].as<float>(), {0.5f, 1.5f, 2, 3.5f, 4.5f, 5, 6, 7, 8.5f});
}

TEST(InterpOpsView, AtomicReduceAddfBf16AndI64Strided) {
  // bf16: 1 + 2^-8 (0x3B80) ties back to 1 (0x3F80); 2 + 0.5 = 2.5 (0x4020).
  const std::string pv = "partition_view<tile=(2), tensor_view<2xbf16, strides=[1]>>";
  std::string program = kernel("%io: tile<ptr<bf16>>",
                               "    %tv = make_tensor_view %io, shape=[2], strides=[1] : tensor_view<2xbf16, strides=[1]>\n"
                               "    %v = make_partition_view %tv : " + pv + "\n"
                               "    %c0 = constant <i32: 0> : tile<i32>\n"
                               "    %a = constant <bf16: [0x3B80, 0.5]> : tile<2xbf16>\n"
                               "    %t = atomic_red_view_tko relaxed device %v[%c0], addf, %a : tile<2xbf16>, " + pv + ", tile<i32> -> token\n");
  std::vector<Arg> args{Arg::buffer<uint16_t>({0x3F80, 0x4000})};
  run(program, args);
  expectHalf(args[0].as<uint16_t>(), {0x3F80, 0x4020}, true);
  // i64 through a strided view with overlapping tiles (stride 1): tile 1 is elements 1-2.
  const std::string sv = "strided_view<tile=(2), traversal_strides=[1], tensor_view<4xi64, strides=[1]>>";
  std::string s = kernel("%io: tile<ptr<i64>>",
                         "    %tv = make_tensor_view %io, shape=[4], strides=[1] : tensor_view<4xi64, strides=[1]>\n"
                         "    %v = make_strided_view %tv : " + sv + "\n"
                         "    %c1 = constant <i32: 1> : tile<i32>\n"
                         "    %a = constant <i64: [4294967296, -1]> : tile<2xi64>\n"
                         "    %t = atomic_red_view_tko relaxed device %v[%c1], add, %a : tile<2xi64>, " + sv + ", tile<i32> -> token\n");
  args = {Arg::buffer<int64_t>({1, 2, 3, 4})};
  run(s, args);
  expectBits<int64_t>(args[0].as<int64_t>(), {1, 4294967298, 2, 4});
}

}  // namespace
}  // namespace tilesight::testing
