#include "server/lsp/cutile_compile.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <cstdlib>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <nlohmann/json.hpp>

#include "analysis/diag/suppressions.h"
#include "server/lsp/child_process.h"

namespace tilesight::lsp {

namespace {

using json = nlohmann::json;

// The package's exit status when `cuda.tile` does not import.
constexpr int kNoCutile = 3;

std::optional<std::string> decodeBase64(std::string_view in) {
  std::array<int, 256> value;
  value.fill(-1);
  const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i)
    value[static_cast<unsigned char>(alphabet[i])] = i;
  std::string out;
  out.reserve(in.size() / 4 * 3);
  uint32_t bits = 0;
  int have = 0;
  for (char c : in) {
    if (c == '=')
      break;
    int v = value[static_cast<unsigned char>(c)];
    if (v < 0)
      return std::nullopt;
    bits = (bits << 6) | static_cast<uint32_t>(v);
    if ((have += 6) >= 8) {
      have -= 8;
      out.push_back(static_cast<char>((bits >> have) & 0xff));
    }
  }
  return out;
}

uint32_t count(const json &j, const char *key) {
  const json &v = j.contains(key) ? j[key] : json();
  return v.is_number_unsigned() ? v.get<uint32_t>() : 0;
}

CutileMessage messageOf(const json &m, const std::string &file) {
  CutileMessage out;
  out.file = m.value("file", file);
  out.line = count(m, "line");
  out.column = count(m, "column");
  out.endLine = count(m, "end_line");
  out.endColumn = count(m, "end_column");
  out.severity = m.value("severity", "error") == "warning" ? Severity::Warning : Severity::Error;
  out.code = m.value("code", "cutile.compile");
  out.message = m.value("message", "");
  return out;
}

// One launch of the package's answer; `why` says what is wrong with it.
std::optional<CutileLaunch> launchOf(const json &l, const std::string &file, std::string &why) {
  CutileLaunch out;
  out.kernel = l.value("kernel", "");
  out.line = count(l, "line");
  out.version = l.value("version", "");
  std::optional<std::string> bytes = decodeBase64(l.value("bytecode_base64", ""));
  if (!bytes || bytes->empty() || !l.contains("launch")) {
    why = "the launch of '" + out.kernel + "' at line " + std::to_string(out.line) + " has no bytecode";
    return std::nullopt;
  }
  out.bytecode = std::move(*bytes);
  out.launchText = l["launch"].dump(1);
  std::optional<bytecode::Launch> launch =
      bytecode::parseLaunch(out.launchText, llvm::sys::path::filename(file).str() + ":" + std::to_string(out.line), why);
  if (!launch)
    return std::nullopt;
  out.launch = std::move(*launch);
  return out;
}

// The package's JSON answer, read.
CutileCompiled answerOf(const std::string &out, const std::string &file) {
  CutileCompiled c;
  json j = json::parse(out, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    c.problem = "the tilesight_cutile package answered something that is not its JSON report";
    return c;
  }
  for (const json &m : j.value("diagnostics", json::array()))
    if (m.is_object())
      c.messages.push_back(messageOf(m, file));
  for (const json &l : j.value("launches", json::array())) {
    std::string why;
    if (!l.is_object())
      continue;
    if (std::optional<CutileLaunch> launch = launchOf(l, file, why))
      c.launches.push_back(std::move(*launch));
    else
      c.messages.push_back({file, count(l, "line"), 1, count(l, "line"), 1, Severity::Error, "cutile.compile", why});
  }
  return c;
}

// Whether offset `at` lies after a `#` on its line.
bool inComment(std::string_view text, size_t at) {
  size_t hash = text.rfind('#', at), lineStart = text.rfind('\n', at);
  return hash != std::string_view::npos && (lineStart == std::string_view::npos || hash > lineStart);
}

std::string lastLines(const std::string &err, size_t n) {
  llvm::SmallVector<llvm::StringRef, 16> lines;
  llvm::StringRef(err).rtrim().split(lines, '\n');
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : "\n") + lines[i].str();
  return out;
}

} // namespace

CutileTools cutileTools(const std::string &given) {
  CutileTools t;
  const char *env = std::getenv("TILESIGHT_PYTHON");
  t.python = !given.empty() ? given : env && *env ? env : "python3";
  unsigned seconds = 0;
  if (const char *limit = std::getenv("TILESIGHT_CUTILE_TIMEOUT");
      limit && !llvm::StringRef(limit).getAsInteger(10, seconds) && seconds > 0)
    t.timeoutSeconds = seconds;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::StringRef bin = llvm::sys::path::parent_path(exe);
  // The build tree has the executable at its root, an install in bin/.
  for (std::string dir : {(bin + "/share/tilesight/python").str(), (bin + "/../share/tilesight/python").str()})
    if (llvm::sys::fs::is_directory(dir + "/tilesight_cutile")) {
      t.package = dir;
      break;
    }
  return t;
}

bool isPythonPath(std::string_view path) { return llvm::StringRef(path).endswith(".py"); }


bool hasLaunchDirective(std::string_view text) {
  for (size_t at = text.find("tilesight:"); at != std::string_view::npos; at = text.find("tilesight:", at + 1)) {
    llvm::StringRef rest = llvm::StringRef(text.data() + at + 10, text.size() - at - 10).ltrim(" \t");
    if (inComment(text, at) && rest.startswith("launch"))
      return true;
  }
  return false;
}

bool mentionsTilesight(std::string_view text) {
  llvm::StringRef t(text);
  for (size_t at = t.find_insensitive("tilesight"); at != llvm::StringRef::npos; at = t.find_insensitive("tilesight", at + 1))
    if (inComment(text, at))
      return true;
  return false;
}

