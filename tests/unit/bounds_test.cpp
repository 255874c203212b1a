// bounds.index and bounds.partial-tile beyond the corpus: the padding fix
// (applied, it leaves a program with no diagnostic at all), when no fix is
// offered, and what stays silent.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

std::string applied(std::string text, const Fix& f) {
  std::vector<TextEdit> edits = f.edits;
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.range.begin > b.range.begin; });
  for (const TextEdit& e : edits) text.replace(e.range.begin, e.range.end - e.range.begin, e.newText);
  return text;
}

std::vector<const Diagnostic*> withCode(const Analysis& a, std::string_view code) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : a.diagnostics)
    if (d.code == code) out.push_back(&d);
  return out;
}

AnalyzeOptions withGrid(int64_t x, int64_t y, int64_t z) {
  AnalyzeOptions o;
  o.checks.grid = std::array<int64_t, 3>{x, y, z};
  return o;
}

// A 100x64 f32 tensor in 32x32 tiles: index space 4x2, tile 3 of dimension 0
// overhangs by 28 rows. `type` is the view type, `body` uses %pv; %qv is a
// 128x64 view where a tile can be stored in bounds (see used()).
std::string edgeKernel(const std::string& type, const std::string& body, const std::string& elem = "f32") {
  return kernel("%p: tile<ptr<" + elem + ">>, %q: tile<ptr<" + elem + ">>",
                "    %tv = make_tensor_view %p, shape = [100, 64], strides = [64, 1] : tensor_view<100x64x" + elem +
                    ", strides=[64,1]>\n    %pv = make_partition_view %tv : " + type +
                    "\n    %qt = make_tensor_view %q, shape = [128, 64], strides = [64, 1] : tensor_view<128x64x" + elem +
                    ", strides=[64,1]>\n    %qv = make_partition_view %qt : partition_view<tile=(32x32), tensor_view<128x64x" +
                    elem + ", strides=[64,1]>>" +
                    "\n    %c0 = constant <i32: 0> : tile<i32>\n    %c3 = constant <i32: 3> : tile<i32>\n" + body);
}

// Stores `tile` to tile (0, 0) of %qv, in bounds: the unspecified rows of a
// partial load land in memory there, so they matter.
std::string used(const std::string& tile, const std::string& elem = "f32") {
  return "\n    %used = store_view_tko weak " + tile + ", %qv[%c0, %c0] : tile<32x32x" + elem +
         ">, partition_view<tile=(32x32), tensor_view<128x64x" + elem + ", strides=[64,1]>>, tile<i32> -> token";
}

const std::string kView = "partition_view<tile=(32x32), tensor_view<100x64xf32, strides=[64,1]>>";

}  // namespace

TEST(Bounds, PaddingFixChangesTheDefinitionAndEveryUse) {
  std::string text = edgeKernel(
      kView,
      "    %a, %t = load_view_tko weak %pv[%c3, %c0] : " + kView + ", tile<i32> -> tile<32x32xf32>, token\n"
      "    %b, %u = load_view_tko weak %pv[%c0, %c0] token = %t\n        : " + kView +
          ", tile<i32> -> tile<32x32xf32>, token\n"
          "    %s = store_view_tko weak %b, %pv[%c3, %c0] token = %u : tile<32x32xf32>, " + kView + ", tile<i32> -> token" +
          used("%a"));
  Analysis before = analyze(text);
  auto partial = withCode(before, "bounds.partial-tile");
  ASSERT_EQ(partial.size(), 1u);  // the store is masked; the second load reads tile 0
  ASSERT_EQ(partial[0]->fixes.size(), 1u);
  const Fix& fix = partial[0]->fixes[0];
  EXPECT_EQ(fix.title, "add padding_value = zero to the type of %pv");
  EXPECT_EQ(fix.edits.size(), 4u);  // make_partition_view, two loads, the store
  std::string fixed = applied(text, fix);
  Analysis after = analyze(fixed);
  EXPECT_TRUE(after.diagnostics.empty()) << after.diagnostics.front().message << "\n" << fixed;
  size_t n = 0;
  for (size_t at = fixed.find("padding_value = zero, tensor_view<"); at != std::string::npos;
       at = fixed.find("padding_value = zero, tensor_view<", at + 1))
    ++n;
  EXPECT_EQ(n, 4u);
}

