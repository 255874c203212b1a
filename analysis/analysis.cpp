#include "analysis/analysis.h"

#include <algorithm>

#include "analysis/diag/suppressions.h"
#include "analysis/verify/verifier.h"

namespace tilesight {

size_t Analysis::errorCount() const {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

Analysis analyze(std::string_view text, const AnalyzeOptions& options) {
  Analysis result;
  std::vector<Chunk> chunks =
      options.splitInputFile ? splitChunks(text) : std::vector<Chunk>{{0, static_cast<uint32_t>(text.size())}};
  result.chunks.reserve(chunks.size());
  layout::WorkBudget layoutBudget(options.layoutWorkBudget, options.layoutTotalBudget);
  for (const Chunk& c : chunks) {
    DiagSink sink;
    ChunkAnalysis ca{c, {}, {}};
    ca.parsed.program.source = text;
    parseChunk(text, c.begin, c.end, ca.parsed, sink);
    verifyProgram(ca.parsed, sink);
    checkLayoutAliases(ca.parsed, sink, ca.layouts, layoutBudget, options.layoutCache);
    runChecks(ca.parsed, options.checks, layoutBudget, sink);
    std::vector<Diagnostic> d = sink.take();
    std::erase_if(d, [&](const Diagnostic& x) { return !options.checks.enabled(x.code); });
    std::stable_sort(d.begin(), d.end(), [](const Diagnostic& a, const Diagnostic& b) { return a.range.begin < b.range.begin; });
    result.diagnostics.insert(result.diagnostics.end(), std::make_move_iterator(d.begin()), std::make_move_iterator(d.end()));
    result.chunks.push_back(std::move(ca));
  }
  applySuppressions(text, result.diagnostics, [&](std::string_view code) { return options.checks.enabled(code); });
  return result;
}

}  // namespace tilesight
