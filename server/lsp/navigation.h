#pragma once
// Go to definition, find references, document highlight: SSA values (a
// `%x:2` group is one entity with its `%x#1` uses), block arguments, symbols
// (@name, resolved in the nearest module), #aliases (the newest definition
// before a use) and block labels, within the chunk of the position.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json definition(const FeatureContext &cx, const json &params);
json references(const FeatureContext &cx, const json &params);
json documentHighlight(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
