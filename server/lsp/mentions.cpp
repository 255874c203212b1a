#include "server/lsp/mentions.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <span>

#include "analysis/source/source_text.h"
#include "analysis/syntax/lexer.h"

namespace tilesight::lsp {

namespace {

std::string_view textOf(std::string_view text, Range r) {
  return text.substr(r.begin, r.end - r.begin);
}

bool contains(Range r, uint32_t offset) {
  return r.begin <= offset && offset < r.end;
}

// A multi-result definition is spelled `%x:2`; the name is `%x`.
Range nameOnly(std::string_view text, Range r) {
  size_t colon = textOf(text, r).find(':');
  if (colon != std::string_view::npos)
    r.end = r.begin + static_cast<uint32_t>(colon);
  return r;
}

bool isSymbolTable(const Operation &op) {
  // builtin.module is not in the op table: it has no kind.
  return (op.info && op.info->kind == OpKind::Module) ||
         (!op.info && op.name == "builtin.module");
}

// The symbol table in which `op` defines or looks up symbols (kNoId: the
// top level), as the verifier's lookup does.
OpId symbolTableOf(const Program &p, OpId op) {
  if (op == kNoId)
    return kNoId;
  for (OpId id = p.op(op).parent; id != kNoId; id = p.op(id).parent)
    if (isSymbolTable(p.op(id)))
      return id;
  return kNoId;
}

// The `#name` (or `^name`) words of text[r], outside comments and strings.
std::vector<Range> prefixedWords(std::string_view text, Range r, char prefix) {
  std::vector<Range> out;
  for (uint32_t i = r.begin; i < r.end; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < r.end && text[i + 1] == '/') {
      while (i + 1 < r.end && !isLineEnd(text[i + 1]))
        ++i;
    } else if (c == '"') {
      for (++i; i < r.end && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == prefix && (i == 0 || !isIdentChar(text[i - 1]))) {
      uint32_t e = i + 1;
      while (e < r.end && isIdentChar(text[e]))
        ++e;
      if (e > i + 1)
        out.push_back({i, e});
      i = e - 1;
    }
  }
  return out;
}

// The expression between `#layout<` and `>` of a layout alias, if it is one.
std::optional<Range> layoutBody(std::string_view text, const AliasDef &a) {
  constexpr std::string_view open = "#layout<";
  std::string_view value = textOf(text, a.value.range);
  if (!value.starts_with(open) || !value.ends_with('>'))
    return std::nullopt;
  return Range{a.value.range.begin + static_cast<uint32_t>(open.size()),
               a.value.range.end - 1};
}

using Parts = std::vector<std::span<const Occurrence>>;

// The mentions of a chunk, or of parts of its side table (the occurrences
// of one isolated op: its values and labels are complete, other entities
// are not).
class MentionBuilder {
public:
  MentionBuilder(const Snapshot &snap, const ChunkAnalysis &chunk)
      : MentionBuilder(snap, chunk, {chunk.parsed.side.occurrences}, true) {}
  // `layoutUses`: the parts hold the top level, where alias definitions are.
  MentionBuilder(const Snapshot &snap, const ChunkAnalysis &chunk, Parts parts, bool layoutUses)
      : text_(snap.source->text()), parsed_(chunk.parsed), parts_(std::move(parts)), layoutUses_(layoutUses) {}

