#pragma once
// Signature help (textDocument/signatureHelp) inside an op: its syntax from
// the op table's format (the completion snippet as text), its operand groups
// as the parameters, and the one being typed as the active parameter (the
// count of operands already written on the statement).
#include <optional>
#include <string>
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

// --- the feature ---------------------------------------------------------------

struct Signature {
  std::string label; // the op's syntax
  // Each operand group: where its name is in the label, or (a group the
  // format spells otherwise) its name alone.
  struct Parameter {
    std::string name;
    std::optional<std::pair<size_t, size_t>> inLabel;
  };
  std::vector<Parameter> parameters;
  int active = 0;          // the parameter being typed
  std::string markdownDoc; // the op's doc line (may be empty)
};
std::optional<Signature> signatureAt(const Snapshot &snap, uint32_t offset);

// --- the protocol ------------------------------------------------------------

json signatureHelp(const FeatureContext &cx, const json &params);
json signatureHelpTriggerCharacters();

} // namespace tilesight::lsp
