// A run's JSON with its printed text capped (printed_cap.h): a byte-by-byte
// reading of the JSON's structure, enough to find the top-level "printed"
// string, without building anything.
#include "server/lsp/printed_cap.h"

namespace tilesight::lsp {

namespace {
constexpr size_t kKeyBytes = 16; // "printed" and a little more
bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
} // namespace

void PrintedCap::feed(std::string_view chunk) {
  for (char c : chunk) {
    if (!string_)
      structure(c);
    else if (printed_)
      inPrinted(c);
    else
      inString(c);
  }
}

void PrintedCap::structure(char c) {
  out_ += c;
  bool valueIsPrinted = printedNext_ && depth_ == 1;
  if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ':')
    printedNext_ = false;
  switch (c) {
  case '"':
    string_ = true;
    key_ = depth_ == 1 && expectKey_;
    keyText_.clear();
    printed_ = valueIsPrinted && !key_;
    break;
  case '{':
  case '[':
    if (++depth_ == 1)
      expectKey_ = c == '{';
    break;
  case '}':
  case ']':
    --depth_;
    break;
  case ',':
    expectKey_ = depth_ == 1;
    break;
  case ':':
    if (depth_ == 1) {
      expectKey_ = false;
      printedNext_ = lastKey_ == "printed";
    }
    break;
  default:
    break;
  }
}

// After '\' comes one byte, or 'u' and four hex digits.
void PrintedCap::advanceEscape(char c) {
  if (escapeLeft_ == -1)
    escapeLeft_ = c == 'u' ? 4 : 0;
  else if (escapeLeft_ > 0)
    --escapeLeft_;
  else if (c == '\\')
    escapeLeft_ = -1;
}

void PrintedCap::inString(char c) {
  out_ += c;
  if (escapeLeft_ == 0 && c == '"') {
    string_ = false;
    if (key_)
      lastKey_ = keyText_;
    return;
  }
  if (key_ && keyText_.size() < kKeyBytes)
    keyText_ += c;
  advanceEscape(c);
}

// Each unit of the text, a byte or an escape, is kept while fewer than cap_
// were; a character's UTF-8 continuation bytes go with its first.
void PrintedCap::inPrinted(char c) {
  if (escapeLeft_ == 0) {
    if (c == '"') {
      out_ += c;
      string_ = printed_ = false;
      return;
    }
    if (!isContinuationByte(c))
      keeping_ = kept_ < cap_;
    ++(keeping_ ? kept_ : dropped_);
  }
  if (keeping_)
    out_ += c;
  advanceEscape(c);
}

} // namespace tilesight::lsp
