#include "server/lsp/semantic_tokens.h"

#include <algorithm>

#include "server/lsp/jsonrpc.h"
#include "server/lsp/mentions.h"

namespace tilesight::lsp {

namespace {

// Indices into the legend's tokenTypes. Op names are keywords; block labels
// have no standard token type (LSP 3.17) and are left to the grammar.
enum TokenType : uint32_t {
  Keyword,
  Function,
  Variable,
  Parameter,
  Type,
  Macro
};
constexpr uint32_t kDeclaration = 1; // bit 0 of tokenModifiers

struct Token {
  Range range;
  uint32_t type = Keyword;
  uint32_t modifiers = 0;
};

void addMentions(const Snapshot &snap, const ChunkAnalysis &c,
                 std::vector<Token> &out) {
  const Program &p = c.parsed.program;
  for (const Mention &m : chunkMentions(snap, c)) {
    uint32_t mods = m.isDef ? kDeclaration : 0;
    switch (m.key.kind) {
    case EntityKey::Value:
      out.push_back(
          {m.range, p.value(m.value).blockArg ? Parameter : Variable, mods});
      break;
    case EntityKey::Symbol:
      out.push_back({m.range, Function, mods});
      break;
    case EntityKey::Alias:
      out.push_back({m.range, Macro, mods});
      break;
    case EntityKey::Label:
      break;
    }
  }
}

// A written type is coloured by its head (`tile` of `tile<4xf32>`, `ptr`
// nested in it): the shape and numbers inside stay with the grammar, and
// nested types do not overlap.
void addTypes(std::string_view text, const ChunkAnalysis &c,
              std::vector<Token> &out) {
  for (const Occurrence &o : c.parsed.side.occurrences) {
    if (o.kind != Occurrence::TypeUse)
      continue;
    std::string_view t =
        text.substr(o.range.begin, o.range.end - o.range.begin);
    auto head = static_cast<uint32_t>(std::min(t.find('<'), t.size()));
    if (head > 0)
      out.push_back({{o.range.begin, o.range.begin + head}, Type, 0});
  }
}

// Sorted, not overlapping, each within one line.
std::vector<Token> normalized(std::string_view text, std::vector<Token> ts) {
  std::stable_sort(ts.begin(), ts.end(), [](const Token &a, const Token &b) {
    return a.range.begin < b.range.begin;
  });
  std::vector<Token> kept;
  for (Token t : ts) {
    if (!kept.empty() && t.range.begin < kept.back().range.end)
      continue;
    size_t nl = text.substr(t.range.begin, t.range.end - t.range.begin)
                    .find_first_of("\r\n");
    if (nl != std::string_view::npos)
      t.range.end = t.range.begin + static_cast<uint32_t>(nl);
    if (t.range.end > t.range.begin)
      kept.push_back(t);
  }
  return kept;
}

// The tokens of the chunks that overlap [begin, end), those inside it,
// encoded as LSP's relative integers.
json tokensIn(const FeatureContext &cx, uint32_t begin, uint32_t end) {
  std::string_view text = cx.snap.source->text();
  std::vector<Token> tokens;
  for (const ChunkAnalysis &c : cx.snap.analysis.chunks) {
    if (c.chunk.end < begin || c.chunk.begin > end)
      continue;
    for (const Operation &op : c.parsed.program.ops)
      if (op.nameRange.end > op.nameRange.begin)
        tokens.push_back({op.nameRange, Keyword, 0});
    addMentions(cx.snap, c, tokens);
    addTypes(text, c, tokens);
  }
  // Each token: line delta, start delta (from the previous token's start on
  // the same line), length, type, modifiers; columns in the encoding.
  std::vector<uint32_t> data;
  data.reserve(tokens.size() * 5);
  Position prev;
  for (const Token &t : normalized(text, std::move(tokens))) {
    if (t.range.begin < begin || t.range.end > end)
      continue;
    Position b = toPosition(*cx.snap.source, t.range.begin, cx.encoding);
    Position e = toPosition(*cx.snap.source, t.range.end, cx.encoding);
    uint32_t line = b.line - prev.line;
    data.insert(data.end(),
                {line, line == 0 ? b.character - prev.character : b.character,
                 e.character - b.character, t.type, t.modifiers});
    prev = b;
  }
  return {{"data", std::move(data)}};
}

} // namespace

json semanticTokensLegend() {
  return {{"tokenTypes",
           {"keyword", "function", "variable", "parameter", "type", "macro"}},
          {"tokenModifiers", {"declaration"}}};
}

json semanticTokensFull(const FeatureContext &cx, const json &) {
  return tokensIn(cx, 0, cx.snap.source->size());
}

json semanticTokensRange(const FeatureContext &cx, const json &params) {
  const json &range = member(params, "range");
  uint32_t begin = cx.offsetOf(member(range, "start")), end = cx.offsetOf(member(range, "end"));
  if (end < begin)
    throw RpcError(error_code::InvalidParams, "the range ends before it starts");
  return tokensIn(cx, begin, end);
}

} // namespace tilesight::lsp
