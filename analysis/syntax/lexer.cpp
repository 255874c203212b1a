#include "analysis/syntax/lexer.h"

#include <cctype>

#include "analysis/source/source_text.h"

namespace tilesight {

const char* tokName(Tok t) {
  switch (t) {
    case Tok::Eof: return "end of input";
    case Tok::Error: return "invalid character";
    case Tok::BareId: return "identifier";
    case Tok::PercentId: return "SSA value";
    case Tok::CaretId: return "block name";
    case Tok::AtId: return "symbol";
    case Tok::HashId: return "attribute alias";
    case Tok::BangId: return "dialect type";
    case Tok::Integer: return "integer";
    case Tok::Float: return "float";
    case Tok::String: return "string";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LSquare: return "'['";
    case Tok::RSquare: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Less: return "'<'";
    case Tok::Greater: return "'>'";
    case Tok::Comma: return "','";
    case Tok::Equal: return "'='";
    case Tok::Colon: return "':'";
    case Tok::Arrow: return "'->'";
    case Tok::Question: return "'?'";
    case Tok::Star: return "'*'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
  }
  return "token";
}

std::string describeToken(const Token& t) {
  if (t.is(Tok::Eof)) return "end of input";
  return "'" + std::string(t.text.substr(0, 40)) + "'";
}


void Lexer::skipTrivia() {
  while (pos_ < end_) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < end_ && !isLineEnd(text_[pos_])) ++pos_;
    } else {
      break;
    }
  }
}

Token Lexer::next() {
  skipTrivia();
  uint32_t b = pos_;
  if (pos_ >= end_) return {Tok::Eof, end_, end_, {}};
  char c = text_[pos_++];
  switch (c) {
    case '(': return make(Tok::LParen, b);
    case ')': return make(Tok::RParen, b);
    case '[': return make(Tok::LSquare, b);
    case ']': return make(Tok::RSquare, b);
    case '{': return make(Tok::LBrace, b);
    case '}': return make(Tok::RBrace, b);
    case '<': return make(Tok::Less, b);
    case '>': return make(Tok::Greater, b);
    case ',': return make(Tok::Comma, b);
    case '=': return make(Tok::Equal, b);
    case ':': return make(Tok::Colon, b);
    case '?': return make(Tok::Question, b);
    case '*': return make(Tok::Star, b);
    case '+': return make(Tok::Plus, b);
    case '-':
      if (peek() == '>') { ++pos_; return make(Tok::Arrow, b); }
      return make(Tok::Minus, b);
    case '"': return lexString(b);
    case '%': return lexPrefixed(Tok::PercentId, b);
    case '^': return lexPrefixed(Tok::CaretId, b);
    case '#': return lexPrefixed(Tok::HashId, b);
    case '!': return lexPrefixed(Tok::BangId, b);
    case '@':
      if (peek() == '"') { ++pos_; Token s = lexString(pos_ - 1); return {Tok::AtId, b, s.end, text_.substr(b, s.end - b)}; }
      return lexPrefixed(Tok::AtId, b);
    default: break;
  }
  if (std::isdigit(static_cast<unsigned char>(c))) return lexNumber(b);
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    while (pos_ < end_ && isIdentChar(text_[pos_])) ++pos_;
    return make(Tok::BareId, b);
  }
  // Skip a whole UTF-8 sequence so one bad character gives one error.
  while (pos_ < end_ && (static_cast<unsigned char>(text_[pos_]) & 0xC0) == 0x80) ++pos_;
  return make(Tok::Error, b);
}

Token Lexer::lexPrefixed(Tok k, uint32_t b) {
  while (pos_ < end_ && (isIdentChar(text_[pos_]) || text_[pos_] == '-')) {
    // `%a->` must not swallow the arrow's dash.
    if (text_[pos_] == '-' && peek(1) == '>') break;
    ++pos_;
  }
  if (pos_ == b + 1) return make(Tok::Error, b);
  return make(k, b);
}

Token Lexer::lexNumber(uint32_t b) {
  if (text_[b] == '0' && (peek() == 'x' || peek() == 'X') && std::isxdigit(static_cast<unsigned char>(peek(1)))) {
    pos_ += 1;
    while (pos_ < end_ && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return make(Tok::Integer, b);
  }
  while (pos_ < end_ && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  if (peek() != '.') return make(Tok::Integer, b);
  ++pos_;
  while (pos_ < end_ && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  if ((peek() == 'e' || peek() == 'E') &&
      (std::isdigit(static_cast<unsigned char>(peek(1))) ||
       ((peek(1) == '+' || peek(1) == '-') && std::isdigit(static_cast<unsigned char>(peek(2)))))) {
    pos_ += 2;
    while (pos_ < end_ && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  return make(Tok::Float, b);
}

Token Lexer::lexString(uint32_t b) {
  while (pos_ < end_) {
    char c = text_[pos_++];
    if (c == '\\' && pos_ < end_) { ++pos_; continue; }
    if (c == '"') return make(Tok::String, b);
    if (isLineEnd(c)) break;
  }
  return make(Tok::Error, b);  // unterminated string
}

}  // namespace tilesight
