// Semantic tokens on snapshots, in both position encodings: the transcript
// (semantic_tokens.test) runs with UTF-16 only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "bench/program_gen.h"
#include "server/lsp/semantic_tokens.h"

namespace tilesight::lsp {
namespace {

json tokens(const std::string &text, PositionEncoding e) {
  auto snap = analyzeDocument("file:///t.tile", 1,
                              std::make_shared<const SourceText>(text));
  return semanticTokens(*snap, e, 0, snap->source->size()).flat();
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

// A token in absolute coordinates, with its byte offsets.
struct Absolute {
  uint32_t begin, end, type, mods;
  bool operator==(const Absolute &) const = default;
};

std::vector<Absolute> absolute(const SourceText &src, const std::vector<uint32_t> &d) {
  std::vector<Absolute> out;
  Position at;
  for (size_t i = 0; i + 4 < d.size(); i += 5) {
    at.character = d[i] == 0 ? at.character + d[i + 1] : d[i + 1];
    at.line += d[i];
    uint32_t b = toOffset(src, at, PositionEncoding::Utf16);
    uint32_t e = toOffset(src, {at.line, at.character + d[i + 2]}, PositionEncoding::Utf16);
    out.push_back({b, e, d[i + 3], d[i + 4]});
  }
  return out;
}

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A range request answers exactly the full result's tokens that lie inside
// the range, on every real kernel and random ranges: short ones first, which
// a fresh version answers from one entry's share of the index, then any
// (the whole index, filtered before sorting).
TEST(SemanticTokens, RangeIsTheFullResultInsideIt) {
  std::mt19937 rng(7);
  size_t files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(
           std::string(TILESIGHT_LSP_TESTS_DIR) + "/../corpus/real")) {
    if (entry.path().extension() != ".tile")
      continue;
    ++files;
    std::string text = readFile(entry.path());
    auto whole = analyzeDocument("file:///t.tile", 1, std::make_shared<const SourceText>(text));
    auto fresh = analyzeDocument("file:///t.tile", 1, std::make_shared<const SourceText>(text));
    const SourceText &src = *whole->source;
    std::vector<Absolute> full =
        absolute(src, semanticTokens(*whole, PositionEncoding::Utf16, 0, src.size()).flat());
    ASSERT_FALSE(full.empty()) << entry.path();
    for (int k = 0; k < 40; ++k) {
      uint32_t b = rng() % (src.size() + 1);
      uint32_t e = k < 20 ? std::min<uint32_t>(src.size(), b + rng() % 300) : rng() % (src.size() + 1);
      if (e < b)
        std::swap(b, e);
      std::vector<Absolute> expected;
      for (const Absolute &t : full)
        if (t.begin >= b && t.end <= e)
          expected.push_back(t);
      EXPECT_EQ(absolute(src, semanticTokens(*fresh, PositionEncoding::Utf16, b, e).flat()), expected)
          << entry.path() << " [" << b << ", " << e << ")";
    }
  }
  EXPECT_GT(files, 20u);
}

// The full result from segments (entries) and a share of the rest equals
// the whole index's, on every real kernel in both encodings.
TEST(SemanticTokens, FullFromSegmentsIsTheWholeIndexs) {
  size_t files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(
           std::string(TILESIGHT_LSP_TESTS_DIR) + "/../corpus/real")) {
    if (entry.path().extension() != ".tile" && entry.path().extension() != ".mlir")
      continue;
    ++files;
    std::string text = readFile(entry.path());
    for (PositionEncoding e : {PositionEncoding::Utf16, PositionEncoding::Utf8}) {
      auto a = analyzeDocument("file:///t" + entry.path().extension().string(), 1,
                               std::make_shared<const SourceText>(text));
      auto b = analyzeDocument("file:///t" + entry.path().extension().string(), 1,
                               std::make_shared<const SourceText>(text));
      EXPECT_EQ(fullSemanticTokens(*a, e).flat(), semanticTokens(*b, e, 0, text.size()).flat()) << entry.path();
      EXPECT_EQ(fullSemanticTokens(*a, e).flat(), fullSemanticTokens(*a, e).flat()); // from the kept segments
    }
  }
  EXPECT_GT(files, 20u);
}

// Edits inside entries: the next version keeps every other entry's
// segment, and its full result equals a fresh open's (multi-byte text
// included, so UTF-16 columns and lengths differ from bytes).
TEST(SemanticTokens, SegmentsHandedOnAcrossEdits) {
  std::string text = bench::generateProgram(2000, bench::Form::Custom, 20);
  std::vector<size_t> opLines; // starts of lines inside entries
  for (size_t i = 0; i < text.size(); i = text.find('\n', i) + 1)
    if (text.compare(i, 4, "    ") == 0)
      opLines.push_back(i);
  ASSERT_GT(opLines.size(), 100u);
  std::mt19937 rng(3);
  for (PositionEncoding e : {PositionEncoding::Utf16, PositionEncoding::Utf8}) {
    std::string now = text;
    auto snap = analyzeDocument("file:///g.tile", 1, std::make_shared<const SourceText>(now));
    size_t items = snap->analysis.chunks[0].parsed.items.size();
    ASSERT_EQ(items, 20u);
    fullSemanticTokens(*snap, e);
    ASSERT_EQ(snap->tokenSegments.size(), items);
    int carried = 0;
    for (int k = 0; k < 12; ++k) {
      // Each edit before the earlier ones keeps `opLines` valid.
      size_t step = opLines.size() / 13;
      size_t at = opLines[opLines.size() - 1 - k * step - rng() % (step / 2)];
      now.insert(at, k % 3 == 0 ? "    // é😀 note\n" : k % 3 == 1 ? "    %extra" + std::to_string(k) +
                                                                       " = constant <i32: 7> : tile<i32>\n"
                                                                 : "  ");
      auto next = analyzeDocument("file:///g.tile", k + 2, std::make_shared<const SourceText>(now), {}, 0, nullptr,
                                  std::move(snap));
      snap = std::move(next);
      if (snap->analysis.reparsedItem) {
        ++carried;
        EXPECT_EQ(snap->tokenSegments.size(), items - 1);
      }
      auto fresh = analyzeDocument("file:///g.tile", 1, std::make_shared<const SourceText>(now));
      EXPECT_EQ(fullSemanticTokens(*snap, e).flat(), semanticTokens(*fresh, e, 0, now.size()).flat()) << "edit " << k;
    }
    EXPECT_GE(carried, 10);
  }
}

TEST(SemanticTokens, EditBetweenTwoResults) {
  using V = std::vector<uint32_t>;
  auto edit = [](V a, V b) { return tokensEdit(SemanticTokens::of(a), SemanticTokens::of(b)); };
  EXPECT_FALSE(edit(V{1, 2, 3, 4, 5}, V{1, 2, 3, 4, 5}));
  std::optional<SemanticTokensEdit> e = edit(V{1, 2, 3, 4, 5}, V{1, 2, 9, 9, 4, 5});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->start, 2u);
  EXPECT_EQ(e->deleteCount, 1u);
  EXPECT_EQ(e->data, (V{9, 9}));
  // A removal at the end; the suffix never overlaps the prefix.
  e = edit(V{1, 1, 1, 1}, V{1, 1});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->start, 2u);
  EXPECT_EQ(e->deleteCount, 2u);
  EXPECT_TRUE(e->data.empty());
  e = edit(V{}, V{4, 5});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->start, 0u);
  EXPECT_EQ(e->deleteCount, 0u);
  EXPECT_EQ(e->data, (V{4, 5}));
}

