// The printer's round trip (analysis/ir/printer.h): parse -> print -> parse
// gives the same program (ir_equal.h) with no error, and printing that again
// gives the same text. Over our corpus, NVIDIA's lit files when
// TILESIGHT_CUDA_TILE_DIR names a cuda-tile checkout, and focused cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <regex>

#include "analysis/analysis.h"
#include "analysis/ir/ir_equal.h"
#include "analysis/ir/printer.h"
#include "tests/unit/lit_files.h"
#include "tests/unit/test_util.h"

namespace tilesight {
namespace {

namespace fs = std::filesystem;

using testing::readFile;

uint32_t lineAt(std::string_view text, uint32_t offset) {
  auto end = text.begin() + std::min<size_t>(offset, text.size());
  return 1 + static_cast<uint32_t>(std::count(text.begin(), end, '\n'));
}

bool hasError(const Analysis& a, const Chunk& c) {
  return std::any_of(a.diagnostics.begin(), a.diagnostics.end(), [&](const Diagnostic& d) {
    return d.severity == Severity::Error && d.range.begin >= c.begin && d.range.begin <= c.end;
  });
}

// Why `p` does not round-trip; empty when it does.
std::string roundTripFailure(const Program& p) {
  std::string printed = printProgram(p);
  Analysis again = analyze(printed);
  for (const Diagnostic& d : again.diagnostics)
    if (d.severity == Severity::Error)
      return "the printed text has an error at line " + std::to_string(lineAt(printed, d.range.begin)) + ": " +
             d.message + "\n--- printed:\n" + printed;
  const Program& q = again.chunks.at(0).parsed.program;
  if (auto diff = firstDifference(p, q)) return *diff + "\n--- printed:\n" + printed;
  std::string twice = printProgram(q);
  if (twice != printed) return "printing the reparsed program gives other text:\n" + printed + "--- vs:\n" + twice;
  return "";
}

struct Tally {
  size_t files = 0, chunks = 0, skipped = 0;
  std::vector<std::string> failures;
  std::string summary() const {
    return std::to_string(files) + " files, " + std::to_string(chunks) + " chunks round-tripped, " +
           std::to_string(skipped) + " chunks with errors skipped, " + std::to_string(failures.size()) + " failures";
  }
};

// Each chunk of the file that parses and verifies without error must round-trip.
void roundTripFile(const fs::path& f, Tally& t) {
  std::string text = readFile(f);
  AnalyzeOptions options;
  options.splitInputFile = text.find("// -----") != std::string::npos;
  Analysis a = analyze(text, options);
  ++t.files;
  for (const ChunkAnalysis& c : a.chunks) {
    if (hasError(a, c.chunk)) {
      ++t.skipped;
      continue;
    }
    ++t.chunks;
    std::string why = roundTripFailure(c.parsed.program);
    if (!why.empty())
      t.failures.push_back(f.string() + ", chunk at line " + std::to_string(lineAt(text, c.chunk.begin)) + ": " + why);
  }
}

std::vector<fs::path> filesIn(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void expectNoFailures(const Tally& t) {
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
}

TEST(PrinterRoundTrip, OurCorpus) {
  fs::path tests = TILESIGHT_TESTS_DIR;
  Tally t;
  for (const char* dir : {"corpus/valid", "corpus/checks_clean", "corpus/real"})
    for (const fs::path& f : filesIn(tests / dir, ".tile")) roundTripFile(f, t);
  for (const fs::path& f : filesIn(tests.parent_path() / "examples", ".tile")) roundTripFile(f, t);
  std::cout << "[ printer  ] our corpus: " << t.summary() << "\n";
  EXPECT_GT(t.chunks, 50u);
  expectNoFailures(t);
}

TEST(PrinterRoundTrip, CudaTileLitFiles) {
  std::optional<std::vector<fs::path>> files = littest::validLitFiles();
  if (!files) GTEST_SKIP() << littest::kNoLitCheckout;
  Tally t;
  for (const fs::path& f : *files) roundTripFile(f, t);
  std::cout << "[ printer  ] cuda-tile lit files: " << t.summary() << "\n";
  EXPECT_GT(t.files, 0u);
  expectNoFailures(t);
}

// --- focused cases ------------------------------------------------------------

struct Printed {
  std::string text;
  std::string failure;
};

// Prints a program that must be clean, and checks its round trip.
Printed roundTrip(const std::string& src) {
  Analysis a = analyze(src);
  for (const Diagnostic& d : a.diagnostics)
    if (d.severity == Severity::Error) return {"", "the source has an error: " + d.message};
  const Program& p = a.chunks.at(0).parsed.program;
  return {printProgram(p), roundTripFailure(p)};
}

std::string kernel(const std::string& args, const std::string& body) {
  return "cuda_tile.module @m {\n  entry @k(" + args + ") {\n" + body + "\n    return\n  }\n}\n";
}

TEST(PrinterRoundTrip, PrintsTheCustomFormWithTwoSpacesPerRegion) {
  Printed p = roundTrip(kernel("%a: tile<i32>", "%b = addi %a, %a : tile<i32>"));
  ASSERT_EQ(p.failure, "");
  EXPECT_EQ(p.text,
            "cuda_tile.module @m {\n"
            "  entry @k(%a: tile<i32>) {\n"
            "    %b = addi %a, %a : tile<i32>\n"
            "    return\n"
            "  }\n"
            "}\n");
}

TEST(PrinterRoundTrip, OptionalGroupsPresentAndAbsent) {
  Printed p = roundTrip(kernel("%p: tile<ptr<f32>>",
                               "%c = constant <f32: 0.0> : tile<f32>\n"
                               "%m = constant <i1: true> : tile<i1>\n"
                               "%t0 = make_token : token\n"
                               "%v, %t1 = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token\n"
                               "%w, %t2 = load_ptr_tko weak %p, %m, %c token = %t0 : tile<ptr<f32>>, tile<i1>, "
                               "tile<f32> -> tile<f32>, token\n"
                               "%tj = join_tokens %t1, %t2 : token\n"
                               "%t3 = store_ptr_tko relaxed device %p, %v, %m token = %tj : tile<ptr<f32>>, tile<f32>, "
                               "tile<i1> -> token\n"
                               "%t4 = print_tko \"x=%f\", %v : tile<f32> -> token\n"
                               "%t5 = print_tko \"hello\" token = %t4 -> token"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("load_ptr_tko weak %p, %m, %c token = %t0 : tile<ptr<f32>>, tile<i1>, tile<f32> ->"),
            std::string::npos) << p.text;
  EXPECT_NE(p.text.find("store_ptr_tko relaxed device %p, %v, %m token = %tj :"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("print_tko \"x=%f\", %v : tile<f32> -> token"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("print_tko \"hello\" token = %t4 -> token"), std::string::npos) << p.text;
}

TEST(PrinterRoundTrip, DefaultsStayOmittedAndWrittenOnesStay) {
  Printed p = roundTrip(kernel("%a: tile<i32>, %f: tile<f32>",
                               "%q = divi %a, %a signed : tile<i32>\n"
                               "%r = divi %a, %a unsigned rounding<positive_inf> : tile<i32>\n"
                               "%s = addf %f, %f : tile<f32>\n"
                               "%u = addf %f, %f rounding<zero> flush_to_zero : tile<f32>\n"
                               "%x = maxf %f, %f propagate_nan : tile<f32>"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("%q = divi %a, %a signed : tile<i32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%r = divi %a, %a unsigned rounding<positive_inf> : tile<i32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%s = addf %f, %f : tile<f32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%u = addf %f, %f rounding<zero> flush_to_zero : tile<f32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%x = maxf %f, %f propagate_nan : tile<f32>"), std::string::npos) << p.text;
}

TEST(PrinterRoundTrip, DenseConstantsKeepEveryDouble) {
  Printed p = roundTrip(kernel("",
                               "%a = constant <f32: [inf, -inf, nan, -0.0]> : tile<4xf32>\n"
                               "%b = constant <f64: -0.0> : tile<2xf64>\n"
                               "%c = constant <f64: [0.1, 1.0e-300, 4.9406564584124654e-324, 1.7976931348623157e308]> "
                               ": tile<4xf64>\n"
                               "%d = constant <f32: 0x7FC00000> : tile<f32>\n"
                               "%e = constant <i32: [[1, -2], [3, 4]]> : tile<2x2xi32>\n"
                               "%g = constant <i1: [true, false]> : tile<2xi1>\n"
                               "%h = constant <f32: [2.5]> : tile<1xf32>"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("<f32: [inf, -inf, nan, -0.0]>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("<f64: -0.0> : tile<2xf64>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("<f64: [0.1, 1.0e-300, 5.0e-324, 1.7976931348623157e+308]>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("<f32: 0x7FC00000>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("<i32: [[1, -2], [3, 4]]>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("<i1: [true, false]>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("<f32: [2.5]> : tile<1xf32>"), std::string::npos) << p.text;  // a list of one stays a list
}

TEST(PrinterRoundTrip, MultiResultNames) {
  Printed p = roundTrip(kernel("",
                               "%id:3 = get_tile_block_id : tile<i32>\n"
                               "%x, %y, %z = get_num_tile_blocks : tile<i32>\n"
                               "%s = addi %id#1, %y : tile<i32>"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("%id:3 = get_tile_block_id : tile<i32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%x, %y, %z = get_num_tile_blocks : tile<i32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%s = addi %id#1, %y : tile<i32>"), std::string::npos) << p.text;
}

TEST(PrinterRoundTrip, NestedRegionsWithIterValues) {
  Printed p = roundTrip(kernel("%n: tile<i32>",
                               "%c0 = constant <i32: 0> : tile<i32>\n"
                               "%c1 = constant <i32: 1> : tile<i32>\n"
                               "%r = for unsigned %i in (%c0 to %n, step %c1) : tile<i32>\n"
                               "    iter_values(%acc = %c0) -> (tile<i32>) {\n"
                               "  %lt = cmpi less_than %i, %c1, signed : tile<i32> -> tile<i1>\n"
                               "  %v = if %lt -> (tile<i32>) {\n"
                               "    yield %acc : tile<i32>\n"
                               "  } else {\n"
                               "    %s = addi %acc, %i : tile<i32>\n"
                               "    yield %s : tile<i32>\n"
                               "  }\n"
                               "  continue %v : tile<i32>\n"
                               "}\n"
                               "%l:2 = loop iter_values(%a = %c0, %b = %r) : tile<i32>, tile<i32>\n"
                               "    -> tile<i32>, tile<i32> {\n"
                               "  break %a, %b : tile<i32>, tile<i32>\n"
                               "}"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("    %r = for unsigned %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %c0) -> "
                        "(tile<i32>) {\n      %lt = cmpi less_than %i, %c1, signed"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("      } else {\n        %s = addi"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("%l:2 = loop iter_values(%a = %c0, %b = %r) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {"),
            std::string::npos)
      << p.text;
}

TEST(PrinterRoundTrip, ReduceBodyArguments) {
  Printed p = roundTrip(kernel("",
                               "%x = constant <f32: 1.0> : tile<8x16xf32>\n"
                               "%r = reduce %x dim=1 identities=[0.0 : f32] : tile<8x16xf32> -> tile<8xf32>\n"
                               "(%a: tile<f32>, %b: tile<f32>) {\n"
                               "  %s = addf %a, %b : tile<f32>\n"
                               "  yield %s : tile<f32>\n"
                               "}"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("%r = reduce %x dim = 1 identities = [0.0 : f32] : tile<8x16xf32> -> tile<8xf32> "
                        "(%a: tile<f32>, %b: tile<f32>) {"),
            std::string::npos)
      << p.text;
}

TEST(PrinterRoundTrip, GenericUnregisteredOpsWithRegionsAndBlocks) {
  Printed p = roundTrip(
      "cuda_tile.module @m {\n"
      "  testing$func @f(%a: tile<i32>) -> tile<i32> {\n"
      "    %r:2 = \"other.op\"(%a, %a) ({\n"
      "    ^bb0(%z: tile<i32>):\n"
      "      \"other.yield\"(%z) : (tile<i32>) -> ()\n"
      "    ^bb1:\n"
      "      \"other.yield\"() : () -> ()\n"
      "    }, {\n"
      "    }) {k = 1 : i32, \"odd key\" = \"a\\\"b\", flag} : (tile<i32>, tile<i32>) -> (tile<i32>, tile<f32>)\n"
      "    %s = \"cuda_tile.addi\"(%r#0, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>\n"
      "    \"other.empty\"() ({\n    ^bb0:\n    }) : () -> ()\n"
      "    return %s : tile<i32>\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("%r:2 = \"other.op\"(%a, %a) ({\n    ^bb0(%z: tile<i32>):\n      \"other.yield\"(%z) : "
                        "(tile<i32>) -> ()\n    ^bb1:\n"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("}, {\n    }) {k = 1 : i32, \"odd key\" = \"a\\\"b\", flag} : (tile<i32>, tile<i32>) -> "
                        "(tile<i32>, tile<f32>)"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("%s = \"cuda_tile.addi\"(%r#0, %a) : (tile<i32>, tile<i32>) -> tile<i32>"), std::string::npos)
      << p.text;
  // One empty block keeps its label: `({ })` would be a region without blocks.
  EXPECT_NE(p.text.find("\"other.empty\"() ({\n    ^bb0:\n    }) : () -> ()"), std::string::npos) << p.text;
}

TEST(PrinterRoundTrip, AttributeDictionaries) {
  Printed p = roundTrip(
      "module attributes {producer = \"x\"} {\n"
      "  cuda_tile.module @m attributes {n = [1, -2.5, \"s\", @sym, unit, array<i32: 1, 2>],\n"
      "                                 d = {x = true, y = 1.0e20}} {\n"
      "    global private constant @g alignment = 16 <i32: [1, 2]> : tile<2xi32>\n"
      "    entry @k(%a: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {\n"
      "      %b = addi %a, %a overflow<no_signed_wrap> {tag = tile<4xf32>, big = 0xFFFFFFFFFFFFFFFFFF} : tile<i32>\n"
      "      %e = subi %a, %a {w = #cuda_tile.w<f32>, k = #cuda_tile.rounding<zero>, o = 1.0e400, "
      "l = dense<[1, 2]> : tensor<2xi32>} : tile<i32>\n"
      "      %i = iota : tile<4xi32>\n"
      "      %c = assume div_by<8, every 2 along 0>, %i : tile<4xi32>\n"
      "      %d = assume bounded<0, ?>, %b : tile<i32>\n"
      "      return\n"
      "    } {entry_attr = 3}\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("module attributes {producer = \"x\"} {\n  cuda_tile.module @m attributes {n = [1, -2.5, \"s\", "
                        "@sym, unit, array<i32: 1, 2>], d = {x = true, y = 1.0e+20}} {"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("global private constant @g alignment = 16 <i32: [1, 2]> : tile<2xi32>"), std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("entry @k(%a: tile<i32>) optimization_hints = <sm_100 = {num_cta_in_cga = 2}> attributes "
                        "{entry_attr = 3} {"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("overflow<no_signed_wrap> {tag = tile<4xf32>, big = 0xFFFFFFFFFFFFFFFFFF} : tile<i32>"),
            std::string::npos)
      << p.text;
  // A keyword the parser would read as a type keeps a dialect attribute around it.
  EXPECT_NE(p.text.find("{w = #cuda_tile.keyword<f32>, k = zero, o = 1.0e999, l = dense<[1, 2]>} : tile<i32>"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("assume div_by<8, every 2 along 0>, %i : tile<4xi32>"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("assume bounded<0, ?>, %b : tile<i32>"), std::string::npos) << p.text;
}

TEST(PrinterRoundTrip, ViewsAndViewMemoryOps) {
  Printed p = roundTrip(kernel(
      "%p: tile<ptr<f32>>, %n: tile<i64>",
      "%tv = make_tensor_view %p, shape = [%n, 64], strides = [64, 1]\n"
      "    : tile<i64> -> tensor_view<?x64xf32, strides=[64,1]>\n"
      "%pv = make_partition_view %tv : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>\n"
      "%d0, %d1 = get_tensor_shape %tv : tensor_view<?x64xf32, strides=[64,1]> -> tile<i64>\n"
      "%c0 = constant <i32: 0> : tile<i32>\n"
      "%c1 = constant <i32: 1> : tile<i32>\n"
      "%v, %t = load_view_tko weak %pv[%c0, %c1] : partition_view<tile=(16x16), tensor_view<?x64xf32, "
      "strides=[64,1]>>, tile<i32>, tile<i32> -> tile<16x16xf32>, token\n"
      "%t2 = store_view_tko weak %v, %pv[%c0, %c0] token = %t : tile<16x16xf32>, partition_view<tile=(16x16), "
      "tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token"));
  ASSERT_EQ(p.failure, "");
  EXPECT_NE(p.text.find("make_tensor_view %p, shape = [%n, 64], strides = [64, 1] : tile<i64> -> tensor_view<"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("load_view_tko weak %pv[%c0, %c1] : partition_view<tile=(16x16), tensor_view<?x64xf32, "
                        "strides=[64,1]>>, tile<i32> -> tile<16x16xf32>, token"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("store_view_tko weak %v, %pv[%c0, %c0] token = %t : tile<16x16xf32>, partition_view<"),
            std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("strides=[64,1]>>, tile<i32> -> token"), std::string::npos) << p.text;
}

// --- the structural equality itself ----------------------------------------------

std::optional<std::string> differenceBetween(const std::string& x, const std::string& y) {
  Analysis a = analyze(x), b = analyze(y);
  return firstDifference(a.chunks.at(0).parsed.program, b.chunks.at(0).parsed.program);
}

TEST(PrinterEquality, IgnoresNamesSpacingAndAttributeOrder) {
  EXPECT_EQ(differenceBetween(kernel("%a: tile<i32>", "%b = addi %a, %a {x = 1, y = 2} : tile<i32>"),
                              kernel("%z: tile<i32>", "  %q  =  addi %z,%z {y = 2, x = 1} : !cuda_tile.tile<i32>")),
            std::nullopt);
}

TEST(PrinterEquality, ReportsTheFirstDifferenceWithLines) {
  auto d = differenceBetween(kernel("%a: tile<i32>, %c: tile<i32>", "%b = addi %a, %c : tile<i32>"),
                             kernel("%a: tile<i32>, %c: tile<i32>", "\n%b = addi %c, %a : tile<i32>"));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*d, "op 'cuda_tile.addi' (line 3 of the first program, line 4 of the second): "
                "operand 0 uses another value");
  d = differenceBetween(kernel("", "%z = constant <f32: 0.0> : tile<f32>"),
                        kernel("", "%z = constant <f32: -0.0> : tile<f32>"));
  ASSERT_TRUE(d.has_value());
  EXPECT_NE(d->find("attribute 'value' is <f32: 0.0> vs <f32: -0.0>"), std::string::npos) << *d;
  d = differenceBetween(kernel("", "%z = constant <f32: 0x3F800000> : tile<f32>"),
                        kernel("", "%z = constant <f32: 1065353216> : tile<f32>"));
  EXPECT_TRUE(d.has_value()) << "a bit pattern is not the integer it spells";
  d = differenceBetween(kernel("", "%t = make_token : token"), kernel("", ""));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*d, "op 'cuda_tile.make_token' (line 3 of the first program, line 4 of the second): the second program "
                "has 'cuda_tile.return' here");
  d = differenceBetween(kernel("", ""), kernel("", "") + "cuda_tile.module @n {\n}\n");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*d, "the top level holds 1 ops in the first program but 2 in the second");
}

// What the parser read of it: it stops at the error (here the missing `, %x`).
TEST(PrinterRoundTrip, AnOpThatDidNotParsePrintsAsRead) {
  Analysis a = analyze(kernel("%a: tile<i32>", "    %b = addi %a : tile<i32>"));
  ASSERT_GT(a.errorCount(), 0u);
  std::string printed = printProgram(a.chunks.at(0).parsed.program);
  EXPECT_NE(printed.find("    %b = addi %a\n    return"), std::string::npos) << printed;
}

}  // namespace
}  // namespace tilesight
