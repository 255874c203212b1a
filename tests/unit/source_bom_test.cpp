// A UTF-8 byte-order mark at the start of a file (issue 33): no part of the
// program, kept in the text, and not counted in the first line's columns.
#include <gtest/gtest.h>

#include <string>

#include "analysis/analysis.h"
#include "analysis/source/source_text.h"

using namespace tilesight;

namespace {

const std::string kBom = "\xEF\xBB\xBF";

TEST(SourceBom, FirstLineStartsAfterTheMark) {
  SourceText s(kBom + "ab\ncd");
  EXPECT_EQ(s.text().substr(0, 3), kBom);  // kept
  EXPECT_EQ(s.lineText(0), "ab");
  EXPECT_EQ(s.lineCol(3).col, 0u);
  EXPECT_EQ(s.lineCol(4).col, 1u);
  EXPECT_EQ(s.lineCol(0).col, 0u);  // inside the mark: where the line starts
  EXPECT_EQ(s.offsetOf({0, 0}), 3u);
  EXPECT_EQ(s.offsetOf({1, 1}), 7u);
  EXPECT_EQ(s.utf16Col({0, 1}), 1u);
  EXPECT_EQ(s.byteColFromUtf16(0, 1), 1u);
  EXPECT_EQ(SourceText("ab").offsetOf({0, 0}), 0u);
}

TEST(SourceBom, TheProgramParsesAsWithoutIt) {
  std::string program = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n";
  Analysis plain = analyze(program), marked = analyze(kBom + program);
  EXPECT_TRUE(marked.diagnostics.empty()) << marked.diagnostics[0].message;
  ASSERT_EQ(marked.chunks[0].parsed.program.ops.size(), plain.chunks[0].parsed.program.ops.size());
  EXPECT_EQ(marked.chunks[0].parsed.program.ops[0].range.begin, 3u);
  EXPECT_FALSE(parseRecovered(marked));
}

TEST(SourceBom, AParseThatRecoveredJudgesNoSuppression) {
  std::string text = "cuda_tile.module @m {\n  entry @k() {\n    return  // tilesight: ignore race\n  }\n}\n";
  Analysis clean = analyze(text);
  ASSERT_EQ(clean.diagnostics.size(), 1u);
  EXPECT_EQ(clean.diagnostics[0].code, "suppression.unused");
  Analysis broken = analyze(text + "}\n");  // a stray '}' at top level
  EXPECT_TRUE(parseRecovered(broken));
  for (const Diagnostic& d : broken.diagnostics) EXPECT_NE(d.code, "suppression.unused");
}

}  // namespace