  std::vector<Mention> build() {
    for (std::span<const Occurrence> part : parts_)
      for (const Occurrence &o : part)
        if (o.kind == Occurrence::Alias && o.isDef)
          aliasDefs_[textOf(text_, o.range)].push_back(o.range.begin);
    for (auto &[name, offsets] : aliasDefs_)
      std::sort(offsets.begin(), offsets.end());
    for (std::span<const Occurrence> part : parts_)
      for (const Occurrence &o : part)
        add(o);
    if (layoutUses_)
      addLayoutUses();
    addLabelUses();
    return sortedDisjoint();
  }

private:
  void add(const Occurrence &o) {
    const Program &p = parsed_.program;
    std::string_view name = textOf(text_, o.range);
    switch (o.kind) {
    case Occurrence::Value: {
      // Unnamed results (a count mismatch) sit on the op name: not mentions.
      if (o.value == kNoId || p.value(o.value).name.empty())
        return;
      Range r = o.isDef ? nameOnly(text_, o.range) : o.range;
      out_.push_back({r,
                      {EntityKey::Value, p.value(o.value).range.begin},
                      o.value,
                      o.isDef});
      return;
    }
    case Occurrence::Symbol:
      out_.push_back({o.range,
                      {EntityKey::Symbol, symbolTableOf(p, o.op)},
                      kNoId,
                      o.isDef});
      return;
    case Occurrence::Alias:
      out_.push_back({o.range, aliasKey(name, o.range.begin), kNoId, o.isDef});
      return;
    case Occurrence::BlockLabel:
      out_.push_back({o.range, {EntityKey::Label, o.op}, kNoId, o.isDef});
      labels_.push_back(&o);
      return;
    case Occurrence::TypeUse:
      return;
    }
  }

  // Aliases may be redefined: a use names the newest definition before it.
  EntityKey aliasKey(std::string_view name, uint32_t at) const {
    EntityKey key{EntityKey::Alias, kNoId};
    auto defs = aliasDefs_.find(name);
    if (defs == aliasDefs_.end())
      return key;
    auto next = std::upper_bound(defs->second.begin(), defs->second.end(), at);
    if (next != defs->second.begin())
      key.id = *std::prev(next);
    return key;
  }

  // The side table does not see inside `#layout<...>`: its text is an
  // expression for the layout library.
  void addLayoutUses() {
    for (const AliasDef &a : parsed_.aliases) {
      std::optional<Range> body = layoutBody(text_, a);
      if (!body)
        continue;
      for (Range w : prefixedWords(text_, *body, '#'))
        out_.push_back({w, aliasKey(textOf(text_, w), w.begin), kNoId, false});
    }
  }

  // Successor lists are skipped by the parser, so label uses are the `^name`
  // words inside the op owning the labels; a use names the label of the
  // innermost op that defines one by that name.
  void addLabelUses() {
    const Program &p = parsed_.program;
    std::vector<OpId> owners;
    for (const Occurrence *l : labels_)
      if (std::find(owners.begin(), owners.end(), l->op) == owners.end())
        owners.push_back(l->op);
    for (OpId owner : owners) {
      for (Range w : prefixedWords(text_, p.op(owner).range, '^')) {
        std::string_view name = textOf(text_, w);
        const Occurrence *def = nullptr;
        for (const Occurrence *l : labels_) {
          if (textOf(text_, l->range) != name ||
              !contains(p.op(l->op).range, w.begin))
            continue;
          if (!def || p.op(l->op).range.begin > p.op(def->op).range.begin)
            def = l;
        }
        if (def && def->op == owner && def->range.begin != w.begin)
          out_.push_back({w, {EntityKey::Label, owner}, kNoId, false});
      }
    }
  }

  // Sorted by position; a mention overlapping an earlier one (the shared
  // definition of a `%x:2` group) is dropped.
  // Done in place: a big file has millions of mentions.
  std::vector<Mention> sortedDisjoint() {
    permute(stableOrder());
    size_t kept = 0;
    for (size_t i = 0; i < out_.size(); ++i)
      if (kept == 0 || out_[kept - 1].range.end <= out_[i].range.begin)
        out_[kept++] = out_[i];
    out_.resize(kept);
    return std::move(out_);
  }

  // out_[k] becomes the old out_[order[k]], cycle by cycle.
  void permute(std::vector<uint32_t> order) {
    for (uint32_t start = 0; start < order.size(); ++start) {
      if (order[start] == start)
        continue;
      Mention first = out_[start];
      uint32_t k = start;
      while (order[k] != start) {
        uint32_t from = order[k];
        out_[k] = out_[from];
        order[k] = k; // placed
        k = from;
      }
      out_[k] = first;
      order[k] = k;
    }
  }

