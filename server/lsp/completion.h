#pragma once
// Completion: op names with snippets from the op table, types, values in scope, attribute keywords, layout functions.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

// The trigger characters announced in the server's capabilities.
json completionTriggerCharacters();
json completion(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
