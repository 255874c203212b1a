#pragma once
// The snippet an op name completes to, built from the op table's format.
#include <string>

#include "analysis/ir/op_table.h"

namespace tilesight::lsp {

// `addi ${1:%lhs}, ${2:%rhs} : ${3:tile<i32>}`: required elements only,
// operands and types as placeholders, keyword attributes as choices. Ops
// with a hand-written parser complete to their name.
std::string opSnippet(const OpInfo &op);

// A snippet as the text it inserts when no placeholder is visited: each
// placeholder its default (a choice its first option), tab stops nothing,
// escapes resolved. For clients without snippet support.
std::string snippetAsText(const std::string &snippet);

} // namespace tilesight::lsp
