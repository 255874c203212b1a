#pragma once
// What every document feature (hover, navigation, symbols, tokens, hints,
// completion, code actions) gets: one analyzed version of the document, the
// negotiated position encoding and the settings. Features read the snapshot
// only; they never re-parse, never block, never write.
#include <nlohmann/json.hpp>

#include "server/lsp/documents.h"
#include "server/lsp/protocol.h"
#include "server/lsp/settings.h"

namespace tilesight::lsp {

struct FeatureContext {
  const Snapshot &snap;
  PositionEncoding encoding;
  const Settings &settings;

  uint32_t offsetOf(const json &position) const {
    return toOffset(*snap.source, parsePosition(position), encoding);
  }
  json range(Range r) const { return rangeJson(*snap.source, r, encoding); }
};

// A document request handler: LSP params in, LSP result out. Throws RpcError
// for malformed params.
using FeatureFn = json (*)(const FeatureContext &, const json &params);

} // namespace tilesight::lsp
