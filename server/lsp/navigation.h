#pragma once
// Go to definition, find references, document highlight: SSA values, block arguments, symbols (@name), #aliases and block labels, from the side table.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json definition(const FeatureContext &cx, const json &params);
json references(const FeatureContext &cx, const json &params);
json documentHighlight(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
