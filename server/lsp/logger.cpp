#include "server/lsp/logger.h"

#include <chrono>
#include <ctime>

#include <llvm/Support/Format.h>

namespace tilesight::lsp {

void Logger::log(Level level, std::string_view message) {
  if (level > level_)
    return;
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  std::tm tm{};
  localtime_r(&t, &tm);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  const char tag = level == Level::Error  ? 'E'
                   : level == Level::Info ? 'I'
                                          : 'V';
  std::lock_guard<std::mutex> lock(mu_);
  os_ << tag << '['
      << llvm::format("%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                      static_cast<int>(ms))
      << "] " << message << '\n';
  os_.flush();
}

} // namespace tilesight::lsp
