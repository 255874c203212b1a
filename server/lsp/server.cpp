#include "server/lsp/server.h"

#include <chrono>

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include "server/lsp/code_actions.h"
#include "server/lsp/completion.h"
#include "server/lsp/folding.h"
#include "server/lsp/hover.h"
#include "server/lsp/inlay_hints.h"
#include "server/lsp/navigation.h"
#include "server/lsp/semantic_tokens.h"
#include "server/lsp/symbols.h"

#ifndef TILESIGHT_VERSION
#error "TILESIGHT_VERSION must be defined by the build"
#endif

namespace tilesight::lsp {

namespace {

std::string describe(const Incoming &m) {
  return m.method + (m.kind == Incoming::Request ? "(" + m.id.dump() + ")"
                                                 : std::string());
}

int64_t versionMember(const json &textDocument) {
  const json &v = member(textDocument, "version");
  if (!v.is_number_integer())
    throw RpcError(error_code::InvalidParams, "\"version\" must be an integer");
  return v.get<int64_t>();
}

} // namespace

LspServer::LspServer(MessageWriter &out, Logger &log)
    : conn_(out, log), log_(log) {
  requests_ = {{"initialize", &LspServer::initialize},
               {"shutdown", &LspServer::shutdown}};
  features_ = {{"textDocument/hover", &lsp::hover},
               {"textDocument/definition", &definition},
               {"textDocument/references", &references},
               {"textDocument/documentHighlight", &documentHighlight},
               {"textDocument/documentSymbol", &documentSymbols},
               {"textDocument/foldingRange", &foldingRanges},
               {"textDocument/semanticTokens/full", &semanticTokensFull},
               {"textDocument/inlayHint", &inlayHints},
               {"textDocument/completion", &completion},
               {"textDocument/codeAction", &codeActions}};
  notifications_ = {{"initialized", &LspServer::initialized},
                    {"exit", &LspServer::exit},
                    {"textDocument/didOpen", &LspServer::didOpen},
                    {"textDocument/didChange", &LspServer::didChange},
                    {"textDocument/didClose", &LspServer::didClose}};
}

void LspServer::handle(std::string_view body) {
  json message;
  try {
    message = json::parse(body);
  } catch (const json::parse_error &e) {
    log_.error(std::string("JSON parse error: ") + e.what());
    return;
  }
  Incoming m = classify(message);
  switch (m.kind) {
  case Incoming::Request:
    onRequest(m);
    break;
  case Incoming::Notification:
    onNotification(m);
    break;
  case Incoming::Response:
    log_.error("a response to id " + m.id.dump() +
               ", but the server sent no request");
    break;
  case Incoming::Invalid:
    log_.error("invalid message: " + m.problem);
    conn_.replyError(m.id, error_code::InvalidRequest, m.problem);
    break;
  }
}

void LspServer::onRequest(const Incoming &m) {
  log_.info("--> " + describe(m));
  Reply reply(conn_, m.id, m.method);
  if (state_ == State::Uninitialized && m.method != "initialize")
    return reply.error(error_code::ServerNotInitialized,
                       "the server is not initialized yet");
  if (state_ != State::Uninitialized && state_ != State::Running)
    return reply.error(error_code::InvalidRequest,
                       "shutdown was already requested");
  try {
    if (auto f = features_.find(m.method); f != features_.end())
      return onDocumentRequest(f->second, m, reply);
    auto it = requests_.find(m.method);
    if (it == requests_.end())
      return reply.error(error_code::MethodNotFound,
                         "method not found: " + m.method);
    (this->*it->second)(m.params, reply);
  } catch (const RpcError &e) {
    reply.error(e.code, e.what());
  } catch (const json::exception &e) {
    reply.error(error_code::InvalidParams, e.what());
  }
}

void LspServer::onNotification(const Incoming &m) {
  log_.info("--> " + describe(m));
  if (m.method != "exit" && state_ != State::Running) {
    log_.info("dropped " + m.method +
              (state_ == State::Uninitialized ? " before initialize"
                                              : " after shutdown"));
    return;
  }
  auto it = notifications_.find(m.method);
  if (it == notifications_.end()) {
    // `$/` notifications may be ignored (LSP); others are logged.
    if (!m.method.starts_with("$/"))
      log_.info("no handler for notification " + m.method);
    return;
  }
  auto start = std::chrono::steady_clock::now();
  try {
    (this->*it->second)(m.params);
  } catch (const RpcError &e) {
    log_.error("invalid params for " + m.method + ": " + e.what());
  } catch (const json::exception &e) {
    log_.error("invalid params for " + m.method + ": " + e.what());
  }
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "done " << m.method << " " << llvm::format("%.2f", ms) << " ms";
  log_.verbose(os.str());
}

int LspServer::run(MessageReader &in) {
  while (!exited()) {
    std::optional<std::string> body = in.next();
    if (!body) {
      log_.info(shutdownRequested_ ? "input ended after shutdown"
                                   : "input ended without shutdown and exit");
      break;
    }
    handle(*body);
  }
  return exitCode();
}

// --- lifecycle ---------------------------------------------------------------

void LspServer::initialize(const json &params, Reply &reply) {
  if (state_ != State::Uninitialized)
    return reply.error(error_code::InvalidRequest,
                       "initialize was already called");
  if (!params.is_object())
    throw RpcError(error_code::InvalidParams,
                   "initialize needs an object of parameters");
  encoding_ = negotiateEncoding(params);
  state_ = State::Running;
  log_.info(std::string("position encoding: ") + encodingName(encoding_));
  json capabilities = {
      {"positionEncoding", encodingName(encoding_)},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2}}}, // 2 = incremental
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"documentSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"semanticTokensProvider",
       {{"legend", semanticTokensLegend()}, {"full", true}}},
      {"inlayHintProvider", true},
      {"completionProvider",
       {{"triggerCharacters", completionTriggerCharacters()}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}};
  reply.result({{"capabilities", std::move(capabilities)},
                {"serverInfo",
                 {{"name", "tilesight"}, {"version", TILESIGHT_VERSION}}}});
}

