#pragma once
// The language server's compiles of cuTile Python documents
// (cutile_documents.h): one thread of their own, so that neither the I/O
// thread nor the analysis worker waits the seconds a compile takes. Each
// document has at most one compile waiting: a newer version replaces it, and
// cancels the one running for an older version. A request waits until its
// time comes (the idle pause after an edit); `done` gets each result.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/lsp/cutile_compile.h"

namespace tilesight::lsp {

class CutileCompiler {
public:
  using Done = std::function<void(const std::string &uri, int64_t version, std::shared_ptr<const SourceText> text,
                                  CutileCompiled result)>;
  explicit CutileCompiler(Done done);
  ~CutileCompiler();  // cancels the running compile and joins

  // Compile `text` (document `uri`, file `path`) after `wait`, with `python`
  // (the tilesight.python setting; empty: the default).
  void request(const std::string &uri, const std::string &path, int64_t version,
               std::shared_ptr<const SourceText> text, std::chrono::milliseconds wait, const std::string &python);
  // The document closed: drop its waiting compile, cancel its running one.
  void forget(const std::string &uri);

private:
  using Clock = std::chrono::steady_clock;
  struct Job {
    std::string path, python;
    int64_t version = 0;
    std::shared_ptr<const SourceText> text;
    Clock::time_point due;
  };
  void loop();

  Done done_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::map<std::string, Job> waiting_;
  std::string runningUri_;
  std::atomic<bool> cancelRunning_{false};
  bool stopping_ = false;
  std::thread thread_;  // last: it uses the members above
};

} // namespace tilesight::lsp
