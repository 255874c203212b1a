#include "server/lsp/navigation.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json definition(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "definition: not built yet");
}
json references(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "references: not built yet");
}
json documentHighlight(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "documentHighlight: not built yet");
}
} // namespace tilesight::lsp
