// SARIF 2.1.0 as GitHub code scanning takes it: URIs relative to the source
// root under %SRCROOT%, columns in UTF-16 code units, notes linked from the
// message, fingerprints that survive re-uploads, each rule's help from
// docs/checks.md.
#include <cctype>
#include <map>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>
#include <nlohmann/json.hpp>

#include "analysis/diag/codes.h"
#include "server/cli/checks_doc.h"
#include "server/cli/json_text.h"
#include "server/cli/lint_config.h"
#include "server/cli/report.h"
#include "server/lsp/doc_links.h"

namespace tilesight::cli {

using json = nlohmann::json;

namespace {

constexpr const char* kSrcRoot = "%SRCROOT%";
constexpr const char* kStdinUri = "file:///dev/stdin";

// The folder URIs are relative to: the git work tree holding the current
// directory (what a CI checkout's root is), else the current directory.
std::string sourceRoot() {
  std::string cwd = absolutePath(".");
  for (llvm::StringRef dir = cwd; !dir.empty(); dir = llvm::sys::path::parent_path(dir)) {
    llvm::SmallString<256> git(dir);
    llvm::sys::path::append(git, ".git");
    if (llvm::sys::fs::exists(git)) return dir.str();
  }
  return cwd;
}

struct Artifacts {
  std::string root = sourceRoot();

  // {"uri", "uriBaseId"} of a reported path.
  json location(const std::string& path) const {
    if (path == "<stdin>") return {{"uri", kStdinUri}};
    std::string abs = absolutePath(path);
    llvm::StringRef rel(abs);
    if (rel.consume_front(root) && rel.consume_front("/"))
      return {{"uri", lsp::percentEncodePath(rel)}, {"uriBaseId", kSrcRoot}};
    return {{"uri", lsp::fileUri(abs)}};
  }
};

// 1-based line and UTF-16 column (the run's columnKind).
json region(const SourceText& s, Range r) {
  auto at = [&](uint32_t off) {
    LineCol lc = s.lineCol(std::min(off, s.size()));
    return std::pair<uint32_t, uint32_t>{lc.line + 1, s.utf16Col(lc) + 1};
  };
  auto [bl, bc] = at(r.begin);
  auto [el, ec] = at(std::max(r.end, r.begin));
  return {{"startLine", bl}, {"startColumn", bc}, {"endLine", el}, {"endColumn", ec}};
}

const char* level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    default: return "note";
  }
}

