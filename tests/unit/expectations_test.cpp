#include <gtest/gtest.h>

#include "analysis/diag/expectations.h"

using namespace tilesight;

TEST(Expectations, BelowBindsToNextUndesignatedLine) {
  SourceText src(
      "// expected-error @below {{first}}\n"
      "// expected-error @below {{second}}\n"
      "op\n"
      "op2 // expected-warning {{same line}}\n"
      "// expected-note @+2 {{two down}}\n"
      "x\n"
      "y\n"
      "// expected-error @above {{up}}\n");
  std::vector<Diagnostic> problems;
  auto e = parseExpectations(src, problems);
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[0].line, 2u);
  EXPECT_EQ(e[1].line, 2u);
  EXPECT_EQ(e[2].line, 3u);
  EXPECT_EQ(e[2].severity, Severity::Warning);
  EXPECT_EQ(e[3].line, 6u);
  EXPECT_EQ(e[4].line, 6u);
  EXPECT_EQ(e[0].substring, "first");
  EXPECT_TRUE(problems.empty());
}

TEST(Expectations, BracesInsideTheMessageAreKept) {
  SourceText src("// expected-error @below {{one of: {'signed', 'unsigned'}}}\nop\n");
  std::vector<Diagnostic> problems;
  auto e = parseExpectations(src, problems);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].substring, "one of: {'signed', 'unsigned'}");
}

TEST(Expectations, MatchingReportsMissingAndUnexpected) {
  SourceText src("// expected-error @below {{bad}}\nop\nother\n");
  std::vector<Diagnostic> problems;
  auto e = parseExpectations(src, problems);
  uint32_t opLine = src.offsetOf({1, 0}), otherLine = src.offsetOf({2, 0});
  std::vector<Diagnostic> produced = {{{opLine, opLine + 2}, Severity::Error, "type", "a bad thing", {}, {}},
                                      {{otherLine, otherLine + 1}, Severity::Error, "type", "surprise", {}, {}}};
  auto rep = matchExpectations(src, e, produced);
  EXPECT_TRUE(rep.missing.empty());
  ASSERT_EQ(rep.unexpected.size(), 1u);
  EXPECT_EQ(rep.unexpected[0].message, "surprise");
  auto rep2 = matchExpectations(src, e, {});
  EXPECT_EQ(rep2.missing.size(), 1u);
  EXPECT_FALSE(rep2.ok());
}
