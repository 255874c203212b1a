#pragma once
// textDocument/diagnostic (pull diagnostics, LSP 3.17), beside the pushed
// publishDiagnostics: the document's diagnostics from its newest analysis,
// as a full report whose resultId names that analysis and run (a version
// analyzed again under new settings gets a new one), or "unchanged" when the
// client already has it.
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json pullDiagnostics(const FeatureContext &cx, const json &params);

// What a document shows, pushed or pulled: the analysis's diagnostics, its
// run directives' (run.directive) and its last run's findings (source
// "tilesight run").
json documentDiagnostics(const Snapshot &snap, const std::vector<Diagnostic> *runFindings, PositionEncoding e);

} // namespace tilesight::lsp
