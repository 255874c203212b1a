#pragma once
// The command-line contract of DESIGN §3, declared with llvm::cl.
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
struct CheckOptions {
  Format format = Format::Text;
  bool splitInputFile = false;
  bool verifyDiagnostics = false;
  std::vector<std::string> files;
  tilesight::CheckOptions checks;  // --grid, --assume-aliasing, --disable
  double layoutBudget = 0;         // --layout-budget, in operations (per file)
  std::string problem;             // a malformed option: why (exit 2)
};
CheckOptions checkOptions();

llvm::cl::OptionCategory& layoutCategory();
llvm::cl::SubCommand& layoutSubcommand();
bool layoutCommand();  // was `layout` given?

enum class LayoutFormat { Text, Table, Markdown, Json, Svg };
struct LayoutOptions {
  LayoutFormat format = LayoutFormat::Text;
  std::optional<std::string> at;  // --at COORD
  std::string expr;               // the positional words, joined by spaces
};
LayoutOptions layoutOptions();

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
