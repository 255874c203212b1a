// The SARIF report as code scanning takes it (issue 17): URIs under
// %SRCROOT%, UTF-16 columns, linked notes, fingerprints, rule help, stdin and
// unreadable files. tests/sarif/validate.py checks it against the schema.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A checkout: a folder with .git, where the report is made.
std::string checkout(const std::string& name) {
  std::string dir = tempPath(name);
  fs::remove_all(dir);
  fs::create_directories(dir + "/.git");
  return dir;
}

}  // namespace

TEST(Sarif, UrisAreRelativeToTheCheckoutAndPercentEncoded) {
  std::string dir = checkout("repo");
  fs::create_directories(dir + "/a b");
  std::ofstream(dir + "/a b/\xC3\xA9.tile") << kBad;
  CliRun r = runIn(dir, "check --format=sarif 'a b'", "", {.separateStderr = true});
  json run0 = json::parse(r.out)["runs"][0];
  const json& loc = run0["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(loc["uri"], "a%20b/%C3%A9.tile");
  EXPECT_EQ(loc["uriBaseId"], "%SRCROOT%");
  std::string root = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"];
  EXPECT_EQ(root, "file://" + dir + "/");
  // A file outside the checkout is named by an absolute file URI.
  std::string outside = write("outside.tile", kBad);
  json run1 = json::parse(runIn(dir, "check --format=sarif " + outside, "", {.separateStderr = true}).out)["runs"][0];
  std::string uri = run1["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
  EXPECT_EQ(uri.rfind("file:///", 0), 0u) << uri;
  EXPECT_FALSE(run1["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"].contains("uriBaseId"));
}

TEST(Sarif, ColumnsAreUtf16CodeUnits) {
  // 核 and → are 3 bytes and one UTF-16 unit each, é 2 bytes and one unit.
  std::string text =
      "cuda_tile.module @m {\n  entry @k(%n: tile<i32>) {\n"
      "    %t = print_tko \"\xE6\xA0\xB8\xE2\x86\x92\xC3\xA9\" -> token %d = addi %n, %undefined : tile<i32>\n"
      "  }\n}\n";
  std::string file = write("wide.tile", text);
  json run0 = json::parse(run("check --format=sarif " + file, "", {.separateStderr = true}).out)["runs"][0];
  EXPECT_EQ(run0["columnKind"], "utf16CodeUnits");
  const json& region = run0["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startColumn"], 49);  // 54 in UTF-8 bytes (--format=json)
  EXPECT_EQ(region["endColumn"], 59);
  json plain = json::parse(run("check --format=json " + file).out);
  EXPECT_EQ(plain["diagnostics"][0]["column"], 54);
}

TEST(Sarif, NotesAreLinkedFromTheMessage) {
  std::string file = std::string(TILESIGHT_TESTS_DIR) + "/../examples/gemm_ub.tile";
  json run0 = json::parse(run("check --format=sarif --grid=8,8,1 " + file, "", {.separateStderr = true}).out)["runs"][0];
  bool sawNotes = false;
  for (const json& res : run0["results"]) {
    if (!res.contains("relatedLocations")) continue;
    sawNotes = true;
    std::string text = res["message"]["text"];
    for (const json& rel : res["relatedLocations"]) {
      std::string link = "](" + std::to_string(rel["id"].get<int>()) + ")";
      EXPECT_NE(text.find(link), std::string::npos) << text;
      EXPECT_TRUE(rel["physicalLocation"]["region"].contains("startLine"));
    }
  }
  EXPECT_TRUE(sawNotes);
}

TEST(Sarif, FingerprintsSurviveLinesAddedAboveAndTellResultsApart) {
  std::string file = write("fp.tile", kBad);
  auto prints = [&] {
    json run0 = json::parse(run("check --format=sarif " + file, "", {.separateStderr = true}).out)["runs"][0];
    std::vector<std::string> out;
    for (const json& res : run0["results"]) out.push_back(res["partialFingerprints"]["tilesight/v1"]);
    return out;
  };
  std::vector<std::string> before = prints();
  ASSERT_EQ(before.size(), 2u);
  EXPECT_NE(before[0], before[1]);
  std::ofstream(file) << "// a comment added above\n\n" << kBad;
  EXPECT_EQ(prints(), before);
}

TEST(Sarif, RulesHaveNamesHelpAndLinks) {
  json run0 = json::parse(run("check --format=sarif " + write("r.tile", kBad), "", {.separateStderr = true}).out)["runs"][0];
  const json& driver = run0["tool"]["driver"];
  EXPECT_EQ(driver["informationUri"].get<std::string>().rfind("file://", 0), 0u);
  for (const json& rule : driver["rules"]) {
    std::string id = rule["id"], name = rule["name"];
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_NE(lower, id);
    EXPECT_EQ(rule["helpUri"].get<std::string>().find("checks.md#" + id) != std::string::npos, true) << id;
    std::string md = rule["help"]["markdown"];
    // Not about a program's text: nothing to show.
    if (id == "run.fault" || id == "cutile.unavailable") continue;
    EXPECT_EQ(md.rfind("## `" + id + "`", 0), 0u) << id;
    // The bad example and the fixed one (cuTile's codes are about Python files).
    std::string fence = id.rfind("cutile.", 0) == 0 ? "```python" : "```mlir";
    size_t first = md.find(fence);
    ASSERT_NE(first, std::string::npos) << id << ": the example";
    EXPECT_NE(md.find(fence, first + 1), std::string::npos) << id << ": the fixed example";
  }
}

TEST(Sarif, StdinAndUnreadableFiles) {
  std::string missing = tempPath("missing.tile");
  CliRun r = run("check --format=sarif - " + missing, kBad, {.separateStderr = true});
  EXPECT_EQ(r.status, 2);
  json run0 = json::parse(r.out)["runs"][0];
  EXPECT_EQ(run0["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "file:///dev/stdin");
  const json& inv = run0["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], false);
  ASSERT_EQ(inv["toolExecutionNotifications"].size(), 1u);
  const json& n = inv["toolExecutionNotifications"][0];
  EXPECT_EQ(n["level"], "error");
  EXPECT_NE(n["message"]["text"].get<std::string>().find("cannot read"), std::string::npos);
}
