#include "server/lsp/server.h"

#include <cctype>
#include <chrono>
#include <optional>
#include <utility>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include "server/lsp/bytecode_documents.h"
#include "server/lsp/code_actions.h"
#include "server/lsp/code_lens.h"
#include "server/lsp/completion.h"
#include "server/lsp/folding.h"
#include "server/lsp/hover.h"
#include "server/lsp/inlay_hints.h"
#include "server/lsp/long_strings.h"
#include "server/lsp/navigation.h"
#include "server/lsp/pull_diagnostics.h"
#include "server/lsp/rename.h"
#include "server/lsp/semantic_tokens.h"
#include "server/lsp/signature_help.h"
#include "server/lsp/symbols.h"

#ifndef TILESIGHT_VERSION
#error "TILESIGHT_VERSION must be defined by the build"
#endif

namespace tilesight::lsp {

namespace {

// A feature that answers with a json tree, as a FeatureFn.
template <json (*F)(const FeatureContext &, const json &)>
FeatureResult asResult(const FeatureContext &cx, const json &params) {
  return F(cx, params);
}

std::string describe(const Incoming &m) {
  return m.method + (m.kind == Incoming::Request ? "(" + m.id.dump() + ")"
                                                 : std::string());
}

std::string milliseconds(std::chrono::steady_clock::time_point start) {
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.2f", ms);
  return os.str();
}

// The "id" member of a message that does not parse: the first `"id":`
// followed by an integer or a string, as far as the text goes.
std::optional<json> idInBrokenMessage(std::string_view body) {
  for (size_t at = body.find("\"id\""); at != std::string_view::npos;
       at = body.find("\"id\"", at + 1)) {
    size_t i = at + 4;
    while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i])))
      ++i;
    if (i >= body.size() || body[i] != ':')
      continue;
    ++i;
    while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i])))
      ++i;
    size_t end = i;
    if (end < body.size() && body[end] == '"') {
      end = body.find('"', end + 1);
      if (end == std::string_view::npos)
        return std::nullopt;
      return json(std::string(body.substr(i + 1, end - i - 1)));
    }
    if (end < body.size() && body[end] == '-')
      ++end;
    while (end < body.size() && std::isdigit(static_cast<unsigned char>(body[end])))
      ++end;
    int64_t v = 0;
    if (end > i && llvm::StringRef(body.data() + i, end - i).getAsInteger(10, v) == false)
      return json(v);
  }
  return std::nullopt;
}

// Whether the nested member at `path` is absent, or an array holding `value`.
bool absentOrLists(const json &j, std::initializer_list<const char *> path, const char *value) {
  const json *at = &j;
  for (const char *key : path) {
    if (!at->is_object() || !at->contains(key))
      return true;
    at = &(*at)[key];
  }
  if (!at->is_array())
    return true;
  for (const json &v : *at)
    if (v.is_string() && v.get<std::string>() == value)
      return true;
  return false;
}

// Whether the nested member at `path` is `true`.
bool boolAt(const json &j, std::initializer_list<const char *> path) {
  const json *at = &j;
  for (const char *key : path) {
    if (!at->is_object() || !at->contains(key))
      return false;
    at = &(*at)[key];
  }
  return at->is_boolean() && at->get<bool>();
}

Logger::Level logLevelNamed(std::string_view name) {
  return name == "error"  ? Logger::Level::Error
         : name == "info" ? Logger::Level::Info
                          : Logger::Level::Verbose;
}

int64_t versionMember(const json &textDocument) {
  const json &v = member(textDocument, "version");
  if (!v.is_number_integer())
    throw RpcError(error_code::InvalidParams, "\"version\" must be an integer");
  return v.get<int64_t>();
}

} // namespace

