#pragma once
// cuTile Python kernels (docs/cutile.md): the launches a `# tilesight:
// launch` directive describes, compiled to bytecode by the tilesight_cutile
// Python package in the user's own Python and cuTile. The package runs as a
// program of its own (`PYTHON -m tilesight_cutile compile FILE --out -`) and
// answers on standard output; nothing is written to disk. Shared by `check`,
// `run` and the language server.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/bytecode/launch.h"
#include "analysis/checks/checks.h"
#include "analysis/diag/diagnostic.h"
#include "analysis/source/source_text.h"

namespace tilesight::lsp {

// One directed launch, compiled.
struct CutileLaunch {
  std::string kernel;
  uint32_t line = 0;  // the directive's, 1-based
  std::string version;
  std::string bytecode;    // its bytes
  std::string launchText;  // the launch file's JSON (bytecode/launch.h)
  bytecode::Launch launch;
};

// A problem the package reported in a source (a directive, cuTile's own
// compile or import errors), 1-based lines and columns, end exclusive.
struct CutileMessage {
  std::string file;  // absolute
  uint32_t line = 0, column = 0, endLine = 0, endColumn = 0;
  Severity severity = Severity::Error;
  std::string code;  // cutile.directive, cutile.compile, cutile.import
  std::string message;
};

struct CutileCompiled {
  std::vector<CutileLaunch> launches;
  std::vector<CutileMessage> messages;
  // The package could not compile at all (no Python, no cuTile, a crash):
  // what failed and how to fix it. Nothing else is set then.
  std::string problem;
  bool cancelled = false;
};

// Where to find the pieces.
struct CutileTools {
  std::string python;   // the interpreter (a path, or a name looked up on PATH)
  std::string package;  // the folder holding tilesight_cutile/
  // A compile that takes longer is stopped (importing a file runs its top
  // level, which may never end): $TILESIGHT_CUTILE_TIMEOUT seconds, else 300.
  unsigned timeoutSeconds = 300;
  // The compile's working folder (imports may be relative to it, as to the
  // folder `python3 app.py` runs in); empty: the file's folder.
  std::string workingFolder;
};

// `given` (--python, the editor's setting), else $TILESIGHT_PYTHON, else
// python3; the package beside the executable (share/tilesight/python in the
// build tree and in an install).
CutileTools cutileTools(const std::string &given);

// Whether `path` names a Python file (.py).
bool isPythonPath(std::string_view path);
// Whether a Python text holds a launch directive (`# tilesight: launch`).
bool hasLaunchDirective(std::string_view text);
// Whether a Python text asks for tilesight: a comment that mentions it in
// any spelling (a misspelt directive too, which the package then reports).
bool mentionsTilesight(std::string_view text);

// Compiles the directed launches of Python file `file` (absolute). `text`:
// the file's text as the editor has it (sent on standard input), or nullopt
// to read the file. `prefixMap`: OLD=NEW for the debug info's file names
// (empty: none). `cancel` stops the compile.
CutileCompiled compileCutile(const CutileTools &tools, const std::string &file,
                             const std::optional<std::string> &text, const std::string &prefixMap,
                             const std::atomic<bool> &cancel);

// A message of the package as a diagnostic of `src` (the file's text).
Diagnostic cutileDiagnostic(const SourceText &src, const CutileMessage &m);

// "the launch at line 12 (grid 16x1x1)": how a diagnostic's note names the
// launch it was found for.
std::string launchTitle(const CutileLaunch &l);

// Two launches that find the same thing (same range, code and message) say
// it once, with both launches' notes; then the file's `# tilesight: ignore`
// comments apply (`checks` says which codes are on).
void finishCutileDiagnostics(std::string_view text, std::vector<Diagnostic> &diags, const CheckOptions &checks);

} // namespace tilesight::lsp
