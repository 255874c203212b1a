#pragma once
// Shared by the expression parser (expr.cpp) and the function table
// (expr_functions.cpp): what a parsed argument is, and how a call is made.
#include <optional>
#include <string>
#include <vector>

#include "analysis/layout/expr.h"

namespace tilesight::layout::detail {

// One evaluated (sub)expression, with how it was written where that matters:
// a bare tuple `(3,8)` is a shape (a by-mode tiler for composition), an order
// or a profile; a bare word is an enumerator such as `gfx12` or `_`.
struct Operand {
  Value value;
  std::optional<IntTuple> literal;  // written as INT or '(' tuple ')'
  std::optional<std::string> word;  // written as a bare word
  size_t column = 0;
};

struct CallArg {
  std::string key;  // empty for a positional argument
  size_t keyColumn = 0;
  Operand value;
};

// Binds the arguments to the function's parameters and evaluates it.
ExprResult<Value> callFunction(const std::string& name, size_t column, std::vector<CallArg> args);

// The layout an operand stands for: literals are compact column-major shapes.
// `what` names the argument in errors ("argument 'b' of composition").
ExprResult<Layout> layoutOf(const Operand& op, const std::string& what);

// Shapes must be positive, and sizes and cosizes far from 64-bit overflow
// (at most 2^31); checked on literals and on every algebra result.
std::optional<ExprError> checkBounded(const Layout& l, size_t column);

}  // namespace tilesight::layout::detail
