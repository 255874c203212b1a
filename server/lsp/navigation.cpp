#include "server/lsp/navigation.h"

#include "server/lsp/jsonrpc.h"
#include "server/lsp/mentions.h"

namespace tilesight::lsp {

std::optional<Range> definitionAt(const Snapshot &snap, uint32_t offset) {
  std::optional<Entity> e = entityAt(snap, offset);
  if (!e)
    return std::nullopt;
  if (e->under.isDef)
    return e->under.range;
  for (const Mention &m : e->all)
    if (m.isDef)
      return m.range;
  return std::nullopt; // an undefined name
}

std::optional<std::vector<Range>> referencesAt(const Snapshot &snap, uint32_t offset,
                                               bool includeDeclaration) {
  std::optional<Entity> e = entityAt(snap, offset);
  if (!e)
    return std::nullopt;
  std::vector<Range> out;
  for (const Mention &m : e->all)
    if (!m.isDef || includeDeclaration)
      out.push_back(m.range);
  return out;
}

std::optional<std::vector<Highlight>> highlightsAt(const Snapshot &snap, uint32_t offset) {
  std::optional<Entity> e = entityAt(snap, offset);
  if (!e)
    return std::nullopt;
  std::vector<Highlight> out;
  for (const Mention &m : e->all)
    out.push_back({m.range, m.isDef});
  return out;
}

namespace {

// LSP DocumentHighlightKind.
constexpr int kRead = 2, kWrite = 3;

json location(const FeatureContext &cx, Range r) {
  return {{"uri", cx.snap.uri}, {"range", cx.range(r)}};
}

} // namespace

json definition(const FeatureContext &cx, const json &params) {
  std::optional<Range> r = definitionAt(cx.snap, cx.offsetOf(member(params, "position")));
  return r ? location(cx, *r) : json(nullptr);
}

json references(const FeatureContext &cx, const json &params) {
  const json &flag = member(member(params, "context"), "includeDeclaration");
  if (!flag.is_boolean())
    throw RpcError(error_code::InvalidParams,
                   "\"includeDeclaration\" must be a boolean");
  std::optional<std::vector<Range>> rs =
      referencesAt(cx.snap, cx.offsetOf(member(params, "position")), flag.get<bool>());
  if (!rs)
    return nullptr;
  json out = json::array();
  for (Range r : *rs)
    out.push_back(location(cx, r));
  return out;
}

json documentHighlight(const FeatureContext &cx, const json &params) {
  std::optional<std::vector<Highlight>> hs =
      highlightsAt(cx.snap, cx.offsetOf(member(params, "position")));
  if (!hs)
    return nullptr;
  json out = json::array();
  for (const Highlight &h : *hs)
    out.push_back({{"range", cx.range(h.range)}, {"kind", h.write ? kWrite : kRead}});
  return out;
}

} // namespace tilesight::lsp
