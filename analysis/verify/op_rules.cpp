#include "analysis/verify/op_rules.h"

#include <iterator>

namespace tilesight::rules {

namespace {

// The `verify` column of ops.def, in OpKind order. The rules live here, not in
// the op table, so that ir/ does not depend on the verifier.
const VerifyFn kRules[] = {
#define TILE_OP(kind, name, category, since, format, operands, results, traits, verify, doc) verify,
#include "analysis/ir/ops.def"
#undef TILE_OP
};
static_assert(std::size(kRules) == kOpKindCount);

}  // namespace

VerifyFn ruleOf(OpKind k) { return kRules[static_cast<size_t>(k)]; }

}  // namespace tilesight::rules
