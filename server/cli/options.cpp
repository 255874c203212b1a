#include "server/cli/options.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& checkCategory() {
  static cl::OptionCategory c("tilesight check options");
  return c;
}

cl::SubCommand& checkSubcommand() {
  static cl::SubCommand s("check", "Parse, verify and analyze tile programs; print diagnostics");
  return s;
}

namespace {
cl::opt<Format> formatOpt("format", cl::desc("Output format"), cl::init(Format::Text),
                          cl::values(clEnumValN(Format::Text, "text", "clang-style text with the source line"),
                                     clEnumValN(Format::Json, "json", "one JSON object with all diagnostics"),
                                     clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0 for code scanning")),
                          cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> splitOpt("split-input-file", cl::desc("Check each `// -----` chunk on its own"),
                       cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> verifyOpt("verify-diagnostics",
                        cl::desc("Match diagnostics against expected-* comments (MLIR's convention)"),
                        cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::list<std::string> filesOpt(cl::Positional, cl::desc("FILE... | -"), cl::sub(checkSubcommand()),
                               cl::cat(checkCategory()));
}  // namespace

bool checkCommand() { return static_cast<bool>(checkSubcommand()); }

CheckOptions checkOptions() {
  CheckOptions o;
  o.format = formatOpt;
  o.splitInputFile = splitOpt;
  o.verifyDiagnostics = verifyOpt;
  o.files.assign(filesOpt.begin(), filesOpt.end());
  return o;
}

}  // namespace tilesight::cli
