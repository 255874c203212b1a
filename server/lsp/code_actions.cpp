#include "server/lsp/code_actions.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json codeActions(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "codeActions: not built yet");
}
} // namespace tilesight::lsp
