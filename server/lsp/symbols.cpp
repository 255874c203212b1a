#include "server/lsp/symbols.h"

#include <cctype>

#include <algorithm>
#include <map>

namespace tilesight::lsp {

namespace {

// LSP SymbolKind.
constexpr int kModule = 2, kFunction = 12, kVariable = 13, kConstant = 14;

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
  json symbol;
};

// The symbols of one chunk. Ops are recognized by name, not OpInfo, because
// an op that failed to parse loses its info but keeps its name and region.
class ChunkOutline {
public:
  ChunkOutline(const FeatureContext &cx, const ChunkAnalysis &c)
      : cx_(cx), chunk_(c) {
    for (const Occurrence &o : c.parsed.side.occurrences)
      if (o.kind == Occurrence::Symbol && o.isDef && o.op != kNoId)
        names_.try_emplace(o.op, o.range);
  }

  void collect(std::vector<Entry> &out) const {
    for (OpId id : chunk_.parsed.program.topLevel)
      if (std::optional<json> s = opSymbol(id))
        out.push_back({chunk_.parsed.program.op(id).range.begin, *s});
    for (const Occurrence &o : chunk_.parsed.side.occurrences)
      if (o.kind == Occurrence::Alias && o.isDef)
        out.push_back({o.range.begin, aliasSymbol(o.range)});
  }

private:
  std::optional<json> opSymbol(OpId id) const {
    const Operation &op = chunk_.parsed.program.op(id);
    std::optional<OpKind> m = op.info ? std::optional<OpKind>(op.info->kind) : std::nullopt;
    auto name = names_.find(id);
    if ((op.info && op.info->kind == OpKind::Module) || op.name == "builtin.module") {
      Range sel = name != names_.end() ? name->second : op.nameRange;
      json s = symbol(op, std::string(textOf(cx_.snap, sel)), kModule, sel);
      s["children"] = children(op);
      return s;
    }
    if (name == names_.end())
      return std::nullopt;
    std::string text(textOf(cx_.snap, name->second));
    if (m == OpKind::Entry || m == OpKind::TestingFunc)
      return symbol(op, text, kFunction, name->second);
    if (m != OpKind::Global)
      return std::nullopt;
    json s = symbol(op, text, kVariable, name->second);
    // The rest of the op: `<f32: [1.0, 2.0]> : tile<2xf32>`.
    Range rest{name->second.end, std::max(name->second.end, op.range.end)};
    s["detail"] = oneLine(textOf(cx_.snap, rest));
    return s;
  }

  json children(const Operation &op) const {
    json out = json::array();
    for (const Region &r : op.regions)
      for (const Block &b : r.blocks)
        for (OpId id : b.ops)
          if (std::optional<json> s = opSymbol(id))
            out.push_back(std::move(*s));
    return out;
  }

  // `range` covers the op and its name: clients reject a selection outside.
  json symbol(const Operation &op, std::string name, int kind,
              Range sel) const {
    Range whole{std::min(op.range.begin, sel.begin),
                std::max(op.range.end, sel.end)};
    return {{"name", std::move(name)},
            {"kind", kind},
            {"range", cx_.range(whole)},
            {"selectionRange", cx_.range(sel)}};
  }

  // `#name = value`: the value as parsed, or for type aliases and values
  // that did not parse, the rest of the line.
  json aliasSymbol(Range name) const {
    std::optional<Range> value;
    for (const AliasDef &a : chunk_.parsed.aliases)
      if (a.nameRange.begin == name.begin)
        value = a.value.range;
    if (!value) {
      const SourceText &src = *cx_.snap.source;
      std::string_view line = src.lineText(src.lineCol(name.begin).line);
      auto lineEnd =
          static_cast<uint32_t>(line.data() + line.size() - src.text().data());
      value = Range{name.end, std::max(name.end, lineEnd)};
      size_t eq = textOf(cx_.snap, *value).find('=');
      if (eq != std::string_view::npos)
        value->begin += static_cast<uint32_t>(eq) + 1;
      value = trimmed(*value);
    }
    return {{"name", std::string(textOf(cx_.snap, name))},
            {"detail", oneLine(textOf(cx_.snap, *value))},
            {"kind", kConstant},
            {"range", cx_.range({name.begin, std::max(name.end, value->end)})},
            {"selectionRange", cx_.range(name)}};
  }

  Range trimmed(Range r) const {
    std::string_view t = textOf(cx_.snap, r);
    size_t first = t.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
      return {r.begin, r.begin};
    size_t last = t.find_last_not_of(" \t\r\n");
    return {r.begin + static_cast<uint32_t>(first),
            r.begin + static_cast<uint32_t>(last) + 1};
  }

  const FeatureContext &cx_;
  const ChunkAnalysis &chunk_;
  std::map<OpId, Range> names_; // symbol names by defining op
};

} // namespace

json documentSymbols(const FeatureContext &cx, const json &) {
  std::vector<Entry> entries;
  for (const ChunkAnalysis &c : cx.snap.analysis.chunks)
    ChunkOutline(cx, c).collect(entries);
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const Entry &a, const Entry &b) { return a.begin < b.begin; });
  json out = json::array();
  for (Entry &e : entries)
    out.push_back(std::move(e.symbol));
  return out;
}

namespace {

bool matches(const std::string &name, const std::string &query) {
  size_t i = 0;
  for (char c : name)
    if (i < query.size() && std::tolower(static_cast<unsigned char>(c)) ==
                                std::tolower(static_cast<unsigned char>(query[i])))
      ++i;
  return i == query.size();
}

void flatten(const FeatureContext &cx, const json &symbols, const std::string &container,
             const std::string &query, json &out) {
  for (const json &s : symbols) {
    std::string name = s.value("name", "");
    if (matches(name, query)) {
      json w = {{"name", name},
                {"kind", s["kind"]},
                {"location", {{"uri", cx.snap.uri}, {"range", s["selectionRange"]}}}};
      if (!container.empty())
        w["containerName"] = container;
      out.push_back(std::move(w));
    }
    if (s.contains("children"))
      flatten(cx, s["children"], name, query, out);
  }
}

} // namespace

void workspaceSymbols(const FeatureContext &cx, const std::string &query, json &out) {
  flatten(cx, documentSymbols(cx, json::object()), "", query, out);
}

} // namespace tilesight::lsp
