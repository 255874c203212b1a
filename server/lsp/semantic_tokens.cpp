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
class ArrayWriter {
public:
  explicit ArrayWriter(std::string &out, size_t count) : out_(out) {
    out_.reserve(out_.size() + count * 7 / 2 + 2); // most are 1-2 digits
    *p_++ = '[';
  }
  void add(uint32_t v) {
    if (p_ > block_ + sizeof block_ - 16) {
      out_.append(block_, p_);
      p_ = block_;
    }
    if (!first_)
      *p_++ = ',';
    first_ = false;
    p_ = std::to_chars(p_, p_ + 10, v).ptr;
  }
  ~ArrayWriter() {
    *p_++ = ']';
    out_.append(block_, p_);
  }

private:
  std::string &out_;
  char block_[4096];
  char *p_ = block_;
  bool first_ = true;
};

void appendArray(std::string &out, const std::vector<uint32_t> &data) {
  ArrayWriter w(out, data.size());
  for (uint32_t v : data)
    w.add(v);
}

void appendArray(std::string &out, const SemanticTokens &t) {
  ArrayWriter w(out, t.size());
  for (const TokenPiece &piece : t.pieces) {
    w.add(piece.line);
    w.add(piece.start);
    for (size_t i = 2; i < piece.size(); ++i)
      w.add((*piece.data)[i]);
  }
}

RawJson tokensJson(const SemanticTokens &t) {
  std::string out = "{";
  if (!t.resultId.empty())
    out += "\"resultId\":" + json(t.resultId).dump() + ',';
  out += "\"data\":";
  appendArray(out, t);
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
  SemanticTokens t = fullSemanticTokens(cx.snap, cx.encoding);
  t.resultId = std::to_string(cx.snap.analysisId);
  return t;
}

// How many integers two results share from their start (forward iterators
// over their pieces) or end (reverse iterators), at most `limit`: a piece
// both hold is passed over whole.
template <class It> size_t commonRun(It a, It aEnd, It b, It bEnd, size_t limit) {
  constexpr bool reversed = !std::is_same_v<It, std::vector<TokenPiece>::const_iterator>;
  auto at = [](It it, size_t k) { return reversed ? (*it)[it->size() - 1 - k] : (*it)[k]; };
  size_t n = 0, i = 0, j = 0; // positions inside *a and *b
  while (a != aEnd && b != bEnd && n < limit) {
    if (i == 0 && j == 0 && a->data == b->data && a->line == b->line && a->start == b->start &&
        n + a->size() <= limit) {
      n += a->size();
      ++a, ++b;
      continue;
    }
    if (at(a, i) != at(b, j))
      break;
    ++n;
    if (++i == a->size())
      ++a, i = 0;
    if (++j == b->size())
      ++b, j = 0;
  }
  return n;
}

// An item whose tokens are a segment: an isolated op (an entry) that parsed
// cleanly, so its run of the side table and of the ops lies inside it.
bool segmented(const Program &p, const ItemParse &item) {
  if (!item.ok || item.op == kNoId)
    return false;
  const Operation &op = p.op(item.op);
  return op.info && (op.info->traits & kIsolated) && op.info->kind != OpKind::Module;
}

// Encodes tokens in order: LSP's deltas from the token before.
class Encoder {
public:
  Encoder(const SourceText &src, PositionEncoding e) : src_(src), e_(e), cursor_(src, e) {}
  void add(std::vector<uint32_t> &out, const Token &t) {
    Position b = cursor_.at(t.range.begin);
    uint32_t line = b.line - prev_.line;
    out.insert(out.end(), {line, line == 0 ? b.character - prev_.character : b.character,
                           length(src_.text().substr(t.range.begin, t.range.end - t.range.begin), e_), t.type,
                           t.modifiers});
    prev_ = b;
  }
  // A piece of tokens encoded elsewhere, from offset `first` to `last`.
  TokenPiece place(std::shared_ptr<const std::vector<uint32_t>> data, uint32_t first, uint32_t last) {
    Position b = toPosition(src_, first, e_);
    uint32_t line = b.line - prev_.line;
    TokenPiece piece{std::move(data), line, line == 0 ? b.character - prev_.character : b.character};
    prev_ = toPosition(src_, last, e_);
    return piece;
  }

private:
  const SourceText &src_;
  PositionEncoding e_;
  PositionCursor cursor_;
  Position prev_;
};

