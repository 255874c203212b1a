#pragma once
// The library's front door: text in, facts out.
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

struct Analysis {
  std::vector<ChunkAnalysis> chunks;
  std::vector<Diagnostic> diagnostics;  // all chunks, in source order
  size_t errorCount() const;
};

// Parses and verifies `text`. Never fails: problems are diagnostics.
Analysis analyze(std::string_view text, const AnalyzeOptions& options = {});

}  // namespace tilesight
