#pragma once
// Rename (textDocument/prepareRename, textDocument/rename) of the entities
// navigation knows: SSA values (with their `%x#1` uses), block arguments,
// symbols, #layout aliases and block labels, within the chunk. Refused with
// a reason (RequestFailed) where the new name is not a name of that kind,
// or where another entity of the kind already has it in the chunk (the
// program would change meaning or stop parsing).
#include <string>
#include <vector>

#include <llvm/Support/Error.h>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

// --- the feature: byte ranges; a refusal is an error with its reason ----------

struct RenameTarget {
  Range range;             // the name at the position, without a `#1` index
  std::string placeholder; // its text
};
llvm::Expected<RenameTarget> prepareRenameAt(const Snapshot &snap, uint32_t offset);

struct TextEdit {
  Range range;
  std::string newText;
};
// The edits renaming the entity at `offset` to `newName` (its sigil may be
// left out); none when the name does not change.
llvm::Expected<std::vector<TextEdit>> renameAt(const Snapshot &snap, uint32_t offset,
                                               std::string newName);

// --- the protocol (a refusal answers RequestFailed) ---------------------------

json prepareRename(const FeatureContext &cx, const json &params);
json rename(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