TEST(Bounds, PaddingFixInLongFormTypes) {
  std::string view = "!cuda_tile.partition_view<tile=(32x32), !cuda_tile.tensor_view<100x64xf32, strides=[64,1]>>";
  std::string text = edgeKernel(
      view, "    %a, %t = load_view_tko weak %pv[%c3, %c0] : " + view + ", tile<i32> -> tile<32x32xf32>, token" +
                used("%a"));
  Analysis before = analyze(text);
  auto partial = withCode(before, "bounds.partial-tile");
  ASSERT_EQ(partial.size(), 1u);
  ASSERT_EQ(partial[0]->fixes.size(), 1u);
  std::string fixed = applied(text, partial[0]->fixes[0]);
  EXPECT_NE(fixed.find("tile=(32x32), padding_value = zero, !cuda_tile.tensor_view<"), std::string::npos);
  EXPECT_TRUE(analyze(fixed).diagnostics.empty()) << fixed;
}

TEST(Bounds, NoPaddingFixForIntegerViews) {
  std::string view = "partition_view<tile=(32x32), tensor_view<100x64xi32, strides=[64,1]>>";
  Analysis a = analyze(edgeKernel(
      view, "    %a, %t = load_view_tko weak %pv[%c3, %c0] : " + view + ", tile<i32> -> tile<32x32xi32>, token" +
                used("%a", "i32"),
      "i32"));
  auto partial = withCode(a, "bounds.partial-tile");
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_TRUE(partial[0]->fixes.empty());
}

TEST(Bounds, NoPaddingFixForViewsOfAtomicReductions) {
  Analysis a = analyze(edgeKernel(
      kView, "    %a, %t = load_view_tko weak %pv[%c3, %c0] : " + kView + ", tile<i32> -> tile<32x32xf32>, token\n"
             "    %r = atomic_red_view_tko relaxed device %pv[%c0, %c0], addf, %a : tile<32x32xf32>, " + kView +
                 ", tile<i32> -> token"));
  auto partial = withCode(a, "bounds.partial-tile");
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_TRUE(partial[0]->fixes.empty());
}

TEST(Bounds, UnknownIndicesStaySilent) {
  // Without --grid a block id's upper end is not evidence: nothing to say.
  Analysis a = analyze(edgeKernel(
      kView, "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
             "    %a, %t = load_view_tko weak %pv[%bx, %by] : " + kView + ", tile<i32> -> tile<32x32xf32>, token"));
  EXPECT_TRUE(a.diagnostics.empty()) << a.diagnostics.front().message;
}

TEST(Bounds, GridMakesBlockIdsEvidence) {
  std::string text = edgeKernel(
      kView, "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
             "    %a, %t = load_view_tko weak %pv[%bx, %by] : " + kView + ", tile<i32> -> tile<32x32xf32>, token" +
                 used("%a"));
  Analysis fits = analyze(text, withGrid(4, 2, 1));
  auto partial = withCode(fits, "bounds.partial-tile");
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(partial[0]->severity, Severity::Warning);
  EXPECT_TRUE(withCode(fits, "bounds.index").empty());
  Analysis over = analyze(text, withGrid(4, 3, 1));
  auto index = withCode(over, "bounds.index");
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0]->severity, Severity::Error);  // tile block (0, 2, 0) runs it
  EXPECT_EQ(index[0]->message,
            "index 2 of dimension 1 is outside the index space 4x2 of %pv (valid: 0..1) in tile block (0, 2, 0); %by "
            "ranges over [0, 2] from the grid (--grid=4,3,1)");
}

TEST(Bounds, GuardedIndexIsInside) {
  // %i runs to 5, but the load only happens while %i < 3.
  std::string text = edgeKernel(
      kView, "    %c1 = constant <i32: 1> : tile<i32>\n    %c6 = constant <i32: 6> : tile<i32>\n"
             "    for %i in (%c0 to %c6, step %c1) : tile<i32> {\n"
             "      %ok = cmpi less_than %i, %c3, signed : tile<i32> -> tile<i1>\n"
             "      if %ok {\n"
             "        %a, %t = load_view_tko weak %pv[%i, %c0] : " + kView + ", tile<i32> -> tile<32x32xf32>, token\n"
             "      }\n"
             "      continue\n"
             "    }");
  Analysis a = analyze(text);
  EXPECT_TRUE(a.diagnostics.empty()) << a.diagnostics.front().message;
}

TEST(Bounds, DisabledCodesAreDropped) {
  std::string text = edgeKernel(
      kView, "    %a, %t = load_view_tko weak %pv[%c3, %c0] : " + kView + ", tile<i32> -> tile<32x32xf32>, token" +
                 used("%a"));
  AnalyzeOptions o;
  o.checks.disabled = {"bounds.partial-tile"};
  EXPECT_TRUE(analyze(text, o).diagnostics.empty());
  EXPECT_EQ(withCode(analyze(text), "bounds.partial-tile").size(), 1u);
}

