// `// tilesight-run:` directives and run options (analysis/run_directive.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/run_directive.h"

namespace tilesight {
namespace {

std::vector<std::string> messages(const ParsedRunConfig& p) {
  std::vector<std::string> out;
  for (const RunConfigProblem& x : p.problems) out.push_back(x.message);
  return out;
}

TEST(RunDirective, OptionsBecomeTheRunsArguments) {
  ParsedRunConfig p = parseRunConfig(
      "--entry @gemm --grid 8,8 --arg a=rand:1024x512:f16:7 --arg=n=1024 --arg l=list:@x.npy,zeros:4:f32 "
      "--out c=out/c.npy --check --threads=2 --device opencl:0");
  ASSERT_TRUE(p.ok()) << messages(p)[0];
  EXPECT_EQ(p.config.entry, "gemm");
  EXPECT_EQ(p.config.grid, (std::array<int64_t, 3>{8, 8, 1}));
  EXPECT_EQ(p.config.device, "opencl:0");
  EXPECT_EQ(p.config.argv("cpu", false),
            (std::vector<std::string>{"--entry=gemm", "--grid=8,8,1", "--device=cpu", "--arg=a=rand:1024x512:f16:7",
                                      "--arg=n=1024", "--arg=l=list:@x.npy,zeros:4:f32", "--out=c=out/c.npy",
                                      "--check", "--threads=2"}));
  // The sanitizer replaces --check (it runs on the cpu, with nothing to compare).
  std::vector<std::string> sanitized = p.config.argv("cpu", true);
  EXPECT_EQ(sanitized.back(), "--sanitize");
  EXPECT_EQ(std::count(sanitized.begin(), sanitized.end(), "--check"), 0);
  EXPECT_EQ(p.config.inputs(), (std::vector<std::string>{"x.npy"}));
  EXPECT_EQ(p.config.outputs(), (std::vector<std::string>{"out/c.npy"}));
}

TEST(RunDirective, EachProblemIsOnItsWords) {
  std::string text = "--grid 0,1 --arg a=@/etc/a.npy --out c=../c.npy --arg b=zeros:4y:f32 --arg d=rand:4:q7 "
                     "--sanitize --format=json --device tpu --threads x --check=1 --arg e --frob FILE";
  ParsedRunConfig p = parseRunConfig(text, 100);
  std::vector<std::string> m = messages(p);
  ASSERT_EQ(m.size(), 13u);
  EXPECT_EQ(m[0], "--grid takes positive X[,Y[,Z]], not '0,1'");
  EXPECT_EQ(p.problems[0].range.begin, 100u);
  EXPECT_EQ(p.problems[0].range.end, 110u);
  EXPECT_EQ(m[1], "--arg a: '/etc/a.npy' is not relative: paths are relative to the file's folder and stay inside it");
  EXPECT_EQ(m[2], "--out c: '../c.npy' leaves the file's folder ('..')");
  EXPECT_EQ(m[3], "--arg b: '4y' is not a shape such as 1024x512");
  EXPECT_EQ(m[4], "--arg d: 'q7' is not an element type (f32, f16, bf16, i32, ... or a NumPy descr)");
  EXPECT_EQ(m[5], "--sanitize is chosen when the run starts (the Sanitize lens or command), not in the options");
  EXPECT_EQ(m[6], "--format is the editor's: it reads the run's JSON");
  EXPECT_EQ(m[7], "'tpu' is not a device: auto, cpu, cuda[:N], hip[:N] or opencl[:N]");
  EXPECT_EQ(m[8], "--threads takes a number, not 'x'");
  EXPECT_EQ(m[9], "--check takes no value");
  EXPECT_EQ(m[10], "--arg takes NAME=VALUE, not 'e'");
  EXPECT_EQ(m[11].substr(0, 45), "unknown option '--frob'; the run options are ");
  EXPECT_EQ(m[12], "'FILE' is not an option: the file to run is the one the options are in");
  EXPECT_EQ(messages(parseRunConfig("--grid 2 --out"))[0], "--out needs a value");
}

TEST(RunDirective, DirectivesAreCommentLinesCheckedAgainstTheEntries) {
  std::string text =
      "// tilesight-run: --entry a --grid 2\n"
      "  // tilesight-run: --entry b\n"
      "x = 1 // tilesight-run: --entry c\n"  // not at the start of its line: not a directive
      "// tilesight-run: --entry zz\n"
      "// tilesight-run: --entry a\n";
  std::vector<RunDirective> d = findRunDirectives(text);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].range.begin, 0u);
  EXPECT_EQ(d[1].parsed.config.entry, "b");
  std::vector<Diagnostic> diags = checkRunDirectives(d, {"a", "b"});
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].message, "the file has no entry 'zz'; its entries: a, b");
  EXPECT_EQ(diags[1].message, "a second directive for entry 'a'");
  ASSERT_EQ(diags[1].notes.size(), 1u);
  EXPECT_EQ(diags[1].notes[0].range.begin, 0u);
  EXPECT_EQ(directiveFor(d, "b", 2)->entry, "b");
  EXPECT_EQ(directiveFor(d, "c", 2), nullptr);
  // Without --entry: the only entry's, or a problem in a file of several.
  std::vector<RunDirective> one = findRunDirectives("// tilesight-run: --grid 4\n");
  EXPECT_TRUE(checkRunDirectives(one, {"k"}).empty());
  EXPECT_NE(directiveFor(one, "k", 1), nullptr);
  EXPECT_EQ(checkRunDirectives(one, {"k", "m"})[0].message,
            "name the entry to run (--entry NAME): the file has 2 entries");
}

}  // namespace
}  // namespace tilesight
