#pragma once
// The LSP base protocol: `Content-Length: N\r\n\r\n` + N bytes of JSON, over
// any byte stream (stdio, a socket, or a string in tests and fuzzing).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "server/lsp/logger.h"

namespace tilesight::lsp {

// A two-way byte stream.
class ByteStream {
public:
  virtual ~ByteStream() = default;
  // Reads at least one byte into buf; 0 means the input has ended (or failed).
  virtual size_t read(char *buf, size_t size) = 0;
  // Writes all of `bytes`; false when the peer is gone.
  virtual bool write(std::string_view bytes) = 0;
};

// Longer messages are refused (clangd and MLIR use the same cap).
constexpr uint64_t kMaxContentLength = uint64_t(1) << 30;
// A header line longer than this is garbage: it is dropped, not buffered.
constexpr size_t kMaxHeaderLine = 64 * 1024;

// Splits the input into message bodies. Bad headers, missing or absurd
// lengths are logged and skipped; reading resumes at the next header.
class MessageReader {
public:
  MessageReader(ByteStream &in, Logger &log) : in_(in), log_(log) {}
  // The next body; nullopt when the input has ended (also inside a message).
  std::optional<std::string> next();

private:
  bool fill();                      // more bytes into buf_; false at the end
  bool readLine(std::string &line); // one header line without its terminator
  ByteStream &in_;
  Logger &log_;
  std::string buf_;
  size_t pos_ = 0;
};

// Frames bodies; each message is one write, under a mutex, so replies from
// several threads never interleave.
class MessageWriter {
public:
  explicit MessageWriter(ByteStream &out) : out_(out) {}
  bool write(std::string_view body); // false once the peer is gone
  // A body given in parts; large ones are written without being joined.
  bool write(std::initializer_list<std::string_view> body);

private:
  std::mutex mu_;
  ByteStream &out_;
  bool broken_ = false;
};

// Content-Length framing of one body.
std::string frame(std::string_view body);

// An in-memory stream: reads `input` (at most `chunk` bytes per read, to
// exercise messages split across reads) and collects what is written.
class StringStream : public ByteStream {
public:
  explicit StringStream(std::string input, size_t chunk = SIZE_MAX)
      : input_(std::move(input)), chunk_(chunk) {}
  size_t read(char *buf, size_t size) override;
  bool write(std::string_view bytes) override;
  const std::string &output() const { return output_; }

private:
  std::string input_;
  size_t chunk_;
  size_t pos_ = 0;
  std::string output_;
};

} // namespace tilesight::lsp
