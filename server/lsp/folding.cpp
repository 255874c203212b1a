#include "server/lsp/folding.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json foldingRanges(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "foldingRanges: not built yet");
}
} // namespace tilesight::lsp
