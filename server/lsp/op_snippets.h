#pragma once
// The snippet an op name completes to, built from the op table's format.
#include <string>

#include "analysis/ir/op_table.h"

namespace tilesight::lsp {

// `addi ${1:%lhs}, ${2:%rhs} : ${3:tile<i32>}`: required elements only,
// operands and types as placeholders, keyword attributes as choices. Ops
// with a hand-written parser complete to their name.
std::string opSnippet(const OpInfo &op);

} // namespace tilesight::lsp
