// Messages with long strings, parsed without a byte-at-a-time pass over
// them (long_strings.h).
#include "server/lsp/long_strings.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tilesight::lsp {

using json = nlohmann::json;

namespace {

constexpr std::string_view kMarker("\0tilesight long string ", 23); // what stands in for one
constexpr std::string_view kMarkerJson = "\\u0000tilesight long string ";

bool inRange(unsigned char c, unsigned char lo, unsigned char hi) { return c >= lo && c <= hi; }

// The length of the well-formed UTF-8 sequence at s[i] (Unicode's table
// 3-7: no overlong forms, no surrogates, nothing above U+10FFFF); 0 if it
// is not one.
size_t utf8Sequence(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  unsigned char c = at(0);
  auto tail = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k)
      if (!inRange(at(k), 0x80, 0xBF))
        return false;
    return true;
  };
  if (inRange(c, 0xC2, 0xDF))
    return tail(1, 2) ? 2 : 0;
  if (c == 0xE0)
    return inRange(at(1), 0xA0, 0xBF) && tail(2, 3) ? 3 : 0;
  if (inRange(c, 0xE1, 0xEC) || inRange(c, 0xEE, 0xEF))
    return tail(1, 3) ? 3 : 0;
  if (c == 0xED)
    return inRange(at(1), 0x80, 0x9F) && tail(2, 3) ? 3 : 0;
  if (c == 0xF0)
    return inRange(at(1), 0x90, 0xBF) && tail(2, 4) ? 4 : 0;
  if (inRange(c, 0xF1, 0xF3))
    return tail(1, 4) ? 4 : 0;
  if (c == 0xF4)
    return inRange(at(1), 0x80, 0x8F) && tail(2, 4) ? 4 : 0;
  return 0;
}

// Whether `s` may stand unescaped in a JSON string: well-formed UTF-8 with
// no control character. Eight ASCII bytes at a time where it can.
bool cleanBytes(std::string_view s) {
  constexpr uint64_t kHigh = 0x8080808080808080ull, kSpaces = 0x2020202020202020ull;
  for (size_t i = 0; i < s.size();) {
    if (i + 8 <= s.size()) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if ((w & kHigh) == 0 && ((w - kSpaces) & ~w & kHigh) == 0) { // ASCII, none below ' '
        i += 8;
        continue;
      }
    }
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20)
      return false;
    size_t n = c < 0x80 ? 1 : utf8Sequence(s, i);
    if (n == 0)
      return false;
    i += n;
  }
  return true;
}

bool hex4(std::string_view s, size_t at, uint32_t &v) {
  if (at + 4 > s.size())
    return false;
  v = 0;
  for (size_t k = at; k < at + 4; ++k) {
    char c = s[k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0)
      return false;
    v = v * 16 + static_cast<uint32_t>(d);
  }
  return true;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The escape at s[at] ('\'), appended decoded; its length, or 0 when
// json::parse would refuse it (it then reports it).
size_t decodeEscape(std::string_view s, size_t at, std::string &out) {
  if (at + 1 >= s.size())
    return 0;
  switch (s[at + 1]) {
  case '"': out += '"'; return 2;
  case '\\': out += '\\'; return 2;
  case '/': out += '/'; return 2;
  case 'b': out += '\b'; return 2;
  case 'f': out += '\f'; return 2;
  case 'n': out += '\n'; return 2;
  case 'r': out += '\r'; return 2;
  case 't': out += '\t'; return 2;
  case 'u': break;
  default: return 0;
  }
  uint32_t cp = 0, low = 0;
  if (!hex4(s, at + 2, cp) || (cp >= 0xDC00 && cp <= 0xDFFF))
    return 0;
  if (cp < 0xD800 || cp > 0xDBFF) {
    appendUtf8(out, cp);
    return 6;
  }
  // A high surrogate: its low one must follow.
  if (at + 7 >= s.size() || s[at + 6] != '\\' || s[at + 7] != 'u' || !hex4(s, at + 8, low) || low < 0xDC00 ||
      low > 0xDFFF)
    return 0;
  appendUtf8(out, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
  return 12;
}

// The string between the quotes at `open` and `close`, decoded; false when
// json::parse would refuse it.
bool decodeString(std::string_view s, size_t open, size_t close, std::string &out) {
  out.reserve(close - open);
  for (size_t at = open + 1; at < close;) {
    const void *slash = std::memchr(s.data() + at, '\\', close - at);
    size_t stop = slash ? static_cast<size_t>(static_cast<const char *>(slash) - s.data()) : close;
    std::string_view plain = s.substr(at, stop - at);
    if (!cleanBytes(plain))
      return false;
    out.append(plain);
    if (stop == close)
      break;
    size_t n = decodeEscape(s.substr(0, close), stop, out);
    if (n == 0)
      return false;
    at = stop + n;
  }
  return true;
}

// Puts each decoded string in place of its marker; false when a marker is
// unknown or comes twice (a client's own string that looks like one).
bool putBack(json &j, std::vector<std::string> &longs, std::vector<bool> &placed) {
  if (j.is_string()) {
    const std::string &s = j.get_ref<const std::string &>();
    if (!s.starts_with(kMarker))
      return true;
    size_t k = 0;
    for (char c : s.substr(kMarker.size())) {
      if (c < '0' || c > '9')
        return false;
      k = k * 10 + static_cast<size_t>(c - '0');
    }
    if (k >= longs.size() || placed[k])
      return false;
    placed[k] = true;
    j = std::move(longs[k]);
    return true;
  }
  if (j.is_object() || j.is_array())
    for (json &v : j)
      if (!putBack(v, longs, placed))
        return false;
  return true;
}

} // namespace

size_t jsonStringEnd(std::string_view text, size_t open) {
  for (size_t at = open + 1; at < text.size();) {
    const void *q = std::memchr(text.data() + at, '"', text.size() - at);
    if (!q)
      return std::string_view::npos;
    size_t quote = static_cast<size_t>(static_cast<const char *>(q) - text.data()), slashes = 0;
    while (quote - slashes > open + 1 && text[quote - slashes - 1] == '\\')
      ++slashes;
    if (slashes % 2 == 0)
      return quote;
    at = quote + 1;
  }
  return std::string_view::npos;
}

json parseMessage(std::string_view body) {
  if (body.size() < kLongStringBytes)
    return json::parse(body);
  std::string rest; // the body, each long string a marker
  std::vector<std::string> longs;
  size_t copied = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '"')
      continue;
    size_t close = jsonStringEnd(body, i);
    if (close == std::string_view::npos)
      return json::parse(body);
    size_t next = body.find_first_not_of(" \t\r\n", close + 1);
    bool key = next != std::string_view::npos && body[next] == ':'; // keys stay
    if (close - i - 1 >= kLongStringBytes && !key) {
      std::string decoded;
      if (!decodeString(body, i, close, decoded))
        return json::parse(body);
      rest.append(body.substr(copied, i - copied));
      rest.append("\"").append(kMarkerJson).append(std::to_string(longs.size())).append("\"");
      longs.push_back(std::move(decoded));
      copied = close + 1;
    }
    i = close;
  }
  if (longs.empty())
    return json::parse(body);
  rest.append(body.substr(copied));
  json j;
  try {
    j = json::parse(rest);
  } catch (const json::parse_error &) {
    return json::parse(body); // its error, at its positions
  }
  std::vector<bool> placed(longs.size(), false);
  if (!putBack(j, longs, placed) || std::find(placed.begin(), placed.end(), false) != placed.end())
    return json::parse(body);
  return j;
}

} // namespace tilesight::lsp
