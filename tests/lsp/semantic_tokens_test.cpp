// Semantic tokens on snapshots, in both position encodings: the transcript
// (semantic_tokens.test) runs with UTF-16 only.
#include <gtest/gtest.h>

#include "server/lsp/semantic_tokens.h"

namespace tilesight::lsp {
namespace {

json tokens(const std::string &text, PositionEncoding e) {
  auto snap = analyzeDocument("file:///t.tile", 1,
                              std::make_shared<const SourceText>(text));
  Settings settings;
  ClientFeatures client;
  FeatureContext cx{*snap, e, settings, client};
  return semanticTokensFull(cx, json::object())["data"];
}

const char *kUnicode = R"(cuda_tile.module @m {
  entry @"kérnel😀"(%n: tile<i32>) {
    return
  }
}
)";

// @"kérnel😀" is 14 bytes and 11 UTF-16 units; %n starts at byte 23, unit 20.
TEST(SemanticTokens, MultiByteCharactersInBothEncodings) {
  EXPECT_EQ(tokens(kUnicode, PositionEncoding::Utf8),
            json({0, 0, 16, 0, 0, 0, 17, 2,  1, 1,                 //
                  1, 2, 5,  0, 0, 0, 6,  14, 1, 1, 0, 15, 2, 3, 1, //
                  0, 4, 4,  4, 0, 1, 4,  6,  0, 0}));
  EXPECT_EQ(tokens(kUnicode, PositionEncoding::Utf16),
            json({0, 0, 16, 0, 0, 0, 17, 2,  1, 1,                 //
                  1, 2, 5,  0, 0, 0, 6,  11, 1, 1, 0, 12, 2, 3, 1, //
                  0, 4, 4,  4, 0, 1, 4,  6,  0, 0}));
}

// Nested types colour their heads (`tile`, `ptr`) without overlapping; a
// `%r:2` group is the token `%r`, and `%r#1` one token; block labels and
// the result types' numbers are left to the grammar.
TEST(SemanticTokens, TypeHeadsResultGroupsAndLabels) {
  const char *text = R"(testing$func @f(%p: tile<ptr<f32>>) {
  %r:2 = get_tile_block_id : tile<i32>
  "test.region"() ({
  ^bb0:
    "test.br"()[^bb0] : () -> ()
  }) : () -> ()
  return %r#1 : tile<i32>
}
)";
  EXPECT_EQ(tokens(text, PositionEncoding::Utf16),
            json({0, 0, 12, 0, 0, 0, 13, 2,  1, 1, 0, 3,  2, 3, 1, // line 0
                  0, 4, 4,  4, 0, 0, 5,  3,  4, 0,                 //
                  1, 2, 2,  2, 1, 0, 7,  17, 0, 0, 0, 20, 4, 4, 0, // line 1
                  1, 2, 13, 0, 0,                                  // line 2
                  2, 4, 9,  0, 0,                                  // line 4
                  2, 2, 6,  0, 0, 0, 7,  4,  2, 0, 0, 7,  4, 4, 0}));
}

} // namespace
} // namespace tilesight::lsp
