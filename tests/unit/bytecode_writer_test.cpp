// The bytecode writer (analysis/bytecode/writer.h): every cuTile 13.3 file
// of tests/corpus/cutile comes out byte for byte; every clean text program
// of our corpora (and NVIDIA's lit files when TILESIGHT_CUDA_TILE_DIR names
// a cuda-tile checkout) goes text -> bytecode -> text to the same program;
// what 13.3 bytecode cannot hold is refused with a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>

#include "analysis/analysis.h"
#include "analysis/bytecode/reader.h"
#include "analysis/bytecode/writer.h"
#include "analysis/ir/ir_equal.h"
#include "tests/unit/lit_files.h"
#include "tests/unit/test_util.h"

namespace tilesight::bytecode {
namespace {

namespace fs = std::filesystem;

using testing::readFile;

std::vector<fs::path> filesIn(const fs::path& dir, std::string_view suffix) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().string().ends_with(suffix)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> cutile13_3() {
  std::vector<fs::path> out;
  for (const char* dir : {"kernels", "bugs"})
    for (const fs::path& f : filesIn(fs::path(TILESIGHT_TESTS_DIR) / "corpus/cutile" / dir, ".13_3.tilebc"))
      out.push_back(f);
  return out;
}

// The first differing byte, for the failure message.
std::string firstByteDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return "sizes " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + ", first difference at byte " +
         std::to_string(i);
}

// Two files differ, by the normalization docs/bytecode.md gives: a
// load_ptr_tko with a padding value but no mask, whose padding value the
// reader leaves out (the text cannot say it); the rest is byte for byte.
TEST(BytecodeWriter, Cutile13_3CorpusComesOutByteForByte) {
  const std::set<std::string> paddingWithoutMask = {"embedding_gather_bug1.embedding_gather.13_3.tilebc",
                                                    "stencil3_bug1.stencil3.13_3.tilebc"};
  auto files = cutile13_3();
  ASSERT_GE(files.size(), 70u);
  size_t same = 0;
  for (const fs::path& f : files) {
    std::string original = readFile(f);
    Decoded d = readBytecode(original);
    ASSERT_TRUE(d.ok()) << f.filename();
    Written w = writeBytecode(d.program, {.like = original});
    ASSERT_TRUE(w.ok()) << f.filename() << ": " << w.errors.at(0);
    bool expectSame = !paddingWithoutMask.contains(f.filename().string());
    EXPECT_EQ(w.bytes == original, expectSame) << f.filename() << ": " << firstByteDifference(w.bytes, original);
    same += w.bytes == original;
    // Without the original's tables: the same program (no debug section, tables in first-use order).
    Written plain = writeBytecode(d.program);
    ASSERT_TRUE(plain.ok()) << f.filename() << ": " << plain.errors.at(0);
    Decoded again = readBytecode(plain.bytes);
    ASSERT_TRUE(again.ok()) << f.filename() << ": " << again.diagnostics.at(0).message;
    EXPECT_EQ(firstDifference(d.program, again.program), std::nullopt) << f.filename();
    EXPECT_EQ(again.text, d.text) << f.filename();
  }
  std::cout << "[ writer   ] cuTile 13.3: " << same << " of " << files.size() << " files byte for byte\n";
}

bool hasError(const Analysis& a, const Chunk& c) {
  return std::any_of(a.diagnostics.begin(), a.diagnostics.end(), [&](const Diagnostic& d) {
    return d.severity == Severity::Error && d.range.begin >= c.begin && d.range.begin <= c.end;
  });
}

// Why `p` does not go text -> bytecode -> text; empty when it does. The
// module's name is not in bytecode (the reader calls it @kernels).
// A program that differs only in spelling the bytecode does not keep (a
// hexadecimal bit pattern, an escape, a list of one, a float beyond its
// type) writes the same bytes: `respelled` names the difference.
std::string textRoundTripFailure(const Program& p, std::string& refused, std::string& respelled) {
  Written w = writeBytecode(p);
  if (!w.ok()) {
    refused = w.errors[0];
    return "";
  }
  Decoded d = readBytecode(w.bytes);
  if (!d.ok()) return "the written bytecode does not read: " + d.diagnostics[0].message;
  Analysis a = analyze(d.text);
  if (a.errorCount()) return "the text of the written bytecode has errors:\n" + d.text;
  Program& q = a.chunks.at(0).parsed.program;
  // The cuda_tile.module written: inside a builtin `module { }` when there is one.
  OpId mine = p.topLevel.at(0);
  if (!p.op(mine).info && p.op(mine).regions.size() == 1 && p.op(mine).regions[0].blocks.size() == 1)
    mine = p.op(mine).regions[0].blocks[0].ops.at(0);
  const Attr* name = p.op(mine).attr("sym_name");
  for (NamedAttr& n : q.op(q.topLevel.at(0)).attrs)
    if (n.name == "sym_name" && name) n.attr.s = name->s;
  if (auto diff = firstDifference(p, mine, q, q.topLevel.at(0))) {
    Written again = writeBytecode(q);
    if (again.ok() && again.bytes == w.bytes) {
      respelled = *diff;
      return "";
    }
    return *diff + "\n--- text from bytecode:\n" + d.text;
  }
  return "";
}

struct Tally {
  size_t chunks = 0, skipped = 0;
  std::vector<std::string> refused, respelled, failures;
  std::string summary() const {
    return std::to_string(chunks - refused.size() - respelled.size() - failures.size()) + " of " +
           std::to_string(chunks) + " clean chunks round-trip to the same program, " +
           std::to_string(respelled.size()) + " to the same bytes (a spelling bytecode does not keep), " +
           std::to_string(refused.size()) + " refused by the writer, " + std::to_string(skipped) +
           " chunks with errors skipped, " + std::to_string(failures.size()) + " failures";
  }
};

void roundTripFile(const fs::path& f, Tally& t) {
  std::string text = readFile(f);
  AnalyzeOptions options;
  options.splitInputFile = text.find("// -----") != std::string::npos;
  Analysis a = analyze(text, options);
  for (const ChunkAnalysis& c : a.chunks) {
    if (hasError(a, c.chunk)) {
      ++t.skipped;
      continue;
    }
    ++t.chunks;
    std::string refused, respelled;
    std::string why = textRoundTripFailure(c.parsed.program, refused, respelled);
    if (!refused.empty()) t.refused.push_back(f.filename().string() + ": " + refused);
    if (!respelled.empty()) t.respelled.push_back(f.filename().string() + ": " + respelled);
    if (!why.empty()) t.failures.push_back(f.string() + ", chunk at byte " + std::to_string(c.chunk.begin) + ": " + why);
  }
}

TEST(BytecodeWriter, OurTextCorporaRoundTrip) {
  fs::path tests = TILESIGHT_TESTS_DIR;
  Tally t;
  for (const char* dir : {"corpus/valid", "corpus/checks", "corpus/checks_clean", "corpus/real"})
    for (const fs::path& f : filesIn(tests / dir, ".tile")) roundTripFile(f, t);
  for (const fs::path& f : filesIn(tests.parent_path() / "examples", ".tile")) roundTripFile(f, t);
  std::cout << "[ writer   ] our corpora: " << t.summary() << "\n";
  for (const std::string& r : t.refused) std::cout << "  refused: " << r << "\n";
  for (const std::string& r : t.respelled) std::cout << "  respelled: " << r << "\n";
  EXPECT_GT(t.chunks, 100u);
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
}

TEST(BytecodeWriter, CudaTileLitFilesRoundTrip) {
  std::optional<std::vector<fs::path>> files = littest::validLitFiles();
  if (!files) GTEST_SKIP() << littest::kNoLitCheckout;
  Tally t;
  for (const fs::path& f : *files) roundTripFile(f, t);
  std::cout << "[ writer   ] cuda-tile lit files: " << t.summary() << "\n";
  for (const std::string& r : t.refused) std::cout << "  refused: " << r << "\n";
  for (const std::string& r : t.respelled) std::cout << "  respelled: " << r << "\n";
  EXPECT_GT(t.chunks, 0u);
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
}

// --- focused cases ------------------------------------------------------------

Written write(const std::string& text) {
  Analysis a = analyze(text);
  EXPECT_EQ(a.errorCount(), 0u) << text;
  return writeBytecode(a.chunks.at(0).parsed.program);
}

std::string kernel(const std::string& args, const std::string& body) {
  return "cuda_tile.module @m {\n  entry @k(" + args + ") {\n" + body + "\n  }\n}\n";
}

TEST(BytecodeWriter, WritesVersion13_3WithCutilesSectionOrder) {
  Written w = write(kernel("%a: tile<i32>", "%b = addi %a, %a : tile<i32>"));
  ASSERT_TRUE(w.ok()) << w.errors.at(0);
  ASSERT_GE(w.bytes.size(), 13u);
  EXPECT_EQ(w.bytes.substr(0, 12), std::string("\x7fTileIR\0\x0d\x03\0\0", 12));
  EXPECT_EQ(static_cast<uint8_t>(w.bytes[12]), 0x82) << "the function section first, aligned";
  EXPECT_EQ(w.bytes.back(), '\0');
  Decoded d = readBytecode(w.bytes);
  ASSERT_TRUE(d.ok()) << d.diagnostics.at(0).message;
  EXPECT_EQ(d.version, "13.3");
  EXPECT_NE(d.text.find("addi %arg0, %arg0 : tile<i32>"), std::string::npos) << d.text;
  EXPECT_FALSE(d.hasDebugInfo);
}

TEST(BytecodeWriter, WritesTheTerminatorsTheTextLeavesOut) {
  Written w = write(kernel("%n: tile<i32>",
                           "%c0 = constant <i32: 0> : tile<i32>\n"
                           "%c1 = constant <i32: 1> : tile<i32>\n"
                           "for %i in (%c0 to %n, step %c1) : tile<i32> {\n"
                           "  %t = make_token : token\n"
                           "}"));
  ASSERT_TRUE(w.ok()) << w.errors.at(0);
  Decoded d = readBytecode(w.bytes);
  ASSERT_TRUE(d.ok()) << d.diagnostics.at(0).message;
  EXPECT_NE(d.text.find("make_token"), std::string::npos) << d.text;
}

// NVIDIA's tools and tests put a builtin `module { }` around the cuda_tile
// module: the bytes are the inner module's; an attribute of the wrapper has no
// place in bytecode.
TEST(BytecodeWriter, WritesTheModuleInsideABuiltinModule) {
  std::string inner = kernel("%a: tile<i32>", "%b = addi %a, %a : tile<i32>");
  Written plain = write(inner);
  Written wrapped = write("module {\n" + inner + "}\n");
  ASSERT_TRUE(wrapped.ok()) << wrapped.errors.at(0);
  EXPECT_EQ(wrapped.bytes, plain.bytes);
  Written attributed = write("module attributes {gpu.container_module} {\n" + inner + "}\n");
  ASSERT_FALSE(attributed.ok());
  EXPECT_EQ(attributed.errors.at(0), "'builtin.module': bytecode has no place for the attribute "
                                     "'gpu.container_module' of the builtin module around the cuda_tile.module");
}

TEST(BytecodeWriter, RefusesWhat13_3CannotHold) {
  Written w = write(kernel("%f: tile<f32>", "%i = ftoi %f signed {saturating} : tile<f32> -> tile<i32>"));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.errors.at(0), "'cuda_tile.ftoi': 'saturating' needs bytecode 13.4; 13.3 is written (drop it to write "
                            "this program)");
  EXPECT_TRUE(w.bytes.empty());
  w = write(kernel("%a: tile<i32>", "%b = addi %a, %a {tag = 1} : tile<i32>"));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.errors.at(0), "'cuda_tile.addi': bytecode has no place for its attribute 'tag'");
}

}  // namespace
}  // namespace tilesight::bytecode