TEST(Bounds, GuardOnTheBlockIdCoversTheIndexComputedBefore) {
  // %prev = %bx - 1 is -1 for block 0, which the branch excludes.
  std::string body =
      "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
      "    %c1 = constant <i32: 1> : tile<i32>\n"
      "    %prev = subi %bx, %c1 : tile<i32>\n"
      "    %first = cmpi equal %bx, %c0, signed : tile<i32> -> tile<i1>\n"
      "    %later = cmpi greater_than %bx, %c0, signed : tile<i32> -> tile<i1>\n"
      "    if %COND {\n"
      "      %a, %t = load_view_tko weak %pv[%c0, %prev] : " + kView + ", tile<i32> -> tile<32x32xf32>, token\n"
      "    }";
  auto with = [&](const std::string& cond) {
    std::string b = body;
    b.replace(b.find("%COND"), 5, cond);
    return analyze(edgeKernel(kView, b));
  };
  EXPECT_TRUE(with("%later").diagnostics.empty()) << with("%later").diagnostics.front().message;
  // Block 0 is the only one in the other branch: there the index is -1.
  Analysis first = with("%first");
  auto index = withCode(first, "bounds.index");
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0]->severity, Severity::Error);
  EXPECT_EQ(index[0]->message,
            "index -1 of dimension 1 is outside the index space 4x2 of %pv (valid: 0..1); %prev is -1, derived from "
            "%bx, which is 0 (get_tile_block_id is never negative), narrowed by the comparison at line 12");
}

namespace {

// A tensor of %m rows (dynamic) in tiles of 4: cdiv(%m, 4) row tiles. `loop`
// is the upper bound computation, from %m2 (a second, equal copy of %m, as
// cuTile emits it) and %c4; `head`/`tail` wrap the loop (an `if`, say).
std::string cdivKernel(const std::string& bound, const std::string& head = "", const std::string& tail = "",
                       const std::string& rounding = "signed rounding<positive_inf>") {
  const std::string view = "partition_view<tile=(4x8), tensor_view<?x8xf32, strides=[8,1]>>";
  return kernel("%p: tile<ptr<f32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>",
                "    %m0 = subi %b, %a : tile<i32>\n    %m = assume bounded<0, ?>, %m0 : tile<i32>\n"
                "    %tv = make_tensor_view %p, shape = [%m, 8], strides = [8, 1] : tile<i32> -> "
                "tensor_view<?x8xf32, strides=[8,1]>\n"
                "    %pv = make_partition_view %tv : " + view + "\n"
                "    %c0 = constant <i32: 0> : tile<i32>\n    %c1 = constant <i32: 1> : tile<i32>\n"
                "    %c4 = constant <i32: 4> : tile<i32>\n    %m2 = subi %b, %a : tile<i32>\n"
                "    %q = divi %m2, %c4 " + rounding + " : tile<i32>\n" + bound + head +
                "    for %i in (%c0 to %ub, step %c1) : tile<i32> {\n"
                "      %t, %tt = load_view_tko weak %pv[%i, %c0] : " + view + ", tile<i32> -> tile<4x8xf32>, token\n"
                "      continue\n    }\n" + tail);
}

}  // namespace

TEST(Bounds, LoopPastCdivOfADynamicSizeIsAnErrorWhateverTheSize) {
  Analysis a = analyze(cdivKernel("    %ub = addi %q, %c1 : tile<i32>\n"));
  auto index = withCode(a, "bounds.index");
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0]->severity, Severity::Error);
  EXPECT_EQ(index[0]->message,
            "index %i of dimension 0 is cdiv(%m, 4) in the last iteration of the loop at line 13, outside the index "
            "space of %pv whatever its size: the loop runs up to %ub = %q + 1, %q = cdiv(%m2, 4), and %pv has "
            "cdiv(%m, 4) tiles of 4 along tensor dimension 0 (valid: 0..cdiv(%m, 4) - 1); %m and %m2 are one value "
            "(both %b - %a)");
}

TEST(Bounds, LoopToCdivOfADynamicSizeIsInside) {
  Analysis a = analyze(cdivKernel("    %ub = addi %q, %c0 : tile<i32>\n"));
  EXPECT_TRUE(a.diagnostics.empty()) << a.diagnostics.front().message;
}

TEST(Bounds, LoopPastCdivUnderABranchMayRun) {
  Analysis a = analyze(cdivKernel("    %ub = addi %q, %c1 : tile<i32>\n", "    if %c {\n", "    }\n"));
  auto index = withCode(a, "bounds.index");
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0]->severity, Severity::Warning);
  EXPECT_TRUE(index[0]->message.starts_with("index %i of dimension 0 may be cdiv(%m, 4) in the last iteration"))
      << index[0]->message;
}

