#include "server/lsp/symbols.h"

#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

json documentSymbols(const FeatureContext &, const json &) {
  throw RpcError(error_code::MethodNotFound, "documentSymbols: not built yet");
}
} // namespace tilesight::lsp
