// `tilesight lsp [--stdio | --listen HOST:PORT]` (DESIGN §3): the language server.
// Messages go over stdout (or the socket); the log goes to stderr.
#include <csignal>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include "server/cli/commands.h"
#include "server/cli/options.h"
#include "server/lsp/asio_stream.h"
#include "server/lsp/logger.h"

namespace tilesight::cli {

int runLsp() {
  LspOptions opts = lspOptions();
  if (!opts.problem.empty()) {
    llvm::errs() << "tilesight lsp: " << opts.problem << "\n";
    return 2;
  }
  // A client that goes away must end the server through a failed write, not a
  // signal.
  std::signal(SIGPIPE, SIG_IGN);
  lsp::Logger::Level level =
      opts.log == LogLevel::Error  ? lsp::Logger::Level::Error
      : opts.log == LogLevel::Info ? lsp::Logger::Level::Info
                                   : lsp::Logger::Level::Verbose;
  lsp::Logger log(llvm::errs(), level);
  // Runs (tilesight.run) start this executable's `run` command.
  lsp::ServeOptions serve;
  if (auto self = llvm::sys::fs::getMainExecutable(nullptr, nullptr); !self.empty()) serve.executable = self;
  return opts.listen ? lsp::serveTcp(*opts.listen, log, serve) : lsp::serveStdio(log, serve);
}

} // namespace tilesight::cli
