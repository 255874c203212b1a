#include "server/lsp/transport.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

namespace tilesight::lsp {

namespace {

constexpr std::string_view kContentLength = "content-length";

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return {};
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Where `Content-Length` starts inside a line (case-insensitive), or npos.
size_t findContentLength(std::string_view line) {
  for (size_t i = 0; i + kContentLength.size() <= line.size(); ++i)
    if (iequals(line.substr(i, kContentLength.size()), kContentLength))
      return i;
  return std::string_view::npos;
}

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 60))
    out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  if (s.size() > 60)
    out += "...";
  return out;
}

} // namespace

bool MessageReader::fill() {
  if (pos_ > 4096 && pos_ * 2 > buf_.size()) {
    buf_.erase(0, pos_);
    pos_ = 0;
    // After a large message (a big file opened) the buffer would keep its
    // size for the whole session.
    if (buf_.capacity() > (1u << 20) && buf_.size() * 4 < buf_.capacity())
      buf_.shrink_to_fit();
  }
  char tmp[65536];
  size_t n = in_.read(tmp, sizeof tmp);
  if (n == 0)
    return false;
  buf_.append(tmp, n);
  return true;
}

bool MessageReader::readLine(std::string &line) {
  size_t scanned = pos_;
  while (true) {
    size_t nl = buf_.find('\n', scanned);
    if (nl != std::string::npos) {
      line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      return true;
    }
    if (buf_.size() - pos_ >
        kMaxHeaderLine) { // garbage without a newline: drop it
      line.assign(buf_, pos_, 80);
      pos_ = buf_.size();
      return true;
    }
    // fill() may move the unread bytes to the front: remember how many were
    // scanned relative to pos_, not as an index.
    size_t unread = buf_.size() - pos_;
    if (!fill()) {
      line.assign(buf_, pos_, std::string::npos);
      pos_ = buf_.size();
      return false;
    }
    scanned = pos_ + unread;
  }
}

std::optional<std::string> MessageReader::next() {
  while (true) {
    std::optional<uint64_t> length;
    bool badLength = false, sawHeader = false;
    std::string line;
    while (true) {
      if (!readLine(line)) {
        if (sawHeader || !trim(line).empty())
          log_.error("input ended inside a message header");
        return std::nullopt;
      }
      if (trim(line).empty()) {
        if (sawHeader)
          break;
        continue; // blank lines between messages
      }
      sawHeader = true;
      std::string_view l = line;
      // Garbage before a header (e.g. the body of a refused message): resync.
      size_t at = findContentLength(l);
      if (at != std::string_view::npos && at > 0) {
        log_.error("skipped " + std::to_string(at) +
                   " bytes before a header: '" + printable(l.substr(0, at)) +
                   "'");
        l.remove_prefix(at);
      }
      size_t colon = l.find(':');
      if (colon == std::string_view::npos) {
        log_.error("ignored a malformed header line: '" + printable(l) + "'");
        continue;
      }
      std::string_view name = trim(l.substr(0, colon)),
                       value = trim(l.substr(colon + 1));
      if (!iequals(name, kContentLength))
        continue; // Content-Type and others are ignored
      uint64_t v = 0;
      auto [end, ec] =
          std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size()) {
        log_.error("bad Content-Length value '" + printable(value) + "'");
        badLength = true;
        continue;
      }
      if (length)
        log_.error("duplicate Content-Length header: the previous value " +
                   std::to_string(*length) + " was ignored");
      length = v;
      badLength = false;
    }
    if (!length || badLength) {
      log_.error("message without a valid Content-Length header was skipped");
      continue;
    }
    if (*length > kMaxContentLength) {
      log_.error("refused a message of " + std::to_string(*length) +
                 " bytes (the limit is " + std::to_string(kMaxContentLength) +
                 ")");
      continue;
    }
    while (buf_.size() - pos_ < *length) {
      if (!fill()) {
        log_.error("input ended inside a message body (" +
                   std::to_string(buf_.size() - pos_) + " of " +
                   std::to_string(*length) + " bytes)");
        pos_ = buf_.size();
        return std::nullopt;
      }
    }
    std::string body = buf_.substr(pos_, *length);
    pos_ += *length;
    return body;
  }
}

std::string frame(std::string_view body) {
  std::string out =
      "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

bool MessageWriter::write(std::string_view body) { return write({body}); }

bool MessageWriter::write(std::initializer_list<std::string_view> body) {
  size_t size = 0;
  for (std::string_view part : body)
    size += part.size();
  std::string framed = "Content-Length: " + std::to_string(size) + "\r\n\r\n";
  // A small message goes out in one write; a large one (semantic tokens of
  // a big file) is not copied.
  constexpr size_t kJoinBelow = 64 * 1024;
  if (size < kJoinBelow)
    for (std::string_view part : body)
      framed.append(part);
  std::lock_guard<std::mutex> lock(mu_);
  if (broken_)
    return false;
  broken_ = !out_.write(framed);
  if (size >= kJoinBelow)
    for (std::string_view part : body)
      if (!broken_ && !part.empty())
        broken_ = !out_.write(part);
  return !broken_;
}

size_t StringStream::read(char *buf, size_t size) {
  size_t n = std::min({size, chunk_, input_.size() - pos_});
  std::memcpy(buf, input_.data() + pos_, n);
  pos_ += n;
  return n;
}

bool StringStream::write(std::string_view bytes) {
  output_.append(bytes);
  return true;
}

} // namespace tilesight::lsp
