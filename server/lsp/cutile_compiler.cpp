#include "server/lsp/cutile_compiler.h"

namespace tilesight::lsp {

CutileCompiler::CutileCompiler(Done done) : done_(std::move(done)), thread_([this] { loop(); }) {}

CutileCompiler::~CutileCompiler() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    cancelRunning_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void CutileCompiler::request(const std::string &uri, const std::string &path, int64_t version,
                             std::shared_ptr<const SourceText> text, std::chrono::milliseconds wait,
                             const std::string &python) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    waiting_[uri] = Job{path, python, version, std::move(text), Clock::now() + wait};
    if (runningUri_ == uri)
      cancelRunning_ = true;  // its result would be stale
  }
  wake_.notify_all();
}

void CutileCompiler::forget(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mu_);
  waiting_.erase(uri);
  if (runningUri_ == uri)
    cancelRunning_ = true;
}

void CutileCompiler::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    auto next = waiting_.end();
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it)
      if (next == waiting_.end() || it->second.due < next->second.due)
        next = it;
    if (next == waiting_.end()) {
      wake_.wait(lock);
      continue;
    }
    if (next->second.due > Clock::now()) {
      wake_.wait_until(lock, next->second.due);
      continue;
    }
    std::string uri = next->first;
    Job job = std::move(next->second);
    waiting_.erase(next);
    runningUri_ = uri;
    cancelRunning_ = false;
    lock.unlock();
    CutileCompiled result = compileCutile(cutileTools(job.python), job.path, std::string(job.text->text()), "",
                                          cancelRunning_);
    lock.lock();
    runningUri_.clear();
    if (!result.cancelled && !stopping_) {
      lock.unlock();
      done_(uri, job.version, job.text, std::move(result));
      lock.lock();
    }
  }
}

} // namespace tilesight::lsp
