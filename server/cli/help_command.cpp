// `tilesight help [COMMAND]` and `tilesight explain [CODE]`: the usage of a
// subcommand, and a diagnostic code's section of docs/checks.md.
#include <algorithm>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/diag/codes.h"
#include "analysis/diag/fixes.h"
#include "server/cli/checks_doc.h"
#include "server/cli/commands.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

namespace {

cl::SubCommand& helpSubcommand() {
  static cl::SubCommand s("help", "Print the usage of tilesight or of one command");
  return s;
}
cl::list<std::string> helpTopic(cl::Positional, cl::desc("[COMMAND]"), cl::sub(helpSubcommand()));

cl::SubCommand& explainSubcommand() {
  static cl::SubCommand s("explain", "Explain a diagnostic code: what it means, an example and its fix");
  return s;
}
cl::list<std::string> explainCode(cl::Positional, cl::desc("[CODE]"), cl::sub(explainSubcommand()));

constexpr const char* kCommands[] = {"check", "layout", "lsp", "run", "emit", "translate", "devices", "record", "explain", "help"};

}  // namespace

bool helpCommand() { return static_cast<bool>(helpSubcommand()); }
bool explainCommand() { return static_cast<bool>(explainSubcommand()); }

int runHelp(const char* argv0) {
  if (helpTopic.size() > 1) {
    llvm::errs() << "usage: tilesight help [COMMAND]\n";
    return 2;
  }
  std::string topic = helpTopic.empty() ? "" : helpTopic[0];
  if (!topic.empty() && std::find(std::begin(kCommands), std::end(kCommands), topic) == std::end(kCommands)) {
    llvm::errs() << "tilesight help: no command '" << topic << "' (commands:";
    for (const char* c : kCommands) llvm::errs() << " " << c;
    llvm::errs() << ")\n";
    return 2;
  }
  // llvm::cl prints a subcommand's options when it parses its --help (and
  // then exits 0): parse that command line again.
  cl::ResetAllOptionOccurrences();
  std::vector<const char*> args{argv0};
  if (!topic.empty()) args.push_back(topic.c_str());
  args.push_back("--help");
  cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(),
                              "tilesight: language server and static analyzer for CUDA Tile IR\n");
  return 0;
}

int runExplain() {
  if (explainCode.empty()) {
    llvm::outs() << "Diagnostic codes (tilesight explain CODE for one):\n";
    for (const CodeInfo& c : diagnosticCodes())
      llvm::outs() << "  " << llvm::left_justify(c.id, 21) << " " << c.title << "\n";
    return 0;
  }
  int status = 0;
  for (const std::string& code : explainCode) {
    std::optional<std::string_view> section = checkSection(code);
    if (!section && findCode(code)) {  // a code the docs do not describe yet
      llvm::outs() << "## `" << code << "` — " << findCode(code)->title << "\n\n" << findCode(code)->help << "\n";
      continue;
    }
    if (!section) {
      std::vector<std::string_view> ids;
      for (const CodeInfo& c : diagnosticCodes()) ids.push_back(c.id);
      std::optional<std::string_view> near = closestWord(code, ids);
      llvm::errs() << "tilesight explain: '" << code << "' is no diagnostic code"
                   << (near ? " (did you mean '" + std::string(*near) + "'?)" : std::string())
                   << "; `tilesight explain` lists them\n";
      status = 2;
      continue;
    }
    llvm::outs() << *section << "\n";
  }
  return status;
}

}  // namespace tilesight::cli
