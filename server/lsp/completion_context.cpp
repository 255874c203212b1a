#include "server/lsp/completion_context.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "analysis/source/source_text.h"
#include "analysis/syntax/lexer.h"

namespace tilesight::lsp {

namespace {

uint32_t wordStart(std::string_view text, uint32_t lo, uint32_t p) {
  while (p > lo && isIdentChar(text[p - 1]))
    --p;
  return p;
}

uint32_t lineStart(std::string_view text, uint32_t lo, uint32_t p) {
  while (p > lo && !isLineEnd(text[p - 1]))
    --p;
  return p;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

// The identifier that ends `s` (after trimming blanks).
std::string_view lastWord(std::string_view s) {
  s = trimmed(s);
  size_t b = s.size();
  while (b > 0 && isIdentChar(s[b - 1]))
    --b;
  return s.substr(b);
}

// Where `#layout<` starts when the cursor is inside its body (no `>` closed
// it; `{`, `}` or `%` mean the text is not a layout body any more).
std::optional<uint32_t> layoutBodyStart(std::string_view text, uint32_t lo,
                                        uint32_t cur) {
  // Only after the last `{`, `}` or `%` (which no body holds): the search
  // stays near the cursor in a big file.
  size_t stop = text.substr(lo, cur - lo).find_last_of("{}%");
  if (stop != std::string_view::npos)
    lo += static_cast<uint32_t>(stop) + 1;
  size_t open = text.substr(lo, cur - lo).rfind("#layout<");
  if (open == std::string_view::npos)
    return std::nullopt;
  int depth = 0;
  for (uint32_t p = lo + static_cast<uint32_t>(open) + 7; p < cur; ++p) {
    char c = text[p];
    if (c == '<')
      ++depth;
    else if (c == '>' && --depth == 0)
      return std::nullopt;
    else if (c == '{' || c == '}' || c == '%')
      return std::nullopt;
  }
  return lo + static_cast<uint32_t>(open);
}

// Whether the end of `line` is inside a string or a `//` comment.
bool inStringOrComment(std::string_view line) {
  bool string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"')
      string = !string;
    else if (!string && line.substr(i, 2) == "//")
      return true;
  }
  return string;
}

// `%a, %b = ` (or nothing): the next word is an op name.
bool atOpName(std::string_view stmt) {
  if (stmt.empty())
    return true;
  if (stmt.front() != '%' || stmt.back() != '=')
    return false;
  return std::all_of(stmt.begin(), stmt.end() - 1, [](char c) {
    return isIdentChar(c) || c == '%' || c == '#' || c == ':' || c == ',' ||
           c == ' ';
  });
}

const OpInfo *opOfStatement(std::string_view stmt) {
  if (stmt.starts_with("%")) {
    size_t eq = stmt.find('=');
    if (eq == std::string_view::npos)
      return nullptr;
    stmt = trimmed(stmt.substr(eq + 1));
  }
  size_t e = 0;
  while (e < stmt.size() && isIdentChar(stmt[e]))
    ++e;
  return OpTable::get().lookup(stmt.substr(0, e));
}

bool isArrowAt(std::string_view s, size_t i) {
  return s[i] == '>' && i > 0 && s[i - 1] == '-';
}

// The innermost bracket of `stmt` left open (npos when none); strings and
// the `>` of `->` are skipped.
size_t openBracket(std::string_view stmt) {
  std::vector<size_t> open;
  for (size_t i = 0; i < stmt.size(); ++i) {
    char c = stmt[i];
    if (c == '"') {
      size_t close = stmt.find('"', i + 1);
      i = close == std::string_view::npos ? stmt.size() : close;
    } else if (c == '(' || c == '[' || c == '<' || c == '{') {
      open.push_back(i);
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && !isArrowAt(stmt, i))) &&
               !open.empty()) {
      open.pop_back();
    }
  }
  return open.empty() ? std::string_view::npos : open.back();
}

// Whether the last token of `s` is `:` or `->`.
bool endsWithTypeIntro(std::string_view s) {
  s = trimmed(s);
  return s.ends_with(":") || s.ends_with("->");
}

// At the statement's own level: whether a `:` or `->` comes after the last
// operand (`%`) or `=`, skipping bracketed groups and strings.
bool inTypeList(std::string_view stmt) {
  int depth = 0;
  for (size_t i = stmt.size(); i-- > 0;) {
    char c = stmt[i];
    if (c == '"') {
      size_t open = stmt.rfind('"', i == 0 ? 0 : i - 1);
      i = open == std::string_view::npos || open >= i ? 0 : open;
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && !isArrowAt(stmt, i))) {
      ++depth;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      --depth;
    } else if (depth == 0 && (c == ':' || isArrowAt(stmt, i))) {
      return true;
    } else if (depth == 0 && (c == '%' || c == '=')) {
      return false;
    }
  }
  return false;
}

