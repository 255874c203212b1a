// cuTile Python documents in the server (server.h, cutile_documents.h):
// their compiles, snapshots, the features tilesight answers for on them and
// the runs of their directives' launches.
#include "server/lsp/bytecode_documents.h"
#include "server/lsp/server.h"

namespace tilesight::lsp {

void LspServer::requestCutileCompile(const Document &doc, std::chrono::milliseconds wait) {
  std::optional<std::string> path = localPathOfUri(doc.uri);
  // Only files that ask for it: importing a Python file runs its top level.
  if (!path || !mentionsTilesight(doc.text->text())) {
    cutileCompiler_->forget(doc.uri);
    return;
  }
  cutileCompiler_->request(doc.uri, *path, doc.version, doc.text, wait, settings()->python);
}

void LspServer::cutileCompiled(const std::string &uri, int64_t version, std::shared_ptr<const SourceText> text,
                               CutileCompiled result) {
  scheduler_.request(uri, [this, uri, version, text, result = std::move(result)](bool) {
    auto snap = snapshots_.find(uri);
    if (snap == snapshots_.end() || snap->second->version != version)
      return log_.info("cuTile compile of " + uri + " version " + std::to_string(version) + " is stale: dropped");
    std::optional<std::string> path = localPathOfUri(uri);
    auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const CutileAnalysis> a = analyzeCutile(result, path.value_or(""), *text, settings()->checks);
    cutileResults_[uri] = {version, a};
    log_.info("cuTile launches of " + uri + " version " + std::to_string(version) + ": " +
              std::to_string(a->launches.size()) + " compiled, " + std::to_string(a->diagnostics.size()) +
              " diagnostics (analysed in " +
              std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - start)
                                 .count()) +
              " ms)");
    snapshotPython(uri, version, snap->second->source);
  });
}

void LspServer::snapshotPython(const std::string &uri, int64_t version, std::shared_ptr<const SourceText> text) {
  std::shared_ptr<const CutileAnalysis> cutile;
  if (auto it = cutileResults_.find(uri); it != cutileResults_.end() && it->second.first == version)
    cutile = it->second.second;  // else stale: the edit clears it until the next compile
  auto snap = pythonSnapshot(uri, version, std::move(text), ++analyses_, std::move(cutile));
  snapshots_[uri] = snap;
  if (!scheduler_.updateQueued(uri))
    publish(*snap);
}

void LspServer::didSave(const json &params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  if (const Document *doc = docs_.find(uri); doc && isPythonDocument(uri))
    requestCutileCompile(*doc, std::chrono::milliseconds(0));
}

void LspServer::startCutileRun(const json &arg, const json &token, std::shared_ptr<Reply> reply,
                               std::shared_ptr<const Snapshot> snap) {
  std::optional<std::string> path = localPathOfUri(snap->uri);
  if (!path)
    return reply->error(error_code::InvalidParams, "tilesight.run: a cuTile file runs from a file: URI");
  if (!arg.contains("line"))
    return reply->error(error_code::InvalidParams,
                        "tilesight.run on a cuTile file takes the \"line\" of its `# tilesight: launch` directive");
  RunSpec spec;
  spec.uri = snap->uri;
  spec.version = snap->version;
  spec.text = snap->source;
  spec.pythonFile = *path;
  spec.line = arg["line"].get<uint32_t>();
  spec.entry = "the launch at line " + std::to_string(spec.line);
  if (snap->cutile)
    for (const CutileLaunchView &v : snap->cutile->launches)
      if (v.launch.line == spec.line)
        spec.entry = v.launch.kernel + " (" + launchTitle(v.launch) + ")";
  spec.sanitize = arg.value("sanitize", false);
  spec.device = "cpu";
  spec.python = settings()->python;
  spec.folder = folderOfUri(snap->uri);
  launchRun(std::move(spec), reply, token);
}

} // namespace tilesight::lsp
