// parseMessage (long_strings.h) against json::parse: the same json for
// messages with long strings of every escape and UTF-8 length, the same
// error for those json::parse refuses, and a client's string that looks like
// the stand-in for a long one taken as it is.
#include <gtest/gtest.h>

#include <string>

#include "server/lsp/jsonrpc.h"
#include "server/lsp/long_strings.h"

namespace tilesight::lsp {
namespace {

using json = nlohmann::json;

// A JSON string literal of at least kLongStringBytes: `piece` repeated.
std::string longLiteral(const std::string &piece) {
  std::string s = "\"";
  while (s.size() < kLongStringBytes + 16)
    s += piece;
  return s + "\"";
}

// parseMessage(body) is json::parse(body), or both refuse it alike.
void same(const std::string &body) {
  std::string expected, actual;
  try {
    expected = json::parse(body).dump();
  } catch (const json::parse_error &e) {
    expected = std::string("error: ") + e.what();
  }
  try {
    actual = parseMessage(body).dump();
  } catch (const json::parse_error &e) {
    actual = std::string("error: ") + e.what();
  }
  EXPECT_EQ(actual, expected) << body.substr(0, 200);
}

TEST(LongStrings, ParsesAsJsonParseDoes) {
  std::string doc = longLiteral("cuda_tile.module @m {\\n  %x = \\\"é→😀\\\" \\\\ \\/ \\b\\f\\r\\t \\u00e9\\ud83d\\ude00\\u0000 }");
  same(R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a","version":2},)"
       R"("contentChanges":[{"text":)" + doc + "}]}}");
  same("[" + doc + " , " + doc + ",{\"k\" : " + doc + "}]");   // several, spaces around
  same("{" + doc + ":1}");                                    // a long key stays a key
  same("{" + doc + " : " + doc + "}");
  same(longLiteral("\\\\"));                                  // backslashes before the closing quote
  same(longLiteral("ab") + " ");
  // A client's own string that reads as a stand-in.
  same("[" + doc + ",\"\\u0000tilesight long string 0\"]");
  same("[" + doc + ",\"\\u0000tilesight long string 7\"]");
}

TEST(LongStrings, RefusesWhatJsonParseRefuses) {
  for (const std::string piece : {"a\tb", "\\x", "\\u12", "\\ud83d", "\\ude00", "\\ud83d\\u0041", "\xc0\xaf",
                                   "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x7f\x01"})
    same("[" + longLiteral(piece) + "]");
  same("[" + longLiteral("a").substr(0, kLongStringBytes + 5)); // never closed
  same("[" + longLiteral("a") + ",]");                          // broken around it
}

TEST(LongStrings, NestingIsCountedOutsideStringsOnly) {
  std::string deep(600, '[');
  EXPECT_FALSE(nestsDeeperThan("[\"" + deep + "\\\"" + deep + "\"]", 512));
  EXPECT_TRUE(nestsDeeperThan("[\"\\\\\"" + deep, 512));
  EXPECT_FALSE(nestsDeeperThan("[\"" + deep, 512)); // a string never closed
}

} // namespace
} // namespace tilesight::lsp
