#pragma once
// Code actions: the fixes attached to diagnostics, as quick fixes with workspace edits.
#include "server/lsp/feature.h"

#include <vector>

namespace tilesight::lsp {

// One fix of a diagnostic that touches a range (closed intervals: a cursor
// touching a diagnostic, or sitting on an empty one, asks for its fixes).
struct QuickFix {
  const Diagnostic *diagnostic;
  const Fix *fix;
  bool preferred; // the diagnostic's only fix
};
std::vector<QuickFix> quickFixesIn(const Snapshot &snap, uint32_t begin, uint32_t end);

// textDocument/codeAction: the quick fixes as CodeActions with versioned
// workspace edits.
json codeActions(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