LspServer::LspServer(MessageWriter &out, Logger &log, ServeOptions options)
    : conn_(out, log), log_(log), settings_(std::make_shared<Settings>()),
      options_(std::move(options)), scheduler_(log) {
  requests_ = {{"initialize", &LspServer::initialize},
               {"shutdown", &LspServer::shutdown},
               {"workspace/symbol", &LspServer::workspaceSymbol},
               {"workspace/executeCommand", &LspServer::executeCommand}};
  features_ = {{"textDocument/hover", &asResult<&lsp::hover>},
               {"textDocument/definition", &asResult<&definition>},
               {"textDocument/references", &asResult<&references>},
               {"textDocument/documentHighlight", &asResult<&documentHighlight>},
               {"textDocument/documentSymbol", &asResult<&documentSymbols>},
               {"textDocument/foldingRange", &asResult<&foldingRanges>},
               {"textDocument/semanticTokens/full", &semanticTokensFull},
               {"textDocument/semanticTokens/full/delta", &semanticTokensDelta},
               {"textDocument/semanticTokens/range", &semanticTokensRange},
               {"textDocument/inlayHint", &asResult<&inlayHints>},
               {"textDocument/completion", &asResult<&completion>},
               {"textDocument/codeAction", &asResult<&codeActions>},
               {"textDocument/prepareRename", &asResult<&prepareRename>},
               {"textDocument/rename", &asResult<&rename>},
               {"textDocument/diagnostic", &asResult<&pullDiagnostics>},
               {"textDocument/signatureHelp", &asResult<&signatureHelp>},
               {"textDocument/codeLens", &asResult<&codeLenses>}};
  // On a cuTile Python document tilesight answers these alone; every other
  // feature is the user's Python language server's (answered null).
  pythonFeatures_ = {{"textDocument/hover", &asResult<&cutileHover>},
                     {"textDocument/codeLens", &asResult<&cutileCodeLenses>},
                     {"textDocument/diagnostic", &asResult<&pullDiagnostics>}};
  notifications_ = {{"initialized", &LspServer::initialized},
                    {"exit", &LspServer::exit},
                    {"$/cancelRequest", &LspServer::cancelRequest},
                    {"window/workDoneProgress/cancel", &LspServer::progressCancel},
                    {"workspace/didChangeConfiguration",
                     &LspServer::didChangeConfiguration},
                    {"textDocument/didOpen", &LspServer::didOpen},
                    {"textDocument/didChange", &LspServer::didChange},
                    {"textDocument/didClose", &LspServer::didClose},
                    {"textDocument/didSave", &LspServer::didSave}};
  cutileCompiler_ = std::make_unique<CutileCompiler>(
      [this](const std::string &uri, int64_t version, std::shared_ptr<const SourceText> text, CutileCompiled result) {
        cutileCompiled(uri, version, std::move(text), std::move(result));
      });
}

LspServer::~LspServer() {
  cutileCompiler_.reset();  // its thread queues work on the scheduler
  // Runs end first: their threads answer through the connection and queue
  // work on the scheduler.
  cancelRuns([](const RunJob &) { return true; });
  {
    std::lock_guard<std::mutex> lock(runMu_);
    for (auto &job : runJobs_)
      if (job->thread.joinable())
        job->thread.join();
  }
  scheduler_.stop();
}

void LspServer::handle(std::string_view body) {
  if (nestsDeeperThan(body, kMaxJsonDepth)) {
    std::string why = "the message nests arrays and objects deeper than " +
                      std::to_string(kMaxJsonDepth) + " levels";
    log_.error(why);
    conn_.replyError(nullptr, error_code::InvalidRequest, why);
    return;
  }
  json message;
  try {
    message = parseMessage(body);
  } catch (const json::parse_error &e) {
    log_.error(std::string("JSON parse error: ") + e.what());
    // A client waits for the answer to a request, so one whose id can be
    // read from the broken text gets a ParseError; without one there is
    // nobody to answer (JSON-RPC's null id would match no request).
    if (std::optional<json> id = idInBrokenMessage(body))
      conn_.replyError(*id, error_code::ParseError,
                       std::string("the message is not valid JSON: ") +
                           e.what());
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
    onResponse(message);
    break;
  case Incoming::Invalid:
    log_.error("invalid message: " + m.problem);
    conn_.replyError(m.id, error_code::InvalidRequest, m.problem);
    break;
  }
}

