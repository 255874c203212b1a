#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/ir/op_table.h"
#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

TEST(Parser, CustomFormBuildsTypedOps) {
  std::string text = kernel("%n: tile<i32>", "    %c = constant <i32: 3> : tile<i32>\n    %x = addi %n, %c overflow<no_wrap> : tile<i32>");
  Analysis a = analyze(text);
  ASSERT_EQ(a.errorCount(), 0u) << (a.diagnostics.empty() ? "" : a.diagnostics[0].message);
  const Program& p = a.chunks[0].parsed.program;
  auto it = std::find_if(p.ops.begin(), p.ops.end(), [](const Operation& o) { return o.info && o.info->name == "addi"; });
  ASSERT_NE(it, p.ops.end());
  EXPECT_EQ(it->operands.size(), 2u);
  ASSERT_EQ(it->results.size(), 1u);
  EXPECT_EQ(p.typeOf(it->results[0])->text, "!cuda_tile.tile<i32>");
  ASSERT_NE(it->attr("overflow"), nullptr);
  EXPECT_EQ(it->attr("overflow")->s, "no_wrap");
}

TEST(Parser, LongAndShortTypeSpellingsAreTheSameType) {
  std::string text =
      "cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<4x!cuda_tile.ptr<f32>>) {\n"
      "    %b = offset %a, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>\n    return\n  }\n}\n";
  Analysis a = analyze(text);
  // %i is undefined: exactly one error, and the pointer types agree.
  EXPECT_EQ(messages(a).size(), 1u);
  EXPECT_TRUE(anyContains(messages(a), "undefined value '%i'"));
}

TEST(Parser, GenericFormAndUnregisteredOps) {
  std::string text =
      "\"use_type\"() : () -> !cuda_tile.tensor_view<8xf32, strides=[1]>\n"
      "cuda_tile.module @m {\n"
      "  testing$func @f(%a: !cuda_tile.tile<f16>, %b: !cuda_tile.tile<f16>) -> !cuda_tile.tile<i1> {\n"
      "    %r = \"cuda_tile.cmpf\"(%a, %b) {comparison_predicate = #cuda_tile.comparison_predicate<equal>, "
      "comparison_ordering = #cuda_tile.comparison_ordering<ordered>} : (!cuda_tile.tile<f16>, !cuda_tile.tile<f16>) -> !cuda_tile.tile<i1>\n"
      "    return %r : !cuda_tile.tile<i1>\n  }\n}\n";
  Analysis a = analyze(text);
  EXPECT_EQ(a.errorCount(), 0u) << (a.diagnostics.empty() ? "" : a.diagnostics[0].message);
  const Program& p = a.chunks[0].parsed.program;
  auto it = std::find_if(p.ops.begin(), p.ops.end(), [](const Operation& o) { return o.info && o.info->name == "cmpf"; });
  ASSERT_NE(it, p.ops.end());
  EXPECT_TRUE(it->generic);
  EXPECT_EQ(it->attr("comparison_predicate")->s, "equal");
}

TEST(Parser, MultiResultNamesAndHashUses) {
  std::string text = kernel("", "    %ids:3 = get_tile_block_id : tile<i32>\n    %s = addi %ids#0, %ids#2 : tile<i32>");
  Analysis a = analyze(text);
  EXPECT_EQ(a.errorCount(), 0u) << (a.diagnostics.empty() ? "" : a.diagnostics[0].message);
}

TEST(Parser, ResultCountMismatchIsReported) {
  std::string text = kernel("", "    %a, %b = get_tile_block_id : tile<i32>");
  Analysis a = analyze(text);
  EXPECT_TRUE(anyContains(messages(a), "defines 3 results but 2 names are bound"));
}

TEST(Parser, KeepsGoingAfterSyntaxErrors) {
  std::string text = kernel("%n: tile<i32>",
                            "    %a = addi %n %n : tile<i32>\n"         // line 3: missing comma
                            "    %b = addi %n, %n : tile<i32>\n"
                            "    %c = constant <i32: 1> : tile<3xi32>\n"  // line 5: not a power of two
                            "    %d = subi %b, %zz : tile<i32>");       // line 6: undefined
  Analysis a = analyze(text);
  auto lines = errorLines(text, a);
  EXPECT_NE(std::find(lines.begin(), lines.end(), 3u), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), 5u), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), 6u), lines.end());
}

TEST(Parser, TruncatedInputNeverLosesEarlierDiagnostics) {
  std::string text = "cuda_tile.module @m {\n entry @k() {\n %c = constant <i32: 1> : tile<3xi32>\n %d = addi %c,";
  Analysis a = analyze(text);
  EXPECT_GE(a.errorCount(), 2u);
  EXPECT_TRUE(anyContains(messages(a), "powers of two"));
}

TEST(Parser, SideTableRecordsDefinitionsAndUses) {
  std::string text = kernel("%n: tile<i32>", "    %x = addi %n, %n : tile<i32>");
  Analysis a = analyze(text);
  const auto& occ = a.chunks[0].parsed.side.occurrences;
  size_t defs = 0, uses = 0;
  for (const auto& o : occ)
    if (o.kind == Occurrence::Value) (o.isDef ? defs : uses)++;
  EXPECT_EQ(defs, 2u);  // %n (block argument) and %x
  EXPECT_EQ(uses, 2u);
}

TEST(Parser, SplitInputFileChecksChunksIndependently) {
  std::string text = kernel("", "    %a = constant <i32: 1> : tile<i32>") + "// -----\n" +
                     kernel("", "    %a = constant <i32: 1> : tile<i32>\n    %b = addi %a, %q : tile<i32>");
  Analysis split = analyze(text, AnalyzeOptions{.splitInputFile = true, .checks = {}});
  ASSERT_EQ(split.chunks.size(), 2u);
  auto lines = errorLines(text, split);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], 11u);  // a whole-file line number
}

TEST(Parser, DeepNestingIsBoundedNotACrash) {
  std::string body;
  for (int i = 0; i < 1000; ++i) body += "if %c {\n";
  Analysis a = analyze(kernel("%c: tile<i1>", body));
  EXPECT_GE(a.errorCount(), 1u);
}

TEST(OpTable, EveryOpHasDocAndCompiledSyntax) {
  const auto& ops = OpTable::get().all();
  EXPECT_GE(ops.size(), 100u);
  for (const auto& op : ops) {
    EXPECT_FALSE(op.doc.empty()) << op.name;
    EXPECT_TRUE(op.format == "custom" || !op.syntax.empty()) << op.name;
    EXPECT_EQ(OpTable::get().lookup("cuda_tile." + std::string(op.name)), &op);
  }
}

TEST(Parser, DeepAttributesTypesAndLiteralsAreBounded) {
  std::string deep(100000, '[');
  std::string parens(100000, '(');
  for (const std::string& text :
       {"\"x\"() {a = " + deep + "} : () -> ()\n", "\"x\"() : " + parens + "\n",
        kernel("", "    %c = constant <i32: " + deep + "> : tile<i32>")}) {
    Analysis a = analyze(text);
    EXPECT_TRUE(anyContains(messages(a), "nesting deeper than 200 levels"));
  }
}
