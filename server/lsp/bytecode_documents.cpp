#include "server/lsp/bytecode_documents.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/source_map.h"
#include "server/lsp/doc_links.h"
#include "server/lsp/documents.h"
#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

namespace {

namespace fs = std::filesystem;

// A regular file's bytes (a FIFO or a device named like a launch file
// would block or never end).
std::optional<std::string> readFile(const std::string &path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Whether `path` is a bytecode file: a regular file that starts with the
// magic (the head only, so that every .tile document costs a few bytes).
bool startsWithMagic(const std::string &path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return false;
  char head[8] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(head, sizeof head) && bytecode::isTileIRBytecode(std::string_view(head, sizeof head));
}

// cuTile names a kernel's file as its compiler saw it, often relative (to
// the folder it ran in, or the prefix map's): the nearest folder, from the
// bytecode's own upwards, where it exists; else beside the bytecode.
std::string resolveSource(const std::string &file, const fs::path &bytecodeFolder) {
  fs::path p(file);
  if (p.is_absolute())
    return p.lexically_normal().string();
  std::error_code ec;
  for (fs::path dir = bytecodeFolder;; dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / p, ec))
      return (dir / p).lexically_normal().string();
    if (dir == dir.parent_path() || dir.empty())
      break;
  }
  if (fs::is_regular_file(bytecodeFolder / p.filename(), ec))
    return (bytecodeFolder / p.filename()).string();
  return (bytecodeFolder / p).lexically_normal().string();
}

json locationJson(const BytecodeSource &bc, const bytecode::SourceLoc &l) {
  auto path = bc.sourcePaths.find(l.file);
  std::string file = path == bc.sourcePaths.end() ? l.file : path->second;
  json at = {{"line", l.line - 1}, {"character", l.column ? l.column - 1 : 0}};
  return {{"uri", fileUri(file)}, {"range", {{"start", at}, {"end", at}}}};
}

std::string where(const bytecode::SourceLoc &l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

} // namespace

std::optional<std::string> localPathOfUri(std::string_view uri) {
  for (std::string_view scheme : {std::string_view("file"), kBytecodeScheme}) {
    if (!uri.starts_with(scheme) || uri.substr(scheme.size(), 1) != ":")
      continue;
    std::string_view rest = uri.substr(scheme.size() + 1);
    if (rest.starts_with("//")) { // an authority: only the local host's
      rest.remove_prefix(2);
      size_t slash = rest.find('/');
      if (slash == std::string_view::npos || (slash != 0 && rest.substr(0, slash) != "localhost"))
        return std::nullopt;
      rest.remove_prefix(slash);
    }
    std::string path = percentDecode(rest);
    if (path.starts_with("/"))
      return path;
  }
  return std::nullopt;
}

std::shared_ptr<const BytecodeSource> loadBytecode(std::string_view uri) {
  std::optional<std::string> path = localPathOfUri(uri);
  // Only what the editors open as bytecode is looked at on disk: a
  // tilesight-bytecode: document or a file named as bytecode. The server
  // reads no other file of a document (the I/O audit holds it to that).
  std::string ext = fs::path(path.value_or("")).extension().string();
  bool named = uri.starts_with(kBytecodeScheme) || ext == ".tilebc" || ext == ".bytecode" || ext == ".cutile";
  if (!path || !named || !startsWithMagic(*path))
    return nullptr;
  std::optional<std::string> bytes = readFile(*path);
  if (!bytes)
    return nullptr;
  auto bc = std::make_shared<BytecodeSource>();
  bc->path = *path;
  std::string launch = bytecode::launchFileBeside(*path);
  if (std::optional<std::string> text = readFile(launch)) {
    bc->launchFile = launch;
    bc->launchText = std::move(*text);
  }
  // Its parameters by the launch's Python names, as `tilesight.translate`
  // gives the editor the text (a malformed file is said when the checks apply it).
  bc->decoded = bytecode::readBytecode(*bytes, true, bytecode::parameterNames(bc->launchText, launch));
  if (!bc->decoded.ok())
    return nullptr;
  fs::path folder = fs::path(*path).parent_path();
  auto note = [&](const bytecode::SourceLoc &l) {
    if (l.known() && !bc->sourcePaths.count(l.file))
      bc->sourcePaths[l.file] = resolveSource(l.file, folder);
  };
  for (const bytecode::OpLocation &o : bc->decoded.locations) {
    note(o.at);
    for (const bytecode::SourceLoc &c : o.callers)
      note(c);
  }
  return bc;
}

CheckOptions bytecodeChecks(const BytecodeSource &bc, CheckOptions checks, std::string &problem) {
  if (bc.launchFile.empty())
    return checks;
  // The launch the file was compiled for wins over tilesight.grid and
  // tilesight.args, which are for every document; they fill in what it lacks.
  CheckOptions launched = checks;
  launched.grid.reset();
  launched.args.clear();
  problem = bytecode::applyLaunch(bc.launchText, bc.launchFile, launched, false);
  if (!problem.empty())
    return checks;
  if (!launched.grid)
    launched.grid = checks.grid;
  for (auto &a : checks.args)
    if (std::none_of(launched.args.begin(), launched.args.end(), [&](const auto &l) { return l.first == a.first; }))
      launched.args.push_back(std::move(a));
  return launched;
}

bool showsBytecode(const Snapshot &snap) {
  return snap.bytecode && snap.source->text() == snap.bytecode->decoded.text && !snap.analysis.chunks.empty();
}

json sourceLocations(const Snapshot &snap, const Diagnostic &d) {
  json related = json::array();
  if (!showsBytecode(snap))
    return related;
  const BytecodeSource &bc = *snap.bytecode;
  const bytecode::OpLocation *loc =
      bytecode::locationAt(bc.decoded, snap.analysis.chunks.front().parsed.program, d.range.begin);
  if (!loc)
    return related;
  related.push_back({{"location", locationJson(bc, loc->at)},
                     {"message", "the source of this op (" + where(loc->at) + ", from the bytecode's debug info)"}});
  for (const bytecode::SourceLoc &caller : loc->callers)
    related.push_back({{"location", locationJson(bc, caller)}, {"message", "inlined from here (" + where(caller) + ")"}});
  return related;
}

json translateCommand(const json &arg) {
  std::string uri = stringMember(arg, "uri");
  std::optional<std::string> path = localPathOfUri(uri);
  if (!path)
    throw RpcError(error_code::InvalidParams, "tilesight.translate: '" + uri +
                                                  "' does not name a local file (a file: or " +
                                                  std::string(kBytecodeScheme) + ": URI with an absolute path)");
  std::optional<std::string> bytes = readFile(*path);
  if (!bytes)
    throw RpcError(error_code::RequestFailed, "tilesight.translate: cannot read '" + *path + "'");
  if (!bytecode::isTileIRBytecode(*bytes))
    throw RpcError(error_code::RequestFailed, "tilesight.translate: '" + *path +
                                                  "' is not CUDA Tile IR bytecode (it does not start with "
                                                  "\\x7fTileIR\\0): open it as text");
  std::string launch = bytecode::launchFileBeside(*path);
  std::optional<std::string> launchText = readFile(launch);
  bytecode::Decoded d =
      bytecode::readBytecode(*bytes, true, launchText ? bytecode::parameterNames(*launchText, launch) : std::vector<std::string>{});
  if (!d.ok())
    throw RpcError(error_code::RequestFailed, "tilesight.translate: " + *path + ": " + d.diagnostics.front().message);
  return {{"text", std::move(d.text)}, {"version", d.version}, {"hasDebugInfo", d.hasDebugInfo}};
}

} // namespace tilesight::lsp
