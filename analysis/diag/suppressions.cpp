#include "analysis/diag/suppressions.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

#include "analysis/diag/codes.h"
#include "analysis/source/source_text.h"

namespace tilesight {

namespace {

constexpr std::string_view kMarker = "tilesight:";

struct ListedCode {
  std::string_view code;
  Range range;
  bool used = false;
};

struct Suppression {
  uint32_t line = 0;   // the line it silences (0-based)
  Range comment;       // from `//` to the end of the line
  bool all = false;    // `ignore` with no code
  bool usedAll = false;
  std::vector<ListedCode> codes;
};

bool isSpace(char c) { return c == ' ' || c == '\t'; }

size_t openerSize(CommentSyntax syntax) { return syntax == CommentSyntax::Python ? 1 : 2; }

// The offset of the `//` (Python: `#`) that starts a comment on [begin,
// end), skipping string literals (which may hold one; Python's may be quoted
// either way), or npos.
size_t commentStart(std::string_view text, size_t begin, size_t end, CommentSyntax syntax) {
  char quote = 0;  // the quote of the string we are in
  bool python = syntax == CommentSyntax::Python;
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || (python && c == '\'')) {
      quote = c;
    } else if (python ? c == '#' : (c == '/' && i + 1 < end && text[i + 1] == '/')) {
      return i;
    }
  }
  return std::string_view::npos;
}

// Parses `// tilesight: ignore [CODE[, CODE...]]` at `at`; false when the
// comment is something else.
bool parseComment(std::string_view text, size_t at, size_t end, Suppression& s, CommentSyntax syntax) {
  size_t i = at + openerSize(syntax);
  auto skipSpaces = [&] { while (i < end && isSpace(text[i])) ++i; };
  skipSpaces();
  if (text.substr(i, kMarker.size()) != kMarker) return false;
  i += kMarker.size();
  skipSpaces();
  if (text.substr(i, 6) != "ignore" || (i + 6 < end && !isSpace(text[i + 6]) && text[i + 6] != ',')) return false;
  i += 6;
  s.comment = {static_cast<uint32_t>(at), static_cast<uint32_t>(end)};
  while (true) {
    while (i < end && (isSpace(text[i]) || text[i] == ',')) ++i;
    if (i >= end) break;
    size_t b = i;
    while (i < end && !isSpace(text[i]) && text[i] != ',') ++i;
    s.codes.push_back({text.substr(b, i - b), {static_cast<uint32_t>(b), static_cast<uint32_t>(i)}});
  }
  s.all = s.codes.empty();
  return true;
}

