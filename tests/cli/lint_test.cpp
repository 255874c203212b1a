// The lint conventions of `check` (DESIGN §3): folders, the summary line,
// --Werror, inline suppressions, unreadable files, .tilesight.toml, --fix,
// colours, help, explain.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;
namespace fs = std::filesystem;

namespace {

// One warning and no error: a suppression with nothing to silence.
const char* kWarnOnly = "cuda_tile.module @m {\n  entry @k() {\n    return  // tilesight: ignore race\n  }\n}\n";

std::string folder(const std::string& name) {
  std::string dir = tempPath(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void put(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> reportedFiles(const std::string& jsonText) {
  std::vector<std::string> files;
  auto report = nlohmann::json::parse(jsonText);
  for (const auto& d : report["diagnostics"])
    if (files.empty() || files.back() != d["file"]) files.push_back(d["file"]);
  return files;
}

std::string examples() { return std::string(TILESIGHT_TESTS_DIR) + "/../examples/"; }

}  // namespace

TEST(Lint, FolderTakesTileFilesAndTileModulesInMlirRecursivelySorted) {
  std::string dir = folder("tree");
  put(dir + "/z.tile", kBad);
  put(dir + "/a/b.tile", kBad);
  put(dir + "/a/c.mlir", kBad);                                 // holds a cuda_tile.module
  put(dir + "/a/d.mlir", "func.func @f() {\n  return\n}\n");  // another dialect's MLIR
  put(dir + "/.git/e.tile", kBad);                              // hidden folders are not entered
  put(dir + "/notes.txt", kBad);
  CliRun r = run("check --format=json " + dir, "", {.separateStderr = true});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(reportedFiles(r.out), (std::vector<std::string>{dir + "/a/b.tile", dir + "/a/c.mlir", dir + "/z.tile"}))
      << r.out << r.err;
  // A folder without tile programs is worth a warning, not a failure.
  std::string empty = folder("empty");
  CliRun none = run("check " + empty, "", {.separateStderr = true});
  EXPECT_EQ(none.status, 0);
  EXPECT_NE(none.err.find("warning: no tile program"), std::string::npos) << none.err;
}

TEST(Lint, SummaryLineOnStderrOnlyWhenThereIsSomethingToSay) {
  CliRun bad = run("check " + write("bad.tile", kBad) + " " + write("warn.tile", kWarnOnly), "", {.separateStderr = true});
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.err, "2 errors, 1 warning in 2 files\n");
  CliRun clean = run("check " + write("good.tile", kGood), "", {.separateStderr = true});
  EXPECT_EQ(clean.status, 0);
  EXPECT_EQ(clean.out, "");
  EXPECT_EQ(clean.err, "");
  // Machine-readable formats keep stderr for problems only.
  EXPECT_EQ(run("check --format=json " + write("bad2.tile", kBad), "", {.separateStderr = true}).err, "");
}

TEST(Lint, WerrorMakesWarningsErrors) {
  std::string file = write("warn.tile", kWarnOnly);
  CliRun plain = run("check " + file, "", {.separateStderr = true});
  EXPECT_EQ(plain.status, 0);
  EXPECT_NE(plain.out.find("warning: "), std::string::npos);
  CliRun strict = run("check --Werror " + file, "", {.separateStderr = true});
  EXPECT_EQ(strict.status, 1);
  EXPECT_NE(strict.out.find("error: "), std::string::npos);
  EXPECT_EQ(strict.out.find("warning: "), std::string::npos);
  EXPECT_EQ(strict.err, "1 error in 1 file\n");
}

TEST(Lint, SuppressionsOnTheLineAndOnTheLineBefore) {
  std::string text = kBad;
  text.replace(text.find("tile<3xi32>\n"), 12, "tile<3xi32>  // tilesight: ignore type\n");
  text.replace(text.find("    %d = addi"), 0, "    // tilesight: ignore syntax\n");
  CliRun r = run("check " + write("quiet.tile", text));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "");
  // `ignore` alone silences every code; a prefix silences the codes under it.
  std::string all = kBad;
  all.replace(all.find("tile<3xi32>\n"), 12, "tile<3xi32> // tilesight: ignore\n");
  CliRun r2 = run("check --format=json " + write("all.tile", all));
  auto d = nlohmann::json::parse(r2.out)["diagnostics"];
  ASSERT_EQ(d.size(), 1u) << r2.out;
  EXPECT_EQ(d[0]["code"], "syntax");
}

TEST(Lint, SuppressionInAStringIsNoSuppression) {
  std::string text =
      "cuda_tile.module @m {\n  entry @k() {\n"
      "    %t = print_tko \"// tilesight: ignore type\" -> token %c = constant <i32: 1> : tile<3xi32>\n"
      "  }\n}\n";
  auto d = nlohmann::json::parse(run("check --format=json " + write("s.tile", text)).out)["diagnostics"];
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]["code"], "type");
}

