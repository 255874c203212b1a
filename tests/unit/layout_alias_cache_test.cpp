// The #layout alias cache (checks/layout_aliases.h): an analysis with a
// cache gives what one without gives, an alias whose text and named aliases
// did not change is taken from the cache, and one whose named alias changed
// is evaluated again.
#include <gtest/gtest.h>

#include "analysis/analysis.h"

namespace tilesight {
namespace {

std::string program(const std::string& sA) {
  return "#sA = #layout<" + sA + ">\n"
         "#sB = #layout<composition(#sA, (2,2):(1,4)), expect = injective>\n"
         "#sC = #layout<(8,4):(1,8)>\n"
         "cuda_tile.module @m {\n}\n";
}

std::vector<std::string> facts(const Analysis& a) {
  std::vector<std::string> out;
  for (const LayoutAliasFact& f : a.chunks.at(0).layouts)
    out.push_back(std::string(f.name) + " " + layout::valueText(f.value) + (f.properties.injective ? " injective" : ""));
  return out;
}

std::vector<std::string> messages(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(d.code + ": " + d.message);
  return out;
}

TEST(LayoutAliasCache, ReusesUnchangedAliasesAndReevaluatesDependentsOfAChangedOne) {
  LayoutAliasCache cache;
  AnalyzeOptions cached;
  cached.layoutCache = &cache;
  // The texts outlive their analyses (facts point into them).
  std::string text1 = program("(4,2):(2,1)"), text2 = text1 + "// an edit elsewhere\n", text3 = program("(4,2):(1,1)");
  Analysis first = analyze(text1, cached);
  EXPECT_EQ(cache.hits(), 0u);
  Analysis again = analyze(text2, cached);
  EXPECT_EQ(cache.hits(), 3u);  // all three from the cache
  EXPECT_EQ(facts(again), facts(first));
  EXPECT_EQ(messages(again), messages(first));
  // #sA now has a collision: #sB (which names it) is evaluated again and its claim fails; #sC is cached.
  Analysis changed = analyze(text3, cached);
  Analysis plain = analyze(text3);
  EXPECT_EQ(cache.hits(), 4u);
  EXPECT_EQ(facts(changed), facts(plain));
  EXPECT_EQ(messages(changed), messages(plain));
  ASSERT_FALSE(messages(plain).empty());
  EXPECT_EQ(messages(plain)[0].rfind("layout.claim", 0), 0u) << messages(plain)[0];
}

}  // namespace
}  // namespace tilesight
