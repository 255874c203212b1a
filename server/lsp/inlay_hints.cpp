#include "server/lsp/inlay_hints.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json inlayHints(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "inlayHints: not built yet");
}
} // namespace tilesight::lsp
