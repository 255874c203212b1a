#pragma once
// What the user configures: from initializationOptions and
// workspace/didChangeConfiguration (`{"tilesight": {...}}` or the bare
// object). Unknown keys are ignored; a malformed key is reported and keeps
// its previous value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/checks/checks.h"
#include "analysis/run_directive.h"

namespace tilesight::lsp {

struct Settings {
  // `tilesight.grid` (checks.grid): the launch grid (X, Y, Z), when known.
  // `tilesight.args` (checks.args): integer arguments of the launch.
  // `tilesight.checks` (checks.disabled): codes, or prefixes such as "race",
  // turned off. Kept in the analysis's own form, handed to every analysis.
  CheckOptions checks;
  // `tilesight.logLevel`: "error", "info" or "verbose".
  std::string logLevel = "info";
  // `tilesight.debounceMs`: the longest wait after an edit before analysis
  // starts. The server waits about one analysis, and only while edits come
  // faster than analyses (server.cpp, debounceFor).
  int debounceMs = 50;
  // `tilesight.run`: the options of `tilesight run` (the directive's syntax,
  // analysis/run_directive.h) for entries without a `// tilesight-run:`
  // directive; with --entry, for that entry only. None: not configured.
  std::optional<RunConfig> run;
  // `tilesight.python`: the interpreter that has cuTile, for cuTile .py
  // files (empty: $TILESIGHT_PYTHON, else python3; cutile_compile.h).
  std::string python;
  // `tilesight.cutileIdleMs`: how long a .py file rests after an edit before
  // its launches are compiled again (compiling takes seconds: never per
  // keystroke). Opening and saving compile at once.
  int cutileIdleMs = 1500;
};

// Applies the keys present in `j` to `s`; returns one line per problem.
std::vector<std::string> applySettings(Settings &s, const nlohmann::json &j);

} // namespace tilesight::lsp
