#pragma once
// `check` on CUDA Tile IR bytecode (docs/bytecode.md): recognising it, its
// launch file; the reports at Python lines are server/lsp/bytecode_reports.h.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/reader.h"
#include "analysis/checks/checks.h"
#include "analysis/source/source_text.h"
#include "server/cli/report.h"
#include "server/lsp/bytecode_reports.h"

namespace tilesight::cli {

// Whether `bytes` start with the bytecode magic (whatever the file name).
bool isBytecodeInput(std::string_view bytes);
// Whether a folder walk takes the file as bytecode: named .tilebc, .bytecode
// or .cutile, or starting with the magic.
bool isBytecodeFile(const std::string& path);

// The launch a bytecode file was compiled for (`--launch FILE.json`, else
// NAME.launch.json beside NAME[.VERSION].tilebc), as `--grid` and `--arg`
// by position: an array is its base pointer, one size and one stride per
// dimension; a scalar one argument; a constant none. What `checks` already
// has (the command line's) wins. `problem` says why a launch file is unusable.
// Returns the launch used, if any.
std::optional<bytecode::Launch> addLaunch(const std::string& bytecodePath, tilesight::CheckOptions& checks,
                                          bool gridGiven, std::string& problem);

using lsp::checkBytecode;
using lsp::namedPlaces;
using lsp::pythonReports;

}  // namespace tilesight::cli
