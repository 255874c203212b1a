#pragma once
// Code actions: the fixes attached to diagnostics, as quick fixes with workspace edits.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json codeActions(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
