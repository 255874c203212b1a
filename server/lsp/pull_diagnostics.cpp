#include "server/lsp/pull_diagnostics.h"

namespace tilesight::lsp {

json pullDiagnostics(const FeatureContext &cx, const json &params) {
  std::string resultId = std::to_string(cx.snap.analysisId);
  if (auto previous = params.find("previousResultId");
      previous != params.end() && previous->is_string() && previous->get<std::string>() == resultId)
    return {{"kind", "unchanged"}, {"resultId", resultId}};
  json items = json::array();
  for (const Diagnostic &d : cx.snap.analysis.diagnostics)
    items.push_back(diagnosticJson(*cx.snap.source, cx.snap.uri, d, cx.encoding));
  return {{"kind", "full"}, {"resultId", resultId}, {"items", std::move(items)}};
}

} // namespace tilesight::lsp
