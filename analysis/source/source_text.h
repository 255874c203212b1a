#pragma once
// Source text with a line table. Positions are byte offsets into the whole file,
// so a `// -----` chunk keeps the file's own line numbers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilesight {

// Line ends, as MLIR's lexer and the LSP specification count them: "\n",
// "\r\n" and a lone "\r".
inline bool isLineEnd(char c) { return c == '\n' || c == '\r'; }
inline bool hasLineEnd(std::string_view s) { return s.find_first_of("\r\n") != std::string_view::npos; }
// The offset of the first line end at or after `pos` (text.size() if none).
inline size_t findLineEnd(std::string_view text, size_t pos) {
  size_t e = text.find_first_of("\r\n", pos);
  return e == std::string_view::npos ? text.size() : e;
}
// The offset where the line holding `pos` starts.
inline size_t lineStartOf(std::string_view text, size_t pos) {
  size_t nl = pos == 0 ? std::string_view::npos : text.find_last_of("\r\n", pos - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

// A UTF-8 byte-order mark, which some Windows editors write at the start of a
// file. It is no part of the program: the lexer starts after it and the
// first line's columns are counted from its end, as an editor (which hides
// it) shows them. The text keeps it, so a file written back keeps it too.
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
inline uint32_t utf8BomLength(std::string_view text) { return text.starts_with(kUtf8Bom) ? 3 : 0; }

struct LineCol {
  uint32_t line = 0;  // 0-based
  uint32_t col = 0;   // 0-based, in UTF-8 bytes
};

class SourceText {
public:
  explicit SourceText(std::string text);

  std::string_view text() const { return text_; }
  uint32_t size() const { return static_cast<uint32_t>(text_.size()); }
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }

  // An offset inside a byte-order mark is the first line's column 0.
  LineCol lineCol(uint32_t offset) const;
  uint32_t offsetOf(LineCol lc) const;  // clamps to the line's end
  std::string_view lineText(uint32_t line) const;

  // UTF-16 code units between the line start and the byte column (LSP positions).
  uint32_t utf16Col(LineCol lc) const;
  // Inverse of utf16Col: byte column for a UTF-16 column (clamped to the line).
  uint32_t byteColFromUtf16(uint32_t line, uint32_t utf16) const;

private:
  std::string text_;
  std::vector<uint32_t> lineStarts_;
};

// A `// -----` separated chunk, as MLIR's --split-input-file sees it.
struct Chunk {
  uint32_t begin = 0;
  uint32_t end = 0;
};
std::vector<Chunk> splitChunks(std::string_view text);

}  // namespace tilesight
