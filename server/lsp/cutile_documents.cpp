#include "server/lsp/cutile_documents.h"

#include <llvm/ADT/StringRef.h>

#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/source_map.h"
#include "analysis/checks/checks.h"
#include "analysis/ir/ir_query.h"
#include "analysis/checks/value_facts.h"
#include "analysis/ir/op_accessors.h"
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

bool viewAccess(const Operation &op) { return op.info && isViewAccess(op.info->kind); }

// The pointer operand of an access through a tile of pointers (ct.gather,
// ct.scatter, the atomics), kNoId for any other op.
ValueId pointerOperand(const Operation &op) {
  if (!op.info || isViewAccess(op.info->kind) || !(op.info->traits & (kReadsMemory | kWritesMemory)))
    return kNoId;
  return valueAt(memoryPointers(op), 0);
}

// "base + 1*k" (rank 1), "base + 32*i + 1*j" (rank 2): the offset of a
// lane from its index, as the strides give it.
std::string laneOffset(const TileFact &f) {
  static const char *names[] = {"i", "j", "k", "l"};
  std::string lane, sum = "base";
  for (size_t d = 0; d < f.strides.size(); ++d) {
    std::string n = f.strides.size() == 1 ? "k" : d < 4 ? names[d] : "k" + std::to_string(d);
    lane += (lane.empty() ? "" : ", ") + n;
    sum += " + " + std::to_string(*f.strides[d]) + "*" + n;
  }
  return "lane " + (f.strides.size() == 1 ? lane : "(" + lane + ")") + " at element offset " + sum;
}

// The elements the launch's array `name` (`%x`) holds, if it is one.
std::optional<int64_t> arrayElements(const bytecode::Launch &launch, std::string_view name) {
  for (const bytecode::LaunchArg &a : launch.args)
    if (a.kind == bytecode::LaunchArg::Array && "%" + a.param == name) {
      int64_t n = 1;
      for (int64_t s : a.shape)
        n *= s;
      return n;
    }
  return std::nullopt;
}

// What a tile of pointers reaches in this launch: the array, and the
// element offsets its lanes hold (their affine form and range), as the
// checks' facts know them.
std::string pointerHover(const Program &p, const ValueFacts &facts, ValueId ptrs, OpId user,
                         const bytecode::Launch &launch) {
  const TileFact *f = facts.tileAt(ptrs, user);
  TypeRef type = p.typeOf(ptrs);
  std::string md = "`" + (type ? type->text : std::string("?")) + "`";
  if (!f || !f->pointer || f->root == kNoId)
    return md + "\n\nwhere these pointers point is not known to the checks (computed from values they do "
                "not follow, such as loaded ones)";
  const Value &root = p.value(f->root);
  md += "\n\npointers into `" + (root.name.empty() ? std::string("an array") : std::string(root.name)) + "`";
  if (std::optional<int64_t> n = arrayElements(launch, root.name))
    md += " (" + std::to_string(*n) + " elements in this launch)";
  if (f->affine())
    md += ": " + laneOffset(*f) + ", base " + ValueFacts::rangeText(f->base);
  if (std::optional<Interval> r = f->range())
    md += "\n\nthe lanes reach element offsets " + std::to_string(r->lo) + " to " + std::to_string(r->hi) +
          " (masked lanes included)";
  return md;
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
    ValueId ptrs = pointerOperand(op);
    bool view = viewAccess(op);
    const bytecode::OpLocation *loc =
        view || ptrs != kNoId ? bytecode::locationAt(*v.decoded, p, op.nameRange.begin) : nullptr;
    if (!loc || !locatedAt(*loc, path, line))
      continue;
    if (!facts) {
      facts = std::make_unique<ValueFacts>(p, v.text->checks);
      for (const CheckUnit &u : checkUnits(p))
        facts->build(u.op, u.end);
    }
    md += "\n\n---\n\n**" + std::string(op.info->name) + "**\n\n";
    if (ptrs != kNoId) {
      md += pointerHover(p, *facts, ptrs, id, v.launch.launch);
      continue;
    }
    ValueId viewValue = operands::view(op);
    TypeRef type = p.typeOf(viewValue);
    const std::optional<views::IndexSpace> &space = facts->indexSpace(viewValue);
    md += space && type ? launchViewHover(*type, *space, facts->tensorStrides(viewValue))
                        : "`" + (type ? type->text : std::string("?")) + "`";
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

json cutileCodeLenses(const FeatureContext &cx, const json &) {
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
