#pragma once
// cuTile Python files in the editor (docs/cutile.md "In the editor"). A .py
// document is not Tile IR: the server answers only for its own features
// there (diagnostics, hover on a load or store line, the Run lenses), so it
// can sit beside the user's Python language server. Its diagnostics come
// from compiling the file's directed launches with the user's cuTile
// (cutile_compile.h), off the worker, on open, on save and after an idle
// pause; each launch's bytecode is then analysed with its launch and the
// findings moved to the Python lines.
#include <memory>
#include <string>
#include <vector>

#include "analysis/bytecode/reader.h"
#include "server/lsp/cutile_compile.h"
#include "server/lsp/feature.h"

namespace tilesight::lsp {

// One directed launch: its bytecode decoded and its text form analysed
// with the launch's grid and arguments.
struct CutileLaunchView {
  CutileLaunch launch;
  std::shared_ptr<const bytecode::Decoded> decoded;
  std::shared_ptr<const Snapshot> text;  // the analysis of the text form
};

// What the last compile of a document version gave.
struct CutileAnalysis {
  std::vector<CutileLaunchView> launches;
  std::vector<Diagnostic> diagnostics;  // in the document's text
};

// Whether the server treats the document as a cuTile Python file.
bool isPythonDocument(const std::string &uri);

// The snapshot of a Python document version: no Tile IR analysis; the
// diagnostics of `cutile` (the compile of this very version) when given.
std::shared_ptr<const Snapshot> pythonSnapshot(const std::string &uri, int64_t version,
                                               std::shared_ptr<const SourceText> text, uint64_t analysisId,
                                               std::shared_ptr<const CutileAnalysis> cutile);

// Analyses what a compile of `text` (the document `path`, absolute) gave;
// `checks`: the settings' (each launch adds its grid and arguments). A
// problem that stopped the compile (no cuTile) becomes one diagnostic at
// the first directive.
std::shared_ptr<const CutileAnalysis> analyzeCutile(const CutileCompiled &c, const std::string &path,
                                                    const SourceText &text, const CheckOptions &checks);

// textDocument/hover on a Python document: on a line whose ops load or
// store through a view, that view with this launch's sizes (tile grid,
// partial tiles, the element offset each tile starts at), per launch.
json cutileHover(const FeatureContext &cx, const json &params);

// textDocument/codeLens: "▶ Run on cpu · Sanitize" above each directive.
json cutileCodeLenses(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