  // The indices of out_ in stable order of position. The side table is
  // nearly sorted (a definition follows the operands of its op), so the
  // in-order run is kept and only the others are sorted, then merged.
  std::vector<uint32_t> stableOrder() const {
    std::vector<uint32_t> run, rest;
    run.reserve(out_.size());
    for (uint32_t i = 0; i < out_.size(); ++i)
      (run.empty() || out_[run.back()].range.begin <= out_[i].range.begin ? run : rest).push_back(i);
    // Ties by index: the order of a stable sort.
    auto before = [&](uint32_t a, uint32_t b) {
      return std::pair(out_[a].range.begin, a) < std::pair(out_[b].range.begin, b);
    };
    std::sort(rest.begin(), rest.end(), before);
    std::vector<uint32_t> order;
    order.reserve(out_.size());
    std::merge(run.begin(), run.end(), rest.begin(), rest.end(), std::back_inserter(order), before);
    return order;
  }

  std::string_view text_;
  const ParseResult &parsed_;
  Parts parts_;
  bool layoutUses_;
  std::map<std::string_view, std::vector<uint32_t>> aliasDefs_;
  std::vector<const Occurrence *> labels_;
  std::vector<Mention> out_;
};

} // namespace

const ChunkAnalysis *chunkAt(const Snapshot &snap, uint32_t offset) {
  const std::vector<ChunkAnalysis> &chunks = snap.analysis.chunks;
  for (const ChunkAnalysis &c : chunks)
    if (c.chunk.begin <= offset && offset < c.chunk.end)
      return &c;
  // The end of the file (just after its last token) is in the last chunk.
  if (!chunks.empty() && offset == chunks.back().chunk.end)
    return &chunks.back();
  return nullptr;
}

namespace {

// Named entities are keyed by their text too.
std::tuple<uint8_t, uint32_t, std::string_view> entityOf(std::string_view text, const Mention &m) {
  return {m.key.kind, m.key.id, textOf(text, m.range)};
}

// Groups the value mentions by entity with a counting sort: one slot per
// value, no node per entity.
void groupValues(const Program &p, MentionIndex::Chunk &c) {
  size_t n = p.values.size();
  c.groupOf.resize(n);
  for (ValueId v = 0; v < n; ++v)
    c.groupOf[v] = v > 0 && p.values[v].range.begin == p.values[v - 1].range.begin ? c.groupOf[v - 1] : v;
  c.groupStart.assign(n + 1, 0);
  for (const Mention &m : c.mentions)
    if (m.key.kind == EntityKey::Value)
      ++c.groupStart[c.groupOf[m.value] + 1];
  for (size_t g = 0; g < n; ++g)
    c.groupStart[g + 1] += c.groupStart[g];
  c.valueMentions.resize(c.groupStart[n]);
  std::vector<uint32_t> next(c.groupStart.begin(), c.groupStart.end() - 1);
  for (uint32_t i = 0; i < c.mentions.size(); ++i)
    if (c.mentions[i].key.kind == EntityKey::Value)
      c.valueMentions[next[c.groupOf[c.mentions[i].value]]++] = i;
}

void sortByStart(std::vector<Range> &rs) {
  auto byStart = [](Range a, Range b) { return a.begin < b.begin; };
  if (!std::is_sorted(rs.begin(), rs.end(), byStart))
    std::stable_sort(rs.begin(), rs.end(), byStart);
}

// The op names of the ops in `ops` and the type heads of `parts`, sorted.
void addTokenHeads(std::string_view text, const Program &p, const std::vector<IndexRun> &ops, const Parts &parts,
                   std::vector<Range> &opNames, std::vector<Range> &typeHeads) {
  for (IndexRun run : ops)
    for (OpId id = run.begin; id < run.end; ++id)
      if (p.op(id).nameRange.end > p.op(id).nameRange.begin)
        opNames.push_back(p.op(id).nameRange);
  for (std::span<const Occurrence> part : parts)
    for (const Occurrence &o : part) {
      if (o.kind != Occurrence::TypeUse)
        continue;
      auto head =
          static_cast<uint32_t>(std::min<size_t>(textOf(text, o.range).find('<'), o.range.end - o.range.begin));
      if (head > 0)
        typeHeads.push_back({o.range.begin, o.range.begin + head});
    }
  sortByStart(opNames);
  sortByStart(typeHeads);
}

const MentionIndex &indexOf(const Snapshot &snap) {
  std::call_once(snap.mentionsBuilt, [&] {
    auto index = std::make_shared<MentionIndex>();
    index->chunks.reserve(snap.analysis.chunks.size());
    for (const ChunkAnalysis &c : snap.analysis.chunks) {
      MentionIndex::Chunk chunk{MentionBuilder(snap, c).build(), {}, {}, {}, {}, {}, {}};
      groupValues(c.parsed.program, chunk);
      addTokenHeads(snap.source->text(), c.parsed.program, {{0, static_cast<OpId>(c.parsed.program.ops.size())}},
                    {c.parsed.side.occurrences}, chunk.opNames, chunk.typeHeads);
      for (uint32_t i = 0; i < chunk.mentions.size(); ++i)
        if (chunk.mentions[i].key.kind != EntityKey::Value)
          chunk.named[entityOf(snap.source->text(), chunk.mentions[i])].push_back(i);
      index->chunks.push_back(std::move(chunk));
    }
    snap.mentionIndex = std::move(index);
    snap.mentionsReady = true;
    std::lock_guard<std::mutex> lock(snap.isolatedMu);
    snap.isolated.reset(); // the whole index answers from now on
  });
  return *snap.mentionIndex;
}

const MentionIndex::Chunk &indexedChunk(const Snapshot &snap, const ChunkAnalysis &chunk) {
  return indexOf(snap).chunks[static_cast<size_t>(&chunk - snap.analysis.chunks.data())];
}

} // namespace

bool sameEntity(std::string_view text, const Mention &a, const Mention &b) {
  return a.key == b.key && (a.key.kind == EntityKey::Value || textOf(text, a.range) == textOf(text, b.range));
}

const std::vector<Range> &chunkOpNames(const Snapshot &snap, const ChunkAnalysis &chunk) {
  return indexedChunk(snap, chunk).opNames;
}

const std::vector<Range> &chunkTypeHeads(const Snapshot &snap, const ChunkAnalysis &chunk) {
  return indexedChunk(snap, chunk).typeHeads;
}

const std::vector<Mention> &chunkMentions(const Snapshot &snap,
                                          const ChunkAnalysis &chunk) {
  return indexedChunk(snap, chunk).mentions;
}

std::optional<Mention> mentionAt(const std::vector<Mention> &mentions,
                                 uint32_t offset) {
  auto it = std::partition_point(
      mentions.begin(), mentions.end(),
      [&](const Mention &m) { return m.range.end <= offset; });
  if (it != mentions.end() && it->range.begin <= offset)
    return *it;
  if (it != mentions.begin() && std::prev(it)->range.end == offset)
    return *std::prev(it);
  return std::nullopt;
}

struct IsolatedMentions {
  std::map<std::tuple<const ChunkAnalysis *, OpId, bool>, std::shared_ptr<const IndexShare>> shares;
};

namespace {

// The isolated op (an entry) whose inside holds `offset` (not a module:
// symbols and aliases cross its entries); kNoId if none.
OpId isolatedOpAround(const Program &p, uint32_t offset) {
  const std::vector<OpId> *level = &p.topLevel;
  while (level) {
    // Ops of one block are in order of position.
    auto it = std::partition_point(level->begin(), level->end(),
                                   [&](OpId id) { return p.op(id).range.begin < offset; });
    if (it == level->begin())
      return kNoId;
    const Operation &op = p.op(*std::prev(it));
    if (offset >= op.range.end)
      return kNoId;
    if (op.info && (op.info->traits & kIsolated) && !isSymbolTable(op))
      return *std::prev(it);
    level = nullptr;
    for (const Region &r : op.regions)
      for (const Block &b : r.blocks)
        if (b.range.begin <= offset && offset < b.range.end)
          level = &b.ops;
  }
  return kNoId;
}

// The share of text range `r`, built once per snapshot: the occurrences
// that begin in it and the ops [id, ...) that begin in it (with `headOnly`
// the op `id` alone: a module's header before its body). Ops and
// occurrences are recorded as they are parsed, so an op's nested ops follow
// it and its occurrences are a run of the side table, bounded by its range.
std::shared_ptr<const IndexShare> shareOf(const Snapshot &snap, const ChunkAnalysis &c, OpId id, Range r,
                                          bool headOnly) {
  std::lock_guard<std::mutex> lock(snap.isolatedMu);
  if (!snap.isolated)
    snap.isolated = std::make_shared<IsolatedMentions>();
  auto &shares = snap.isolated->shares;
  auto key = std::tuple(&c, id, headOnly);
  auto found = shares.find(key);
  if (found != shares.end())
    return found->second;
  const Program &p = c.parsed.program;
  const std::vector<Occurrence> &all = c.parsed.side.occurrences;
  auto index = std::make_shared<IndexShare>();
  auto first = std::partition_point(all.begin(), all.end(), [&](const Occurrence &o) { return o.range.begin < r.begin; });
  auto last = std::partition_point(first, all.end(), [&](const Occurrence &o) { return o.range.begin < r.end; });
  std::span<const Occurrence> part(all.data() + (first - all.begin()), static_cast<size_t>(last - first));
  OpId end = id + 1;
  while (!headOnly && end < p.ops.size() && p.op(end).range.begin < r.end)
    ++end;
  index->mentions = MentionBuilder(snap, c, {part}, false).build();
  addTokenHeads(snap.source->text(), p, {{id, end}}, {part}, index->opNames, index->typeHeads);
  shares.emplace(key, index);
  return index;
}

std::shared_ptr<const IndexShare> isolatedIndexOf(const Snapshot &snap, const ChunkAnalysis &c, OpId id) {
  return shareOf(snap, c, id, c.parsed.program.op(id).range, false);
}

// The share of the isolated op whose inside holds `offset`; null if none.
std::shared_ptr<const IndexShare> isolatedIndexAt(const Snapshot &snap, const ChunkAnalysis &c, uint32_t offset) {
  OpId id = isolatedOpAround(c.parsed.program, offset);
  return id == kNoId ? nullptr : isolatedIndexOf(snap, c, id);
}

using Shares = std::vector<std::shared_ptr<const IndexShare>>;

// Inside a module's body there is only space and comments between its
// items: [begin, end) is covered by the items it overlaps, if all are
// isolated ops.
std::optional<Shares> itemShares(const Snapshot &snap, const ChunkAnalysis &c, const std::vector<OpId> &items,
                                 uint32_t begin, uint32_t end) {
  const Program &p = c.parsed.program;
  // Items are in order and disjoint.
  auto first = std::partition_point(items.begin(), items.end(), [&](OpId id) { return p.op(id).range.end <= begin; });
  auto last = std::partition_point(first, items.end(), [&](OpId id) { return p.op(id).range.begin < end; });
  Shares parts;
  for (auto it = first; it != last; ++it) {
    const Operation &op = p.op(*it);
    if (!op.info || !(op.info->traits & kIsolated) || isSymbolTable(op))
      return std::nullopt;
    parts.push_back(isolatedIndexOf(snap, c, *it));
  }
  return parts;
}

} // namespace

IndexShare shareOfRuns(const Snapshot &snap, const ChunkAnalysis &c, const std::vector<IndexRun> &occurrences,
                       const std::vector<IndexRun> &ops, bool layoutUses) {
  const std::vector<Occurrence> &all = c.parsed.side.occurrences;
  Parts parts;
  for (IndexRun run : occurrences)
    parts.emplace_back(all.data() + run.begin, run.end - run.begin);
  IndexShare share;
  share.mentions = MentionBuilder(snap, c, parts, layoutUses).build();
  addTokenHeads(snap.source->text(), c.parsed.program, ops, parts, share.opNames, share.typeHeads);
  return share;
}

std::optional<Shares> isolatedIndexesOver(const Snapshot &snap, const ChunkAnalysis &c, uint32_t begin,
                                          uint32_t end) {
  const Program &p = c.parsed.program;
  // The one top-level module that holds the range.
  auto it = std::find_if(p.topLevel.begin(), p.topLevel.end(), [&](OpId id) {
    Range r = p.op(id).range;
    return r.begin <= begin && end <= r.end;
  });
  if (it == p.topLevel.end())
    return std::nullopt;
  const Operation &m = p.op(*it);
  if (!isSymbolTable(m) || m.regions.size() != 1 || m.regions[0].blocks.size() != 1)
    return std::nullopt;
  const Block &body = m.regions[0].blocks[0];
  if (end > body.range.end)
    return std::nullopt;
  // The header (`cuda_tile.module @name {`) when the range starts there.
  Shares parts;
  if (begin < body.range.begin)
    parts.push_back(shareOf(snap, c, *it, {m.range.begin, body.range.begin}, true));
  std::optional<Shares> items = itemShares(snap, c, body.ops, std::max(begin, body.range.begin), end);
  if (!items)
    return std::nullopt;
  parts.insert(parts.end(), items->begin(), items->end());
  return parts;
}

std::optional<Entity> entityInIsolatedOp(const Snapshot &snap, uint32_t offset) {
  const ChunkAnalysis *chunk = chunkAt(snap, offset);
  if (!chunk)
    return std::nullopt;
  std::shared_ptr<const IndexShare> index = isolatedIndexAt(snap, *chunk, offset);
  if (!index)
    return std::nullopt;
  const std::vector<Mention> &ms = index->mentions;
  std::optional<Mention> under = mentionAt(ms, offset);
  if (!under || (under->key.kind != EntityKey::Value && under->key.kind != EntityKey::Label))
    return std::nullopt;
  Entity e{*under, {}};
  for (const Mention &m : ms)
    if (sameEntity(snap.source->text(), m, *under))
      e.all.push_back(m);
  return e;
}

std::optional<Entity> entityAt(const Snapshot &snap, uint32_t offset) {
  // Values and labels never leave their entry: until the whole file's index
  // is built, only the entry's mentions are read.
  if (!snap.mentionsReady)
    if (std::optional<Entity> e = entityInIsolatedOp(snap, offset))
      return e;
  const ChunkAnalysis *chunk = chunkAt(snap, offset);
  if (!chunk)
    return std::nullopt;
  const MentionIndex::Chunk &index = indexedChunk(snap, *chunk);
  std::optional<Mention> under = mentionAt(index.mentions, offset);
  if (!under)
    return std::nullopt;
  Entity e{*under, {}};
  if (under->key.kind == EntityKey::Value) {
    ValueId g = index.groupOf[under->value];
    for (uint32_t k = index.groupStart[g]; k < index.groupStart[g + 1]; ++k)
      e.all.push_back(index.mentions[index.valueMentions[k]]);
  } else {
    for (uint32_t i : index.named.at(entityOf(snap.source->text(), *under)))
      e.all.push_back(index.mentions[i]);
  }
  return e;
}

} // namespace tilesight::lsp
