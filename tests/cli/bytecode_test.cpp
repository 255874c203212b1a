// `check` and `translate` on CUDA Tile IR bytecode (docs/bytecode.md).
#include <gtest/gtest.h>

#include <cstdlib>
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
  EXPECT_NE(r.out.find(kBugs + "vec_add_bug1.py:11:9: error: index 16 of dimension 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[bounds.index]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    y = ct.load(b, index=(i + 1,), shape=(TILE,))"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: Tile IR (line 28 of the text form): %28, %29 = load_view_tko weak"), std::string::npos)
      << r.out;
}

// A message naming another op (the loop, a race's other access, a lock) names
// its Python line too, not a line of the text form the user never saw.
TEST(BytecodeCli, MessagesNameOtherPlacesByTheirPythonLine) {
  CliRun r = runIn(kRoot, "check " + kBugs + "col_max_bug1.col_max.13_3.tilebc");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("when %29 = 4 in the loop at line 12; %29 ranges over [0, 4] from the loop at line 12,"),
            std::string::npos)
      << r.out;
  CliRun lock = runIn(kRoot, "check " + kBugs + "splitk_locked_bug1.splitk_locked.13_3.tilebc");
  EXPECT_NE(lock.out.find("and the 'load_view_tko' at line 22 in tile block"), std::string::npos) << lock.out;
  EXPECT_NE(lock.out.find("the lock acquired at line 20 and released at line"), std::string::npos) << lock.out;
}

// With the launch beside, the entry's parameters carry the Python names:
// arrays, their sizes and strides, scalars (translate, check and run alike).
TEST(BytecodeCli, TheLaunchNamesTheParameters) {
  CliRun t = runIn(kRoot, "translate " + kKernels + "elementwise.saxpy.13_3.tilebc");
  EXPECT_EQ(t.status, 0) << t.out;
  EXPECT_NE(t.out.find("(%x: tile<ptr<f32>>, %x.shape.0: tile<i32>, %x.strides.0: tile<i32>, %y: tile<ptr<f32>>"),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("%alpha: tile<f32>"), std::string::npos) << t.out;
  CliRun c = runIn(kRoot, "check " + kBugs + "col_max_bug1.col_max.13_3.tilebc");
  EXPECT_NE(c.out.find("derived from %x.shape.0, which is 200"), std::string::npos) << c.out;
}

