#pragma once
// The command-line contract of DESIGN §3, declared with llvm::cl.
#include <string>
#include <vector>

#include <llvm/Support/CommandLine.h>

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
};
CheckOptions checkOptions();

}  // namespace tilesight::cli
