#pragma once
// The language server: lifecycle, documents and features over a JSON-RPC
// connection. The I/O thread (run/handle) reads messages, keeps document
// texts and answers lifecycle requests; analysis and every document request
// run on the Scheduler's worker, in arrival order (scheduler.h), reading the
// latest snapshot of their document.
#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "server/lsp/cutile_compiler.h"
#include "server/lsp/cutile_documents.h"
#include "server/lsp/documents.h"
#include "server/lsp/run_session.h"
#include "server/lsp/feature.h"
#include "server/lsp/jsonrpc.h"
#include "server/lsp/logger.h"
#include "server/lsp/protocol.h"
#include "server/lsp/scheduler.h"
#include "server/lsp/semantic_tokens.h"
#include "server/lsp/settings.h"
#include "server/lsp/transport.h"

namespace tilesight::lsp {

struct ServeOptions {
  // The tilesight executable that runs `tilesight run` and `devices` for the
  // tilesight.run and tilesight.devices commands (the server's own); empty:
  // those commands answer that the server cannot run anything.
  std::string executable;
};

class LspServer {
public:
  LspServer(MessageWriter &out, Logger &log, ServeOptions options = {});
  ~LspServer(); // stops the worker; queued work is dropped

  // Handles one message body (JSON text). Never throws.
  void handle(std::string_view body);
  bool exited() const { return state_ == State::Exited; }
  // 0 when `shutdown` came before `exit` (or the end of input), 1 otherwise.
  int exitCode() const { return shutdownRequested_ ? 0 : 1; }
  // Handles messages until `exit` or the end of input; returns exitCode().
  int run(MessageReader &in);

  // For tests and benchmarks: see Scheduler.
  Scheduler &scheduler() { return scheduler_; }

private:
  using RequestHandler = void (LspServer::*)(const json &params, Reply &reply);
  using NotificationHandler = void (LspServer::*)(const json &params);

  void onRequest(const Incoming &m);
  void onNotification(const Incoming &m);
  void onResponse(const json &message);
  // A request about one document, answered on the worker from its latest
  // analysis.
  void queueDocumentRequest(FeatureFn feature, const Incoming &m, Reply reply);
  void answerDocumentRequest(FeatureFn feature, const Incoming &m,
                             Reply &reply, bool modified);

  void initialize(const json &params, Reply &reply);
  void shutdown(const json &params, Reply &reply);
  // workspace/symbol: every open document's symbols, on the worker (which
  // owns the snapshots), after the edits sent before it.
  void workspaceSymbol(const json &params, Reply &reply);
  void initialized(const json &params);
  void exit(const json &params);
  void finishWork(); // at exit or the end of input
  void cancelRequest(const json &params);
  void didOpen(const json &params);
  void didChange(const json &params);
  void didClose(const json &params);
  void didSave(const json &params);
  void didChangeConfiguration(const json &params);

  // cuTile Python documents (cutile_documents.h, server_cutile.cpp): their
  // launches compiled on the compiler's thread after `wait`, analysed on the
  // worker, published while the document is still at that version.
  void requestCutileCompile(const Document &doc, std::chrono::milliseconds wait);
  void cutileCompiled(const std::string &uri, int64_t version, std::shared_ptr<const SourceText> text,
                      CutileCompiled result);
  // On the worker: the snapshot of a Python document version.
  void snapshotPython(const std::string &uri, int64_t version, std::shared_ptr<const SourceText> text);
  // A tilesight.run of a directive's launch (its `line`).
  void startCutileRun(const json &arg, const json &token, std::shared_ptr<Reply> reply,
                      std::shared_ptr<const Snapshot> snap);
  // Starts a resolved run on a job thread; its findings are published.
  void launchRun(RunSpec spec, std::shared_ptr<Reply> reply, const json &token);

