#pragma once
// The language server: lifecycle, documents and features over a JSON-RPC
// connection. Single-threaded and synchronous in this version: each message
// is handled to completion before the next is read, which makes transcript
// tests deterministic.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "server/lsp/documents.h"
#include "server/lsp/feature.h"
#include "server/lsp/jsonrpc.h"
#include "server/lsp/logger.h"
#include "server/lsp/protocol.h"
#include "server/lsp/settings.h"
#include "server/lsp/transport.h"

namespace tilesight::lsp {

class LspServer {
public:
  LspServer(MessageWriter &out, Logger &log);

  // Handles one message body (JSON text). Never throws.
  void handle(std::string_view body);
  bool exited() const { return state_ == State::Exited; }
  // 0 when `shutdown` came before `exit` (or the end of input), 1 otherwise.
  int exitCode() const { return shutdownRequested_ ? 0 : 1; }
  // Handles messages until `exit` or the end of input; returns exitCode().
  int run(MessageReader &in);

private:
  using RequestHandler = void (LspServer::*)(const json &params, Reply &reply);
  using NotificationHandler = void (LspServer::*)(const json &params);

  void onRequest(const Incoming &m);
  void onNotification(const Incoming &m);
  // A request about one open document, answered from its latest analysis.
  void onDocumentRequest(FeatureFn feature, const Incoming &m, Reply &reply);

  void initialize(const json &params, Reply &reply);
  void shutdown(const json &params, Reply &reply);
  void initialized(const json &params);
  void exit(const json &params);
  void didOpen(const json &params);
  void didChange(const json &params);
  void didClose(const json &params);

  // Analyzes the document's current text and publishes its diagnostics.
  void analyzeAndPublish(Document &doc);

  enum class State { Uninitialized, Running, ShuttingDown, Exited };
  Connection conn_;
  Logger &log_;
  DocumentStore docs_;
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  State state_ = State::Uninitialized;
  bool shutdownRequested_ = false;
  std::map<std::string, RequestHandler, std::less<>> requests_;
  std::map<std::string, NotificationHandler, std::less<>> notifications_;
  std::map<std::string, FeatureFn, std::less<>> features_;
  Settings settings_;
};

// Serves one client on `stream` until `exit` or the end of input; returns
// the process exit status.
int serve(ByteStream &stream, Logger &log);

} // namespace tilesight::lsp
