#pragma once
// How an editor runs an entry: `// tilesight-run: --entry NAME --grid 8,8,1
// --arg A=rand:1024x512:f16 ...` comments, with the options of `tilesight
// run` (DESIGN §3), or the same options from a setting. This file reads and
// checks the options; nothing here runs anything (the language server starts
// `tilesight run` on an explicit command).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"

namespace tilesight {

// One word of the options, where it lies (byte offsets; a setting's words lie
// in the setting's own text).
struct RunWord {
  std::string text;
  Range range;
};

// The options of one run, as `tilesight run` takes them. Paths are relative
// to the file's folder and stay inside it.
struct RunConfig {
  std::string entry;  // without '@'; empty: the file's only entry
  std::array<int64_t, 3> grid{1, 1, 1};
  std::string device;              // empty: the lens's or command's choice
  std::vector<std::string> args;   // NAME=VALUE
  std::vector<std::string> outs;   // NAME=PATH.npy
  std::vector<std::string> flags;  // --check, --deterministic, --no-tensor-cores, --threads=N, ...
  // The words of `tilesight run` after FILE, for `device` and `sanitize`.
  std::vector<std::string> argv(const std::string& device, bool sanitize) const;
  // The input files (@PATH of --arg, list items) and the outputs (--out).
  std::vector<std::string> inputs() const;
  std::vector<std::string> outputs() const;
};

struct RunConfigProblem {
  Range range;  // the word at fault
  std::string message;
};

struct ParsedRunConfig {
  RunConfig config;
  std::vector<RunConfigProblem> problems;
  bool ok() const { return problems.empty(); }
};

// Why `device` is no device `tilesight run` takes (auto, cpu, cuda[:N],
// hip[:N], opencl[:N]); empty when it is one.
std::string runDeviceProblem(std::string_view device);

// Splits `text` at white space (offsets from `base`) and reads the options.
ParsedRunConfig parseRunConfig(std::string_view text, uint32_t base = 0);

// A `// tilesight-run:` comment: its options as parsed, and where it lies.
struct RunDirective {
  Range range;  // the whole comment
  ParsedRunConfig parsed;
};
std::vector<RunDirective> findRunDirectives(std::string_view text);

// The diagnostics (code run.directive) of a file's directives: their option
// problems, an entry the file does not have, a directive without --entry in
// a file of several entries, two directives for one entry.
std::vector<Diagnostic> checkRunDirectives(const std::vector<RunDirective>& directives,
                                           const std::vector<std::string>& entries);

// The directive that configures `entry` (the file has `entryCount` entries),
// if one does and has no problem.
const RunConfig* directiveFor(const std::vector<RunDirective>& directives, const std::string& entry,
                              size_t entryCount);

}  // namespace tilesight
