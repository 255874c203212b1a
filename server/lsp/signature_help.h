#pragma once
// Signature help (textDocument/signatureHelp) inside an op: its syntax from
// the op table's format (the completion snippet as text), its operand groups
// as the parameters, and the one being typed as the active parameter (the
// count of operands already written on the statement).
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json signatureHelp(const FeatureContext &cx, const json &params);
json signatureHelpTriggerCharacters();

} // namespace tilesight::lsp
