#include "analysis/analysis.h"

#include <algorithm>

#include "analysis/checks/checks.h"
#include "analysis/diag/suppressions.h"
#include "analysis/found.h"
#include "analysis/verify/verifier.h"

namespace tilesight {

size_t Analysis::errorCount() const {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

namespace {

// Verifies and checks one parsed chunk, pass by pass and item by item, so that
// every diagnostic gets its origin (reanalyze() replaces one item's).
void verifyAndCheck(ChunkAnalysis& ca, const AnalyzeOptions& options, layout::WorkBudget& budget, DiagSink& sink,
                    std::vector<DiagOrigin>& origins) {
  const ParseResult& pr = ca.parsed;
  const Program& p = pr.program;
  auto tag = [&](OpId item, DiagOrigin::Pass pass) { origins.resize(sink.all().size(), {item, pass}); };
  origins.assign(sink.all().size(), {kNoId, DiagOrigin::Parse});
  for (const ItemParse& it : pr.items)
    for (uint32_t i = it.diagBegin; i < it.diagEnd; ++i) origins[i].item = it.op;
  size_t side = 0;
  for (const ItemParse& it : pr.items) {
    verifyWrittenTypes(pr.side, side, it.sideBegin, sink);
    tag(kNoId, DiagOrigin::WrittenTypes);
    verifyWrittenTypes(pr.side, it.sideBegin, it.sideEnd, sink);
    tag(it.op, DiagOrigin::WrittenTypes);
    side = it.sideEnd;
  }
  verifyWrittenTypes(pr.side, side, pr.side.occurrences.size(), sink);
  tag(kNoId, DiagOrigin::WrittenTypes);
  verifySymbols(p, sink);
  tag(kNoId, DiagOrigin::Symbols);
  OpId op = 0;
  for (const ItemParse& it : pr.items) {
    if (it.op == kNoId) continue;
    verifyOps(p, op, it.op, sink);
    tag(kNoId, DiagOrigin::OpRules);
    verifyOps(p, it.op, it.opEnd, sink);
    tag(it.op, DiagOrigin::OpRules);
    op = it.opEnd;
  }
  verifyOps(p, op, static_cast<OpId>(p.ops.size()), sink);
  tag(kNoId, DiagOrigin::OpRules);
  checkLayoutAliases(ca.parsed, sink, ca.layouts, budget, options.layoutCache);
  tag(kNoId, DiagOrigin::LayoutAliases);
  std::vector<std::pair<OpId, size_t>> unitStarts;
  runChecks(ca.parsed, options.checks, budget, sink, nullptr, &unitStarts);
  // A unit is a module item or a top-level op; only the first are items.
  std::vector<OpId> items;  // in order (an item that made no op has none)
  for (const ItemParse& it : pr.items)
    if (it.op != kNoId) items.push_back(it.op);
  for (size_t u = 0; u < unitStarts.size(); ++u) {
    bool item = std::binary_search(items.begin(), items.end(), unitStarts[u].first);
    origins.resize(u + 1 < unitStarts.size() ? unitStarts[u + 1].second : sink.all().size(),
                   {item ? unitStarts[u].first : kNoId, DiagOrigin::Checks});
  }
  tag(kNoId, DiagOrigin::Checks);
}

}  // namespace

void appendFound(std::vector<Diagnostic> d, const std::vector<DiagOrigin>& origins, const CheckOptions& checks,
                 std::vector<Diagnostic>& found, std::vector<DiagOrigin>& foundOrigins) {
  std::vector<size_t> order;
  for (size_t i = 0; i < d.size(); ++i)
    if (checks.enabled(d[i].code)) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d[a].range.begin < d[b].range.begin; });
  for (size_t i : order) {
    found.push_back(std::move(d[i]));
    foundOrigins.push_back(origins[i]);
  }
}

bool parseRecovered(const Analysis& a) {
  return std::any_of(a.chunks.begin(), a.chunks.end(), [](const ChunkAnalysis& c) { return recovered(c.parsed); });
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
    std::vector<DiagOrigin> origins;
    verifyAndCheck(ca, options, layoutBudget, sink, origins);
    appendFound(sink.take(), origins, options.checks, result.found, result.origins);
    result.chunks.push_back(std::move(ca));
  }
  result.reusable = chunks.size() == 1;
  result.layoutSpent = layoutBudget.spent();
  result.diagnostics = result.found;
  applySuppressions(text, result.diagnostics, [&](std::string_view code) { return options.checks.enabled(code); },
                    !parseRecovered(result));
  return result;
}

}  // namespace tilesight