void LspServer::onResponse(const json &message) {
  if (!conn_.deliver(message))
    log_.error("a response to id " + message["id"].dump() +
               ", but the server sent no request with that id");
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
  if (auto f = features_.find(m.method); f != features_.end())
    return queueDocumentRequest(f->second, m, std::move(reply));
  auto it = requests_.find(m.method);
  if (it == requests_.end())
    return reply.error(error_code::MethodNotFound,
                       "method not found: " + m.method);
  try {
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
  log_.verbose("done " + m.method + " " + milliseconds(start) + " ms");
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
  finishWork();
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
  clientPullsConfiguration_ =
      boolAt(params, {"capabilities", "workspace", "configuration"});
  client_.snippets = boolAt(params, {"capabilities", "textDocument", "completion",
                                     "completionItem", "snippetSupport"});
  client_.markdownHover = absentOrLists(
      params, {"capabilities", "textDocument", "hover", "contentFormat"}, "markdown");
  client_.pullsDiagnostics = params.is_object() && params.contains("capabilities") &&
                             params["capabilities"].is_object() &&
                             params["capabilities"].contains("textDocument") &&
                             params["capabilities"]["textDocument"].is_object() &&
                             params["capabilities"]["textDocument"].contains("diagnostic");
  client_.diagnosticRefresh = boolAt(params, {"capabilities", "workspace", "diagnostics", "refreshSupport"});
  client_.workDoneProgress = boolAt(params, {"capabilities", "window", "workDoneProgress"});
  client_.markdownDocs = absentOrLists(params,
                                       {"capabilities", "textDocument", "completion",
                                        "completionItem", "documentationFormat"},
                                       "markdown");
  state_ = State::Running;
  log_.info(std::string("position encoding: ") + encodingName(encoding_));
  if (auto opts = params.find("initializationOptions"); opts != params.end())
    applyConfiguration(*opts, "initializationOptions");
  json capabilities = {
      {"positionEncoding", encodingName(encoding_)},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2}, // 2 = incremental
        {"save", {{"includeText", false}}}}}, // a saved .py compiles at once
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"documentSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"semanticTokensProvider",
       {{"legend", semanticTokensLegend()},
        {"full", {{"delta", true}}},
        {"range", true}}},
      {"inlayHintProvider", true},
      {"completionProvider",
       {{"triggerCharacters", completionTriggerCharacters()}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"renameProvider", {{"prepareProvider", true}}},
      {"workspaceSymbolProvider", true},
      {"signatureHelpProvider",
       {{"triggerCharacters", signatureHelpTriggerCharacters()}}},
      {"diagnosticProvider",
       {{"interFileDependencies", false}, {"workspaceDiagnostics", false}}},
      {"codeLensProvider", {{"resolveProvider", false}}},
      {"executeCommandProvider", {{"commands", runCommandNames()}}}};
  reply.result({{"capabilities", std::move(capabilities)},
                {"serverInfo",
                 {{"name", "tilesight"}, {"version", TILESIGHT_VERSION}}}});
}

void LspServer::initialized(const json &) {
  if (clientPullsConfiguration_)
    pullConfiguration();
}

void LspServer::workspaceSymbol(const json &params, Reply &reply) {
  const json &query = member(params, "query");
  if (!query.is_string())
    throw RpcError(error_code::InvalidParams, "\"query\" must be a string");
  auto shared = std::make_shared<Reply>(std::move(reply));
  scheduler_.request("", [this, shared, q = query.get<std::string>()](bool) {
    std::shared_ptr<const Settings> settings = this->settings();
    json out = json::array();
    for (const auto &[uri, snap] : snapshots_) {
      FeatureContext cx{*snap, encoding_, *settings, client_};
      workspaceSymbols(cx, q, out);
    }
    shared->result(std::move(out));
  });
}

void LspServer::shutdown(const json &, Reply &reply) {
  state_ = State::ShuttingDown;
  shutdownRequested_ = true;
  // Answered on the worker, after everything queued before it.
  auto shared = std::make_shared<Reply>(std::move(reply));
  scheduler_.request("", [shared](bool) { shared->result(nullptr); });
}

