#pragma once
// `check` on CUDA Tile IR bytecode (docs/bytecode.md): decode, analyze the
// text form, and report each diagnostic at its op's Python source line (the
// debug info's), or at its line of the text form when the op has none.
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

// `checks` naming other places in messages by the Python lines of `d`'s
// debug info (CheckOptions::placeName); `d` must outlive the result.
tilesight::CheckOptions namedPlaces(const bytecode::Decoded& d, tilesight::CheckOptions checks);

// Diagnostics on the text form of `d` (`parsed`: that text parsed), each
// moved to its op's Python line with the op's Tile IR text as a note, or
// left at the text form's line when the op has no location: one report per
// file (path: the bytecode file's).
std::vector<FileReport> pythonReports(const std::string& path, const bytecode::Decoded& d, const Program& parsed,
                                      std::vector<Diagnostic> diags, std::vector<std::unique_ptr<SourceText>>& sources);

// The reports of bytecode file `path`, one per source file the diagnostics
// land in; the texts they show are appended to `sources`. With `launch`, the
// entry's parameters are named by it (bytecode::parameterNames).
std::vector<FileReport> checkBytecode(const std::string& path, std::string_view bytes, const AnalyzeOptions& options,
                                      std::vector<std::unique_ptr<SourceText>>& sources,
                                      const bytecode::Launch* launch = nullptr);

}  // namespace tilesight::cli
