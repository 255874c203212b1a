#pragma once
// Structural equality of two programs, the printer's round-trip guarantee
// (printer.h): ops (table kind, or name for unregistered ones, and the generic
// form), operands by the definition order of the value they use, operand
// groups, result and block argument types, attributes by value, regions and
// blocks. Value names and source ranges do not count.
#include <optional>
#include <string>

#include "analysis/ir/ir.h"

namespace tilesight {

// The first difference between `a` and `b`, naming the op and its line in
// each; nullopt when they are the same.
std::optional<std::string> firstDifference(const Program& a, const Program& b);
// The same from op `x` of `a` and op `y` of `b` down (one module of each).
std::optional<std::string> firstDifference(const Program& a, OpId x, const Program& b, OpId y);

// Attributes by value: kind, numbers (floats bit for bit), words, types by
// spelling, nested lists and dictionaries in order; ranges ignored. Integers
// compare their spelling too where both have one (a hexadecimal float bit
// pattern means what it spells).
bool sameAttr(const Attr& a, const Attr& b);

}  // namespace tilesight
