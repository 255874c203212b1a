#pragma once
// `check` and `run` on a cuTile Python file (docs/cutile.md): its directed
// launches compiled by the tilesight_cutile package in the user's Python
// (--python, TILESIGHT_PYTHON, python3), then checked as bytecode with their
// launches, at the file's lines.
#include <memory>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/source/source_text.h"
#include "server/cli/report.h"
#include "server/lsp/cutile_compile.h"

namespace tilesight::cli {

// The interpreter and package, from --python (check, run and record share it).
lsp::CutileTools cutileToolsFromOptions();

// The reports of cuTile file `path`: the package's messages (directives,
// cuTile's compile errors) and each launch's diagnostics, at the file's
// lines, each naming its launch's directive. `gridGiven`: the command line's
// grid wins over the directives'. `problem` says why nothing could be
// compiled (no cuTile, no Python): the file was not checked.
std::vector<FileReport> checkCutileFile(const std::string& path, const AnalyzeOptions& options, bool gridGiven,
                                        std::vector<std::unique_ptr<SourceText>>& sources, std::string& problem);

// `run` on cuTile file `path`: its launch at directive line `line` (0: the
// file's only one), compiled; the text from standard input when
// `sourceOnStdin` (then kept in `open` under the file's absolute path, for
// reports at its lines). Returns 0, or the exit status after saying why: 2
// (no such launch, no cuTile), 1 (the file's directive or compile errors,
// printed as `check` prints them).
int compileForRun(const std::string& path, unsigned line, bool sourceOnStdin, lsp::CutileLaunch& out,
                  lsp::OpenTexts& open);

}  // namespace tilesight::cli
