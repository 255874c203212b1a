#include "server/lsp/scheduler.h"

#include <algorithm>

namespace tilesight::lsp {

std::chrono::microseconds debounceWait(std::chrono::microseconds lastAnalysis,
                                       std::chrono::microseconds sinceLastChange,
                                       std::chrono::microseconds cap) {
  if (sinceLastChange >= lastAnalysis)
    return std::chrono::microseconds(0);
  return std::min(cap, lastAnalysis);
}

Scheduler::Scheduler(Logger &log) : log_(log) {
  worker_ = std::thread([this] { loop(); });
}

Scheduler::~Scheduler() { stop(); }

void Scheduler::update(std::string uri, std::chrono::microseconds debounce,
                       std::function<void()> analyze) {
  Task t{true, std::move(uri), Clock::now(), debounce,
         [analyze = std::move(analyze)](bool) { analyze(); }};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_)
      return;
    queue_.push_back(std::move(t));
  }
  wake_.notify_all();
}

void Scheduler::request(std::string uri, std::function<void(bool)> run) {
  Task t{false, std::move(uri), Clock::now(), {}, std::move(run)};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_)
      return;
    queue_.push_back(std::move(t));
  }
  wake_.notify_all();
}

bool Scheduler::updateQueued(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mu_);
  return updateQueuedFrom(0, uri);
}

void Scheduler::stop() {
  size_t dropped = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && !worker_.joinable())
      return;
    stopping_ = true;
    dropped = queue_.size();
    queue_.clear();
  }
  wake_.notify_all();
  if (worker_.joinable())
    worker_.join();
  if (dropped)
    log_.info("stopped with " + std::to_string(dropped) +
              " queued tasks not run");
}

void Scheduler::waitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [&] { return stopping_ || (queue_.empty() && !busy_); });
}

void Scheduler::pause() {
  std::lock_guard<std::mutex> lock(mu_);
  paused_ = true;
}

void Scheduler::resume() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    paused_ = false;
  }
  wake_.notify_all();
}

bool Scheduler::updateQueuedFrom(size_t first, const std::string &uri) const {
  for (size_t j = first; j < queue_.size(); ++j)
    if (queue_[j].isUpdate && queue_[j].uri == uri)
      return true;
  return false;
}

bool Scheduler::takeNext(Task &out, bool &modified, Clock::time_point &until) {
  while (!paused_ && !queue_.empty()) {
    Task &t = queue_.front();
    if (t.isUpdate && updateQueuedFrom(1, t.uri)) {
      log_.verbose("skipped a stale version of " + t.uri);
      queue_.pop_front();
      continue;
    }
    // Debounce only while nothing waits: a queued request wants the analysis
    // now, and a queued change makes this one stale anyway.
    if (t.isUpdate && queue_.size() == 1 &&
        Clock::now() < t.queuedAt + t.debounce) {
      until = t.queuedAt + t.debounce;
      return false;
    }
    modified = !t.isUpdate && !t.uri.empty() && updateQueuedFrom(1, t.uri);
    out = std::move(t);
    queue_.pop_front();
    return true;
  }
  return false;
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    Task task;
    bool modified = false;
    auto until = Clock::time_point::max();
    if (!takeNext(task, modified, until)) {
      if (queue_.empty())
        idle_.notify_all();
      if (until == Clock::time_point::max())
        wake_.wait(lock);
      else
        wake_.wait_until(lock, until);
      continue;
    }
    busy_ = true;
    lock.unlock();
    task.run(modified);
    lock.lock();
    busy_ = false;
  }
  idle_.notify_all();
}

} // namespace tilesight::lsp
