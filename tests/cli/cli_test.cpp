// Runs the tilesight executable and checks the `check` contract of DESIGN §3.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace {

struct CliRun {
  int status = -1;
  std::string out;
};

// Tests run in parallel: every file a test writes carries the test's name.
std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
}

CliRun run(const std::string& args, const std::string& stdinText = "") {
  std::string in = tempPath("stdin.txt");
  std::ofstream(in) << stdinText;
  std::string cmd = std::string(TILESIGHT_BINARY) + " " + args + " < " + in + " 2>&1";
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string write(const std::string& name, const std::string& text) {
  std::string path = tempPath(name);
  std::ofstream(path) << text;
  return path;
}

const char* kBad =
    "cuda_tile.module @m {\n"
    "  entry @k(%n: tile<i32>) {\n"
    "    %c = constant <i32: 1> : tile<3xi32>\n"
    "    %d = addi %n, %undefined : tile<i32>\n"
    "  }\n"
    "}\n";
const char* kGood = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n";

}  // namespace

TEST(CheckCli, TextFormatIsClangStyleWithCaret) {
  CliRun r = run("check " + write("bad.tile", kBad));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("_bad.tile:3:30: error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[type]"), std::string::npos);
  EXPECT_NE(r.out.find("    %c = constant <i32: 1> : tile<3xi32>\n                             ^"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("_bad.tile:4:19: error: use of undefined value '%undefined'"), std::string::npos) << r.out;
}

TEST(CheckCli, ExitCodes) {
  EXPECT_EQ(run("check " + write("good.tile", kGood)).status, 0);
  EXPECT_EQ(run("check " + write("bad.tile", kBad)).status, 1);
  EXPECT_EQ(run("check /nonexistent/file.tile").status, 2);
  EXPECT_EQ(run("check").status, 2);
  EXPECT_EQ(run("check --format=yaml " + write("good.tile", kGood)).status, 2);
}

TEST(CheckCli, ReadsStandardInput) {
  CliRun r = run("check -", kBad);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("<stdin>:3:30"), std::string::npos) << r.out;
}

TEST(CheckCli, JsonFormatHasTheContractFields) {
  CliRun r = run("check --format=json " + write("bad.tile", kBad));
  EXPECT_EQ(r.status, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["diagnostics"].is_array());
  ASSERT_GE(j["diagnostics"].size(), 2u);
  const auto& d = j["diagnostics"][0];
  for (const char* key : {"file", "line", "column", "endLine", "endColumn", "severity", "code", "message", "notes", "fixes"})
    EXPECT_TRUE(d.contains(key)) << key;
  EXPECT_EQ(d["line"], 3);
  EXPECT_EQ(d["column"], 30);
  EXPECT_EQ(d["severity"], "error");
  EXPECT_EQ(d["code"], "type");
}

TEST(CheckCli, SarifHasRulesAndLocatedResults) {
  CliRun r = run("check --format=sarif " + write("bad.tile", kBad));
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run0 = j["runs"][0];
  const auto& rules = run0["tool"]["driver"]["rules"];
  std::vector<std::string> ids;
  for (const auto& rule : rules) {
    ids.push_back(rule["id"]);
    EXPECT_TRUE(rule.contains("help"));
  }
  for (const char* code : {"syntax", "type", "bounds.index", "bounds.partial-tile", "layout.overlap", "layout.claim",
                           "layout.invalid", "subbyte.align", "race.unordered", "race.scope"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), code), ids.end()) << code;
  const auto& res = run0["results"][0];
  EXPECT_EQ(res["ruleId"], "type");
  EXPECT_EQ(res["level"], "error");
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["region"]["startLine"], 3);
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["region"]["startColumn"], 30);
}

TEST(CheckCli, SplitInputFileReportsWholeFileLines) {
  std::string text = std::string(kGood) + "// -----\n" + kBad;
  CliRun r = run("check --split-input-file --format=json " + write("split.tile", text));
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["diagnostics"].empty());
  EXPECT_EQ(j["diagnostics"][0]["line"], 9);
}

TEST(CheckCli, VerifyDiagnostics) {
  std::string ok =
      "cuda_tile.module @m {\n  entry @k() {\n"
      "    // expected-error @below {{powers of two}}\n"
      "    %c = constant <i32: 1> : tile<3xi32>\n  }\n}\n";
  EXPECT_EQ(run("check --verify-diagnostics " + write("v1.tile", ok)).status, 0);
  std::string wrong = ok;
  wrong.replace(wrong.find("powers of two"), 13, "something else");
  CliRun r = run("check --verify-diagnostics " + write("v2.tile", wrong));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("was not produced"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unexpected error"), std::string::npos) << r.out;
}
