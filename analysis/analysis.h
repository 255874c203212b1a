#pragma once
// The library's front door: text in, facts out.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/checks/checks.h"
#include "analysis/checks/layout_aliases.h"
#include "analysis/diag/diagnostic.h"
#include "analysis/layout/layout.h"
#include "analysis/source/source_text.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

struct AnalyzeOptions {
  bool splitInputFile = false;  // check each `// -----` chunk on its own
  // How hard the exact layout decisions may work (layout.h): each at most
  // layoutWorkBudget, all of one analysis (the #layout claims and the views of
  // every chunk) together at most layoutTotalBudget. An editor passes
  // layout::kInteractiveWorkBudget and kInteractiveTotalBudget.
  double layoutWorkBudget = layout::kBatchWorkBudget;
  double layoutTotalBudget = layout::kBatchWorkBudget;
  CheckOptions checks;  // the dataflow checks: grid, aliasing, codes turned off
  // Where #layout alias results are kept across analyses (an editor's, per
  // document); null: evaluate every alias.
  LayoutAliasCache* layoutCache = nullptr;
};

struct ChunkAnalysis {
  Chunk chunk;
  ParseResult parsed;
  std::vector<LayoutAliasFact> layouts;  // evaluated #layout aliases
};

// What made a diagnostic: the module item whose parse, verification or
// checks produced it (kNoId: the file or module level), and the pass.
// Diagnostics at one offset stay in pass order.
struct DiagOrigin {
  enum Pass : uint8_t { Parse, WrittenTypes, Symbols, OpRules, LayoutAliases, Checks };
  OpId item = kNoId;
  Pass pass = Parse;
};

struct Analysis {
  std::vector<ChunkAnalysis> chunks;
  std::vector<Diagnostic> diagnostics;  // all chunks, in source order
  size_t errorCount() const;

  // What reanalyze() reuses, for a file analysed as one chunk: the
  // diagnostics before suppressions with their origins, and the layout work
  // spent (at least: reanalyze() adds and never subtracts).
  bool reusable = false;
  std::vector<Diagnostic> found;
  std::vector<DiagOrigin> origins;
  double layoutSpent = 0;
  // Set by reanalyze(): the index in chunks[0].parsed.items of the one item
  // it parsed again (every other item's text and facts are the previous
  // analysis's, moved).
  std::optional<size_t> reparsedItem;
};

// Whether a syntax error made the parser skip text in some chunk.
bool parseRecovered(const Analysis& a);

// Parses and verifies `text`. Never fails: problems are diagnostics.
Analysis analyze(std::string_view text, const AnalyzeOptions& options = {});

// The analysis of `newText` from `previous`, the analysis of `oldText` with
// the same options, when the edit between them lies inside the body of one
// item of a module (an entry): that item is parsed, verified and checked
// again in place, everything else is reused (ids and offsets after it move).
// The result equals analyze(newText, options). nullopt when the edit is not
// confined to one item or reuse could differ (a layout work budget that
// binds, an item that does not parse cleanly): the caller runs analyze().
std::optional<Analysis> reanalyze(Analysis previous, std::string_view oldText, std::string_view newText,
                                  const AnalyzeOptions& options);

}  // namespace tilesight
