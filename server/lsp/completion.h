#pragma once
// Completion: op names with snippets from the op table, types, values in scope, attribute keywords, layout functions.
#include <string>
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

// --- the feature: typed results ---------------------------------------------

// LSP's CompletionItemKind values the items use.
enum class CompletionKind { Function = 3, Variable = 6, Keyword = 14, Constant = 21, TypeParameter = 25 };

struct CompletionItem {
  std::string label;
  CompletionKind kind = CompletionKind::Keyword;
  std::string detail;
  std::string newText; // the label when empty
  bool snippet = false; // newText is an LSP snippet
  std::string documentation; // markdown
};

struct Completions {
  Range replaces;                   // what the chosen item's text replaces: the typed prefix
  std::vector<CompletionItem> items; // those the typed prefix admits, at most `maxItems`
  bool incomplete = false;           // more would have passed: ask again as the prefix grows
};

// The items at `offset` of a snapshot (none outside every chunk).
Completions completionsAt(const Snapshot &snap, uint32_t offset, size_t maxItems);

// --- the protocol ------------------------------------------------------------

// The trigger characters announced in the server's capabilities.
json completionTriggerCharacters();
json completion(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
