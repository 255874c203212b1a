// Inline suppressions (DESIGN §3) and check --fix's choice of fixes, on the
// analysis library's result: what the command line and the server both see.
#include <gtest/gtest.h>

#include "analysis/analysis.h"
#include "analysis/diag/fixes.h"
#include "analysis/diag/suppressions.h"

using namespace tilesight;

namespace {

std::vector<std::string> codes(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(d.code);
  return out;
}

Diagnostic diag(uint32_t begin, const char* code) { return {{begin, begin + 1}, Severity::Error, code, "m", {}, {}}; }

auto allOn = [](std::string_view) { return true; };

}  // namespace

TEST(Suppressions, LineEndsOfEveryKindCount) {
  // Line 1 is silenced by the comment on line 0, whichever line end separates them.
  for (const char* eol : {"\n", "\r\n", "\r"}) {
    std::string text = std::string("// tilesight: ignore type") + eol + "x" + eol + "y";
    uint32_t lineOne = static_cast<uint32_t>(text.find('x')), lineTwo = static_cast<uint32_t>(text.find('y'));
    std::vector<Diagnostic> d = {diag(lineOne, "type"), diag(lineTwo, "type")};
    applySuppressions(text, d, allOn);
    ASSERT_EQ(d.size(), 1u) << "eol " << (eol[0] == '\r' ? "CR" : "LF");
    EXPECT_EQ(d[0].range.begin, lineTwo);
  }
}

TEST(Suppressions, LastLineWithoutLineEnd) {
  std::string text = "x // tilesight: ignore type";
  std::vector<Diagnostic> d = {diag(0, "type")};
  applySuppressions(text, d, allOn);
  EXPECT_TRUE(d.empty());
}

TEST(Suppressions, OnlyAWholeCommentMarkerCounts) {
  // Not `ignored`, not a marker inside a string, not another tool's comment.
  for (const char* text : {"x // tilesight: ignored type", "x \"// tilesight: ignore type\"",
                           "x // clang-tidy: ignore type", "x // see tilesight: ignore type"}) {
    std::vector<Diagnostic> d = {diag(0, "type")};
    applySuppressions(text, d, allOn);
    EXPECT_EQ(d.size(), 1u) << text;
  }
}

TEST(Suppressions, PrefixesAndSeveralCodes) {
  std::string text = "x // tilesight: ignore race,type bounds.index";
  std::vector<Diagnostic> d = {diag(0, "race.scope"), diag(0, "race.unordered"), diag(0, "type"),
                               diag(0, "bounds.index"), diag(0, "bounds.partial-tile")};
  applySuppressions(text, d, allOn);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "bounds.partial-tile");
}

TEST(Suppressions, AnalyzeAppliesThemWithTheDisabledCodes) {
  std::string text =
      "cuda_tile.module @m {\n  entry @k() {\n"
      "    %c = constant <i32: 1> : tile<3xi32>  // tilesight: ignore type\n"
      "    %d = constant <i32: 1> : tile<4xi32>  // tilesight: ignore race\n"
      "  }\n}\n";
  EXPECT_EQ(codes(analyze(text)), std::vector<std::string>{"suppression.unused"});
  AnalyzeOptions off;
  off.checks.disabled = {"race"};  // a suppression of a code turned off is not unused
  EXPECT_EQ(codes(analyze(text, off)), std::vector<std::string>{});
  off.checks.disabled = {"suppression.unused"};
  EXPECT_EQ(codes(analyze(text, off)), std::vector<std::string>{});
}

TEST(Fixes, OnlyTheOnlyFixAndNoOverlaps) {
  std::string text = "abcdef";
  auto fix = [](uint32_t b, uint32_t e, const char* t) { return Fix{"f", {{{b, e}, t}}}; };
  Diagnostic one = diag(0, "type"), two = diag(0, "type"), alternatives = diag(0, "type"), overlapping = diag(0, "type");
  one.fixes = {fix(0, 1, "A")};
  two.fixes = {fix(4, 5, "E")};
  alternatives.fixes = {fix(2, 3, "C"), fix(2, 3, "c")};
  overlapping.fixes = {fix(0, 2, "XY")};
  size_t applied = 0;
  EXPECT_EQ(applyUnambiguousFixes(text, {one, two, alternatives, overlapping}, applied), "AbcdEf");
  EXPECT_EQ(applied, 2u);
}
