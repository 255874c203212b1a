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
  enum Kind : uint8_t { Value, Symbol, Alias, TypeUse, OpName, BlockLabel };
  Kind kind = Value;
  bool isDef = false;
  Range range;
  ValueId value = kNoId;  // Value
  OpId op = kNoId;        // OpName: the op; Symbol def: the defining op
  TypeRef type = nullptr; // TypeUse
  std::string_view name;  // Symbol / Alias / BlockLabel, as spelled in the text
};

struct SideTable {
  std::vector<Occurrence> occurrences;
  void add(Occurrence o) { occurrences.push_back(std::move(o)); }
};

}  // namespace tilesight
