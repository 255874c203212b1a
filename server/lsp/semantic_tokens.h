#pragma once
// Semantic tokens (full document): legend and encoding.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

// The legend announced in the server's capabilities.
json semanticTokensLegend();
json semanticTokensFull(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
