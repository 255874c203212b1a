#include "server/lsp/semantic_tokens.h"

#include <algorithm>
#include <charconv>

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

bool inside(Range r, uint32_t begin, uint32_t end) {
  return r.begin >= begin && r.end <= end;
}

// Tokens are gathered when they overlap the range and kept when they lie
// inside it once normalized (cut to one line).
bool overlaps(Range r, uint32_t begin, uint32_t end) {
  return r.end > begin && r.begin < end;
}

// The chunk's mentions overlapping [begin, end): they are sorted and
// disjoint, so a range request reads only its own.
void addMentions(const Snapshot &snap, const ChunkAnalysis &c, uint32_t begin,
                 uint32_t end, std::vector<Token> &out) {
  const Program &p = c.parsed.program;
  const std::vector<Mention> &ms = chunkMentions(snap, c);
  auto first = std::partition_point(ms.begin(), ms.end(), [&](const Mention &m) {
    return m.range.end <= begin;
  });
  for (auto it = first; it != ms.end() && it->range.begin < end; ++it) {
    const Mention &m = *it;
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
void addTypes(std::string_view text, const ChunkAnalysis &c, uint32_t begin,
              uint32_t end, std::vector<Token> &out) {
  for (const Occurrence &o : c.parsed.side.occurrences) {
    if (o.kind != Occurrence::TypeUse || !overlaps(o.range, begin, end))
      continue;
    std::string_view t =
        text.substr(o.range.begin, o.range.end - o.range.begin);
    auto head = static_cast<uint32_t>(std::min(t.find('<'), t.size()));
    if (head > 0)
      out.push_back({{o.range.begin, o.range.begin + head}, Type, 0});
  }
}

bool byStart(const Token &a, const Token &b) {
  return a.range.begin < b.range.begin;
}

// Calls emit(token) in order of start (stable: op names before mentions
// before types at one start), without overlaps, each cut to its first line.
// Each list is sorted on its own, then the three are merged as they are
// read (no merged copy: a big file has millions of tokens).
template <class Emit>
void mergeTokens(std::string_view text, std::vector<Token> &names,
                 const std::vector<Token> &mentions, std::vector<Token> &types,
                 Emit emit) {
  for (std::vector<Token> *ts : {&names, &types})
    if (!std::is_sorted(ts->begin(), ts->end(), byStart))
      std::stable_sort(ts->begin(), ts->end(), byStart);
  const std::vector<Token> *lists[] = {&names, &mentions, &types};
  size_t next[] = {0, 0, 0};
  uint32_t keptEnd = 0;
  bool any = false;
  for (;;) {
    int pick = -1; // the earliest start; on a tie the earlier list
    for (int l = 0; l < 3; ++l)
      if (next[l] < lists[l]->size() &&
          (pick < 0 || byStart((*lists[l])[next[l]], (*lists[pick])[next[pick]])))
        pick = l;
    if (pick < 0)
      return;
    Token t = (*lists[pick])[next[pick]++];
    if (any && t.range.begin < keptEnd)
      continue;
    size_t nl = text.substr(t.range.begin, t.range.end - t.range.begin)
                    .find_first_of("\r\n");
    if (nl != std::string_view::npos)
      t.range.end = t.range.begin + static_cast<uint32_t>(nl);
    if (t.range.end > t.range.begin) {
      any = true;
      keptEnd = t.range.end;
      emit(t);
    }
  }
}

void appendNumber(std::string &out, uint32_t v) {
  char buf[16];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void appendArray(std::string &out, const std::vector<uint32_t> &data) {
  out += '[';
  for (size_t i = 0; i < data.size(); ++i) {
    if (i)
      out += ',';
    appendNumber(out, data[i]);
  }
  out += ']';
}

RawJson tokensJson(const SemanticTokens &t) {
  std::string out;
  out.reserve(t.data.size() * 4 + 32);
  out += '{';
  if (!t.resultId.empty())
    out += "\"resultId\":" + json(t.resultId).dump() + ',';
  out += "\"data\":";
  appendArray(out, t.data);
  out += '}';
  return {std::move(out)};
}

RawJson deltaJson(const std::string &resultId,
                  const std::optional<SemanticTokensEdit> &edit) {
  std::string out = "{\"resultId\":" + json(resultId).dump() + ",\"edits\":[";
  if (edit) {
    out.reserve(out.size() + edit->data.size() * 4 + 64);
    out += "{\"start\":";
    appendNumber(out, edit->start);
    out += ",\"deleteCount\":";
    appendNumber(out, edit->deleteCount);
    out += ",\"data\":";
    appendArray(out, edit->data);
    out += '}';
  }
  out += "]}";
  return {std::move(out)};
}

// The full tokens, named by the version's analysis.
SemanticTokens fullTokens(const FeatureContext &cx) {
  SemanticTokens t = semanticTokens(cx.snap, cx.encoding, 0, cx.snap.source->size());
  t.resultId = std::to_string(cx.snap.analysisId);
  return t;
}

// The last result sent is the base of the next delta.
void remember(const FeatureContext &cx, SemanticTokens t) {
  if (cx.tokenHistory)
    cx.tokenHistory->remember(cx.snap.uri, std::move(t));
}

} // namespace

SemanticTokens semanticTokens(const Snapshot &snap, PositionEncoding e,
                              uint32_t begin, uint32_t end) {
  std::string_view text = snap.source->text();
  std::vector<Token> names, mentions, types;
  for (const ChunkAnalysis &c : snap.analysis.chunks) {
    if (c.chunk.end < begin || c.chunk.begin > end)
      continue;
    for (const Operation &op : c.parsed.program.ops)
      if (op.nameRange.end > op.nameRange.begin &&
          overlaps(op.nameRange, begin, end))
        names.push_back({op.nameRange, Keyword, 0});
    addMentions(snap, c, begin, end, mentions);
    addTypes(text, c, begin, end, types);
  }
  SemanticTokens out;
  out.data.reserve((names.size() + mentions.size() + types.size()) * 5);
  PositionCursor at(*snap.source, e);
  Position prev;
  mergeTokens(text, names, mentions, types, [&](const Token &t) {
    if (!inside(t.range, begin, end))
      return;
    Position b = at.at(t.range.begin);
    Position en = at.at(t.range.end);
    uint32_t line = b.line - prev.line;
    out.data.insert(out.data.end(),
                    {line, line == 0 ? b.character - prev.character : b.character,
                     en.character - b.character, t.type, t.modifiers});
    prev = b;
  });
  return out;
}

std::optional<SemanticTokensEdit> tokensEdit(const std::vector<uint32_t> &before,
                                             const std::vector<uint32_t> &after) {
  size_t prefix = 0, n = std::min(before.size(), after.size());
  while (prefix < n && before[prefix] == after[prefix])
    ++prefix;
  if (prefix == before.size() && prefix == after.size())
    return std::nullopt;
  size_t suffix = 0;
  while (suffix < n - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  SemanticTokensEdit edit;
  edit.start = static_cast<uint32_t>(prefix);
  edit.deleteCount = static_cast<uint32_t>(before.size() - prefix - suffix);
  edit.data.assign(after.begin() + static_cast<std::ptrdiff_t>(prefix),
                   after.end() - static_cast<std::ptrdiff_t>(suffix));
  return edit;
}

void SemanticTokensHistory::remember(const std::string &uri, SemanticTokens t) {
  auto kept = std::make_shared<const SemanticTokens>(std::move(t));
  std::lock_guard<std::mutex> lock(mu_);
  last_[uri] = std::move(kept);
}

std::shared_ptr<const SemanticTokens>
SemanticTokensHistory::find(const std::string &uri,
                            const std::string &resultId) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = last_.find(uri);
  if (it == last_.end() || it->second->resultId != resultId)
    return nullptr;
  return it->second;
}

void SemanticTokensHistory::forget(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mu_);
  last_.erase(uri);
}

json semanticTokensLegend() {
  return {{"tokenTypes",
           {"keyword", "function", "variable", "parameter", "type", "macro"}},
          {"tokenModifiers", {"declaration"}}};
}

FeatureResult semanticTokensFull(const FeatureContext &cx, const json &) {
  if (cx.tokenHistory) // not a delta's base any more: free it first
    cx.tokenHistory->forget(cx.snap.uri);
  SemanticTokens now = fullTokens(cx);
  RawJson out = tokensJson(now);
  remember(cx, std::move(now));
  return out;
}

// A client that kept the last result gets the one edit from it to this
// version; one that names another result gets the full tokens (LSP allows
// either answer).
FeatureResult semanticTokensDelta(const FeatureContext &cx, const json &params) {
  std::string previous = stringMember(params, "previousResultId");
  std::shared_ptr<const SemanticTokens> before =
      cx.tokenHistory ? cx.tokenHistory->find(cx.snap.uri, previous) : nullptr;
  SemanticTokens now = fullTokens(cx);
  RawJson out = before ? deltaJson(now.resultId, tokensEdit(before->data, now.data)) : tokensJson(now);
  before.reset();
  remember(cx, std::move(now));
  return out;
}

FeatureResult semanticTokensRange(const FeatureContext &cx, const json &params) {
  const json &range = member(params, "range");
  uint32_t begin = cx.offsetOf(member(range, "start")), end = cx.offsetOf(member(range, "end"));
  if (end < begin)
    throw RpcError(error_code::InvalidParams, "the range ends before it starts");
  return tokensJson(semanticTokens(cx.snap, cx.encoding, begin, end));
}

} // namespace tilesight::lsp
