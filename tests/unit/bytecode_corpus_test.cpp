// Every cuTile bytecode file of tests/corpus/cutile decodes with no error,
// and its text form parses and verifies cleanly and prints back the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "analysis/analysis.h"
#include "analysis/bytecode/reader.h"
#include "analysis/ir/ir_equal.h"
#include "analysis/ir/printer.h"
#include "tests/unit/test_util.h"

namespace tilesight::bytecode {
namespace {

namespace fs = std::filesystem;

using testing::readFile;

std::vector<fs::path> corpusFiles() {
  std::vector<fs::path> out;
  for (const char* dir : {"kernels", "bugs"})
    for (const auto& e : fs::directory_iterator(fs::path(TILESIGHT_TESTS_DIR) / "corpus/cutile" / dir))
      if (e.path().extension() == ".tilebc") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Why the decoded text does not round-trip; empty when it does.
std::string roundTripFailure(const Decoded& d) {
  Analysis a = analyze(d.text);
  for (const Diagnostic& diag : a.diagnostics)
    if (diag.code == "syntax" || diag.code == "type")
      return diag.code + ": " + diag.message + " at offset " + std::to_string(diag.range.begin) + "\n" + d.text;
  const Program& q = a.chunks.at(0).parsed.program;
  if (auto diff = firstDifference(d.program, q)) return *diff + "\n" + d.text;
  if (printProgram(q) != d.text) return "printing the parsed text again differs\n" + d.text;
  if (preorder(q).size() != d.locations.size()) return "the location table does not match the ops";
  return "";
}

TEST(BytecodeCorpus, EveryFileDecodesAndRoundTrips) {
  auto files = corpusFiles();
  ASSERT_GE(files.size(), 190u);
  size_t failures = 0;
  for (const fs::path& f : files) {
    Decoded d = readBytecode(readFile(f));
    if (!d.ok()) {
      ADD_FAILURE() << f.filename() << ": " << d.diagnostics[0].message;
      if (++failures > 5) return;
      continue;
    }
    EXPECT_TRUE(d.hasDebugInfo) << f.filename();
    std::string why = roundTripFailure(d);
    if (!why.empty()) {
      ADD_FAILURE() << f.filename() << ": " << why;
      if (++failures > 5) return;
    }
  }
}

}  // namespace
}  // namespace tilesight::bytecode
