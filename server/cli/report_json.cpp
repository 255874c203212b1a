// JSON and SARIF 2.1.0 reports, built with nlohmann_json.
#include <nlohmann/json.hpp>

#include "analysis/diag/codes.h"
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

const char* sarifLevel(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    default: return "note";
  }
}

json region(const SourceText& s, Range r) {
  Pos b = pos(s, r.begin), e = pos(s, std::max(r.end, r.begin));
  return {{"startLine", b.line}, {"startColumn", b.col}, {"endLine", e.line}, {"endColumn", e.col}};
}

json physical(const std::string& uri, const SourceText& s, Range r) {
  return {{"physicalLocation", {{"artifactLocation", {{"uri", uri}}}, {"region", region(s, r)}}}};
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

void printSarif(llvm::raw_ostream& os, const std::vector<FileReport>& reports) {
  json rules = json::array();
  for (const CodeInfo& c : diagnosticCodes())
    rules.push_back({{"id", c.id},
                     {"name", c.id},
                     {"shortDescription", {{"text", c.title}}},
                     {"fullDescription", {{"text", c.help}}},
                     {"help", {{"text", c.help}, {"markdown", "**" + std::string(c.title) + "**\n\n" + std::string(c.help)}}},
                     {"defaultConfiguration", {{"level", c.defaultError ? "error" : "warning"}}}});
  json results = json::array();
  for (const FileReport& r : reports) {
    const SourceText& s = *r.source;
    for (const Diagnostic& d : r.diagnostics) {
      json res = {{"ruleId", d.code}, {"level", sarifLevel(d.severity)}, {"message", {{"text", d.message}}},
                  {"locations", json::array({physical(r.path, s, d.range)})}};
      const auto& codes = diagnosticCodes();
      for (size_t i = 0; i < codes.size(); ++i)
        if (codes[i].id == d.code) res["ruleIndex"] = i;
      if (!d.notes.empty()) {
        json related = json::array();
        int id = 1;
        for (const RelatedNote& n : d.notes) {
          json loc = physical(r.path, s, n.range);
          loc["id"] = id++;
          loc["message"] = {{"text", n.message}};
          related.push_back(loc);
        }
        res["relatedLocations"] = related;
      }
      if (!d.fixes.empty()) {
        json fixes = json::array();
        for (const Fix& f : d.fixes) {
          json replacements = json::array();
          for (const TextEdit& e : f.edits)
            replacements.push_back({{"deletedRegion", region(s, e.range)}, {"insertedContent", {{"text", e.newText}}}});
          fixes.push_back({{"description", {{"text", f.title}}},
                           {"artifactChanges", json::array({{{"artifactLocation", {{"uri", r.path}}},
                                                             {"replacements", replacements}}})}});
        }
        res["fixes"] = fixes;
      }
      results.push_back(res);
    }
  }
  json driver = {{"name", "tilesight"}, {"version", "0.1.0"}, {"semanticVersion", "0.1.0"},
                 {"rules", rules}};
  json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  os << jsonText(log, 2) << "\n";
}

}  // namespace tilesight::cli