std::vector<Suppression> findSuppressions(std::string_view text, CommentSyntax syntax) {
  std::vector<Suppression> out;
  uint32_t line = 0;
  for (size_t begin = utf8BomLength(text); begin <= text.size(); ++line) {
    size_t end = findLineEnd(text, begin);
    std::string_view lineText = text.substr(begin, end - begin);
    size_t at = lineText.find(kMarker) == std::string_view::npos ? std::string_view::npos
                                                                  : commentStart(text, begin, end, syntax);
    Suppression s;
    if (at != std::string_view::npos && parseComment(text, at, end, s, syntax)) {
      bool ownLine = std::all_of(text.begin() + begin, text.begin() + at, isSpace);
      s.line = line + (ownLine ? 1 : 0);
      out.push_back(std::move(s));
    }
    if (end == text.size()) break;
    begin = end + (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
  }
  return out;
}

Diagnostic unused(Range r, std::string message, Range removal) {
  Diagnostic d{r, Severity::Warning, "suppression.unused", std::move(message), {}, {}};
  d.fixes.push_back({"remove the unused suppression", {{removal, ""}}});
  return d;
}

std::string unusedMessage(const ListedCode& c) {
  return isCodeOrPrefix(c.code) ? "no `" + std::string(c.code) + "` diagnostic on this line to silence"
                                : "`" + std::string(c.code) + "` is no diagnostic code (see `tilesight explain`)";
}

// Removing one code of several also takes the comma that joins it to a neighbour.
Range codeCut(std::string_view text, const Suppression& s, const ListedCode& c) {
  Range cut = c.range;
  size_t after = text.find_first_not_of(" \t", cut.end);
  if (after < s.comment.end && text[after] == ',') {
    cut.end = std::min(static_cast<uint32_t>(text.find_first_not_of(" \t", after + 1)), s.comment.end);
  } else {
    size_t before = text.find_last_not_of(" \t", cut.begin - 1);
    if (before != std::string_view::npos && text[before] == ',') cut.begin = static_cast<uint32_t>(before);
  }
  return cut;
}

// The warnings for what silenced nothing: one for the whole comment when
// nothing of it was used (its fix removes the comment: removing its codes one
// by one would leave `ignore` alone, which silences everything), else one per
// unused code.
void reportUnused(std::string_view text, const Suppression& s, const std::function<bool(std::string_view)>& enabled,
                  std::vector<Diagnostic>& out) {
  uint32_t from = s.comment.begin;  // the whole comment, with the spaces before it
  while (from > 0 && isSpace(text[from - 1])) --from;
  Range whole{from, s.comment.end};
  // A comment on a line of its own goes with its line.
  if ((from == utf8BomLength(text) || isLineEnd(text[from - 1])) && whole.end < text.size())
    whole.end += text.substr(whole.end, 2) == "\r\n" ? 2 : 1;
  const char* nothing = "this suppression silences no diagnostic on its line";
  if (s.all) {
    if (!s.usedAll) out.push_back(unused(s.comment, nothing, whole));
    return;
  }
  std::vector<const ListedCode*> idle;
  for (const ListedCode& c : s.codes)
    if (!c.used && (!isCodeOrPrefix(c.code) || enabled(c.code))) idle.push_back(&c);
  if (idle.empty()) return;
  if (idle.size() == s.codes.size()) {
    std::string why = nothing;
    for (const ListedCode* c : idle)
      if (!isCodeOrPrefix(c->code)) why += "; " + unusedMessage(*c);
    out.push_back(unused(s.comment, why, whole));
    return;
  }
  for (const ListedCode* c : idle) out.push_back(unused(c->range, unusedMessage(*c), codeCut(text, s, *c)));
}

// Whether some `//` is followed on its line by the marker: a superset of
// the lines findSuppressions() accepts. '/' is rare in tile programs, so
// memchr's vector scan skips nearly all of a large file.
bool mayHoldSuppression(std::string_view text) {
  const char* p = text.data();
  const char* end = p + text.size();
  while ((p = static_cast<const char*>(std::memchr(p, '/', static_cast<size_t>(end - p))))) {
    if (p + 1 == end || p[1] != '/') {
      ++p;
      continue;
    }
    const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (!eol) eol = end;  // a "\r"-only file's lines run on: still a superset
    if (std::string_view(p, static_cast<size_t>(eol - p)).find(kMarker) != std::string_view::npos) return true;
    p = eol;
  }
  return false;
}

}  // namespace

void applySuppressions(std::string_view text, std::vector<Diagnostic>& diags,
                       const std::function<bool(std::string_view)>& enabled, bool judgeUse, CommentSyntax syntax) {
  bool may = syntax == CommentSyntax::Python ? text.find(kMarker) != std::string_view::npos : mayHoldSuppression(text);
  if (!may) return;  // the common case
  std::vector<Suppression> sups = findSuppressions(text, syntax);
  if (sups.empty()) return;
  // The line of each diagnostic: line starts, searched by offset.
  std::vector<uint32_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
      starts.push_back(static_cast<uint32_t>(i + 1));
  auto lineOf = [&](uint32_t off) {
    return static_cast<uint32_t>(std::upper_bound(starts.begin(), starts.end(), off) - starts.begin() - 1);
  };
  std::erase_if(diags, [&](const Diagnostic& d) {
    uint32_t line = lineOf(d.range.begin);
    bool silenced = false;
    for (Suppression& s : sups) {
      if (s.line != line) continue;
      if (s.all) silenced = s.usedAll = true;
      for (ListedCode& c : s.codes)
        if (codeMatches(d.code, c.code)) silenced = c.used = true;
    }
    return silenced;
  });
  if (!judgeUse || !enabled("suppression.unused")) return;
  std::vector<Diagnostic> extra;
  for (const Suppression& s : sups) reportUnused(text, s, enabled, extra);
  if (extra.empty()) return;
  size_t mid = diags.size();
  diags.insert(diags.end(), std::make_move_iterator(extra.begin()), std::make_move_iterator(extra.end()));
  std::inplace_merge(diags.begin(), diags.begin() + static_cast<long>(mid), diags.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.range.begin < b.range.begin; });
}

}  // namespace tilesight
