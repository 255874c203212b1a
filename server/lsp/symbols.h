#pragma once
// Hierarchical document symbols: modules, entries, functions, globals, #aliases.
#include <string>
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

// --- the feature ---------------------------------------------------------------

struct DocumentSymbol {
  enum Kind { Module = 2, Function = 12, Variable = 13, Constant = 14 }; // LSP SymbolKind
  std::string name, detail; // detail: globals' and aliases' values, on one line
  Kind kind = Module;
  Range range;     // the whole definition (it holds `selection`)
  Range selection; // the name
  std::vector<DocumentSymbol> children; // a module's entries, functions, globals
};
// Modules (with their entries, functions and globals) and #aliases, in order.
std::vector<DocumentSymbol> documentSymbolsOf(const Snapshot &snap);

// --- the protocol ------------------------------------------------------------

json documentSymbols(const FeatureContext &cx, const json &params);

// workspace/symbol over one open document: its outline flattened to
// WorkspaceSymbols whose name holds `query` (case-insensitive, in order;
// empty: all), each with the name of the symbol that contains it.
void workspaceSymbols(const FeatureContext &cx, const std::string &query, json &out);

} // namespace tilesight::lsp
