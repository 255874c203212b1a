#pragma once
// The worker that runs document work off the I/O thread. Tasks run one at a
// time in arrival order, so a request always sees the analysis of every
// change that came before it, with two exceptions that save work:
//  - an update is skipped when a newer update of the same document is
//    already queued (its result would be stale before anyone saw it);
//  - an update with nothing queued behind it first waits for its debounce
//    time, during which more typing can make it stale.
// A request learns whether its document changed after it was sent, so it can
// answer ContentModified instead of giving positions in old text.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "server/lsp/logger.h"

namespace tilesight::lsp {

// How long an edit waits before its analysis. Waiting pays only when edits
// come faster than the document is analyzed (the next keystroke would make
// the analysis stale); then, like clangd, wait about one analysis, at most
// `cap`. A slower typist gets every version analyzed at once.
std::chrono::microseconds debounceWait(std::chrono::microseconds lastAnalysis,
                                       std::chrono::microseconds sinceLastChange,
                                       std::chrono::microseconds cap);

class Scheduler {
public:
  using Clock = std::chrono::steady_clock;

  explicit Scheduler(Logger &log);
  ~Scheduler(); // stop()
  Scheduler(const Scheduler &) = delete;
  Scheduler &operator=(const Scheduler &) = delete;

  // Analysis of a new version of `uri`. `debounce` is the quiet time to wait
  // when nothing else is queued.
  void update(std::string uri, std::chrono::microseconds debounce,
              std::function<void()> analyze);
  // Work that reads the state of `uri` (empty: no document). `run` gets
  // whether an update of that document was queued after this task.
  void request(std::string uri, std::function<void(bool modified)> run);

  // Whether an update of `uri` is queued (not yet started): the result of
  // the running analysis is stale.
  bool updateQueued(const std::string &uri);

  // Drops the queued work and joins the worker. Idempotent.
  void stop();
  // Blocks until the queue is empty and the worker idle (tests, benchmarks).
  void waitIdle();
  // Holds the worker before its next task until resume(): lets a test queue
  // work whose order would otherwise race with the worker.
  void pause();
  void resume();

private:
  struct Task {
    bool isUpdate = false;
    std::string uri;
    Clock::time_point queuedAt;
    std::chrono::microseconds debounce{0};
    std::function<void(bool)> run;
  };

  void loop();
  // Under the lock: whether an update of `uri` is queued at position `first`
  // or later.
  bool updateQueuedFrom(size_t first, const std::string &uri) const;
  // Under the lock: the next task to run, or false when the worker must wait
  // (paused, empty, debouncing; `until` says how long when it is a deadline).
  bool takeNext(Task &out, bool &modified, Clock::time_point &until);

  Logger &log_;
  std::mutex mu_;
  std::condition_variable wake_; // new work, resume or stop
  std::condition_variable idle_; // the queue drained
  std::deque<Task> queue_;
  bool busy_ = false;
  bool paused_ = false;
  bool stopping_ = false;
  std::thread worker_;
};

} // namespace tilesight::lsp
