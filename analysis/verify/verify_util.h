#pragma once
// Small helpers shared by the op rules: named operand access and diagnostics
// that land on the op's line (the convention MLIR tools and tests rely on)
// while pointing as precisely as that allows.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"

namespace tilesight::rules {

struct OpRef {
  const Program& p;
  const Operation& op;

  // Operands of declared group `name` (empty if absent).
  std::vector<const Operand*> group(std::string_view name) const;
  const Operand* operand(std::string_view name) const;  // first of the group
  TypeRef type(std::string_view operandName) const;     // its type, nullptr if absent/unknown
  TypeRef result(size_t i) const { return i < op.results.size() ? p.typeOf(op.results[i]) : nullptr; }
  const Attr* attr(std::string_view n) const { return op.attr(n); }
  std::string keyword(std::string_view attrName) const;
  std::string name() const { return std::string(op.info ? op.info->name : op.name); }
  // `r` if it starts on the op's first line, else the op name.
  Range onOpLine(Range r) const;
  Range at() const { return op.nameRange; }
};

Diagnostic& fail(DiagSink& d, const OpRef& o, const std::string& msg);            // at the op name
Diagnostic& failAt(DiagSink& d, const OpRef& o, Range r, const std::string& msg);  // near r, on the op line
std::string elemStr(TypeRef tile);  // "f32", "ptr<f32>"

// "scalar" for a 0-d shape, else "4x8".
std::string shapeText(const std::vector<int64_t>& shape);
// "1 operand", "2 operands"; `many` for irregular plurals.
std::string count(size_t n, std::string_view one, std::string_view many = {});
// "[1, 0, 2]"
std::string listText(const std::vector<int64_t>& v);
// The range of operand group `name`, else the op name.
Range operandRange(const OpRef& o, std::string_view name);
// All known and tiles (types are nullptr after earlier errors: stay silent then).
bool allTiles(std::initializer_list<TypeRef> ts);
// Attribute `name` if it is an integer, else nullptr.
const Attr* intAttr(const OpRef& o, std::string_view name);
// Whether an integer literal is spelled in hexadecimal ("0x..", "-0x..").
bool isHexLiteral(std::string_view s);
// The 64-bit value the dialect's integer parser gives a literal, or nullopt when
// it does not fit. Decimals up to 2^64-1 wrap to negative values like MLIR's do.
std::optional<int64_t> literalInt(const Attr& e);

}  // namespace tilesight::rules
