// Completion (server/lsp/completion.h) in contexts the transcript does not
// cover, and the tables it shares with the analysis.
#include <gtest/gtest.h>

#include "analysis/ir/op_table.h"
#include "analysis/layout/expr_call.h"
#include "server/lsp/completion.h"

namespace tilesight::lsp {
namespace {

// The completion list (isIncomplete and items) at the `|` in `marked`.
json completionAt(std::string marked) {
  size_t at = marked.find('|');
  EXPECT_NE(at, std::string::npos);
  marked.erase(at, 1);
  auto snap = analyzeDocument("file:///c.tile", 1,
                              std::make_shared<const SourceText>(marked));
  Settings settings;
  ClientFeatures client{true, true, true};  // a client with snippets and markdown
  FeatureContext cx{*snap, PositionEncoding::Utf8, settings, client};
  json params = {
      {"textDocument", {{"uri", "file:///c.tile"}}},
      {"position", positionJson(*snap->source, static_cast<uint32_t>(at),
                                PositionEncoding::Utf8)}};
  return completion(cx, params);
}

// The items offered at the `|` in `marked` (which is removed).
json completeAt(std::string marked) { return completionAt(std::move(marked))["items"]; }

std::vector<std::string> labels(const json &items) {
  std::vector<std::string> out;
  for (const json &i : items)
    out.push_back(i["label"]);
  return out;
}

std::string body(const std::string &lines) {
  return "cuda_tile.module @m {\n  testing$func @f(%a: tile<i32>, %v: "
         "partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>) {\n" +
         lines + "\n    return\n  }\n}\n";
}

TEST(Completion, EveryOpAtTheStartOfAStatement) {
  std::vector<std::string> expected;
  for (const OpInfo &op : OpTable::get().all())
    expected.push_back(std::string(op.name));
  EXPECT_EQ(labels(completeAt(body("    |"))), expected);
  EXPECT_EQ(labels(completeAt(body("    %x = |"))), expected);
}

TEST(Completion, AFileWithManyValuesAnswersTheFirst200AndSaysTheListIsIncomplete) {
  std::string lines;
  for (int i = 0; i < 300; ++i) lines += "    %v" + std::to_string(i) + " = addi %a, %a : tile<i32>\n";
  json all = completionAt(body(lines + "    %x = addi %|"));
  EXPECT_EQ(all["items"].size(), 200u);
  EXPECT_TRUE(all["isIncomplete"]);
  // A longer prefix narrows it below the cap: complete again.
  json narrow = completionAt(body(lines + "    %x = addi %v29|"));
  EXPECT_FALSE(narrow["isIncomplete"]);
  EXPECT_EQ(labels(narrow["items"]).front(), "%v29");
}

TEST(Completion, DialectPrefixIsKept) {
  json items = completeAt(body("    %x = cuda_tile.xo|"));
  ASSERT_EQ(labels(items), std::vector<std::string>{"xori"});
  // Only `xo` (bytes 19..21 of the line) is replaced.
  EXPECT_EQ(items[0]["textEdit"]["range"]["start"]["character"], 19);
}

// The table of layout functions agrees with the evaluator: each name is a
// function whose arity error prints the signature offered as detail.
TEST(Completion, LayoutFunctionsMatchTheEvaluator) {
  json items = completeAt("#l = #layout<|>\n");
  ASSERT_FALSE(items.empty());
  for (const json &item : items) {
    std::string name = item["label"];
    std::string signature = item["detail"];
    auto r = layout::detail::callFunction(name, 0, {});
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error().rule, "wrong arity")
        << name << ": " << r.error().text();
    EXPECT_EQ(r.error().message.rfind(signature + " ", 0), 0u)
        << r.error().message << " vs " << signature;
  }
}

TEST(Completion, KeywordsInsideAngleBrackets) {
  EXPECT_EQ(
      labels(completeAt(body("    %x = addi %a, %a overflow<|> : tile<i32>"))),
      (std::vector<std::string>{"none", "no_signed_wrap", "no_unsigned_wrap",
                                "no_wrap"}));
}

TEST(Completion, AttributeKeywordsOfAnOp) {
  // addf: rounding<...> as a choice snippet and its flag; the values too.
  json items = completeAt(body("    %x = addf %a, %a |"));
  EXPECT_EQ(labels(items), (std::vector<std::string>{
                               "rounding", "flush_to_zero", "%a", "%v"}));
  EXPECT_EQ(items[0]["textEdit"]["newText"],
            "rounding<${1|nearest_even,zero,negative_inf,positive_inf,approx,"
            "full,nearest_int_to_zero|}>");
  EXPECT_EQ(items[0]["insertTextFormat"], 2);
  // A view memory op (custom syntax): orderings and scopes.
  std::vector<std::string> memory =
      labels(completeAt(body("    %t, %k = load_view_tko |")));
  EXPECT_EQ(std::vector<std::string>(memory.begin(), memory.begin() + 8),
            (std::vector<std::string>{"weak", "relaxed", "acquire", "release",
                                      "acq_rel", "tl_blk", "device", "sys"}));
}

TEST(Completion, TypesInArgumentsAndResultLists) {
  std::vector<std::string> types =
      labels(completeAt("cuda_tile.module @m {\n  testing$func @f(%a: |) {\n   "
                        " return\n  }\n}\n"));
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.front(), "i1");
  EXPECT_EQ(types.back(), "gather_scatter_view");
  // After `,` in a type list; in an operand list there are values instead.
  EXPECT_EQ(
      labels(completeAt(body("    %x = select %a, %a, %a : tile<i1>, ti|"))),
      (std::vector<std::string>{"tile", "tensor_view", "partition_view",
                                "strided_view", "gather_scatter_view"}));
  EXPECT_EQ(labels(completeAt(body("    %x = select %a, |"))),
            (std::vector<std::string>{"%a", "%v"}));
  // `ptr<` takes an element type only.
  EXPECT_EQ(labels(completeAt(body("    %x = iota : tile<4xptr<i6|>>"))),
            (std::vector<std::string>{"i16", "i64"}));
}

// In a loop body: the induction variable and outer values; not the values
// of the other branch of an if, nor the loop's own results.
TEST(Completion, ValuesOfNestedRegions) {
  std::string text = body(R"(    %c = constant <i1: true> : tile<i1>
    %r = for %i in (%a to %a, step %a) : tile<i32> iter_values(%acc = %a) -> (tile<i32>) {
      if %c {
        %inThen = addi %i, %i : tile<i32>
        yield
      } else {
        %inElse = addi %|
        yield
      }
      continue %acc : tile<i32>
    })");
  EXPECT_EQ(labels(completeAt(text)),
            (std::vector<std::string>{"%a", "%v", "%c", "%i", "%acc"}));
}

TEST(Completion, NothingInCommentsOrStrings) {
  EXPECT_TRUE(completeAt(body("    assert %a, \"%|\" : tile<i1>")).empty());
  EXPECT_TRUE(completeAt(body("    // uses %|")).empty());
}

} // namespace
} // namespace tilesight::lsp
