#pragma once
// `#name = #layout<EXPR [, expect = ...]>` aliases in tile programs (DESIGN §4):
// each is evaluated with the layout library; a broken rule is `layout.invalid`
// at the exact column, a false claim is `layout.claim` with the witness.
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/layout/value.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

struct LayoutAliasFact {
  std::string_view name;  // #name
  Range nameRange;
  Range bodyRange;        // the text between `#layout<` and `>`
  layout::Value value;
  layout::Properties properties;
};

// Evaluates every #layout alias of a chunk in definition order (later aliases
// may use earlier ones); appends the facts of the ones that evaluated. Their
// properties are decided within `budget`; a claim that could not be decided
// within it is a remark that says so, never an error.
void checkLayoutAliases(const ParseResult& parsed, DiagSink& diags, std::vector<LayoutAliasFact>& facts,
                        layout::WorkBudget& budget);

}  // namespace tilesight
