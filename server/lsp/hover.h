#pragma once
// Hover: markdown about the token under the cursor, read from one analyzed
// snapshot (side table occurrences and op name ranges; never a re-parse).
#include <cstdint>
#include <optional>
#include <string>

#include "analysis/diag/diagnostic.h"
#include "server/lsp/documents.h"
#include "server/lsp/feature.h"

namespace tilesight::lsp {

struct HoverInfo {
  Range range; // the token
  std::string markdown;
};

// On an op name: its doc line and operand/result types. On an SSA value
// (definition or use): its type and where it is defined. On a #layout alias
// (definition or use, also inside another layout expression): the evaluated
// layout, its properties and its table. On a written type (the innermost
// where types nest): see hover_types.h. Nothing elsewhere.
std::optional<HoverInfo> hoverAt(const Snapshot &snap, uint32_t offset);

// textDocument/hover: hoverAt as an LSP Hover (or null).
json hover(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
