#include "server/lsp/pull_diagnostics.h"

#include "server/lsp/bytecode_documents.h"

namespace tilesight::lsp {

json documentDiagnostics(const Snapshot &snap, const std::vector<Diagnostic> *runFindings, PositionEncoding e) {
  json items = json::array();
  for (const Diagnostic &d : snap.analysis.diagnostics) {
    items.push_back(diagnosticJson(*snap.source, snap.uri, d, e));
    // On bytecode: where the op comes from in the user's source.
    for (json &place : sourceLocations(snap, d))
      items.back()["relatedInformation"].push_back(std::move(place));
  }
  for (const Diagnostic &d : snap.runDirectiveDiagnostics)
    items.push_back(diagnosticJson(*snap.source, snap.uri, d, e));
  if (runFindings)
    for (const Diagnostic &d : *runFindings) {
      items.push_back(diagnosticJson(*snap.source, snap.uri, d, e));
      items.back()["source"] = "tilesight run";
    }
  return items;
}

json pullDiagnostics(const FeatureContext &cx, const json &params) {
  std::string resultId =
      std::to_string(cx.snap.analysisId) + (cx.runFindings ? "." + std::to_string(cx.runId) : std::string());
  if (auto previous = params.find("previousResultId");
      previous != params.end() && previous->is_string() && previous->get<std::string>() == resultId)
    return {{"kind", "unchanged"}, {"resultId", resultId}};
  return {{"kind", "full"}, {"resultId", resultId},
          {"items", documentDiagnostics(cx.snap, cx.runFindings, cx.encoding)}};
}

} // namespace tilesight::lsp
