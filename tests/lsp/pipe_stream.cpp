#include "tests/lsp/pipe_stream.h"

#include <algorithm>
#include <cstring>

namespace tilesight::lsp::testing {

size_t PipeStream::read(char *buf, size_t size) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return closed_ || inputPos_ < input_.size(); });
  size_t n = std::min({size, chunk_, input_.size() - inputPos_});
  std::memcpy(buf, input_.data() + inputPos_, n);
  inputPos_ += n;
  return n;
}

bool PipeStream::write(std::string_view bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    output_.append(bytes);
  }
  cv_.notify_all();
  return true;
}

void PipeStream::push(std::string_view bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    input_.append(bytes);
  }
  cv_.notify_all();
}

void PipeStream::close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
  }
  cv_.notify_all();
}

std::vector<nlohmann::json> PipeStream::decodeLocked(bool *wellFramed) const {
  // Frames are decoded by hand here so that a framing bug in the server's
  // reader cannot hide one in its writer.
  std::vector<nlohmann::json> out;
  size_t pos = 0;
  const std::string header = "Content-Length: ";
  while (pos < output_.size()) {
    size_t end = output_.find("\r\n\r\n", pos);
    if (output_.compare(pos, header.size(), header) != 0 ||
        end == std::string::npos)
      break;
    size_t length = std::stoul(output_.substr(pos + header.size()));
    if (end + 4 + length > output_.size())
      break;
    out.push_back(nlohmann::json::parse(output_.substr(end + 4, length)));
    pos = end + 4 + length;
  }
  if (wellFramed)
    *wellFramed = pos == output_.size();
  return out;
}

std::vector<nlohmann::json> PipeStream::messages(bool *wellFramed) {
  std::lock_guard<std::mutex> lock(mu_);
  return decodeLocked(wellFramed);
}

std::vector<nlohmann::json>
PipeStream::waitForMessages(size_t n, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  std::vector<nlohmann::json> got;
  cv_.wait_for(lock, timeout, [&] {
    got = decodeLocked(nullptr);
    return got.size() >= n;
  });
  return got;
}

} // namespace tilesight::lsp::testing
