// Runs the tilesight executable and checks the `check` contract of DESIGN §3.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;

TEST(CheckCli, TextFormatIsClangStyleWithCaret) {
  CliRun r = run("check " + write("bad.tile", kBad));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("_bad.tile:3:30: error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[type]"), std::string::npos);
  EXPECT_NE(r.out.find("    %c = constant <i32: 1> : tile<3xi32>\n                             ^"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("_bad.tile:4:19: error: use of undefined value '%undefined'"), std::string::npos) << r.out;
}

// LLVM's SourceMgr leaves the caret out under a line with non-ASCII text; the
// caret must still sit under the value, measured in terminal columns: a tab
// stops at a multiple of 8 (as the printed line is expanded), U+6838 is two
// columns wide, the arrow and the accented letter one each.
TEST(CheckCli, TextCaretUnderNonAsciiLine) {
  const char* text =
      "cuda_tile.module @m {\n"
      "\tentry @\"\xE6\xA0\xB8\xE2\x86\x92\xC3\xA9\"(%n: tile<i32>) { %d = addi %n, %undefined : tile<i32>\n"
      "  }\n"
      "}\n";
  CliRun r = run("check " + write("wide.tile", text));
  EXPECT_EQ(r.status, 1);
  const std::string before = "entry @\"\"(%n: tile<i32>) { %d = addi %n, ";
  size_t column = 8 + before.size() + 2 + 1 + 1;
  std::string caret = "\n" + std::string(column, ' ') + "^" + std::string(9, '~') + "\n";  // %undefined
  EXPECT_NE(r.out.find(caret), std::string::npos) << r.out;
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

// --- `tilesight layout` (DESIGN §3) ------------------------------------------

namespace {

// The expression as one shell word.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CliRun layout(const std::string& options, const std::string& expr) { return run("layout " + options + " " + quoted(expr)); }

}  // namespace

TEST(LayoutCli, TextIsTheCanonicalString) {
  CliRun r = layout("", "(4, (2,2)) : (2, (1,8))");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "(4,(2,2)):(2,(1,8))\n");
  EXPECT_EQ(layout("--format=text", "(4,8)").out, "(4,8):(1,4)\n");
  EXPECT_EQ(layout("", "size((4,8))").out, "32\n");
}

TEST(LayoutCli, TableIsPrintLayout) {
  CliRun r = layout("--format=table", "(3,2):(2,7)");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "(3,2):(2,7)\n       0    1 \n"
            "    +----+----+\n 0  |  0 |  7 |\n"
            "    +----+----+\n 1  |  2 |  9 |\n"
            "    +----+----+\n 2  |  4 | 11 |\n"
            "    +----+----+\n");
}

