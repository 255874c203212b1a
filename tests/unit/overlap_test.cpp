// layout.overlap: stores that write one address twice, through views (the
// tensor_view layout restricted to one tile), gather/scatter indices and
// pointer tiles; the severity policy for orderings, masks and atomics.
#include <gtest/gtest.h>

#include <chrono>

#include "test_util.h"

namespace tilesight {
namespace {

// A testing$func with a pointer %p and the given extra arguments.
std::string func(const std::string& args, const std::string& body) {
  return "cuda_tile.module @m {\n  testing$func @f(%p: tile<ptr<f32>>" + args + ") {\n" + body +
         "\n    return\n  }\n}\n";
}

struct Result {
  std::vector<Diagnostic> overlap;  // layout.overlap only
  std::vector<Diagnostic> others;   // anything else (the programs should verify)
  std::string text;

  uint32_t line(uint32_t offset) const { return SourceText{text}.lineCol(offset).line + 1; }
};

Result check(const std::string& text, const CheckOptions& checks = {}) {
  AnalyzeOptions o;
  o.checks = checks;
  Analysis a = analyze(text, o);
  Result r;
  r.text = text;
  for (const Diagnostic& d : a.diagnostics) (d.code == "layout.overlap" ? r.overlap : r.others).push_back(d);
  return r;
}

std::string viewStore(const std::string& strides, const std::string& tile, const std::string& ordering,
                      const std::string& shape = "64x64", const std::string& written = "[64, 64]",
                      const std::string& dimMap = "") {
  std::string tv = "tensor_view<" + shape + "xf32, strides=[" + strides + "]>";
  std::string pv = "partition_view<tile=(" + tile + "), " + tv + dimMap + ">";
  std::string sp = strides;
  return func(", %x: tile<" + tile + "xf32>",
              "    %tv = make_tensor_view %p, shape = " + written + ", strides = [" +
                  sp.replace(sp.find(','), 1, ", ") + "] : " + tv + "\n    %v = make_partition_view %tv : " +
                  pv + "\n    %c0 = constant <i32: 0> : tile<i32>\n    %t = store_view_tko " + ordering +
                  " %x, %v[%c0, %c0] : tile<" + tile + "xf32>, " + pv + ", tile<i32> -> token");
}

// A 1-d store through %q, built by `build` from %p; %x holds the values.
std::string pointerStore(const std::string& build, int n, const std::string& tail = "",
                         const std::string& op = "store_ptr_tko weak %q, %x") {
  std::string t = std::to_string(n);
  return func(", %x: tile<" + t + "xf32>, %n: tile<i32>",
              "    %r = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
              "    %b = broadcast %r : tile<1xptr<f32>> -> tile<" +
                  t + "xptr<f32>>\n" + build + "\n    %t = " + op + tail);
}

TEST(Overlap, ViewTileWiderThanTheRowPitchIsAWeakRace) {
  Result r = check(viewStore("32,1", "4x64", "weak"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  const Diagnostic& d = r.overlap[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(
      d.message,
      "store_view_tko writes elements (0, 32) and (1, 0) of its 4x64 tile to one address (element 32 from "
      "the "
      "tile's start): the tensor_view's strides [32, 1] map both there; a weak store that writes one address "
      "twice races with itself (memory model: internal overlap in the destination tile)");
  EXPECT_EQ(r.line(d.range.begin), 6u);
  EXPECT_EQ(r.text.substr(d.range.begin, d.range.end - d.range.begin), "%v");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].message, "the tensor_view gets strides [32, 1] here");
  EXPECT_EQ(r.text.substr(d.notes[0].range.begin, d.notes[0].range.end - d.notes[0].range.begin), "[32, 1]");
}

TEST(Overlap, ScopedStoreThroughRepeatsIsAWarning) {
  Result r = check(viewStore("1,1", "16x16", "relaxed device"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_EQ(r.overlap[0].severity, Severity::Warning);
  EXPECT_NE(r.overlap[0].message.find(
                "elements (1, 0) and (0, 1) of its 16x16 tile to one address (element 1 from"),
            std::string::npos);
  EXPECT_NE(r.overlap[0].message.find("which of the two values remains is unspecified"), std::string::npos);
}

TEST(Overlap, InjectiveTilesOfAnOverlappingTensorAreFine) {
  // Rows 16 apart, but a tile 16 wide never reaches the next row.
  Result r = check(viewStore("16,1", "4x16", "weak", "4x64", "[4, 64]"));
  EXPECT_TRUE(r.others.empty());
  EXPECT_TRUE(r.overlap.empty());
  EXPECT_TRUE(check(viewStore("64,1", "4x64", "weak")).overlap.empty());
}

TEST(Overlap, DimMapIsFollowedAndNamed) {
  Result r = check(viewStore("16,1", "32x4", "weak", "4x64", "[4, 64]", ", dim_map=[1, 0]"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_NE(r.overlap[0].message.find(
                "elements (16, 0) and (0, 1) of its 32x4 tile to one address (element 16 from"),
            std::string::npos);
  EXPECT_NE(r.overlap[0].message.find("(tile dimensions walk tensor dimensions [1, 0])"), std::string::npos);
  // The same tile shape along the rows: 32 rows of a 4-row tensor are cut to 4.
  EXPECT_TRUE(
      check(viewStore("16,1", "16x4", "weak", "4x64", "[4, 64]", ", dim_map=[1, 0]")).overlap.empty());
}

TEST(Overlap, TilePartsPastTheTensorEdgeAreMasked) {
  // A 4x64 tile on a 1x64 tensor: rows 1..3 are never written.
  EXPECT_TRUE(check(viewStore("32,1", "4x64", "weak", "1x64", "[1, 64]")).overlap.empty());
}

TEST(Overlap, DynamicSizeMakesItConditional) {
  std::string tv = "tensor_view<?x64xf32, strides=[32,1]>";
  std::string pv = "partition_view<tile=(4x64), " + tv + ">";
  Result r = check(func(", %x: tile<4x64xf32>, %n: tile<i32>",
                        "    %tv = make_tensor_view %p, shape = [%n, 64], strides = [32, 1] : tile<i32> -> " +
                            tv + "\n    %v = make_partition_view %tv : " + pv +
                            "\n    %c0 = constant <i32: 0> : tile<i32>\n"
                            "    %t = store_view_tko weak %x, %v[%c0, %c0] : tile<4x64xf32>, " +
                            pv + ", tile<i32> -> token"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_EQ(r.overlap[0].severity, Severity::Warning);
  EXPECT_NE(
      r.overlap[0].message.find("(element 32 from the tile's start), if tensor dimension 0 has at least 2 "
                                "elements: "),
      std::string::npos);
}

TEST(Overlap, LoadsAndAtomicReductionsThroughRepeatsAreFine) {
  std::string tv = "tensor_view<64x64xf32, strides=[1,1]>";
  std::string pv = "partition_view<tile=(4x64), " + tv + ">";
  Result r = check(
      func(", %y: tile<4x64xf32>",
           "    %tv = make_tensor_view %p, shape = [64, 64], strides = [1, 1] : " + tv +
               "\n    %v = make_partition_view %tv : " + pv +
               "\n    %c0 = constant <i32: 0> : tile<i32>\n"
               "    %x, %t = load_view_tko weak %v[%c0, %c0] : " +
               pv +
               ", tile<i32> -> tile<4x64xf32>, token\n"
               "    %t2 = atomic_red_view_tko relaxed device %v[%c0, %c0], addf, %y : tile<4x64xf32>, " +
               pv + ", tile<i32> -> token"));
  EXPECT_TRUE(r.others.empty()) << r.others[0].message;
  EXPECT_TRUE(r.overlap.empty());
}

TEST(Overlap, BroadcastPointerStore) {
  Result r =
      check(pointerStore("", 16, " : tile<16xptr<f32>>, tile<16xf32> -> token", "store_ptr_tko weak %b, %x"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  const Diagnostic& d = r.overlap[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(
      d.message.substr(0, d.message.find(';')),
      "store_ptr_tko writes elements 0 and 1 of its 16-element tile to one address (%p): the pointer tile's "
      "element strides are [0], so it repeats every address along dimension 0");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].message, "the pointer tile is built here");
  EXPECT_EQ(r.line(d.notes[0].range.begin), 4u);  // the broadcast
}

TEST(Overlap, RepeatedConstantOffset) {
  std::string build =
      "    %o = constant <i32: [0, 1, 1, 3]> : tile<4xi32>\n"
      "    %q = offset %b, %o : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>";
  Result r = check(pointerStore(build, 4, " : tile<4xptr<f32>>, tile<4xf32> -> token"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_NE(r.overlap[0].message.find("elements 1 and 2 of its 4-element tile to one address (%p + 1)"),
            std::string::npos);
  std::string fixed = build;
  fixed.replace(fixed.find("1, 1, 3"), 7, "1, 2, 3");
  EXPECT_TRUE(check(pointerStore(fixed, 4, " : tile<4xptr<f32>>, tile<4xf32> -> token")).overlap.empty());
}

TEST(Overlap, IotaTimesZero) {
  std::string build =
      "    %i = iota : tile<16xi32>\n    %z = constant <i32: 0> : tile<16xi32>\n    %o = muli %i, %z : "
      "tile<16xi32>\n"
      "    %q = offset %b, %o : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>";
  Result r = check(pointerStore(build, 16, " : tile<16xptr<f32>>, tile<16xf32> -> token"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_NE(
      r.overlap[0].message.find("elements 0 and 1 of its 16-element tile to one address (%p): the pointer "
                                "tile's element strides are [0]"),
      std::string::npos);
}

TEST(Overlap, TwoDimensionalStridesThatCollide) {
  auto text = [](int rowStride) {
    std::string s = std::to_string(rowStride);
    return "cuda_tile.module @m {\n  testing$func @f(%p: tile<ptr<f32>>, %x: tile<8x8xf32>) {\n"
           "    %r = reshape %p : tile<ptr<f32>> -> tile<1x1xptr<f32>>\n"
           "    %b = broadcast %r : tile<1x1xptr<f32>> -> tile<8x8xptr<f32>>\n"
           "    %i = iota : tile<8xi32>\n"
           "    %ir = reshape %i : tile<8xi32> -> tile<8x1xi32>\n"
           "    %ib = broadcast %ir : tile<8x1xi32> -> tile<8x8xi32>\n"
           "    %c = constant <i32: " +
           s +
           "> : tile<8x8xi32>\n"
           "    %rows = muli %ib, %c : tile<8x8xi32>\n"
           "    %jr = reshape %i : tile<8xi32> -> tile<1x8xi32>\n"
           "    %jb = broadcast %jr : tile<1x8xi32> -> tile<8x8xi32>\n"
           "    %o = addi %rows, %jb : tile<8x8xi32>\n"
           "    %q = offset %b, %o : tile<8x8xptr<f32>>, tile<8x8xi32> -> tile<8x8xptr<f32>>\n"
           "    %t = store_ptr_tko weak %q, %x : tile<8x8xptr<f32>>, tile<8x8xf32> -> token\n    return\n  "
           "}\n}\n";
  };
  Result r = check(text(4));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_NE(r.overlap[0].message.find("element strides are [4, 1]"), std::string::npos)
      << r.overlap[0].message;
  EXPECT_NE(r.overlap[0].message.find("of its 8x8 tile to one address (%p + 4)"), std::string::npos)
      << r.overlap[0].message;
  EXPECT_TRUE(check(text(8)).overlap.empty());
}

TEST(Overlap, MaskPolicy) {
  std::string build =
      "    %o = constant <i32: [0, 0, 1, 1]> : tile<4xi32>\n"
      "    %q = offset %b, %o : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>\n"
      "    %i = iota : tile<4xi32>\n"
      "    %nr = reshape %n : tile<i32> -> tile<1xi32>\n"
      "    %nb = broadcast %nr : tile<1xi32> -> tile<4xi32>\n"
      "    %unknown = cmpi less_than %i, %nb, signed : tile<4xi32> -> tile<4xi1>\n"
      "    %both = constant <i1: [true, true, false, false]> : tile<4xi1>\n"
      "    %one = constant <i1: [true, false, true, false]> : tile<4xi1>\n"
      "    %on = constant <i1: true> : tile<4xi1>\n"
      "    %off = constant <i1: false> : tile<4xi1>";
  auto run = [&](const std::string& mask) {
    return check(pointerStore(build, 4, " : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> token",
                              "store_ptr_tko weak %q, %x, " + mask));
  };
  Result unknown = run("%unknown");
  ASSERT_TRUE(unknown.others.empty()) << unknown.others[0].message;
  ASSERT_EQ(unknown.overlap.size(), 1u);
  EXPECT_EQ(unknown.overlap[0].severity, Severity::Warning);
  EXPECT_NE(unknown.overlap[0].message.find(", unless the mask turns one of them off"), std::string::npos);
  Result both = run("%both");
  ASSERT_EQ(both.overlap.size(), 1u);
  EXPECT_EQ(both.overlap[0].severity, Severity::Error);
  EXPECT_NE(both.overlap[0].message.find("elements 0 and 1 of its 4-element tile to one address (%p)"),
            std::string::npos);
  EXPECT_NE(both.overlap[0].message.find("and the constant mask enables both"), std::string::npos);
  Result on = run("%on");
  ASSERT_EQ(on.overlap.size(), 1u);
  EXPECT_EQ(on.overlap[0].severity, Severity::Error);
  EXPECT_TRUE(run("%one").overlap.empty());  // elements 0 and 2: offsets 0 and 1
  EXPECT_TRUE(run("%off").overlap.empty());
}

TEST(Overlap, AtomicsThatKeepOneValueWarn) {
  auto run = [](const std::string& op) {
    return check(
        "cuda_tile.module @m {\n  testing$func @f(%p: tile<ptr<i32>>, %x: tile<16xi32>) {\n"
        "    %r = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>\n"
        "    %b = broadcast %r : tile<1xptr<i32>> -> tile<16xptr<i32>>\n    " +
        op + "\n    return\n  }\n}\n");
  };
  Result add =
      run("%s, %t = atomic_rmw_tko relaxed device %b, add, %x : tile<16xptr<i32>>, tile<16xi32> -> "
          "tile<16xi32>, token");
  EXPECT_TRUE(add.others.empty()) << add.others[0].message;
  EXPECT_TRUE(add.overlap.empty());
  Result xchg =
      run("%s, %t = atomic_rmw_tko relaxed device %b, xchg, %x : tile<16xptr<i32>>, tile<16xi32> -> "
          "tile<16xi32>, token");
  ASSERT_EQ(xchg.overlap.size(), 1u);
  EXPECT_EQ(xchg.overlap[0].severity, Severity::Warning);
  EXPECT_NE(xchg.overlap[0].message.find("the two atomic operations run in an unspecified order"),
            std::string::npos);
  Result cas =
      run("%s, %t = atomic_cas_tko relaxed device %b, %x, %x : tile<16xptr<i32>>, tile<16xi32> -> "
          "tile<16xi32>, token");
  ASSERT_EQ(cas.overlap.size(), 1u);
  EXPECT_EQ(cas.overlap[0].severity, Severity::Warning);
}

std::string gatherStore(const std::string& indices) {
  std::string tv = "tensor_view<64x32xf32, strides=[32,1]>";
  std::string gv = "gather_scatter_view<tile=(4x32), " + tv + ", sparse_dim=0>";
  return func(
      ", %x: tile<4x32xf32>",
      "    %tv = make_tensor_view %p, shape = [64, 32], strides = [32, 1] : " + tv +
          "\n    %v = make_gather_scatter_view %tv : " + gv + "\n" + indices +
          "\n    %c0 = constant <i32: 0> : tile<i32>\n    %t = store_view_tko weak %x, %v[%idx, %c0] : "
          "tile<4x32xf32>, " +
          gv + ", tile<4xi32>, tile<i32> -> token");
}

TEST(Overlap, GatherScatterWithRepeatedConstantIndices) {
  Result r = check(gatherStore("    %idx = constant <i32: [0, 2, 2, 5]> : tile<4xi32>"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  const Diagnostic& d = r.overlap[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(
      d.message.substr(0, d.message.find(';')),
      "store_view_tko writes elements (1, 0) and (2, 0) of its 4x32 tile to one address (row 2 of tensor "
      "dimension 0): the gather/scatter indices hold 2 at positions 1 and 2, so every element of those two "
      "slices goes to one address");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].message, "the indices are defined here");
  EXPECT_EQ(r.text.substr(d.notes[0].range.begin, 16), "<i32: [0, 2, 2, ");
  EXPECT_TRUE(check(gatherStore("    %idx = constant <i32: [0, 2, 3, 5]> : tile<4xi32>")).overlap.empty());
  // Out-of-range rows are masked: two indices past the edge write nothing.
  EXPECT_TRUE(check(gatherStore("    %idx = constant <i32: [0, 2, 99, 99]> : tile<4xi32>")).overlap.empty());
}

TEST(Overlap, GatherScatterWithEqualAffineIndices) {
  Result r =
      check(gatherStore("    %i = iota : tile<4xi32>\n    %z = constant <i32: 0> : tile<4xi32>\n"
                        "    %idx = muli %i, %z : tile<4xi32>"));
  ASSERT_TRUE(r.others.empty()) << r.others[0].message;
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_NE(r.overlap[0].message.find("the gather/scatter indices are all equal (they step by 0);"),
            std::string::npos)
      << r.overlap[0].message;
  EXPECT_TRUE(check(gatherStore("    %idx = iota : tile<4xi32>")).overlap.empty());
}

TEST(Overlap, TurnedOffAndBrokenPrograms) {
  CheckOptions off;
  off.disabled = {"layout"};
  EXPECT_TRUE(check(viewStore("32,1", "4x64", "weak"), off).overlap.empty());
  // An undefined stored pointer, a zero stride (a type error) and a store
  // with its operands missing: no layout.overlap, no crash.
  EXPECT_TRUE(check(func(", %x: tile<16xf32>",
                         "    %t = store_ptr_tko weak %nowhere, %x : tile<16xptr<f32>>, "
                         "tile<16xf32> -> token"))
                  .overlap.empty());
  Result zero = check(viewStore("0,1", "4x64", "weak"));
  EXPECT_FALSE(zero.others.empty());
  EXPECT_TRUE(zero.overlap.empty());
  EXPECT_TRUE(check(func("", "    %t = store_ptr_tko weak")).overlap.empty());
}

TEST(Overlap, ManyStoresStayLinear) {
  std::string body;
  std::string tv = "tensor_view<64x64xf32, strides=[32,1]>";
  std::string pv = "partition_view<tile=(4x64), " + tv + ">";
  body += "    %tv = make_tensor_view %p, shape = [64, 64], strides = [32, 1] : " + tv +
          "\n    %v = make_partition_view %tv : " + pv + "\n    %c0 = constant <i32: 0> : tile<i32>\n";
  constexpr int kStores = 5000;
  for (int i = 0; i < kStores; ++i)
    body += "    %t" + std::to_string(i) + " = store_view_tko weak %x, %v[%c0, %c0] : tile<4x64xf32>, " + pv +
            ", tile<i32> -> token\n";
  auto start = std::chrono::steady_clock::now();
  Result r = check(func(", %x: tile<4x64xf32>", body));
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.overlap.size(), static_cast<size_t>(kStores));
  EXPECT_LT(ms, 5000.0);  // one layout decision per view type, not per store
}

}  // namespace
}  // namespace tilesight
