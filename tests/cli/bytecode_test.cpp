// `check` and `translate` on CUDA Tile IR bytecode (docs/bytecode.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/cli_util.h"

namespace tilesight::clitest {
namespace {

const std::string kRoot = std::string(TILESIGHT_TESTS_DIR) + "/..";
const std::string kBugs = "tests/corpus/cutile/bugs/";
const std::string kKernels = "tests/corpus/cutile/kernels/";

// The twin's launch file sits beside it: the bug is reported at its Python line,
// with the op's Tile IR text as a note.
TEST(BytecodeCli, CheckReportsAtThePythonLine) {
  CliRun r = runIn(kRoot, "check " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(kBugs + "vec_add_bug1.py:10:9: error: index 16 of dimension 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[bounds.index]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    y = ct.load(b, index=(i + 1,), shape=(TILE,))"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: Tile IR (line 28 of the text form): %28, %29 = load_view_tko weak"), std::string::npos)
      << r.out;
}

TEST(BytecodeCli, JsonAndSarifCarryThePythonLocation) {
  CliRun j = runIn(kRoot, "check --format=json " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_EQ(j.status, 1);
  EXPECT_NE(j.out.find("\"file\": \"" + kBugs + "vec_add_bug1.py\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"line\": 10"), std::string::npos) << j.out;
  CliRun s = runIn(kRoot, "check --format=sarif " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_NE(s.out.find("vec_add_bug1.py"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("\"startLine\": 10"), std::string::npos) << s.out;
}

// Without the launch the sizes are unknown: no error; --launch names the file.
TEST(BytecodeCli, LaunchFileGivesGridAndArgs) {
  std::string copy = tempPath("vec_add.tilebc");
  std::ofstream(copy, std::ios::binary) << readFile(kRoot + "/" + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_EQ(runIn(kRoot, "check " + copy).status, 0);
  CliRun r = runIn(kRoot, "check --launch " + kBugs + "vec_add_bug1.vec_add.launch.json " + copy);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("vec_add_bug1.py:10:9: error:"), std::string::npos) << r.out;
  EXPECT_EQ(runIn(kRoot, "check --launch " + tempPath("none.json") + " " + copy).status, 2);
}

TEST(BytecodeCli, TranslatePrintsText) {
  CliRun r = runIn(kRoot, "translate " + kKernels + "elementwise.vec_add.13_4.tilebc");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("cuda_tile.module @kernels {\n  entry @vec_add_", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("%28 = addf %23, %26 : tile<256xf32>\n"), std::string::npos) << r.out;
  CliRun l = runIn(kRoot, "translate --locations " + kKernels + "elementwise.vec_add.13_4.tilebc");
  EXPECT_NE(l.out.find("%28 = addf %23, %26 : tile<256xf32>  // loc(\"tests/corpus/cutile/kernels/elementwise.py\":11:36)"),
            std::string::npos)
      << l.out;
  // The text with locations is still a program that checks cleanly.
  std::string out = tempPath("vec_add.tile");
  EXPECT_EQ(runIn(kRoot, "translate --locations -o " + out + " " + kKernels + "elementwise.vec_add.13_4.tilebc").status, 0);
  EXPECT_EQ(run("check " + out).status, 0);
}

TEST(BytecodeCli, TruncatedFileGivesTheByteOffset) {
  std::string full = readFile(kRoot + "/" + kKernels + "elementwise.vec_add.13_3.tilebc");
  std::string cut = write("cut.tilebc", full.substr(0, 200));
  CliRun c = run("check " + cut);
  EXPECT_EQ(c.status, 1) << c.out;
  EXPECT_NE(c.out.find("error: bytecode offset "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("[syntax]"), std::string::npos) << c.out;
  CliRun t = run("translate " + cut);
  EXPECT_EQ(t.status, 1) << t.out;
  EXPECT_NE(t.out.find("cut.tilebc: error at byte "), std::string::npos) << t.out;
}

// A .tilebc that is not bytecode is text to the text parser; translate refuses it.
TEST(BytecodeCli, TextNamedTilebcIsParsedAsText) {
  std::string f = write("text.tilebc", kBad);
  CliRun c = run("check " + f);
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.out.find("text.tilebc:3:30: error: "), std::string::npos) << c.out;
  CliRun t = run("translate " + f);
  EXPECT_EQ(t.status, 2);
  EXPECT_NE(t.out.find("is not CUDA Tile IR bytecode"), std::string::npos) << t.out;
}

// Folders: .tilebc files are checked, and so is any file starting with the magic.
TEST(BytecodeCli, FolderWalkTakesBytecode) {
  std::string dir = tempPath("dump");
  std::filesystem::create_directories(dir);
  std::string bytes = readFile(kRoot + "/" + kKernels + "elementwise.vec_add.13_3.tilebc");
  std::ofstream(dir + "/a.tilebc", std::ios::binary) << bytes.substr(0, 100);
  std::ofstream(dir + "/b.bin", std::ios::binary) << bytes.substr(0, 90);
  std::ofstream(dir + "/c.txt", std::ios::binary) << "not a program";
  CliRun r = run("check " + dir);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("a.tilebc:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("b.bin:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("c.txt"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tilesight::clitest
