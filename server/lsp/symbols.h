#pragma once
// Hierarchical document symbols: modules, entries, functions, globals, #aliases.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json documentSymbols(const FeatureContext &cx, const json &params);

// workspace/symbol over one open document: its outline flattened to
// WorkspaceSymbols whose name holds `query` (case-insensitive, in order;
// empty: all), each with the name of the symbol that contains it.
void workspaceSymbols(const FeatureContext &cx, const std::string &query, json &out);

} // namespace tilesight::lsp
