// `run` on cuTile bytecode (issue 34): the launch file beside the bytecode
// gives the grid, sizes, strides and scalars; arrays are named by their
// Python names. scripts/cutile_parity.py (ctest corpus.cutile_parity) runs
// the whole corpus against NumPy; these pin the command line's rules.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;

namespace {

const std::string kKernels = std::string(TILESIGHT_TESTS_DIR) + "/corpus/cutile/kernels/";
const std::string kVecAdd = kKernels + "elementwise.vec_add.13_3.tilebc";

TEST(BytecodeRun, TheLaunchBesideGivesGridSizesAndPythonNames) {
  std::string out = tempPath("out.npy");
  CliRun r = run("run " + kVecAdd + " --arg a=rand:4096:f32 --arg b=zeros:4096:f32 --out out=" + out);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("grid 16,1,1"), std::string::npos) << r.out;  // the launch's grid
  // out = a + 0 = a: the same statistics as the rand: buffer, each named by its Python name.
  std::string text = "\n" + r.out;
  size_t a = text.find("\na  "), o = text.find("\nout  ");
  ASSERT_NE(a, std::string::npos) << r.out;
  ASSERT_NE(o, std::string::npos) << r.out;
  EXPECT_EQ(text.find("arg0"), std::string::npos) << r.out;
  EXPECT_EQ(text.substr(a + 3, text.find('\n', a + 1) - a - 3), text.substr(o + 5, text.find('\n', o + 1) - o - 5));
  EXPECT_FALSE(readFile(out).empty());
}

// A run's findings on bytecode are at the Python line, with the buffer's
// Python name; ops named in the message by their Python lines too.
TEST(BytecodeRun, FindingsAtThePythonLineWithPythonNames) {
  const std::string bugs = std::string(TILESIGHT_TESTS_DIR) + "/corpus/cutile/bugs/";
  CliRun r = runIn(std::string(TILESIGHT_TESTS_DIR) + "/..",
                   "run tests/corpus/cutile/bugs/stencil3_bug1.stencil3.13_3.tilebc");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("stencil3_bug1.py:13:13: error: tile block (15, 0, 0): a load of 4 bytes at %x + 16384 bytes"),
            std::string::npos)
      << r.out;
  CliRun s = runIn(std::string(TILESIGHT_TESTS_DIR) + "/..",
                   "run --sanitize tests/corpus/cutile/bugs/block_sum_atomic_bug1.block_sum_atomic.13_3.tilebc");
  EXPECT_EQ(s.status, 1) << s.out;
  EXPECT_NE(s.out.find("block_sum_atomic_bug1.py:13:5: error: store_view_tko at line 13 in tile block"),
            std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("writes %total + 0 bytes"), std::string::npos) << s.out;
}

TEST(BytecodeRun, AnUnknownPythonNameIsAUsageError) {
  CliRun r = run("run " + kVecAdd + " --arg nope=1");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("has no argument 'nope'"), std::string::npos) << r.out;
}

TEST(BytecodeRun, ABadLaunchFileIsAUsageError) {
  std::string bad = write("bad.launch.json", "{\"grid\": [0], \"args\": []}");
  CliRun r = run("run " + kVecAdd + " --launch " + bad);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("\"grid\" wants one to three integers from 1 to 2^24 - 1"), std::string::npos) << r.out;
  CliRun missing = run("run " + kVecAdd + " --launch " + tempPath("none.json"));
  EXPECT_EQ(missing.status, 2) << missing.out;
  EXPECT_NE(missing.out.find("cannot read the launch file"), std::string::npos) << missing.out;
}

TEST(BytecodeRun, LaunchIsForBytecode) {
  CliRun r = run("run " + std::string(TILESIGHT_TESTS_DIR) + "/../examples/gemm.tile --launch x.json");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--launch is for bytecode programs"), std::string::npos) << r.out;
}

TEST(BytecodeRun, ATruncatedFileIsOneErrorWithItsOffset) {
  std::string bytes = readFile(kVecAdd);
  std::string cut = write("cut.tilebc", bytes.substr(0, bytes.size() / 2));
  CliRun r = run("run " + cut);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("bytecode offset"), std::string::npos) << r.out;
}

}  // namespace
