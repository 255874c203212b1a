#pragma once
// Completion's reading of the text before the cursor: what kind of name is
// being typed, and where the typed prefix that the items replace starts.
#include <cstdint>
#include <string_view>

#include "analysis/ir/keywords.h"
#include "analysis/ir/op_table.h"

namespace tilesight::lsp {

// What the text before the cursor asks for.
struct CompletionContext {
  enum What {
    Nothing,
    Op,       // an op name at the start of a statement
    Value,    // after `%`
    Symbol,   // after `@`
    Alias,    // after `#` (outside layout bodies)
    BangType, // after `!`
    Type,     // a type position (after `:`, `->`, in `tile<`)
    Angle,    // inside `rounding<` / `overflow<`
    Operands, // in an op, neither a type nor a prefixed name
    Layout    // inside `#layout<...>`
  };
  What what = Nothing;
  uint32_t begin = 0;
  uint32_t line = 0;                    // where the cursor's line starts
  const OpInfo *op = nullptr;           // Operands
  const KeywordSet *keywords = nullptr; // Angle
  std::string_view typeName;            // Type: the type whose `<` holds it
  uint32_t layoutOpen = 0;              // Layout: where `#layout<` starts
  // BangType: `cuda_tile.` is typed already; Layout: a `#` is.
  bool prefixTyped = false;
};

// `text` is the whole file and `cur` a cursor in the chunk that starts at
// `chunkBegin`.
CompletionContext completionContextAt(std::string_view text,
                                      uint32_t chunkBegin, uint32_t cur);

} // namespace tilesight::lsp
