#pragma once
// Rename (textDocument/prepareRename, textDocument/rename) of the entities
// navigation knows: SSA values (with their `%x#1` uses), block arguments,
// symbols, #layout aliases and block labels, within the chunk. Refused with
// a reason (RequestFailed) where the new name is not a name of that kind,
// or where another entity of the kind already has it in the chunk (the
// program would change meaning or stop parsing).
#include "server/lsp/feature.h"

namespace tilesight::lsp {

json prepareRename(const FeatureContext &cx, const json &params);
json rename(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
