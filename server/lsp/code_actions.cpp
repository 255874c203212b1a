#include "server/lsp/code_actions.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

namespace {

// Whether `context.only` (absent: every kind) admits quick fixes. Kinds are
// dotted hierarchies: "quickfix" admits itself, "" admits every kind.
bool wantsQuickFixes(const json &params) {
  auto context = params.find("context");
  if (context == params.end() || !context->is_object())
    return true;
  auto only = context->find("only");
  if (only == context->end() || only->is_null())
    return true;
  if (!only->is_array())
    throw RpcError(error_code::InvalidParams,
                   "\"context.only\" must be an array of kinds");
  for (const json &kind : *only)
    if (kind == "" || kind == "quickfix")
      return true;
  return false;
}

json quickFix(const FeatureContext &cx, const Diagnostic &d, const Fix &f) {
  json edits = json::array();
  for (const TextEdit &e : f.edits)
    edits.push_back({{"range", cx.range(e.range)}, {"newText", e.newText}});
  // The version pins the edits to the text they were computed on: a client
  // that has moved on rejects them instead of garbling the document.
  json change = {
      {"textDocument", {{"uri", cx.snap.uri}, {"version", cx.snap.version}}},
      {"edits", std::move(edits)}};
  return {{"title", f.title},
          {"kind", "quickfix"},
          {"diagnostics", json::array({diagnosticJson(
                              *cx.snap.source, cx.snap.uri, d, cx.encoding)})},
          {"isPreferred", d.fixes.size() == 1},
          {"edit", {{"documentChanges", json::array({std::move(change)})}}}};
}

} // namespace

json codeActions(const FeatureContext &cx, const json &params) {
  const json &range = member(params, "range");
  uint32_t begin = cx.offsetOf(member(range, "start"));
  uint32_t end = cx.offsetOf(member(range, "end"));
  json actions = json::array();
  if (!wantsQuickFixes(params))
    return actions;
  for (const Diagnostic &d : cx.snap.analysis.diagnostics) {
    // Closed intervals: a cursor touching a diagnostic (or sitting on an
    // empty one, a missing token) asks for its fixes.
    bool touches = d.range.begin <= end && begin <= d.range.end;
    if (!touches)
      continue;
    for (const Fix &f : d.fixes)
      actions.push_back(quickFix(cx, d, f));
  }
  return actions;
}

} // namespace tilesight::lsp