TEST(Bounds, OtherDivisionsAndOtherDividendsStaySilent) {
  // Floor division is not cdiv; a dividend that is another value is not the size.
  Analysis floor = analyze(cdivKernel("    %ub = addi %q, %c1 : tile<i32>\n", "", "", "signed rounding<negative_inf>"));
  EXPECT_TRUE(withCode(floor, "bounds.index").empty());
  std::string other = cdivKernel("    %ub = addi %q, %c1 : tile<i32>\n");
  other.replace(other.find("%m2 = subi %b, %a"), 17, "%m2 = subi %a, %b");
  EXPECT_TRUE(withCode(analyze(other), "bounds.index").empty());
}

// An iter_value that every iteration advances by a constant (a tile counter
// carried by hand) is known in each iteration of a `for`; of a `loop`, only
// its first iteration certainly runs, so a later index out of the space is
// not claimed.
TEST(Bounds, IterValueCountersAreFollowed) {
  auto text = [](const std::string& loop) {
    return kernel("%p: tile<ptr<f32>>",
                  "    %tv = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>\n"
                  "    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>\n"
                  "    %c0 = constant <i32: 0> : tile<i32>\n    %c1 = constant <i32: 1> : tile<i32>\n"
                  "    %c2 = constant <i32: 2> : tile<i32>\n    %c3 = constant <i32: 3> : tile<i32>\n" +
                      loop +
                      "      %v, %t = load_view_tko weak %pv[%j] : partition_view<tile=(16), tensor_view<64xf32, "
                      "strides=[1]>>, tile<i32> -> tile<16xf32>, token\n"
                      "      %n = addi %j, %c1 : tile<i32>\n      continue %n : tile<i32>\n    }\n");
  };
  Analysis a = analyze(text("    %r = for %k in (%c0 to %c3, step %c1) : tile<i32> iter_values(%j = %c2) -> "
                            "(tile<i32>) {\n"));
  auto found = withCode(a, "bounds.index");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::Error);
  EXPECT_EQ(found[0]->message,
            "index 4 of dimension 0 is outside the index space 4 of %pv (valid: 0..3) when %k = 2 in the loop at line "
            "9; %j is an iter_value of the loop at line 9: 2 in the first iteration, then 1 more in each");
  // Two iterations (2, 3) stay inside.
  EXPECT_TRUE(analyze(text("    %r = for %k in (%c0 to %c2, step %c1) : tile<i32> iter_values(%j = %c2) -> "
                           "(tile<i32>) {\n"))
                  .diagnostics.empty());
  // A `loop` from 3: its first iteration is inside, whether it runs a second is not known here.
  EXPECT_TRUE(analyze(text("    %r = loop iter_values(%j = %c3) : tile<i32> -> tile<i32> {\n")).diagnostics.empty());
}

// A bytecode decoder's `masked` view: it pads, with a value the text does not
// give. Explained once per chunk (a warning), kept in the type's text, and
// its padded elements are defined for the checks: no bounds.partial-tile.
TEST(Bounds, AMaskedViewPadsWithAnUnknownValue) {
  const std::string masked = "partition_view<masked tile=(32x32), tensor_view<100x64xf32, strides=[64,1]>>";
  Analysis a = analyze(edgeKernel(masked, "    %a, %t = load_view_tko weak %pv[%c3, %c0] : " + masked +
                                              ", tile<i32> -> tile<32x32xf32>, token" + used("%a")));
  EXPECT_TRUE(withCode(a, "bounds.partial-tile").empty());
  auto said = withCode(a, "syntax");
  ASSERT_EQ(said.size(), 1u) << "one explanation for the two `masked` types";
  EXPECT_EQ(said[0]->severity, Severity::Warning);
  EXPECT_NE(said[0]->message.find("NVIDIA's text form names it"), std::string::npos) << said[0]->message;
  const Program& p = a.chunks[0].parsed.program;
  bool found = false;
  for (const auto& op : p.ops)
    for (ValueId r : op.results)
      if (p.typeOf(r)->kind == TypeKind::PartitionView && p.typeOf(r)->tensorView->shape[0] == 100) {
        EXPECT_EQ(p.typeOf(r)->padding, Padding::Unknown);
        EXPECT_NE(p.typeOf(r)->text.find("<masked tile=(32x32)"), std::string::npos) << p.typeOf(r)->text;
        found = true;
      }
  EXPECT_TRUE(found);
  // An integer view may be masked too (padding_value nan would not be allowed there).
  const std::string intView = "partition_view<masked tile=(32x32), tensor_view<100x64xi32, strides=[64,1]>>";
  Analysis ints = analyze(edgeKernel(intView, "", "i32"));
  EXPECT_TRUE(withCode(ints, "type").empty());
}
