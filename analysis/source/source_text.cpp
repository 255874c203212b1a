#include "analysis/source/source_text.h"

#include <algorithm>
#include <cstring>

namespace tilesight {

SourceText::SourceText(std::string text) : text_(std::move(text)) {
  lineStarts_.push_back(utf8BomLength(text_));
  const char* base = text_.data();
  const char* end = base + text_.size();
  if (!std::memchr(base, '\r', text_.size())) {  // the common case, at memchr's speed
    for (const char* p = base; (p = static_cast<const char*>(std::memchr(p, '\n', end - p))); ++p)
      lineStarts_.push_back(static_cast<uint32_t>(p - base) + 1);
    return;
  }
  for (const char* p = base; p < end; ++p)
    if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n')))
      lineStarts_.push_back(static_cast<uint32_t>(p - base) + 1);
}

LineCol SourceText::lineCol(uint32_t offset) const {
  offset = std::clamp<uint32_t>(offset, lineStarts_[0], size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - lineStarts_.begin()) - 1;
  return {line, offset - lineStarts_[line]};
}

std::string_view SourceText::lineText(uint32_t line) const {
  if (line >= lineStarts_.size()) return {};
  uint32_t b = lineStarts_[line];
  uint32_t e = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] : size();
  std::string_view s(text_.data() + b, e - b);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

uint32_t SourceText::offsetOf(LineCol lc) const {
  if (lc.line >= lineStarts_.size()) return size();
  std::string_view l = lineText(lc.line);
  return lineStarts_[lc.line] + std::min<uint32_t>(lc.col, static_cast<uint32_t>(l.size()));
}

// Number of UTF-16 units a UTF-8 lead byte stands for (0 for continuation bytes).
static uint32_t utf16Units(unsigned char c) {
  if ((c & 0xC0) == 0x80) return 0;
  return c >= 0xF0 ? 2 : 1;
}

uint32_t SourceText::utf16Col(LineCol lc) const {
  std::string_view l = lineText(lc.line);
  uint32_t n = 0;
  for (uint32_t i = 0; i < lc.col && i < l.size(); ++i) n += utf16Units(static_cast<unsigned char>(l[i]));
  return n;
}

uint32_t SourceText::byteColFromUtf16(uint32_t line, uint32_t utf16) const {
  std::string_view l = lineText(line);
  uint32_t units = 0, i = 0;
  while (i < l.size() && units < utf16) {
    units += utf16Units(static_cast<unsigned char>(l[i]));
    ++i;
    while (i < l.size() && utf16Units(static_cast<unsigned char>(l[i])) == 0) ++i;
  }
  return i;
}

std::vector<Chunk> splitChunks(std::string_view text) {
  std::vector<Chunk> chunks;
  uint32_t chunkBegin = 0, pos = 0;
  while (pos <= text.size()) {
    uint32_t lineEnd = static_cast<uint32_t>(findLineEnd(text, pos));
    std::string_view line = text.substr(pos, lineEnd - pos);
    size_t first = line.find_first_not_of(" \t");
    // MLIR's marker: a line holding `// -----` (trailing text allowed).
    if (first != std::string_view::npos && line.substr(first).starts_with("// -----")) {
      chunks.push_back({chunkBegin, pos});
      chunkBegin = lineEnd;
    }
    if (lineEnd == text.size()) break;
    pos = lineEnd + (text.substr(lineEnd, 2) == "\r\n" ? 2 : 1);
  }
  chunks.push_back({chunkBegin, static_cast<uint32_t>(text.size())});
  return chunks;
}

}  // namespace tilesight
