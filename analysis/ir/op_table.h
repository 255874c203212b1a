#pragma once
// THE op table: one entry per Tile IR op (the rows: ops.def, which also
// gives the OpKind enum, so a switch over the kinds warns when one is
// missing). The parser interprets `format`,
// the verifier checks `operands`/`results` constraints and calls the row's
// `verify` rule (verify/op_rules.h: ruleOf),
// hover shows `doc`, completion lists `name` with `format` as a snippet.
//
// Format mini-language (our own notation, whitespace separated):
//   %x        one operand of group x        %x*   comma-separated list (0+)
//   'k'       a literal keyword or punctuation
//   [ ... ]   optional group, present when its first element matches
//   [?x ...]  optional group, present when operand group x was present
//   @a:KIND   attribute `a` of KIND (see AttrSyntax)
//   {}        optional attribute dictionary   {kw}  `attributes {...}`
//   t(a=b)    one type, given to every listed operand/result group
//   t(x*)     comma-separated types, one per value of group x
//   ^r        a region            ^r:args   `(%a: T, ...)` then a region
//   custom    the op has a hand-written parser (syntax/custom_ops.cpp)
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/ADT/StringMap.h>

#include "analysis/ir/op_format.h"
#include "analysis/ir/types.h"

namespace tilesight {

// What a value of an operand/result group may be.
struct Constraint {
  enum Kind : uint8_t { Any, Tile, Token, TensorView, View, PartitionView, StridedView, GatherScatterView };
  Kind kind = Any;
  uint32_t elems = 0;     // allowed element bitmask (bit = Elem); 0 = any element
  bool ptrElem = false;   // pointer tiles allowed (alone when elems == 0 and ptrOnly)
  bool ptrOnly = false;
  bool scalar = false;    // rank-0 tiles only
  std::string_view description;  // "tile of f16, bf16, f32 or f64"
  bool accepts(TypeRef t) const;
  TypeRef buildable(TypeContext& ctx) const;  // the single type it allows, if one
};

enum class Arity : uint8_t { One, Optional, Variadic };

struct GroupDecl {
  std::string name;
  Arity arity = Arity::One;
  Constraint constraint;
};

// One enumerator per row of ops.def, in table order: OpTable::get().all()[k].
enum class OpKind : uint8_t {
#define TILE_OP(kind, ...) kind,
#include "analysis/ir/ops.def"
#undef TILE_OP
};
constexpr size_t kOpKindCount = 0
#define TILE_OP(...) +1
#include "analysis/ir/ops.def"
#undef TILE_OP
    ;

enum class OpCategory : uint8_t { Integer, Float, Conversion, Core, Memory, View, Control, Top };
// "integer", "float", "conversion", "core", "memory", "view", "control", "top".
std::string_view categoryName(OpCategory c);

enum OpTrait : uint32_t {
  kPure = 1u << 0,
  kTerminator = 1u << 1,
  kIsolated = 1u << 2,   // entry, testing$func, module
  kMemory = 1u << 3,     // token-ordered memory op
  kTopLevel = 1u << 4,   // may appear directly in a module
  // Result element i is a function of element i of each operand (same
  // shape): integer, float and conversion ops but matrix products and
  // pointer casts, select, assume.
  kElementwise = 1u << 5,
  kReadsMemory = 1u << 6,   // loads and atomics
  kWritesMemory = 1u << 7,  // stores and atomics
};

struct OpInfo {
  OpKind kind;
  std::string_view name;      // mnemonic without the dialect, e.g. "addi"
  std::string fullName;       // "cuda_tile.addi"
  OpCategory category;
  std::string_view since;     // Tile IR version
  std::string_view format;
  std::vector<GroupDecl> operands;
  std::vector<GroupDecl> results;
  uint32_t traits = 0;
  std::string_view doc;
  std::vector<FormatElem> syntax;  // compiled `format`; empty for custom

  // The element of `format` that spells attribute `name` (its kind in
  // `text`); nullptr for a custom format or an attribute it does not name.
  const FormatElem* attrSyntax(std::string_view name) const;
  // The value attribute `name` takes when omitted (from `format`); empty when none.
  std::string_view attrDefault(std::string_view name) const;
  int operandGroup(std::string_view n) const;
  int resultGroup(std::string_view n) const;
};

class OpTable {
public:
  static const OpTable& get();  // immutable after first use
  // Accepts "addi", "cuda_tile.addi", "testing$func", "cuda_tile.testing$func".
  const OpInfo* lookup(std::string_view name) const;
  const OpInfo& info(OpKind k) const { return ops_[static_cast<size_t>(k)]; }
  const std::vector<OpInfo>& all() const { return ops_; }

private:
  OpTable();
  static void resolveGroups(const OpInfo& op, std::vector<FormatElem>& elems);
  std::vector<OpInfo> ops_;
  llvm::StringMap<const OpInfo*> byName_;
};

}  // namespace tilesight