TEST(BytecodeCli, JsonAndSarifCarryThePythonLocation) {
  CliRun j = runIn(kRoot, "check --format=json " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_EQ(j.status, 1);
  EXPECT_NE(j.out.find("\"file\": \"" + kBugs + "vec_add_bug1.py\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"line\": 11"), std::string::npos) << j.out;
  CliRun s = runIn(kRoot, "check --format=sarif " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_NE(s.out.find("vec_add_bug1.py"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("\"startLine\": 11"), std::string::npos) << s.out;
}

// Without the launch the sizes are unknown: no error; --launch names the file.
TEST(BytecodeCli, LaunchFileGivesGridAndArgs) {
  std::string copy = tempPath("vec_add.tilebc");
  std::ofstream(copy, std::ios::binary) << readFile(kRoot + "/" + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_EQ(runIn(kRoot, "check " + copy).status, 0);
  CliRun r = runIn(kRoot, "check --launch " + kBugs + "vec_add_bug1.vec_add.launch.json " + copy);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("vec_add_bug1.py:11:9: error:"), std::string::npos) << r.out;
  EXPECT_EQ(runIn(kRoot, "check --launch " + tempPath("none.json") + " " + copy).status, 2);
}

// Facts a launch gives are named by the launch, not by command-line flags the
// user never passed (`--grid=16,1,1`, `--arg x.shape.0=200`).
TEST(BytecodeCli, MessagesNameTheLaunchThatGaveTheGridAndSizes) {
  CliRun grid = runIn(kRoot, "check " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_NE(grid.out.find("from the grid (grid 16,1,1 of vec_add_bug1.vec_add.launch.json)"), std::string::npos)
      << grid.out;
  CliRun sizes = runIn(kRoot, "check " + kBugs + "col_max_bug1.col_max.13_3.tilebc");
  EXPECT_NE(sizes.out.find("derived from %x.shape.0, which is 200 (in the launch of col_max_bug1.col_max.launch.json)"),
            std::string::npos)
      << sizes.out;
  CliRun given = runIn(kRoot, "check --grid=16 " + kBugs + "vec_add_bug1.vec_add.13_3.tilebc");
  EXPECT_NE(given.out.find("(--grid=16,1,1)"), std::string::npos) << given.out;
}

// A launch whose arrays alias ("may_alias", as `tilesight record` writes it for
// views of one buffer): a load of one and a store of the other that no token
// orders may race; without it the arrays are distinct memory.
TEST(BytecodeCli, LaunchArraysThatMayAlias) {
  std::string launch = readFile(kRoot + "/" + kKernels + "elementwise.vec_add.launch.json");
  for (const char* param : {"\"param\": \"a\"", "\"param\": \"out\""})
    launch.replace(launch.find(param), std::string(param).size(), std::string(param) + ", \"may_alias\": true");
  std::string json = tempPath("alias.launch.json");
  std::ofstream(json) << launch;
  std::string bc = kKernels + "elementwise.vec_add.13_3.tilebc";
  EXPECT_EQ(runIn(kRoot, "check " + bc).out, "");
  CliRun r = runIn(kRoot, "check --launch " + json + " " + bc);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("warning: 'store_view_tko' and the 'load_view_tko' at line 10 may access the same memory "
                       "(%a and %out, which may point to the same memory)"),
            std::string::npos)
      << r.out;
}

TEST(BytecodeCli, TranslatePrintsText) {
  CliRun r = runIn(kRoot, "translate " + kKernels + "elementwise.vec_add.13_4.tilebc");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("cuda_tile.module @kernels {\n  entry @vec_add_", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("%28 = addf %23, %26 : tile<256xf32>\n"), std::string::npos) << r.out;
  CliRun l = runIn(kRoot, "translate --locations " + kKernels + "elementwise.vec_add.13_4.tilebc");
  EXPECT_NE(l.out.find("%28 = addf %23, %26 : tile<256xf32>  // loc(\"tests/corpus/cutile/kernels/elementwise.py\":12:36)"),
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

// --to=bytecode: text in, bytecode 13.3 out, which reads back as the same program.
TEST(BytecodeCli, TranslateTextToBytecode) {
  std::string src = write("to_bc.tile", "cuda_tile.module @m {\n  entry @k(%a: tile<i32>) {\n"
                                         "    %b = addi %a, %a : tile<i32>\n  }\n}\n");
  std::string out = tempPath("to_bc.tilebc");
  CliRun r = run("translate --to=bytecode -o " + out + " " + src);
  ASSERT_EQ(r.status, 0) << r.out;
  std::string bytes = readFile(out);
  EXPECT_EQ(bytes.substr(0, 12), std::string("\x7fTileIR\0\x0d\x03\0\0", 12));
  CliRun t = run("translate " + out);
  EXPECT_EQ(t.status, 0) << t.out;
  EXPECT_NE(t.out.find("%0 = addi %arg0, %arg0 : tile<i32>\n    return\n"), std::string::npos) << t.out;
  // -o - is standard output (a pipe here): the same bytes.
  CliRun piped = run("translate --to=bytecode -o - " + src);
  EXPECT_EQ(piped.status, 0);
  EXPECT_EQ(piped.out, bytes);
}

// A 13.3 file of cuTile goes bytecode -> bytecode unchanged; other versions become 13.3.
TEST(BytecodeCli, TranslateBytecodeToBytecodeKeepsTheBytes) {
  std::string out = tempPath("same.tilebc");
  std::string in = kKernels + "elementwise.vec_add.13_3.tilebc";
  ASSERT_EQ(runIn(kRoot, "translate --to=bytecode -o " + out + " " + in).status, 0);
  EXPECT_TRUE(readFile(out) == readFile(kRoot + "/" + in));
  ASSERT_EQ(runIn(kRoot, "translate --to=bytecode -o " + out + " " + kKernels + "elementwise.vec_add.13_1.tilebc").status, 0);
  CliRun t = run("translate --locations " + out);
  EXPECT_EQ(t.status, 0) << t.out;
  EXPECT_NE(t.out.find("// loc(\"tests/corpus/cutile/kernels/elementwise.py\":"), std::string::npos) << t.out;
}

TEST(BytecodeCli, TranslateToBytecodeRefuses) {
  // A program with an error.
  std::string bad = write("bc_bad.tile", kBad);
  CliRun e = run("translate --to=bytecode -o " + tempPath("bc_bad.tilebc") + " " + bad);
  EXPECT_EQ(e.status, 1) << e.out;
  EXPECT_NE(e.out.find("not written: a program with errors cannot go to bytecode"), std::string::npos) << e.out;
  EXPECT_FALSE(std::filesystem::exists(tempPath("bc_bad.tilebc")));
  // A 13.4-only field.
  std::string sat = write("bc_sat.tile", "cuda_tile.module @m {\n  entry @k(%f: tile<f32>) {\n"
                                         "    %i = ftoi %f signed {saturating} : tile<f32> -> tile<i32>\n  }\n}\n");
  CliRun s = run("translate --to=bytecode -o " + tempPath("bc_sat.tilebc") + " " + sat);
  EXPECT_EQ(s.status, 1) << s.out;
  EXPECT_NE(s.out.find("cannot write bytecode 13.3: 'cuda_tile.ftoi': 'saturating' needs bytecode 13.4"),
            std::string::npos) << s.out;
  // The input as the output: the user's file stays as it is.
  std::string good = write("bc_self.tile", kGood);
  CliRun self = run("translate --to=bytecode -o " + good + " " + good);
  EXPECT_EQ(self.status, 2) << self.out;
  EXPECT_NE(self.out.find("is the input file"), std::string::npos) << self.out;
  EXPECT_EQ(readFile(good), kGood);
  // An unknown form.
  EXPECT_EQ(run("translate --to=mlir " + good).status, 2);
}

// Binary is not written to a terminal (script(1) gives the command one).
TEST(BytecodeCli, TranslateToBytecodeRefusesATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) is not installed";
  std::string good = write("bc_tty.tile", kGood);
  std::string log = tempPath("bc_tty.log");
  std::string cmd = "script -qec '" + std::string(TILESIGHT_BINARY) + " translate --to=bytecode " + good + "' /dev/null > " +
                    log + " 2>&1";
  int st = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(st), 2);
  EXPECT_NE(readFile(log).find("will not write binary bytecode to a terminal"), std::string::npos) << readFile(log);
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