// One item's tokens, encoded from the file's start (deltas inside do not
// depend on where the item lies).
std::shared_ptr<const TokenSegment> buildSegment(const Snapshot &snap, PositionEncoding e, const ChunkAnalysis &c,
                                                 const ItemParse &item) {
  IndexShare share = shareOfRuns(snap, c, {{item.sideBegin, item.sideEnd}}, {{item.op, item.opEnd}}, false);
  const Program &p = c.parsed.program;
  Range r = p.op(item.op).range;
  auto segment = std::make_shared<TokenSegment>();
  std::vector<uint32_t> data;
  Encoder encoder(*snap.source, e);
  chunkTokens(snap.source->text(), p, {share.opNames, share.mentions, share.typeHeads}, r.begin, r.end,
              [&](const Token &t) {
                if (data.empty())
                  segment->firstAt = t.range.begin - r.begin;
                segment->lastAt = t.range.begin - r.begin;
                encoder.add(data, t);
              });
  if (!data.empty())
    segment->data = std::make_shared<const std::vector<uint32_t>>(std::move(data));
  return segment;
}

// The snapshot's segment of item `k` of chunk `ci`, built on first use.
std::shared_ptr<const TokenSegment> segmentOf(const Snapshot &snap, PositionEncoding e, size_t ci, size_t k) {
  std::lock_guard<std::mutex> lock(snap.tokensMu);
  if (snap.tokenEncoding != e) { // another encoding: every segment differs
    snap.tokenSegments.clear();
    snap.tokenEncoding = e;
  }
  std::shared_ptr<const TokenSegment> &slot = snap.tokenSegments[{ci, k}];
  if (!slot)
    slot = buildSegment(snap, e, snap.analysis.chunks[ci], snap.analysis.chunks[ci].parsed.items[k]);
  return slot;
}

// A chunk's full tokens: what lies outside its segmented items from a share
// of the index built now, merged by position with the items' segments.
void chunkFullTokens(const Snapshot &snap, PositionEncoding e, size_t ci, Encoder &encoder, SemanticTokens &out) {
  const ChunkAnalysis &c = snap.analysis.chunks[ci];
  const ParseResult &pr = c.parsed;
  const Program &p = pr.program;
  std::vector<size_t> items;
  std::vector<IndexRun> restOccurrences, restOps;
  uint32_t occurrence = 0, op = 0;
  for (size_t k = 0; k < pr.items.size(); ++k) {
    const ItemParse &item = pr.items[k];
    if (!segmented(p, item))
      continue;
    items.push_back(k);
    restOccurrences.push_back({occurrence, item.sideBegin});
    restOps.push_back({op, item.op});
    occurrence = item.sideEnd;
    op = item.opEnd;
  }
  restOccurrences.push_back({occurrence, static_cast<uint32_t>(pr.side.occurrences.size())});
  restOps.push_back({op, static_cast<uint32_t>(p.ops.size())});
  IndexShare rest = shareOfRuns(snap, c, restOccurrences, restOps, true);

  std::vector<uint32_t> pending; // the rest's tokens since the last segment
  auto flush = [&] {
    if (!pending.empty())
      out.pieces.push_back(SemanticTokens::of(std::move(pending)).pieces[0]);
    pending.clear();
  };
  size_t next = 0; // the next item
  auto placeItemsBefore = [&](uint32_t offset) {
    for (; next < items.size() && p.op(pr.items[items[next]].op).range.begin < offset; ++next) {
      std::shared_ptr<const TokenSegment> seg = segmentOf(snap, e, ci, items[next]);
      if (!seg->data)
        continue;
      flush();
      uint32_t begin = p.op(pr.items[items[next]].op).range.begin;
      out.pieces.push_back(encoder.place(seg->data, begin + seg->firstAt, begin + seg->lastAt));
    }
  };
  chunkTokens(snap.source->text(), p, {rest.opNames, rest.mentions, rest.typeHeads}, c.chunk.begin,
              c.chunk.end, [&](const Token &t) {
                placeItemsBefore(t.range.begin);
                encoder.add(pending, t);
              });
  placeItemsBefore(UINT32_MAX);
  flush();
}