TEST(LayoutCli, MarkdownAndSvg) {
  CliRun md = layout("--format=markdown", "(2,2):(1,2)");
  EXPECT_EQ(md.status, 0);
  EXPECT_NE(md.out.find("| **1** | 1 | 3 |"), std::string::npos) << md.out;
  CliRun svg = layout("--format=svg", "make_layout_tv((2,3):(3,1), (2,2):(2,1))");
  EXPECT_EQ(svg.status, 0);
  EXPECT_EQ(svg.out.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg.out;
  EXPECT_NE(svg.out.find(">T0</text>"), std::string::npos);
  EXPECT_NE(svg.out.find("</svg>"), std::string::npos);
}

TEST(LayoutCli, JsonHasTheContractFields) {
  CliRun r = layout("--format=json", "(4,2):(1,2)");
  EXPECT_EQ(r.status, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["expr"], "(4,2):(1,2)");
  EXPECT_EQ(j["layout"], "(4,2):(1,2)");
  EXPECT_EQ(j["shape"], nlohmann::json::parse("[4,2]"));
  EXPECT_EQ(j["stride"], nlohmann::json::parse("[1,2]"));
  EXPECT_EQ(j["size"], 8);
  EXPECT_EQ(j["cosize"], 6);
  EXPECT_EQ(j["rank"], 2);
  EXPECT_EQ(j["depth"], 1);
  EXPECT_EQ(j["injective"], false);
  EXPECT_EQ(j["surjective"], true);
  EXPECT_EQ(j["bijective"], false);
  EXPECT_EQ(j["offsets"], nlohmann::json::parse("[0,1,2,3,2,3,4,5]"));
  ASSERT_TRUE(j["collision"].is_object());
  EXPECT_EQ(j["collision"]["coords"].size(), 2u);
  EXPECT_TRUE(j["collision"]["offset"].is_number());
  EXPECT_FALSE(j.contains("tiler"));

  auto nested = nlohmann::json::parse(layout("--format=json", "(4,(2,2)):(2,(1,8))").out);
  EXPECT_EQ(nested["shape"], nlohmann::json::parse("[4,[2,2]]"));
  EXPECT_EQ(nested["stride"], nlohmann::json::parse("[2,[1,8]]"));
  EXPECT_EQ(nested["depth"], 2);
  EXPECT_EQ(nested["bijective"], true);
  EXPECT_TRUE(nested["collision"].is_null());

  auto tv = nlohmann::json::parse(layout("--format=json", "make_layout_tv((2,3):(3,1), (2,2):(2,1))").out);
  EXPECT_EQ(tv["tiler"], nlohmann::json::parse("[4,6]"));
  auto big = nlohmann::json::parse(layout("--format=json", "(512,512)").out);
  EXPECT_FALSE(big.contains("offsets"));  // only when size <= 65536
  EXPECT_EQ(big["size"], 262144);
}

TEST(LayoutCli, AtTakesIntegerHierarchicalAndCongruentCoordinates) {
  const std::string l = "(4,(2,2)):(2,(1,8))";
  for (const char* coord : {"5", "(1,1)", "(1,(1,0))"}) {
    CliRun r = layout(std::string("--at ") + quoted(coord), l);
    EXPECT_EQ(r.status, 0) << coord;
    EXPECT_EQ(r.out, "3\n") << coord;
  }
  EXPECT_EQ(layout("--at '(3,3)'", l).out, "15\n");
  auto j = nlohmann::json::parse(layout("--format=json --at '(1,1)'", l).out);
  EXPECT_EQ(j["offset"], 3);
  EXPECT_EQ(layout("--at '(9,3)'", "shared(shape=(64,32), mode_shape=(8,8,16,2), mode_strides=(256,2,16,1))").out,
            "275\n");
  CliRun out = layout("--at '(4,0)'", l);
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.out.find("coordinate out of range"), std::string::npos) << out.out;
  EXPECT_EQ(layout("--at '(1,'", l).status, 2);
}

TEST(LayoutCli, InvalidExpressionsExitOneNamingTheRule) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"complement((4,2):(1,2), 16)", "complement"},
      {"left_inverse((8,4,2):(13,2,1))", "left_inverse"},
      {"swizzle(3, 4, 2)", "|S| must be at least B"},
      {"(4,8):(1,4,2)", "shape and stride must be congruent"},
      {"composition((4,8):(1,4) 2:1)", "malformed expression"},
  };
  for (const auto& [expr, rule] : cases) {
    CliRun r = layout("", expr);
    EXPECT_EQ(r.status, 1) << expr;
    EXPECT_NE(r.out.find(": error: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(rule), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n" + expr + "\n"), std::string::npos) << r.out;
  }
  CliRun m = layout("", "composition((4,8):(1,4) 2:1)");
  EXPECT_NE(m.out.find("<expr>:1:25: error: malformed expression: expected ',' or ')'"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("\n" + std::string(24, ' ') + "^\n"), std::string::npos) << m.out;
}

