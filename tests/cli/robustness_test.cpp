// Hostile input to the command line (issue 12): bytes that are not UTF-8,
// absurd option values, huge numbers, designations and line ends. Each case
// crashed, hung or gave a wrong answer before; now each has a clear outcome.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;

namespace {

// JSON and SARIF reports stay valid JSON (bad bytes become U+FFFD) and keep
// the diagnostic, whether the bad byte is in the text or in the file name.
TEST(CheckRobustness, InvalidUtf8StillGivesValidJson) {
  std::string lone = write("ff.tile", "\xff");
  std::string named = write("bad\xfe name.tile", "cuda_tile.module @m {\n  entry @\"k\xff\"() {\n    %x = addi\n  }\n}\n");
  for (const char* format : {"json", "sarif"}) {
    for (const std::string& file : {lone, named}) {
      CliRun r = run(std::string("check --format=") + format + " '" + file + "'", "", {.separateStderr = true});
      EXPECT_EQ(r.status, 1) << format << " " << r.out << r.err;
      nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
      ASSERT_FALSE(j.is_discarded()) << format << ": not JSON: " << r.out;
      // Text keeps a bad byte as U+FFFD; a SARIF URI percent-encodes the byte of the file's name.
      bool replaced = r.out.find("\xef\xbf\xbd") != std::string::npos;
      bool encoded = std::string(format) == "sarif" && file == named && r.out.find("bad%FE%20name.tile") != std::string::npos;
      EXPECT_TRUE(replaced || encoded) << "no U+FFFD in " << r.out;
      EXPECT_NE(r.out.find("expected"), std::string::npos) << "the diagnostic is lost: " << r.out;
    }
  }
}

// A grid whose product passes 64 bits was enumerated for ever: an axis over
// the spec's limit is a usage error, and the largest legal grid is "too many
// blocks to compare", not a loop.
TEST(CheckRobustness, AbsurdGridsAreUsageErrorsNotLoops) {
  std::string file = std::string(TILESIGHT_TESTS_DIR) + "/cli/all_codes.tile";
  for (const char* grid : {"4294967296,4294967296,1", "3037000500,3037000500,1", "1,1,16777216"}) {
    CliRun r = run(std::string("check --split-input-file --grid=") + grid + " " + file, "", {.timeoutSeconds = 60});
    EXPECT_EQ(r.status, 2) << grid << ": " << r.out;
    EXPECT_NE(r.out.find("over the spec's limit of 2^24 - 1 = 16777215 per axis"), std::string::npos) << r.out;
  }
  CliRun max = run("check --split-input-file --grid=16777215,16777215,16777215 " + file, "", {.timeoutSeconds = 60});
  EXPECT_EQ(max.status, 1) << max.out;  // the file's own errors, in seconds
}

// std::regex recursed once per character of an expectation: 40 KB crashed.
TEST(CheckRobustness, LongExpectationDoesNotOverflowTheStack) {
  std::string text = "cuda_tile.module @m {\n  // expected-error @+1 {{" + std::string(40000, 'x') +
                     "}}\n  entry @k() {\n    return\n  }\n}\n// expected-error @+99999999999999999999999 {{far}}\n";
  CliRun r = run("check --verify-diagnostics " + write("long.tile", text), "", {.timeoutSeconds = 60});
  EXPECT_EQ(r.status, 1) << r.out.substr(0, 500);
  EXPECT_NE(r.out.find("\"" + std::string(40000, 'x') + "\" on line 3 was not produced"), std::string::npos);
  EXPECT_NE(r.out.find("expected error \"far\" on line 8 was not produced"), std::string::npos) << r.out.substr(0, 500);
}

// A lone \r ends a line (and a // comment) as it does for MLIR and LSP: the
// op after the comment is checked, on the line an editor shows it on.
TEST(CheckRobustness, LoneCarriageReturnEndsALine) {
  CliRun r = run("check " + write("cr.tile",
                                  "cuda_tile.module @m {\n  entry @k() { // comment\r    %x = addi %u, %u : tile<i32>\r"
                                  "    return\r  }\r}\r"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("cr.tile:3:15: error: use of undefined value '%u'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n    %x = addi %u, %u : tile<i32>\n              ^~\n"), std::string::npos) << r.out;
}

// Sizes near INT64_MAX: ceil-division overflowed into a negative index
// space and a false bounds.index error; INT64_MIN literals were negated.
TEST(CheckRobustness, HugeDimensionsAndInt64Min) {
  const std::string tv = "tensor_view<9223372036854775799xf32, strides=[1]>";
  std::string text = "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>) {\n"
                     "    %tv = make_tensor_view %p, shape = [9223372036854775799], strides = [1] : " + tv + "\n"
                     "    %pv = make_partition_view %tv : partition_view<tile=(1024), " + tv + ">\n"
                     "    %c4 = constant <i32: 4> : tile<i32>\n"
                     "    %a, %t = load_view_tko weak %pv[%c4] : partition_view<tile=(1024), " + tv +
                     ">, tile<i32> -> tile<1024xf32>, token\n"
                     "    %m = constant <i64: -9223372036854775808> : tile<i64>\n"
                     "    %n = constant <i64: [-9223372036854775808, 9223372036854775807]> : tile<2xi64>\n"
                     "    return\n  }\n}\n";
  CliRun r = run("check " + write("huge.tile", text));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

// Layout arithmetic past int64 is an error with the limit named, never a
// negative shape.
TEST(CheckRobustness, LayoutArithmeticOverflowIsAnError) {
  for (const char* expr : {"recast_layout(8:1, from = 9223372036854775807, to = 1)",
                           "complement(4:1, 9223372036854775807)", "(9223372036854775807,2):(2,1)"}) {
    CliRun r = run(std::string("layout '") + expr + "'");
    EXPECT_EQ(r.status, 1) << expr << ": " << r.out;
    EXPECT_NE(r.out.find("error: layout too large: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("-"), std::string::npos) << "a negative size: " << r.out;
  }
}

// The #layout claims of one file share one work budget: three hard claims
// cost at most the budget, and the ones it cannot decide say so (a remark,
// not an error, so the exit status stays 0).
TEST(CheckRobustness, LayoutClaimsShareAFileBudget) {
  const std::string hard =
      "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(8243093,12381493,14459191,15502289,16023838,16286774,"
      "16419342,16486186,16519893,16536889,16545387,16549710,16551910,16553030,16553600,16553885,16554033,16554110,"
      "16554150,16554170,16554181,16554187,16554190,16554192,16554193,16554194)";
  std::string text;
  for (const char* name : {"a", "b", "c"}) text += std::string("#") + name + " = #layout<" + hard + ", expect = injective>\n";
  text += "cuda_tile.module @m {\n}\n";
  std::string file = write("claims.tile", text);
  CliRun r = run("check --format=json --layout-budget=1 " + file, "", {.timeoutSeconds = 120});
  EXPECT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["diagnostics"].size(), 2u) << r.out;  // #a is proved injective; #b and #c are left undecided
  for (const auto& d : j["diagnostics"]) {
    EXPECT_EQ(d["severity"], "remark");
    EXPECT_EQ(d["code"], "layout.claim");
    EXPECT_NE(d["message"].get<std::string>().find("was not decided within the work budget left for it"),
              std::string::npos);
  }
  EXPECT_EQ(j["diagnostics"][0]["line"], 2);
  CliRun bad = run("check --layout-budget=0 " + file);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("--layout-budget wants a number of units from 1 to 16384, not 0"), std::string::npos);
}

}  // namespace
