#pragma once
// textDocument/diagnostic (pull diagnostics, LSP 3.17), beside the pushed
// publishDiagnostics: the document's diagnostics from its newest analysis,
// as a full report whose resultId names that analysis (a version analyzed
// again under new settings gets a new one), or "unchanged" when the client
// already has it.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json pullDiagnostics(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
