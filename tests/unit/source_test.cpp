#include <gtest/gtest.h>

#include "analysis/source/source_text.h"

using namespace tilesight;

TEST(SourceText, LineAndColumnAreByteBased) {
  SourceText s("ab\ncdé\nx");
  EXPECT_EQ(s.lineCount(), 3u);
  EXPECT_EQ(s.lineCol(0).line, 0u);
  EXPECT_EQ(s.lineCol(4).line, 1u);
  EXPECT_EQ(s.lineCol(4).col, 1u);
  EXPECT_EQ(s.lineText(1), "cdé");
  EXPECT_EQ(s.offsetOf({2, 0}), 8u);
}

TEST(SourceText, Utf16ColumnsCountSurrogatePairs) {
  SourceText s("é😀%x");  // é = 2 bytes/1 unit, 😀 = 4 bytes/2 units
  EXPECT_EQ(s.utf16Col({0, 2}), 1u);
  EXPECT_EQ(s.utf16Col({0, 6}), 3u);
  EXPECT_EQ(s.byteColFromUtf16(0, 3), 6u);
  EXPECT_EQ(s.byteColFromUtf16(0, 1), 2u);
}

TEST(SourceText, SplitKeepsFileOffsets) {
  std::string text = "a\n// -----\nb\n  // ----- trailing\nc";
  auto chunks = splitChunks(text);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(text.substr(chunks[0].begin, chunks[0].end - chunks[0].begin), "a\n");
  EXPECT_EQ(text.substr(chunks[2].begin, chunks[2].end - chunks[2].begin), "\nc");
  EXPECT_EQ(chunks[1].begin, 10u);
}
