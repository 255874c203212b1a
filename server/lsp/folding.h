#pragma once
// Folding ranges: regions (module, entry and loop bodies), comment blocks, `// -----` chunks.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json foldingRanges(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
