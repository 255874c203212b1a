#pragma once
// Semantic tokens (the full document or a range), from the side table and op name ranges.
// Token types: keyword (op names), function (@symbols), variable (SSA
// values), parameter (block arguments), type (the head word of a written
// type), macro (#/! aliases); the modifier `declaration` marks definitions.
// Block labels (no standard token type in LSP 3.17), comments and numbers
// are left to the editor's grammar.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

// The legend announced in the server's capabilities.
json semanticTokensLegend();
json semanticTokensFull(const FeatureContext &cx, const json &params);
// Only the tokens inside params.range (the chunks it overlaps are read).
json semanticTokensRange(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
