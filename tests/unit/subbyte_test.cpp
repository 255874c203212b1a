// subbyte.align: tensor_views, views and pointer accesses of f4E2M1FN and i4
// data must cover whole bytes (seed 001 §5.2, §5.6.5).
#include <gtest/gtest.h>

#include "test_util.h"

namespace tilesight {
namespace {

struct Result {
  std::vector<Diagnostic> subbyte;  // subbyte.align only
  std::vector<Diagnostic> others;
  std::string text;

  std::string at(const Diagnostic& d) const {
    return text.substr(d.range.begin, d.range.end - d.range.begin);
  }
};

Result check(const std::string& args, const std::string& body) {
  Result r;
  r.text = "cuda_tile.module @m {\n  testing$func @f(" + args + ") {\n" + body + "\n    return\n  }\n}\n";
  for (const Diagnostic& d : analyze(r.text).diagnostics)
    (d.code == "subbyte.align" ? r.subbyte : r.others).push_back(d);
  return r;
}

// make_tensor_view with shape and strides as written ("64, 64", "128, 2").
std::string tensorView(const std::string& shape, const std::string& strides,
                       const std::string& elem = "f4E2M1FN") {
  auto typeText = [](std::string v, const char* sep) {
    for (size_t i = v.find(", "); i != std::string::npos; i = v.find(", ")) v.replace(i, 2, sep);
    return v;
  };
  return "    %tv = make_tensor_view %p, shape = [" + shape + "], strides = [" + strides +
         "] : tensor_view<" + typeText(shape, "x") + "x" + elem + ", strides=[" + typeText(strides, ",") +
         "]>";
}

// A 16-lane f4E2M1FN load through %q = %p + offsets, the offsets built by `offsets`.
Result pointerLoad(const std::string& offsets, const std::string& args = "") {
  return check(
      "%p: tile<ptr<f4E2M1FN>>" + args,
      "    %r = reshape %p : tile<ptr<f4E2M1FN>> -> tile<1xptr<f4E2M1FN>>\n"
      "    %b = broadcast %r : tile<1xptr<f4E2M1FN>> -> tile<16xptr<f4E2M1FN>>\n"
      "    %i = iota : tile<16xi32>\n" +
          offsets +
          "\n    %q = offset %b, %o : tile<16xptr<f4E2M1FN>>, tile<16xi32> -> tile<16xptr<f4E2M1FN>>\n"
          "    %x, %t = load_ptr_tko weak %q : tile<16xptr<f4E2M1FN>> -> tile<16xf4E2M1FN>, token");
}

TEST(Subbyte, TensorViewWithoutUnitStride) {
  Result r = check("%p: tile<ptr<f4E2M1FN>>", tensorView("64, 64", "128, 2"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.subbyte.size(), 1u);
  EXPECT_EQ(r.subbyte[0].severity, Severity::Error);
  EXPECT_EQ(
      r.subbyte[0].message,
      "f4E2M1FN elements are packed 2 per byte, so the tensor_view needs a dimension of unit stride, but its "
      "strides are [128, 2]");
  EXPECT_EQ(r.at(r.subbyte[0]), "[128, 2]");
  EXPECT_TRUE(check("%p: tile<ptr<f4E2M1FN>>", tensorView("64, 64", "1, 64")).subbyte.empty());
}

TEST(Subbyte, TensorViewExtentsAndPitches) {
  Result odd = check("%p: tile<ptr<f4E2M1FN>>", tensorView("64, 63", "64, 1"));
  ASSERT_EQ(odd.subbyte.size(), 1u);
  EXPECT_EQ(
      odd.subbyte[0].message,
      "the unit-stride dimension 1 of the f4E2M1FN tensor_view (shape [64, 63], strides [64, 1]) has 63 "
      "elements, not a multiple of 2: its last byte would be split");
  Result pitch = check("%p: tile<ptr<f4E2M1FN>>", tensorView("64, 64", "65, 1"));
  ASSERT_EQ(pitch.subbyte.size(), 1u);
  EXPECT_NE(
      pitch.subbyte[0].message.find("dimension 0 of the f4E2M1FN tensor_view steps by 65 elements (strides "
                                    "[65, 1]), so its index 1 starts inside a byte"),
      std::string::npos);
  EXPECT_TRUE(check("%p: tile<ptr<f4E2M1FN>>", tensorView("64, 64", "66, 1")).subbyte.empty());
  // A single row may have any pitch; other element types are not packed.
  EXPECT_TRUE(check("%p: tile<ptr<f4E2M1FN>>", tensorView("1, 64", "65, 1")).subbyte.empty());
  EXPECT_TRUE(check("%p: tile<ptr<f8E4M3FN>>", tensorView("64, 63", "128, 2", "f8E4M3FN")).subbyte.empty());
}

TEST(Subbyte, DynamicExtentsAreNotReported) {
  Result r = check("%p: tile<ptr<f4E2M1FN>>, %n: tile<i64>",
                   "    %tv = make_tensor_view %p, shape = [%n, %n], strides = [%n, 1] : tile<i64> -> "
                   "tensor_view<?x?xf4E2M1FN, strides=[?,1]>");
  EXPECT_TRUE(r.others.empty()) << r.others[0].message;
  EXPECT_TRUE(r.subbyte.empty());
}

TEST(Subbyte, ViewTilesAlongThePackedDimension) {
  std::string tv = "tensor_view<64x64xf4E2M1FN, strides=[64,1]>";
  Result r = check("%p: tile<ptr<f4E2M1FN>>",
                   tensorView("64, 64", "64, 1") +
                       "\n    %w = make_partition_view %tv : partition_view<tile=(1x64), " + tv +
                       ", dim_map=[1, 0]>\n    %s = make_strided_view %tv : strided_view<tile=(8x8), " +
                       "traversal_strides=[8, 3], " + tv + ">\n    %ok = make_partition_view %tv : " +
                       "partition_view<tile=(64x1), " + tv + ", dim_map=[1, 0]>");
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.subbyte.size(), 2u);
  EXPECT_EQ(
      r.subbyte[0].message,
      "the view's tile (1x64) has 1 element along the tensor_view's unit-stride dimension 1 (dim_map [1, 0] "
      "sends tile dimension 0 there), not a multiple of 2: each tile would split the bytes of the packed "
      "f4E2M1FN data");
  EXPECT_EQ(r.at(r.subbyte[0]), "make_partition_view");
  EXPECT_EQ(r.subbyte[1].message,
            "the strided_view's tiles start every 3 elements along the tensor_view's unit-stride dimension 1 "
            "(traversal strides [8, 3]), so tile 1 starts inside a byte of the packed f4E2M1FN data");
}

TEST(Subbyte, I4ArgumentsAreCheckedWhereDeclared) {
  Result r = check(
      "%a: tensor_view<64xi4, strides=[2]>, %b: partition_view<tile=(4x1), tensor_view<16x16xi4, "
      "strides=[16,1]>>",
      "");
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.subbyte.size(), 2u);
  EXPECT_EQ(r.at(r.subbyte[0]), "%a");
  EXPECT_NE(r.subbyte[0].message.find("i4 elements are packed 2 per byte"), std::string::npos);
  EXPECT_EQ(r.at(r.subbyte[1]), "%b");
  EXPECT_NE(r.subbyte[1].message.find("the view's tile (4x1) has 1 element"), std::string::npos);
}

TEST(Subbyte, PointerOffsets) {
  Result two = pointerLoad("    %o = addi %i, %i : tile<16xi32>");  // 2 * iota: no two lanes share a byte
  ASSERT_TRUE(two.others.empty()) << two.others[0].message;
  ASSERT_EQ(two.subbyte.size(), 1u);
  EXPECT_NE(
      two.subbyte[0].message.find("the pointer tile's element strides are [2]: no dimension steps by one "
                                  "element, so no two elements share a byte"),
      std::string::npos);
  ASSERT_EQ(two.subbyte[0].notes.size(), 1u);
  EXPECT_EQ(two.subbyte[0].notes[0].message, "the pointer tile is built here");
  EXPECT_EQ(two.at(two.subbyte[0]), "%q");

  Result odd = pointerLoad("    %c = constant <i32: 3> : tile<16xi32>\n    %o = addi %i, %c : tile<16xi32>");
  ASSERT_EQ(odd.subbyte.size(), 1u);
  EXPECT_NE(
      odd.subbyte[0].message.find("the offset of element 0 from %p is 3, odd, so every pair straddles two "
                                  "bytes"),
      std::string::npos);
  EXPECT_TRUE(pointerLoad("    %o = iota : tile<16xi32>").subbyte.empty());
}

TEST(Subbyte, RunTimeOffsetsNeedAProof) {
  std::string unknown =
      "    %kr = reshape %k : tile<i32> -> tile<1xi32>\n    %kb = broadcast %kr : tile<1xi32> -> "
      "tile<16xi32>\n"
      "    %o = addi %i, %kb overflow<no_signed_wrap> : tile<16xi32>";
  Result r = pointerLoad(unknown, ", %k: tile<i32>");
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.subbyte.size(), 1u);
  EXPECT_NE(
      r.subbyte[0].message.find("contiguity cannot be proved: the offset of element 0 from %p is not known "
                                "to be even (assume div_by<2> on it would say so)"),
      std::string::npos);
  std::string assumed = unknown;
  assumed.replace(assumed.find("reshape %k"), 10, "reshape %e");
  assumed = "    %e = assume div_by<2>, %k : tile<i32>\n" + assumed;
  EXPECT_TRUE(pointerLoad(assumed, ", %k: tile<i32>").subbyte.empty());
}