TEST(LayoutCli, UsageErrorsExitTwo) {
  EXPECT_EQ(run("layout").status, 2);
  EXPECT_EQ(layout("--format=yaml", "4:1").status, 2);
  EXPECT_EQ(layout("--at", "").status, 2);
  EXPECT_EQ(run("").status, 2);
}

// tests/cli/all_codes.tile holds one diagnostic of each code, pinned to its
// line by expected-* comments; the SARIF report must have a rule with help
// for every code and, for every diagnostic, a result at its line and column.
TEST(CheckCli, SarifHasEveryCode) {
  std::string file = std::string(TILESIGHT_TESTS_DIR) + "/cli/all_codes.tile";
  std::string options = "check --split-input-file --grid=4,1,1 ";
  ASSERT_EQ(run(options + "--verify-diagnostics " + file).status, 0) << "the expected-* comments no longer match";
  auto diags = nlohmann::json::parse(run(options + "--format=json " + file).out)["diagnostics"];
  auto sarif = nlohmann::json::parse(run(options + "--format=sarif " + file).out);
  const auto& run0 = sarif["runs"][0];
  std::set<std::string> ruleIds, resultIds;
  for (const auto& rule : run0["tool"]["driver"]["rules"]) {
    ruleIds.insert(rule["id"].get<std::string>());
    EXPECT_FALSE(rule["help"]["text"].get<std::string>().empty()) << rule["id"];
  }
  const std::set<std::string> codes = {"syntax",         "type",          "bounds.index",   "bounds.partial-tile",
                                       "layout.overlap", "layout.claim",  "layout.invalid", "subbyte.align",
                                       "race.unordered", "race.scope"};
  for (const std::string& code : codes) EXPECT_TRUE(ruleIds.count(code)) << code;
  const auto& results = run0["results"];
  ASSERT_EQ(results.size(), diags.size());
  for (size_t i = 0; i < diags.size(); ++i) {
    const auto& d = diags[i];
    const auto& r = results[i];
    const auto& region = r["locations"][0]["physicalLocation"]["region"];
    resultIds.insert(r["ruleId"].get<std::string>());
    EXPECT_EQ(r["ruleId"], d["code"]);
    EXPECT_EQ(r["level"], d["severity"]);
    EXPECT_EQ(region["startLine"], d["line"]) << d["code"];
    EXPECT_EQ(region["startColumn"], d["column"]) << d["code"];
    // SARIF escapes brackets (its links are markdown's) and links the notes after the message.
    std::string escaped;
    for (char c : d["message"].get<std::string>()) escaped += (c == '[' || c == ']' || c == '\\' ? "\\" : "") + std::string(1, c);
    EXPECT_EQ(r["message"]["text"].get<std::string>().rfind(escaped, 0), 0u) << r["message"]["text"];
  }
  EXPECT_EQ(resultIds, codes);
}

// The dataflow checks' options: bad values are usage errors (exit 2) that say
// what is wrong; --disable drops a code or a prefix's codes; --grid is what
// makes cross-block races visible.
TEST(CheckCli, CheckOptions) {
  std::string file = std::string(TILESIGHT_TESTS_DIR) + "/cli/all_codes.tile";
  CliRun badCode = run("check --disable=rcae " + file);
  EXPECT_EQ(badCode.status, 2);
  EXPECT_NE(badCode.out.find("'rcae' is not a diagnostic code"), std::string::npos) << badCode.out;
  CliRun badGrid = run("check --grid=4,0 " + file);
  EXPECT_EQ(badGrid.status, 2);
  EXPECT_NE(badGrid.out.find("--grid=4,0: the grid's y axis must be at least 1, not 0"), std::string::npos) << badGrid.out;

  auto codes = [&](const std::string& options) {
    std::set<std::string> out;
    auto j = nlohmann::json::parse(run("check --split-input-file --format=json " + options + " " + file).out);
    for (const auto& d : j["diagnostics"]) out.insert(d["code"].get<std::string>());
    return out;
  };
  std::set<std::string> all = codes("--grid=4,1,1");
  EXPECT_TRUE(all.count("race.scope"));
  EXPECT_FALSE(codes("").count("race.scope"));  // no grid: no cross-block findings
  std::set<std::string> noRaces = codes("--grid=4,1,1 --disable=race,type");
  EXPECT_FALSE(noRaces.count("race.scope") || noRaces.count("race.unordered") || noRaces.count("type"));
  EXPECT_EQ(noRaces.size(), all.size() - 3);
}