void LspServer::exit(const json &) {
  state_ = State::Exited;
  finishWork();
}

void LspServer::finishWork() {
  // After shutdown nothing new is queued, and what was queued before it
  // (its own answer last) is owed to the client; without shutdown the client
  // is gone or does not care.
  if (shutdownRequested_)
    scheduler_.waitIdle();
  scheduler_.stop();
}

void LspServer::cancelRequest(const json &params) {
  const json &id = member(params, "id");
  cancelRuns([&](const RunJob &job) { return job.requestId == id; });
  std::lock_guard<std::mutex> lock(mu_);
  if (pendingIds_.count(id.dump()))
    cancelledIds_.insert(id.dump());
}

// --- settings ----------------------------------------------------------------

std::shared_ptr<const Settings> LspServer::settings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return settings_;
}

void LspServer::applyConfiguration(const json &input, std::string_view from) {
  auto next = std::make_shared<Settings>(*settings());
  for (const std::string &problem : applySettings(*next, input)) {
    log_.error("settings from " + std::string(from) + ": " + problem);
    conn_.notify("window/showMessage",
                 {{"type", 2}, {"message", "tilesight: " + problem}});
  }
  log_.setLevel(logLevelNamed(next->logLevel));
  {
    std::lock_guard<std::mutex> lock(mu_);
    settings_ = next;
  }
  log_.info("settings from " + std::string(from) + " applied");
  for (const Document &doc : docs_.all())
    scheduleAnalysis(doc, std::chrono::microseconds(0));
}

void LspServer::pullConfiguration() {
  conn_.request("workspace/configuration",
                {{"items", {{{"section", "tilesight"}}}}},
                [this](const json &result, const json &error) {
                  if (!error.is_null() || !result.is_array() || result.empty())
                    return log_.error("workspace/configuration failed: " +
                                      (error.is_null() ? result.dump()
                                                       : error.dump()));
                  applyConfiguration(result[0], "workspace/configuration");
                });
}

void LspServer::didChangeConfiguration(const json &params) {
  // LSP 3.17: clients that answer workspace/configuration send null settings
  // here and expect the server to ask.
  const json &settings = member(params, "settings");
  if (clientPullsConfiguration_ &&
      (settings.is_null() || (settings.is_object() && settings.empty())))
    return pullConfiguration();
  applyConfiguration(settings, "workspace/didChangeConfiguration");
}

// --- documents ---------------------------------------------------------------

std::chrono::microseconds
LspServer::debounceFor(const std::string &uri,
                       std::chrono::microseconds sinceLastChange) const {
  std::chrono::microseconds cap =
      std::chrono::milliseconds(settings()->debounceMs);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = analysisTime_.find(uri);
  if (it == analysisTime_.end())
    return std::chrono::microseconds(0);
  return debounceWait(it->second, sinceLastChange, cap);
}

void LspServer::scheduleAnalysis(const Document &doc,
                                 std::chrono::microseconds debounce) {
  scheduler_.update(doc.uri, debounce,
                    [this, uri = doc.uri, version = doc.version,
                     text = doc.text, settings = settings()] {
                      analyzeAndPublish(uri, version, text, settings);
                    });
}

LayoutAliasCache *LspServer::aliasCacheOf(const std::string &uri) {
  std::unique_ptr<LayoutAliasCache> &cache = aliasCaches_[uri];
  if (!cache)
    cache = std::make_unique<LayoutAliasCache>();
  return cache.get();
}