// Results in pieces: a piece both hold is passed over whole, a shared piece
// whose first token moved is compared, and the edit's data crosses pieces.
TEST(SemanticTokens, EditBetweenResultsInPieces) {
  using V = std::vector<uint32_t>;
  auto shared = std::make_shared<const V>(V{0, 0, 3, 1, 0, 0, 4, 2, 2, 0});
  auto piece = [](V v) { return SemanticTokens::of(std::move(v)).pieces[0]; };
  SemanticTokens a, b;
  a.pieces = {piece({0, 2, 5, 0, 0}), {shared, 1, 0}, piece({2, 1, 1, 0, 0})};
  b.pieces = {piece({0, 2, 5, 0, 0}), piece({0, 9, 1, 0, 0}), {shared, 3, 0}, piece({2, 1, 1, 0, 0})};
  std::optional<SemanticTokensEdit> e = tokensEdit(a, b);
  ASSERT_TRUE(e);
  V before = a.flat(), after = b.flat();
  before.erase(before.begin() + e->start, before.begin() + e->start + e->deleteCount);
  before.insert(before.begin() + e->start, e->data.begin(), e->data.end());
  EXPECT_EQ(before, after);
  EXPECT_EQ(e->start, 5u);
  EXPECT_EQ(e->deleteCount, 1u); // the shared piece's line delta: 1 -> 3
  EXPECT_EQ(e->data, (V{0, 9, 1, 0, 0, 3}));
  EXPECT_FALSE(tokensEdit(b, b));
}

// The forward cursor answers as toPosition at every offset, in order and
// after a jump back, in both encodings.
TEST(SemanticTokens, PositionCursorMatchesToPosition) {
  SourceText src(std::string(kUnicode) + "\r\nx\rlast😀 line");
  for (PositionEncoding e : {PositionEncoding::Utf8, PositionEncoding::Utf16}) {
    PositionCursor cursor(src, e);
    for (uint32_t o = 0; o <= src.size(); ++o) {
      Position want = toPosition(src, o, e), got = cursor.at(o);
      EXPECT_EQ(got.line, want.line) << o;
      EXPECT_EQ(got.character, want.character) << o;
    }
    for (uint32_t o : {5u, 40u, 3u, src.size(), 0u}) {
      Position want = toPosition(src, o, e), got = cursor.at(o);
      EXPECT_EQ(got.line, want.line) << o;
      EXPECT_EQ(got.character, want.character) << o;
    }
  }
}

} // namespace
} // namespace tilesight::lsp
