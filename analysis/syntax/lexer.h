#pragma once
// MLIR-style lexer over a byte range of the whole file. It never fails: bad
// characters become Error tokens that the parser reports and skips.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/keywords.h"
#include "analysis/source/source_text.h"

namespace tilesight {

enum class Tok : uint8_t {
  Eof, Error,
  BareId, PercentId, CaretId, AtId, HashId, BangId,
  Integer, Float, String,
  LParen, RParen, LSquare, RSquare, LBrace, RBrace, Less, Greater,
  Comma, Equal, Colon, Arrow, Question, Star, Plus, Minus,
};
const char* tokName(Tok t);

struct Token {
  Tok kind = Tok::Eof;
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string_view text;
  Range range() const { return {begin, end}; }
  bool is(Tok k) const { return kind == k; }
  bool isKeyword(std::string_view kw) const { return kind == Tok::BareId && text == kw; }
};

class Lexer {
public:
  // `text` is the whole file; lexing covers [begin, end), less a byte-order mark.
  Lexer(std::string_view text, uint32_t begin, uint32_t end)
      : text_(text), pos_(std::max(begin, utf8BomLength(text))), end_(end) {}

  Token next();
  uint32_t position() const { return pos_; }
  void resetTo(uint32_t pos) { pos_ = pos; }
  std::string_view text() const { return text_; }
  uint32_t end() const { return end_; }

private:
  Token make(Tok k, uint32_t b) const { return {k, b, pos_, text_.substr(b, pos_ - b)}; }
  void skipTrivia();
  Token lexNumber(uint32_t b);
  Token lexString(uint32_t b);
  Token lexPrefixed(Tok k, uint32_t b);
  char peek(uint32_t ahead = 0) const { return pos_ + ahead < end_ ? text_[pos_ + ahead] : '\0'; }

  std::string_view text_;
  uint32_t pos_;
  uint32_t end_;
};

std::string describeToken(const Token& t);  // for "found X" messages  // letters, digits, _ $ .

}  // namespace tilesight
