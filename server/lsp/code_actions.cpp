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

json quickFixJson(const FeatureContext &cx, const QuickFix &q) {
  json edits = json::array();
  for (const TextEdit &e : q.fix->edits)
    edits.push_back({{"range", cx.range(e.range)}, {"newText", e.newText}});
  // The version pins the edits to the text they were computed on: a client
  // that has moved on rejects them instead of garbling the document.
  json change = {
      {"textDocument", {{"uri", cx.snap.uri}, {"version", cx.snap.version}}},
      {"edits", std::move(edits)}};
  return {{"title", q.fix->title},
          {"kind", "quickfix"},
          {"diagnostics", json::array({diagnosticJson(
                              *cx.snap.source, cx.snap.uri, *q.diagnostic, cx.encoding)})},
          {"isPreferred", q.preferred},
          {"edit", {{"documentChanges", json::array({std::move(change)})}}}};
}

} // namespace

std::vector<QuickFix> quickFixesIn(const Snapshot &snap, uint32_t begin, uint32_t end) {
  std::vector<QuickFix> out;
  for (const Diagnostic &d : snap.analysis.diagnostics)
    if (d.range.begin <= end && begin <= d.range.end)
      for (const Fix &f : d.fixes)
        out.push_back({&d, &f, d.fixes.size() == 1});
  return out;
}

json codeActions(const FeatureContext &cx, const json &params) {
  const json &range = member(params, "range");
  uint32_t begin = cx.offsetOf(member(range, "start"));
  uint32_t end = cx.offsetOf(member(range, "end"));
  json actions = json::array();
  // A bytecode file's text form is read-only: nothing to fix in place.
  if (!wantsQuickFixes(params) || cx.snap.bytecode)
    return actions;
  for (const QuickFix &q : quickFixesIn(cx.snap, begin, end))
    actions.push_back(quickFixJson(cx, q));
  return actions;
}

} // namespace tilesight::lsp
