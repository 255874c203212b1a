// workspace/executeCommand (tilesight.translate, bytecode_documents.h) and
// the runs it starts (server.h). A run is
// resolved on the worker, which owns the snapshots, and then goes to a job
// thread of its own: the analysis worker never waits for a program.
#include <algorithm>

#include "analysis/diag/codes.h"
#include "server/lsp/bytecode_documents.h"
#include "server/lsp/run_session.h"
#include "server/lsp/server.h"

namespace tilesight::lsp {

namespace {

void progress(Connection &conn, const json &token, json value) {
  if (!token.is_null())
    conn.notify("$/progress", {{"token", token}, {"value", std::move(value)}});
}

// Runs `f` on the worker, where an exception would end the server: it
// answers the request instead.
template <class F>
void answeringErrors(Reply &reply, F f) {
  try {
    f();
  } catch (const std::exception &e) {
    reply.error(error_code::InternalError, std::string("tilesight.run: ") + e.what());
  }
}

// What a JSON value is, for a message: "a number", "an object", "null".
std::string kindOf(const json &v) {
  if (v.is_string())
    return v.get<std::string>().empty() ? "an empty string" : "a string";
  std::string name = v.type_name();
  if (v.is_null())
    return name;
  return (v.is_object() || v.is_array() ? "an " : "a ") + name;
}

std::string names(const std::vector<EntryRef> &entries) {
  std::string s;
  for (const EntryRef &e : entries)
    s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

} // namespace

void LspServer::executeCommand(const json &params, Reply &reply) {
  std::string command = stringMember(params, "command");
  json arguments = params.contains("arguments") ? params["arguments"] : json::array();
  json arg = arguments.is_array() && !arguments.empty() ? arguments[0] : json::object();
  if (!arg.is_object())
    throw RpcError(error_code::InvalidParams, command + " takes one object argument");
  json token = params.contains("workDoneToken") ? params["workDoneToken"] : json();
  if (command == "tilesight.cancelRun") {
    // Only the named document's run: a missing uri is a client's mistake,
    // not a wish to end every run.
    if (!arg.contains("uri"))
      throw RpcError(error_code::InvalidParams,
                     "tilesight.cancelRun takes {\"uri\": \"file:///...\"}, the document whose run to cancel");
    if (!arg["uri"].is_string() || arg["uri"].get<std::string>().empty())
      throw RpcError(error_code::InvalidParams, std::string("tilesight.cancelRun: \"uri\" must be the document's URI "
                                                            "(a non-empty string), not ") +
                                                    kindOf(arg["uri"]));
    std::string uri = arg["uri"].get<std::string>();
    size_t n = cancelRuns([&](const RunJob &j) { return j.uri == uri; });
    return reply.result({{"cancelled", n}});
  }
  if (command == "tilesight.translate")  // reads one file: answered at once
    return reply.result(translateCommand(arg));
  std::string uri;
  if (command == "tilesight.run") {  // checked here, where an error can still answer
    uri = stringMember(arg, "uri");
    for (const char *key : {"entry", "device"})
      if (arg.contains(key) && !arg[key].is_string())
        throw RpcError(error_code::InvalidParams, std::string("tilesight.run: \"") + key + "\" must be a string");
    if (arg.contains("line") && !(arg["line"].is_number_unsigned() && arg["line"].get<uint64_t>() > 0))
      throw RpcError(error_code::InvalidParams, "tilesight.run: \"line\" must be a directive's line (a positive integer)");
    if (arg.contains("sanitize") && !arg["sanitize"].is_boolean())
      throw RpcError(error_code::InvalidParams, "tilesight.run: \"sanitize\" must be true or false");
    if (arg.contains("device"))
      if (std::string problem = runDeviceProblem(arg["device"].get<std::string>()); !problem.empty())
        throw RpcError(error_code::InvalidParams, "tilesight.run: " + problem);
  }
  auto shared = std::make_shared<Reply>(std::move(reply));
  if (command == "tilesight.devices")
    return launchJob("", shared->id(), token, "tilesight devices", [this, shared](RunJob &job) {
      RunOutcome o = listDevices(options_.executable, job.cancel);
      finish(job);
      if (o.errorCode)
        shared->error(o.errorCode, o.errorMessage);
      else
        shared->result(std::move(o.result));
    });
  if (command != "tilesight.run")
    return shared->error(error_code::InvalidParams, "unknown command " + command + "; the server's commands are " +
                                                        "tilesight.run, tilesight.devices, tilesight.cancelRun and "
                                                        "tilesight.translate");
  {
    // A cancel that comes before the worker resolves the run finds it here.
    std::lock_guard<std::mutex> lock(mu_);
    pendingIds_.insert(shared->id().dump());
  }
  scheduler_.request(uri, [this, arg, token, shared](bool modified) {
    answeringErrors(*shared, [&] { startRun(arg, token, shared, modified); });
  });
}

void LspServer::startRun(const json &arg, const json &token, std::shared_ptr<Reply> reply, bool modified) {
  std::string uri = arg.value("uri", "");
  // The document changed after the command: run the text the user sees now,
  // after the newer version's analysis.
  if (modified)
    return scheduler_.request(uri, [this, arg, token, reply](bool m) {
      answeringErrors(*reply, [&] { startRun(arg, token, reply, m); });
    });
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::string id = reply->id().dump();
    pendingIds_.erase(id);
    if (cancelledIds_.erase(id))
      return reply->error(error_code::RequestCancelled, "the run was cancelled");
  }
  auto it = snapshots_.find(uri);
  if (it == snapshots_.end())
    return reply->error(error_code::InvalidParams, "tilesight.run: " + uri + " is not open");
  std::shared_ptr<const Snapshot> snap = it->second;
  if (snap->python)
    return startCutileRun(arg, token, reply, snap);
  // A program with errors of the language does not run (DESIGN §3).
  if (auto errors = std::count_if(snap->analysis.diagnostics.begin(), snap->analysis.diagnostics.end(), isLanguageError))
    return reply->error(error_code::RequestFailed, "the file has " + std::to_string(errors) +
                                                       " error(s) of the language: fix them before running it");
  std::vector<EntryRef> entries = entriesOf(snap->analysis);
  std::string entry = arg.contains("entry") && arg["entry"].is_string() ? arg["entry"].get<std::string>() : "";
  if (entry.starts_with("@"))
    entry.erase(0, 1);
  if (entry.empty() && entries.size() == 1)
    entry = entries[0].name;
  if (entry.empty())
    return reply->error(error_code::InvalidParams, "name the entry to run: the file has " +
                                                       std::to_string(entries.size()) + " entries (" + names(entries) + ")");
  if (std::none_of(entries.begin(), entries.end(), [&](const EntryRef &e) { return e.name == entry; }))
    return reply->error(error_code::InvalidParams, "the file has no entry '" + entry + "' (" + names(entries) + ")");
  std::optional<ResolvedRun> resolved = runConfigFor(*snap, *settings(), entry, entries.size());
  if (!resolved)
    return reply->error(error_code::RequestFailed,
                        "entry " + entry + " has no run configuration: add a line `// tilesight-run: --entry " + entry +
                            " --grid X,Y,Z --arg NAME=VALUE ...` (or fix the one there) or set tilesight.run");
  RunSpec spec;
  spec.uri = uri;
  spec.version = snap->version;
  spec.text = snap->source;
  spec.entry = entry;
  spec.sanitize = arg.value("sanitize", false);
  std::string configured = resolved->config.device.empty() ? "auto" : resolved->config.device;
  spec.device = arg.contains("device") && arg["device"].is_string() ? arg["device"].get<std::string>() : configured;
  if (spec.sanitize && spec.device != "cpu" && spec.device != "auto")
    return reply->error(error_code::InvalidParams, "the sanitizer runs on cpu only, not " + spec.device);
  if (spec.sanitize)
    spec.device = "cpu";
  spec.run = *resolved;
  spec.folder = folderOfUri(uri);
  if (std::string problem = runFilesProblem(spec.folder, spec.run.config); !problem.empty())
    return reply->error(error_code::RequestFailed, problem);
  launchRun(std::move(spec), reply, token);
}

void LspServer::launchRun(RunSpec spec, std::shared_ptr<Reply> reply, const json &token) {
  {
    std::lock_guard<std::mutex> lock(runMu_);
    for (const auto &job : runJobs_)
      if (!job->done && job->uri == spec.uri)
        return reply->error(error_code::RequestFailed,
                            "a run of this file is in progress: wait for it or cancel it (tilesight.cancelRun)");
  }
  std::string title = "tilesight run: " + spec.entry + " on " + spec.device + (spec.sanitize ? " (sanitized)" : "");
  std::string uri = spec.uri;
  launchJob(uri, reply->id(), token, title, [this, spec, reply](RunJob &job) {
    RunOutcome o = executeRun(
        options_.executable, spec,
        [&](const std::string &stage) { progress(conn_, job.token, {{"kind", "report"}, {"message", stage}}); },
        job.cancel);
    log_.info("run of " + spec.uri + " (" + spec.entry + " on " + spec.device + "): " +
              (o.errorCode ? o.errorMessage : std::to_string(o.findings.size()) + " finding(s)"));
    std::vector<Diagnostic> shown = std::move(o.findings);
    if (o.directiveProblem)
      shown.push_back(*o.directiveProblem);
    bool republish;
    {
      std::lock_guard<std::mutex> lock(mu_);
      republish = !shown.empty() || runFindings_.count(spec.uri);
      if (republish)
        runFindings_[spec.uri] = {spec.version, ++runCount_, std::move(shown)};
    }
    finish(job);
    if (o.errorCode)
      reply->error(o.errorCode, o.errorMessage);
    else
      reply->result(std::move(o.result));
    if (republish)
      scheduler_.request(spec.uri, [this, uri = spec.uri](bool) {
        if (auto s = snapshots_.find(uri); s != snapshots_.end()) {
          publish(*s->second);
        } else {  // closed while it ran
          std::lock_guard<std::mutex> lock(mu_);
          runFindings_.erase(uri);
        }
      });
  });
}

void LspServer::launchJob(std::string uri, json requestId, json token, std::string title,
                          std::function<void(RunJob &)> work) {
  joinFinishedJobs();
  auto job = std::make_unique<RunJob>();
  job->uri = std::move(uri);
  job->requestId = std::move(requestId);
  RunJob *raw = job.get();
  auto start = [this, raw, title, work = std::move(work)] {
    raw->thread = std::thread([this, raw, title, work] {
      progress(conn_, raw->token, {{"kind", "begin"}, {"title", title}, {"cancellable", true}});
      work(*raw);
    });
  };
  std::lock_guard<std::mutex> lock(runMu_);
  runJobs_.push_back(std::move(job));
  if (!token.is_null() || !client_.workDoneProgress) {
    raw->token = std::move(token);
    return start();
  }
  // The client takes progress the server creates: the job starts once the
  // token exists (without progress if the client refuses it).
  raw->token = "tilesight/run/" + std::to_string(++runCount_);
  conn_.request("window/workDoneProgress/create", {{"token", raw->token}},
                [this, raw, start](const json &, const json &error) {
                  std::lock_guard<std::mutex> lock(runMu_);
                  if (!error.is_null())
                    raw->token = nullptr;
                  start();
                });
}

void LspServer::finish(RunJob &job) {
  progress(conn_, job.token, {{"kind", "end"}});
  job.done = true;
}

size_t LspServer::cancelRuns(const std::function<bool(const RunJob &)> &which) {
  std::lock_guard<std::mutex> lock(runMu_);
  size_t n = 0;
  for (const auto &job : runJobs_)
    if (!job->done && which(*job)) {
      job->cancel = true;
      ++n;
    }
  return n;
}

void LspServer::progressCancel(const json &params) {
  const json &token = member(params, "token");
  cancelRuns([&](const RunJob &job) { return job.token == token; });
}

void LspServer::joinFinishedJobs() {
  std::lock_guard<std::mutex> lock(runMu_);
  for (auto it = runJobs_.begin(); it != runJobs_.end();) {
    if ((*it)->done && (*it)->thread.joinable()) {
      (*it)->thread.join();
      it = runJobs_.erase(it);
    } else {
      ++it;
    }
  }
}

} // namespace tilesight::lsp
