#include "analysis/diag/expectations.h"

#include <charconv>
#include <optional>
#include <unordered_map>

namespace tilesight {

namespace {

struct Designation {
  Severity severity = Severity::Error;
  std::string_view where;  // above, below, unknown, +N, -N or empty
  std::string_view text;   // between `{{` and the last `}}` of the line
};

bool take(std::string_view& s, std::string_view word) {
  if (!s.starts_with(word)) return false;
  s.remove_prefix(word.size());
  return true;
}

void skipSpaces(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
}

// `expected-<kind>[-re] [@<where>] {{text}}` at the start of `s` (after the
// `expected-`). A linear scan: a designation may be as long as the line.
std::optional<Designation> readDesignation(std::string_view s) {
  static constexpr std::pair<std::string_view, Severity> kKinds[] = {
      {"error", Severity::Error}, {"warning", Severity::Warning}, {"note", Severity::Note}, {"remark", Severity::Remark}};
  Designation d;
  bool kind = false;
  for (const auto& [word, sev] : kKinds)
    if (!kind && take(s, word)) kind = true, d.severity = sev;
  if (!kind) return std::nullopt;
  take(s, "-re");
  skipSpaces(s);
  if (take(s, "@")) {
    size_t n = 0;
    if (!s.empty() && (s[0] == '+' || s[0] == '-'))
      for (n = 1; n < s.size() && s[n] >= '0' && s[n] <= '9';) ++n;
    else
      while (n < s.size() && s[n] >= 'a' && s[n] <= 'z') ++n;
    d.where = s.substr(0, n);
    bool relative = n >= 2 && (s[0] == '+' || s[0] == '-');
    if (!relative && d.where != "above" && d.where != "below" && d.where != "unknown") return std::nullopt;
    s.remove_prefix(n);
  }
  skipSpaces(s);
  size_t close = s.rfind("}}");
  if (!take(s, "{{") || close == std::string_view::npos || close < 2) return std::nullopt;
  d.text = s.substr(0, close - 2);
  return d;
}

// The line `@+N` / `@-N` designates, clamped to the file's lines.
uint32_t relativeLine(uint32_t line, std::string_view where, uint32_t lineCount) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(where.data() + 1, where.data() + where.size(), n);
  if (ec == std::errc::result_out_of_range) n = UINT64_MAX;
  if (where[0] == '-') return n >= line ? 0 : line - static_cast<uint32_t>(n);
  return n >= lineCount - line ? lineCount - 1 : line + static_cast<uint32_t>(n);
}

}  // namespace

std::vector<Expectation> parseExpectations(const SourceText& src, std::vector<Diagnostic>& problems) {
  std::vector<Expectation> out;
  std::vector<size_t> pendingBelow;  // @below binds to the next line without a designation
  for (uint32_t line = 0; line < src.lineCount(); ++line) {
    std::string_view text = src.lineText(line);
    size_t first = text.find("expected-");
    if (first == std::string_view::npos) {
      for (size_t i : pendingBelow) out[i].line = line;
      pendingBelow.clear();
      continue;
    }
    uint32_t lineStart = src.offsetOf({line, 0});
    Range where{lineStart + static_cast<uint32_t>(first), lineStart + static_cast<uint32_t>(text.size())};
    std::optional<Designation> d;
    for (size_t pos = first; !d && pos != std::string_view::npos; pos = text.find("expected-", pos + 1))
      d = readDesignation(text.substr(pos + 9));
    if (!d) {
      problems.push_back({where, Severity::Error, "syntax", "malformed expected-* designation", {}, {}});
      continue;
    }
    Expectation e;
    e.severity = d->severity;
    // `{{a}} {{b}}` is not MLIR syntax; taking the text up to the last `}}`
    // keeps nested braces such as {{'x', 'y'}}.
    e.substring = std::string(d->text);
    e.comment = where;
    e.line = line;
    if (d->where == "unknown") e.unknownLocation = true;
    else if (d->where == "above") e.line = line == 0 ? 0 : line - 1;
    else if (!d->where.empty() && d->where != "below") e.line = relativeLine(line, d->where, src.lineCount());
    out.push_back(std::move(e));
    if (d->where == "below") pendingBelow.push_back(out.size() - 1);
  }
  return out;
}

ExpectationReport matchExpectations(const SourceText& src, const std::vector<Expectation>& expected,
                                    const std::vector<Diagnostic>& produced) {
  ExpectationReport report;
  std::vector<bool> used(expected.size(), false);
  // Expectations by line, so that matching costs what one line holds.
  std::unordered_map<uint32_t, std::vector<size_t>> byLine;
  for (size_t i = 0; i < expected.size(); ++i)
    if (!expected[i].unknownLocation) byLine[expected[i].line].push_back(i);
  auto take = [&](Severity sev, Range r, const std::string& msg) {
    auto it = byLine.find(src.lineCol(r.begin).line);
    if (it == byLine.end()) return false;
    for (size_t i : it->second) {
      const Expectation& e = expected[i];
      if (used[i] || e.severity != sev || msg.find(e.substring) == std::string::npos) continue;
      used[i] = true;
      return true;
    }
    return false;
  };
  for (const Diagnostic& d : produced) {
    if (!take(d.severity, d.range, d.message)) report.unexpected.push_back(d);
    for (const RelatedNote& n : d.notes)
      if (!take(Severity::Note, n.range, n.message))
        report.unexpected.push_back({n.range, Severity::Note, d.code, n.message, {}, {}});
  }
  for (size_t i = 0; i < expected.size(); ++i)
    if (!used[i]) report.missing.push_back(expected[i]);
  return report;
}

}  // namespace tilesight
