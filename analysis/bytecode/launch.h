#pragma once
// The launch a bytecode file was compiled for (docs/bytecode.md "The
// launch"): cuTile's launch file (JSON, as `compile.py --launch` writes it)
// as the checks' grid and arguments. Shared by `check` and the language
// server; the caller reads the file.
#include <string>
#include <string_view>

#include "analysis/checks/checks.h"

namespace tilesight::bytecode {

// NAME.launch.json for NAME.tilebc and NAME.VERSION.tilebc (NAME.13_3.tilebc).
std::string launchFileBeside(const std::string& bytecodePath);

// Adds launch file `text` (read from `file`, named in messages) to `checks`
// as the grid and the arguments by position: an array is its base pointer,
// one size and one stride per dimension; a scalar one argument; a constant
// none. What `checks` already has wins (the grid when `gridGiven`, an
// argument of the same position). Returns why the file is unusable; empty
// when it was used.
std::string applyLaunch(std::string_view text, const std::string& file, CheckOptions& checks, bool gridGiven);

}  // namespace tilesight::bytecode
