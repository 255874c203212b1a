#include "server/lsp/completion.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json completionTriggerCharacters() { return json::array(); }
json completion(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "completion: not built yet");
}
} // namespace tilesight::lsp