// Past the `4x8x` (or `?x`) of a shaped type: the element type follows.
uint32_t afterDims(std::string_view text, uint32_t p, uint32_t end) {
  while (p < end) {
    uint32_t q = p;
    if (text[q] == 'x' && q > 0 && text[q - 1] == '?')
      return afterDims(text, q + 1, end);
    while (q < end && std::isdigit(static_cast<unsigned char>(text[q])))
      ++q;
    if (q == p || q == end || text[q] != 'x')
      break;
    p = q + 1;
  }
  return p;
}

// The same for a word of `text`: `4xptr` is `ptr`.
std::string_view withoutDims(std::string_view text, std::string_view word) {
  auto b = static_cast<uint32_t>(word.data() - text.data());
  auto e = b + static_cast<uint32_t>(word.size());
  return text.substr(afterDims(text, b, e), e - afterDims(text, b, e));
}

bool isTypeName(std::string_view w) {
  const auto &names = cudaTileTypeNames();
  return std::find(names.begin(), names.end(), w) != names.end();
}

// A position inside one op statement (one line: ops start lines).
CompletionContext statementContext(std::string_view text, uint32_t line,
                                   uint32_t word, uint32_t cur) {
  CompletionContext cx;
  cx.begin = word;
  std::string_view stmt = trimmed(text.substr(line, word - line));
  if (atOpName(stmt)) {
    std::string_view typed = text.substr(word, cur - word);
    size_t dot = typed.rfind('.');
    if (dot != std::string_view::npos)
      cx.begin = word + static_cast<uint32_t>(dot) + 1;
    cx.what = CompletionContext::Op;
    return cx;
  }
  size_t open = openBracket(stmt);
  std::string_view beforeOpen =
      open == std::string_view::npos ? stmt : stmt.substr(0, open);
  if (open != std::string_view::npos && stmt[open] == '<') {
    std::string_view owner = withoutDims(text, lastWord(beforeOpen));
    if (owner.starts_with("!cuda_tile."))
      owner.remove_prefix(11);
    for (const char *kind : {"rnd", "ovf"})
      if (keywordSet(kind)->angle == owner)
        cx.keywords = keywordSet(kind);
    if (cx.keywords) {
      cx.what = CompletionContext::Angle;
    } else if (isTypeName(owner)) {
      cx.what = CompletionContext::Type;
      cx.typeName = owner;
      cx.begin = afterDims(text, word, cur);
    }
    return cx;
  }
  bool typeList = open == std::string_view::npos
                      ? inTypeList(stmt)
                      : stmt[open] == '(' && endsWithTypeIntro(beforeOpen);
  if (typeList || endsWithTypeIntro(stmt)) {
    cx.what = CompletionContext::Type;
    return cx;
  }
  if ((cx.op = opOfStatement(stmt)))
    cx.what = CompletionContext::Operands;
  return cx;
}

CompletionContext contextAt(std::string_view text, uint32_t lo, uint32_t line,
                            uint32_t word, uint32_t cur) {
  char before = word > lo ? text[word - 1] : '\n';
  CompletionContext cx;
  cx.begin = word;
  if (auto open = layoutBodyStart(text, lo, cur)) {
    cx.what = CompletionContext::Layout;
    cx.prefixTyped = before == '#';
    cx.begin = cx.prefixTyped ? word - 1 : word;
    cx.layoutOpen = *open;
    return cx;
  }
  if (inStringOrComment(text.substr(line, word - line)))
    return cx;
  // A prefix character (`%`, `@`, `#`) is part of what the items replace.
  cx.begin = word > lo ? word - 1 : word;
  switch (before) {
  case '%':
    cx.what = CompletionContext::Value;
    return cx;
  case '@':
    cx.what = CompletionContext::Symbol;
    return cx;
  case '#':
    cx.what = CompletionContext::Alias;
    return cx;
  case '!':
    cx.what = CompletionContext::BangType;
    cx.prefixTyped = text.substr(word, cur - word).starts_with("cuda_tile.");
    cx.begin = cx.prefixTyped ? word + 10 : word;
    return cx;
  default:
    return statementContext(text, line, word, cur);
  }
}

} // namespace

CompletionContext completionContextAt(std::string_view text,
                                      uint32_t chunkBegin, uint32_t cur) {
  uint32_t word = wordStart(text, chunkBegin, cur);
  uint32_t line = lineStart(text, chunkBegin, word);
  CompletionContext cx = contextAt(text, chunkBegin, line, word, cur);
  cx.line = line;
  return cx;
}

} // namespace tilesight::lsp
