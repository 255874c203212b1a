#include "server/lsp/semantic_tokens.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <type_traits>

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

// A token's length in the encoding's units (a token lies on one line).
uint32_t length(std::string_view token, PositionEncoding e) {
  if (e == PositionEncoding::Utf8)
    return static_cast<uint32_t>(token.size());
  uint32_t units = 0;
  for (char c : token) {
    auto u = static_cast<unsigned char>(c);
    if ((u & 0xC0) != 0x80) // a lead byte: 2 units beyond the BMP
      units += u >= 0xF0 ? 2 : 1;
  }
  return units;
}

bool inside(Range r, uint32_t begin, uint32_t end) {
  return r.begin >= begin && r.end <= end;
}

// A sorted source of tokens: its entries overlapping [begin, end), each as
// a token (none for the entries that are not coloured).
template <class Entry, class ToToken> class TokenSource {
public:
  TokenSource(const std::vector<Entry> &entries, uint32_t begin, uint32_t end, ToToken toToken)
      : entries_(entries), end_(end), toToken_(toToken) {
    next_ = static_cast<size_t>(std::partition_point(entries.begin(), entries.end(),
                                                     [&](const Entry &e) { return rangeOf(e).end <= begin; }) -
                                entries.begin());
    settle();
  }
  const Token *head() const { return head_ ? &*head_ : nullptr; }
  void pop() {
    ++next_;
    settle();
  }

private:
  static Range rangeOf(const Entry &e) {
    if constexpr (std::is_same_v<Entry, Range>)
      return e;
    else
      return e.range;
  }
  // The next entry that is a token and starts before the range's end.
  void settle() {
    head_.reset();
    for (; next_ < entries_.size() && rangeOf(entries_[next_]).begin < end_; ++next_)
      if ((head_ = toToken_(entries_[next_])))
        return;
  }
  const std::vector<Entry> &entries_;
  uint32_t end_;
  ToToken toToken_;
  size_t next_ = 0;
  std::optional<Token> head_;
};

std::optional<Token> mentionToken(const Program &p, const Mention &m) {
  uint32_t mods = m.isDef ? kDeclaration : 0;
  switch (m.key.kind) {
  case EntityKey::Value:
    return Token{m.range, p.value(m.value).blockArg ? Parameter : Variable, mods};
  case EntityKey::Symbol:
    return Token{m.range, Function, mods};
  case EntityKey::Alias:
    return Token{m.range, Macro, mods};
  case EntityKey::Label:
    break;
  }
  return std::nullopt;
}

struct TokenLists {
  const std::vector<Range> &opNames;
  const std::vector<Mention> &mentions;
  const std::vector<Range> &typeHeads;
};

// Calls emit(token) for a chunk's tokens overlapping [begin, end) in order
// of start (op names before mentions before type heads at one start),
// without overlaps, each cut to its first line. The three sorted sources of
// the snapshot's index are merged as they are read: a range reads only its
// own, and a big file's millions of tokens are never copied.
template <class Emit>
void chunkTokens(std::string_view text, const Program &p, const TokenLists &lists, uint32_t begin, uint32_t end,
                 Emit emit) {
  auto asKeyword = [](Range r) { return std::optional<Token>(Token{r, Keyword, 0}); };
  auto asType = [](Range r) { return std::optional<Token>(Token{r, Type, 0}); };
  auto asMention = [&](const Mention &m) { return mentionToken(p, m); };
  TokenSource names(lists.opNames, begin, end, asKeyword);
  TokenSource mentions(lists.mentions, begin, end, asMention);
  TokenSource types(lists.typeHeads, begin, end, asType);
  uint32_t keptEnd = 0;
  bool any = false;
  for (;;) {
    const Token *n = names.head(), *m = mentions.head(), *t = types.head();
    const Token *pick = n;
    if (m && (!pick || m->range.begin < pick->range.begin))
      pick = m;
    if (t && (!pick || t->range.begin < pick->range.begin))
      pick = t;
    if (!pick)
      return;
    Token tok = *pick;
    (pick == n ? names.pop() : pick == m ? mentions.pop() : types.pop());
    if (any && tok.range.begin < keptEnd)
      continue;
    size_t nl = text.substr(tok.range.begin, tok.range.end - tok.range.begin).find_first_of("\r\n");
    if (nl != std::string_view::npos)
      tok.range.end = tok.range.begin + static_cast<uint32_t>(nl);
    if (tok.range.end > tok.range.begin) {
      any = true;
      keptEnd = tok.range.end;
      emit(tok);
    }
  }
}

void appendNumber(std::string &out, uint32_t v) {
  char buf[16];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// Written through a pointer into a small buffer, appended in blocks: a big
// file's array has millions of integers.
void appendArray(std::string &out, const std::vector<uint32_t> &data) {
  out.reserve(out.size() + data.size() * 7 / 2 + 2); // most are 1-2 digits
  char block[4096];
  char *p = block;
  *p++ = '[';
  for (size_t i = 0; i < data.size(); ++i) {
    if (p > block + sizeof block - 16) {
      out.append(block, p);
      p = block;
    }
    if (i)
      *p++ = ',';
    p = std::to_chars(p, p + 10, data[i]).ptr;
  }
  *p++ = ']';
  out.append(block, p);
}

RawJson tokensJson(const SemanticTokens &t) {
  std::string out = "{";
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
    out.reserve(out.size() + edit->data.size() * 7 / 2 + 64);
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
  SemanticTokens out;
  std::string_view text = snap.source->text();
  PositionCursor at(*snap.source, e);
  Position prev;
  auto encode = [&](const Token &t) {
    if (!inside(t.range, begin, end))
      return;
    Position b = at.at(t.range.begin);
    uint32_t line = b.line - prev.line;
    out.data.insert(out.data.end(),
                    {line, line == 0 ? b.character - prev.character : b.character,
                     length(text.substr(t.range.begin, t.range.end - t.range.begin), e), t.type,
                     t.modifiers});
    prev = b;
  };
  // A full request sizes the array once (growing it would leave the freed
  // halves resident).
  if (begin == 0 && end >= snap.source->size()) {
    size_t most = 0;
    for (const ChunkAnalysis &c : snap.analysis.chunks)
      most += chunkOpNames(snap, c).size() + chunkMentions(snap, c).size() + chunkTypeHeads(snap, c).size();
    out.data.reserve(most * 5);
  }
  for (const ChunkAnalysis &c : snap.analysis.chunks) {
    if (c.chunk.end < begin || c.chunk.begin > end)
      continue;
    const Program &p = c.parsed.program;
    // A range over entries reads their shares of the index (their tokens
    // are the same), so a new version's first range request does not wait
    // for the whole file's.
    if (!snap.mentionsReady && !(begin == 0 && end >= snap.source->size()))
      if (auto parts = isolatedIndexesOver(snap, c, begin, end)) {
        for (const auto &part : *parts) // in order, disjoint
          chunkTokens(text, p, {part->opNames, part->mentions, part->typeHeads}, begin, end, encode);
        continue;
      }
    chunkTokens(text, p, {chunkOpNames(snap, c), chunkMentions(snap, c), chunkTypeHeads(snap, c)}, begin, end,
                encode);
  }
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
