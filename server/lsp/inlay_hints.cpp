#include "server/lsp/inlay_hints.h"

#include <algorithm>

#include "analysis/checks/views.h"

namespace tilesight::lsp {

namespace {

void collect(const Program &p, std::vector<InlayHint> &out) {
  for (const Value &v : p.values) {
    if (v.name.empty() || !v.type)
      continue;
    // `%x:2` binds %x#0 and %x#1 at one range: no hint there.
    if (p.source.substr(v.range.begin, v.range.end - v.range.begin) != v.name)
      continue;
    if (v.type->isView())
      if (auto s = views::indexSpace(*v.type))
        out.push_back({v.range.end, "index " + s->shapeText()});
  }
}

} // namespace

std::vector<InlayHint> inlayHintsIn(const Snapshot &snap, uint32_t begin, uint32_t end) {
  std::vector<InlayHint> hints;
  for (const ChunkAnalysis &c : snap.analysis.chunks)
    collect(c.parsed.program, hints);
  // Results are defined after their regions are parsed: sort by position.
  std::stable_sort(hints.begin(), hints.end(),
                   [](const InlayHint &a, const InlayHint &b) { return a.offset < b.offset; });
  std::erase_if(hints, [&](const InlayHint &h) { return h.offset < begin || h.offset > end; });
  return hints;
}

json inlayHints(const FeatureContext &cx, const json &params) {
  const json &range = member(params, "range");
  uint32_t begin = cx.offsetOf(member(range, "start"));
  uint32_t end = cx.offsetOf(member(range, "end"));
  json out = json::array();
  for (const InlayHint &h : inlayHintsIn(cx.snap, begin, end))
    out.push_back({{"position", positionJson(*cx.snap.source, h.offset, cx.encoding)},
                   {"label", h.label},
                   {"kind", 1},
                   {"paddingLeft", true}});
  return out;
}

} // namespace tilesight::lsp