CutileCompiled compileCutile(const CutileTools &tools, const std::string &file,
                             const std::optional<std::string> &text, const std::string &prefixMap,
                             const std::atomic<bool> &cancel) {
  CutileCompiled c;
  if (tools.package.empty()) {
    c.problem = "the tilesight_cutile Python package is not installed beside this tilesight "
                "(share/tilesight/python): reinstall tilesight";
    return c;
  }
  llvm::ErrorOr<std::string> python = llvm::sys::findProgramByName(tools.python);
  if (!python) {
    c.problem = "no Python interpreter '" + tools.python + "' (" + python.getError().message() +
                "): name the one that has cuTile with --python, the tilesight.python setting or TILESIGHT_PYTHON";
    return c;
  }
  std::vector<std::string> argv = {*python, "-m", "tilesight_cutile", "compile", file, "--out", "-"};
  if (text)
    argv.push_back("--stdin");
  if (!prefixMap.empty())
    argv.insert(argv.end(), {"--prefix-map", prefixMap});
  const char *oldPath = std::getenv("PYTHONPATH");
  std::string path = tools.package + (oldPath && *oldPath ? ":" + std::string(oldPath) : "");
  std::string folder = tools.workingFolder.empty() ? llvm::sys::path::parent_path(file).str() : tools.workingFolder;
  ChildResult r = runChild(argv, folder, text.value_or(""), [](const std::string &) { return false; }, cancel,
                           {"PYTHONPATH=" + path, "PYTHONDONTWRITEBYTECODE=1"}, {},
                           std::chrono::seconds(tools.timeoutSeconds));
  if (r.timedOut) {
    c.problem = "compiling " + file + " did not finish within " + std::to_string(tools.timeoutSeconds) +
                " s and was stopped (importing the file runs its top level: does it wait for something?); "
                "TILESIGHT_CUTILE_TIMEOUT sets the limit in seconds";
    return c;
  }
  if (r.cancelled) {
    c.cancelled = true;
    return c;
  }
  if (!r.startError.empty()) {
    c.problem = r.startError + " (name the Python that has cuTile with --python, the tilesight.python setting or "
                               "TILESIGHT_PYTHON)";
    return c;
  }
  if (r.exitCode == kNoCutile) {
    c.problem = lastLines(r.err, 4);
    return c;
  }
  if (r.exitCode != 0) {
    c.problem = "the tilesight_cutile package failed (" +
                (r.signal ? "signal " + std::to_string(r.signal) : "exit " + std::to_string(r.exitCode)) +
                ") under " + *python + ": " + lastLines(r.err, 6);
    return c;
  }
  return answerOf(r.out, file);
}

Diagnostic cutileDiagnostic(const SourceText &src, const CutileMessage &m) {
  // The package counts columns in characters (1-based); the text, in bytes.
  auto at = [&](uint32_t line, uint32_t col) {
    uint32_t l = line ? line - 1 : 0;
    std::string_view text = src.lineText(l);
    uint32_t byte = 0;
    for (uint32_t chars = 1; chars < col && byte < text.size(); ++chars)
      do
        ++byte;
      while (byte < text.size() && (static_cast<unsigned char>(text[byte]) & 0xC0) == 0x80);
    return src.offsetOf({l, byte});
  };
  uint32_t begin = at(m.line, m.column);
  uint32_t end = m.endLine ? at(m.endLine, m.endColumn) : begin;
  if (end <= begin) {  // no end: the rest of the line
    LineCol lc = src.lineCol(begin);
    end = begin + static_cast<uint32_t>(src.lineText(lc.line).size()) - std::min<uint32_t>(lc.col, src.lineText(lc.line).size());
  }
  return {Range{begin, std::max(begin, end)}, m.severity, m.code, m.message, {}, {}};
}

std::string launchTitle(const CutileLaunch &l) {
  std::string grid;
  if (l.launch.grid)
    grid = " (grid " + std::to_string((*l.launch.grid)[0]) + "x" + std::to_string((*l.launch.grid)[1]) + "x" +
           std::to_string((*l.launch.grid)[2]) + ")";
  return "the launch at line " + std::to_string(l.line) + grid;
}

void finishCutileDiagnostics(std::string_view text, std::vector<Diagnostic> &diags, const CheckOptions &checks) {
  // One finding per place and code: the launches' messages differ in the
  // launch they name (its grid, its sizes), so the first (the most severe) is
  // shown and the others' launches are notes.
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic &a, const Diagnostic &b) {
    return a.severity == Severity::Error && b.severity != Severity::Error;
  });
  std::map<std::tuple<uint32_t, uint32_t, std::string>, size_t> seen;
  std::vector<Diagnostic> out;
  for (Diagnostic &d : diags) {
    auto [it, fresh] = seen.emplace(std::make_tuple(d.range.begin, d.range.end, d.code), out.size());
    if (fresh) {
      out.push_back(std::move(d));
      continue;
    }
    if (!d.notes.empty() && d.notes.back().message.starts_with("for the launch at line")) {
      RelatedNote n = d.notes.back();
      n.message = "also " + n.message;
      out[it->second].notes.push_back(std::move(n));
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Diagnostic &a, const Diagnostic &b) { return a.range.begin < b.range.begin; });
  diags = std::move(out);
  applySuppressions(text, diags, [&](std::string_view code) { return checks.enabled(code); }, true,
                    CommentSyntax::Python);
}

} // namespace tilesight::lsp
