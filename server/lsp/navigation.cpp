#include "server/lsp/navigation.h"

#include "server/lsp/jsonrpc.h"
#include "server/lsp/mentions.h"

namespace tilesight::lsp {

namespace {

// LSP DocumentHighlightKind.
constexpr int kRead = 2, kWrite = 3;

json location(const FeatureContext &cx, Range r) {
  return {{"uri", cx.snap.uri}, {"range", cx.range(r)}};
}

} // namespace

json definition(const FeatureContext &cx, const json &params) {
  std::optional<Entity> e = entityAt(cx.snap, cx.offsetOf(member(params, "position")));
  if (!e)
    return nullptr;
  if (e->under.isDef)
    return location(cx, e->under.range);
  for (const Mention &m : e->all)
    if (m.isDef)
      return location(cx, m.range);
  return nullptr; // an undefined name
}

json references(const FeatureContext &cx, const json &params) {
  const json &flag = member(member(params, "context"), "includeDeclaration");
  if (!flag.is_boolean())
    throw RpcError(error_code::InvalidParams,
                   "\"includeDeclaration\" must be a boolean");
  std::optional<Entity> e = entityAt(cx.snap, cx.offsetOf(member(params, "position")));
  if (!e)
    return nullptr;
  json out = json::array();
  for (const Mention &m : e->all)
    if (!m.isDef || flag.get<bool>())
      out.push_back(location(cx, m.range));
  return out;
}

json documentHighlight(const FeatureContext &cx, const json &params) {
  std::optional<Entity> e = entityAt(cx.snap, cx.offsetOf(member(params, "position")));
  if (!e)
    return nullptr;
  json out = json::array();
  for (const Mention &m : e->all)
    out.push_back(
        {{"range", cx.range(m.range)}, {"kind", m.isDef ? kWrite : kRead}});
  return out;
}

} // namespace tilesight::lsp
