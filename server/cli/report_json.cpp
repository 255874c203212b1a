// The JSON report, built with nlohmann_json.
#include <nlohmann/json.hpp>

#include "server/cli/json_text.h"
#include "server/cli/report.h"

namespace tilesight::cli {

using json = nlohmann::json;

namespace {

struct Pos {
  uint32_t line, col;  // 1-based, col in UTF-8 bytes
};
Pos pos(const SourceText& s, uint32_t off) {
  LineCol lc = s.lineCol(off);
  return {lc.line + 1, lc.col + 1};
}

json editsJson(const SourceText& s, const Fix& f) {
  json edits = json::array();
  for (const TextEdit& e : f.edits) {
    Pos b = pos(s, e.range.begin), en = pos(s, e.range.end);
    edits.push_back({{"line", b.line}, {"column", b.col}, {"endLine", en.line}, {"endColumn", en.col}, {"newText", e.newText}});
  }
  return edits;
}

}  // namespace

json diagnosticsJson(const std::vector<FileReport>& reports) {
  json diags = json::array();
  for (const FileReport& r : reports) {
    const SourceText& s = *r.source;
    for (const Diagnostic& d : r.diagnostics) {
      Pos b = pos(s, d.range.begin), e = pos(s, d.range.end);
      json notes = json::array();
      for (const RelatedNote& n : d.notes) {
        Pos p = pos(s, n.range.begin);
        notes.push_back({{"line", p.line}, {"column", p.col}, {"message", n.message}});
      }
      json fixes = json::array();
      for (const Fix& f : d.fixes) fixes.push_back({{"title", f.title}, {"edits", editsJson(s, f)}});
      diags.push_back({{"file", r.path}, {"line", b.line}, {"column", b.col}, {"endLine", e.line},
                       {"endColumn", e.col}, {"severity", severityName(d.severity)}, {"code", d.code},
                       {"message", d.message}, {"notes", notes}, {"fixes", fixes}});
    }
  }
  return diags;
}

void printJson(llvm::raw_ostream& os, const std::vector<FileReport>& reports) {
  os << jsonText(json{{"diagnostics", diagnosticsJson(reports)}}, 2) << "\n";
}

}  // namespace tilesight::cli
