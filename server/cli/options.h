#pragma once
// The command-line contract of DESIGN §3, declared with llvm::cl.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <llvm/Support/CommandLine.h>

#include "analysis/checks/checks.h"

namespace tilesight::cli {

llvm::cl::OptionCategory& checkCategory();
llvm::cl::SubCommand& checkSubcommand();
bool checkCommand();  // was `check` given?

enum class Format { Text, Json, Sarif };
enum class ColorMode { Auto, Always, Never };
struct CheckOptions {
  Format format = Format::Text;
  bool splitInputFile = false;
  bool verifyDiagnostics = false;
  bool werror = false;      // --Werror (or a config file's werror)
  bool fix = false;         // --fix
  ColorMode color = ColorMode::Auto;
  bool readConfig = true;   // not --no-config
  bool gridGiven = false;   // --grid was given: it overrides a config file's grid
  std::vector<std::string> files;
  tilesight::CheckOptions checks;  // --grid, --assume-aliasing, --disable
  double layoutBudget = 0;         // --layout-budget, in operations (per file)
  std::string problem;             // a malformed option: why (exit 2)
};
CheckOptions checkOptions();

// X[,Y[,Z]] of --grid; `problem` says why not when the text is no launch grid.
std::optional<std::array<int64_t, 3>> parseGrid(llvm::StringRef text, std::string& problem);

llvm::cl::OptionCategory& runCategory();
llvm::cl::SubCommand& runSubcommand();
bool runCommand();  // was `run` given?

enum class RunFormat { Text, Json };
enum class RunInputs { Zeros, Random };
struct RunOptions {
  std::string file;
  std::string entry;
  std::array<int64_t, 3> grid{1, 1, 1};
  bool gridGiven = false;   // --grid was given (a launch file's grid does not override it)
  std::string launch;       // --launch FILE.json (bytecode programs)
  unsigned line = 0;        // --line N: a cuTile .py file's launch at directive line N
  bool sourceOnStdin = false;  // --source-on-stdin: the .py file's text is on standard input
  RunInputs inputs = RunInputs::Zeros;  // --inputs: arrays no --arg names
  std::string device = "auto";
  std::vector<std::string> args;  // NAME=VALUE
  std::vector<std::pair<std::string, std::string>> outs;  // NAME, PATH
  bool sanitize = false;
  bool checkFacts = false;  // hidden, for the soundness harness: interp::FactChecker over the run
  bool check = false;  // compare a device run with the CPU reference
  std::string arch;    // cuda/hip: compile for this sm_XY / gfxN (default: the device's)
  bool tensorCores = true;          // cuda: mmaf's tensor-core variant where one applies
  bool emulateTensorCores = false;  // hidden, for tests: simt::LowerOptions::emulateTensorCores
  bool guard = true;                // GPU devices: check every access against the buffers (--no-guard: off)
  RunFormat format = RunFormat::Text;
  unsigned repeat = 1;
  unsigned threads = 0;
  bool deterministic = false;
  uint64_t maxLoopIterations = 0;
  bool progress = false;  // `tilesight-progress: STAGE` lines on stderr
  std::string problem;  // a usage error (exit 2), or empty
};
RunOptions runOptions();

llvm::cl::OptionCategory& devicesCategory();
llvm::cl::SubCommand& devicesSubcommand();
bool devicesCommand();  // was `devices` given?

llvm::cl::OptionCategory& emitCategory();
llvm::cl::OptionCategory& translateCategory();
llvm::cl::SubCommand& emitSubcommand();
bool emitCommand();  // was `emit` given?

llvm::cl::OptionCategory& layoutCategory();
llvm::cl::SubCommand& layoutSubcommand();
bool layoutCommand();  // was `layout` given?

enum class LayoutFormat { Text, Table, Markdown, Json, Svg, Latex, Png };
struct LayoutOptions {
  LayoutFormat format = LayoutFormat::Text;
  std::optional<std::string> at;  // --at COORD
  int64_t maxCells = 32;          // --max-cells: rows and columns a picture draws
  std::optional<int64_t> banks;   // --banks: colour a picture by shared-memory bank
  int64_t elementBytes = 4;       // --element-bytes, with --banks
  std::string expr;               // the positional words, joined by spaces
};
LayoutOptions layoutOptions();

llvm::cl::OptionCategory& recordCategory();

llvm::cl::OptionCategory& lspCategory();
llvm::cl::SubCommand& lspSubcommand();
bool lspCommand();  // was `lsp` given?

enum class LogLevel { Error, Info, Verbose };
struct LspOptions {
  std::optional<std::string> listen;  // --listen HOST:PORT; stdio when absent (or --stdio)
  LogLevel log = LogLevel::Info;
  std::string problem;  // a usage error (exit 2), or empty
};
LspOptions lspOptions();

}  // namespace tilesight::cli
