#include "analysis/diag/expectations.h"

#include <cstdlib>
#include <regex>

namespace tilesight {

namespace {

Severity severityFrom(const std::string& s) {
  if (s == "warning") return Severity::Warning;
  if (s == "note") return Severity::Note;
  if (s == "remark") return Severity::Remark;
  return Severity::Error;
}

}  // namespace

std::vector<Expectation> parseExpectations(const SourceText& src, std::vector<Diagnostic>& problems) {
  // expected-<kind>[ ]@<where>[ ]{{text}}  with <where> = above|below|+N|-N|unknown, or none (this line).
  static const std::regex re(R"(expected-(error|warning|note|remark)(-re)?\s*(@(above|below|unknown|[+-][0-9]+))?\s*\{\{(.*)\}\})");
  std::vector<Expectation> out;
  std::vector<size_t> pendingBelow;  // @below binds to the next line without a designation
  for (uint32_t line = 0; line < src.lineCount(); ++line) {
    std::string_view text = src.lineText(line);
    size_t pos = text.find("expected-");
    if (pos == std::string_view::npos) {
      for (size_t i : pendingBelow) out[i].line = line;
      pendingBelow.clear();
      continue;
    }
    std::string s(text.substr(pos));
    std::smatch m;
    uint32_t lineStart = src.offsetOf({line, 0});
    Range where{lineStart + static_cast<uint32_t>(pos), lineStart + static_cast<uint32_t>(text.size())};
    if (!std::regex_search(s, m, re)) {
      problems.push_back({where, Severity::Error, "syntax", "malformed expected-* designation", {}, {}});
      continue;
    }
    Expectation e;
    e.severity = severityFrom(m[1]);
    e.substring = m[5];
    // `{{a}} {{b}}` is not MLIR syntax; the greedy match keeps nested braces such as {{'x', 'y'}}.
    e.comment = where;
    e.line = line;
    std::string at = m[4];
    if (at == "unknown") e.unknownLocation = true;
    else if (at == "above") e.line = line == 0 ? 0 : line - 1;
    else if (!at.empty() && at != "below") {
      long off = std::strtol(at.c_str(), nullptr, 10);
      e.line = static_cast<uint32_t>(std::max<long>(0, static_cast<long>(line) + off));
    }
    out.push_back(std::move(e));
    if (at == "below") pendingBelow.push_back(out.size() - 1);
  }
  return out;
}

ExpectationReport matchExpectations(const SourceText& src, const std::vector<Expectation>& expected,
                                    const std::vector<Diagnostic>& produced) {
  ExpectationReport report;
  std::vector<bool> used(expected.size(), false);
  auto take = [&](Severity sev, Range r, const std::string& msg) {
    uint32_t line = src.lineCol(r.begin).line;
    for (size_t i = 0; i < expected.size(); ++i) {
      const Expectation& e = expected[i];
      if (used[i] || e.severity != sev || e.unknownLocation || e.line != line) continue;
      if (msg.find(e.substring) == std::string::npos) continue;
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