  // workspace/executeCommand: tilesight.run, tilesight.devices,
  // tilesight.cancelRun and tilesight.translate (bytecode_documents.h). A
  // run is resolved on the worker (it reads the
  // snapshot), then runs on a thread of its own (RunJob), never on the
  // worker: analysis and requests go on while it runs.
  struct RunJob {
    std::string uri;  // the document run; empty for tilesight.devices
    json requestId;   // the executeCommand request's ($/cancelRequest)
    json token;       // the progress token; null: no progress reported
    std::atomic<bool> cancel{false};
    std::atomic<bool> done{false};
    std::thread thread;
  };
  void executeCommand(const json &params, Reply &reply);
  void startRun(const json &args, const json &token, std::shared_ptr<Reply> reply, bool modified);
  // Starts `work` on a job thread of its own, with progress under `token`.
  void launchJob(std::string uri, json requestId, json token, std::string title,
                 std::function<void(RunJob &)> work);
  // Ends a job's progress and marks it done: `work` calls it before it
  // answers, so that the client may start the next run at once.
  void finish(RunJob &job);
  size_t cancelRuns(const std::function<bool(const RunJob &)> &which);
  void progressCancel(const json &params);  // window/workDoneProgress/cancel
  void joinFinishedJobs();
  // The document's diagnostics as published: the analysis's, its run
  // directives', and the findings of its last run (source "tilesight run")
  // until the next edit.
  json publishedDiagnostics(const Snapshot &snap);
  void publish(const Snapshot &snap);

  // Settings: applied on the I/O thread, then every open document is
  // analyzed again (checks or the grid may have changed).
  void applyConfiguration(const json &settings, std::string_view from);
  void pullConfiguration();
  std::shared_ptr<const Settings> settings() const;

  // Queues the analysis of the document's current version.
  void scheduleAnalysis(const Document &doc,
                        std::chrono::microseconds debounce);
  // On the worker: analyze, keep the snapshot, publish unless stale.
  void analyzeAndPublish(const std::string &uri, int64_t version,
                         std::shared_ptr<const SourceText> text,
                         std::shared_ptr<const Settings> settings);
  std::chrono::microseconds
  debounceFor(const std::string &uri,
              std::chrono::microseconds sinceLastChange) const;

  enum class State { Uninitialized, Running, ShuttingDown, Exited };
  Connection conn_;
  Logger &log_;
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  ClientFeatures client_;  // from initialize; read by requests after it
  uint64_t analyses_ = 0;  // analyses started (the worker's): Snapshot::analysisId
  State state_ = State::Uninitialized;
  bool shutdownRequested_ = false;
  bool clientPullsConfiguration_ = false;
  std::map<std::string, RequestHandler, std::less<>> requests_;
  std::map<std::string, NotificationHandler, std::less<>> notifications_;
  std::map<std::string, FeatureFn, std::less<>> features_;
  std::map<std::string, FeatureFn, std::less<>> pythonFeatures_;  // on cuTile .py documents

  DocumentStore docs_; // I/O thread: the texts

  mutable std::mutex mu_; // guards the members below (both threads)
  std::shared_ptr<const Settings> settings_;
  std::set<std::string> pendingIds_;   // requests not answered yet (id dumps)
  std::set<std::string> cancelledIds_; // of those, the cancelled ones
  std::map<std::string, std::chrono::microseconds> analysisTime_;

  // Worker only: the latest analysis of each open document.
  std::map<std::string, std::shared_ptr<const Snapshot>> snapshots_;
  // Worker only: per Python document, its last compile's analysis and the
  // version it was of.
  std::map<std::string, std::pair<int64_t, std::shared_ptr<const CutileAnalysis>>> cutileResults_;
  // Per open document, its #layout alias results across versions (the
  // worker's, like the snapshots): an edit elsewhere does not redo them.
  std::map<std::string, std::unique_ptr<LayoutAliasCache>> aliasCaches_;
  LayoutAliasCache *aliasCacheOf(const std::string &uri);
  // The last semantic tokens sent per document (the base of a delta).
  SemanticTokensHistory tokenHistory_;

  ServeOptions options_;
  std::mutex runMu_;  // guards runJobs_
  std::vector<std::unique_ptr<RunJob>> runJobs_;
  std::atomic<uint64_t> runCount_{0};
  // Guarded by mu_: per document, its last run's findings, dropped at the
  // next edit.
  struct RunFindings {
    int64_t version = 0;  // the version that ran
    uint64_t runId = 0;
    std::vector<Diagnostic> findings;
  };
  std::map<std::string, RunFindings> runFindings_;
  // A copy of the document's findings (for a feature on the worker).
  std::optional<RunFindings> findingsOf(const std::string &uri, int64_t version);

  Scheduler scheduler_; // its worker uses the members above
  // Last of all: its thread queues work on the scheduler, so it ends first.
  std::unique_ptr<CutileCompiler> cutileCompiler_;
};

// Serves one client on `stream` until `exit` or the end of input; returns
// the process exit status.
int serve(ByteStream &stream, Logger &log, const ServeOptions &options = {});

} // namespace tilesight::lsp
