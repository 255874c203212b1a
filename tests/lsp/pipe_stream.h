#pragma once
// A ByteStream between a test (the client) and a server running on another
// thread: the test pushes bytes and waits for the server's messages; the
// server's reads block until bytes arrive or the test closes the input.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/lsp/transport.h"

namespace tilesight::lsp::testing {

class PipeStream : public ByteStream {
public:
  // Each read returns at most `chunk` bytes (1 exercises split messages).
  explicit PipeStream(size_t chunk = SIZE_MAX) : chunk_(chunk) {}

  size_t read(char *buf, size_t size) override;
  bool write(std::string_view bytes) override;

  void push(std::string_view bytes); // client → server
  void close();                      // the client's input ends
  // Waits until the server has sent at least `n` whole messages or `timeout`
  // passed; returns the messages decoded so far.
  std::vector<nlohmann::json> waitForMessages(size_t n,
                                              std::chrono::milliseconds timeout);
  // The server's output so far, decoded; `wellFramed` false when it has
  // bytes that are not a whole message.
  std::vector<nlohmann::json> messages(bool *wellFramed = nullptr);

private:
  std::vector<nlohmann::json> decodeLocked(bool *wellFramed) const;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string input_;
  size_t inputPos_ = 0;
  bool closed_ = false;
  std::string output_;
  size_t chunk_;
};

} // namespace tilesight::lsp::testing
