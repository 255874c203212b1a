#pragma once
// The typed IR of one chunk: flat arrays of operations and values linked by
// index, so a partial tree after errors is still a valid tree.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/ADT/SmallVector.h>

#include "analysis/ir/attributes.h"
#include "analysis/ir/types.h"

namespace tilesight {

struct OpInfo;
using ValueId = uint32_t;
using OpId = uint32_t;
constexpr uint32_t kNoId = ~0u;

struct Value {
  TypeRef type = nullptr;  // nullptr: unknown after an error; checks stay silent
  Range range;             // the defining name (%x, %x#1 spelled at definition)
  std::string_view name;   // as spelled (%x, or %x#1 for multi-result ops); see Program::names
  OpId owner = kNoId;      // defining op (for block args: the op owning the region)
  uint32_t index = 0;      // result number or block argument number
  bool blockArg = false;
};

struct Operand {
  ValueId value = kNoId;
  Range range;
};

struct Block {
  std::vector<ValueId> args;
  std::vector<OpId> ops;
  Range range;
};

struct Region {
  std::vector<Block> blocks;
  Range range;
};

struct Operation {
  const OpInfo* info = nullptr;  // nullptr: unregistered (generic form) op
  std::string_view name;         // full name, e.g. cuda_tile.addi (table or source text storage)
  Range range;                   // whole op
  Range nameRange;               // the mnemonic
  llvm::SmallVector<ValueId, 2> results;
  llvm::SmallVector<Operand, 3> operands;
  llvm::SmallVector<uint32_t, 4> segments;  // operands per declared operand group (table order)
  std::vector<NamedAttr> attrs;
  std::vector<Region> regions;
  OpId parent = kNoId;
  bool generic = false;
  bool broken = false;  // an operand did not resolve to its written type: skip op rules

  const Attr* attr(std::string_view n) const {
    for (const auto& a : attrs)
      if (a.name == n) return &a.attr;
    return nullptr;
  }
};

// One parsed chunk: the tree plus every name the editor features need.
struct Program {
  std::string_view source;  // the whole file text (ranges index into it)
  TypeContext types;
  std::vector<Operation> ops;
  std::vector<Value> values;
  std::vector<OpId> topLevel;
  std::vector<std::unique_ptr<std::string>> names;  // value names not spelled in the text (%x#1)

  Operation& op(OpId id) { return ops[id]; }
  const Operation& op(OpId id) const { return ops[id]; }
  const Value& value(ValueId id) const { return values[id]; }
  TypeRef typeOf(ValueId id) const { return id == kNoId ? nullptr : values[id].type; }
};

}  // namespace tilesight