void LspServer::analyzeAndPublish(const std::string &uri, int64_t version,
                                  std::shared_ptr<const SourceText> text,
                                  std::shared_ptr<const Settings> settings) {
  if (isPythonDocument(uri))
    return snapshotPython(uri, version, std::move(text));
  auto start = std::chrono::steady_clock::now();
  // Features run on this thread too, so nothing reads the old snapshot while
  // the new one is built: it is taken out of the map and handed over, to be
  // reused (an edit inside one entry) or dropped, so the peak is one snapshot.
  std::shared_ptr<const Snapshot> previous;
  if (auto it = snapshots_.find(uri); it != snapshots_.end()) {
    previous = std::move(it->second);
    snapshots_.erase(it);
  }
  // A bytecode document is read once, when it opens.
  std::shared_ptr<const BytecodeSource> bytecode = previous ? previous->bytecode : loadBytecode(uri);
  CheckOptions checks = settings->checks;
  if (bytecode) {
    std::string problem;
    checks = bytecodeChecks(*bytecode, checks, problem);
    if (!problem.empty())
      log_.error(uri + ": " + problem);
  }
  std::shared_ptr<const Snapshot> snap =
      analyzeDocument(uri, version, std::move(text), checks, ++analyses_,
                      aliasCacheOf(uri), std::move(previous), std::move(bytecode));
  snapshots_[uri] = snap;
  auto took = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  {
    std::lock_guard<std::mutex> lock(mu_);
    analysisTime_[uri] = took;
  }
  std::string counts = std::to_string(snap->analysis.diagnostics.size()) + " diagnostics";
  std::string what =
      snap->keptFrom ? "nothing analysed for " + uri + " version " + std::to_string(version) + ": the text of version " +
                           std::to_string(*snap->keptFrom) + ", whose analysis is kept (" + counts + ", " +
                           milliseconds(start) + " ms)"
                     : "analyzed " + uri + " version " + std::to_string(version) +
                           (snap->analysis.reparsedItem ? " (one entry analysed again)" : "") + ": " + counts +
                           " in " + milliseconds(start) + " ms";
  if (scheduler_.updateQueued(uri))
    return log_.info(what + "; not published, a newer version is queued");
  log_.info(what);
  publish(*snap);
}

std::optional<LspServer::RunFindings> LspServer::findingsOf(const std::string &uri, int64_t version) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = runFindings_.find(uri);
  if (it == runFindings_.end() || it->second.version != version)
    return std::nullopt;
  return it->second;
}

json LspServer::publishedDiagnostics(const Snapshot &snap) {
  std::optional<RunFindings> run = findingsOf(snap.uri, snap.version);
  return documentDiagnostics(snap, run ? &run->findings : nullptr, encoding_);
}

void LspServer::publish(const Snapshot &snap) {
  // A client that pulls shows pushed diagnostics as a second list: it gets
  // a refresh instead (its pulls answer from this analysis).
  if (client_.pullsDiagnostics) {
    if (client_.diagnosticRefresh)
      conn_.request("workspace/diagnostic/refresh", nullptr, [this](const json &, const json &error) {
        if (!error.is_null())
          log_.error("workspace/diagnostic/refresh failed: " + error.dump());
      });
  } else {
    conn_.notify("textDocument/publishDiagnostics",
                 {{"uri", snap.uri}, {"version", snap.version}, {"diagnostics", publishedDiagnostics(snap)}});
  }
}

void LspServer::didOpen(const json &params) {
  const json &td = member(params, "textDocument");
  std::string uri = stringMember(td, "uri");
  int64_t version = versionMember(td);
  const Document &doc = docs_.open(uri, version, stringMember(td, "text"));
  scheduleAnalysis(doc, std::chrono::microseconds(0));
  if (isPythonDocument(uri))
    requestCutileCompile(doc, std::chrono::milliseconds(0));
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
  // The same text again (an undo, a client resending it): the document
  // keeps its text, whose analysis the new version takes over
  // (analyzeDocument), and a run's findings still hold.
  bool unchanged = text->text() == doc->text->text();
  if (!unchanged)
    doc->text = std::move(text);
  int64_t previousVersion = std::exchange(doc->version, version);
  {
    std::lock_guard<std::mutex> lock(mu_);
    // A run's findings hold until the next edit.
    if (auto it = runFindings_.find(uri); it != runFindings_.end()) {
      if (unchanged && it->second.version == previousVersion)
        it->second.version = version;
      else
        runFindings_.erase(it);
    }
  }
  auto now = std::chrono::steady_clock::now();
  auto sinceLastChange = std::chrono::duration_cast<std::chrono::microseconds>(
      now - doc->lastChange);
  doc->lastChange = now;
  scheduleAnalysis(*doc, debounceFor(uri, sinceLastChange));
  if (isPythonDocument(uri) && !unchanged)
    requestCutileCompile(*doc, std::chrono::milliseconds(settings()->cutileIdleMs));
}

