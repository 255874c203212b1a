#pragma once
// The layout expression language of DESIGN §4:
//   expr := layout | INT | '(' tuple ')' | '[' expr|_, ... ']' | '#' NAME | NAME '(' args ')'
//   args := expr | bare word (gfx12, A, colmajor) | NAME '=' expr
// `evaluate` parses and evaluates in one pass; an error carries the byte
// column (0-based) where the rule broke, so a front end can point at it.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "analysis/layout/value.h"

namespace tilesight::layout {

struct ExprError {
  size_t column = 0;     // 0-based byte offset into the evaluated text
  std::string rule;      // "syntax: ...", "wrong arity", an algebra rule, ...
  std::string message;   // the concrete values
  std::string text() const { return message.empty() ? rule : rule + ": " + message; }
};

template <class T>
using ExprResult = Expected<T, ExprError>;

// Resolves `#NAME` (the name without '#'); nullopt = not defined.
using LayoutEnv = std::function<std::optional<Value>(std::string_view name)>;

ExprResult<Value> evaluate(std::string_view text, const LayoutEnv& env = {});

// A coordinate for `--at`: an integer or a (nested) tuple of integers.
ExprResult<IntTuple> parseCoordinate(std::string_view text);

// The body of `#layout<EXPR [, expect = injective|surjective|bijective]>`.
enum class Claim { Injective, Surjective, Bijective };
struct LayoutAttr {
  Value value;
  std::optional<Claim> claim;
  size_t claimColumn = 0;  // where the claim's word starts
};
ExprResult<LayoutAttr> evaluateAttr(std::string_view body, const LayoutEnv& env = {});

// The functions of the language with their signatures, e.g.
// `complement(a[, cotarget])`, in name order (completion, docs).
struct FunctionSignature {
  std::string name;
  std::string signature;
};
std::vector<FunctionSignature> layoutFunctions();

const char* claimName(Claim c);
// Undecided when the claim rests on an injectivity that the work budget left
// undecided (a surjectivity, or a bijective claim on a layout with gaps, is
// always decided).
enum class ClaimVerdict { Holds, Fails, Undecided };
ClaimVerdict claimVerdict(Claim c, const Properties& p);

}  // namespace tilesight::layout