void LspServer::initialized(const json &) {}

void LspServer::shutdown(const json &, Reply &reply) {
  state_ = State::ShuttingDown;
  shutdownRequested_ = true;
  reply.result(nullptr);
}

void LspServer::exit(const json &) { state_ = State::Exited; }

// --- documents ---------------------------------------------------------------

void LspServer::analyzeAndPublish(Document &doc) {
  auto start = std::chrono::steady_clock::now();
  doc.latest = analyzeDocument(doc.uri, doc.version, doc.text);
  const Snapshot &s = *doc.latest;
  json diagnostics = json::array();
  for (const Diagnostic &d : s.analysis.diagnostics)
    diagnostics.push_back(diagnosticJson(*s.source, s.uri, d, encoding_));
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "analyzed " << s.uri << " version " << s.version << ": "
     << diagnostics.size() << " diagnostics in " << llvm::format("%.2f", ms)
     << " ms";
  log_.info(os.str());
  conn_.notify("textDocument/publishDiagnostics",
               {{"uri", s.uri},
                {"version", s.version},
                {"diagnostics", std::move(diagnostics)}});
}

void LspServer::didOpen(const json &params) {
  const json &td = member(params, "textDocument");
  std::string uri = stringMember(td, "uri");
  int64_t version = versionMember(td);
  analyzeAndPublish(docs_.open(uri, version, stringMember(td, "text")));
}

void LspServer::didChange(const json &params) {
  const json &td = member(params, "textDocument");
  std::string uri = stringMember(td, "uri");
  int64_t version = versionMember(td);
  const json &changes = member(params, "contentChanges");
  if (!changes.is_array())
    throw RpcError(error_code::InvalidParams,
                   "\"contentChanges\" must be an array");
  Document *doc = docs_.find(uri);
  if (!doc)
    throw RpcError(error_code::InvalidParams,
                   "didChange for a document that is not open: " + uri);
  // All changes or none: a bad change leaves the document as it was.
  std::shared_ptr<const SourceText> text = doc->text;
  for (const json &change : changes)
    text = std::make_shared<const SourceText>(
        applyChange(*text, change, encoding_));
  doc->text = std::move(text);
  doc->version = version;
  analyzeAndPublish(*doc);
}

void LspServer::didClose(const json &params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  if (!docs_.close(uri))
    throw RpcError(error_code::InvalidParams,
                   "didClose for a document that is not open: " + uri);
  conn_.notify("textDocument/publishDiagnostics",
               {{"uri", uri}, {"diagnostics", json::array()}});
}

// --- features ----------------------------------------------------------------

void LspServer::onDocumentRequest(FeatureFn feature, const Incoming &m,
                                  Reply &reply) {
  std::string uri = stringMember(member(m.params, "textDocument"), "uri");
  if (m.params.contains("position")) // malformed params fail even when closed
    parsePosition(m.params["position"]);
  Document *doc = docs_.find(uri);
  if (!doc || !doc->latest) {
    log_.info(m.method + " on a document that is not open: " + uri);
    return reply.result(nullptr);
  }
  FeatureContext cx{*doc->latest, encoding_, settings_};
  reply.result(feature(cx, m.params));
}

int serve(ByteStream &stream, Logger &log) {
  MessageReader reader(stream, log);
  MessageWriter writer(stream);
  LspServer server(writer, log);
  return server.run(reader);
}

} // namespace tilesight::lsp
