#pragma once
// The server's log: one line per event on stderr (or a test's string), each
// line written whole under a mutex so worker threads can share it.
#include <atomic>
#include <mutex>
#include <string_view>

#include <llvm/Support/raw_ostream.h>

namespace tilesight::lsp {

class Logger {
public:
  enum class Level { Error, Info, Verbose };

  explicit Logger(llvm::raw_ostream &os, Level level = Level::Info)
      : os_(os), level_(level) {}

  void error(std::string_view message) { log(Level::Error, message); }
  void info(std::string_view message) { log(Level::Info, message); }
  void verbose(std::string_view message) { log(Level::Verbose, message); }
  void log(Level level, std::string_view message);
  void setLevel(Level level) { level_ = level; }

private:
  std::mutex mu_;
  llvm::raw_ostream &os_;
  std::atomic<Level> level_;
};

} // namespace tilesight::lsp