TEST(Lint, UnusedSuppressionsAreReportedWithAFix) {
  std::string text = kBad;
  text.replace(text.find("tile<3xi32>\n"), 12, "tile<3xi32>  // tilesight: ignore type, race.scope\n");
  text.replace(text.find("tile<i32>\n  }"), 10, "tile<i32> // tilesight: ignore rcae\n");
  text.replace(text.find("  }\n}"), 0, "    // tilesight: ignore bounds\n");
  std::string file = write("unused.tile", text);
  auto d = nlohmann::json::parse(run("check --format=json " + file).out)["diagnostics"];
  std::vector<std::string> messages;
  for (const auto& x : d)
    if (x["code"] == "suppression.unused") {
      messages.push_back(x["message"]);
      EXPECT_EQ(x["severity"], "warning");
      EXPECT_EQ(x["fixes"].size(), 1u);
    }
  ASSERT_EQ(messages.size(), 3u) << d.dump(1);
  EXPECT_NE(messages[0].find("no `race.scope` diagnostic"), std::string::npos) << messages[0];
  EXPECT_NE(messages[1].find("`rcae` is no diagnostic code"), std::string::npos) << messages[1];
  EXPECT_NE(messages[2].find("silences no diagnostic"), std::string::npos) << messages[2];
  // --disable turns the report off, and a turned-off code is not "unused".
  EXPECT_EQ(run("check --format=json --disable=suppression.unused " + file).out.find("suppression.unused"),
            std::string::npos);
  // --fix removes what silences nothing and keeps what works.
  EXPECT_EQ(run("check --fix " + file).status, 1);
  std::string fixedText = readFile(file);
  EXPECT_NE(fixedText.find("tile<3xi32>  // tilesight: ignore type\n"), std::string::npos) << fixedText;
  EXPECT_EQ(fixedText.find("bounds"), std::string::npos) << fixedText;
  EXPECT_EQ(fixedText.find("\n\n"), std::string::npos) << fixedText;  // its line went with it
  EXPECT_EQ(fixedText.find("rcae"), std::string::npos) << fixedText;
}

TEST(Lint, AnUnreadableFileStopsNoOther) {
  std::string missing = tempPath("missing.tile");
  CliRun r = run("check " + missing + " " + write("bad.tile", kBad), "", {.separateStderr = true});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot read '" + missing + "'"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("bad.tile:3:"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("2 errors in 1 file; 1 file not read"), std::string::npos) << r.err;
}

TEST(Lint, ConfigFileFoundWalkingUp) {
  std::string dir = folder("proj");
  put(dir + "/src/deep/bad.tile", kBad);
  put(dir + "/vendor/bad.tile", kBad);
  put(dir + "/.tilesight.toml", "[check]\ndisable = [\"type\"]\nexclude = [\"vendor\"]\n");
  auto codes = [](const std::string& out) {
    std::vector<std::string> c;
    auto report = nlohmann::json::parse(out);
    for (const auto& d : report["diagnostics"]) c.push_back(d["code"]);
    return c;
  };
  EXPECT_EQ(codes(run("check --format=json " + dir + "/src/deep/bad.tile").out), std::vector<std::string>{"syntax"});
  // exclude leaves out what a folder holds, not a file named on the command line.
  CliRun walked = run("check --format=json " + dir);
  EXPECT_EQ(reportedFiles(walked.out), std::vector<std::string>{dir + "/src/deep/bad.tile"});
  EXPECT_EQ(codes(run("check --format=json " + dir + "/vendor/bad.tile").out), std::vector<std::string>{"syntax"});
  // --no-config reads none.
  EXPECT_EQ(codes(run("check --no-config --format=json " + dir + "/src/deep/bad.tile").out),
            (std::vector<std::string>{"type", "syntax"}));
  // A nearer config wins; werror from it.
  put(dir + "/src/.tilesight.toml", "[check]\nwerror = true\n");
  put(dir + "/src/warn.tile", kWarnOnly);
  EXPECT_EQ(run("check " + dir + "/src/warn.tile").status, 1);
}

