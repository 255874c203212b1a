// tilesight: one executable, subcommands per DESIGN §1.
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

#include "server/cli/commands.h"
#include "server/cli/crash_handler.h"
#include "server/cli/options.h"

int main(int argc, char** argv) {
  // Not llvm::InitLLVM: its crash handler runs llvm-symbolizer and writes
  // temporary files, which the language server promises never to do.
  tilesight::cli::installCrashHandler();
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream& os) { os << "tilesight " TILESIGHT_VERSION "\n"; });
  llvm::cl::HideUnrelatedOptions({&tilesight::cli::checkCategory(), &tilesight::cli::layoutCategory(),
                                     &tilesight::cli::lspCategory(), &tilesight::cli::runCategory(),
                                     &tilesight::cli::devicesCategory(), &tilesight::cli::emitCategory(),
                                     &tilesight::cli::translateCategory(), &tilesight::cli::recordCategory()});
  if (!llvm::cl::ParseCommandLineOptions(argc, argv,
                                         "tilesight: language server and static analyzer for CUDA Tile IR\n",
                                         &llvm::errs()))
    return 2;
  if (tilesight::cli::checkCommand()) return tilesight::cli::runCheck();
  if (tilesight::cli::layoutCommand()) return tilesight::cli::runLayout();
  if (tilesight::cli::lspCommand()) return tilesight::cli::runLsp();
  if (tilesight::cli::runCommand()) return tilesight::cli::runRun();
  if (tilesight::cli::devicesCommand()) return tilesight::cli::runDevices();
  if (tilesight::cli::emitCommand()) return tilesight::cli::runEmit();
  if (tilesight::cli::translateCommand()) return tilesight::cli::runTranslate();
  if (tilesight::cli::recordCommand()) return tilesight::cli::runRecord();
  if (tilesight::cli::helpCommand()) return tilesight::cli::runHelp(argv[0]);
  if (tilesight::cli::explainCommand()) return tilesight::cli::runExplain();
  llvm::errs() << "usage: tilesight check [options] FILE... | FOLDER... | -\n"
                  "       tilesight layout [--format=text|table|markdown|json|svg] [--at COORD] EXPR\n"
                  "       tilesight lsp [--stdio | --listen HOST:PORT]\n"
                  "       tilesight run FILE [--entry NAME] [--grid X,Y,Z] [--arg NAME=VALUE]... [--out NAME=PATH]...\n"
                  "       tilesight emit FILE --target cuda|hip|opencl [--entry NAME] [--arch ARCH] [-o PATH]\n"
                  "       tilesight translate FILE [--to=text|bytecode] [-o PATH] [--locations]\n"
                  "       tilesight devices [--format=text|json]\n"
                  "       tilesight record [--out DIR] -- PROGRAM [ARG]...\n"
                  "       tilesight explain [CODE]\n"
                  "       tilesight help [COMMAND]\n"
                  "(see tilesight --help)\n";
  return 2;
}
