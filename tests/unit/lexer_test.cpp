#include <gtest/gtest.h>

#include <vector>

#include "analysis/syntax/lexer.h"

using namespace tilesight;

static std::vector<Token> lexAll(std::string_view text) {
  Lexer lx(text, 0, static_cast<uint32_t>(text.size()));
  std::vector<Token> out;
  for (Token t = lx.next(); !t.is(Tok::Eof); t = lx.next()) out.push_back(t);
  return out;
}

TEST(Lexer, PrefixedNamesAndPunctuation) {
  auto t = lexAll("%x:2 = testing$func @k(%a#1) -> !cuda_tile.tile<4xf32> // c\n#a");
  ASSERT_EQ(t.size(), 17u);
  EXPECT_TRUE(t[0].is(Tok::PercentId));
  EXPECT_EQ(t[0].text, "%x");
  EXPECT_TRUE(t[1].is(Tok::Colon));
  EXPECT_TRUE(t[2].is(Tok::Integer));
  EXPECT_EQ(t[4].text, "testing$func");
  EXPECT_TRUE(t[5].is(Tok::AtId));
  EXPECT_EQ(t[7].text, "%a");
  EXPECT_TRUE(t[8].is(Tok::HashId));
  EXPECT_TRUE(t[10].is(Tok::Arrow));
  EXPECT_EQ(t[11].text, "!cuda_tile.tile");
  EXPECT_EQ(t[16].text, "#a");
}

TEST(Lexer, NumbersStringsAndErrors) {
  auto t = lexAll("0x7FC00000 1.5e-3 2. \"a\\\"b\" \"open\n$");
  ASSERT_GE(t.size(), 6u);
  EXPECT_TRUE(t[0].is(Tok::Integer));
  EXPECT_TRUE(t[1].is(Tok::Float));
  EXPECT_TRUE(t[2].is(Tok::Float));
  EXPECT_TRUE(t[3].is(Tok::String));
  EXPECT_TRUE(t[4].is(Tok::Error));  // unterminated string
  EXPECT_TRUE(t.back().is(Tok::Error));
}

TEST(Lexer, MultiByteCharacterIsOneErrorToken) {
  auto t = lexAll("é %a");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(t[0].is(Tok::Error));
  EXPECT_EQ(t[0].text, "é");
}
