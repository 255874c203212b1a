#pragma once
// Every mention of a named entity in one chunk (SSA values, symbols,
// aliases, block labels), each with the key of the entity it names:
// navigation groups mentions by key, semantic tokens colour them. Built from
// the side table, plus the two kinds of use it does not record (alias uses
// inside `#layout<...>` bodies and block label uses in successor lists),
// which are found by scanning the text they live in.
#include <map>
#include <optional>
#include <tuple>
#include <string_view>
#include <vector>

#include "server/lsp/documents.h"

namespace tilesight::lsp {

// What a mention names. Two mentions name the same entity when their keys
// are equal.
struct EntityKey {
  enum Kind : uint8_t { Value, Symbol, Alias, Label };
  Kind kind = Value;
  // Value: where its definition begins (a `%x:2` group is one entity).
  // Symbol: the symbol table op (kNoId: the top level). Alias: where the
  // definition in force begins (kNoId: undefined). Label: the owning op.
  uint32_t id = kNoId;
  std::string_view name; // Symbol, Alias, Label: as spelled
  bool operator==(const EntityKey &) const = default;
};

struct Mention { // 40 bytes in this order: there are millions
  Range range;
  EntityKey key;
  ValueId value = kNoId; // Value mentions
  bool isDef = false;
};

// The chunk holding `offset`, or null.
const ChunkAnalysis *chunkAt(const Snapshot &snap, uint32_t offset);

// The mentions of a chunk, sorted by position, none overlapping (from the
// snapshot's index: built once per version).
const std::vector<Mention> &chunkMentions(const Snapshot &snap,
                                          const ChunkAnalysis &chunk);

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
  };
  std::vector<Chunk> chunks;
};

// Builds the snapshot's index now if no request has (the server warms it
// after publishing diagnostics, while the user reads them).
void buildMentionIndex(const Snapshot &snap);

// The entity under `offset` within its chunk: the mention there and every
// mention of the same entity, in order (navigation, rename).
struct Entity {
  Mention under;
  std::vector<Mention> all;
};
std::optional<Entity> entityAt(const Snapshot &snap, uint32_t offset);

} // namespace tilesight::lsp