// --arg pins an integer argument of the launch: a dynamic loop bound becomes
// known, and the finding names the argument. A malformed --arg is a usage
// error; one that sets nothing is a warning on stderr.
TEST(CheckCli, ArgSetsLaunchArguments) {
  std::string file = write("loop.tile",
                           "cuda_tile.module @m {\n"
                           "  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>) {\n"
                           "    %tv = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>\n"
                           "    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>\n"
                           "    %c0 = constant <i32: 0> : tile<i32>\n"
                           "    %c1 = constant <i32: 1> : tile<i32>\n"
                           "    for %i in (%c0 to %n, step %c1) : tile<i32> {\n"
                           "      %v, %t = load_view_tko weak %pv[%i] : partition_view<tile=(16), tensor_view<64xf32, "
                           "strides=[1]>>, tile<i32> -> tile<16xf32>, token\n"
                           "    }\n"
                           "    return\n"
                           "  }\n"
                           "}\n");
  EXPECT_EQ(run("check " + file).status, 0);  // %n unknown: nothing is claimed
  CliRun five = run("check --arg n=5 " + file);
  EXPECT_EQ(five.status, 1);
  EXPECT_NE(five.out.find("index 4 of dimension 0 is outside the index space 4 of %pv (valid: 0..3) when %i = 4"),
            std::string::npos)
      << five.out;
  EXPECT_NE(five.out.find("whose upper bound %n is 5 (--arg n=5)"), std::string::npos) << five.out;
  EXPECT_EQ(run("check --arg 1=4 " + file).status, 0);    // by position: in range
  EXPECT_EQ(run("check --arg %n=5 " + file).status, 1);  // the % may be written
  for (std::string bad : {"n", "n=", "=5", "n=x", "n=99999999999999999999"}) {
    CliRun r = run("check --arg " + bad + " " + file);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.out.find("--arg wants NAME=INTEGER"), std::string::npos) << r.out;
  }
  CliRun unused = run("check --arg m=5 --arg 1=99999999999 --arg 7=1 " + file, "", {.separateStderr = true});
  EXPECT_EQ(unused.status, 0);
  for (std::string arg : {"m=5", "1=99999999999", "7=1"})
    EXPECT_NE(unused.err.find("warning: --arg " + arg + " sets no integer scalar argument"), std::string::npos)
        << unused.err;
}

namespace {
std::string framed(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}
}  // namespace

// vscode-languageclient starts a stdio server as `tilesight lsp --stdio`: the
// flag names the default transport. With --listen it is a usage error.
TEST(LspCli, StdioFlagServesStdio) {
  std::string session = framed(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})") +
                        framed(R"({"jsonrpc":"2.0","method":"initialized","params":{}})") +
                        framed(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})") +
                        framed(R"({"jsonrpc":"2.0","method":"exit"})");
  CliRun served = run("lsp --stdio --log=error", session);
  EXPECT_EQ(served.status, 0) << served.out;
  EXPECT_NE(served.out.find(R"("textDocumentSync")"), std::string::npos) << served.out;
  EXPECT_NE(served.out.find(R"("id":2,"jsonrpc":"2.0","result":null)"), std::string::npos) << served.out;

  CliRun both = run("lsp --stdio --listen 127.0.0.1:9", "");
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.out.find("--stdio and --listen name two transports"), std::string::npos) << both.out;
}
