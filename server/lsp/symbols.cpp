#include "server/lsp/symbols.h"

#include <cctype>

#include <algorithm>
#include <map>

namespace tilesight::lsp {

namespace {

std::string_view textOf(const Snapshot &s, Range r) {
  return s.source->text().substr(r.begin, r.end - r.begin);
}

// Whitespace runs as one space, the ends trimmed: a detail is one line.
std::string oneLine(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    out += c;
    space = false;
  }
  return out;
}


struct Entry {
  uint32_t begin; // for ordering the top level across chunks
  DocumentSymbol symbol;
};

// The symbols of one chunk. Ops are recognized by name, not OpInfo, because
// an op that failed to parse loses its info but keeps its name and region.
class ChunkOutline {
public:
  ChunkOutline(const Snapshot &snap, const ChunkAnalysis &c)
      : snap_(snap), chunk_(c) {
    for (const Occurrence &o : c.parsed.side.occurrences)
      if (o.kind == Occurrence::Symbol && o.isDef && o.op != kNoId)
        names_.try_emplace(o.op, o.range);
  }

  void collect(std::vector<Entry> &out) const {
    for (OpId id : chunk_.parsed.program.topLevel)
      if (std::optional<DocumentSymbol> s = opSymbol(id))
        out.push_back({chunk_.parsed.program.op(id).range.begin, std::move(*s)});
    for (const Occurrence &o : chunk_.parsed.side.occurrences)
      if (o.kind == Occurrence::Alias && o.isDef)
        out.push_back({o.range.begin, aliasSymbol(o.range)});
  }

private:
  std::optional<DocumentSymbol> opSymbol(OpId id) const {
    const Operation &op = chunk_.parsed.program.op(id);
    std::optional<OpKind> m = op.info ? std::optional<OpKind>(op.info->kind) : std::nullopt;
    auto name = names_.find(id);
    if ((op.info && op.info->kind == OpKind::Module) || op.name == "builtin.module") {
      Range sel = name != names_.end() ? name->second : op.nameRange;
      DocumentSymbol s = symbol(op, std::string(textOf(snap_, sel)), DocumentSymbol::Module, sel);
      s.children = children(op);
      return s;
    }
    if (name == names_.end())
      return std::nullopt;
    std::string text(textOf(snap_, name->second));
    if (m == OpKind::Entry || m == OpKind::TestingFunc)
      return symbol(op, text, DocumentSymbol::Function, name->second);
    if (m != OpKind::Global)
      return std::nullopt;
    DocumentSymbol s = symbol(op, text, DocumentSymbol::Variable, name->second);
    // The rest of the op: `<f32: [1.0, 2.0]> : tile<2xf32>`.
    Range rest{name->second.end, std::max(name->second.end, op.range.end)};
    s.detail = oneLine(textOf(snap_, rest));
    return s;
  }

  std::vector<DocumentSymbol> children(const Operation &op) const {
    std::vector<DocumentSymbol> out;
    for (const Region &r : op.regions)
      for (const Block &b : r.blocks)
        for (OpId id : b.ops)
          if (std::optional<DocumentSymbol> s = opSymbol(id))
            out.push_back(std::move(*s));
    return out;
  }

  // `range` covers the op and its name: clients reject a selection outside.
  DocumentSymbol symbol(const Operation &op, std::string name, DocumentSymbol::Kind kind,
                        Range sel) const {
    Range whole{std::min(op.range.begin, sel.begin),
                std::max(op.range.end, sel.end)};
    return {std::move(name), {}, kind, whole, sel, {}};
  }

  // `#name = value`: the value as parsed, or for type aliases and values
  // that did not parse, the rest of the line.
  DocumentSymbol aliasSymbol(Range name) const {
    std::optional<Range> value;
    for (const AliasDef &a : chunk_.parsed.aliases)
      if (a.nameRange.begin == name.begin)
        value = a.value.range;
    if (!value) {
      const SourceText &src = *snap_.source;
      std::string_view line = src.lineText(src.lineCol(name.begin).line);
      auto lineEnd =
          static_cast<uint32_t>(line.data() + line.size() - src.text().data());
      value = Range{name.end, std::max(name.end, lineEnd)};
      size_t eq = textOf(snap_, *value).find('=');
      if (eq != std::string_view::npos)
        value->begin += static_cast<uint32_t>(eq) + 1;
      value = trimmed(*value);
    }
    return {std::string(textOf(snap_, name)), oneLine(textOf(snap_, *value)), DocumentSymbol::Constant,
            {name.begin, std::max(name.end, value->end)}, name, {}};
  }

  Range trimmed(Range r) const {
    std::string_view t = textOf(snap_, r);
    size_t first = t.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
      return {r.begin, r.begin};
    size_t last = t.find_last_not_of(" \t\r\n");
    return {r.begin + static_cast<uint32_t>(first),
            r.begin + static_cast<uint32_t>(last) + 1};
  }

  const Snapshot &snap_;
  const ChunkAnalysis &chunk_;
  std::map<OpId, Range> names_; // symbol names by defining op
};

} // namespace

std::vector<DocumentSymbol> documentSymbolsOf(const Snapshot &snap) {
  std::vector<Entry> entries;
  for (const ChunkAnalysis &c : snap.analysis.chunks)
    ChunkOutline(snap, c).collect(entries);
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const Entry &a, const Entry &b) { return a.begin < b.begin; });
  std::vector<DocumentSymbol> out;
  for (Entry &e : entries)
    out.push_back(std::move(e.symbol));
  return out;
}

namespace {

json symbolJson(const FeatureContext &cx, const DocumentSymbol &s) {
  json j = {{"name", s.name}, {"kind", s.kind}, {"range", cx.range(s.range)}, {"selectionRange", cx.range(s.selection)}};
  if (s.kind == DocumentSymbol::Variable || s.kind == DocumentSymbol::Constant) // globals, aliases
    j["detail"] = s.detail;
  if (s.kind == DocumentSymbol::Module) {
    j["children"] = json::array();
    for (const DocumentSymbol &c : s.children)
      j["children"].push_back(symbolJson(cx, c));
  }
  return j;
}

bool matches(const std::string &name, const std::string &query) {
  size_t i = 0;
  for (char c : name)
    if (i < query.size() && std::tolower(static_cast<unsigned char>(c)) ==
                                std::tolower(static_cast<unsigned char>(query[i])))
      ++i;
  return i == query.size();
}

void flatten(const FeatureContext &cx, const std::vector<DocumentSymbol> &symbols, const std::string &container,
             const std::string &query, json &out) {
  for (const DocumentSymbol &s : symbols) {
    if (matches(s.name, query)) {
      json w = {{"name", s.name},
                {"kind", s.kind},
                {"location", {{"uri", cx.snap.uri}, {"range", cx.range(s.selection)}}}};
      if (!container.empty())
        w["containerName"] = container;
      out.push_back(std::move(w));
    }
    flatten(cx, s.children, s.name, query, out);
  }
}

} // namespace

json documentSymbols(const FeatureContext &cx, const json &) {
  json out = json::array();
  for (const DocumentSymbol &s : documentSymbolsOf(cx.snap))
    out.push_back(symbolJson(cx, s));
  return out;
}

void workspaceSymbols(const FeatureContext &cx, const std::string &query, json &out) {
  flatten(cx, documentSymbolsOf(cx.snap), "", query, out);
}

} // namespace tilesight::lsp
