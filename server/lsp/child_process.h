#pragma once
// A program the language server starts on an explicit command only
// (`tilesight run`, `tilesight devices`): its arguments, working folder and
// the bytes for its standard input; its standard output is kept, its
// standard error handed over line by line as it comes. It gets a process
// group of its own, so that a cancel ends it and whatever it started.
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesight::lsp {

struct ChildResult {
  std::string startError;  // it did not start: why (the rest is empty)
  int exitCode = -1;       // when it exited
  int signal = 0;          // when a signal ended it
  bool cancelled = false;  // ended because `cancel` was set
  bool timedOut = false;   // ended because it ran past `limit`
  std::string out;         // its standard output (unless runChild's onOut took it)
  std::string err;         // its standard error lines that were not handed over
};

// Runs argv[0] (a path) to its end. `onErrLine` gets each line of standard
// error and returns whether it took it (else it is kept in `err`). Setting
// `cancel` ends the program: SIGTERM to its group, SIGKILL a second later.
// `env` holds NAME=VALUE settings added to (or replacing) the server's own.
// `onOut`, when given, gets standard output as it comes (`out` stays empty),
// so that the caller decides what of it to hold. A program still running
// after `limit` is ended as a cancel ends it.
ChildResult runChild(const std::vector<std::string> &argv, const std::string &cwd, const std::string &input,
                     const std::function<bool(const std::string &)> &onErrLine, const std::atomic<bool> &cancel,
                     const std::vector<std::string> &env = {},
                     const std::function<void(std::string_view)> &onOut = {},
                     std::optional<std::chrono::seconds> limit = std::nullopt);

} // namespace tilesight::lsp
