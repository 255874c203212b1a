#pragma once
// Go to definition, find references, document highlight: SSA values (a
// `%x:2` group is one entity with its `%x#1` uses), block arguments, symbols
// (@name, resolved in the nearest module), #aliases (the newest definition
// before a use) and block labels, within the chunk of the position.
#include <optional>
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

// --- the feature: byte ranges of the snapshot's text ---------------------------

// The definition of the entity at `offset` (none: nothing there, or a name
// defined nowhere).
std::optional<Range> definitionAt(const Snapshot &snap, uint32_t offset);
// Every mention of the entity at `offset`, in order; definitions only when
// asked. None: nothing there.
std::optional<std::vector<Range>> referencesAt(const Snapshot &snap, uint32_t offset,
                                               bool includeDeclaration);
struct Highlight {
  Range range;
  bool write = false; // the definition
};
std::optional<std::vector<Highlight>> highlightsAt(const Snapshot &snap, uint32_t offset);

// --- the protocol ------------------------------------------------------------

json definition(const FeatureContext &cx, const json &params);
json references(const FeatureContext &cx, const json &params);
json documentHighlight(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
