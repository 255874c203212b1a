#pragma once
// Folding ranges: regions (module, entry and loop bodies), comment blocks, `// -----` chunks.
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

struct Fold {
  uint32_t start = 0, end = 0; // lines
  const char *kind = nullptr;  // "comment", "region", or none
};
// One fold per start line (the outermost), in order of start.
std::vector<Fold> foldsOf(const Snapshot &snap);

// textDocument/foldingRange: foldsOf as LSP FoldingRanges.
json foldingRanges(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
