#pragma once
// Every definition and use the parser saw, with its exact range: the one
// source of truth for go-to-definition, references, highlights, hover and
// semantic tokens.
#include <string>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"

namespace tilesight {

struct Occurrence {
  // Op names are not here: Operation::nameRange has them.
  enum Kind : uint8_t { Value, Symbol, Alias, TypeUse, BlockLabel };
  Kind kind = Value;
  bool isDef = false;
  Range range;
  ValueId value = kNoId;  // Value
  OpId op = kNoId;        // Symbol: the defining (or using) op; Value def: the owner
  TypeRef type = nullptr; // TypeUse
  // Symbols, aliases and labels are named by the text at `range`.
};

struct SideTable {
  std::vector<Occurrence> occurrences;
  void add(Occurrence o) { occurrences.push_back(std::move(o)); }
};

}  // namespace tilesight
