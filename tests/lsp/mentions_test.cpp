// Mentions (server/lsp/mentions.h): which entity a name is, per chunk.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/lsp/mentions.h"

namespace tilesight::lsp {
namespace {

struct Doc {
  std::shared_ptr<const Snapshot> snap;
  std::vector<Mention> mentions;

  explicit Doc(const std::string &text)
      : snap(analyzeDocument("file:///m.tile", 1,
                             std::make_shared<const SourceText>(text))),
        mentions(chunkMentions(*snap, snap->analysis.chunks.at(0))) {}

  uint32_t offsetOf(std::string_view needle, size_t nth = 0) const {
    size_t at = snap->source->text().find(needle);
    for (; nth > 0; --nth)
      at = snap->source->text().find(needle, at + 1);
    EXPECT_NE(at, std::string_view::npos) << needle;
    return static_cast<uint32_t>(at);
  }
  // The offsets where the entity under `offset` is mentioned.
  std::vector<uint32_t> same(uint32_t offset) const {
    std::optional<Mention> m = mentionAt(mentions, offset);
    std::vector<uint32_t> out;
    if (m)
      for (const Mention &o : mentions)
        if (sameEntity(snap->source->text(), o, *m))
          out.push_back(o.range.begin);
    return out;
  }
};

// Each module is its own symbol table: the two @g are different symbols.
TEST(Mentions, SymbolsResolveInTheirModule) {
  Doc d(R"(cuda_tile.module @a {
  global @g <f32: [1.0]> : tile<1xf32>
  entry @k() {
    %p = get_global @g : tile<ptr<f32>>
    return
  }
}
cuda_tile.module @b {
  global @g <f32: [1.0]> : tile<1xf32>
  entry @k() {
    %p = get_global @g : tile<ptr<f32>>
    return
  }
}
)");
  uint32_t g1 = d.offsetOf("@g"), g2 = d.offsetOf("@g", 2);
  EXPECT_EQ(d.same(g1), std::vector<uint32_t>({g1, d.offsetOf("@g", 1)}));
  EXPECT_EQ(d.same(d.offsetOf("@g", 3)),
            std::vector<uint32_t>({g2, d.offsetOf("@g", 3)}));
}

// `^bb0` in a comment or a string is not a use of the label; a cursor just
// after a name (at its end) still finds it.
TEST(Mentions, LabelUsesSkipCommentsAndStrings) {
  Doc d(R"("test.region"() ({
^bb0:
  // not a use: ^bb0
  "test.br"()[^bb0] {note = "^bb0"} : () -> ()
}) : () -> ()
)");
  uint32_t def = d.offsetOf("^bb0");
  uint32_t use = d.offsetOf("[^bb0") + 1;
  EXPECT_EQ(d.same(def), std::vector<uint32_t>({def, use}));
  EXPECT_EQ(d.same(use + 4), std::vector<uint32_t>({def, use}));
  EXPECT_EQ(d.same(d.offsetOf("not")), std::vector<uint32_t>());
}

// An alias used before any definition is its own (undefined) entity.
TEST(Mentions, AliasUseBeforeDefinition) {
  Doc d(R"(#a = #layout<coalesce(#b)>
#b = #layout<(4,2):(2,1)>
#c = #layout<coalesce(#b)>
)");
  uint32_t early = d.offsetOf("#b");
  uint32_t def = d.offsetOf("#b", 1), late = d.offsetOf("#b", 2);
  EXPECT_EQ(d.same(early), std::vector<uint32_t>({early}));
  EXPECT_EQ(d.same(late), std::vector<uint32_t>({def, late}));
  EXPECT_FALSE(mentionAt(d.mentions, early)->isDef);
}

// Navigation reads a value's or label's entity from its entry's mentions
// alone (no whole-file index on a new version): on every real kernel, at
// every mention, that gives what the whole chunk's index gives.
TEST(Mentions, AnEntrysMentionsAloneGiveItsValuesAndLabels) {
  size_t files = 0, checked = 0;
  for (const auto &entry : std::filesystem::directory_iterator(
           std::string(TILESIGHT_LSP_TESTS_DIR) + "/../corpus/real")) {
    if (entry.path().extension() != ".tile")
      continue;
    ++files;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    Doc d(ss.str());
    std::string_view text = d.snap->source->text();
    for (const Mention &m : d.mentions)
      for (uint32_t at : {m.range.begin, m.range.end - 1}) {
        std::optional<Entity> e = entityInIsolatedOp(*d.snap, at);
        if (!e)
          continue;
        ++checked;
        std::optional<Mention> under = mentionAt(d.mentions, at);
        ASSERT_TRUE(under) << entry.path() << " at " << at;
        EXPECT_EQ(e->under.range.begin, under->range.begin) << entry.path() << " at " << at;
        std::vector<uint32_t> want, got;
        for (const Mention &o : d.mentions)
          if (sameEntity(text, o, *under))
            want.push_back(o.range.begin);
        for (const Mention &o : e->all)
          got.push_back(o.range.begin);
        EXPECT_EQ(got, want) << entry.path() << " at " << at;
      }
  }
  EXPECT_GT(files, 20u);
  EXPECT_GT(checked, 1000u);
}

} // namespace
} // namespace tilesight::lsp