void LspServer::didClose(const json &params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  if (!docs_.close(uri))
    throw RpcError(error_code::InvalidParams,
                   "didClose for a document that is not open: " + uri);
  {
    std::lock_guard<std::mutex> lock(mu_);
    analysisTime_.erase(uri);
    runFindings_.erase(uri);
  }
  // An update of its own: queued analyses of the document become stale and
  // queued requests about it answer ContentModified.
  cutileCompiler_->forget(uri);
  scheduler_.update(uri, std::chrono::microseconds(0), [this, uri] {
    snapshots_.erase(uri);
    cutileResults_.erase(uri);
    aliasCaches_.erase(uri);
    tokenHistory_.forget(uri);
    if (!client_.pullsDiagnostics) // a pulling client drops a closed document's own
      conn_.notify("textDocument/publishDiagnostics",
                   {{"uri", uri}, {"diagnostics", json::array()}});
  });
}

// --- document requests -------------------------------------------------------

void LspServer::queueDocumentRequest(FeatureFn feature, const Incoming &m,
                                     Reply reply) {
  std::string uri;
  try {
    uri = stringMember(member(m.params, "textDocument"), "uri");
    if (m.params.contains("position")) // malformed params fail at once
      parsePosition(m.params["position"]);
  } catch (const RpcError &e) {
    return reply.error(e.code, e.what());
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    pendingIds_.insert(m.id.dump());
  }
  auto shared = std::make_shared<Reply>(std::move(reply));
  scheduler_.request(uri, [this, feature, m, shared](bool modified) {
    answerDocumentRequest(feature, m, *shared, modified);
  });
}

void LspServer::answerDocumentRequest(FeatureFn feature, const Incoming &m,
                                      Reply &reply, bool modified) {
  bool cancelled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::string id = m.id.dump();
    pendingIds_.erase(id);
    cancelled = cancelledIds_.erase(id) > 0;
  }
  if (cancelled)
    return reply.error(error_code::RequestCancelled, "cancelled");
  if (modified)
    return reply.error(error_code::ContentModified,
                       "the document changed after this request was sent");
  std::string uri = stringMember(member(m.params, "textDocument"), "uri");
  auto snap = snapshots_.find(uri);
  if (snap == snapshots_.end()) {
    log_.info(m.method + " on a document that is not open: " + uri);
    return reply.result(nullptr);
  }
  std::shared_ptr<const Settings> settings = this->settings();
  FeatureContext cx{*snap->second, encoding_, *settings, client_, &tokenHistory_};
  std::optional<RunFindings> run = findingsOf(uri, snap->second->version);
  if (run)
    cx.runFindings = &run->findings, cx.runId = run->runId;
  try {
    if (snap->second->python) {  // a cuTile Python document: only tilesight's own features
      auto own = pythonFeatures_.find(m.method);
      feature = own == pythonFeatures_.end() ? nullptr : own->second;
    }
    FeatureResult result = feature ? feature(cx, m.params) : FeatureResult(json(nullptr));
    if (auto *raw = std::get_if<RawJson>(&result))
      reply.rawResult(std::move(raw->text));
    else
      reply.result(std::move(std::get<json>(result)));
  } catch (const RpcError &e) {
    reply.error(e.code, e.what());
  } catch (const json::exception &e) {
    reply.error(error_code::InvalidParams, e.what());
  }
}

int serve(ByteStream &stream, Logger &log, const ServeOptions &options) {
  MessageReader reader(stream, log);
  MessageWriter writer(stream);
  LspServer server(writer, log, options);
  return server.run(reader);
}

} // namespace tilesight::lsp
