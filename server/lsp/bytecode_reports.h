#pragma once
// Diagnostics of CUDA Tile IR bytecode at the Python lines of its debug
// info (docs/bytecode.md): decode, analyze the text form, and move each
// diagnostic to its op's source line, or leave it at its line of the text
// form when the op has none. `check`, `run` and the language server's cuTile
// documents share it.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/reader.h"
#include "analysis/checks/checks.h"
#include "analysis/diag/diagnostic.h"
#include "analysis/source/source_text.h"

namespace tilesight::lsp {

// The diagnostics of one file, in the text they point into.
struct FileReport {
  std::string path;
  const SourceText* source = nullptr;
  std::vector<Diagnostic> diagnostics;
};

// Texts that stand for files (by path): an editor's unsaved buffers.
using OpenTexts = std::map<std::string, std::string>;

// `checks` naming other places in messages by the Python lines of `d`'s
// debug info (CheckOptions::placeName); `d` must outlive the result.
CheckOptions namedPlaces(const bytecode::Decoded& d, CheckOptions checks);

// Diagnostics on the text form of `d` (`parsed`: that text parsed), each
// moved to its op's Python line with the op's Tile IR text as a note, or
// left at the text form's line when the op has no location: one report per
// file (path: the bytecode file's). Sources are read from disk unless `open`
// has them.
std::vector<FileReport> pythonReports(const std::string& path, const bytecode::Decoded& d, const Program& parsed,
                                      std::vector<Diagnostic> diags, std::vector<std::unique_ptr<SourceText>>& sources,
                                      const OpenTexts* open = nullptr);

// The reports of bytecode file `path`, one per source file the diagnostics
// land in; the texts they show are appended to `sources`. With `launch`, the
// entry's parameters are named by it (bytecode::parameterNames).
std::vector<FileReport> checkBytecode(const std::string& path, std::string_view bytes, const AnalyzeOptions& options,
                                      std::vector<std::unique_ptr<SourceText>>& sources,
                                      const bytecode::Launch* launch = nullptr, const OpenTexts* open = nullptr);

}  // namespace tilesight::lsp
