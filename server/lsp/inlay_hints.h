#pragma once
// Inlay hints (LSP InlayHint[], kind Type) inside the requested range: after
// each value whose type is a view, its index-space shape (`index 4x2`), which
// the text never spells. Result types get no hints: every custom form of the
// dialect writes them (a shared `: tile<...>` names operands and result).
#include <string>
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

struct InlayHint {
  uint32_t offset; // where the label goes (after the value's name)
  std::string label;
};
// The hints at offsets in [begin, end], in order.
std::vector<InlayHint> inlayHintsIn(const Snapshot &snap, uint32_t begin, uint32_t end);

// textDocument/inlayHint: params {textDocument, range}.
json inlayHints(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
