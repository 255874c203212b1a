#include "server/lsp/semantic_tokens.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json semanticTokensLegend() { return json::object(); }
json semanticTokensFull(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "semanticTokensFull: not built yet");
}
} // namespace tilesight::lsp