// SARIF §3.11.6: in a plain-text message that has embedded links, a literal
// '[', ']' or '\' is escaped with '\'.
std::string escapeText(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The rule's name, an identifier a person reads, distinct from its id (the
// validator compares them ignoring case): the title in PascalCase, "Two
// accesses race" -> "TwoAccessesRace".
std::string ruleName(std::string_view title) {
  std::string out;
  bool upper = true;
  for (char c : title) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

json rulesJson() {
  json rules = json::array();
  for (const CodeInfo& c : diagnosticCodes()) {
    std::optional<std::string_view> section = checkSection(c.id);
    std::string markdown = section ? std::string(*section) : "**" + std::string(c.title) + "**\n\n" + std::string(c.help);
    json rule = {{"id", c.id},
                 {"name", ruleName(c.title)},
                 {"shortDescription", {{"text", c.title}}},
                 {"fullDescription", {{"text", c.help}}},
                 {"help", {{"text", c.help}, {"markdown", markdown}}},
                 {"defaultConfiguration", {{"level", c.defaultError ? "error" : "warning"}}}};
    if (std::optional<std::string> uri = lsp::checkDocUrl(c.id)) rule["helpUri"] = *uri;
    rules.push_back(std::move(rule));
  }
  return rules;
}

json fixesJson(const json& artifact, const SourceText& s, const Diagnostic& d) {
  json fixes = json::array();
  for (const Fix& f : d.fixes) {
    json replacements = json::array();
    for (const TextEdit& e : f.edits)
      replacements.push_back({{"deletedRegion", region(s, e.range)}, {"insertedContent", {{"text", e.newText}}}});
    fixes.push_back({{"description", {{"text", f.title}}},
                     {"artifactChanges", json::array({{{"artifactLocation", artifact}, {"replacements", replacements}}})}});
  }
  return fixes;
}

// A stable identity for re-uploads: the rule, the file, the text of the line
// (not its number, which moves when lines are added above) and how many equal
// keys came before it in the file.
std::string fingerprint(const std::string& key, std::map<std::string, unsigned>& seen) {
  unsigned n = seen[key]++;
  return llvm::utohexstr(llvm::xxHash64(key + '\0' + std::to_string(n)), /*LowerCase=*/true);
}

json resultJson(const json& artifact, const SourceText& s, const Diagnostic& d, std::map<std::string, unsigned>& seen) {
  // Notes become related locations, linked from the message (GitHub shows
  // only those the message links).
  std::string text = escapeText(d.message);
  json related = json::array();
  for (size_t i = 0; i < d.notes.size(); ++i) {
    const RelatedNote& n = d.notes[i];
    int id = static_cast<int>(i) + 1;
    if (i == 0) text += text.ends_with('.') ? " See " : ". See ";
    else text += "; ";
    text += std::string("[") + escapeText(n.message) + "](" + std::to_string(id) + ")";
    related.push_back({{"id", id},
                       {"message", {{"text", n.message}}},
                       {"physicalLocation", {{"artifactLocation", artifact}, {"region", region(s, n.range)}}}});
  }
  if (!d.notes.empty()) text += ".";
  json res = {{"ruleId", d.code}, {"level", level(d.severity)}, {"message", {{"text", text}}},
              {"locations", json::array({{{"physicalLocation", {{"artifactLocation", artifact}, {"region", region(s, d.range)}}}}})}};
  const auto& codes = diagnosticCodes();
  for (size_t i = 0; i < codes.size(); ++i)
    if (codes[i].id == d.code) res["ruleIndex"] = i;
  if (!related.empty()) res["relatedLocations"] = related;
  if (!d.fixes.empty()) res["fixes"] = fixesJson(artifact, s, d);
  std::string_view line = s.lineText(s.lineCol(std::min(d.range.begin, s.size())).line);
  std::string key = d.code + '\0' + artifact["uri"].get<std::string>() + '\0' + llvm::StringRef(line.data(), line.size()).trim().str();
  res["partialFingerprints"] = {{"tilesight/v1", fingerprint(key, seen)}};
  return res;
}

}  // namespace

void printSarif(llvm::raw_ostream& os, const std::vector<FileReport>& reports, const std::vector<Unreadable>& unreadable) {
  Artifacts artifacts;
  json results = json::array();
  for (const FileReport& r : reports) {
    json artifact = artifacts.location(r.path);
    std::map<std::string, unsigned> seen;
    for (const Diagnostic& d : r.diagnostics) results.push_back(resultJson(artifact, *r.source, d, seen));
  }
  json notifications = json::array();
  for (const Unreadable& u : unreadable)
    notifications.push_back({{"level", "error"},
                             {"message", {{"text", "cannot read '" + u.path + "': " + u.why}}},
                             {"locations", json::array({{{"physicalLocation", {{"artifactLocation", artifacts.location(u.path)}}}}})}});
  json driver = {{"name", "tilesight"}, {"version", TILESIGHT_VERSION}, {"semanticVersion", TILESIGHT_VERSION},
                 {"rules", rulesJson()}};
  if (std::optional<std::string> guide = lsp::docUrl("user-guide.md")) driver["informationUri"] = *guide;
  json run = {{"tool", {{"driver", driver}}},
              {"originalUriBaseIds", {{kSrcRoot, {{"uri", lsp::fileUri(artifacts.root + "/")}}}}},
              {"columnKind", "utf16CodeUnits"},
              {"invocations", json::array({{{"executionSuccessful", unreadable.empty()},
                                            {"toolExecutionNotifications", notifications}}})},
              {"results", results}};
  json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"},
              {"runs", json::array({run})}};
  os << jsonText(log, 2) << "\n";
}

}  // namespace tilesight::cli
