#pragma once
// The real transports, on Boost.Asio: stdio (fds 0 and 1) and one TCP
// client accepted on `--listen HOST:PORT`.
#include <string>

#include "server/lsp/logger.h"
#include "server/lsp/server.h"

namespace tilesight::lsp {

// Serves a client on stdin/stdout; returns the process exit status.
int serveStdio(Logger &log, const ServeOptions &options = {});

// Listens on HOST:PORT (`PORT` or `:PORT` alone means 127.0.0.1), serves
// the first client that connects, and returns the exit status (2 when the
// address is bad, the port outside 0-65535, or it cannot be listened on).
// Port 0 picks a free port; the log says which. A client that connects while
// the first is served gets a window/showMessage saying so, and is closed.
int serveTcp(const std::string &hostPort, Logger &log, const ServeOptions &options = {});

} // namespace tilesight::lsp
