#pragma once
// Every mention of a named entity in one chunk (SSA values, symbols,
// aliases, block labels), each with the key of the entity it names:
// navigation groups mentions by key, semantic tokens colour them. Built from
// the side table, plus the two kinds of use it does not record (alias uses
// inside `#layout<...>` bodies and block label uses in successor lists),
// which are found by scanning the text they live in.
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <string_view>
#include <vector>

#include "server/lsp/documents.h"

namespace tilesight::lsp {

// What a mention names, with the mention's text for symbols, aliases and
// labels (sameEntity).
struct EntityKey {
  enum Kind : uint8_t { Value, Symbol, Alias, Label };
  Kind kind = Value;
  // Value: where its definition begins (a `%x:2` group is one entity).
  // Symbol: the symbol table op (kNoId: the top level). Alias: where the
  // definition in force begins (kNoId: undefined). Label: the owning op.
  uint32_t id = kNoId;
  bool operator==(const EntityKey &) const = default;
};

struct Mention { // 24 bytes: there are millions
  Range range;
  EntityKey key;
  ValueId value = kNoId; // Value mentions
  bool isDef = false;
};

// Whether two mentions name one entity: equal keys and, but for values,
// the same text.
bool sameEntity(std::string_view text, const Mention &a, const Mention &b);

// The chunk holding `offset`, or null.
const ChunkAnalysis *chunkAt(const Snapshot &snap, uint32_t offset);

// The mentions of a chunk, sorted by position, none overlapping (from the
// snapshot's index: built once per version).
const std::vector<Mention> &chunkMentions(const Snapshot &snap,
                                          const ChunkAnalysis &chunk);

// The chunk's op names and type heads, sorted by position (from the same
// index).
const std::vector<Range> &chunkOpNames(const Snapshot &snap, const ChunkAnalysis &chunk);
const std::vector<Range> &chunkTypeHeads(const Snapshot &snap, const ChunkAnalysis &chunk);

// The mention under `offset` (or ending at it, when none contains it).
std::optional<Mention> mentionAt(const std::vector<Mention> &mentions,
                                 uint32_t offset);

// Per chunk of a snapshot (parallel to analysis.chunks): its mentions and,
// per entity, the positions of its mentions in that list. Values (nearly
// every mention) are grouped in flat arrays, one slot per value; symbols,
// aliases and labels in a map.
struct MentionIndex {
  struct Chunk {
    std::vector<Mention> mentions;
    // Value v's entity is groupOf[v] (the first value of a `%x:2` group);
    // its mentions are valueMentions[groupStart[g] .. groupStart[g + 1]).
    std::vector<ValueId> groupOf;
    std::vector<uint32_t> groupStart, valueMentions;
    std::map<std::tuple<uint8_t, uint32_t, std::string_view>, std::vector<uint32_t>> named;
    // For semantic tokens, sorted by position: op names, and the head word
    // of each written type (`tile` of `tile<4xf32>`).
    std::vector<Range> opNames, typeHeads;
  };
  std::vector<Chunk> chunks;
};

// The entity under `offset` within its chunk: the mention there and every
// mention of the same entity, in order (navigation, rename).
struct Entity {
  Mention under;
  std::vector<Mention> all;
};
std::optional<Entity> entityAt(const Snapshot &snap, uint32_t offset);
// The same for a value or label inside an isolated op (an entry), read from
// that op's mentions alone; none for other positions and entities.
std::optional<Entity> entityInIsolatedOp(const Snapshot &snap, uint32_t offset);

// A share of a chunk's index, sorted by position: its mentions (values and
// labels as in the whole index; the keys of symbols and aliases may
// differ), op names and type heads. One isolated op's (an entry's) share
// colours and navigates its values as the whole index does.
struct IndexShare {
  std::vector<Mention> mentions;
  std::vector<Range> opNames, typeHeads;
};
// The shares of the isolated ops that cover [begin, end) of a module's
// body, in order (none: only space between them); no answer where
// anything else lies in the range.
std::optional<std::vector<std::shared_ptr<const IndexShare>>>
isolatedIndexesOver(const Snapshot &snap, const ChunkAnalysis &c, uint32_t begin, uint32_t end);

// Half-open runs [begin, end) of indices into a chunk's side table or ops.
struct IndexRun {
  uint32_t begin = 0, end = 0;
};
// The share made of runs of a chunk's side table and of its ops (one item
// of a module, or everything outside some items), each run in order; with
// `layoutUses`, also the alias uses inside the chunk's `#layout<...>`
// bodies (they lie outside every module).
IndexShare shareOfRuns(const Snapshot &snap, const ChunkAnalysis &c, const std::vector<IndexRun> &occurrences,
                       const std::vector<IndexRun> &ops, bool layoutUses);

} // namespace tilesight::lsp
