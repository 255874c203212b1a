#pragma once
// The keywords of the text form, in one place: the parser accepts them, its
// fixes suggest them, and editor completion lists them.
#include <string_view>
#include <vector>

namespace tilesight {

// Keyword-style attributes of the op table's format kinds (see op_table.h).
struct KeywordSet {
  std::string_view what;   // "a memory ordering", for messages
  std::string_view angle;  // `rounding` when written rounding<...>; empty for a bare keyword
  std::vector<std::string_view> words;
};
// The set of an attribute kind: ord, scope (and scope?), sign, pred, cmpord,
// atomic, rnd* (every rounding kind), ovf; nullptr for the other kinds.
const KeywordSet* keywordSet(std::string_view kind);

// Type names after `!cuda_tile.` (tile, ptr, token and the views).
const std::vector<std::string_view>& cudaTileTypeNames();
// Tile IR element types (i1 ... f4E2M1FN), from the Elem enumeration.
const std::vector<std::string_view>& elementTypeNames();
// Whether a bare word starts a type where an attribute may be one too
// (cuda_tile type names, element types, builtin types such as tensor or i7).
bool isTypeKeyword(std::string_view word);
// `padding_value = ...` of view types.
const KeywordSet& paddingValues();
// Predicates of cuda_tile.assume.
const KeywordSet& assumePredicates();

// Whether c may be part of a bare identifier (letters, digits, _ $ .): the
// lexer's rule, which the printer follows to know when a name needs quotes.
bool isIdentChar(char c);

}  // namespace tilesight
