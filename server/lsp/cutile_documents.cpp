#include "server/lsp/cutile_documents.h"

#include <llvm/ADT/StringRef.h>

#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/source_map.h"
#include "analysis/checks/checks.h"
#include "analysis/checks/ir_query.h"
#include "analysis/checks/value_facts.h"
#include "server/lsp/bytecode_documents.h"
#include "server/lsp/bytecode_reports.h"
#include "server/lsp/hover_types.h"

namespace tilesight::lsp {

namespace {

// A launch's text form, analysed with its launch: a snapshot of its own (no
// document: its URI is for logs only).
CutileLaunchView launchView(const CutileLaunch &l, const CheckOptions &settingsChecks) {
  CutileLaunchView v{l, nullptr, nullptr};
  auto decoded = std::make_shared<bytecode::Decoded>(
      bytecode::readBytecode(l.bytecode, true, bytecode::parameterNames(l.launch)));
  v.decoded = decoded;
  if (!decoded->ok())
    return v;
  CheckOptions checks = settingsChecks;
  bytecode::applyLaunch(l.launch, checks, false);
  checks = namedPlaces(*decoded, checks);
  v.text = analyzeDocument("tilesight-cutile:" + l.kernel + "@" + std::to_string(l.line), 0,
                           std::make_shared<SourceText>(decoded->text), checks);
  return v;
}

// The launch's diagnostics at the document's lines, each with a note on
// its directive; what lands in another file (an imported helper) is said
// at the directive.
void addLaunchDiagnostics(const CutileLaunchView &v, const std::string &path, const SourceText &text,
                          std::vector<Diagnostic> &out) {
  uint32_t directive = text.offsetOf({v.launch.line ? v.launch.line - 1 : 0, 0});
  Range at{directive, static_cast<uint32_t>(directive + text.lineText(text.lineCol(directive).line).size())};
  if (!v.decoded->ok()) {
    for (const Diagnostic &d : v.decoded->diagnostics)
      out.push_back({at, Severity::Error, "syntax", "the bytecode cuTile wrote for this launch does not decode: " +
                                                          d.message, {}, {}});
    return;
  }
  std::vector<std::unique_ptr<SourceText>> sources;
  OpenTexts open{{path, std::string(text.text())}};
  for (FileReport &r : pythonReports(path, *v.decoded, v.text->analysis.chunks.at(0).parsed.program,
                                     v.text->analysis.diagnostics, sources, &open)) {
    for (Diagnostic &d : r.diagnostics) {
      if (r.path != path) {  // elsewhere: said at the directive, with where
        LineCol lc = r.source->lineCol(d.range.begin);
        d.message += " (in " + r.path + ":" + std::to_string(lc.line + 1) + ")";
        d.range = at;
        d.notes.clear();
      }
      d.notes.push_back({Range{directive, directive}, "for " + launchTitle(v.launch)});
      out.push_back(std::move(d));
    }
  }
}

// The first directive's line, for a problem that concerns the whole file.
Range firstDirective(const SourceText &text) {
  for (uint32_t line = 0; line < text.lineCount(); ++line)
    if (hasLaunchDirective(text.lineText(line))) {
      uint32_t b = text.offsetOf({line, 0});
      return {b, b + static_cast<uint32_t>(text.lineText(line).size())};
    }
  return {0, 0};
}

bool viewAccess(const Operation &op) {
  if (!op.info)
    return false;
  OpKind k = op.info->kind;
  return k == OpKind::LoadViewTko || k == OpKind::StoreViewTko || k == OpKind::AtomicRedViewTko;
}

// Whether the op's location, or one of its call sites, is line `line`
// (1-based) of `path`.
bool locatedAt(const bytecode::OpLocation &loc, const std::string &path, uint32_t line) {
  if (loc.at.file == path && loc.at.line == line)
    return true;
  for (const bytecode::SourceLoc &c : loc.callers)
    if (c.file == path && c.line == line)
      return true;
  return false;
}

// The hover of every view access of one launch at `line`.
std::string launchHover(const CutileLaunchView &v, const std::string &path, uint32_t line) {
  if (!v.text || v.text->analysis.chunks.empty())
    return "";
  const Program &p = v.text->analysis.chunks[0].parsed.program;
  std::unique_ptr<ValueFacts> facts;
  std::string md;
  for (OpId id = 0; id < p.ops.size(); ++id) {
    const Operation &op = p.op(id);
    const bytecode::OpLocation *loc = viewAccess(op) ? bytecode::locationAt(*v.decoded, p, op.nameRange.begin) : nullptr;
    if (!loc || !locatedAt(*loc, path, line))
      continue;
    ValueId view = operandValue(op, "view");
    TypeRef type = p.typeOf(view);
    if (!type)
      continue;
    if (!facts) {
      facts = std::make_unique<ValueFacts>(p, v.text->checks);
      for (const CheckUnit &u : checkUnits(p))
        facts->build(u.op, u.end);
    }
    const std::optional<views::IndexSpace> &space = facts->indexSpace(view);
    md += "\n\n---\n\n**" + std::string(op.info->name) + "**";
    md += space ? "\n\n" + launchViewHover(*type, *space, facts->tensorStrides(view)) : "\n\n`" + type->text + "`";
  }
  return md.empty() ? "" : "**" + launchTitle(v.launch) + "**" + md;
}

} // namespace

bool isPythonDocument(const std::string &uri) { return isPythonPath(uri); }

std::shared_ptr<const Snapshot> pythonSnapshot(const std::string &uri, int64_t version,
                                               std::shared_ptr<const SourceText> text, uint64_t analysisId,
                                               std::shared_ptr<const CutileAnalysis> cutile) {
  auto snap = std::make_shared<Snapshot>();
  snap->uri = uri;
  snap->version = version;
  snap->analysisId = analysisId;
  snap->source = std::move(text);
  snap->python = true;
  if (cutile)
    snap->analysis.diagnostics = cutile->diagnostics;
  snap->cutile = std::move(cutile);
  return snap;
}

std::shared_ptr<const CutileAnalysis> analyzeCutile(const CutileCompiled &c, const std::string &path,
                                                    const SourceText &text, const CheckOptions &checks) {
  auto out = std::make_shared<CutileAnalysis>();
  if (!c.problem.empty()) {
    out->diagnostics.push_back({firstDirective(text), Severity::Warning, "cutile.unavailable",
                                "tilesight cannot compile this file's launches: " + c.problem, {}, {}});
    return out;
  }
  for (const CutileMessage &m : c.messages) {
    Diagnostic d = cutileDiagnostic(text, m);
    if (!m.file.empty() && m.file != path) {  // in an imported file: said at the directive
      d.message += " (in " + m.file + ":" + std::to_string(m.line) + ")";
      d.range = firstDirective(text);
    }
    out->diagnostics.push_back(std::move(d));
  }
  for (const CutileLaunch &l : c.launches) {
    out->launches.push_back(launchView(l, checks));
    addLaunchDiagnostics(out->launches.back(), path, text, out->diagnostics);
  }
  finishCutileDiagnostics(text.text(), out->diagnostics, checks);
  return out;
}

json cutileHover(const FeatureContext &cx, const json &params) {
  const Snapshot &snap = cx.snap;
  if (!snap.cutile)
    return nullptr;
  std::optional<std::string> path = localPathOfUri(snap.uri);
  uint32_t offset = cx.offsetOf(member(params, "position"));
  uint32_t line = snap.source->lineCol(offset).line;
  std::string md;
  for (const CutileLaunchView &v : snap.cutile->launches)
    if (std::string h = launchHover(v, path.value_or(""), line + 1); !h.empty())
      md += (md.empty() ? "" : "\n\n---\n\n") + h;
  if (md.empty())
    return nullptr;
  uint32_t begin = snap.source->offsetOf({line, 0});
  Range r{begin, static_cast<uint32_t>(begin + snap.source->lineText(line).size())};
  return {{"contents", cx.markup(md, cx.client.markdownHover)}, {"range", cx.range(r)}};
}

json cutileCodeLenses(const FeatureContext &cx) {
  json out = json::array();
  const SourceText &text = *cx.snap.source;
  for (uint32_t line = 0; line < text.lineCount(); ++line) {
    if (!hasLaunchDirective(text.lineText(line)))
      continue;
    uint32_t at = text.offsetOf({line, 0});
    json range = rangeJson(text, {at, at}, cx.encoding);
    auto lens = [&](const std::string &title, bool sanitize) {
      json args = {{"uri", cx.snap.uri}, {"line", line + 1}, {"device", "cpu"}, {"sanitize", sanitize}};
      out.push_back({{"range", range},
                     {"command", {{"title", title}, {"command", "tilesight.run"}, {"arguments", json::array({args})}}}});
    };
    lens("▶ Run on cpu", false);
    lens("Sanitize", true);
  }
  return out;
}

} // namespace tilesight::lsp
