// The sanitizer's shadow memory: accesses recorded as key ranges that split
// where accesses differ, elements of different widths over one buffer,
// strided runs with gaps, and which same-op overlaps are findings.
#include <gtest/gtest.h>

#include "interp_test_util.h"

namespace tilesight::testing {
namespace {

std::string findingsText(const SpecRun& r) {
  std::string s;
  for (const Diagnostic& d : r.findings) s += d.message + " [" + d.code + "]\n";
  return s;
}

// Tile block b stores 8 elements from element 4b: blocks 0 and 1 overlap in
// elements 4..7 (a strided view whose step is half its tile).
TEST(Sanitizer, RangesSplitWhereTwoBlocksOverlap) {
  std::string text = kernel("%p: tile<ptr<f32>>", R"(
    %tv = make_tensor_view %p, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
    %sv = make_strided_view %tv : strided_view<tile=(8), traversal_strides=[4], tensor_view<16xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x = constant <f32: 1.0> : tile<8xf32>
    %t = store_view_tko weak %x, %sv[%bx] : tile<8xf32>, strided_view<tile=(8), traversal_strides=[4], tensor_view<16xf32, strides=[1]>>, tile<i32> -> token)");
  SpecRun r = runWithSpecs(text, {"p=zeros:16:f32"}, {2, 1, 1}, 1, true);
  ASSERT_TRUE(r.ok) << r.problem;
  ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
  EXPECT_NE(findingsText(r).find("in tile block (1, 0, 0) (lane [0]) writes %p + 16 bytes, which store_view_tko at "
                                 "line 8 in tile block (0, 0, 0) (lane [4]) also accesses"),
            std::string::npos)
      << findingsText(r);
  SpecRun apart = runWithSpecs(text, {"p=zeros:16:f32"}, {1, 1, 1}, 1, true);
  EXPECT_TRUE(apart.findings.empty()) << findingsText(apart);
}

// Block b writes column `col` of a row-major 4x4 matrix: runs of one
// element with gaps between them. Different columns do not meet; the same
// column from two blocks does.
TEST(Sanitizer, StridedRunsMeetOnlyWhereTheirElementsDo) {
  auto text = [](const char* col) {
    return kernel("%p: tile<ptr<f32>>", std::string(R"(
    %tv = make_tensor_view %p, shape = [4, 4], strides = [4, 1] : tensor_view<4x4xf32, strides=[4,1]>
    %pv = make_partition_view %tv : partition_view<tile=(4x1), tensor_view<4x4xf32, strides=[4,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %x = constant <f32: 1.0> : tile<4x1xf32>
    %t = store_view_tko weak %x, %pv[%c0, )") + col + R"(] : tile<4x1xf32>, partition_view<tile=(4x1), tensor_view<4x4xf32, strides=[4,1]>>, tile<i32> -> token)");
  };
  SpecRun own = runWithSpecs(text("%bx"), {"p=zeros:4x4:f32"}, {4, 1, 1}, 1, true);
  ASSERT_TRUE(own.ok) << own.problem;
  EXPECT_TRUE(own.findings.empty()) << findingsText(own);
  SpecRun same = runWithSpecs(text("%c0"), {"p=zeros:4x4:f32"}, {2, 1, 1}, 1, true);
  ASSERT_EQ(same.findings.size(), 1u) << findingsText(same);
  EXPECT_EQ(same.findings[0].code, "race.unordered");
}

// Block 0 writes f32 element 1; block 1 reads the bytes of elements 0..3 as
// i8 (one i8 per byte): the read of bytes 4..7 meets the write, the read
// of other bytes does not.
TEST(Sanitizer, ElementsOfDifferentWidthsMeetByteByByte) {
  auto text = [](const char* start) {
    return kernel("%p: tile<ptr<f32>>", std::string(R"(
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %is0 = cmpi equal %bx, %c0, signed : tile<i32> -> tile<i1>
    %q = ptr_to_ptr %p : tile<ptr<f32>> -> tile<ptr<i8>>
    %t = if %is0 -> (token) {
      %e1 = offset %p, %c1 : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
      %v = constant <f32: 2.0> : tile<f32>
      %ts = store_ptr_tko weak %e1, %v : tile<ptr<f32>>, tile<f32> -> token
      yield %ts : token
    } else {
      %s = constant <i32: )") + start + R"(> : tile<i32>
      %q0 = offset %q, %s : tile<ptr<i8>>, tile<i32> -> tile<ptr<i8>>
      %qs = reshape %q0 : tile<ptr<i8>> -> tile<1xptr<i8>>
      %qb = broadcast %qs : tile<1xptr<i8>> -> tile<4xptr<i8>>
      %io = iota : tile<4xi32>
      %qi = offset %qb, %io : tile<4xptr<i8>>, tile<4xi32> -> tile<4xptr<i8>>
      %x, %tl = load_ptr_tko weak %qi : tile<4xptr<i8>> -> tile<4xi8>, token
      yield %tl : token
    }
)");
  };
  SpecRun meets = runWithSpecs(text("2"), {"p=zeros:4:f32"}, {2, 1, 1}, 1, true);
  ASSERT_TRUE(meets.ok) << meets.problem;
  ASSERT_EQ(meets.findings.size(), 1u) << findingsText(meets);
  EXPECT_NE(findingsText(meets).find("(lane [2]) reads %p + 4 bytes"), std::string::npos) << findingsText(meets);
  SpecRun apart = runWithSpecs(text("8"), {"p=zeros:4:f32"}, {2, 1, 1}, 1, true);
  ASSERT_TRUE(apart.ok) << apart.problem;
  EXPECT_TRUE(apart.findings.empty()) << findingsText(apart);
}

// Lanes of one atomic op at one address are atomic updates, not an
// overlapping store: four lanes add 1 to one counter.
TEST(Sanitizer, LanesOfOneAtomicAtOneAddressAreNotAnOverlap) {
  std::string text = kernel("%p: tile<ptr<i32>>", R"(
    %ps = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %ps : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %one = constant <i32: 1> : tile<4xi32>
    %old, %t = atomic_rmw_tko relaxed device %pb, add, %one : tile<4xptr<i32>>, tile<4xi32> -> tile<4xi32>, token)");
  SpecRun r = runWithSpecs(text, {"p=zeros:1:i32"}, {1, 1, 1}, 1, true);
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_TRUE(r.findings.empty()) << findingsText(r);
  EXPECT_EQ(r.get<int32_t>(r.after, "p")[0], 4);
}

// A weak load, a CAS that waits for it, an xchg that waits for nothing: the
// CAS's write replaces the load in shadow memory, but the xchg, atomic like
// the CAS, still races with the load.
TEST(Sanitizer, AWeakAccessBehindAnAtomicStillMeetsTheNextAtomic) {
  std::string text = kernel("%x: tile<ptr<i32>>", R"(
    %t0 = make_token : token
    %v, %t1 = load_ptr_tko weak %x token = %t0 : tile<ptr<i32>> -> tile<i32>, token
    %c, %t2 = atomic_cas_tko relaxed device %x, %v, %v token = %t1 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %o, %t3 = atomic_rmw_tko relaxed device %x, xchg, %v token = %t0 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
)");
  SpecRun r = runWithSpecs(text, {"x=zeros:1:i32"}, {1, 1, 1}, 1, true);
  ASSERT_TRUE(r.ok) << r.problem;
  ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
  EXPECT_EQ(r.findings[0].code, "race.unordered");
  EXPECT_NE(findingsText(r).find("atomic_rmw_tko at line 7"), std::string::npos) << findingsText(r);
  EXPECT_NE(findingsText(r).find("load_ptr_tko at line 5"), std::string::npos) << findingsText(r);
  std::string ordered = text;
  ordered.replace(ordered.find("xchg, %v token = %t0"), 20, "xchg, %v token = %t2");
  SpecRun fine = runWithSpecs(ordered, {"x=zeros:1:i32"}, {1, 1, 1}, 1, true);
  EXPECT_TRUE(fine.findings.empty()) << findingsText(fine);
}

// A tile of 8 over a tensor of 6 without padding_value: lanes 6 and 7 are
// unspecified. `use` says what happens to the loaded %x before %out is
// stored to %q.
SpecRun partialLoad(const std::string& use, const char* padding = "", const char* masked = "") {
  std::string view =
      std::string("partition_view<") + masked + "tile=(8), " + padding + "tensor_view<6xf32, strides=[1]>>";
  std::string text = kernel("%p: tile<ptr<f32>>, %q: tile<ptr<f32>>", R"(
    %tv = make_tensor_view %p, shape = [6], strides = [1] : tensor_view<6xf32, strides=[1]>
    %pv = make_partition_view %tv : )" + view + R"(
    %c0 = constant <i32: 0> : tile<i32>
    %x, %t = load_view_tko weak %pv[%c0] : )" + view + R"(, tile<i32> -> tile<8xf32>, token
)" + use);
  return runWithSpecs(text, {"p=rand:6:f32", "q=zeros:8:f32"}, {1, 1, 1}, 1, true);
}

const char* kSumToQ = R"(
    %s = reduce %x dim=0 identities=[0.0 : f32] : tile<8xf32> -> tile<f32>
    (%a: tile<f32>, %b: tile<f32>) {
      %c = addf %a, %b : tile<f32>
      yield %c : tile<f32>
    }
    %t2 = store_ptr_tko weak %q, %s : tile<ptr<f32>>, tile<f32> -> token)";

TEST(SanitizerUnspecified, ASumOverThePartialDimensionReachesTheStore) {
  SpecRun r = partialLoad(kSumToQ);
  ASSERT_TRUE(r.ok) << r.problem;
  ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
  EXPECT_EQ(r.findings[0].code, "bounds.partial-tile");
  EXPECT_NE(findingsText(r).find("load_view_tko at line 7 reads past the tensor's edge through a view without "
                                 "padding_value, and an unspecified value it read reaches store_ptr_tko at line 14 "
                                 "as the stored value (lane [])"),
            std::string::npos)
      << findingsText(r);
  ASSERT_EQ(r.findings[0].notes.size(), 1u);
}

TEST(SanitizerUnspecified, PaddingMakesThemSpecified) {
  SpecRun r = partialLoad(kSumToQ, "padding_value = zero, ");
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_TRUE(r.findings.empty()) << findingsText(r);
}

// A decoder's `masked` view pads with a value the text does not give: the
// padded lanes are unspecified for a run, and the finding says why.
TEST(SanitizerUnspecified, AMaskedViewsPaddingIsUnknown) {
  SpecRun r = partialLoad(kSumToQ, "", "masked ");
  ASSERT_TRUE(r.ok) << r.problem;
  ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
  EXPECT_NE(findingsText(r).find("reads past the tensor's edge through a `masked` view, whose padding value the text "
                                 "does not give"),
            std::string::npos)
      << findingsText(r);
}

// Stored back through the same view at the same index, lanes 6 and 7 are
// masked at the tensor's edge again; lanes 0..5 are not unspecified.
TEST(SanitizerUnspecified, AStoreOfTheSameTileMasksThem) {
  SpecRun r = partialLoad(R"(
    %y = mulf %x, %x : tile<8xf32>
    %t2 = store_view_tko weak %y, %pv[%c0] token = %t : tile<8xf32>, partition_view<tile=(8), tensor_view<6xf32, strides=[1]>>, tile<i32> -> token)");
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_TRUE(r.findings.empty()) << findingsText(r);
}

// select(lane < 6, x, 0) keeps only specified lanes: its sum is specified;
// the sum of x itself, after a reshape round trip, is not.
TEST(SanitizerUnspecified, ASelectOfTheSpecifiedLanesClearsThem) {
  auto sumOf = [](const char* v) {
    return partialLoad(std::string(R"(
    %io = iota : tile<8xi32>
    %c6 = constant <i32: 6> : tile<8xi32>
    %in = cmpi less_than %io, %c6, signed : tile<8xi32> -> tile<8xi1>
    %zero = constant <f32: 0.0> : tile<8xf32>
    %x2 = reshape %x : tile<8xf32> -> tile<1x8xf32>
    %x3 = reshape %x2 : tile<1x8xf32> -> tile<8xf32>
    %m = select %in, %x3, %zero : tile<8xi1>, tile<8xf32>
    %s = reduce )") + v + R"( dim=0 identities=[0.0 : f32] : tile<8xf32> -> tile<f32>
    (%a: tile<f32>, %b: tile<f32>) {
      %c = addf %a, %b : tile<f32>
      yield %c : tile<f32>
    }
    %t2 = store_ptr_tko weak %q, %s : tile<ptr<f32>>, tile<f32> -> token)");
  };
  SpecRun selected = sumOf("%m");
  ASSERT_TRUE(selected.ok) << selected.problem;
  EXPECT_TRUE(selected.findings.empty()) << findingsText(selected);
  SpecRun all = sumOf("%x3");
  ASSERT_TRUE(all.ok) << all.problem;
  EXPECT_EQ(all.findings.size(), 1u) << findingsText(all);
}

// An unspecified lane used as a pointer offset is observed at the load
// through it; lane 5 (specified) is not.
TEST(SanitizerUnspecified, AnUnspecifiedOffsetIsObservedAtTheAccess) {
  auto use = [](const char* k) {
    return std::string(R"(
    %i = ftoi %x signed : tile<8xf32> -> tile<8xi32>
    %z = constant <i32: 0> : tile<8xi32>
    %i0 = muli %i, %z : tile<8xi32>
    %qs = reshape %q : tile<ptr<f32>> -> tile<1xptr<f32>>
    %qb = broadcast %qs : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %qi = offset %qb, %i0 : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %e = extract %qi[%c)") + k + R"(] : tile<8xptr<f32>> -> tile<1xptr<f32>>
    %v, %t2 = load_ptr_tko weak %e : tile<1xptr<f32>> -> tile<1xf32>, token)";
  };
  SpecRun observed = partialLoad(std::string("    %c7 = constant <i32: 7> : tile<i32>") + use("7"));
  ASSERT_TRUE(observed.ok) << observed.problem;
  ASSERT_EQ(observed.findings.size(), 1u) << findingsText(observed);
  EXPECT_NE(findingsText(observed).find("reaches load_ptr_tko at line 16 as a pointer (lane [0])"), std::string::npos)
      << findingsText(observed);
  SpecRun fine = partialLoad(std::string("    %c5 = constant <i32: 5> : tile<i32>") + use("5"));
  ASSERT_TRUE(fine.ok) << fine.problem;
  EXPECT_TRUE(fine.findings.empty()) << findingsText(fine);
}

// Two partial loads: %a's unspecified lanes reach every lane of %c through
// its sum, %b's stay in lanes 100..127, which the masked store drops. The
// finding names %a (line 9), whichever operand of addf comes first.
TEST(SanitizerUnspecified, EachLaneNamesTheLoadItsValueCameFrom) {
  auto program = [](const char* sum) {
    const std::string v = "partition_view<tile=(128), tensor_view<100xf32, strides=[1]>>";
    return kernel("%p: tile<ptr<f32>>, %q: tile<ptr<f32>>, %o: tile<ptr<f32>>", R"(
    %c0 = constant <i32: 0> : tile<i32>
    %tp = make_tensor_view %p, shape = [100], strides = [1] : tensor_view<100xf32, strides=[1]>
    %vp = make_partition_view %tp : )" + v + R"(
    %tq = make_tensor_view %q, shape = [100], strides = [1] : tensor_view<100xf32, strides=[1]>
    %vq = make_partition_view %tq : )" + v + R"(
    %a, %ta = load_view_tko weak %vp[%c0] : )" + v + R"(, tile<i32> -> tile<128xf32>, token
    %b, %tb = load_view_tko weak %vq[%c0] : )" + v + R"(, tile<i32> -> tile<128xf32>, token
    %s = reduce %a dim=0 identities=[0.0 : f32] : tile<128xf32> -> tile<f32>
    (%x: tile<f32>, %y: tile<f32>) {
      %z = addf %x, %y : tile<f32>
      yield %z : tile<f32>
    }
    %s1 = reshape %s : tile<f32> -> tile<1xf32>
    %sb = broadcast %s1 : tile<1xf32> -> tile<128xf32>
    %c = addf )" + sum + R"( : tile<128xf32>
    %to = make_tensor_view %o, shape = [100], strides = [1] : tensor_view<100xf32, strides=[1]>
    %vo = make_partition_view %to : )" + v + R"(
    %t = store_view_tko weak %c, %vo[%c0] : tile<128xf32>, )" + v + R"(, tile<i32> -> token)");
  };
  for (const char* sum : {"%b, %sb", "%sb, %b"}) {
    SpecRun r = runWithSpecs(program(sum), {"p=rand:100:f32", "q=rand:100:f32:1", "o=zeros:100:f32"}, {1, 1, 1}, 1, true);
    ASSERT_TRUE(r.ok) << r.problem;
    ASSERT_EQ(r.findings.size(), 1u) << sum << "\n" << findingsText(r);
    EXPECT_NE(findingsText(r).find("load_view_tko at line 9 reads past"), std::string::npos) << findingsText(r);
  }
}

}  // namespace
}  // namespace tilesight::testing