TEST(Subbyte, ConstantOffsetsInPairs) {
  auto load = [](const std::string& offsets) {
    return check("%p: tile<ptr<f4E2M1FN>>",
                 "    %r = reshape %p : tile<ptr<f4E2M1FN>> -> tile<1xptr<f4E2M1FN>>\n"
                 "    %b = broadcast %r : tile<1xptr<f4E2M1FN>> -> tile<4xptr<f4E2M1FN>>\n"
                 "    %c = constant <i32: " +
                     offsets +
                     "> : tile<4xi32>\n"
                     "    %q = offset %b, %c : tile<4xptr<f4E2M1FN>>, tile<4xi32> -> tile<4xptr<f4E2M1FN>>\n"
                     "    %x, %t = load_ptr_tko weak %q : tile<4xptr<f4E2M1FN>> -> tile<4xf4E2M1FN>, token");
  };
  Result bad = load("[0, 1, 5, 6]");
  ASSERT_EQ(bad.subbyte.size(), 1u);
  EXPECT_NE(
      bad.subbyte[0].message.find("positions 2 and 3 of the offsets hold 5 and 6, not a pair (2k, 2k + 1)"),
      std::string::npos);
  EXPECT_TRUE(load("[0, 1, 4, 5]").subbyte.empty());
  EXPECT_TRUE(load("[6, 7, 0, 1]").subbyte.empty());
}

TEST(Subbyte, TypeErrorsAreLeftToTheVerifier) {
  // A zero stride is a type error; ptr<i4> too.
  Result zero = check("%p: tile<ptr<f4E2M1FN>>", tensorView("64, 64", "0, 2"));
  EXPECT_FALSE(zero.others.empty());
  EXPECT_TRUE(zero.subbyte.empty());
  Result i4 = check("%p: tile<16xptr<i4>>",
                    "    %x, %t = load_ptr_tko weak %p : tile<16xptr<i4>> -> tile<16xi4>, token");
  EXPECT_FALSE(i4.others.empty());
  EXPECT_TRUE(i4.subbyte.empty());
}

}  // namespace
}  // namespace tilesight