// The last result sent is the base of the next delta.
void remember(const FeatureContext &cx, SemanticTokens t) {
  if (cx.tokenHistory)
    cx.tokenHistory->remember(cx.snap.uri, std::move(t));
}

} // namespace

SemanticTokens semanticTokens(const Snapshot &snap, PositionEncoding e,
                              uint32_t begin, uint32_t end) {
  std::vector<uint32_t> out;
  std::string_view text = snap.source->text();
  Encoder encoder(*snap.source, e);
  auto encode = [&](const Token &t) {
    if (inside(t.range, begin, end))
      encoder.add(out, t);
  };
  for (const ChunkAnalysis &c : snap.analysis.chunks) {
    if (c.chunk.end < begin || c.chunk.begin > end)
      continue;
    const Program &p = c.parsed.program;
    // A range over entries reads their shares of the index (their tokens
    // are the same), so a new version's first range request does not wait
    // for the whole file's; the whole document reads the whole index (the
    // reference the tests compare segments and shares with).
    if (!snap.mentionsReady && !(begin == 0 && end >= snap.source->size()))
      if (auto parts = isolatedIndexesOver(snap, c, begin, end)) {
        for (const auto &part : *parts) // in order, disjoint
          chunkTokens(text, p, {part->opNames, part->mentions, part->typeHeads}, begin, end, encode);
        continue;
      }
    chunkTokens(text, p, {chunkOpNames(snap, c), chunkMentions(snap, c), chunkTypeHeads(snap, c)}, begin, end,
                encode);
  }
  return SemanticTokens::of(std::move(out));
}

SemanticTokens fullSemanticTokens(const Snapshot &snap, PositionEncoding e) {
  SemanticTokens out;
  Encoder encoder(*snap.source, e);
  for (size_t ci = 0; ci < snap.analysis.chunks.size(); ++ci)
    chunkFullTokens(snap, e, ci, encoder, out);
  return out;
}

std::optional<SemanticTokensEdit> tokensEdit(const SemanticTokens &before, const SemanticTokens &after) {
  size_t prefix = commonRun(before.pieces.begin(), before.pieces.end(), after.pieces.begin(), after.pieces.end(),
                            std::min(before.size(), after.size()));
  if (prefix == before.size() && prefix == after.size())
    return std::nullopt;
  size_t room = std::min(before.size(), after.size()) - prefix; // the suffix may not overlap the prefix
  size_t suffix = commonRun(before.pieces.rbegin(), before.pieces.rend(), after.pieces.rbegin(),
                            after.pieces.rend(), room);
  SemanticTokensEdit edit;
  edit.start = static_cast<uint32_t>(prefix);
  edit.deleteCount = static_cast<uint32_t>(before.size() - prefix - suffix);
  edit.data.reserve(after.size() - prefix - suffix);
  size_t at = 0;
  for (const TokenPiece &piece : after.pieces) {
    for (size_t i = std::max(at, prefix) - at; i < piece.size() && at + i < after.size() - suffix; ++i)
      edit.data.push_back(piece[i]);
    at += piece.size();
  }
  return edit;
}

size_t SemanticTokens::size() const {
  size_t n = 0;
  for (const TokenPiece &piece : pieces)
    n += piece.size();
  return n;
}

std::vector<uint32_t> SemanticTokens::flat() const {
  std::vector<uint32_t> out;
  out.reserve(size());
  for (const TokenPiece &piece : pieces)
    for (size_t i = 0; i < piece.size(); ++i)
      out.push_back(piece[i]);
  return out;
}

SemanticTokens SemanticTokens::of(std::vector<uint32_t> data) {
  SemanticTokens t;
  if (data.empty())
    return t;
  uint32_t line = data[0], start = data[1];
  t.pieces.push_back({std::make_shared<const std::vector<uint32_t>>(std::move(data)), line, start});
  return t;
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
  RawJson out = before ? deltaJson(now.resultId, tokensEdit(*before, now)) : tokensJson(now);
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
