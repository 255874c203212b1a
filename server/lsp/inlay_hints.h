#pragma once
// Inlay hints: the index-space shape of each view, result types where the syntax elides them.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json inlayHints(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
