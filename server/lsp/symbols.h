#pragma once
// Hierarchical document symbols: modules, entries, functions, globals, #aliases.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json documentSymbols(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