TEST(Lint, ConfigGridAndTheCommandLineOverIt) {
  std::string dir = folder("grid");
  fs::copy_file(examples() + "gemm_ub.tile", dir + "/k.tile");
  put(dir + "/.tilesight.toml", "[check]\ngrid = [8, 8, 1]\n");
  // The partial tile is only reached by block 7 of the x grid.
  EXPECT_NE(run("check " + dir + "/k.tile").out.find("[bounds.partial-tile]"), std::string::npos);
  EXPECT_EQ(run("check --grid=1,1,1 " + dir + "/k.tile").out.find("[bounds.partial-tile]"), std::string::npos);
}

TEST(Lint, MalformedConfigIsAUsageErrorWithItsPosition) {
  std::string dir = folder("badcfg");
  put(dir + "/k.tile", kGood);
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {"[check]\ngrid = [8, 8\n", ".tilesight.toml:2:"},
      {"[check]\nexclud = []\n", ":2:1: unknown key `check.exclud`"},
      {"[check]\ndisable = [\"races\"]\n", "'races' is not a diagnostic code"},
      {"[check]\nwerror = 1\n", "`werror` wants true or false"},
      {"[lint]\n", "unknown table [lint]"},
      {"[check]\ngrid = [0]\n", "grid"},
  };
  for (const Case& c : cases) {
    put(dir + "/.tilesight.toml", c.text);
    CliRun r = run("check " + dir + "/k.tile", "", {.separateStderr = true});
    EXPECT_EQ(r.status, 2) << c.text;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.text << " -> " << r.err;
  }
}

TEST(Lint, FixAppliesTheOnlyFixOfEachDiagnostic) {
  std::string file = tempPath("gemm.tile");
  fs::copy_file(examples() + "gemm_with_bugs.tile", file, fs::copy_options::overwrite_existing);
  std::string before = readFile(file);
  CliRun r = run("check --fix " + file, "", {.separateStderr = true});
  EXPECT_EQ(r.status, 1);  // what has no single fix is left
  std::string after = readFile(file);
  EXPECT_NE(before, after);
  EXPECT_EQ(after.find("weak %accum"), std::string::npos);      // one fix: applied
  EXPECT_NE(after.find("load_view_tko release"), std::string::npos);  // two alternatives: left
  EXPECT_NE(r.err.find("fix applied"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("weak %accum"), std::string::npos);  // the report is of the fixed text
  // Without --fix nothing is written.
  std::string again = readFile(file);
  run("check " + file);
  EXPECT_EQ(readFile(file), again);
  CliRun in = run("check --fix -", kBad);
  EXPECT_EQ(in.status, 2);
  EXPECT_NE(in.out.find("cannot write standard input"), std::string::npos);
}

TEST(Lint, Colors) {
  std::string file = write("bad.tile", kBad);
  EXPECT_NE(run("check --color=always " + file).out.find("\x1b["), std::string::npos);
  EXPECT_EQ(run("check --color=never " + file).out.find("\x1b["), std::string::npos);
  EXPECT_EQ(run("check " + file).out.find("\x1b["), std::string::npos);  // auto, not a terminal
  // NO_COLOR asks `auto` for none; an explicit --color=always still wins.
  setenv("NO_COLOR", "1", 1);
  EXPECT_NE(run("check --color=always " + file).out.find("\x1b["), std::string::npos);
  unsetenv("NO_COLOR");
  EXPECT_EQ(run("check --color=bright " + file).status, 2);
}

TEST(Lint, HelpVersionAndExplain) {
  CliRun help = run("help check");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--Werror"), std::string::npos);
  EXPECT_NE(help.out.find("--fix"), std::string::npos);
  EXPECT_NE(run("help").out.find("explain"), std::string::npos);
  EXPECT_EQ(run("help chek").status, 2);
  EXPECT_EQ(run("--version").out.rfind("tilesight ", 0), 0u);
  // explain prints the code's section of docs/checks.md as it is.
  std::string doc = readFile(std::string(TILESIGHT_TESTS_DIR) + "/../docs/checks.md");
  CliRun ex = run("explain race.unordered", "", {.separateStderr = true});
  EXPECT_EQ(ex.status, 0);
  ASSERT_EQ(ex.out.rfind("## `race.unordered`", 0), 0u) << ex.out;
  EXPECT_NE(doc.find(ex.out.substr(0, ex.out.size() - 1)), std::string::npos);
  EXPECT_EQ(ex.out.find("## `race.scope`"), std::string::npos);
  CliRun list = run("explain");
  for (const char* code : {"syntax", "bounds.index", "suppression.unused"})
    EXPECT_NE(list.out.find(code), std::string::npos) << code;
  CliRun typo = run("explain race.unordred", "", {.separateStderr = true});
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("did you mean 'race.unordered'"), std::string::npos) << typo.err;
}
